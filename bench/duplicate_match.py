"""Duplicate match: how many points per deal one level gains over another, seats rotated.

Every deal is played ``players + 1`` times on the same seeded deck and dealer: once with the
*field* level in every seat (the reference), then once per seat with the *hero* level in that
seat and the field elsewhere. A deal's gain is the hero's score in its seat minus the field's
score in the same seat in the reference, averaged over the seats; the report is the mean gain
per deal with its 95% confidence interval (normal approximation over deals). Each seat's
random stream is its own and replayed identically, so the field plays the same way wherever
the hero's choices do not change the position.

    python bench/duplicate_match.py [--game G] [--players N] [--deals 100] \
        [--hero expert] [--field casual] [--effort 1.0] [--seed 1] [--jobs 1] [--no-strict] \
        [--gains FILE] [--first 0] [--resume] [--label NAME]

``--gains FILE`` appends each deal's gain as a JSON line as soon as it is known (a long run
stopped early keeps what it measured; ``--first K`` goes on from deal K; ``--resume`` goes on
from the first deal from K that the file lacks for this game, player count, hero and field, so
a run is extended ten deals at a time under ``timeout``; ``--summarize FILE`` reports from such
a file, each deal counted once; ``--compare FILE A B`` reports hero A minus hero B per deal,
paired on the deals both played against the same field — e.g. expert − plain from ``--hero
expert`` and ``--hero plain`` runs against ``--field casual``, as issue 33 measures it: the
casual reference cancels, so each deal's difference is the two heroes' scores in the same
seats on the same cards). ``--label NAME`` records the hero under NAME instead of its level
(in the file, ``--resume`` and the report): a changed expert run from a copy of a branch's
tree as ``--hero expert --label expert2`` is compared with the expert on file, never mixed
with it.

The expert searches in strict mode by default (``evaluate(..., strict=True)``: its work budget
alone decides, no time cap), so the result does not depend on how loaded the machine is;
``--no-strict`` keeps the in-game safety net instead.

Levels: ``casual``, ``expert``, ``plain`` (issue 33's plain determinized Monte-Carlo
baseline, ``bench/plain_search.py``), ``random``, or ``pkg:NAME`` — the policies of another copy
of ``bot/ai`` importable as ``NAME`` (before/after comparisons of the casual policies).
Without ``--game``, every game at every supported player count.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import random_policy
from bot.engine.actions import Action
from bot.engine.deck import deal_seed, shuffle
from bot.engine.registry import get_rules, implemented
from bot.engine.rules import Rules
from bot.engine.views import SeatView

Policy = Callable[[SeatView, random.Random], Action]


def policy(level: str, rules: Rules, effort: float, strict: bool = True) -> Policy:
    if level == "casual":
        from bot.ai import policy_for

        return policy_for(rules.game_id)
    if level == "expert":
        from bot.ai.expert import choose_expert

        def expert(view: SeatView, rng: random.Random) -> Action:
            return choose_expert(rules, view, rng, effort=effort, strict=strict)

        return expert
    if level == "random":
        return random_policy
    if level == "plain":
        from bench.plain_search import plain_policy

        return plain_policy(rules)
    if level.startswith("pkg:"):
        module = importlib.import_module(f"{level[4:]}.{rules.game_id}")
        return module.choose  # type: ignore[no-any-return]
    raise SystemExit(f"unknown level {level!r}")


def public_form(action: Action) -> Action:
    if action.type == "discard":
        return action._replace(cards=None, amount=len(action.cards or ()))
    return action


def play(
    rules: Rules,
    players: int,
    deck: tuple[str, ...],
    dealer: int,
    seats: list[Policy],
    seed: int,
    timed: int | None,
    times: list[float],
) -> tuple[int, ...]:
    """One deal with ``seats[i]`` deciding for seat i; returns the deltas."""
    state = rules.new_deal(players, rules.normalize_options(None), deck, dealer)
    rngs = [random.Random(seed * 31 + s) for s in range(players)]
    history: list[Action] = []
    while (seat := rules.to_act(state)) is not None:
        view = rules.observe(state, seat)
        if history and not view.public.history:  # an engine without public history yet
            view = replace(view, public=replace(view.public, history=tuple(history)))
        start = time.process_time()
        action = seats[seat](view, rngs[seat])
        first = view.legal[0]
        if seat == timed and (len(view.legal) > 1 or first.type in rules.multi_card_types):
            times.append(time.process_time() - start)
        history.append(public_form(action))
        state, _ = rules.apply(state, action)
    result = rules.result(state)
    assert result is not None
    return result.deltas


def one_deal(
    args: tuple[str, int, int, int, str, str, float, bool],
) -> tuple[float, list[float]]:
    """The hero's mean gain over the seats on deal ``index``, and its decision times."""
    game, players, index, seed, hero_level, field_level, effort, strict = args
    rules = get_rules(game)
    hero = policy(hero_level, rules, effort, strict)
    field = policy(field_level, rules, effort, strict)
    deal = deal_seed(seed, index)
    deck = shuffle(rules.pack(players), deal)
    dealer = index % players
    times: list[float] = []
    reference = play(rules, players, deck, dealer, [field] * players, deal, None, times)
    gain = 0.0
    for h in range(players):
        seats = [hero if s == h else field for s in range(players)]
        deltas = play(rules, players, deck, dealer, seats, deal, h, times)
        gain += deltas[h] - reference[h]
    return gain / players, times


