"""Service throughput on PostgreSQL with one and with two bot processes.

Every "player" is an asyncio task that plays 4-human La Morte tables through
``TableService.act`` (the computer policy picks the moves, outside the timed region), starting
a new table in its channel when one ends. Each process has its own asyncpg pool and services.
Three runs of ``--seconds`` each on a fresh database:

* 1 process with ``--tasks`` players;
* 2 processes with ``--tasks`` players each (twice the offered load: does it scale?);
* 2 processes whose players share the same tables (every move contested across processes:
  the cost of the per-table lock; only applied moves count).

    python -m bench.pg_service_bench --url postgresql://user@host:port/postgres
        [--seconds 20] [--tasks 8]

Prints applied actions per second, the median and p95 latency of an applied ``act``, and the
scaling from one process to two.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.ai import choose_action
from bot.db.backends import open_database
from bot.engine.registry import get_rules
from bot.engine.views import SeatView
from bot.services.errors import ServiceError
from bot.services.tables import TableService

DATABASE = "trionfi_service_bench"
PLAYERS = 4


def _payload(view: SeatView, rng: random.Random) -> dict[str, Any]:
    out = choose_action(get_rules("la_morte"), view, rng).to_json()
    out.pop("seat")
    return out


def _url(url: str, database: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{database}"))


async def _player(
    service: TableService, channel: int, stop: float, seed: int, latencies: list[float]
) -> int:
    """Play tables in ``channel`` until ``stop``; returns the moves applied."""
    rng = random.Random(seed)
    applied = 0
    users = [10_000 + channel * 10 + i for i in range(PLAYERS)]
    while time.monotonic() < stop:
        table = await service.table_in_channel(channel)
        if table is None:
            try:
                lobby = await service.open_lobby(1, channel, users[0], "P0", "la_morte", PLAYERS)
                for i, user in enumerate(users[1:], start=1):
                    await service.join(lobby.id, user, f"P{i}")
                await service.start(lobby.id, users[0])
            except ServiceError:
                pass  # the other process opened or started it first
            continue
        out = await service.snapshot(table.id)
        if out.table.status != "playing" or out.public is None or out.public.to_act is None:
            continue
        seat = out.public.to_act
        payload = _payload(out.seat_views[seat], rng)
        t0 = time.perf_counter()
        try:
            await service.act(table.id, users[seat], payload, expect_deal=out.deal_number)
        except ServiceError:
            continue  # contested: the other process moved first
        latencies.append(time.perf_counter() - t0)
        applied += 1
    return applied


async def worker(url: str, channels: list[int], seconds: float, seed: int) -> dict[str, Any]:
    db = await open_database(url)
    service = TableService(db, processes=ThreadPoolExecutor(1))
    latencies: list[float] = []
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    start = time.monotonic()
    try:
        counts = await asyncio.gather(
            *(_player(service, c, start + seconds, seed * 1000 + c, latencies) for c in channels)
        )
    finally:
        await db.close()
    return {"applied": sum(counts), "seconds": time.monotonic() - start, "latencies": latencies}


async def _run(url: str, layout: list[list[int]], seconds: float) -> dict[str, Any]:
    """One run: a process per entry of ``layout`` (its players' channels), started together."""
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.pg_service_bench",
            "--worker",
            url,
            str(seconds),
            str(n),
            *map(str, channels),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        for n, channels in enumerate(layout, start=1)
    ]
    for proc in procs:
        assert proc.stdout is not None
        assert (await proc.stdout.readline()).strip() == b"ready"
    outs = await asyncio.gather(*(p.communicate(b"go\n") for p in procs))
    results = [json.loads(out.decode().splitlines()[-1]) for out, _ in outs]
    latencies = sorted(ms * 1000 for r in results for ms in r["latencies"])
    applied = sum(r["applied"] for r in results)
    wall = max(r["seconds"] for r in results)
    return {
        "applied": applied,
        "per_second": applied / wall,
        "median": statistics.median(latencies),
        "p95": latencies[int(0.95 * (len(latencies) - 1))],
    }


async def bench(url: str, seconds: float, tasks: int) -> None:
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        await admin.execute(f"CREATE DATABASE {DATABASE}")
    finally:
        await admin.close()
    target = _url(url, DATABASE)
    db = await open_database(target)
    await db.migrate()
    await db.close()
    runs = {
        "1 process": [list(range(1, tasks + 1))],
        "2 processes": [list(range(1, tasks + 1)), list(range(101, 101 + tasks))],
        "2 processes, same tables": [list(range(201, 201 + tasks))] * 2,
    }
    print(f"{tasks} players per process, {seconds:g} s per run, 4-human La Morte tables")
    print(f"{'':26} {'act/s':>8} {'median ms':>10} {'p95 ms':>8}")
    single = 0.0
    for name, layout in runs.items():
        r = await _run(target, layout, seconds)
        single = single or r["per_second"]
        print(f"{name:26} {r['per_second']:8.0f} {r['median']:10.2f} {r['p95']:8.2f}")
        if name == "2 processes":
            print(f"{'':26} scaling ×{r['per_second'] / single:.2f} from one process to two")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--worker"]:
        url, seconds, seed, *channels = args[1:]
        result = asyncio.run(worker(url, [int(c) for c in channels], float(seconds), int(seed)))
        print(json.dumps(result), flush=True)
        return 0
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--url", required=True, help="a server where databases may be created")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--tasks", type=int, default=8)
    options = ap.parse_args(args)
    asyncio.run(bench(options.url, options.seconds, options.tasks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
