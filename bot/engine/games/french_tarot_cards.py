"""French Tarot card data and trick rules (``shared/rules/french_tarot.md`` §1, §2, §4).

Card points are kept in half-point units ("hp") so every sum is an integer (french_tarot D-8).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import EXCUSE
from bot.engine.restriction import PlayRestriction, some_forbidden
from bot.engine.trick import Play

PETIT = "T1"
TWENTY_ONE = "T21"
BOUTS = frozenset({PETIT, TWENTY_ONE, EXCUSE})

CONTRACTS: tuple[str, ...] = ("prise", "garde", "garde_sans", "garde_contre")
MULTIPLIER: dict[str, int] = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
#: Contracts whose dog is shown and taken by the taker, who then discards (§3.5).
DOG_TAKEN = frozenset({"prise", "garde"})


class Params:
    """Per-player-count table of §2 (french_tarot D-1, D-2, D-3)."""

    __slots__ = ("cards", "dog", "packet", "poignees", "taker_weight")

    def __init__(
        self, cards: int, dog: int, packet: int, poignees: tuple[int, int, int], weight: int
    ) -> None:
        self.cards = cards
        self.dog = dog
        self.packet = packet
        self.poignees = poignees
        self.taker_weight = weight


PARAMS: dict[int, Params] = {
    3: Params(24, 6, 4, (13, 15, 18), 2),
    4: Params(18, 6, 3, (10, 13, 15), 3),
    5: Params(15, 3, 3, (8, 10, 13), 2),
}
SOLO_WEIGHT_5P = 4
POIGNEE_BONUS: tuple[int, int, int] = (20, 30, 40)
POIGNEE_NAMES: tuple[str, str, str] = ("simple", "double", "triple")
#: Target in hp by number of bouts in the attack's pile (§1).
TARGET_HP: dict[int, int] = {0: 112, 1: 102, 2: 82, 3: 72}
TOTAL_HP = 182

_SUIT_RANK = {
    "1": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "10": 10,
    "J": 11,
    "C": 12,  # french_tarot D-4: the Knight ranks above the Jack
    "Q": 13,
    "K": 14,
}
_COURT_HP = {"K": 9, "Q": 7, "C": 5, "J": 3}


GROUP = {"S": 0, "H": 1, "C": 2, "D": 3, "T": 4, "EX": 5}  # alternate colours in a hand


def is_trump(card: str) -> bool:
    """Trumps 1–21 (the Excuse is not a trump for following)."""
    return card[0] == "T"


def suit_of(card: str) -> str:
    """``S``/``H``/``D``/``C`` for suit cards, ``T`` for trumps, ``EX`` for the Excuse."""
    return "EX" if card == EXCUSE else card[0]


def rank(card: str) -> int:
    """Rank within its suit (trumps by number); the Excuse has none (0)."""
    if card == EXCUSE:
        return 0
    if card[0] == "T":
        return int(card[1:])
    return _SUIT_RANK[card[1:]]


def half_points(card: str) -> int:
    """Card value in half points (§1): bouts and Kings 9, Queens 7, Knights 5, Jacks 3, else 1."""
    if card in BOUTS:
        return 9
    if card[0] == "T":
        return 1
    return _COURT_HP.get(card[1:], 1)


def is_king(card: str) -> bool:
    return card[0] != "T" and card != EXCUSE and card[1:] == "K"


def led_suit(trick: Sequence[Play]) -> str | None:
    """Suit to follow: the first card's, or the second's after an Excuse lead (§4.1)."""
    for _, card in trick:
        if card != EXCUSE:
            return suit_of(card)
    return None


def legal_plays(hand: Sequence[str], trick: Sequence[Play]) -> list[str]:
    """Cards ``hand`` may play to ``trick`` under §4.2 (the Excuse is always allowed)."""
    suit = led_suit(trick)
    if suit is None:
        return list(hand)
    high_trump = max((rank(c) for _, c in trick if is_trump(c)), default=0)
    trumps = [c for c in hand if is_trump(c)]
    over = [c for c in trumps if rank(c) > high_trump]
    if suit == "T":
        options = over or trumps  # french_tarot D-6: overtrump when able
    else:
        follow = [c for c in hand if suit_of(c) == suit]
        options = follow or over or trumps
    if not options:
        return list(hand)
    if EXCUSE in hand:
        options.append(EXCUSE)
    return options


def trick_restriction(hand: Sequence[str], trick: Sequence[Play]) -> PlayRestriction | None:
    """Why some card of ``hand`` may not be played to ``trick`` under §4.2, or ``None``."""
    suit = led_suit(trick)
    if suit is None or not some_forbidden(hand, legal_plays(hand, trick)):
        return None
    if suit != "T" and any(suit_of(c) == suit for c in hand):
        return PlayRestriction("follow", {"suit": suit})
    high_trump = max((rank(c) for _, c in trick if is_trump(c)), default=0)
    trumps = [c for c in hand if is_trump(c)]
    if any(rank(c) > high_trump for c in trumps) and any(rank(c) < high_trump for c in trumps):
        return PlayRestriction("overtrump", {"led": suit})  # french_tarot D-6
    if suit == "T":
        return PlayRestriction("follow", {"suit": "T"})
    return PlayRestriction("trump", {"led": suit})


def trick_winner(trick: Sequence[Play]) -> int:
    """Seat winning a complete trick by §4.3 (the Excuse never wins here; see §4.5)."""
    best_seat, best = trick[0][0], (-1, -1)
    suit = led_suit(trick)
    for seat, card in trick:
        if card == EXCUSE:
            continue
        if is_trump(card):
            key = (1, rank(card))
        elif suit_of(card) == suit:
            key = (0, rank(card))
        else:
            continue
        if key > best:
            best_seat, best = seat, key
    return best_seat


def callable_cards(hand: Sequence[str]) -> list[str]:
    """Cards a 5-player taker may call (§3.4, french_tarot D-12), in rank order K, Q, C, J."""
    held = set(hand)
    out: list[str] = []
    for court in ("K", "Q", "C", "J"):
        out.extend(s + court for s in "SHDC")
        if not all(s + court in held for s in "SHDC"):
            break
    return out


def right(seat: int, players: int) -> int:
    """The next seat in play order (counter-clockwise)."""
    return (seat - 1) % players


def sort_key(card: str) -> tuple[int, int]:
    """Display order: ♠ ♥ ♣ ♦ (alternating colours), trumps, the Excuse; high cards first."""
    return (GROUP[suit_of(card)], -rank(card))


def discard_counts(hand: Sequence[str], size: int) -> tuple[list[str], list[str], int]:
    """Discard candidates and how many trumps the discard must hold (§3.5, C-11).

    Returns (suit cards other than Kings, trumps 2–20, trumps required).
    """
    plain = [c for c in hand if c != EXCUSE and not is_trump(c) and not is_king(c)]
    trumps = [c for c in hand if is_trump(c) and c not in BOUTS]
    return plain, trumps, max(0, size - len(plain))


def poignee_options(hand: Sequence[str], players: int) -> list[tuple[int, int, tuple[str, ...]]]:
    """``(level, size, showable cards)`` for each poignée level the hand reaches (C-6, D-17).

    The Excuse may be shown only when every trump held is shown with it, i.e. when the
    level's size is exactly trumps + 1.
    """
    trumps = tuple(c for c in hand if is_trump(c))
    has_excuse = EXCUSE in hand
    out: list[tuple[int, int, tuple[str, ...]]] = []
    for level, size in enumerate(PARAMS[players].poignees):
        if has_excuse and size == len(trumps) + 1:
            out.append((level, size, (*trumps, EXCUSE)))
        elif size <= len(trumps):
            out.append((level, size, trumps))
    return out
