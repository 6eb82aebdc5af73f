"""The daily deal's board at scale: 100,000 finished attempts at one day's deal of one game.

Times ``TableService.daily_boards`` as ``/daily action:Board`` calls it for a finished player:
the global top ten and count, the server's top ten and count, the player's attempt, and their
standing (rank and percentile) globally and on their server. The attempts are spread over
2,000 servers (busier ones weighted), with the other games and the previous days around them
(another 100,000 rows by default) so the indexes hold more than the one board.

    python -m bench.daily_bench [--attempts 100000] [--queries 300]
        [--url postgresql://user@host:port/postgres]   # PostgreSQL too (a fresh database)

Target: a median ≤ 50 ms a board.
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
from urllib.parse import urlsplit, urlunsplit

from bot.db.backends import open_database
from bot.db.database import Database
from bot.services.tables import TableService

DAY = "2026-11-26"
GAME = "french_tarot"
OTHERS = ("la_morte", "early_french_tarot", "losers_game", "queen_of_tarot")
FIRST_USER = 10**17
CHUNK = 10_000


def rows(attempts: int, noise: int, servers: int, seed: int = 20) -> list[tuple[object, ...]]:
    """``daily_attempts`` rows: ``attempts`` at the benched board, ``noise`` elsewhere."""
    rng = random.Random(seed)
    weights = [1 / (1 + i) for i in range(servers)]
    out: list[tuple[object, ...]] = []
    for i in range(attempts + noise):
        user = FIRST_USER + i % attempts
        if i < attempts:
            day, game = DAY, GAME
        else:
            day = f"2026-11-{rng.randint(1, 25):02d}"
            game = rng.choice((GAME, *OTHERS))
            user = FIRST_USER + rng.randrange(attempts)
        guild = 1 + rng.choices(range(servers), weights)[0]
        score = int(rng.gauss(0, 60))
        out.append((day, game, user, guild, rng.randrange(4), f"p{i}", score, 1.0 + i))
    # one attempt per (day, game, user): drop the noise's repeats
    seen: set[tuple[object, ...]] = set()
    kept = []
    for r in out:
        key = r[:3]
        if key not in seen:
            seen.add(key)
            kept.append(r)
    return kept


async def load(db: Database, data: list[tuple[object, ...]]) -> None:
    for start in range(0, len(data), CHUNK):
        async with db.transaction() as conn:
            await conn.executemany(
                "INSERT INTO daily_attempts (day, game_id, user_id, guild_id, seat, name, "
                "status, score, started_at, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, 'finished', ?, 0, ?)",
                data[start : start + CHUNK],
            )
    if db.dialect.name == "postgres":
        async with db.transaction() as conn:
            await conn.execute("ANALYZE daily_attempts")


async def measure(db: Database, attempts: int, queries: int) -> dict[str, float]:
    service = TableService(db, clock=lambda: 1_764_158_400.0)  # 2026-11-26 12:00 UTC
    rng = random.Random(5)
    boards: list[float] = []
    records: list[float] = []
    for _ in range(queries):
        user = FIRST_USER + rng.randrange(attempts)
        mine = await service.daily_attempt(user, GAME, DAY)
        assert mine is not None
        t = time.perf_counter()
        found = await service.daily_boards(GAME, user, mine.guild_id, DAY)
        boards.append(time.perf_counter() - t)
        assert found.world.players == attempts and found.world_standing is not None
        t = time.perf_counter()
        await service.daily_record(user)
        records.append(time.perf_counter() - t)
    boards.sort()
    records.sort()
    return {
        "board_median_ms": 1000 * statistics.median(boards),
        "board_p95_ms": 1000 * boards[int(0.95 * len(boards))],
        "record_median_ms": 1000 * statistics.median(records),
        "record_p95_ms": 1000 * records[int(0.95 * len(records))],
    }


async def run(target: str, attempts: int, noise: int, queries: int) -> dict[str, float]:
    db = await open_database(target)
    try:
        await db.migrate()
        data = rows(attempts, noise, 2_000)
        t = time.perf_counter()
        await load(db, data)
        loaded = time.perf_counter() - t
        result = await measure(db, attempts, queries)
        result["rows"] = float(len(data))
        result["load_s"] = loaded
        return result
    finally:
        await db.close()


async def fresh_postgres(url: str, name: str = "trionfi_daily_bench") -> str:
    import asyncpg

    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def report(label: str, r: dict[str, float]) -> None:
    print(
        f"{label}: {r['rows']:,.0f} attempt rows (loaded in {r['load_s']:.1f} s) · board median "
        f"{r['board_median_ms']:.2f} ms, p95 {r['board_p95_ms']:.2f} ms · /stats daily record "
        f"median {r['record_median_ms']:.2f} ms, p95 {r['record_p95_ms']:.2f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The daily deal's board at scale.")
    parser.add_argument("--attempts", type=int, default=100_000)
    parser.add_argument("--noise", type=int, default=None, help="other rows (default: attempts)")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--url", default=None, help="a PostgreSQL server to bench as well")
    args = parser.parse_args(argv)
    noise = args.attempts if args.noise is None else args.noise
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "daily_bench.sqlite3")
        r = asyncio.run(run(path, args.attempts, noise, args.queries))
    report("SQLite", r)
    ok = r["board_median_ms"] <= 50
    if args.url:
        target = asyncio.run(fresh_postgres(args.url))
        r = asyncio.run(run(target, args.attempts, noise, args.queries))
        report("PostgreSQL", r)
        ok = ok and r["board_median_ms"] <= 50
    print("target ≤ 50 ms median:", "met" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