def match(
    game: str,
    players: int,
    deals: int,
    seed: int,
    hero: str,
    field: str,
    effort: float,
    jobs: int,
    strict: bool = True,
    gains_file: str | None = None,
    first: int = 0,
    label: str | None = None,
) -> None:
    start = time.perf_counter()
    indexes = range(first, first + deals)
    work = [(game, players, i, seed, hero, field, effort, strict) for i in indexes]
    results: list[tuple[float, list[float]]] = []
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        done = pool.map(one_deal, work, chunksize=1) if pool else map(one_deal, work)
        for index, (gain, ts) in zip(indexes, done, strict=True):
            results.append((gain, ts))
            if gains_file:
                with open(gains_file, "a") as out:
                    row = {"game": game, "players": players, "deal": index, "gain": gain}
                    out.write(json.dumps({**row, "hero": label or hero, "field": field}) + "\n")
    report(game, players, label or hero, field, results, time.perf_counter() - start)


def report(
    game: str,
    players: int,
    hero: str,
    field: str,
    results: list[tuple[float, list[float]]],
    seconds: float,
) -> None:
    deals = len(results)
    gains = [g for g, _ in results]
    times = sorted(t for _, ts in results for t in ts)
    mean = statistics.fmean(gains)
    half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
    verdict = "WINS" if mean - half > 0 else ("loses" if mean + half < 0 else "not significant")
    timing = ""
    if times:
        p50 = times[len(times) // 2] * 1e3
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))] * 1e3
        timing = f"; hero decisions {len(times)}: CPU p50 {p50:.0f} ms, p95 {p95:.0f} ms"
    print(
        f"{game} {players}p {hero} vs {field}, {deals} deals: {mean:+.2f} ± {half:.2f} points"
        f" per deal (95% CI [{mean - half:+.2f}, {mean + half:+.2f}]) {verdict}"
        f" [{seconds:.0f} s{timing}]",
        flush=True,
    )


def first_missing(path: str, key: tuple[str, int, str, str], start: int = 0) -> int:
    """The first deal index from ``start`` that a ``--gains`` file holds no gain for, for the
    configuration ``key`` (game, players, hero, field)."""
    done: set[int] = set()
    if Path(path).exists():
        with open(path) as rows:
            for line in rows:
                row = json.loads(line)
                if (row["game"], row["players"], row["hero"], row["field"]) == key:
                    done.add(row["deal"])
    first = start
    while first in done:
        first += 1
    return first


def summarize(path: str) -> None:
    """Report every game, player count and pairing found in a ``--gains`` file."""
    runs: dict[tuple[str, int, str, str], dict[int, tuple[float, list[float]]]] = {}
    with open(path) as rows:
        for line in rows:
            row = json.loads(line)
            key = (row["game"], row["players"], row["hero"], row["field"])
            runs.setdefault(key, {})[row["deal"]] = (row["gain"], [])
    for (game, players, hero, field), results in sorted(runs.items()):
        report(game, players, hero, field, list(results.values()), 0.0)


def compare(path: str, first: str, second: str) -> None:
    """Report hero ``first`` minus hero ``second``, paired per deal, for every game, player
    count and field where a ``--gains`` file holds both."""
    gains: dict[tuple[str, int, str, str], dict[int, float]] = {}
    with open(path) as rows:
        for line in rows:
            row = json.loads(line)
            key = (row["game"], row["players"], row["field"], row["hero"])
            gains.setdefault(key, {})[row["deal"]] = row["gain"]
    for game, players, field, hero in sorted(gains):
        if hero != first or (game, players, field, second) not in gains:
            continue
        a, b = gains[(game, players, field, first)], gains[(game, players, field, second)]
        paired = [(a[d] - b[d], 0.0) for d in sorted(a.keys() & b.keys())]
        if paired:
            report(game, players, f"{first} − {second}", field, [(g, []) for g, _ in paired], 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description="Duplicate match of two levels.")
    parser.add_argument("--game", choices=sorted(implemented()), default=None)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--hero", default="expert")
    parser.add_argument("--field", default="casual")
    parser.add_argument(
        "--label", default=None, help="the hero's name in the --gains file (default: --hero)"
    )
    parser.add_argument("--effort", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="index of the first deal played")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--gains", default=None, help="append each deal's gain to this file")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="start at the first deal from --first the --gains file lacks for this configuration",
    )
    parser.add_argument("--summarize", default=None, help="report from a --gains file")
    parser.add_argument(
        "--compare",
        nargs=3,
        metavar=("FILE", "HERO_A", "HERO_B"),
        help="hero A minus hero B per deal from a --gains file (same deals, same field)",
    )
    parser.add_argument(
        "--strict",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="expert without a time cap (default; --no-strict: the in-game safety net)",
    )
    args = parser.parse_args()
    if args.summarize:
        summarize(args.summarize)
        return
    if args.compare:
        compare(*args.compare)
        return
    for game in [args.game] if args.game else sorted(implemented()):
        rules = get_rules(game)
        counts = (
            [args.players]
            if args.players
            else list(range(rules.min_players, rules.max_players + 1))
        )
        for players in counts:
            first = args.first
            if args.resume and args.gains:
                key = (game, players, args.label or args.hero, args.field)
                first = first_missing(args.gains, key, args.first)
            match(
                game,
                players,
                args.deals,
                args.seed,
                args.hero,
                args.field,
                args.effort,
                args.jobs,
                args.strict,
                args.gains,
                first,
                args.label,
            )


if __name__ == "__main__":
    main()
