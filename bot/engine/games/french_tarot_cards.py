"""French Tarot card data and trick rules (``shared/rules/french_tarot.md`` §1, §2, §4).

Card points are kept in half-point units ("hp") so every sum is an integer (french_tarot D-8).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.engine.cards import EXCUSE, TAROT_PACK
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

# ---- lookup tables (the fast core): one entry per card code, built once ----------------

#: ``suit_of`` per card: ``S``/``H``/``D``/``C``, ``T`` for trumps, ``EX`` for the Excuse.
SUIT: dict[str, str] = {c: ("EX" if c == EXCUSE else c[0]) for c in TAROT_PACK}
#: ``rank`` per card: suit ranks 1–14 (Knight above Jack, D-4), trumps by number, Excuse 0.
RANK: dict[str, int] = {
    c: 0 if c == EXCUSE else int(c[1:]) if c[0] == "T" else _SUIT_RANK[c[1:]] for c in TAROT_PACK
}
#: A trump's number, 0 for every other card (the Excuse included).
TRUMP_NO: dict[str, int] = {c: (RANK[c] if c[0] == "T" else 0) for c in TAROT_PACK}
#: ``half_points`` per card (§1).
HP: dict[str, int] = {
    c: 9 if c in BOUTS else 1 if c[0] == "T" else _COURT_HP.get(c[1:], 1) for c in TAROT_PACK
}
#: Strength in a trick when it counts at all: trumps 101–121 above suit cards 1–14 (§4.3).
POWER: dict[str, int] = {c: (100 + RANK[c] if c[0] == "T" else RANK[c]) for c in TAROT_PACK}
POWER[EXCUSE] = -1
#: Position of each card in display order (``sort_key``), for sorting hands quickly.
ORDER: dict[str, int] = {
    c: i for i, c in enumerate(sorted(TAROT_PACK, key=lambda c: (GROUP[SUIT[c]], -RANK[c])))
}
#: Cards a taker may discard (§3.5): suit cards other than Kings, and trumps 2–20 (shown).
PLAIN_DISCARDABLE = frozenset(
    c for c in TAROT_PACK if c != EXCUSE and c[0] != "T" and not c.endswith("K")
)
KINGS = frozenset(s + "K" for s in "SHDC")
TRUMP_DISCARDABLE = frozenset(c for c in TAROT_PACK if c[0] == "T" and c not in BOUTS)


def is_trump(card: str) -> bool:
    """Trumps 1–21 (the Excuse is not a trump for following)."""
    return card[0] == "T"


def suit_of(card: str) -> str:
    """``S``/``H``/``D``/``C`` for suit cards, ``T`` for trumps, ``EX`` for the Excuse."""
    return "EX" if card == EXCUSE else card[0]


def rank(card: str) -> int:
    """Rank within its suit (trumps by number); the Excuse has none (0)."""
    return RANK[card]


def half_points(card: str) -> int:
    """Card value in half points (§1): bouts and Kings 9, Queens 7, Knights 5, Jacks 3, else 1."""
    return HP[card]


def is_king(card: str) -> bool:
    return card in KINGS


def led_suit(trick: Sequence[Play]) -> str | None:
    """Suit to follow: the first card's, or the second's after an Excuse lead (§4.1)."""
    for _, card in trick:
        if card != EXCUSE:
            return SUIT[card]
    return None


def legal_plays(hand: Sequence[str], trick: Sequence[Play]) -> list[str]:
    """Cards ``hand`` may play to ``trick`` under §4.2 (the Excuse is always allowed).

    The cards keep ``hand``'s order, except that the Excuse comes last when it is only allowed
    as the extra option (hands in display order hold it last anyway).
    """
    if not trick:
        return list(hand)
    lead = trick[0][1]
    if lead == EXCUSE:
        if len(trick) == 1:
            return list(hand)
        lead = trick[1][1]
    suit = SUIT[lead]
    options = [] if suit == "T" else [c for c in hand if SUIT[c] == suit]
    if not options:
        trump_no = TRUMP_NO
        high = max([trump_no[c] for _, c in trick])
        options = [c for c in hand if trump_no[c] > high]  # french_tarot D-6: overtrump
        if not options:
            options = [c for c in hand if trump_no[c]]
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
    lead = trick[0][1]
    if lead == EXCUSE:
        if len(trick) == 1:
            return trick[0][0]
        lead = trick[1][1]
    suit = SUIT[lead]
    best_seat, best = trick[0][0], -1
    for seat, card in trick:
        p = POWER[card]
        if p > best and (p > 100 or SUIT[card] == suit):
            best_seat, best = seat, p
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
    return (GROUP[SUIT[card]], -RANK[card])


def discard_counts(hand: Sequence[str], size: int) -> tuple[list[str], list[str], int]:
    """Discard candidates and how many trumps the discard must hold (§3.5, C-11).

    Returns (suit cards other than Kings, trumps 2–20, trumps required).
    """
    plain = [c for c in hand if c in PLAIN_DISCARDABLE]
    trumps = [c for c in hand if c in TRUMP_DISCARDABLE]
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


# ---- cards as bits (the fast core's hands) ------------------------------------------------
# A hand is an int with bit ``ORDER[card]`` set for each card held, so display order is bit
# order: ♠ 0–13, ♥ 14–27, ♣ 28–41, ♦ 42–55 (each King first), trumps 56–76 (the 21 first),
# the Excuse 77. Every group is a whole number of 7-bit chunks, and ``CHUNK_CARDS[k][v]``
# lists the cards of chunk ``k`` whose bits are set in ``v``, so a hand's cards are twelve
# table lookups.

#: Card codes by bit (display order).
CARD_OF_BIT: tuple[str, ...] = tuple(sorted(TAROT_PACK, key=ORDER.__getitem__))
BIT: dict[str, int] = {c: 1 << ORDER[c] for c in TAROT_PACK}
#: Every card of the pack.
FULL = (1 << len(TAROT_PACK)) - 1
#: Bits of each group: ``S``, ``H``, ``C``, ``D``, ``T`` (trumps 1–21) and ``EX``.
GROUP_MASK: dict[str, int] = {
    g: sum(BIT[c] for c in TAROT_PACK if SUIT[c] == g) for g in ("S", "H", "C", "D", "T", "EX")
}
TRUMP_MASK = GROUP_MASK["T"]
EXCUSE_BIT = BIT[EXCUSE]
EXCUSE_SHIFT = ORDER[EXCUSE]
#: Trumps numbered above ``n`` (0–21): the ones that overtrump a trick whose best trump is n.
TRUMPS_ABOVE: tuple[int, ...] = tuple(
    sum(BIT[c] for c in TAROT_PACK if TRUMP_NO[c] > n) for n in range(22)
)
CHUNKS = 12
CHUNK_CARDS: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(
        tuple(CARD_OF_BIT[7 * k + i] for i in range(7) if v >> i & 1 and 7 * k + i < 78)
        for v in range(128)
    )
    for k in range(CHUNKS)
)


def cards_of(mask: int) -> tuple[str, ...]:
    """The cards of a hand mask, in display order."""
    out: tuple[str, ...] = ()
    k = 0
    while mask:
        v = mask & 127
        if v:
            out += CHUNK_CARDS[k][v]
        mask >>= 7
        k += 1
    return out


def mask_of(cards: Iterable[str]) -> int:
    """The hand mask of ``cards`` (each held once)."""
    m = 0
    for c in cards:
        m |= BIT[c]
    return m
