"""French Tarot transitions: each action's effect on a deal (french_tarot.md §3–§5).

Pure functions from (state, action) to (new state, public events); ``FrenchTarotRules.apply``
dispatches here. Events carry only public facts: the hidden partner is never named before the
called card is played (french_tarot D-13).

Two layers. The ``step_*`` functions are the transitions proper: they trust their action
(the caller checked it is legal), build the successor positionally and build events only
when asked (simulations skip them). ``apply`` and the checking functions under it (``bid``,
``call``, ``discard``, ``announce``, ``poignee``, ``play``) validate an action the slow way,
with the refusal messages players see, then run the same ``step_*``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import Any, cast

from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, TAROT_PACK
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games.french_tarot_cards import (
    CONTRACTS,
    DOG_TAKEN,
    EXCUSE_SHIFT,
    FULL,
    PARAMS,
    POWER,
    SUIT,
    TRUMP_NO,
    callable_cards,
    discard_counts,
    is_trump,
    poignee_options,
    right,
    sort_key,
)
from bot.engine.games.french_tarot_scoring import score
from bot.engine.games.french_tarot_state import (
    BASE,
    BID_ACTIONS,
    CALLED_BY,
    CARDS,
    CONTRACT_INDEX,
    EXCUSE_PLAY,
    FOLLOW,
    H_EXCUSE_WON,
    H_LEADER,
    H_TRICKS,
    H_WINNERS,
    H_WON,
    HANDS,
    HIGH,
    HIST,
    LEGAL,
    SEAT_BIT,
    SHIFT,
    TRICK,
    TURN,
    FrenchTarotRecord,
    FrenchTarotState,
    Phase,
    follow_plays,
    hand_of,
    high_bid,
    legal_cards,
    make,
    may_show_poignee,
    new_state,
    play_restriction,
    plays_of,
    poignee_actions,
    working,
)
from bot.engine.trick import Play

Step = tuple[FrenchTarotState, tuple[Event, ...]]

_new = cast("Callable[[type[Any], Iterable[Any]], Any]", tuple.__new__)  # pyright: ignore[reportUnknownMemberType]
_NO_EVENTS: tuple[Event, ...] = ()
_PLAY, _CALL, _DISCARD, _CHELEM, _DONE, _BIDDING = (
    Phase.PLAY,
    Phase.CALL,
    Phase.DISCARD,
    Phase.CHELEM,
    Phase.DONE,
    Phase.BIDDING,
)
_SEATS = range(5)
#: The ``bid`` event per seat and contract, as a whole event tuple.
BID_EVENT: tuple[dict[str, tuple[Event]], ...] = tuple(
    {c: (Event("bid", s, {"contract": c}),) for c in ("pass", *CONTRACTS)} for s in _SEATS
)
#: Next seat in play order, by player count and seat.
NEXT: dict[int, tuple[int, ...]] = {n: tuple(right(s, n) for s in range(n)) for n in (3, 4, 5)}
#: ``card_played`` event per seat and card (events are read-only facts; sharing is safe).
CARD_PLAYED: tuple[dict[str, Event], ...] = tuple(
    {c: Event("card_played", s, {"card": c}) for c in TAROT_PACK} for s in _SEATS
)
#: The same, as the whole event tuple of a card that neither ends a trick nor is called.
CARD_PLAYED_ONLY: tuple[dict[str, tuple[Event]], ...] = tuple(
    {c: (e,) for c, e in by_card.items()} for by_card in CARD_PLAYED
)
#: A trick's ``(seat, card)`` entry per seat and card, as a one-entry trick to append.
PLAY_ENTRY: tuple[dict[str, tuple[tuple[int, str]]], ...] = tuple(
    {c: ((s, c),) for c in TAROT_PACK} for s in _SEATS
)


# Record fields a transition sets (positions in ``FrenchTarotRecord``).
_R_PHASE, _R_BIDS, _R_TAKER, _R_CONTRACT, _R_CALLED, _R_PARTNER = 3, 7, 8, 9, 10, 11
_R_DISCARD, _R_CHELEM, _R_POIGNEES, _R_OUTCOME = 12, 13, 14, 22


def put(b: FrenchTarotRecord, i: int, v: Any) -> FrenchTarotRecord:
    """``b`` with field ``i`` set to ``v`` (positional: cheaper than ``_replace``)."""
    return _new(FrenchTarotRecord, b[:i] + (v,) + b[i + 1 :])


def _with(s: FrenchTarotState, base: FrenchTarotRecord, hands: int, turn: int | None) -> Any:
    """``s`` with a new base, hands and turn (its trick and tricks unchanged)."""
    return make(base, hands, s[TRICK], s[HIGH], s[HIST], s[CALLED_BY], turn)


# ---- the transitions (trusted) -------------------------------------------------------


def step_bid(s: FrenchTarotState, t: int, contract: str, ev: bool) -> Step:
    """Seat ``t`` bids ``contract`` (legal: ``pass`` or above the highest bid)."""
    b: FrenchTarotRecord = s[BASE]
    players = b[0]
    bids = b[_R_BIDS]
    bids = bids[:t] + (contract,) + bids[t + 1 :]
    b = _new(FrenchTarotRecord, (*b[:_R_BIDS], bids, *b[_R_BIDS + 1 :]))
    # the highest bid so far, read off the legal bids offered (pass + each higher one)
    high = max(len(CONTRACTS) - len(s[LEGAL]), CONTRACT_INDEX[contract])
    if t != b[1]:  # C-8: everyone speaks once; the dealer speaks last
        nt = NEXT[players][t]
        nxt = new_state((b, *s[HANDS:TURN], nt, BID_ACTIONS[nt][high]))
        return nxt, (BID_EVENT[t][contract] if ev else _NO_EVENTS)
    events: list[Event] = [*BID_EVENT[t][contract]] if ev else []
    if high < 0:
        if ev:
            events.append(Event("thrown_in"))
        b = _new(FrenchTarotRecord, (*b[:3], _DONE, *b[4:22], "thrown_in", (0,) * players, b[24]))
        return _with(s, b, s[HANDS], None), tuple(events)
    contract = CONTRACTS[high]
    taker = bids.index(contract)
    if ev:
        events.append(Event("taker", taker, {"contract": contract}))
    b = _new(FrenchTarotRecord, (*b[:_R_TAKER], taker, contract, *b[_R_CONTRACT + 1 :]))
    if players == 5:
        return _with(s, put(b, _R_PHASE, _CALL), s[HANDS], taker), tuple(events)
    return after_call(b, s, events, ev)


def step_call(s: FrenchTarotState, t: int, card: str, ev: bool) -> Step:
    """The 5-player taker calls ``card`` (§3.4)."""
    b = put(s[BASE], _R_CALLED, card)
    return after_call(b, s, [Event("called", t, {"card": card})] if ev else [], ev)


def after_call(b: FrenchTarotRecord, s: FrenchTarotState, events: list[Event], ev: bool) -> Step:
    """The contract (and the called card) known: the dog (§3.5). ``s`` gives the rest."""
    taker, contract = b[_R_TAKER], b[_R_CONTRACT]
    assert taker is not None and contract is not None
    hands = s[HANDS]
    if contract in DOG_TAKEN:
        # §3.5: the dog is shown to everyone and joins the taker's hand.
        dog = b[5]
        if ev:
            events.append(Event("dog_revealed", taker, {"cards": sorted(dog)}))
        bits = SEAT_BIT[taker]
        for c in dog:
            hands |= bits[c]
        return _with(s, put(b, _R_PHASE, _DISCARD), hands, taker), tuple(events)
    if ev:
        to = "attack" if contract == "garde_sans" else "defence"
        events.append(Event("dog_aside", taker, {"to": to}))
    return after_discard(b, hands, s, events)


def step_discard(s: FrenchTarotState, t: int, cards: tuple[str, ...], ev: bool) -> Step:
    """The taker lays ``cards`` aside (checked by ``discard``)."""
    bits = SEAT_BIT[t]
    hands = s[HANDS]
    for c in cards:
        hands &= ~bits[c]
    b = put(s[BASE], _R_DISCARD, tuple(sorted(cards)))
    events: list[Event] = []
    if ev:
        shown = sorted(c for c in cards if is_trump(c))
        events.append(Event("discarded", t, {"count": len(cards), "trumps": shown}))
    return after_discard(b, hands, s, events)


def after_discard(
    b: FrenchTarotRecord, hands: int, s: FrenchTarotState, events: list[Event]
) -> Step:
    if b[2]:  # C-7: the chelem option asks the taker
        return _with(s, put(b, _R_PHASE, _CHELEM), hands, b[_R_TAKER]), tuple(events)
    return start_play(b, hands, s, events)


def step_chelem(s: FrenchTarotState, t: int, announce: bool, ev: bool) -> Step:
    b = put(s[BASE], _R_CHELEM, announce)
    return start_play(b, s[HANDS], s, [Event("chelem", t, {"announce": announce})] if ev else [])


def start_play(b: FrenchTarotRecord, hands: int, s: FrenchTarotState, events: list[Event]) -> Step:
    called, taker = b[_R_CALLED], b[_R_TAKER]
    partner: int | None = None
    if called is not None:
        # C-9: the holder of the called card once play starts; none after a self-call,
        # with the card in the dog (picked up or not) or discarded.
        holders = [p for p in range(b[0]) if hands & SEAT_BIT[p][called]]
        partner = holders[0] if holders and holders[0] != taker else None
    leader = taker if b[_R_CHELEM] and taker is not None else right(b[1], b[0])
    b = _new(FrenchTarotRecord, (*b[:3], _PLAY, *b[4:_R_PARTNER], partner, *b[_R_PARTNER + 1 :]))
    hist = s[HIST]
    hist = (*hist[:H_LEADER], leader, hist[H_EXCUSE_WON])
    return make(b, hands, s[TRICK], s[HIGH], hist, s[CALLED_BY], leader), tuple(events)


def step_poignee(s: FrenchTarotState, t: int, level: int, cards: tuple[str, ...], ev: bool) -> Step:
    b: FrenchTarotRecord = s[BASE]
    s = _with(s, put(b, _R_POIGNEES, (*b[_R_POIGNEES], (t, level, cards))), s[HANDS], s[TURN])
    if not ev:
        return s, _NO_EVENTS
    return s, (Event("poignee", t, {"level": level, "cards": sorted(cards)}),)


def step_play(s: FrenchTarotState, t: int, card: str, ev: bool) -> Step:
    """Seat ``t`` (to act) plays ``card`` (legal)."""
    b = s[0]
    hands = s[1] ^ SEAT_BIT[t][card]
    trick = s[2] + PLAY_ENTRY[t][card]
    players = b[0]
    if card != b[10]:
        if len(trick) < players:
            return follow_on(b, hands, trick, s[3], card, s[4], s[5], t), (
                CARD_PLAYED_ONLY[t][card] if ev else _NO_EVENTS
            )
        return end_trick(b, hands, trick, s[4], s[5], CARD_PLAYED_ONLY[t][card] if ev else None)
    called_by = t  # D-13: the partnership becomes public now
    events: tuple[Event, ...] | None = None
    if ev:
        revealed = Event("partner_revealed", t, {"card": card, "alone": t == b[8]})
        events = (CARD_PLAYED[t][card], revealed)
    if len(trick) < players:
        nxt = follow_on(b, hands, trick, s[3], card, s[4], called_by, t)
        return nxt, (_NO_EVENTS if events is None else events)
    return end_trick(b, hands, trick, s[4], called_by, events)


def follow_on(
    b: FrenchTarotRecord,
    hands: int,
    trick: tuple[Play, ...],
    high: int,
    card: str,
    hist: tuple[Any, ...],
    called_by: int | None,
    t: int,
) -> FrenchTarotState:
    """The state after seat ``t`` played ``card`` into ``trick`` (now holding it), which the
    next seat must follow; ``high`` is the trick's best trump before the card."""
    trump = TRUMP_NO[card]
    if trump > high:
        high = trump
    nt = NEXT[b[0]][t]
    h = hands >> SHIFT[nt] & FULL
    follow = FOLLOW[nt][trick[0][1]]
    if follow is not None:  # the usual case inline: a suit led that the hand can follow
        c0, c1, s0, s1 = follow
        legal = c0[h >> s0 & 127] + c1[h >> s1 & 127]
        if not legal:
            legal = follow_plays(nt, h, trick, high)
        elif h >> EXCUSE_SHIFT:
            legal += EXCUSE_PLAY[nt]
    else:
        legal = follow_plays(nt, h, trick, high)
    if not hist[H_TRICKS]:
        legal += poignee_actions(b, nt, h)
    return new_state((b, hands, trick, high, hist, called_by, nt, legal))


