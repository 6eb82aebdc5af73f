"""League nights at scale (issue 34): the scoring pass and the standings.

1. **Scoring**: a session where 2,000 tables played a 12-deal set (24,000 deal results, the
   entrants spread over 300 servers, seats rotating): ``league.score`` (every entry's
   matchpoints against every table at the same seat of each deal, written to
   ``league_scores``) followed by the session's standings, as ``/league standings`` asks for
   them after a new result. Target: ≤ 200 ms.
2. **Standings**: 10,000 players in this week's session (120,000 deal results, scored) and
   eleven earlier sessions of the season (10,000 scored entries each): ``league_board`` as
   ``/league standings`` calls it (players; one server's players; the servers; the season).
   Target: median ≤ 50 ms.

    python -m bench.league_bench [--url postgresql://user@host:port/postgres] [--queries 50]

Without ``--url`` only SQLite runs (for information: the targets are PostgreSQL's).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bot.db import league
from bot.db.backends import open_database
from bot.db.database import Database
from bot.services.league import SEASON_WEEKS, LeagueTables, week_of
from bot.services.tables import TableService

GAME = "french_tarot"
PLAYERS = 4
DEALS = 12
NOW = 1_764_352_800.0 + 3600  # 2025-11-28 19:00 UTC: in that week's window
FIRST_USER = 10**17
CHUNK = 5_000


async def _insert(db: Database, sql: str, rows: Sequence[tuple[object, ...]]) -> None:
    for start in range(0, len(rows), CHUNK):
        async with db.transaction() as conn:
            await conn.executemany(sql, rows[start : start + CHUNK])


async def _session(db: Database, week: str, season: int) -> league.Session:
    return await league.session(db, week, season, NOW - 3600, NOW + 5 * 3600, DEALS)


async def load_session(
    db: Database, session: league.Session, tables: int, first_table: int, servers: int, seed: int
) -> None:
    """``tables`` entries of ``session`` with their tables and every deal's result."""
    rng = random.Random(seed)
    table_rows = [
        (first_table + i, 1 + rng.randrange(servers), 10**9 + first_table + i, GAME, "finished")
        + (FIRST_USER + i, PLAYERS, "{}", 0, 1, NOW, NOW, session.id, DEALS)
        for i in range(tables)
    ]
    await _insert(
        db,
        "INSERT INTO tables (id, guild_id, channel_id, game_id, status, owner_id, players, "
        "options_json, seed, rules_version, created_at, updated_at, league_session, "
        "league_deals) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        table_rows,
    )
    await _insert(
        db,
        "INSERT INTO league_entries (session_id, game_id, user_id, guild_id, table_id, seat, "
        "name, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (session.id, GAME, t[5], t[1], t[0], i % PLAYERS, f"p{i}", NOW)
            for i, t in enumerate(table_rows)
        ],
    )
    # Scores in French Tarot's steps of 10 around a contract's usual values: many ties.
    await _insert(
        db,
        "INSERT INTO league_results (table_id, deal_no, session_id, game_id, seat, score, "
        "resigned) VALUES (?, ?, ?, ?, ?, ?, 0)",
        [
            (t[0], d, session.id, GAME, i % PLAYERS, 10 * round(rng.gauss(0, 8)))
            for i, t in enumerate(table_rows)
            for d in range(1, DEALS + 1)
        ],
    )


async def analyze(db: Database) -> None:
    if db.dialect.name == "postgres":
        async with db.transaction() as conn:
            for table in (
                "tables",
                "league_entries",
                "league_results",
                "league_scores",
                "league_season",
            ):
                await conn.execute(f"ANALYZE {table}")


def _ms(samples: list[float]) -> tuple[float, float]:
    samples = sorted(samples)
    return 1000 * statistics.median(samples), 1000 * samples[int(0.95 * (len(samples) - 1))]


async def scoring(target: str, queries: int) -> dict[str, float]:
    db = await open_database(target)
    try:
        await db.migrate()
        week, _monday = week_of(NOW)
        session = await _session(db, week, 0)
        await load_session(db, session, 2_000, 1, 300, seed=1)
        await analyze(db)
        service = TableService(db, clock=lambda: NOW)
        times: list[float] = []
        for i in range(queries):
            async with db.transaction() as conn:  # a new result arrived
                await conn.execute(
                    "UPDATE league_sessions SET changed_at = ? WHERE id = ?", (NOW + i, session.id)
                )
            t = time.perf_counter()
            count = await league.score(db, session.id, NOW + i + 0.5)
            board = await service.league_board(GAME, FIRST_USER + i)
            times.append(time.perf_counter() - t)
            assert count == 2_000 and board.standings.count == 2_000
        median, p95 = _ms(times)
        return {"median_ms": median, "p95_ms": p95}
    finally:
        await db.close()


