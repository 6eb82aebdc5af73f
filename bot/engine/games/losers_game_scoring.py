"""Loser's Game card data, trick rules and hand scoring (``shared/rules/losers_game.md``).

Pure functions over cards and piles, shared by the rules object (``losers_game``) and the
computer player: who names trump, the bid bound ``B_max``, legal follows, the trick winner,
and the points a trick pile is worth. Per-card data (suit, rank, trick-taking strength per
trump and led suit) is looked up in tables built once.
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
#: The rank part of each card code (``"10"`` for ``S10``).
RANK_CODE: dict[str, str] = {c: c[1:] for c in PACK}
#: The cards of each suit, to test following in one lookup.
MEMBERS: dict[str, frozenset[str]] = {s: frozenset(c for c in PACK if c[0] == s) for s in SUITS}
#: Trick-taking strength per trump and led suit (§4): a trump above every card of the led
#: suit, other suits -1.
WIN_KEY: dict[str, dict[str, dict[str, int]]] = {
    trump: {
        led: {c: 100 + RANK[c] if c[0] == trump else RANK[c] if c[0] == led else -1 for c in PACK}
        for led in SUITS
    }
    for trump in SUITS
}


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
    out_of_play = set(excess)
    trumps = 13 - sum(1 for c in out_of_play if c[0] == trump)
    missing = Counter(RANK_CODE[c] for c in out_of_play)
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
    members = MEMBERS[trick[0][1][0]]
    follow = [c for c in hand if c in members]
    return tuple(follow) if follow else tuple(hand)


def trick_winner(plays: Sequence[Play], trump: str) -> int:
    """Seat winning a complete trick: the highest trump if any, else the highest card of
    the led suit (§4)."""
    keys = WIN_KEY[trump][plays[0][1][0]]
    best_seat, best = plays[0][0], -1
    for seat, card in plays:
        k = keys[card]
        if k > best:
            best_seat, best = seat, k
    return best_seat
