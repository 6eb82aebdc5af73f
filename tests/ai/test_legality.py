"""Both computer levels act legally in every game at every player count.

Casual: thousands of seeded self-play deals in all (``CASUAL_DEALS`` per game, split over its
player counts; Loser's Game's policy is the slowest, so it plays fewer here). Expert: two deals
per game and player count with one expert seat at a small effort (``test_expert`` plays four
at the counts it lists). Every action goes through ``Rules.apply``, which rejects an illegal
one. The thousands-of-deals expert run at a larger effort is a benchmark
(``python bench/ai_bench.py --legality``), its numbers in ``bench/results/``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai import choose_action
from bot.ai.expert import evaluate
from bot.engine.actions import Action
from bot.engine.deck import deal_seed, shuffle
from bot.engine.registry import get_rules, implemented
from bot.engine.rules import Rules
from bot.engine.views import SeatView
from tests.depth import deals

CASUAL_DEALS = {"losers_game": deals(50)}
DEFAULT_CASUAL_DEALS = deals(500)
EXPERT_EFFORT = 0.03
EXPERT_DEALS = 2
ALL_COUNTS = [
    (game, n)
    for game in sorted(implemented())
    for n in range(get_rules(game).min_players, get_rules(game).max_players + 1)
]


def check_legal(rules: Rules, view: SeatView, action: Action) -> None:
    """``action`` is one of ``view.legal``, or completes one of its multi-card templates."""
    assert action.seat == view.seat
    if action.type in rules.multi_card_types:
        assert any(a.type == action.type for a in view.legal), (view, action)
        assert action.cards is not None
        assert set(action.cards) <= set(view.hand), (view.hand, action)
    else:
        assert action in view.legal, (view.legal, action)


def play_deal(
    rules: Rules, players: int, seed: int, decide: Any, expert_seat: int | None = None
) -> tuple[bool, int]:
    """One seeded deal with every decision checked: (played to a score, decisions made)."""
    deck = shuffle(rules.pack(players), deal_seed(seed, 0))
    state = rules.new_deal(players, rules.normalize_options(None), deck, seed % players)
    rng = random.Random(seed)
    decisions = 0
    while (seat := rules.to_act(state)) is not None:
        view = rules.observe(state, seat)
        if expert_seat is None or seat == expert_seat:
            action = decide(view, rng)
            check_legal(rules, view, action)
            decisions += 1
        else:
            action = choose_action(rules, view, rng)
        state, _ = rules.apply(state, action)  # raises IllegalAction on an illegal action
    result = rules.result(state)
    assert result is not None
    return result.outcome == "played", decisions


@pytest.mark.heavy
@pytest.mark.parametrize("game", sorted(implemented()))
def test_casual_play_is_legal_over_thousands_of_deals(game: str) -> None:
    rules = get_rules(game)
    counts = range(rules.min_players, rules.max_players + 1)
    per_count = CASUAL_DEALS.get(game, DEFAULT_CASUAL_DEALS) // len(counts)

    def casual(view: SeatView, rng: random.Random) -> Action:
        return choose_action(rules, view, rng)

    for players in counts:
        played = decisions = 0
        for seed in range(per_count):
            ok, n = play_deal(rules, players, 50_000 + seed, casual)
            played += ok
            decisions += n
        assert played > per_count // 3 and decisions > per_count * 5, (players, played)


@pytest.mark.parametrize(("game", "players"), ALL_COUNTS)
def test_expert_play_is_legal_at_every_player_count(game: str, players: int) -> None:
    rules = get_rules(game)

    def expert(view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        if len(legal) == 1 and legal[0].type not in rules.multi_card_types:
            return legal[0]
        return evaluate(rules, view, rng, effort=EXPERT_EFFORT, strict=True).best

    played = 0
    for seed in range(12):
        ok, decisions = play_deal(rules, players, 70_000 + seed, expert, seed % players)
        played += ok
        assert decisions > 0 or not ok
        if played == EXPERT_DEALS:
            return
    raise AssertionError(f"{game} at {players} players: {played} deals played to a score")
