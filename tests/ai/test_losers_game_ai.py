"""Loser's Game computer player: always legal, realistic bids, and clearly better than random.

Only the bid is scored, so a random player (bidding anything up to B_max) loses heavily and
beating it proves little; the honest baseline is a random player that always bids 0 and so
never loses. The computer must show a clearly positive score against it, by bidding more than
0 and making most of its bids.
"""

from __future__ import annotations

import random

import pytest

from bot.ai import Policy, choose_action, losers_game, random_policy
from bot.engine.actions import Action
from bot.engine.deck import shuffle
from bot.engine.games.losers_game import RULES, LosersGameState, Phase
from bot.engine.games.losers_game_scoring import PACK
from bot.engine.views import DealResult, SeatView


def zero_bidder(view: SeatView, rng: random.Random) -> Action:
    if view.legal[0].type == "bid":
        return Action("bid", view.seat, amount=0)
    return random_policy(view, rng)


def _hand(players: int, seed: int, smart: set[int], other: Policy = random_policy) -> DealResult:
    rng = random.Random(seed)
    s = RULES.new_deal(players, {}, shuffle(PACK, seed), seed % players)
    while s.turn is not None:
        view = RULES.observe(s, s.turn)
        action = choose_action(RULES, view, rng) if s.turn in smart else other(view, rng)
        s, _ = RULES.apply(s, action)  # raises on an illegal choice
    res = RULES.result(s)
    assert res is not None
    return res


@pytest.mark.heavy
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bids_realistically_and_scores_against_a_safe_random_player(players: int) -> None:
    """One computer seat (rotating) against random players who always bid 0, 80 hands."""
    n = 80
    score = bids = 0
    bidding = made = 0  # hands with a bid above 0, and those made
    for seed in range(n):
        seat = seed % players
        res = _hand(players, 3_000 + seed, {seat}, zero_bidder)
        score += res.deltas[seat]
        bids += res.detail["bids"][seat]
        if res.detail["bids"][seat] > 0:
            bidding += 1
            made += res.detail["made"][seat]
    assert bids / n >= 1.0, "the computer must bid, not always 0"
    assert made >= 0.75 * bidding, (made, bidding)
    assert score / n >= 0.6 * bids / n, (score / n, bids / n)


def test_beats_random_bidders_by_far() -> None:
    mine = theirs = 0.0
    for seed in range(60):
        seat = seed % 4
        res = _hand(4, 5_000 + seed, {seat})
        mine += res.deltas[seat]
        theirs += (sum(res.deltas) - res.deltas[seat]) / 3
    assert mine > 0 > theirs and mine - theirs > 60 * 20


def test_all_computer_tables_are_legal() -> None:
    for players in range(2, 7):
        for seed in range(4):
            _hand(players, seed, set(range(players)))


def _view(hand: list[str], trick: list[tuple[int, str]], trump: str = "H") -> SeatView:
    n = 4
    seat = (trick[0][0] + len(trick)) % n if trick else 0
    hands: list[tuple[str, ...]] = [("S2",)] * n
    hands[seat] = tuple(hand)
    s = LosersGameState(
        players=n,
        dealer=3,
        totals=(0,) * n,
        caller=0,
        hands=tuple(hands),
        excess=(),
        phase=Phase.PLAY,
        turn=seat,
        trump=trump,
        b_max=130,
        bids=(0,) * n,
        trick=tuple(trick),
        tricks_won=(0,) * n,
    )
    return RULES.observe(s, seat)


def _card(hand: list[str], trick: list[tuple[int, str]]) -> str:
    return losers_game.choose(_view(hand, trick), random.Random(0)).card or ""


def test_names_the_suit_it_is_strongest_in() -> None:
    hand = ("SA", "SK", "SQ", "S9", "S4", "H2", "H3", "H5", "D2", "C3", "C4", "D7", "D8")
    assert losers_game.choose_trump(hand) == "S"


def test_last_to_play_takes_a_trick_with_trumps_cheaply() -> None:
    trick = [(1, "S9"), (2, "H4"), (3, "S10")]
    assert _card(["H6", "HA", "C2"], trick) == "H6"


def test_does_not_throw_a_trump_into_a_lost_trick() -> None:
    trick = [(1, "SA"), (2, "H4"), (3, "S10")]
    assert _card(["H3", "C2", "D9"], trick) == "C2"


def test_keeps_cards_of_a_rank_being_collected() -> None:
    trick = [(1, "SA"), (2, "SK"), (3, "S10")]
    assert _card(["C7", "D7", "C3"], trick) == "C3"


def test_a_strong_hand_bids_and_a_hopeless_one_does_not() -> None:
    rng = random.Random(1)
    strong = ["HA", "HK", "HQ", "HJ", "H10", "H9", "H8", "H7", "SA", "DA", "CA", "SK", "DK"]
    rest = [c for c in PACK if c not in strong]
    s = RULES.new_deal(4, {}, PACK, 3)
    hands = (tuple(strong), tuple(rest[:13]), tuple(rest[13:26]), tuple(rest[26:39]))
    s = s._replace(hands=hands, trump="H", b_max=130, phase=Phase.BIDDING, turn=0)
    bid = losers_game.choose(RULES.observe(s, 0), rng).amount or 0
    assert bid >= 8
    weak = s._replace(turn=1)
    assert (losers_game.choose(RULES.observe(weak, 1), rng).amount or 0) <= 2
