"""Trick helpers shared by the games: the play type and removing a played card."""

from __future__ import annotations

#: A play inside a trick: (seat, card).
Play = tuple[int, str]


def remove_card(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """Hand without one copy of ``card`` (caller guarantees it is held)."""
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]
