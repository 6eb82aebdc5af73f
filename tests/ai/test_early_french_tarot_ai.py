"""Early French Tarot computer player: always legal, sensible in key spots, better than random."""

from __future__ import annotations

import random

import pytest

from bot.ai import choose_action, early_french_tarot, random_policy
from bot.engine.cards import TAROT_PACK
from bot.engine.deck import shuffle
from bot.engine.games.early_french_tarot import RULES, EarlyFrenchTarotState
from bot.engine.views import SeatView


def _deal(players: int, seed: int, smart: set[int]) -> tuple[int, ...]:
    rng = random.Random(seed)
    s = RULES.new_deal(players, {}, shuffle(TAROT_PACK, seed), seed % players)
    while s.turn is not None:
        view = RULES.observe(s, s.turn)
        # The computer's policy is found by name through the dispatcher.
        action = choose_action(RULES, view, rng) if s.turn in smart else random_policy(view, rng)
        s, _ = RULES.apply(s, action)  # raises on an illegal choice
    res = RULES.result(s)
    assert res is not None
    return res.deltas


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_beats_random_players_clearly(players: int) -> None:
    """One computer seat (rotating) against random legal players, 300 hands per count."""
    mine = theirs = 0.0
    for seed in range(300):
        seat = seed % players
        deltas = _deal(players, 7_000 + seed, {seat})
        mine += deltas[seat]
        theirs += (sum(deltas) - deltas[seat]) / (players - 1)
    assert mine > 1.2 * theirs, (mine / 300, theirs / 300)


def test_all_computer_tables_are_legal() -> None:
    for players in range(2, 7):
        for seed in range(40):
            _deal(players, seed, set(range(players)))


def _position(hand: list[str], trick: list[tuple[int, str]], players: int = 4) -> SeatView:
    n = players
    seat = (trick[0][0] + len(trick)) % n if trick else 0
    hands: list[tuple[str, ...]] = [("S2",)] * n
    hands[seat] = tuple(hand)
    s = EarlyFrenchTarotState(
        players=n,
        dealer=n - 1,
        every_card_scores=False,
        hands=tuple(hands),
        set_aside=(),
        turn=seat,
        trick=tuple(trick),
        piles=((),) * n,
    )
    return RULES.observe(s, seat)


def _card(hand: list[str], trick: list[tuple[int, str]]) -> str:
    action = early_french_tarot.choose(_position(hand, trick), random.Random(0))
    return action.card or ""


def test_saves_a_king_with_the_fool() -> None:
    # Spades led and trumped: Dee's only spade is the King, which would be lost.
    assert _card(["SK", "EX", "H3"], [(0, "S3"), (1, "T5"), (2, "S9")]) == "EX"


def test_last_player_wins_cheaply_and_throws_low_when_lost() -> None:
    assert _card(["S5", "S9", "SK"], [(0, "S3"), (1, "S4"), (2, "S2")]) == "S5"
    assert _card(["H5", "HQ", "D2"], [(0, "S3"), (1, "T4"), (2, "S2")]) in ("H5", "D2")


def test_trumps_a_trick_full_of_honours() -> None:
    assert _card(["T9", "T3", "H2"], [(0, "SK"), (1, "SQ")]) in ("T9", "T3")
