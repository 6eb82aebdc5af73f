"""How cards look in Discord text: short labels with suit symbols, and select options."""

from __future__ import annotations

from bot.engine.cards import card_name

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_WORD = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
_RANK_LABEL = {"1": "A", "A": "A", "C": "Kn"}

# La Morte's named trumps (la_morte §1.1): shown by name, not by number.
SPECIAL_LABEL = {"T13": "☠ La Morte", "T1": "Il Bagatto ♣"}
SPECIAL_NAME = {"T13": "La Morte", "T1": "Il Bagatto (highest club)"}


def label(card: str) -> str:
    """Compact label, e.g. ``"A♠"``, ``"10♥"``, ``"Kn♦"``, ``"☠ La Morte"``."""
    if card in SPECIAL_LABEL:
        return SPECIAL_LABEL[card]
    if card == "EX":
        return "Excuse"
    if card[0] == "T":
        return f"T{card[1:]}"
    return f"{_RANK_LABEL.get(card[1:], card[1:])}{SUIT_SYMBOL[card[0]]}"


def long_name(card: str) -> str:
    """Full English name for select options and confirmations."""
    if card in SPECIAL_NAME:
        return SPECIAL_NAME[card]
    if card[0] in SUIT_WORD:
        rank = card[1:]
        words = {"1": "Ace", "A": "Ace", "J": "Jack", "C": "Knight", "Q": "Queen", "K": "King"}
        return f"{words.get(rank, rank)} of {SUIT_WORD[card[0]]}"
    return card_name(card)


def labels(cards: tuple[str, ...] | list[str]) -> str:
    """Space-separated labels, or an em dash for none."""
    return " ".join(label(c) for c in cards) if cards else "—"