_CARD = itemgetter(1)
#: Per card led: each card's strength in the trick (§4.3): trumps 101–121, the suit led by
#: rank, any other card (and the Excuse) -1.
STRENGTH: dict[str, dict[str, int]] = {
    led: {
        c: POWER[c] if POWER[c] > 100 or (SUIT[c] == SUIT[led] and c != EXCUSE) else -1
        for c in TAROT_PACK
    }
    for led in TAROT_PACK
    if led != EXCUSE
}


def end_trick(
    b: FrenchTarotRecord,
    hands: int,
    trick: tuple[Play, ...],
    hist: tuple[Any, ...],
    called_by: int | None,
    events: tuple[Event, ...] | None,
) -> Step:
    """The trick ``trick`` is complete: who takes it, and the score after the last one.
    ``events``: the events so far (``None`` when they are not wanted)."""
    tricks = hist[H_TRICKS]
    last = len(tricks) == CARDS[b[0]] - 1
    # §4.3 (``trick_winner``): the best trump, else the best card of the suit led
    lead = trick[0][1]
    strength = STRENGTH[lead if lead != EXCUSE else trick[1][1]]
    winner, best = trick[0][0], -1
    for seat, c in trick:
        p = strength[c]
        if p > best:
            winner, best = seat, p
    excuse_won_last = False
    if last and trick[0][1] == EXCUSE:
        # §4.5, C-2: a camp that took every trick wins the last with a led Excuse.
        attack = (b[_R_TAKER], b[_R_PARTNER])
        side = trick[0][0] in attack
        if all((w in attack) == side for w in hist[H_WINNERS]):
            winner, excuse_won_last = trick[0][0], True
    won = hist[H_WON]
    if won is not None:  # kept counts (a deal given field by field); else counted when read
        won = won[:winner] + (won[winner] + 1,) + won[winner + 1 :]
    hist = ((*tricks, trick), (*hist[H_WINNERS], winner), won, winner, excuse_won_last)
    if events is not None:
        cards = list(map(_CARD, trick))
        events += (_new(Event, ("trick_won", winner, {"cards": cards})),)
    if not last:
        # after the first trick any lead is free (D-14 binds trick 1 only) and no poignée
        legal = plays_of(winner, hands >> SHIFT[winner] & FULL)
        nxt = new_state((b, hands, (), 0, hist, called_by, winner, legal))
        return nxt, (_NO_EVENTS if events is None else events)
    # the deal is over: nobody to act, no legal action (``legal_for``'s answer)
    return finish(new_state((b, hands, (), 0, hist, called_by, None, ())), events)


