"""Card codes shared by every game: the 78-card tarot pack and the 52-card French pack.

Cards are plain strings (``"S7"``, ``"HK"``, ``"DC"``, ``"T21"``, ``"EX"``) so states stay
cheap to copy, hash and serialise. Rank order and point values are data owned by each game.
"""

from __future__ import annotations

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_NAMES: dict[str, str] = {
    "S": "Swords",
    "H": "Cups",
    "D": "Coins",
    "C": "Batons",
    "T": "Trumps",
}

#: Tarot-pack suit ranks, low to high in the usual order of a "long" suit.
TAROT_RANKS: tuple[str, ...] = (
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "C",
    "Q",
    "K",
)
#: French 52-card pack ranks (ace written ``A``).
FRENCH_RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

TRUMPS: tuple[str, ...] = tuple(f"T{i}" for i in range(1, 22))
EXCUSE = "EX"

TAROT_PACK: tuple[str, ...] = tuple(s + r for s in SUITS for r in TAROT_RANKS) + TRUMPS + (EXCUSE,)
FRENCH_PACK: tuple[str, ...] = tuple(s + r for s in SUITS for r in FRENCH_RANKS)

_RANK_NAMES: dict[str, str] = {
    "1": "Ace",
    "A": "Ace",
    "J": "Jack",
    "C": "Cavalier",
    "Q": "Queen",
    "K": "King",
}
_ROMAN = (
    "",
    "I",
    "II",
    "III",
    "IV",
    "V",
    "VI",
    "VII",
    "VIII",
    "IX",
    "X",
    "XI",
    "XII",
    "XIII",
    "XIV",
    "XV",
    "XVI",
    "XVII",
    "XVIII",
    "XIX",
    "XX",
    "XXI",
)


def roman(number: int) -> str:
    """A trump's number in Roman numerals (1 → "I" … 21 → "XXI")."""
    return _ROMAN[number]


def trump_number(card: str) -> int:
    """Number of a trump card (``T13`` → 13)."""
    return int(card[1:])


def card_name(card: str) -> str:
    """Plain-English name, e.g. ``"7 of Swords"``, ``"Trump XIII"``, ``"the Excuse"``."""
    if card == EXCUSE:
        return "the Excuse"
    if card[0] == "T":
        return f"Trump {_ROMAN[trump_number(card)]}"
    rank = card[1:]
    return f"{_RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[card[0]]}"


def is_card_code(code: object) -> bool:
    """True if ``code`` is a valid physical card code of either pack."""
    return isinstance(code, str) and (code in _ALL_CODES)


_ALL_CODES = frozenset(TAROT_PACK) | frozenset(FRENCH_PACK)
