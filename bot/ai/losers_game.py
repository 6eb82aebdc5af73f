"""Loser's Game computer player: names its strongest suit, bids from simulated hands, and
plays to take tricks that hold trumps or cards of the ranks it is collecting.

Only the bid scores (made: +bid, failed: −bid), so the bid is the decision that matters. The
policy estimates the distribution of the points it will take by dealing the unseen cards at
random to the other seats ``ROLLOUTS`` times and playing each hand out with the card-play
policy below for every seat; it then bids the amount with the best expected change
``b · (2·P(points ≥ b) − 1)`` (zero when no positive bid is more likely made than failed).

Card play plays for the seat's own bid. Trick piles are face down (losers_game D-9), but a
player remembers what it took: the public history gives every trick and its winner, so the
policy knows its points so far and how many it still *needs*. A trick is worth taking when it
holds trumps or cards of a rank the player is collecting (held twice or more). Following, win
a worthwhile trick as cheaply as is safe — and, while points are still needed, even with a
winner that may be beaten when a single player is still to come or the tricks left are barely
enough; otherwise throw the least useful card — a low plain card of a rank not being
collected, never a trump while something else is allowed (a thrown trump is a point for
whoever takes it). ``choose_fast`` (the expert's rollouts) bids from a fitted formula instead
of simulating. Leading: high trumps to draw trumps when
holding the top of the suit, else the strongest side-suit Ace/King, else a low card of the
longest plain suit.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from bot.engine.actions import Action
from bot.engine.games.losers_game import RULES, LosersGameState, Phase
from bot.engine.games.losers_game_scoring import (
    PACK,
    RANK,
    SUIT_ORDER,
    points_taken,
    trick_winner,
)
from bot.engine.trick import Play
from bot.engine.views import SeatView

ROLLOUTS = 24
KING, JACK = 11, 9


def _rank(card: str) -> str:
    return card[1:]


def _power(card: str, trump: str) -> int:
    """Trick-taking strength: every trump beats every plain card."""
    return RANK[card] + (13 if card[0] == trump else 0)


def suit_strength(hand: tuple[str, ...] | list[str], suit: str) -> float:
    """How good ``suit`` would be as trump: its length, weighted up by its high cards."""
    cards = [c for c in hand if c[0] == suit]
    return len(cards) + sum(max(0, RANK[c] - 7) * 0.35 for c in cards)


def _collecting(hand: tuple[str, ...] | list[str]) -> set[str]:
    """Ranks held twice or more: winning another card of them builds a set. (Counting the
    pile as well was measured worse: it spends strong cards on tricks that only might help.)"""
    seen: set[str] = set()
    twice: set[str] = set()
    for c in hand:  # a plain loop: this runs for every card of every bidding rollout
        rank = c[1:]
        if rank in seen:
            twice.add(rank)
        else:
            seen.add(rank)
    return twice


def _worth(cards: list[str], trump: str, collecting: set[str]) -> int:
    """Rough value of taking these cards: trumps, and cards of ranks being collected."""
    return sum((c[0] == trump) + (_rank(c) in collecting) for c in cards)


def _wins(trick: tuple[Play, ...], seat: int, card: str, trump: str) -> bool:
    return trick_winner((*trick, (seat, card)), trump) == seat


def _throw(cards: list[str], trump: str, collecting: set[str]) -> str:
    """The least useful card to lose: plain before trump, uncollected rank, lowest."""
    return min(cards, key=lambda c: (c[0] == trump, _rank(c) in collecting, RANK[c]))


def _points(pile: Sequence[str], trump: str) -> int:
    trumps, sets = points_taken(pile, trump)
    return trumps + sets


def play_card(
    hand: tuple[str, ...],
    legal: list[str],
    trick: tuple[Play, ...],
    seat: int,
    players: int,
    trump: str,
    pile: Sequence[str] = (),
    need: int | None = None,
) -> str:
    """The card to play (shared by real decisions and the bidding rollouts).

    ``pile`` is what the seat took so far and ``need`` the points its bid still needs
    (``None``: unknown, as in the bidding rollouts)."""
    if not trick:
        return _lead(hand, trump)
    collecting = _collecting(hand)
    last = len(trick) == players - 1
    winners = [c for c in legal if _wins(trick, seat, c, trump)]
    cards = [c for _, c in trick]
    worth = _worth(cards, trump, collecting)
    if winners:
        cheapest = min(winners, key=lambda c: _power(c, trump))
        strongest = max(winners, key=lambda c: _power(c, trump))
        short = need is not None and need > 0
        if last:
            # Last to play: a sure win; take it when it is worth anything or costs nothing.
            if worth or cheapest[0] != trump or _worth([cheapest], trump, collecting):
                return cheapest
        else:
            # Earlier: only a card likely to stand (an Ace, a King, or a high trump), and a
            # trump only when the trick is worth it.
            stands = RANK[strongest] >= KING or (strongest[0] == trump and RANK[strongest] >= JACK)
            if stands and (worth or strongest[0] != trump):
                return strongest
            # Still short, with few tricks left to find the points or one player left to
            # beat it: take the chance.
            if short and worth and (len(hand) <= (need or 0) + 1 or len(trick) == players - 2):
                return strongest
    return _throw(legal, trump, collecting)


def _lead(hand: tuple[str, ...], trump: str) -> str:
    trumps = sorted((c for c in hand if c[0] == trump), key=RANK.__getitem__, reverse=True)
    if trumps and RANK[trumps[0]] >= KING and len(trumps) >= 3:
        return trumps[0]  # draw trumps while holding the top of the suit
    plain = [c for c in hand if c[0] != trump]
    if not plain:
        return trumps[0]
    tops = [c for c in plain if RANK[c] >= KING]
    if tops:
        return max(tops, key=RANK.__getitem__)
    length = Counter(c[0] for c in plain)
    longest = max(length, key=lambda s: (length[s], -SUIT_ORDER.index(s)))
    return min((c for c in plain if c[0] == longest), key=RANK.__getitem__)


def choose_trump(hand: tuple[str, ...]) -> str:
    """The suit the hand is strongest in (ties: the first in ♠♥♦♣ order)."""
    return max(SUIT_ORDER, key=lambda s: (suit_strength(hand, s), -SUIT_ORDER.index(s)))


def _rollout_points(view: SeatView, rng: random.Random) -> list[int]:
    """Points this seat takes in ``ROLLOUTS`` simulated hands (unseen cards dealt at random)."""
    pv = view.public
    info = pv.info
    n, me = pv.players, view.seat
    known = set(view.hand) | set(info["excess"])
    unseen = [c for c in PACK if c not in known]
    out: list[int] = []
    for _ in range(ROLLOUTS):
        rng.shuffle(unseen)
        hands: list[tuple[str, ...]] = []
        k = 0
        for seat in range(n):
            if seat == me:
                hands.append(tuple(view.hand))
            else:
                size = pv.hand_sizes[seat]
                hands.append(tuple(unseen[k : k + size]))
                k += size
        s = LosersGameState(
            players=n,
            dealer=pv.dealer,
            totals=tuple(info["totals"]),
            caller=info["caller"],
            hands=tuple(hands),
            excess=tuple(info["excess"]),
            phase=Phase.PLAY,
            turn=info["caller"],
            trump=info["trump"],
            b_max=info["b_max"],
            bids=(0,) * n,
            leader=info["caller"],
            tricks_won=(0,) * n,
        )
        while (t := s.turn) is not None:
            card = play_card(s.hands[t], list(RULES.legal_cards(s)), s.trick, t, n, info["trump"])
            s, _ = RULES.apply(s, Action("play", t, card=card))
        res = RULES.result(s)
        assert res is not None
        out.append(res.detail["points"][me])
    return out


def best_bid(points: list[int], b_max: int) -> int:
    """The bid with the best expected change over the simulated ``points`` (0 if none > 0)."""
    best, best_value = 0, 0.0
    total = len(points)
    for b in range(1, min(b_max, max(points, default=0)) + 1):
        made = sum(1 for p in points if p >= b) / total
        value = b * (2 * made - 1)
        if value > best_value:
            best, best_value = b, value
    return best


#: ``choose_fast``'s bid: a linear fit of this policy's simulated bids (5,000 bids, 2-6
#: players; residual about 2.5 points against a spread of 4) on trumps, trumps from the
#: Jack up, side Aces and Kings, pairs, threes and fours of a kind, pairs from the Jack up.
_FAST_BID: dict[int, tuple[float, ...]] = {
    2: (3.58, 4.06, 1.87, 0.09, 1.39, 3.65, 3.0, -30.55),
    3: (1.64, 2.41, 1.01, -0.4, -0.28, 0.44, 0.86, -5.93),
    4: (1.22, 2.34, 0.59, -0.19, 0.08, 0.75, 0.57, -3.8),
    5: (0.87, 2.57, 0.4, -0.2, -0.06, 0.29, 0.17, -1.91),
    6: (0.78, 2.21, 0.42, -0.0, 0.49, 0.0, 0.24, -1.78),
}


def fast_bid(hand: tuple[str, ...], trump: str, players: int, b_max: int) -> int:
    """A bid without simulation (for the expert's rollouts): ``_FAST_BID``'s estimate."""
    w = _FAST_BID.get(players, _FAST_BID[4])
    counts = Counter(_rank(c) for c in hand)
    trumps = [c for c in hand if c[0] == trump]
    features = (
        len(trumps),
        sum(1 for c in trumps if RANK[c] >= JACK),
        sum(1 for c in hand if c[0] != trump and RANK[c] >= KING),
        sum(1 for k in counts.values() if k == 2),
        sum(1 for k in counts.values() if k == 3),
        sum(1 for k in counts.values() if k == 4),
        sum(1 for r, k in counts.items() if k >= 2 and r in ("J", "Q", "K", "A")),
    )
    estimate = w[-1] + sum(a * x for a, x in zip(w, features, strict=False))
    return max(0, min(b_max, round(estimate)))


def choose_fast(view: SeatView, rng: random.Random) -> Action:
    """``choose`` with the bid estimated instead of simulated: the expert's rollout policy."""
    if view.legal[0].type == "bid":
        info = view.public.info
        bid = fast_bid(view.hand, info["trump"], view.public.players, info["b_max"])
        return Action("bid", view.seat, amount=bid)
    return choose(view, rng)


def choose(view: SeatView, rng: random.Random) -> Action:
    """The computer's decision for ``view`` (always one of ``view.legal``)."""
    seat = view.seat
    kind = view.legal[0].type
    if kind == "trump":
        return Action("trump", seat, suit=choose_trump(view.hand))
    if kind == "bid":
        bound = view.public.info["b_max"]
        return Action("bid", seat, amount=best_bid(_rollout_points(view, rng), bound))
    legal = [a.card for a in view.legal if a.card is not None]
    pv = view.public
    trump = pv.info["trump"]
    pile: list[str] = []
    need = None
    if pv.trick:  # the bid only changes how a trick is followed
        pile = taken(view)
        bid = next((b for s, b in pv.info.get("bids") or () if s == seat), None)
        need = None if bid is None else bid - _points(pile, trump)
    card = play_card(view.hand, legal, pv.trick, seat, pv.players, trump, pile, need)
    return Action("play", seat, card=card)


def taken(view: SeatView) -> list[str]:
    """The cards this seat has taken so far: the tricks it won in the public history."""
    n, trump = view.public.players, view.public.info["trump"]
    plays = [(a.seat, a.card) for a in view.public.history if a.type == "play" and a.card]
    out: list[str] = []
    for i in range(0, len(plays) - n + 1, n):
        trick = tuple(plays[i : i + n])
        if trick_winner(trick, trump) == view.seat:
            out.extend(c for _, c in trick)
    return out
