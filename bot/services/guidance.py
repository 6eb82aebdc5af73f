"""Guidance at a bidding decision (issue 31): what the hand holds in the game's own terms, a
fair amount to bid, and what each answer does to the score.

Everything here is a pure function of one ``SeatView`` — the deciding seat's own hand and the
public facts — so a guidance line can never tell a player more than they could work out
themselves (``tests/services/test_guidance.py`` deals the hidden cards otherwise and finds the
same guidance). The estimates are the casual computer player's own (``bot.ai``), which bid from
the same observation; no search, no hidden card, nothing slow: it runs while a hand is drawn.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.ai import losers_game as losers_ai
from bot.ai import queen_of_tarot as queen_ai
from bot.ai.french_tarot import wanted_contract
from bot.engine.games.french_tarot_cards import (
    BOUTS,
    CONTRACTS,
    TARGET_HP,
    half_points,
    is_king,
    is_trump,
)
from bot.engine.games.queen_of_tarot_cards import FAIR_SHARE, HONOURS, KINGS, POINTS, TRUMP
from bot.engine.views import SeatView

#: Loser's Game quick bids: the estimate and this many either side (issue 31: any amount
#: within ±3 of the estimate in one tap).
QUICK_SPREAD = 3


@dataclass(frozen=True, slots=True)
class TarotHand:
    """A French Tarot hand at its bid (french_tarot §3.3): bouts, trumps (the Excuse apart),
    Kings and card points held, the attack's target if those bouts end in its pile (§5.1), and
    the contract a hand like this usually bids (``"pass"``: most would pass)."""

    bouts: int
    trumps: int
    kings: int
    points_hp: int
    target_hp: int
    typical: str


def french_tarot_hand(view: SeatView) -> TarotHand:
    hand = view.hand
    bouts = sum(1 for c in hand if c in BOUTS)
    wanted = wanted_contract(hand, view.public.players)
    return TarotHand(
        bouts=bouts,
        trumps=sum(1 for c in hand if is_trump(c)),
        kings=sum(1 for c in hand if is_king(c)),
        points_hp=sum(half_points(c) for c in hand),
        target_hp=TARGET_HP[bouts],
        typical=CONTRACTS[wanted] if wanted >= 0 else "pass",
    )


@dataclass(frozen=True, slots=True)
class LosersBid:
    """A Loser's Game hand at its bid (losers_game §3.2, §5.1): trumps held, ranks held three
    and two times (sets are scored from the pile, so these are the sets within reach), the
    computer's estimate of a fair bid, the quick bids around it and the bid bounds."""

    trumps: int
    threes: int
    pairs: int
    estimate: int
    quick: tuple[int, ...]
    low: int
    high: int


def losers_bid(view: SeatView) -> LosersBid:
    info = view.public.info
    amounts = sorted({a.amount for a in view.legal if a.type == "bid" and a.amount is not None})
    low, high = (amounts[0], amounts[-1]) if amounts else (0, int(info["b_max"] or 0))
    trump = info["trump"]
    estimate = losers_ai.fast_bid(view.hand, trump, view.public.players, high)
    estimate = max(low, min(high, estimate))
    window = range(estimate - QUICK_SPREAD, estimate + QUICK_SPREAD + 1)
    held = Counter(c[1:] for c in view.hand).values()
    return LosersBid(
        trumps=sum(1 for c in view.hand if c[0] == trump),
        threes=sum(1 for k in held if k >= 3),
        pairs=sum(1 for k in held if k == 2),
        estimate=estimate,
        quick=tuple(x for x in window if x in amounts),
        low=low,
        high=high,
    )


@dataclass(frozen=True, slots=True)
class QueenBargain:
    """A Queen of Tarot hand while bargaining (queen_of_tarot §3.1): the cards held so far,
    their card points, trumps, Kings and honours; the card points the whole 25-card hand is on
    course for against the fair share of 43 (§1), the best declaration already in hand (paid by
    each opponent, §3.3), what playing on looks worth in game points, and the computer's call
    (``advice``: ``continue``, ``pass``, ``demand`` or ``offer``, with ``amount`` for the last
    two)."""

    cards: int
    points: int
    trumps: int
    kings: int
    honours: int
    expected: int
    declaration: int
    worth: int
    advice: str
    amount: int | None


def queen_bargain(view: SeatView) -> QueenBargain:
    hand = view.hand
    cards, bonus = queen_ai.estimate_parts(hand)
    advice = queen_ai.bargain(view)
    return QueenBargain(
        cards=len(hand),
        points=sum(POINTS[c] for c in hand),
        trumps=sum(1 for c in hand if c[0] == TRUMP),
        kings=sum(1 for c in hand if c in KINGS),
        honours=sum(1 for c in hand if c in HONOURS),
        expected=round(FAIR_SHARE + cards),
        declaration=bonus,
        worth=round(queen_ai.estimate(hand)),
        advice=advice.type,
        amount=advice.amount,
    )


@dataclass(frozen=True, slots=True)
class MorteStakes:
    """What La Morte's answers pay (la_morte §5.1), from the public auction: the standing
    contract (``None``: no bid yet), its maker, and whether it is fixed (someone accepted: the
    figures are final; otherwise a higher bid may still raise them)."""

    contract: int | None
    maker: int | None
    fixed: bool

    @property
    def defend_bonus(self) -> int | None:
        """A defender's extra if the contract fails (`t + c`), beside 1 per trick."""
        return self.contract

    @property
    def drop_score(self) -> int | None:
        """A dropper's score with no trick taken (`c − 1`)."""
        return None if self.contract is None else self.contract - 1


def la_morte_stakes(view: SeatView) -> MorteStakes:
    info = view.public.info
    if info["contract"] is not None:
        return MorteStakes(info["contract"], info["maker"], True)
    high = info["high_bid"] or None
    return MorteStakes(high, info["high_bidder"] if high else None, False)


def bids_now(view: SeatView) -> bool:
    """Whether the seat's decision is one this module guides (a bid, an Accept or Drop, a
    bargaining call)."""
    return any(
        a.type in ("bid", "accept", "drop", "pass", "continue", "demand", "offer")
        for a in view.legal
    )
