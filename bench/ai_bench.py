"""Computer-player latency: time per decision of each game's policy (single process).

Plays seeded deals with every seat run by the game's policy and times each ``choose_action``
call. Reports the median, 99th percentile and worst decision per game; a policy's decision is
on the bot's hot path (the service runs computer seats before answering an interaction).

    python bench/ai_bench.py [--game french_tarot] [--deals 30] [--players 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import choose_action
from bot.engine.deck import shuffle
from bot.engine.registry import get_rules, implemented


def bench(game: str, deals: int, players: int, seed: int) -> list[float]:
    """Seconds taken by every decision over ``deals`` self-play deals."""
    rules = get_rules(game)
    options = rules.normalize_options(None)
    rng = random.Random(seed)
    times: list[float] = []
    for d in range(deals):
        deck = shuffle(rules.pack(players), rng.randrange(2**63))
        state = rules.new_deal(players, options, deck, d % players)
        while (seat := rules.to_act(state)) is not None:
            view = rules.observe(state, seat)
            start = time.perf_counter()
            action = choose_action(rules, view, rng)
            times.append(time.perf_counter() - start)
            state, _ = rules.apply(state, action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description="Computer-player latency per decision.")
    parser.add_argument("--game", choices=sorted(implemented()), default=None)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game in [args.game] if args.game else sorted(implemented()):
        rules = get_rules(game)
        players = args.players or rules.max_players
        times = sorted(bench(game, args.deals, players, args.seed))
        p99 = times[int(0.99 * (len(times) - 1))]
        print(
            f"{game} {players}p: {len(times):,} decisions, median "
            f"{statistics.median(times) * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms, "
            f"worst {times[-1] * 1e3:.3f} ms"
        )


if __name__ == "__main__":
    main()
