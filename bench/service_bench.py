"""Service throughput: time TableService.act for human moves, SQLite commit included.

A 4-human La Morte table on a temporary database file. The bench picks every seat's move
with the computer policy (outside the timed region) so games look like real ones and end,
then times each ``act`` call, game after game.

    python -m bench.service_bench [--actions N] [--players 4] [--computers 0]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.ai import choose_action
from bot.db.backends import open_database
from bot.engine.registry import get_rules
from bot.engine.views import SeatView
from bot.services.tables import TableService


def _payload(view: SeatView, rng: random.Random) -> dict[str, Any]:
    out = choose_action(get_rules("la_morte"), view, rng).to_json()
    out.pop("seat")
    return out


async def run(actions: int, players: int, computers: int, db_path: Path) -> list[float]:
    db = await open_database(db_path)
    await db.migrate()
    seeds = iter(range(1, 1_000_000))
    svc = TableService(db, seed_source=lambda: next(seeds))
    timings: list[float] = []
    rng = random.Random(1)
    channel = 0
    try:
        while len(timings) < actions:
            channel += 1
            humans = players - computers
            t = await svc.open_lobby(1, channel, 1000, "P0", "la_morte", players, {}, computers)
            for u in range(1, humans):
                await svc.join(t.id, 1000 + u, f"P{u}")
            out = await svc.start(t.id, 1000)
            while not out.finished and len(timings) < actions:
                seat = out.public.to_act if out.public else None
                assert seat is not None
                user = out.table.seats[seat].user_id
                assert user is not None
                payload = _payload(out.seat_views[seat], rng)
                t0 = time.perf_counter()
                out = await svc.act(t.id, user, payload)
                timings.append(time.perf_counter() - t0)
    finally:
        await db.close()
    return timings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--actions", type=int, default=5000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--computers", type=int, default=0)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        timings = asyncio.run(
            run(args.actions, args.players, args.computers, Path(tmp) / "bench.sqlite3")
        )
        wall = time.perf_counter() - start
    ms = sorted(t * 1000 for t in timings)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    print(
        f"{len(ms)} act calls ({args.players} players, {args.computers} computers), "
        f"SQLite file in WAL mode, commit included"
    )
    print(
        f"median {statistics.median(ms):.3f} ms · p95 {p95:.3f} ms · max {ms[-1]:.3f} ms · "
        f"{len(ms) / sum(timings):.0f} act/s (service time) · wall {wall:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
