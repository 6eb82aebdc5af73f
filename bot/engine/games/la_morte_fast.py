"""La Morte's transitions (``shared/rules/la_morte.md``): legal actions, ``apply``, the
simulation path ``apply_trusted`` and the deal result, over ``la_morte_state``'s tables.

A state's legal actions are computed once and cached (``apply`` checks membership in that
tuple); ``apply_trusted`` is the simulation path: no legality check and events only when
asked for. ``LaMorteRules`` binds these functions as its methods, so a call costs nothing more
than a method defined in the class. ``apply`` types its ``self`` as the engine's ``Rules``
contract (``legal_actions``, ``checked``): ``la_morte`` imports this module, so this one never
imports it back, not even for a type (ARCHITECTURE §5, no import circles).
"""

from __future__ import annotations

from typing import Any

from bot.engine.actions import Action
from bot.engine.events import Event
from bot.engine.games.hot_paths import (
    CARDS_OF,
    NO_LEGAL,
    WITHOUT,
    LegalMemo,
    last_result,
    new_tuple,
    suit_follow,
)
from bot.engine.games.la_morte_state import (
    AUCTION,
    AUCTION_LEGAL,
    AUCTIONING,
    AUTO,
    BID_ENTRY,
    BID_EVENT,
    CONTRACT,
    DEALER_LEGAL,
    DECIDE_LEGAL,
    DONE_TRICKS,
    DROP_ENTRY,
    DROPPED,
    DROPPER,
    ENTRY,
    FOLLOWS,
    FUORI,
    HANDS,
    HIGH_BID,
    HIGH_BIDDER,
    LA_MORTE,
    LEADER,
    LOWEST,
    MAKER,
    MORTE_LOST,
    MORTO,
    PHASE,
    PLAY,
    PLAYED,
    PLAYING,
    RANK,
    RESTARTED,
    STATUS_NAMES,
    STATUSES,
    TRICK,
    TRICKS,
    TURN,
    UNDECIDED,
    WIN_KEY,
    WINNERS,
    WON,
    LaMorteState,
    Phase,
    Status,
    replaced,
)
from bot.engine.rules import Rules
from bot.engine.trick import Play
from bot.engine.views import DealResult

_new = new_tuple
#: The memo of ``legal_actions`` (see ``hot_paths.LegalMemo``).
_last_legal: LegalMemo = NO_LEGAL


def compute_legal(s: LaMorteState) -> tuple[Action, ...]:
    t = s[TURN]
    if t is None:
        return ()
    phase = s[PHASE]
    if phase is PLAYING:
        if s[STATUSES][t] is UNDECIDED:  # la_morte C-1: the decision comes alone
            return DECIDE_LEGAL[t]
        hand = s[HANDS][t]
        trick = s[TRICK]
        play = PLAY[t]
        if trick:  # §4.2: follow the led suit if able, else anything
            return suit_follow(hand, play, FOLLOWS[s[5]][trick[0][1]])
        if len(hand) == 1:
            return (play[hand[0]],)  # a lone La Morte must be led: Fuori dal Tempo (D-14)
        if s[LOWEST]:  # la_morte D-8, C-2: accepter's trick-1 lead only
            low = min(RANK[c] for c in hand if c != LA_MORTE)
            return tuple([play[c] for c in hand if c != LA_MORTE and RANK[c] == low])
        out: list[Action] = []
        if LA_MORTE in hand:  # §4.4 lead ban
            for c in hand:
                if c != LA_MORTE:
                    out.append(play[c])
        else:  # a free lead (plain loops: comprehensions are calls in Python 3.11)
            for c in hand:
                out.append(play[c])
        return tuple(out)
    if phase is AUCTIONING:
        return AUCTION_LEGAL[t][s[HIGH_BID]]
    return DEALER_LEGAL[t]


def legal_actions(self: object, state: LaMorteState) -> tuple[Action, ...]:
    global _last_legal
    m = _last_legal
    if m[0] is state:
        return m[1]
    t = state[8]
    trick = state[17]
    if trick and t is not None and state[6] is PLAYING and state[7][t] is not UNDECIDED:
        # the common case, without ``compute_legal``'s other questions
        legal = suit_follow(state[2][t], PLAY[t], FOLLOWS[state[5]][trick[0][1]])
    else:
        legal = compute_legal(state)
    _last_legal = (state, legal)
    return legal


