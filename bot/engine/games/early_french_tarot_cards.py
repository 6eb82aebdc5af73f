"""Early French Tarot's cards (``shared/rules/french_tarot_17c.md``): suits, ranks and
honours, following and trick-taking (§4), the card the Fool's player hands over (D-8) and a
pile's score (D-4, D-5), with the lookup tables the fast core reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import EXCUSE, SUITS, TAROT_PACK, TAROT_RANKS
from bot.engine.restriction import PlayRestriction, some_forbidden
from bot.engine.trick import Play

FOOL = EXCUSE
HAND_SIZE = 12  # french_tarot_17c §2: 12 cards each, 12 tricks
TRUMP = "T"

#: Honour points of the cards that score (§1); every other card is worth 0 (D-5, D-13).
HONOUR: dict[str, int] = {
    FOOL: 5,
    "T21": 4,  # the World
    "T1": 4,  # the Magician
    **{s + r: v for s in SUITS for r, v in (("K", 4), ("Q", 3), ("C", 2), ("J", 1))},
}


MAX_PLAYERS = 6

#: ``S``/``H``/``D``/``C``, ``T`` for trumps, ``EX`` for the Fool, per card code.
SUIT_OF: dict[str, str] = {c: (FOOL if c == FOOL else c[0]) for c in TAROT_PACK}
#: Strength within a suit: Ace low … King high (§1); trumps by number; the Fool 0.
RANK_OF: dict[str, int] = {
    c: (int(c[1:]) if c[0] == TRUMP else TAROT_RANKS.index(c[1:])) for c in TAROT_PACK if c != FOOL
}
HONOUR_POINTS: dict[str, int] = {c: HONOUR.get(c, 0) for c in TAROT_PACK}
_PACK_INDEX: dict[str, int] = {c: i for i, c in enumerate(TAROT_PACK)}
#: The cards of each suit (and of the trumps), to test following in one lookup.
MEMBERS: dict[str, frozenset[str]] = {
    suit: frozenset(c for c in TAROT_PACK if SUIT_OF[c] == suit) for suit in (*SUITS, TRUMP)
}
TRUMPS = MEMBERS[TRUMP]
#: Trick-taking strength per led suit: trumps above the led suit, other cards (and the
#: Fool) -1 (§4.3, C-4).
WIN_KEY: dict[str, dict[str, int]] = {
    led: {
        c: (100 + RANK_OF[c] if SUIT_OF[c] == TRUMP else RANK_OF[c] if SUIT_OF[c] == led else -1)
        for c in TAROT_PACK
    }
    for led in (*SUITS, TRUMP)
}


def suit_of(card: str) -> str:
    """``S``/``H``/``D``/``C``, ``T`` for trumps, ``EX`` for the Fool (no suit, D-6)."""
    return FOOL if card == FOOL else card[0]


def rank_of(card: str) -> int:
    """Strength within a suit: Ace low … King high (§1); trumps by number."""
    return RANK_OF[card]


def honour(card: str) -> int:
    return HONOUR_POINTS.get(card, 0)


def led_suit(trick: Sequence[Play]) -> str | None:
    """The suit to follow: the first card's, or the next card's after a Fool lead (D-6)."""
    for _, c in trick:
        if c != FOOL:
            return SUIT_OF[c]
    return None


def trick_winner(trick: Sequence[Play]) -> int:
    """Highest trump, else highest card of the led suit; the Fool never wins (§4.3, C-4)."""
    led = led_suit(trick)
    if led is None:
        return -1
    keys = WIN_KEY[led]
    best_seat, best = -1, -1
    for seat, card in trick:
        k = keys[card]
        if k > best:
            best_seat, best = seat, k
    return best_seat


def legal_cards(hand: Sequence[str], trick: Sequence[Play]) -> tuple[str, ...]:
    """Cards ``hand`` may play to ``trick`` (§4.2): follow, else trump, else anything.

    The Fool is always an extra option (D-6); there is no obligation to overtrump (D-7).
    """
    led = led_suit(trick)
    if led is None:
        return tuple(hand)
    members = MEMBERS[led]
    follow = [c for c in hand if c in members]
    if not follow:
        follow = [c for c in hand if c in TRUMPS]
        if not follow:
            return tuple(hand)
    if FOOL in hand:
        follow.append(FOOL)
    return tuple(follow)


def play_restriction(hand: Sequence[str], trick: Sequence[Play]) -> PlayRestriction | None:
    """Why some card of ``hand`` may not be played to ``trick`` (§4.2), or ``None``."""
    legal = legal_cards(hand, trick)
    led = led_suit(trick)
    if led is None or not some_forbidden(hand, legal):
        return None
    if any(suit_of(c) == led for c in hand):
        return PlayRestriction("follow", {"suit": led})
    return PlayRestriction("trump", {"led": led})


def card_to_give(pile: Sequence[str]) -> str:
    """The card the Fool's player hands over (D-8, C-1, C-2): lowest honour value, then the
    earliest won (piles are kept in the order won, each trick in play order); never the Fool.
    """
    candidates = [(HONOUR.get(c, 0), i, c) for i, c in enumerate(pile) if c != FOOL]
    return min(candidates)[2]


#: Sort key of the honours, most valuable first, suits in pack order (ties impossible).
_HONOUR_ORDER: dict[str, int] = {
    c: -HONOUR_POINTS[c] * len(TAROT_PACK) + _PACK_INDEX[c] for c in TAROT_PACK if HONOUR_POINTS[c]
}


def honour_cards(pile: Sequence[str]) -> list[str]:
    """The honours in a pile, most valuable first (suits in pack order)."""
    return sorted(filter(_HONOUR_ORDER.__contains__, pile), key=_HONOUR_ORDER.__getitem__)


def hand_score(pile: Sequence[str], every_card_scores: bool) -> tuple[int, int, int]:
    """``(card points, honour points, hand score)`` of a final pile (§5.1, D-4, D-5)."""
    count = len(pile)
    card_points = count if every_card_scores else max(0, count - HAND_SIZE)
    honours = sum(map(HONOUR_POINTS.__getitem__, pile))
    return card_points, honours, card_points + honours
