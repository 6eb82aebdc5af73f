"""Card-play probe: how well searchers choose cards, against a large search's values.

A cheap screen before hours of duplicate play (issue 33). Card decisions are taken from casual
self-play of seeded deals (every ``--every``-th decision with at least two candidate cards);
at each, a *reference* plays every candidate card (``card_candidates``, as the expert and the
plain search see them) out in ``--ref`` worlds drawn by ``Rules.sample_world``, casual
rollouts, the same worlds and rollout streams for every card. Each method then decides the
same position and is credited with the reference's value of its card minus that of the casual
card. The reference's worlds are drawn apart from the methods' own, so its noise does not
favour any method; what it measures is the searchers' own objective (casual rollouts in
uniform worlds), not strength at the table — ``bench/duplicate_match.py`` measures that.

    python bench/card_probe.py [--game queen_of_tarot] [--players 3] [--views 200] \
        [--every 3] [--ref 200] [--first 1000] [--methods expert,plain,expert:budget=6500]

Methods: ``plain`` (``bench/plain_search.py``), ``expert`` with optional settings after colons:
``budget=N`` (work units, ``bot.ai.expert.BUDGET``), ``world=N`` (units a world costs,
``WORLD_UNITS``), ``margin=X`` (the anchor's margin, ``bot.ai.expert.MARGIN``). The report: per
method, the mean gain per decision over the casual card with its 95% interval, how often it
left the casual card, its CPU time per decision; then every method minus the first, paired.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.ai.expert as expert
from bench.plain_search import plain_policy
from bot.ai.expert.candidates import card_candidates
from bot.ai.expert.rollout import rollout_policy
from bot.ai.expert.search import Stepper, public_form, rollout
from bot.ai.policies import policy_for
from bot.engine.actions import Action
from bot.engine.deck import deal_seed, shuffle
from bot.engine.registry import get_rules
from bot.engine.rules import Rules
from bot.engine.views import SeatView

Method = Callable[[SeatView, random.Random], Action]


def positions(
    rules: Rules, players: int, first: int, every: int
) -> Iterator[tuple[SeatView, Action]]:
    """Card decisions of casual self-play with a real choice, and the casual card."""
    casual = policy_for(rules.game_id)
    index, k = first, 0
    while True:
        deal = deal_seed(1, index)
        deck = shuffle(rules.pack(players), deal)
        state = rules.new_deal(players, rules.normalize_options(None), deck, index % players)
        rngs = [random.Random(deal * 31 + s) for s in range(players)]
        while (seat := rules.to_act(state)) is not None:
            view = rules.observe(state, seat)
            action = casual(view, rngs[seat])
            plays = [a for a in view.legal if a.type == "play"]
            choice = action.type == "play" and len(plays) > 1
            if choice and len(card_candidates(rules.game_id, view, plays, action)) > 1:
                k += 1
                if k % every == 0:
                    yield view, action
            state = rules.apply(state, action)[0]
        index += 1


def reference(
    rules: Rules, view: SeatView, cards: list[Action], worlds: int, seed: int
) -> dict[Action, float]:
    """Every candidate card's mean rollout value over the same ``worlds`` worlds."""
    step, roll = Stepper(rules), rollout_policy(rules.game_id)
    total = dict.fromkeys(cards, 0.0)
    for w in range(worlds):
        world_seed = seed + w * 7_919
        world = rules.sample_world(view, random.Random(world_seed))
        for card in cards:
            state = rules.apply(world, card)[0]
            history = [*view.public.history, public_form(card)]
            value, _ = rollout(
                rules, step, state, view.seat, roll, random.Random(world_seed + 1), history
            )
            total[card] += value
    return {card: v / worlds for card, v in total.items()}


def method(rules: Rules, name: str) -> Method:
    if name == "plain":
        return plain_policy(rules)
    kind, *settings = name.split(":")
    if kind != "expert":
        raise SystemExit(f"unknown method {name!r}")
    options = dict(s.split("=") for s in settings)
    game = rules.game_id

    budgets, worlds = expert.BUDGET, expert.WORLD_UNITS

    def choose(view: SeatView, rng: random.Random) -> Action:
        saved = (budgets[game], dict(worlds[game]), expert.MARGIN)
        budgets[game] = int(options.get("budget", saved[0]))
        players = view.public.players
        worlds[game][players] = int(options.get("world", saved[1][players]))
        expert.MARGIN = float(options.get("margin", saved[2]))
        try:
            return expert.evaluate(rules, view, rng, strict=True).best
        finally:
            budgets[game], worlds[game], expert.MARGIN = saved

    return choose


def main() -> None:
    parser = argparse.ArgumentParser(description="Card decisions against a large search.")
    parser.add_argument("--game", default="queen_of_tarot")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--views", type=int, default=200)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--ref", type=int, default=200)
    parser.add_argument("--first", type=int, default=1000)
    parser.add_argument("--methods", default="expert,plain")
    args = parser.parse_args()
    rules = get_rules(args.game)
    names = args.methods.split(",")
    methods = {name: method(rules, name) for name in names}
    gains: dict[str, list[float]] = {name: [] for name in names}
    moved = dict.fromkeys(names, 0)
    times: dict[str, list[float]] = {name: [] for name in names}
    found = positions(rules, args.players, args.first, args.every)
    for i, (view, casual) in zip(range(args.views), found, strict=False):
        plays = [a for a in view.legal if a.type == "play"]
        cards = card_candidates(rules.game_id, view, plays, casual)
        values = reference(rules, view, cards, args.ref, 987_654_321 + i * 104_729)
        for name, choose in methods.items():
            start = time.process_time()
            card = choose(view, random.Random(i * 7_777 + 1))
            times[name].append(time.process_time() - start)
            # a card outside the candidates is interchangeable with one of them: same value
            gains[name].append(values.get(card, math.nan) - values[casual])
            moved[name] += card != casual
    first = names[0]
    for name in names:
        g = [x for x in gains[name] if x == x]
        t = sorted(times[name])
        print(
            f"{name}: {len(g)} decisions, {_mean_ci(g)} a decision over the casual card,"
            f" left it {moved[name] / len(t):.0%}; CPU p50 {t[len(t) // 2] * 1e3:.0f} ms,"
            f" p95 {t[int(0.95 * len(t))] * 1e3:.0f} ms"
        )
    for name in names[1:]:
        d = [a - b for a, b in zip(gains[name], gains[first], strict=True) if a == a and b == b]
        print(f"{name} − {first}, paired: {_mean_ci(d)}")


def _mean_ci(xs: list[float]) -> str:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return f"{mean:+.3f} ± {half:.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


if __name__ == "__main__":
    main()
