"""Determinized search (perfect-information Monte Carlo) over one decision of one seat.

For a decision, the searcher lists a handful of concrete candidate actions (``candidates``),
draws worlds — full deal states consistent with everything the seat knows — from the
engine's ``Rules.sample_world(view, rng)``, and plays every candidate out in every world with
the fast casual policies in all seats (``rollout``). A candidate's value is the seat's mean
score change for the deal (``DealResult.deltas``) over the worlds it was played in.

Every candidate meets the same worlds and the same rollout random streams (common random
numbers), so differences between candidates are not drowned by the luck of the deal.
Successive halving spends the budget where it matters: every candidate is played in the
first worlds, then the worse half is dropped, and so on, until one round remains.

**Budget and determinism.** Work is counted in *units*: one rollout decision (a policy call
plus the engine applying it) is one unit, and drawing a world costs ``WORLD_UNITS``. The
budget in units (per game, times ``effort``; a world costs what drawing it takes in rollout
decisions of the same game, measured) alone decides when a round ends and which
candidate wins, so the same ``rng`` state gives the same answer on any machine, loaded or not,
in any process. Time is only a safety net: once the search has used ``hard_cap`` seconds of
CPU (or three times that of wall-clock time, on a machine far busier than planned) it stops
after the world in progress and answers from what it has — that answer may then depend on
the machine's speed (``Evaluation`` reports the samples used), so the search logs a warning
whenever the net catches it. The budgets are sized so that one core of the development
machine stays well under the cap (``bench/ai_bench.py`` counts the catches). With
``hard_cap=None`` (``evaluate(..., strict=True)``) there is no net: the budget alone decides,
whatever the load — for callers that need every run to agree, such as a deal every player
must face with the same opponents.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from bot.ai.expert.fastview import Observer
from bot.engine.actions import Action
from bot.engine.errors import IllegalAction
from bot.engine.registry import optional_module
from bot.engine.rules import Rules
from bot.engine.views import SeatView

log = logging.getLogger(__name__)

Policy = Callable[[SeatView, random.Random], Action]
Sampler = Callable[[SeatView, random.Random], Any]
Weigh = Callable[[Any], float]
PlayOut = Callable[[Any, list[Action]], "tuple[Any, int] | None"]

#: Units charged for drawing one world, by default (``search``'s ``world_units``).
WORLD_UNITS = 12
#: Draws in a row that may fail before the search gives up finding any world.
MAX_FAILURES = 8


@dataclass(slots=True)
class Tally:
    action: Action
    total: float = 0.0  # sum of weight × value
    samples: int = 0
    weight: float = 0.0  # sum of the worlds' weights
    #: the value in each world played, by world number (for paired comparisons)
    values: dict[int, float] = field(default_factory=dict[int, float])

    @property
    def mean(self) -> float:
        """The weighted mean value (each world weighed by its likelihood, ``inference``)."""
        return self.total / self.weight if self.weight > 0 else float("-inf")


class Stepper:
    """``apply`` for rollouts: the engine's trusted fast path when it has one."""

    __slots__ = ("_apply", "_trusted", "multi")

    def __init__(self, rules: Rules) -> None:
        self._apply = rules.apply
        self._trusted = getattr(rules, "apply_trusted", None)
        self.multi = rules.multi_card_types

    def __call__(self, state: Any, action: Action) -> Any:
        if self._trusted is not None and action.type not in self.multi:
            return self._trusted(state, action)[0]
        return self._apply(state, action)[0]


def public_form(action: Action) -> Action:
    """What the table sees of ``action``: a discard's cards are hidden."""
    if action.type == "discard" and action.cards is not None:
        return action._replace(cards=None, amount=len(action.cards))
    return action


def rollout(
    rules: Rules,
    step: Stepper,
    state: Any,
    seat: int,
    policy: Policy,
    rng: random.Random,
    history: list[Action],
    edge: float = 0.0,
) -> tuple[float, int]:
    """Play ``state`` to the end with ``policy`` in every seat: (seat's score, units).

    ``history`` is the public history so far (extended in place). Where the game has a fast
    path for its casual card play (``fast_play_out``), the card play goes through it: the same
    cards, one unit each, without building a view per card. ``edge`` is added to the seat's
    score when the deal is played out rather than thrown in (``search``)."""
    to_act = rules.to_act
    observe = Observer(rules, state)
    multi = step.multi
    play_out = fast_play_out(rules.game_id) if policy is fast_policy(rules.game_id) else None
    units = 0
    while (t := to_act(state)) is not None:
        if play_out is not None and (done := play_out(state, history)) is not None:
            state, cards = done
            units += cards
            continue  # the deal is over (or, in a game with more after its card play, goes on)
        view = observe(state, t, tuple(history))
        legal = view.legal
        action = legal[0] if len(legal) == 1 and legal[0].type not in multi else None
        if action is None:
            action = policy(view, rng)
        history.append(public_form(action))
        state = step(state, action)
        units += 1
    result = rules.result(state)
    assert result is not None
    value = float(result.deltas[seat])
    return (value + edge if result.outcome == "played" else value), units


@cache
def fast_play_out(game_id: str) -> PlayOut | None:
    """``bot.ai.<game>_rollout.play_out`` if the game has one: its casual card play on the bare
    state, for rollouts whose policy is that casual play."""
    module = optional_module(f"bot.ai.{game_id}_rollout")
    found = getattr(module, "play_out", None)
    return found if callable(found) else None  # type: ignore[return-value]