def finish(s: FrenchTarotState, events: tuple[Event, ...] | None) -> Step:
    b: FrenchTarotRecord = s[BASE]
    taker, contract = b[8], b[9]
    assert taker is not None and contract is not None
    deltas, detail = score(
        players=b[0],
        taker=taker,
        partner=b[11],
        contract=contract,
        dog=b[5],
        discard=b[12],
        tricks=s[HIST][H_TRICKS],
        winners=s[HIST][H_WINNERS],
        excuse_won_last=s[HIST][H_EXCUSE_WON],
        poignees=[(seat, level) for seat, level, _ in b[14]] if b[14] else [],
        chelem_announced=b[13],
    )
    detail["called"] = b[10]
    detail["dog"] = sorted(b[5])
    detail["discard"] = sorted(b[12])
    b = _new(FrenchTarotRecord, (*b[:3], _DONE, *b[4:_R_OUTCOME], "played", deltas, detail))
    s = new_state((b, *s[HANDS:TURN], None, ()))
    if events is None:
        return s, _NO_EVENTS
    return s, (*events, Event("deal_over", data={"deltas": list(deltas)}))


# ---- checked actions (players' input) ----------------------------------------------------

_EXPECTED: dict[Phase, tuple[str, ...]] = {
    _BIDDING: ("bid",),
    _CALL: ("call",),
    _DISCARD: ("discard",),
    _CHELEM: ("chelem",),
    _PLAY: ("play", "poignee"),
}


