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
from typing import Any, cast

from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, TAROT_PACK
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games.french_tarot_cards import (
    CONTRACTS,
    DOG_TAKEN,
    PARAMS,
    TRUMP_NO,
    callable_cards,
    discard_counts,
    is_trump,
    poignee_options,
    right,
    sort_key,
    trick_winner,
)
from bot.engine.games.french_tarot_scoring import score
from bot.engine.games.french_tarot_state import (
    BASE,
    CALLED_BY,
    EXCUSE_WON,
    HANDS,
    LEADER,
    SEAT_BIT,
    TRICK,
    TRICKS,
    TURN,
    WINNERS,
    FrenchTarotRecord,
    FrenchTarotState,
    Phase,
    hand_of,
    high_bid,
    legal_cards,
    may_show_poignee,
    play_restriction,
    working,
)

Step = tuple[FrenchTarotState, tuple[Event, ...]]

_new = cast("Callable[[type[Any], Iterable[Any]], Any]", tuple.__new__)  # pyright: ignore[reportUnknownMemberType]
_S = FrenchTarotState
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
#: Next seat in play order, by player count and seat.
NEXT: dict[int, tuple[int, ...]] = {n: tuple(right(s, n) for s in range(n)) for n in (3, 4, 5)}
#: Cards per hand at the start of play, by player count (the last trick's index + 1).
CARDS: dict[int, int] = {n: p.cards for n, p in PARAMS.items()}
#: ``card_played`` event per seat and card (events are read-only facts; sharing is safe).
CARD_PLAYED: tuple[dict[str, Event], ...] = tuple(
    {c: Event("card_played", s, {"card": c}) for c in TAROT_PACK} for s in _SEATS
)
#: The same, as the whole event tuple of a card that neither ends a trick nor is called.
CARD_PLAYED_ONLY: tuple[dict[str, tuple[Event]], ...] = tuple(
    {c: (e,) for c, e in by_card.items()} for by_card in CARD_PLAYED
)
#: A trick's ``(seat, card)`` entry per seat and card.
PAIRS: tuple[dict[str, tuple[int, str]], ...] = tuple(
    {c: (s, c) for c in TAROT_PACK} for s in _SEATS
)
#: Index of each bid in ``CONTRACTS`` (``pass`` and not yet spoken: -1).
CONTRACT_INDEX: dict[str | None, int] = {None: -1, "pass": -1} | {
    c: i for i, c in enumerate(CONTRACTS)
}


def _with(s: FrenchTarotState, base: FrenchTarotRecord, hands: int, turn: int | None) -> Any:
    """``s`` with a new base, hands and turn (its trick and tricks unchanged)."""
    return _new(_S, (base, hands, turn, *s[TRICK:]))


# ---- the transitions (trusted) -------------------------------------------------------


def step_bid(s: FrenchTarotState, t: int, contract: str, ev: bool) -> Step:
    """Seat ``t`` bids ``contract`` (legal: ``pass`` or above the highest bid)."""
    b: FrenchTarotRecord = s[BASE]
    players, dealer = b[0], b[1]
    bids = (*b[7][:t], contract, *b[7][t + 1 :])
    b = _new(FrenchTarotRecord, (*b[:7], bids, *b[8:]))
    if t != dealer:  # C-8: everyone speaks once; the dealer speaks last
        nxt = _with(s, b, s[HANDS], NEXT[players][t])
        return nxt, ((Event("bid", t, {"contract": contract}),) if ev else _NO_EVENTS)
    events: list[Event] = [Event("bid", t, {"contract": contract})] if ev else []
    high = max([CONTRACT_INDEX[x] for x in bids])
    if high < 0:
        if ev:
            events.append(Event("thrown_in"))
        b = b._replace(phase=_DONE, outcome="thrown_in", deltas=(0,) * players)
        return _with(s, b, s[HANDS], None), tuple(events)
    contract = CONTRACTS[high]
    taker = bids.index(contract)
    if ev:
        events.append(Event("taker", taker, {"contract": contract}))
    if players == 5:
        b = b._replace(phase=_CALL, taker=taker, contract=contract)
        return _with(s, b, s[HANDS], taker), tuple(events)
    return after_call(
        _with(s, b._replace(taker=taker, contract=contract), s[HANDS], None), events, ev
    )


def step_call(s: FrenchTarotState, t: int, card: str, ev: bool) -> Step:
    """The 5-player taker calls ``card`` (§3.4)."""
    s = _with(s, s[BASE]._replace(called=card), s[HANDS], s[TURN])
    return after_call(s, [Event("called", t, {"card": card})] if ev else [], ev)


def after_call(s: FrenchTarotState, events: list[Event], ev: bool = True) -> Step:
    b: FrenchTarotRecord = s[BASE]
    taker, contract = b[8], b[9]
    assert taker is not None and contract is not None
    if contract in DOG_TAKEN:
        # §3.5: the dog is shown to everyone and joins the taker's hand.
        dog = b[5]
        if ev:
            events.append(Event("dog_revealed", taker, {"cards": sorted(dog)}))
        bits = SEAT_BIT[taker]
        hands = s[HANDS]
        for c in dog:
            hands |= bits[c]
        return _with(s, b._replace(phase=_DISCARD), hands, taker), tuple(events)
    if ev:
        to = "attack" if contract == "garde_sans" else "defence"
        events.append(Event("dog_aside", taker, {"to": to}))
    return after_discard(s, events)