@cache
def fast_policy(game_id: str) -> Policy | None:
    """The casual policy whose card play ``fast_play_out`` reproduces."""
    module = optional_module(f"bot.ai.{game_id}")
    found = getattr(module, "choose", None)
    return found if callable(found) else None  # type: ignore[return-value]


def search(
    rules: Rules,
    view: SeatView,
    candidates: Sequence[Action],
    *,
    seed: int,
    budget: int,
    policy: Policy,
    sampler: Sampler,
    hard_cap: float | None,
    world_units: int = WORLD_UNITS,
    anchor: bool = False,
    margin: float = 0.0,
    weigh: Weigh | None = None,
    edge: float = 0.0,
) -> list[Tally]:
    """Tallies of ``candidates`` (best first) after spending about ``budget`` units.

    ``hard_cap`` is the CPU seconds after which the search stops early (logged), ``None`` for
    none: the budget alone decides.

    With ``anchor`` the first candidate (the casual action) is played in every world and
    stays first unless the best other one beats it, over the worlds both were played in, by
    more than ``margin`` standard errors of the paired difference: the search departs from
    the casual play only on evidence, so its noise never makes it worse than the casual play.

    ``weigh`` gives each world its likelihood given the other players' public choices
    (``inference``): means and comparisons are weighted by it (1 for every world without it).

    ``edge`` is what the searching seat's own card play is worth beyond the casual card play
    its rollouts use, per deal played out: added to every rollout that plays the deal (not to
    one thrown in), so a decision between throwing a deal in and playing it counts the seat's
    real play, not the casual one's.
    """
    tallies = [Tally(a) for a in candidates]
    seat = view.seat
    step = Stepper(rules)
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    capped = False

    def out_of_time() -> bool:
        nonlocal capped
        if hard_cap is None:
            return False
        cpu = time.process_time() - cpu_start
        wall = time.perf_counter() - wall_start
        if not capped and (cpu > hard_cap or wall > 3 * hard_cap):
            capped = True
            log.warning(
                "expert search in %s stopped by its time cap after %d of %d work units"
                " (%.3f s CPU, %.3f s wall; cap %.3f s CPU): this decision depends on the load",
                rules.game_id,
                used,
                budget,
                cpu,
                wall,
                hard_cap,
            )
        return capped

    active = list(tallies)
    rounds = max(1, (len(active) - 1).bit_length())  # halvings down to one or two
    used = 0
    world_no = 0
    failures = 0
    weights: dict[int, float] = {}
    for r in range(rounds):
        round_end = budget * (r + 1) // rounds
        first = True
        while first or used < round_end:
            first = False
            world_seed = seed * 1_000_003 + world_no * 7_919
            world_no += 1
            used += world_units
            try:
                world = sampler(view, random.Random(world_seed))
            except (ValueError, IllegalAction):  # no world found this time: draw another
                failures += 1
                if failures >= MAX_FAILURES and world_no == failures:
                    break  # no world at all: the caller falls back to the casual action
                continue
            w = weigh(world) if weigh is not None else 1.0
            weights[world_no] = w
            if w <= 0.0:
                continue
            for tally in active:
                try:
                    state = rules.apply(world, tally.action)[0]
                except IllegalAction:  # a world the sampler got wrong: skip it, never crash
                    continue
                history = [*view.public.history, public_form(tally.action)]
                value, units = rollout(
                    rules, step, state, seat, policy, random.Random(world_seed + 1), history, edge
                )
                tally.total += w * value
                tally.weight += w
                tally.samples += 1
                tally.values[world_no] = value
                used += units + 1
            if out_of_time():
                break
        if out_of_time():
            break
        if r < rounds - 1 and len(active) > 2:
            active.sort(key=lambda t: -t.mean)
            keep = active[: (len(active) + 1) // 2]
            if anchor and tallies[0] not in keep:
                keep.append(tallies[0])
            active = keep
    order = {id(t): i for i, t in enumerate(active)}
    # survivors first (they share every world), by mean; then the dropped ones by mean
    ranked = sorted(tallies, key=lambda t: (id(t) not in order, -t.mean if t.samples else 0.0))
    if (
        anchor
        and ranked[0] is not tallies[0]
        and not _beats(ranked[0], tallies[0], margin, weights)
    ):
        ranked.remove(tallies[0])
        ranked.insert(0, tallies[0])
    return ranked


def _beats(best: Tally, base: Tally, margin: float, weights: dict[int, float]) -> bool:
    """Whether ``best`` is ahead of ``base`` by more than ``margin`` standard errors of the
    paired difference over the worlds both were played in, each world weighed by its
    likelihood (all 1 without inference: the plain paired test)."""
    pairs = [
        (weights.get(w, 1.0), v - base.values[w])
        for w, v in best.values.items()
        if w in base.values and weights.get(w, 1.0) > 0
    ]
    n = len(pairs)
    if n < 2:
        return n == 1 and pairs[0][1] > 0 and margin <= 0
    total = sum(w for w, _ in pairs)
    mean = sum(w * d for w, d in pairs) / total
    # the weighted mean's variance; with equal weights the sample variance over n
    var = sum((w * (d - mean)) ** 2 for w, d in pairs) / (total * total) * n / (n - 1)
    return mean > margin * math.sqrt(var)