def apply(
    self: Rules, state: LaMorteState, action: Action
) -> tuple[LaMorteState, tuple[Event, ...]]:
    m = _last_legal
    if action not in (m[1] if m[0] is state else self.legal_actions(state)):
        action = self.checked(state, action)
    # items, not field names: ``Action``'s type, seat and card (one tuple index each)
    if action[0] != "play":
        return _step(state, action, True)
    return _play(state, action[1], action[2], True)  # type: ignore[arg-type]


def apply_trusted(
    self: object, state: LaMorteState, action: Action, events: bool = False
) -> tuple[LaMorteState, tuple[Event, ...]]:
    """``apply`` for simulations: ``action`` must be one of ``legal_actions(state)``
    (not checked); events are built only when ``events`` is true."""
    if action[0] != "play" or events:
        if state[6] is AUCTIONING and not events:
            return _auction(state, action)
        return _step(state, action, events)
    # A card play without events, inline (``_play``): the simulations' every step.
    t: int = action[1]
    card: str = action[2]  # type: ignore[assignment]
    out: list[Any] = list(state)
    n: int = out[0]
    hands: list[tuple[str, ...]] = list(out[2])
    hand = hands[t]
    hands[t] = WITHOUT[len(hand)][hand.index(card)](hand)
    out[2] = tuple(hands)
    out[15] = False
    trick: tuple[Play, ...] = out[17] + ENTRY[t][card]
    morto = out[21]
    if len(trick) < (n if morto is None else n - 1):
        nxt = t + 1 if t + 1 < n else 0
        if nxt == morto:
            nxt = nxt + 1 if nxt + 1 < n else 0
        out[17] = trick
        out[8] = nxt
        nxt_state: LaMorteState = _new(LaMorteState, out)
        # The next seat's legal actions while the trick's data is at hand (the caller's
        # next ``legal_actions`` finds them): §4.2, as in ``legal_actions``.
        if out[7][nxt] is UNDECIDED:
            legal = DECIDE_LEGAL[nxt]
        else:
            legal = suit_follow(hands[nxt], PLAY[nxt], FOLLOWS[out[5]][trick[0][1]])
        global _last_legal
        _last_legal = (nxt_state, legal)
        return nxt_state, ()
    return _end_trick(out, t, card, trick, False)


# ---- results -------------------------------------------------------------------
def result(self: object, state: LaMorteState) -> DealResult | None:
    phase = state.phase
    if phase is Phase.SCORED or phase is Phase.MUCKED:
        return _result_of(state)
    return None


# ---- transitions (the action is legal) ---------------------------------------------------

Step = tuple[LaMorteState, tuple[Event, ...]]


def _step(s: LaMorteState, a: Action, ev: bool) -> Step:
    kind = a.type
    if kind == "play":
        return _play(s, a.seat, a.card, ev)  # type: ignore[arg-type]
    phase = s[PHASE]
    if phase is AUCTIONING:
        return _auction(s, a)
    if phase is Phase.DEALER_OPTION:
        return _dealer_option(s, a)
    return _trick_one_decision(s, a.seat, kind)


def _auction(s: LaMorteState, a: Action) -> Step:
    t = a.seat
    kind = a.type
    out: list[Any] = list(s)
    if kind == "bid":
        x: int = a.amount  # type: ignore[assignment]
        out[HIGH_BID] = x
        out[HIGH_BIDDER] = t
        out[AUCTION] = s[AUCTION] + BID_ENTRY[t][x]
        return _pass_turn(out, t, BID_EVENT[t][x])
    if kind == "accept":
        maker = s[HIGH_BIDDER]
        high = s[HIGH_BID]
        assert maker is not None
        # la_morte D-3: Accept fixes the contract and the accepter leads at once.
        out[PHASE] = Phase.PLAY
        out[STATUSES] = replaced(replaced(s[STATUSES], maker, Status.MAKER), t, Status.DEFENDER)
        out[CONTRACT] = high
        out[MAKER] = maker
        out[LOWEST] = True
        out[LEADER] = t
        out[TURN] = t
        out[AUCTION] = s[AUCTION] + ((t, "accept", high),)
        ev = _new(Event, ("contract_set", maker, {"amount": high, "accepted_by": t}))
        return _new(LaMorteState, out), (_new(Event, ("accept", t, {"amount": high})), ev)
    out[STATUSES] = replaced(s[STATUSES], t, DROPPER)
    out[AUCTION] = s[AUCTION] + DROP_ENTRY[t]
    return _pass_turn(out, t, DROPPED[t])


