"""Small building blocks of the fast cores of La Morte, Early French Tarot, Loser's Game and
Queen of Tarot (issue 18): what a card play does to tuples, done in as few interpreter steps
as possible.

Python 3.11 runs a comprehension as a function call, so the hot paths use plain loops or the
tables here: ``without`` (a tuple minus one item, one C call), ``cards_of`` / ``card_tuple_of``
(the cards of a trick), ``new_tuple`` (``tuple.__new__``, which builds a NamedTuple state from
its fields without the class's Python-level ``__new__``) and ``frozen`` (read-only data for
events built once and returned many times). ``play_tables`` builds each game's per-seat,
per-card play tables at import, ``NO_LEGAL`` starts each game's memo of legal actions and
``last_result`` remembers a game's last deal result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import itemgetter
from types import MappingProxyType
from typing import Any, cast

from bot.engine.actions import Action
from bot.engine.events import Event
from bot.engine.trick import Play
from bot.engine.views import DealResult

#: ``new_tuple(StateClass, fields)``: a NamedTuple (state, event) from its fields in order.
new_tuple = cast("Callable[[type[Any], Iterable[Any]], Any]", tuple.__new__)  # pyright: ignore[reportUnknownMemberType]

#: The longest hand of the four games: Queen of Tarot's dealer before the discard.
LONGEST_HAND = 28
#: The most cards in one trick (six players).
MOST_PLAYS = 6

Strip = Callable[[tuple[Any, ...]], tuple[Any, ...]]
CardsOf = Callable[[tuple[tuple[int, str], ...]], list[str]]
CardTupleOf = Callable[[tuple[tuple[int, str], ...]], tuple[str, ...]]


def frozen(data: dict[str, Any]) -> Any:
    """Read-only event data, for an event built once and returned many times."""
    return MappingProxyType(data)


#: Per seat, per card: ``PlayTable[seat][card]`` is ``Action("play", seat, card=card)``.
PlayTable = tuple[dict[str, Action], ...]
#: ``PlayedTable[seat][card]``: the events of a play that does not end its trick.
PlayedTable = tuple[dict[str, tuple[Event, ...]], ...]
#: ``EntryTable[seat][card]``: ``((seat, card),)``, a trick entry ready to be appended.
EntryTable = tuple[dict[str, tuple[Play]], ...]


def play_tables(cards: tuple[str, ...], seats: int) -> tuple[PlayTable, PlayedTable, EntryTable]:
    """A game's card-play tables, built once at import: per seat below ``seats`` and per card
    of ``cards``, the play ``Action``, its ``card_played`` events (one read-only event) and
    its trick entry. The dicts are keyed by the very objects of ``cards``, so a game whose
    packs hold those same strings finds dealt cards on identity."""
    seat_range = range(seats)
    play = tuple({c: Action("play", seat, card=c) for c in cards} for seat in seat_range)
    played = tuple(
        {c: (Event("card_played", seat, frozen({"card": c})),) for c in cards}
        for seat in seat_range
    )
    entry = tuple({c: ((seat, c),) for c in cards} for seat in seat_range)
    return play, played, entry


#: A game's memo of the legal actions of the state last asked about, keyed by identity:
#: ``apply`` right after ``legal_actions`` (every caller's pattern) checks membership instead
#: of recomputing. Holding the state keeps its id from being reused; one tuple, so threads
#: read it whole. Each game keeps its own as a module global (``global`` stores and loads
#: are the cheapest), starting from ``NO_LEGAL``.
LegalMemo = tuple[Any, tuple[Action, ...]]
NO_LEGAL: LegalMemo = (None, ())


def suit_follow(hand: tuple[str, ...], play: dict[str, Action], members: Any) -> tuple[Action, ...]:
    """Following in a game without an excusing Fool (La Morte, Loser's Game), as play
    actions in hand order: the hand's cards of the suit led (``members``; empty on a free
    lead) if it has any, else every card. (Plain loops: comprehensions are calls in Python
    3.11.)"""
    out: list[Action] = []
    for c in hand:
        if c in members:
            out.append(play[c])
    if not out:
        for c in hand:
            out.append(play[c])
    return tuple(out)


def fool_follow(
    hand: tuple[str, ...],
    play: dict[str, Action],
    members: frozenset[str] | None,
    trumps: frozenset[str],
    fool: str,
) -> tuple[Action, ...]:
    """Following in a game whose Fool excuses itself (Early French Tarot, Queen of Tarot),
    as play actions in hand order: the cards of the suit led (``members``; None on a free
    lead or after the Fool alone) if any, else the trumps, the Fool with either; else every
    card. (Plain loops: comprehensions are calls in Python 3.11.)"""
    out: list[Action] = []
    if members is not None:
        for c in hand:
            if c in members:
                out.append(play[c])
        if not out:
            for c in hand:
                if c in trumps:
                    out.append(play[c])
        if out and fool in hand:
            out.append(play[fool])
    if not out:
        for c in hand:
            out.append(play[c])
    return tuple(out)


def fool_trick(
    trick: tuple[tuple[int, str], ...],
    fool: str,
    suit_of: dict[str, str],
    win_key: dict[str, dict[str, int]],
) -> tuple[int, int | None]:
    """``(winner, seat that played the Fool or None)`` of a complete trick in a game whose
    Fool excuses itself (Early French Tarot, Queen of Tarot): the first other card's suit is
    led, and the highest ``win_key[led]`` wins (the Fool's key is -1: it never does)."""
    led = None
    fool_seat = None
    for seat, c in trick:
        if c == fool:
            fool_seat = seat
        elif led is None:
            led = suit_of[c]
    winner = -1
    if led is not None:
        keys = win_key[led]
        best = -1
        for seat, c in trick:
            k = keys[c]
            if k > best:
                best, winner = k, seat
    return winner, fool_seat


def last_result(compute: Callable[[Any], DealResult]) -> Callable[[Any], DealResult]:
    """``compute`` (a finished deal's result) remembered for the state last asked about, by
    identity: ``apply`` asks for it for the deal-over event, then callers ask again. Holding
    the state keeps its id from being reused; the memo is one tuple, so threads read it
    whole. Called once a deal, never per card: one call level more is nothing."""
    memo: tuple[Any, DealResult | None] = (None, None)

    def result(state: Any) -> DealResult:
        nonlocal memo
        seen = memo
        if seen[0] is state and seen[1] is not None:
            return seen[1]
        res = compute(state)
        memo = (state, res)
        return res

    return result


def _strip(length: int, i: int) -> Strip:
    keep = [j for j in range(length) if j != i]
    if not keep:
        return lambda t: ()
    if len(keep) == 1:
        only = keep[0]
        return lambda t: (t[only],)
    return cast(Strip, itemgetter(*keep))


#: ``WITHOUT[len(t)][i](t)``: the tuple ``t`` without its item ``i``.
WITHOUT: tuple[tuple[Strip, ...], ...] = tuple(
    tuple(_strip(length, i) for i in range(length)) for length in range(LONGEST_HAND + 1)
)


def without(t: tuple[Any, ...], item: Any) -> tuple[Any, ...]:
    """``t`` without the first occurrence of ``item`` (which it holds)."""
    return WITHOUT[len(t)][t.index(item)](t)


#: ``CARDS_OF[len(trick)](trick)``: a trick's cards in play order, as a new list.
CARDS_OF: tuple[CardsOf, ...] = (
    lambda t: [],
    lambda t: [t[0][1]],
    lambda t: [t[0][1], t[1][1]],
    lambda t: [t[0][1], t[1][1], t[2][1]],
    lambda t: [t[0][1], t[1][1], t[2][1], t[3][1]],
    lambda t: [t[0][1], t[1][1], t[2][1], t[3][1], t[4][1]],
    lambda t: [t[0][1], t[1][1], t[2][1], t[3][1], t[4][1], t[5][1]],
)
#: ``CARD_TUPLE_OF[len(trick)](trick)``: the same as a tuple.
CARD_TUPLE_OF: tuple[CardTupleOf, ...] = (
    lambda t: (),
    lambda t: (t[0][1],),
    lambda t: (t[0][1], t[1][1]),
    lambda t: (t[0][1], t[1][1], t[2][1]),
    lambda t: (t[0][1], t[1][1], t[2][1], t[3][1]),
    lambda t: (t[0][1], t[1][1], t[2][1], t[3][1], t[4][1]),
    lambda t: (t[0][1], t[1][1], t[2][1], t[3][1], t[4][1], t[5][1]),
)
