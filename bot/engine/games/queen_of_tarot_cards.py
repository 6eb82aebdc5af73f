"""Queen of Tarot card data and trick rules (``shared/rules/queen_of_tarot.md`` §1, §2, §4).

The 78-card pack with Piedmontese ranking: trump XX (the Angel) above XXI, and the pips of
Cups (``H``) and Coins (``D``) inverted (1 best, 10 worst). Cards count singly (queen_of_tarot
D-18): honours XX and I 5, the Fool 4 (D-1), Kings 5, Queens 4, Cavaliers 3, Valets 2 and
every other card — an "empty card" — 1: 129 in all, 43 each. Play goes counter-clockwise.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import EXCUSE, SUITS, TAROT_PACK
from bot.engine.restriction import PlayRestriction, some_forbidden
from bot.engine.trick import Play

PLAYERS = 3
FOOL = EXCUSE
ANGEL = "T20"  # XX, the highest trump and an honour (D-2, D-3)
BAGATTO = "T1"
HONOURS: tuple[str, ...] = (ANGEL, BAGATTO, FOOL)  # D-2
KINGS: tuple[str, ...] = tuple(s + "K" for s in SUITS)
#: Cards the dealer may not discard (§3.2, D-9, C-8).
UNDISCARDABLE = frozenset(KINGS + HONOURS)
TRUMP = "T"
TOTAL_POINTS = 129
FAIR_SHARE = 43  # 129 / 3 (D-1)
HAND_SIZE = 25
DISCARD_SIZE = 3
#: Cards each seat receives per packet round as (eldest, middle, dealer) (§2.1, D-4).
PACKETS: tuple[tuple[int, int, int], ...] = ((5, 5, 5),) * 4 + ((5, 5, 8),)
#: Packet rounds dealt before each bargaining session: sessions follow rounds 2, 3 and 4.
FIRST_SESSION_AFTER = 2
SESSIONS = 3

_LONG = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")  # low → high
# D-3: the round suits' pips are inverted — the 1 is the best pip and the 10 the worst.
_ROUND = ("10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "J", "C", "Q", "K")
_COURT_POINTS = {"K": 5, "Q": 4, "C": 3, "J": 2}


def _strength(card: str) -> int:
    if card == FOOL:
        return -1
    if card[0] == TRUMP:
        n = int(card[1:])
        return 22 if card == ANGEL else n  # D-3: XX above XXI
    order = _ROUND if card[0] in "HD" else _LONG
    return order.index(card[1:])


def _points(card: str) -> int:
    if card in (ANGEL, BAGATTO):
        return 5
    if card == FOOL:
        return 4  # D-1: 4, not the seed's 5, so the pack totals 129
    if card[0] == TRUMP:
        return 1
    return _COURT_POINTS.get(card[1:], 1)


#: Strength within its own suit (trumps: XX = 22 above XXI = 21; the Fool −1, never wins).
STRENGTH: dict[str, int] = {c: _strength(c) for c in TAROT_PACK}
#: Card points, counted singly (§1, D-1, D-18).
POINTS: dict[str, int] = {c: _points(c) for c in TAROT_PACK}
#: ``S``/``H``/``D``/``C``, ``T`` for trumps, ``EX`` for the Fool.
SUIT: dict[str, str] = {c: (FOOL if c == FOOL else c[0]) for c in TAROT_PACK}
_GROUP = {"T": 0, "S": 1, "H": 2, "C": 3, "D": 4, FOOL: 5}  # alternate colours in a hand


def right(seat: int) -> int:
    """The next seat in play order: counter-clockwise, ``(s − 1) mod 3``."""
    return (seat - 1) % PLAYERS


def roles(dealer: int) -> tuple[int, int, int]:
    """``(eldest, middle, dealer)``: Eldest is the dealer's right, Middle Eldest's right."""
    eldest = right(dealer)
    return eldest, right(eldest), dealer


def is_empty(card: str) -> bool:
    """An "empty card" is a 1-point card: any pip and trumps II–XIX and XXI (§4.4)."""
    return POINTS[card] == 1


def is_trump(card: str) -> bool:
    """Trumps I–XXI; the Fool is not a trump (D-11)."""
    return card[0] == TRUMP


#: A hand's display position of every card (``sort_key`` as one number, for ``sorted``).
DISPLAY_ORDER: dict[str, int] = {}


def sort_key(card: str) -> tuple[int, int]:
    """Display order of a hand: trumps, then ♠ ♥ ♣ ♦, each strongest first; the Fool last."""
    return (_GROUP[SUIT[card]], -STRENGTH[card])


def led_suit(trick: Sequence[Play]) -> str | None:
    """The suit to follow: the first card's, or the next card's after a led Fool (D-12)."""
    for _, card in trick:
        if card != FOOL:
            return SUIT[card]
    return None


def legal_cards(hand: Sequence[str], trick: Sequence[Play]) -> tuple[str, ...]:
    """§4.2: follow suit, else any trump (no overtrump duty), else anything; the Fool is
    always an extra option."""
    led = led_suit(trick)
    if led is None:
        return tuple(hand)
    follow = tuple(c for c in hand if SUIT[c] == led)
    if not follow and led != TRUMP:
        follow = tuple(c for c in hand if c[0] == TRUMP)
    if not follow:
        return tuple(hand)
    return (*follow, FOOL) if FOOL in hand else follow


def play_restriction(hand: Sequence[str], trick: Sequence[Play]) -> PlayRestriction | None:
    """Why some card of ``hand`` may not be played to ``trick`` (§4.2), or ``None``."""
    led = led_suit(trick)
    if led is None or not some_forbidden(hand, legal_cards(hand, trick)):
        return None
    if any(SUIT[c] == led for c in hand):
        return PlayRestriction("follow", {"suit": led})
    return PlayRestriction("trump", {"led": led})


def trick_winner(trick: Sequence[Play]) -> int:
    """§4.3: the highest trump (XX above XXI), else the highest card of the led suit in that
    suit's own order; the Fool never wins."""
    led = led_suit(trick)
    best_seat, best = -1, (-1, -1)
    for seat, card in trick:
        suit = SUIT[card]
        if suit == TRUMP:
            key = (1, STRENGTH[card])
        elif suit == led:
            key = (0, STRENGTH[card])
        else:
            continue
        if key > best:
            best_seat, best = seat, key
    return best_seat


def pile_points(pile: Sequence[str]) -> int:
    return sum(POINTS[c] for c in pile)


DISPLAY_ORDER.update({c: i for i, c in enumerate(sorted(TAROT_PACK, key=sort_key))})