def _pass_turn(out: list[Any], t: int, events: tuple[Event, ...]) -> Step:
    n: int = out[0]
    statuses: tuple[Status, ...] = out[STATUSES]
    nxt = t
    for _ in range(n):
        nxt = nxt + 1 if nxt + 1 < n else 0
        if statuses[nxt] is not DROPPER:
            break
    else:  # everyone dropped with no bid: §3.3
        dealer: int = out[1]
        out[PHASE] = Phase.DEALER_OPTION
        out[TURN] = dealer
        return _new(LaMorteState, out), (*events, Event("all_dropped", dealer))
    maker: int | None = out[HIGH_BIDDER]
    if maker is not None and nxt == maker:
        # la_morte D-4/D-5: a lone standing bid becomes the contract, no defenders.
        lead = (maker + 1) % n
        out[PHASE] = Phase.PLAY
        out[STATUSES] = replaced(statuses, maker, Status.MAKER)
        out[CONTRACT] = out[HIGH_BID]
        out[MAKER] = maker
        out[AUTO] = True
        out[LEADER] = lead
        out[TURN] = lead
        ev = Event("contract_set", maker, {"amount": out[HIGH_BID], "auto": True})
        return _new(LaMorteState, out), (*events, ev)
    out[TURN] = nxt
    s = _new(LaMorteState, out)
    global _last_legal
    high: int = out[HIGH_BID]  # (typed: a tuple indexed by Any is Unknown to pyright)
    legal = AUCTION_LEGAL[nxt][high]
    _last_legal = (s, legal)  # what legal_actions would say
    return s, events


def _dealer_option(s: LaMorteState, a: Action) -> Step:
    t = a.seat
    out: list[Any] = list(s)
    if a.type == "muck":
        out[PHASE] = Phase.MUCKED
        out[TURN] = None
        out[AUCTION] = (*s[AUCTION], (t, "muck", 0))
        return _new(LaMorteState, out), (Event("muck", t),)
    x: int = a.amount  # type: ignore[assignment]
    # la_morte §3.3, C-3: every status resets; the dealer's bid stands.
    out[PHASE] = Phase.AUCTION
    out[STATUSES] = (Status.UNDECIDED,) * s[0]
    out[HIGH_BID] = x
    out[HIGH_BIDDER] = t
    out[RESTARTED] = True
    out[TURN] = (t + 1) % s[0]
    out[AUCTION] = (*s[AUCTION], (t, "bid", x))
    return _new(LaMorteState, out), (Event("bid", t, {"amount": x, "restart": True}),)


def _trick_one_decision(s: LaMorteState, t: int, kind: str) -> Step:
    status = Status.DEFENDER if kind == "accept" else DROPPER
    contract = s[CONTRACT]
    out: list[Any] = list(s)
    out[STATUSES] = replaced(s[STATUSES], t, status)
    out[AUCTION] = s[AUCTION] + ((t, kind, contract or 0),)
    return _new(LaMorteState, out), (_new(Event, (kind, t, {"amount": contract})),)


def _play(s: LaMorteState, t: int, card: str, ev: bool) -> Step:
    """The state after seat ``t`` plays ``card`` (legal; not checked); events if ``ev``.
    ``apply_trusted`` has the same code inline (the simulations' every step)."""
    out: list[Any] = list(s)
    n: int = out[0]
    hands: list[tuple[str, ...]] = list(out[2])
    hand = hands[t]
    hands[t] = WITHOUT[len(hand)][hand.index(card)](hand)
    out[2] = tuple(hands)
    out[15] = False
    trick: tuple[Play, ...] = out[17] + ENTRY[t][card]
    morto = out[21]
    if len(trick) < (n if morto is None else n - 1):
        nxt = t + 1 if t + 1 < n else 0
        if nxt == morto:  # §3.5: il Morto is skipped
            nxt = nxt + 1 if nxt + 1 < n else 0
        out[17] = trick
        out[8] = nxt
        return _new(LaMorteState, out), (PLAYED[t][card] if ev else ())
    return _end_trick(out, t, card, trick, ev)


