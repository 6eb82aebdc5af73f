"""Loser's Game's state and the lookup tables of its fast core (``shared/rules/losers_game.md``):
``LosersGameState`` (a NamedTuple in its JSON form) with its field positions, each seat's trick
piles, and everything per seat that does not depend on the deal, built once — the ``Action``
of each card, trump and bid, the ``card_played`` events and the trick entries.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from bot.engine.actions import Action
from bot.engine.games.hot_paths import play_tables
from bot.engine.games.losers_game_scoring import PACK, SUIT_ORDER
from bot.engine.trick import Play


class Phase(StrEnum):
    TRUMP = "trump"
    BIDDING = "bidding"
    PLAY = "play"
    SCORED = "scored"


class LosersGameState(NamedTuple):
    """One hand of Loser's Game; immutable (a NamedTuple: the JSON form ``bot.engine.codec``
    stores; successors are built positionally).

    ``totals`` are the cumulative scores before this hand (public; they chose the caller).
    Trick piles are ``tricks`` grouped by ``trick_winners``: kept hidden until the hand ends.
    """

    players: int
    dealer: int
    totals: tuple[int, ...]
    caller: int
    hands: tuple[tuple[str, ...], ...]
    excess: tuple[str, ...]
    phase: Phase
    turn: int | None
    trump: str | None = None
    b_max: int = 0
    bids: tuple[int | None, ...] = ()
    leader: int = 0
    trick: tuple[Play, ...] = ()
    tricks: tuple[tuple[Play, ...], ...] = ()
    trick_winners: tuple[int, ...] = ()
    tricks_won: tuple[int, ...] = ()


PHASE, TURN, TRUMP, B_MAX, BIDS, LEADER = 6, 7, 8, 9, 10, 11
TRICK, TRICKS, WINNERS, WON = 12, 13, 14, 15
MAX_PLAYERS = 6

#: Per seat and card: the play ``Action``, its ``card_played`` events, its trick entry.
PLAY, PLAYED, ENTRY = play_tables(PACK, MAX_PLAYERS)
#: D-5: one of the four suits, no no-trump.
TRUMP_LEGAL = tuple(
    tuple(Action("trump", seat, suit=suit) for suit in SUIT_ORDER) for seat in range(MAX_PLAYERS)
)
#: D-6, C-2: every bid 0..B_max, per seat and B_max (built when first needed).
_BID_LEGAL: dict[tuple[int, int], tuple[Action, ...]] = {}


def bid_actions(seat: int, top: int) -> tuple[Action, ...]:
    legal = _BID_LEGAL.get((seat, top))
    if legal is None:
        legal = _BID_LEGAL[seat, top] = tuple(Action("bid", seat, amount=x) for x in range(top + 1))
    return legal


def piles(s: LosersGameState) -> list[list[str]]:
    """Each seat's trick pile (the cards of the tricks it won)."""
    out: list[list[str]] = [[] for _ in range(s.players)]
    for winner, trick in zip(s.trick_winners, s.tricks, strict=True):
        out[winner].extend(c for _, c in trick)
    return out