def step_discard(s: FrenchTarotState, t: int, cards: tuple[str, ...], ev: bool) -> Step:
    """The taker lays ``cards`` aside (checked by ``discard``)."""
    bits = SEAT_BIT[t]
    hands = s[HANDS]
    for c in cards:
        hands &= ~bits[c]
    s = _with(s, s[BASE]._replace(discard=tuple(sorted(cards))), hands, s[TURN])
    events: list[Event] = []
    if ev:
        shown = sorted(c for c in cards if is_trump(c))
        events.append(Event("discarded", t, {"count": len(cards), "trumps": shown}))
    return after_discard(s, events)


def after_discard(s: FrenchTarotState, events: list[Event]) -> Step:
    b: FrenchTarotRecord = s[BASE]
    if b[2]:  # C-7: the chelem option asks the taker
        return _with(s, b._replace(phase=_CHELEM), s[HANDS], b[8]), tuple(events)
    return start_play(s, events)


def step_chelem(s: FrenchTarotState, t: int, announce: bool, ev: bool) -> Step:
    s = _with(s, s[BASE]._replace(chelem=announce), s[HANDS], s[TURN])
    return start_play(s, [Event("chelem", t, {"announce": announce})] if ev else [])


def start_play(s: FrenchTarotState, events: list[Event]) -> Step:
    b: FrenchTarotRecord = s[BASE]
    called, taker = b[10], b[8]
    partner: int | None = None
    if called is not None:
        # C-9: the holder of the called card once play starts; none after a self-call,
        # with the card in the dog (picked up or not) or discarded.
        holders = [p for p in range(b[0]) if s[HANDS] & SEAT_BIT[p][called]]
        partner = holders[0] if holders and holders[0] != taker else None
    leader = taker if b[13] and taker is not None else right(b[1], b[0])
    b = b._replace(phase=_PLAY, partner=partner)
    s = _new(_S, (b, s[HANDS], leader, *s[TRICK:LEADER], leader, *s[CALLED_BY:]))
    return s, tuple(events)


def step_poignee(s: FrenchTarotState, t: int, level: int, cards: tuple[str, ...], ev: bool) -> Step:
    b: FrenchTarotRecord = s[BASE]
    s = _with(s, b._replace(poignees=(*b[14], (t, level, cards))), s[HANDS], s[TURN])
    if not ev:
        return s, _NO_EVENTS
    return s, (Event("poignee", t, {"level": level, "cards": sorted(cards)}),)


def step_play(s: FrenchTarotState, t: int, card: str, ev: bool) -> Step:
    """Seat ``t`` (to act) plays ``card`` (legal)."""
    b = s[0]
    hands = s[1] ^ SEAT_BIT[t][card]
    trick = (*s[3], PAIRS[t][card])
    high = s[4]
    trump = TRUMP_NO[card]
    if trump > high:
        high = trump
    players = b[0]
    if card != b[10]:
        if len(trick) < players:
            nxt = (b, hands, NEXT[players][t], trick, high, s[5], s[6], s[7], s[8], s[9], s[10])
            return _new(_S, nxt), (CARD_PLAYED_ONLY[t][card] if ev else _NO_EVENTS)
        called_by = s[9]
        events: list[Event] | None = [CARD_PLAYED[t][card]] if ev else None
    else:
        called_by = t  # D-13: the partnership becomes public now
        events = None
        if ev:
            revealed = Event("partner_revealed", t, {"card": card, "alone": t == b[8]})
            events = [CARD_PLAYED[t][card], revealed]
        if len(trick) < players:
            nxt = (b, hands, NEXT[players][t], trick, high, s[5], s[6], s[7], s[8], called_by)
            nxt += (s[10],)
            return _new(_S, nxt), (_NO_EVENTS if events is None else tuple(events))
    tricks = s[5]
    last = len(tricks) == CARDS[players] - 1
    winner = trick_winner(trick)
    excuse_won_last = False
    if last and trick[0][1] == EXCUSE:
        # §4.5, C-2: a camp that took every trick wins the last with a led Excuse.
        attack = (b[8], b[11])
        side = trick[0][0] in attack
        if all((w in attack) == side for w in s[6]):
            winner, excuse_won_last = trick[0][0], True
    won = [*s[7]]
    won[winner] += 1
    nxt = (b, hands, winner, (), 0, (*tricks, trick), (*s[6], winner), tuple(won), winner)
    nxt += (called_by, excuse_won_last)
    if events is not None:
        events.append(Event("trick_won", winner, {"cards": [c for _, c in trick]}))
    if not last:
        return _new(_S, nxt), (_NO_EVENTS if events is None else tuple(events))
    return finish(_new(_S, nxt), events)


def finish(s: FrenchTarotState, events: list[Event] | None) -> Step:
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
        tricks=s[TRICKS],
        winners=s[WINNERS],
        excuse_won_last=s[EXCUSE_WON],
        poignees=[(seat, level) for seat, level, _ in b[14]],
        chelem_announced=b[13],
    )
    detail["called"] = b[10]
    detail["dog"] = sorted(b[5])
    detail["discard"] = sorted(b[12])
    b = b._replace(phase=_DONE, outcome="played", deltas=deltas, detail=detail)
    s = _with(s, b, s[HANDS], None)
    if events is None:
        return s, _NO_EVENTS
    events.append(Event("deal_over", data={"deltas": list(deltas)}))
    return s, tuple(events)


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
