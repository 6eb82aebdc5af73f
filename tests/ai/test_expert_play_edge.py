"""The expert counts its own card play when a decision can throw the deal in (``PLAY_EDGE``).

Queen of Tarot's bargaining settles a hand (thrown in) or plays it on. The search's rollouts
play the cards with the casual policy, which the expert's card play beats by about ten points a
deal played; a rollout that plays the deal out is credited that much, one that is thrown in is
not, and a card play's search (every candidate played out alike) is left as it was.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai import expert, policy_for
from bot.ai.expert import evaluate
from bot.ai.expert.rollout import rollout_policy
from bot.ai.expert.search import Stepper, rollout
from bot.engine.deck import deal_seed, shuffle
from bot.engine.registry import get_rules
from bot.engine.views import SeatView

RULES = get_rules("queen_of_tarot")
EFFORT = 0.1


def _bargaining(index: int) -> Any:
    deal = deal_seed(23, index)
    deck = shuffle(RULES.pack(3), deal)
    return RULES.new_deal(3, RULES.normalize_options(None), deck, index % 3)


def test_a_rollout_played_out_is_credited_the_edge_and_one_thrown_in_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    step = Stepper(RULES)
    policy = rollout_policy("queen_of_tarot")
    ended: list[str] = []
    result = type(RULES).result

    def recorded(rules: Any, state: Any) -> Any:
        found = result(rules, state)
        if found is not None:
            ended.append(found.outcome)
        return found

    monkeypatch.setattr(type(RULES), "result", recorded)
    for index in range(40):
        state = _bargaining(index)
        seat = RULES.to_act(state)
        assert seat is not None
        plain, _ = rollout(RULES, step, state, seat, policy, random.Random(index), [])
        edged, _ = rollout(RULES, step, state, seat, policy, random.Random(index), [], 10.0)
        assert ended[-1] == ended[-2]  # the same rollout twice
        assert edged - plain == (10.0 if ended[-1] == "played" else 0.0)
    assert set(ended) == {"played", "thrown_in"}  # both kinds met


def test_bargaining_is_searched_with_the_edge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert expert.PLAY_EDGE == {"queen_of_tarot": 10.0}
    state = _bargaining(1)
    seat = RULES.to_act(state)
    assert seat is not None
    view = RULES.observe(state, seat)
    calls = [a for a in view.legal if a.type in ("pass", "continue")]
    with_edge = evaluate(RULES, view, random.Random(5), effort=EFFORT, actions=calls, strict=True)
    monkeypatch.setattr(expert, "PLAY_EDGE", {})
    without = evaluate(RULES, view, random.Random(5), effort=EFFORT, actions=calls, strict=True)
    gained = {o.action: o.expected for o in with_edge.options}
    for o in without.options:
        # each call gains the edge times the share of its worlds played out: some, not all
        assert 0.0 < gained[o.action] - o.expected <= 10.0 + 1e-9


def _first_card_decision() -> SeatView:
    """The first card decision of a seeded deal the casual players play out."""
    casual = policy_for("queen_of_tarot")
    for index in range(20):
        state, rng = _bargaining(index), random.Random(index)
        while (t := RULES.to_act(state)) is not None:
            view = RULES.observe(state, t)
            if view.legal[0].type == "play" and len(view.legal) > 1:
                return view
            state = RULES.apply(state, casual(view, rng))[0]
    raise AssertionError("no seeded deal reached its card play")


def test_a_card_play_is_searched_as_without_the_edge(monkeypatch: pytest.MonkeyPatch) -> None:
    view = _first_card_decision()
    with_edge = evaluate(RULES, view, random.Random(5), effort=EFFORT, strict=True)
    monkeypatch.setattr(expert, "PLAY_EDGE", {})
    without = evaluate(RULES, view, random.Random(5), effort=EFFORT, strict=True)
    assert with_edge == without
