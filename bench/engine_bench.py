"""Engine throughput: random deals per second of one game (single process).

Each deal shuffles a fresh deck (seeded Fisher–Yates), deals it, then repeatedly asks for
the legal actions and applies a uniformly random one (multi-card templates completed by
``Rules.random_choice``) until the deal is over.

    python bench/engine_bench.py [--game la_morte] [--seconds 3] [--players 4] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.deck import shuffle
from bot.engine.registry import get_rules, implemented


def bench(game: str, seconds: float, players: int, seed: int) -> tuple[int, int, float]:
    """(deals, steps, elapsed) of random deals played for about ``seconds``."""
    rules = get_rules(game)
    pack = rules.pack(players)
    options = rules.normalize_options(None)
    rng = random.Random(seed)
    deals = steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        deck = shuffle(pack, rng.randrange(2**63))
        state = rules.new_deal(players, options, deck, deals % players)
        while (seat := rules.to_act(state)) is not None:
            legal = rules.legal_actions(state)
            action = legal[int(rng.random() * len(legal))]
            if action.type in rules.multi_card_types:
                action = rules.random_choice(rules.observe(state, seat), action, rng)
            state, _events = rules.apply(state, action)
            steps += 1
        assert rules.result(state) is not None
        deals += 1
        if deals % 64 == 0 and time.perf_counter() >= deadline:
            break
    return deals, steps, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="la_morte", choices=implemented())
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    deals, steps, elapsed = bench(args.game, args.seconds, args.players, args.seed)
    print(
        f"{args.game} {args.players}p: {deals / elapsed:,.0f} deals/s "
        f"({deals} deals in {elapsed:.2f} s, {steps / deals:.1f} steps/deal, "
        f"{steps / elapsed:,.0f} steps/s)"
    )


if __name__ == "__main__":
    main()
