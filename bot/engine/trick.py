"""Trick helpers shared by the games: seat arithmetic and plays of the current trick."""

from __future__ import annotations

#: A play inside a trick: (seat, card).
Play = tuple[int, str]


def left(seat: int, n: int) -> int:
    """Next seat clockwise (``rules/README.md``: left(s) = (s+1) mod N)."""
    return (seat + 1) % n


def right(seat: int, n: int) -> int:
    """Next seat counter-clockwise."""
    return (seat - 1) % n


def remove_card(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """Hand without one copy of ``card`` (caller guarantees it is held)."""
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def cards_of(plays: tuple[Play, ...]) -> tuple[str, ...]:
    """Just the cards of a trick's plays, in play order."""
    return tuple(c for _, c in plays)
