"""The expert level (``bot.ai.expert``): legal, deterministic, well-formed evaluations.

Searching needs worlds consistent with a seat's knowledge. Where the engine provides
``Rules.sample_world`` the tests use it; every test also runs the search with a stand-in
sampler (the true deal with the other seats' hands reshuffled), so the search machinery is
covered whatever the engine offers. Efforts are tiny: these tests check behaviour, not
strength (``bench/duplicate_match.py`` measures that).
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from bot.ai import choose_action, policy_for
from bot.ai.expert import LEVELS, Evaluation, choose_expert, evaluate
from bot.ai.expert.fastview import Observer
from bot.ai.expert.search import public_form
from bot.engine.actions import Action
from bot.engine.deck import deal_seed, shuffle
from bot.engine.registry import get_rules, implemented
from bot.engine.rules import Rules
from bot.engine.views import SeatView

#: Searches here run ``strict`` (the work budget alone decides): with the time cap, a loaded
#: machine could stop a search early and make two equal searches differ. The cap itself is
#: tested in ``test_expert_determinism``.
EFFORT = 0.04
COUNTS = {
    "french_tarot": (3, 4, 5),
    "la_morte": (3, 4, 5),
    "early_french_tarot": (2, 4, 6),
    "losers_game": (3, 5),
    "queen_of_tarot": (3,),
}
CASES = [(g, n) for g in sorted(implemented()) for n in COUNTS.get(g, (3,))]


def reshuffler(rules: Rules, state: Any) -> Callable[[SeatView, random.Random], Any]:
    """A stand-in for ``sample_world``: the other seats' hands of the true deal reshuffled
    among them (sizes kept; other hidden cards left where they are)."""

    def sample(view: SeatView, rng: random.Random) -> Any:
        hands = [tuple(h) for h in state.hands]
        pool = [c for s, h in enumerate(hands) if s != view.seat for c in h]
        rng.shuffle(pool)
        for s, h in enumerate(hands):
            if s != view.seat:
                hands[s], pool = tuple(pool[: len(h)]), pool[len(h) :]
        return state._replace(hands=tuple(hands))

    return sample


def has_sampler(rules: Rules) -> bool:
    return type(rules).sample_world is not Rules.sample_world


def with_history(view: SeatView, history: list[Action]) -> SeatView:
    if view.public.history or not history:
        return view
    return replace(view, public=replace(view.public, history=tuple(history)))


def deal(game: str, players: int, seed: int) -> tuple[Rules, Any]:
    rules = get_rules(game)
    deck = shuffle(rules.pack(players), deal_seed(seed, 0))
    return rules, rules.new_deal(players, rules.normalize_options(None), deck, seed % players)


def test_levels() -> None:
    assert LEVELS == ("casual", "expert")


@pytest.mark.parametrize(("game", "players"), CASES)
def test_rollout_views_lead_the_casual_play_to_the_same_choices(game: str, players: int) -> None:
    """The cheap rollout view and ``Rules.observe`` give the casual policy the same choice."""
    policy = policy_for(game)
    compared = 0
    for seed in range(40):
        if compared > 40:
            break
        rules, state = deal(game, players, 700 + seed)
        observer = Observer(rules, state)
        history: list[Action] = []
        rng = random.Random(seed)
        while (seat := rules.to_act(state)) is not None:
            view = with_history(rules.observe(state, seat), history)
            if len(view.legal) > 1 and view.legal[0].type == "play":
                fast = observer(state, seat, tuple(history))
                expected = policy(view, random.Random(seed))
                assert policy(fast, random.Random(seed)) == expected, (seed, view)
                compared += 1
            action = policy(view, rng)
            history.append(public_form(action))
            state, _ = rules.apply(state, action)
    assert compared > 20


def _check(rules: Rules, state: Any, view: SeatView, ev: Evaluation) -> None:
    assert ev.seat == view.seat
    assert ev.options and ev.best == ev.options[0].action
    assert len(ev.options) <= 14
    assert len({o.action for o in ev.options}) == len(ev.options)
    for option in ev.options:
        assert option.samples >= 0
        assert option.action.type not in rules.multi_card_types or option.action.cards
        rules.apply(state, option.action)  # every option is a concrete legal action
    assert next(iter(ev.options)).samples > 0  # (pyright narrows ev.options oddly here)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_expert_decisions_are_legal_and_well_formed(game: str, players: int) -> None:
    """Four deals with one expert seat (the others casual): every expert decision is legal
    and its evaluation lists concrete legal candidates, best first."""
    decisions = played = 0
    for seed in range(20):
        if played >= 4:
            break
        rules, state = deal(game, players, 900 + seed)
        expert = seed % players
        history: list[Action] = []
        rng = random.Random(seed)
        while (seat := rules.to_act(state)) is not None:
            view = with_history(rules.observe(state, seat), history)
            if seat == expert:
                sampler = None if has_sampler(rules) else reshuffler(rules, state)
                ev = evaluate(rules, view, rng, effort=EFFORT, sampler=sampler, strict=True)
                _check(rules, state, view, ev)
                action = ev.best
                decisions += 1
            else:
                action = choose_action(rules, view, rng)
            history.append(public_form(action))
            state, _ = rules.apply(state, action)
        result = rules.result(state)
        played += result is not None and result.outcome == "played"
    assert played == 4 and decisions >= 8


def _positions(game: str, players: int, count: int) -> list[tuple[Rules, Any, SeatView]]:
    """Decisions with a real choice from a casual deal (a few of each phase)."""
    rules, state = deal(game, players, 4242)
    out: list[tuple[Rules, Any, SeatView]] = []
    rng = random.Random(1)
    history: list[Action] = []
    while (seat := rules.to_act(state)) is not None:
        view = with_history(rules.observe(state, seat), history)
        if len(view.legal) > 1 and len(out) < count and rng.random() < 0.5:
            out.append((rules, state, view))
        action = choose_action(rules, view, rng)
        history.append(public_form(action))
        state, _ = rules.apply(state, action)
    return out


@pytest.mark.parametrize("game", sorted(implemented()))
def test_same_rng_same_evaluation(game: str) -> None:
    for rules, state, view in _positions(game, COUNTS[game][0], 3):
        sampler = None if has_sampler(rules) else reshuffler(rules, state)
        a = evaluate(rules, view, random.Random(77), effort=EFFORT, sampler=sampler, strict=True)
        b = evaluate(rules, view, random.Random(77), effort=EFFORT, sampler=sampler, strict=True)
        assert a == b


def test_choose_expert_returns_at_once_with_a_single_action() -> None:
    rules, state = deal("early_french_tarot", 4, 3)
    for _ in range(47):  # the last card of the deal is forced
        seat = rules.to_act(state)
        assert seat is not None
        state, _ = rules.apply(
            state, choose_action(rules, rules.observe(state, seat), random.Random())
        )
    seat = rules.to_act(state)
    assert seat is not None
    view = rules.observe(state, seat)
    assert len(view.legal) == 1
    assert choose_expert(rules, view, random.Random(0)) == view.legal[0]
    assert choose_action(rules, view, random.Random(0), level="expert") == view.legal[0]
    with pytest.raises(ValueError):
        choose_action(rules, view, random.Random(0), level="grandmaster")


_REPLAY = """
import json, random, sys
sys.path.insert(0, {root!r})
from tests.ai.test_expert import _positions, has_sampler, reshuffler
from bot.ai.expert import evaluate
out = []
for game in {games!r}:
    for rules, state, view in _positions(game, 3, 2):
        sampler = None if has_sampler(rules) else reshuffler(rules, state)
        ev = evaluate(rules, view, random.Random(5), effort={effort}, sampler=sampler, strict=True)
        out.append([[o.action.to_json(), round(o.expected, 9), o.samples] for o in ev.options])
