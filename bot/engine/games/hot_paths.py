"""Small building blocks of the fast cores of La Morte, Early French Tarot, Loser's Game and
Queen of Tarot (issue 18): what a card play does to tuples, done in as few interpreter steps
as possible.

Python 3.11 runs a comprehension as a function call, so the hot paths use plain loops or the
tables here: ``without`` (a tuple minus one item, one C call), ``cards_of`` / ``card_tuple_of``
(the cards of a trick), ``new_tuple`` (``tuple.__new__``, which builds a NamedTuple state from
its fields without the class's Python-level ``__new__``) and ``frozen`` (read-only data for
events built once and returned many times).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import itemgetter
from types import MappingProxyType
from typing import Any, cast

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
