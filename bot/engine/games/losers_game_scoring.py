"""Loser's Game card data, trick rules and hand scoring (``shared/rules/losers_game.md``).

Pure functions over cards and piles, shared by the rules object (``losers_game``) and the
computer player: who names trump, the bid bound ``B_max``, legal follows, the trick winner,
and the points a trick pile is worth.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from bot.engine.cards import FRENCH_PACK, FRENCH_RANKS, SUITS
from bot.engine.trick import Play

PACK: tuple[str, ...] = FRENCH_PACK
#: Rank order, Ace high and 2 low (§1): 0 for a 2 … 12 for an Ace.
RANK: dict[str, int] = {c: FRENCH_RANKS.index(c[1:]) for c in PACK}
SUIT_ORDER: tuple[str, ...] = SUITS  # ♠ ♥ ♦ ♣; also the order trump choices are listed in
TRUMP_POINT = 1  # §5.1: each trump card in the pile
THREE_OF_A_KIND = 3  # §5.1: exactly three cards of a rank
FOUR_OF_A_KIND = 9  # §5.1: all four cards of a rank (not also 3)


def hand_size(players: int) -> int:
    """Cards each and tricks per hand: ``floor(52 / N)`` (§2)."""
    return len(PACK) // players


def rank_of(card: str) -> str:
    return card[1:]


def trump_caller(totals: Sequence[int], dealer: int) -> int:
    """The seat naming trump (§3.1): lowest cumulative total, negatives included (C-3);
    ties go to the tied seat met first clockwise from the dealer's left (losers_game D-4)."""
    n = len(totals)
    low = min(totals)
    clockwise = [(dealer + k) % n for k in range(1, n + 1)]
    return next(seat for seat in clockwise if totals[seat] == low)


def set_points(count: int) -> int:
    """Points of a rank held ``count`` times (§5.1: 4 of a kind is 9, not also 3)."""
    if count == 4:
        return FOUR_OF_A_KIND
    if count == 3:
        return THREE_OF_A_KIND
    return 0


def b_max(trump: str, excess: Iterable[str]) -> int:
    """The highest legal bid (losers_game D-6, C-2): trumps in play plus, per rank, 9 if all
    four cards are in play and 3 if exactly three are."""
    out_of_play = list(excess)
    trumps = sum(1 for c in PACK if c[0] == trump and c not in out_of_play)
    missing = Counter(rank_of(c) for c in out_of_play)
    return trumps + sum(set_points(4 - missing[r]) for r in FRENCH_RANKS)


def points_taken(pile: Iterable[str], trump: str) -> tuple[int, int]:
    """(trump points, set points) of a trick pile (§5.1). Additive: a trump inside a set
    counts for both (losers_game D-7); sets are counted over the whole pile."""
    cards = list(pile)
    trumps = sum(TRUMP_POINT for c in cards if c[0] == trump)
    counts = Counter(rank_of(c) for c in cards)
    return trumps, sum(set_points(k) for k in counts.values())


def sets_in(pile: Iterable[str]) -> list[tuple[str, int]]:
    """The three and four of a kinds in a pile, as (rank, count), highest rank first."""
    counts = Counter(rank_of(c) for c in pile)
    found = [(r, k) for r, k in counts.items() if k >= 3]
    return sorted(found, key=lambda rk: -FRENCH_RANKS.index(rk[0]))


def score_change(points: int, bid: int) -> int:
    """§5.2 and losers_game D-10: +bid when made (excess not scored), −bid otherwise."""
    return bid if points >= bid else -bid


def legal_plays(hand: Sequence[str], trick: Sequence[Play]) -> tuple[str, ...]:
    """§4: follow the led suit with any card of it if able; otherwise any card (no
    obligation to trump or overtrump). Any card may be led, trumps included (D-11)."""
    if not trick:
        return tuple(hand)
    led = trick[0][1][0]
    follow = tuple(c for c in hand if c[0] == led)
    return follow or tuple(hand)


def trick_winner(plays: Sequence[Play], trump: str) -> int:
    """Seat winning a complete trick: the highest trump if any, else the highest card of
    the led suit (§4)."""
    led = plays[0][1][0]
    best_seat, best_key = plays[0][0], (plays[0][1][0] == trump, RANK[plays[0][1]])
    for seat, card in plays[1:]:
        suit = card[0]
        if suit != trump and suit != led:
            continue
        key = (suit == trump, RANK[card])
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat
