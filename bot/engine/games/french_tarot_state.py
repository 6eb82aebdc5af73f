"""French Tarot deal state and the rules questions asked of it (whose cards are legal...).

Shared by the transitions (``french_tarot_flow``) and the ``Rules`` object
(``french_tarot``); see ``shared/rules/french_tarot.md``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from bot.engine.games.french_tarot_cards import (
    CONTRACTS,
    PARAMS,
    legal_plays,
    suit_of,
    trick_restriction,
)
from bot.engine.restriction import PlayRestriction, some_forbidden
from bot.engine.trick import Play


class Phase(StrEnum):
    BIDDING = "bidding"
    CALL = "call"
    DISCARD = "discard"
    CHELEM = "chelem"
    PLAY = "play"
    DONE = "done"


class FrenchTarotState(NamedTuple):
    """One French Tarot deal; immutable (``_replace`` is cheap, see La Morte's state)."""

    players: int
    dealer: int
    chelem_option: bool
    phase: Phase
    hands: tuple[tuple[str, ...], ...]
    dog: tuple[str, ...]
    turn: int | None
    bids: tuple[str | None, ...]
    taker: int | None = None
    contract: str | None = None
    called: str | None = None
    #: Holder of the called card when play starts (5 players); secret until it is played.
    partner: int | None = None
    discard: tuple[str, ...] = ()
    chelem: bool = False
    poignees: tuple[tuple[int, int, tuple[str, ...]], ...] = ()
    leader: int = 0
    trick: tuple[Play, ...] = ()
    tricks: tuple[tuple[Play, ...], ...] = ()
    winners: tuple[int, ...] = ()
    tricks_won: tuple[int, ...] = ()
    excuse_won_last: bool = False
    called_by: int | None = None
    outcome: str | None = None
    deltas: tuple[int, ...] | None = None
    detail: dict[str, Any] | None = None


def replace_at(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    """``t`` with item ``i`` replaced by ``v``."""
    return t[:i] + (v,) + t[i + 1 :]


def high_bid(s: FrenchTarotState) -> int:
    return max((CONTRACTS.index(b) for b in s.bids if b not in (None, "pass")), default=-1)


def legal_cards(s: FrenchTarotState) -> list[str]:
    """Cards the seat to act may play now (§4.2 and the trick-1 lead ban)."""
    t = s.turn
    if t is None or s.phase is not Phase.PLAY:
        return []
    hand = s.hands[t]
    cards = legal_plays(hand, s.trick)
    if not s.tricks and not s.trick and s.players == 5 and s.called is not None:
        # french_tarot D-14, C-5: the first leader may not lead the called suit except
        # with the called card itself, unless nothing else can be led.
        banned = suit_of(s.called)
        allowed = [c for c in cards if suit_of(c) != banned or c == s.called]
        if allowed:
            cards = allowed
    return cards


def play_restriction(s: FrenchTarotState, seat: int) -> PlayRestriction | None:
    """Why a card ``seat`` holds is not legal now (``bot.engine.restriction``), or ``None``."""
    if s.turn != seat or s.phase is not Phase.PLAY:
        return None
    hand = s.hands[seat]
    if not some_forbidden(hand, legal_cards(s)):
        return None
    if not s.trick:  # any lead is free but the first one at 5 (D-14, C-5)
        if s.called is None:
            return None
        return PlayRestriction("called_suit_first_trick", {"suit": suit_of(s.called)})
    return trick_restriction(hand, s.trick)


def may_show_poignee(s: FrenchTarotState, seat: int) -> bool:
    """Before the seat's first card and only once (C-6)."""
    return len(s.hands[seat]) == PARAMS[s.players].cards and all(p[0] != seat for p in s.poignees)


def camp(s: FrenchTarotState, seat: int) -> bool:
    """True for the attack (taker and hidden partner)."""
    return seat == s.taker or seat == s.partner