async def standings(target: str, queries: int) -> dict[str, float]:
    db = await open_database(target)
    try:
        await db.migrate()
        week, _monday = week_of(NOW)
        season = 7  # any number: the sessions below are all of it
        # Eleven earlier sessions of the season: their scored entries only.
        for k in range(1, SEASON_WEEKS):
            earlier = await _session(db, f"{week}-{k}", season)
            rng = random.Random(k)
            await _insert(
                db,
                "INSERT INTO league_scores (session_id, game_id, table_id, seat, user_id, "
                "guild_id, name, mp, top, pct, deals, resigned) "
                "VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, 0)",
                [
                    (earlier.id, GAME, -(k * 100_000 + i), FIRST_USER + i, 1 + i % 500)
                    + (f"p{i}", mp, 12 * 4_998, 100.0 * mp / (12 * 4_998), 12)
                    for i in range(10_000)
                    for mp in [rng.randrange(12 * 4_998)]
                ],
            )
            async with db.transaction() as conn:
                await conn.execute(
                    "UPDATE league_sessions SET scored_at = 1, changed_at = 0 WHERE id = ?",
                    (earlier.id,),
                )
        # The season's sums, as the scoring passes of those sessions left them.
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO league_season (season, game_id, user_id, guild_id, name, mp, top, "
                "pct, deals, resigned) SELECT ?, game_id, user_id, MAX(guild_id), MAX(name), "
                "SUM(mp), SUM(top), 100.0 * SUM(mp) / SUM(top), SUM(deals), 0 "
                "FROM league_scores GROUP BY game_id, user_id",
                (season,),
            )
        session = await _session(db, week, season)
        await load_session(db, session, 10_000, 1, 500, seed=2)
        await league.score(db, session.id, NOW)
        await analyze(db)
        service = TableService(db, clock=lambda: NOW)
        # The service's week is NOW's; its session row is the one just scored.
        rng = random.Random(3)
        found: dict[str, list[float]] = {"players": [], "server": [], "servers": [], "season": []}
        for _ in range(queries):
            user = FIRST_USER + rng.randrange(10_000)
            guild = 1 + rng.randrange(500)
            for kind in found:
                t = time.perf_counter()
                board = await service.league_board(
                    GAME,
                    guild if kind == "servers" else user,
                    guild_id=guild if kind == "server" else None,
                    season=kind == "season",
                    servers=kind == "servers",
                )
                found[kind].append(time.perf_counter() - t)
                assert board.standings.top
        out: dict[str, float] = {}
        for kind, samples in found.items():
            out[f"{kind}_median_ms"], out[f"{kind}_p95_ms"] = _ms(samples)
        return out
    finally:
        await db.close()


async def fresh_postgres(url: str, name: str) -> str:
    import asyncpg

    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def report(label: str, s: dict[str, float], b: dict[str, float]) -> None:
    print(
        f"{label}: scoring + standings, 2,000 tables x {DEALS} deals: median "
        f"{s['median_ms']:.1f} ms, p95 {s['p95_ms']:.1f} ms"
    )
    for kind in ("players", "server", "servers", "season"):
        print(
            f"{label}: standings ({kind}) at 10,000 players: median "
            f"{b[f'{kind}_median_ms']:.1f} ms, p95 {b[f'{kind}_p95_ms']:.1f} ms"
        )


def met(s: dict[str, float], b: dict[str, float]) -> bool:
    worst = max(b[f"{k}_median_ms"] for k in ("players", "server", "servers", "season"))
    return s["median_ms"] <= 200 and worst <= 50


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="League scoring and standings at scale.")
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--url", default=None, help="a PostgreSQL server (the targets' own)")
    args = parser.parse_args(argv)
    LeagueTables.league_deals = DEALS
    with tempfile.TemporaryDirectory() as tmp:
        s = asyncio.run(scoring(str(Path(tmp) / "a.sqlite3"), args.queries))
        b = asyncio.run(standings(str(Path(tmp) / "b.sqlite3"), args.queries))
    report("SQLite", s, b)
    ok = True
    if args.url:
        s = asyncio.run(scoring(asyncio.run(fresh_postgres(args.url, "league_a")), args.queries))
        b = asyncio.run(standings(asyncio.run(fresh_postgres(args.url, "league_b")), args.queries))
        report("PostgreSQL", s, b)
        ok = met(s, b)
        print(
            "targets (PostgreSQL: scoring ≤ 200 ms, standings ≤ 50 ms):", "met" if ok else "MISSED"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
