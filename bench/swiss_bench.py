"""Swiss pairing of a tournament (issue 34) at scale: the slowest of five rounds' pairings.

Each round pairs every player at tables of 4 (``bot.services.swiss.pair``) given who already
met; between rounds the order is reshuffled, as standings would move it. Prints the slowest
pairing and the repeated meetings left over five rounds.

    python -m bench.swiss_bench [--players 36 100 400] [--seats 4] [--rounds 5]

Target: under a second at 400 players (it runs off the event loop, in a thread).
"""

from __future__ import annotations

import argparse
import random
import time
from itertools import combinations

from bot.services import swiss


def run(players: int, seats: int, rounds: int) -> tuple[float, int]:
    """(slowest pairing in seconds, pairs that met more than once)."""
    people = list(range(1, players + 1))
    met: dict[frozenset[int], int] = {}
    rng = random.Random(1)
    worst = 0.0
    for round_no in range(1, rounds + 1):
        start = time.perf_counter()
        tables = swiss.pair(people, seats, met, 7, round_no)
        worst = max(worst, time.perf_counter() - start)
        for table in tables:
            for a, b in combinations([u for u in table if u is not None], 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
        rng.shuffle(people)
    return worst, sum(n - 1 for n in met.values() if n > 1)


def main() -> None:
    parser = argparse.ArgumentParser(description="Swiss pairing of a tournament at scale.")
    parser.add_argument("--players", type=int, nargs="+", default=[36, 100, 400])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for n in args.players:
        worst, repeats = run(n, args.seats, args.rounds)
        print(
            f"{n} players, tables of {args.seats}, {args.rounds} rounds: "
            f"slowest pairing {worst * 1000:.0f} ms, repeated meetings {repeats}"
        )


if __name__ == "__main__":
    main()
