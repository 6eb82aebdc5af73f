"""Exact play of the last tricks (issue 33): the expert's alpha-beta agrees with a plain
minimax of the camps over the same positions, counts its nodes, and stays out of the
early deal."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai import policy_for
from bot.ai.expert.endgame import TRICKS, exact_finish
from bot.engine.deck import deal_seed, shuffle
from bot.engine.registry import get_rules

RULES = get_rules("french_tarot")


def _positions(players: int, cards_left: int, deals: int) -> list[Any]:
    """Casual deals stopped at the first card play with ``cards_left`` cards in hand."""
    policy = policy_for("french_tarot")
    found = []
    for i in range(deals):
        deck = shuffle(RULES.pack(players), deal_seed(3, i))
        state = RULES.new_deal(players, RULES.normalize_options(None), deck, i % players)
        rng = random.Random(i)
        while (seat := RULES.to_act(state)) is not None:
            view = RULES.observe(state, seat)
            if view.public.phase == "play" and len(view.hand) == cards_left:
                found.append(state)
                break
            state, _ = RULES.apply(state, policy(view, rng))
    return found


def _minimax(state: Any, seat: int) -> float:
    """Every line played out: each seat picks the best for its camp (the taker and the
    partner against the defence)."""
    t = RULES.to_act(state)
    if t is None:
        result = RULES.result(state)
        assert result is not None
        return float(result.deltas[seat])
    attack = {state.taker, state.partner} - {None}
    values = [_minimax(RULES.apply(state, a)[0], seat) for a in RULES.legal_actions(state)]
    return max(values) if (t in attack) == (seat in attack) else min(values)


@pytest.mark.parametrize("players", [4, 5])
def test_alpha_beta_finds_the_minimax_value_of_the_last_tricks(players: int) -> None:
    finish = exact_finish(RULES)
    assert finish is not None
    positions = _positions(players, 2, 12)
    assert len(positions) >= 4
    for state in positions:
        for seat in range(players):
            value, nodes = finish(state, seat)
            assert value == _minimax(state, seat)
            assert nodes > 0


def test_the_early_deal_is_left_to_the_rollouts() -> None:
    finish = exact_finish(RULES)
    assert finish is not None
    deep = TRICKS["french_tarot"][4] + 1
    for state in _positions(4, deep, 4):
        assert finish(state, 0) == (None, 0)


def test_games_without_fixed_camps_have_no_exact_end() -> None:
    assert exact_finish(get_rules("queen_of_tarot")) is None