print(json.dumps(out))
"""


def test_a_fresh_process_replays_identically() -> None:
    """Restarts (new processes, other string-hash seeds) give the same evaluations."""
    import os
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    code = _REPLAY.format(root=root, games=sorted(implemented()), effort=EFFORT)
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and outputs[0].startswith("[[")


def test_chosen_actions_are_compared_on_the_same_worlds() -> None:
    """``actions=`` values exactly the actions given (a review's duel), none merged away."""
    for rules, state, view in _positions("early_french_tarot", 4, 4):
        plays = [a for a in view.legal if a.type == "play"][:2]
        if len(plays) < 2:
            continue
        sampler = None if has_sampler(rules) else reshuffler(rules, state)
        ev = evaluate(
            rules,
            view,
            random.Random(3),
            effort=EFFORT,
            sampler=sampler,
            actions=plays,
            strict=True,
        )
        assert {o.action for o in ev.options} == set(plays)
        assert ev.options[0].samples == ev.options[1].samples > 0


def test_losers_game_trump_call_at_two_players_is_left_to_the_casual_policy() -> None:
    """Rollouts bid with a fitted estimate that misjudges a two-player hand before any bid:
    that trump call is the casual one, unsearched (``UNSEARCHED``); at four it is searched."""
    for players, searched in ((2, False), (4, True)):
        rules, state = deal("losers_game", players, 5)
        seat = rules.to_act(state)
        assert seat is not None
        view = rules.observe(state, seat)
        assert view.legal[0].type == "trump"
        ev = evaluate(rules, view, random.Random(1), effort=EFFORT, strict=True)
        assert ev.best in view.legal
        assert (ev.options[0].samples > 0) == searched
        assert searched or len(ev.options) == 1