def _end_trick(out: list[Any], t: int, card: str, trick: tuple[Play, ...], ev: bool) -> Step:
    """The state once ``trick`` (ended by seat ``t``'s ``card``) is complete; ``out`` holds
    the fields so far. The winner takes it; il Morto, Fuori dal Tempo (§4.3, §4.4)."""
    n: int = out[0]
    led_seat, led = trick[0]
    morte_lost = False
    if led == LA_MORTE:  # la_morte D-14, C-4: forced lead, trump-led, La Morte wins
        winner = led_seat
        out[FUORI] = led_seat
    else:
        keys = WIN_KEY[out[5]][led]
        best = -9
        winner = led_seat
        for seat, c in trick:
            k = keys[c]
            if k > best:
                best = k
                winner = seat
            elif k == MORTE_LOST:
                morte_lost = True
    won: list[int] = list(out[WON])
    won[winner] += 1
    out[WON] = tuple(won)
    leader = winner
    if morte_lost:  # §4.3: the winner becomes il Morto and leaves play; the lead passes left
        out[MORTO] = winner
        leader = winner + 1 if winner + 1 < n else 0
    tricks: tuple[tuple[Play, ...], ...] = out[DONE_TRICKS] + (trick,)
    out[DONE_TRICKS] = tricks
    out[TRICK] = ()
    out[WINNERS] = out[WINNERS] + (winner,)
    out[LEADER] = leader
    last = len(tricks) == TRICKS
    if last:
        out[PHASE] = Phase.SCORED
        out[TURN] = None
    else:
        out[TURN] = leader
    s = _new(LaMorteState, out)
    if not ev:
        if not last:
            # A simulation: the leader's legal actions while its hand is at hand (the
            # caller's next ``legal_actions`` finds them): ``compute_legal``'s lead.
            global _last_legal
            if out[STATUSES][leader] is UNDECIDED:  # la_morte C-1: the decision first
                _last_legal = (s, DECIDE_LEGAL[leader])
            else:
                hand: tuple[str, ...] = out[HANDS][leader]
                play = PLAY[leader]
                found: list[Action] = []
                if len(hand) == 1:  # a lone La Morte is led: Fuori dal Tempo (D-14)
                    found.append(play[hand[0]])
                else:  # anything but La Morte (§4.4 lead ban)
                    for c in hand:
                        if c != LA_MORTE:
                            found.append(play[c])
                _last_legal = (s, tuple(found))
        return s, ()
    won_event = _new(Event, ("trick_won", winner, {"cards": CARDS_OF[len(trick)](trick)}))
    if not (last or morte_lost or led == LA_MORTE):
        return s, (PLAYED[t][card][0], won_event)
    events: list[Event] = [PLAYED[t][card][0], won_event]
    if led == LA_MORTE:
        events.append(Event("fuori_dal_tempo", led_seat))
    if morte_lost:
        events.append(Event("il_morto", winner))
    if last:
        res = result(None, s)
        assert res is not None
        events.append(_new(Event, ("deal_over", None, {"deltas": list(res.deltas)})))
    return s, tuple(events)


def _result(s: LaMorteState) -> DealResult:
    if s[PHASE] is Phase.MUCKED:
        return DealResult("mucked", (0,) * s[0], {"mucked_by": s[1]})
    c: int = s[CONTRACT] or 0
    maker: int | None = s[MAKER]
    won: tuple[int, ...] = s[WON]
    statuses: tuple[Status, ...] = s[STATUSES]
    fuori: int | None = s[FUORI]
    made = maker is not None and won[maker] >= c
    maker_status, defender_status = Status.MAKER, Status.DEFENDER
    deltas: list[int] = []
    for p, status in enumerate(statuses):
        tw = won[p]
        if p == fuori:
            score = 0  # la_morte D-14: Fuori dal Tempo zeroes only this player's score
        elif status is maker_status:
            score = tw + (c if made else 0)  # D-16: a failing maker keeps trick points
        elif status is defender_status:
            score = tw + (0 if made else c)
        else:
            score = c - 1 if tw == 0 else 0
        deltas.append(score)
    detail = {
        "contract": c,
        "maker": maker,
        "made": made,
        "auto_contract": s[AUTO],
        "roles": [STATUS_NAMES[x] for x in statuses],
        "tricks": list(won),
        "morto": s[MORTO],
        "fuori": fuori,
    }
    return DealResult("played", tuple(deltas), detail)


#: ``_result`` remembered for the state last asked about (``hot_paths.last_result``).
_result_of = last_result(_result)
