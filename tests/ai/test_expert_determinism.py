"""The expert's answer under load: the work budget decides, the time cap is a logged net.

``evaluate(..., strict=True)`` has no time cap, so a machine slowed to a crawl (here a clock
that jumps ten seconds every time it is read) gets exactly the answer an idle one gets; the
default keeps a safety net that stops the search early on such a machine and says so in the
log. Also here: the anchor rule (the casual action stays first unless another beats it
clearly over the same worlds) and a sampler that cannot draw a world.

Determinism under restart is covered elsewhere: ``test_expert.test_a_fresh_process_replays_
identically`` (fresh processes, other hash seeds) and, for a whole table replayed from the
database, ``tests/e2e/test_levels_hints_review_e2e.test_restart_mid_game_with_expert_
computers_plays_on_identically``.
"""

from __future__ import annotations

import importlib
import logging
import random
from typing import Any

import pytest

from bot.ai.expert import choose_expert, evaluate
from bot.ai.expert.rollout import rollout_policy
from bot.engine.games.worlds import NoWorld
from bot.engine.rules import Rules
from bot.engine.views import SeatView
from tests.ai.test_expert import _positions  # pyright: ignore[reportPrivateUsage]

search_module = importlib.import_module("bot.ai.expert.search")

EFFORT = 0.08
GAMES = ("french_tarot", "early_french_tarot", "la_morte", "losers_game", "queen_of_tarot")
PLAYERS = {"queen_of_tarot": 3}


class JumpingClock:
    """A stand-in for the ``time`` module on a hopelessly loaded machine: every reading of
    either clock is ten seconds after the previous one."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reads = 0

    def _tick(self) -> float:
        self.now += 10.0
        self.reads += 1
        return self.now

    def process_time(self) -> float:
        return self._tick()

    def perf_counter(self) -> float:
        return self._tick()


def positions(game: str) -> list[tuple[Rules, Any, SeatView]]:
    """Decisions with several candidates (the casual deal of ``test_expert``)."""
    found = _positions(game, PLAYERS.get(game, 4), 6)
    return [p for p in found if len(p[2].legal) > 1][:2]


@pytest.mark.parametrize("game", GAMES)
def test_strict_evaluation_ignores_the_clock(
    game: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    cases = positions(game)
    assert cases
    calm = [evaluate(r, v, random.Random(11), effort=EFFORT, strict=True) for r, _, v in cases]
    clock = JumpingClock()
    monkeypatch.setattr(search_module, "time", clock)
    with caplog.at_level(logging.WARNING, logger=search_module.__name__):
        slowed = [
            evaluate(r, v, random.Random(11), effort=EFFORT, strict=True) for r, _, v in cases
        ]
        assert slowed == calm
        chosen = [
            choose_expert(r, v, random.Random(11), effort=EFFORT, strict=True) for r, _, v in cases
        ]
        assert chosen == [e.best for e in calm]
    assert not caplog.records  # no net, nothing to report


@pytest.mark.parametrize("game", GAMES)
def test_the_safety_net_stops_a_slowed_search_and_logs_it(
    game: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    cases = positions(game)
    calm = [evaluate(r, v, random.Random(11), effort=EFFORT, strict=True) for r, _, v in cases]
    monkeypatch.setattr(search_module, "time", JumpingClock())
    with caplog.at_level(logging.WARNING, logger=search_module.__name__):
        capped = [evaluate(r, v, random.Random(11), effort=EFFORT) for r, _, v in cases]
    for full, cut in zip(calm, capped, strict=True):
        worlds = max(o.samples for o in cut.options)
        assert 0 < worlds < max(o.samples for o in full.options)  # one world, then stopped
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == len(cases)  # once per decision, however many checks follow
    message = warnings[0].getMessage()
    assert game in message and "time cap" in message and "work units" in message


def test_the_casual_action_stays_unless_clearly_beaten() -> None:
    """With an impossible margin the casual action (the first candidate) always stays
    first; with none the best mean among the survivors leads."""
    rules, _, view = positions("early_french_tarot")[0]
    plays = list(view.legal)
    assert len(plays) > 2

    def run(anchor: bool, margin: float) -> list[Any]:
        return search_module.search(
            rules,
            view,
            plays,
            seed=3,
            budget=600,
            policy=rollout_policy(rules.game_id),
            sampler=rules.sample_world,
            hard_cap=None,
            anchor=anchor,
            margin=margin,
        )

    assert run(True, 1e9)[0].action == plays[0]
    free = run(False, 0.0)
    anchored = run(True, 0.0)
    top = free[0]
    assert top.mean >= max(t.mean for t in free if t.samples == top.samples)
    # with margin 0 the anchor only moves when the leader is not ahead over shared worlds
    lead = anchored[0]
    assert (
        lead.action == plays[0]
        or lead.mean > next(t for t in anchored if t.action == plays[0]).mean
    )


def test_worlds_the_sampler_cannot_draw_are_skipped() -> None:
    rules, _, view = positions("la_morte")[0]

    def never(view: SeatView, rng: random.Random) -> Any:
        raise NoWorld("none")

    ev = evaluate(rules, view, random.Random(2), effort=EFFORT, sampler=never, strict=True)
    assert len(ev.options) == 1 and ev.options[0].samples == 0
    assert ev.best in view.legal

    draws = 0

    def sometimes(view: SeatView, rng: random.Random) -> Any:
        nonlocal draws
        draws += 1
        if draws % 2:
            raise NoWorld("not this time")
        return rules.sample_world(view, rng)

    ev = evaluate(rules, view, random.Random(2), effort=EFFORT, sampler=sometimes, strict=True)
    assert ev.options[0].samples > 0 and ev.best in view.legal


@pytest.mark.parametrize("game", ("early_french_tarot", "queen_of_tarot"))
def test_the_daily_deals_computers_are_strict(
    game: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The daily deal's computers (``bot.services.step.strict_expert_action``, issue 20)
    decide from the work budget alone: a crawling machine gets the idle machine's answer, so
    every player meets the same replies to the same choices."""
    from bot.services.step import strict_expert_action

    cases = positions(game)
    calm = [strict_expert_action(r, v, random.Random(5), EFFORT) for r, _, v in cases]
    monkeypatch.setattr(search_module, "time", JumpingClock())
    with caplog.at_level(logging.WARNING, logger=search_module.__name__):
        slowed = [strict_expert_action(r, v, random.Random(5), EFFORT) for r, _, v in cases]
    assert slowed == calm
    assert not caplog.records
