"""How cards look in Discord text: short labels with suit symbols, and select options."""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine.cards import card_name

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_WORD = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
_RANK_LABEL = {"1": "A", "A": "A", "C": "Kn"}

# La Morte's named trumps (la_morte §1.1): shown by name, not by number. Other games pass
# their own names (or none) — trump 13 is only "La Morte" in La Morte.
LA_MORTE_LABEL = {"T13": "☠ La Morte", "T1": "Il Bagatto ♣"}
LA_MORTE_NAME = {"T13": "La Morte", "T1": "Il Bagatto (highest club)"}
_NONE: Mapping[str, str] = {}


def label(card: str, special: Mapping[str, str] = _NONE) -> str:
    """Compact label, e.g. ``"A♠"``, ``"10♥"``, ``"Kn♦"``, ``"T13"`` (``special`` overrides)."""
    if card in special:
        return special[card]
    if card == "EX":
        return "Excuse"
    if card[0] == "T":
        return f"T{card[1:]}"
    return f"{_RANK_LABEL.get(card[1:], card[1:])}{SUIT_SYMBOL[card[0]]}"


def long_name(card: str, special: Mapping[str, str] = _NONE) -> str:
    """Full English name for select options and confirmations (``special`` overrides)."""
    if card in special:
        return special[card]
    if card[0] in SUIT_WORD:
        rank = card[1:]
        words = {"1": "Ace", "A": "Ace", "J": "Jack", "C": "Knight", "Q": "Queen", "K": "King"}
        return f"{words.get(rank, rank)} of {SUIT_WORD[card[0]]}"
    return card_name(card)


def labels(cards: tuple[str, ...] | list[str], special: Mapping[str, str] = _NONE) -> str:
    """Space-separated labels, or an em dash for none."""
    return " ".join(label(c, special) for c in cards) if cards else "—"
