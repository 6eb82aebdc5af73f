"""Queen of Tarot deal state and the staged deal (``shared/rules/queen_of_tarot.md`` §2, §3).

The state is an immutable NamedTuple (cheap ``_replace``, JSON through ``bot.engine.codec``).
The undealt rest of the deck stays in ``stock`` between bargaining sessions; it, the hands and
the dealer's discard are the hidden parts of a deal.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from bot.engine.games.hot_paths import new_tuple
from bot.engine.games.queen_of_tarot_cards import PACKETS, PLAYERS, roles
from bot.engine.games.queen_of_tarot_declare import Declaration
from bot.engine.trick import Play


class Phase(StrEnum):
    BARGAIN = "bargain"
    DISCARD = "discard"
    DECLARE = "declare"
    PLAY = "play"
    DONE = "done"


class Call(NamedTuple):
    """One bargaining call: ``call`` is ``pass``, ``demand``, ``offer`` or ``continue``."""

    session: int
    seat: int
    call: str
    amount: int | None


class SessionEnd(NamedTuple):
    """How a bargaining session ended: ``continue``, ``passes`` or ``settled``, and who
    made the last call."""

    session: int
    ended: str
    seat: int


class Exchange(NamedTuple):
    """A card handed over for the Fool (§4.4, D-13, C-1).

    ``kind``: ``exchange`` (at the end of the Fool's trick), ``debt_paid`` (when the debtor
    next wins a trick with an empty card), ``debt_end`` (an open debt paid at the end of the
    hand with the lowest-valued card) or ``surrender`` (the Fool itself). ``trick`` is the
    1-based number of the trick after which it happened.
    """

    giver: int
    receiver: int
    card: str
    trick: int
    kind: str


class QueenOfTarotState(NamedTuple):
    """One Queen of Tarot hand (a NamedTuple: the JSON form ``bot.engine.codec`` stores;
    successors are built positionally from the field indices below, not by ``_replace``).

    ``positions`` hold each seat's standing bargaining position in the current session:
    ``0`` none, ``+d`` a demand of d, ``−o`` an offer of o. ``piles`` hold the cards each
    seat owns in the order won (the dealer's discard first, sorted by code, C-1); the Fool
    joins its player's pile at the end of its trick. ``creditor`` is the seat still owed an
    empty card by ``fool_owner`` (a Fool debt), if any.
    """

    dealer: int
    max_bargain: int
    phase: Phase
    turn: int | None
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    rounds: int
    session: int = 1
    positions: tuple[int, ...] = (0, 0, 0)
    passes: int = 0
    calls: tuple[Call, ...] = ()
    sessions: tuple[SessionEnd, ...] = ()
    settlement: tuple[int, ...] | None = None
    discard: tuple[str, ...] = ()
    declarations: tuple[Declaration, ...] = ()
    trick: tuple[Play, ...] = ()
    tricks: tuple[tuple[Play, ...], ...] = ()
    winners: tuple[int, ...] = ()
    piles: tuple[tuple[str, ...], ...] = ((), (), ())
    fool_owner: int | None = None
    creditor: int | None = None
    exchanges: tuple[Exchange, ...] = ()

    @property
    def eldest(self) -> int:
        return roles(self.dealer)[0]

    @property
    def middle(self) -> int:
        return roles(self.dealer)[1]


#: Builds a state (or an event) from its fields in order (``tuple.__new__``).
new_state = new_tuple

# Field positions of ``QueenOfTarotState``.
DEALER, MAX_BARGAIN, PHASE, TURN, HANDS, STOCK, ROUNDS, SESSION = 0, 1, 2, 3, 4, 5, 6, 7
POSITIONS, PASSES, CALLS, SESSIONS, SETTLEMENT, DISCARD, DECLARATIONS = 8, 9, 10, 11, 12, 13, 14
TRICK, TRICKS, WINNERS, PILES, FOOL_OWNER, CREDITOR, EXCHANGES = 15, 16, 17, 18, 19, 20, 21


def replace_at(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    """``t`` with item ``i`` replaced by ``v``."""
    return t[:i] + (v,) + t[i + 1 :]


def deal_round(
    hands: tuple[tuple[str, ...], ...], stock: tuple[str, ...], dealer: int, r: int
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Packet round ``r`` (1-based) of the canonical deal (§2.1, D-4): the next 5 cards to
    Eldest, the next 5 to Middle, then 5 to the Dealer — 8 in round 5."""
    out = list(hands)
    i = 0
    for seat, size in zip(roles(dealer), PACKETS[r - 1], strict=True):
        out[seat] = out[seat] + stock[i : i + size]
        i += size
    return tuple(out), stock[i:]


def empty_hands() -> tuple[tuple[str, ...], ...]:
    return ((),) * PLAYERS