def apply(state: FrenchTarotState, action: Action, ev: bool = True) -> Step:
    """Apply ``action`` or raise ``IllegalAction`` (the state is never half-changed)."""
    s = working(state)
    if s.turn is None:
        raise IllegalAction("deal_over", "this deal is over")
    if action.seat != s.turn:
        raise IllegalAction("not_your_turn", f"it is seat {s.turn}'s turn")
    kind = action.type
    if kind not in _EXPECTED[s.phase]:
        raise IllegalAction("illegal_action", f"a {kind} is not possible now ({s.phase})")
    if kind == "bid":
        return bid(s, action, ev)
    if kind == "call":
        return call(s, action, ev)
    if kind == "discard":
        return discard(s, action, ev)
    if kind == "chelem":
        return announce(s, action, ev)
    if kind == "poignee":
        return poignee(s, action, ev)
    return play(s, action, ev)


def bid(s: FrenchTarotState, a: Action, ev: bool = True) -> Step:
    if a.contract not in ("pass", *CONTRACTS[high_bid(s) + 1 :]):
        raise IllegalAction("illegal_action", f"you cannot bid {a.contract!r} now")
    return step_bid(s, a.seat, a.contract, ev)


def call(s: FrenchTarotState, a: Action, ev: bool = True) -> Step:
    if a.card not in callable_cards(hand_of(s, a.seat)):
        raise IllegalAction("illegal_action", f"you cannot call {a.card}")
    return step_call(s, a.seat, a.card, ev)


def discard(s: FrenchTarotState, a: Action, ev: bool = True) -> Step:
    t = a.seat
    cards = a.cards or ()
    size = PARAMS[s.players].dog
    hand = hand_of(s, t)
    if len(cards) != size or len(set(cards)) != size:
        raise IllegalAction("illegal_action", f"discard exactly {size} different cards")
    if any(c not in hand for c in cards):
        raise IllegalAction("illegal_action", "you can only discard cards you hold")
    plain, trumps, need = discard_counts(hand, size)
    bad = [c for c in cards if c not in plain and c not in trumps]
    if bad:
        raise IllegalAction("illegal_action", f"{bad[0]} cannot be discarded (no Kings, no bouts)")
    shown = sum(1 for c in cards if is_trump(c))
    if shown != need:  # C-11: exactly as many trumps as forced
        raise IllegalAction(
            "illegal_action",
            "trumps may be discarded only when nothing else can be"
            if shown > need
            else f"the discard must include {need} trump(s)",
        )
    return step_discard(s, t, tuple(cards), ev)


def announce(s: FrenchTarotState, a: Action, ev: bool = True) -> Step:
    return step_chelem(s, a.seat, bool(a.announce), ev)


def poignee(s: FrenchTarotState, a: Action, ev: bool = True) -> Step:
    t = a.seat
    if not may_show_poignee(s, t):
        raise IllegalAction("illegal_action", "a poignée is shown once, before your first card")
    cards = tuple(sorted(set(a.cards or ()), key=sort_key))
    if len(cards) != len(a.cards or ()):
        raise IllegalAction("illegal_action", "show each card once")
    hand = hand_of(s, t)
    for level, size, showable in poignee_options(hand, s.players):
        if len(cards) != size or not set(cards) <= set(showable):
            continue
        if EXCUSE in showable and set(cards) != set(showable):
            continue
        return step_poignee(s, t, level, cards, ev)
    sizes = [o[1] for o in poignee_options(hand, s.players)]
    raise IllegalAction(
        "illegal_action",
        f"a poignée shows exactly {' or '.join(map(str, sizes)) or 'enough'} trumps you hold"
        " (the Excuse only with all your trumps)",
    )


_SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def refusal_reason(s: FrenchTarotState, seat: int) -> str | None:
    """The rule refusing a held card, in words (from ``play_restriction``), or ``None``."""
    r = play_restriction(s, seat)
    if r is None:
        return None
    led = str(r.data.get("led", r.data.get("suit")))
    symbol = _SUIT_SYMBOL.get(led, led)
    if r.code == "follow":
        if led == "T":
            return "you must follow the suit led (trumps)"
        return f"you must follow {symbol}"
    if r.code == "trump":
        return f"you can't follow the suit led ({symbol}), so you must trump"
    if r.code == "overtrump":
        if led == "T":
            return "you must follow the suit led (trumps) with a higher trump"
        return f"you can't follow the suit led ({symbol}), so you must play a higher trump"
    if r.code == "called_suit_first_trick":
        return f"the called suit ({symbol}) can't be led on the first trick, except the called card"
    return None


def play(s: FrenchTarotState, a: Action, ev: bool = True) -> Step:
    t = a.seat
    card = a.card
    if card is None or card not in legal_cards(s):
        if card not in hand_of(s, t):
            raise IllegalAction("illegal_action", f"you do not hold {card}")
        why = refusal_reason(s, t)
        detail = f"{card} cannot be played now" + (f": {why}" if why else "")
        raise IllegalAction("illegal_action", detail)
    return step_play(s, t, card, ev)
