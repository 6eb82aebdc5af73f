"""Leaderboard and stats queries on PostgreSQL at scale: 10,000,000 result rows.

The PostgreSQL twin of ``bench/stats_bench.py`` (1,000,000 rows on SQLite), ten times bigger:
100,000 players on 10,000 servers by default, the same world (home servers, busier servers,
the same game mix, 3–5 seats with some computers, a year of games in time order, ten servers
off global boards). The rows are bulk-loaded with binary COPY into a database migrated by the
bot's own migrations (secondary indexes dropped during the load and rebuilt after, as a
restore would), with the 30-day boards' rolling totals recomputed from them, then the same
service calls are timed as in ``stats_bench``.

Ratings are not replayed game by game here (openskill over 2.5 million tables would take an
hour): every player's rating row gets a plausible random value. The queries read them the same
way, and ``stats_bench`` covers the real rating maths.

    python -m bench.pg_stats_bench --url postgresql://user@host:port/postgres
        [--rows 10000000] [--players 100000] [--servers 10000] [--queries 200]
        [--database trionfi_stats_bench] [--rebuild]

The database is kept and reused by later runs (``--rebuild`` makes it again).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import itertools
import json
import random
import statistics
import sys
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bench.stats_bench import CPU, DAY, FIRST_USER, GAMES, NOW, SEATS, measure
from bot.db.backends import open_database

CHUNK = 50_000  # tables per COPY
FACTS_KEY = "bench:facts"


def _url(url: str, database: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{database}"))


def world(rows: int, players: int, servers: int, seed: int = 7) -> Iterator[tuple[Any, ...]]:
    """``(table row, result rows)`` of every finished table, oldest first."""
    rng = random.Random(seed)
    home = [rng.randrange(servers) for _ in range(players)]
    members: list[list[int]] = [[] for _ in range(servers)]
    for p in range(players):
        extra = rng.choices((0, 1, 2), (0.5, 0.35, 0.15))[0]
        for s in {home[p], *(rng.randrange(servers) for _ in range(extra))}:
            members[s].append(p)
    server_cum = list(itertools.accumulate(max(1, len(m)) ** 1.3 for m in members))
    game_ids = list(GAMES)
    game_cum = list(itertools.accumulate(GAMES.values()))
    total = 0
    table_id = 0
    while total < rows:
        server = bisect.bisect(server_cum, rng.random() * server_cum[-1])
        game_id = game_ids[bisect.bisect(game_cum, rng.random() * game_cum[-1])]
        low, high = SEATS.get(game_id, (3, 5))
        n = max(2, min(rng.randint(low, high), rows - total))
        if rows - total - n == 1:
            n += 1
        computers = min(n - 1, rng.choices((0, 1, 2), (0.7, 0.2, 0.1))[0])
        pool = members[server]
        if not pool:
            continue
        humans = rng.sample(pool, min(len(pool), n - computers))
        seats: list[int | None] = [FIRST_USER + p for p in humans]
        seats += [None] * (n - len(seats))
        rng.shuffle(seats)
        table_id += 1
        when = NOW - 365 * DAY * (1 - total / rows)  # a year, in time order
        guild = server + 1
        scores = [rng.randint(-20, 80) for _ in seats]
        top = max(scores)
        place = [1 + sum(other > mine for other in scores) for mine in scores]
        deals = rng.randint(3, 14)
        owner = next(u for u in seats if u is not None)
        table = (table_id, guild, table_id, game_id, "finished", owner, n, "{}", 0, 1, 0)
        table += (None, None, None, when, when, when, None, None, None, 0, None, None, None, None)
        results = [
            (
                table_id,
                guild,
                game_id,
                seat,
                u,
                "Bot" if u is None else f"Player {u - FIRST_USER}",
                scores[seat],
                int(scores[seat] == top),
                when,
                CPU if u is None else u,
                place[seat],
                deals,
                rng.uniform(-5, 30),
                rng.uniform(-2, 2),
            )
            for seat, u in enumerate(seats)
        ]
        total += n
        yield table, results


async def build(url: str, rows: int, players: int, servers: int) -> dict[str, Any]:
    db = await open_database(url)
    await db.migrate()
    await db.close()
    conn = await asyncpg.connect(url)
    try:
        t0 = time.perf_counter()
        indexes = await conn.fetch(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN "
            "('tables', 'game_results') AND indexname NOT LIKE '%_pkey'"
        )
        for name, _ in indexes:
            await conn.execute(f"DROP INDEX {name}")
        tables_cols = [
            "id",
            "guild_id",
            "channel_id",
            "game_id",
            "status",
            "owner_id",
            "players",
            "options_json",
            "seed",
            "rules_version",
            "seq",
            "snapshot_json",
            "message_id",
            "turn_deadline",
            "created_at",
            "updated_at",
            "finished_at",
            "turn_clock",
            "reminder_at",
            "rematch_of",
            "shown_seq",
            "notify_at",
            "notify_seat",
            "republish_by",
            "republish_until",
        ]  # fmt: skip  (the columns ``world`` fills; any others keep their defaults)
        result_cols = [
            "table_id", "guild_id", "game_id", "seat", "user_id", "name", "score", "won",
            "finished_at", "player_id", "place", "deals", "rating", "rating_delta",
        ]  # fmt: skip
        loaded = 0
        generated = world(rows, players, servers)
        while True:
            chunk = list(itertools.islice(generated, CHUNK))
            if not chunk:
                break
            await conn.copy_records_to_table(
                "tables", records=[t for t, _ in chunk], columns=tables_cols
            )
            batch = [r for _, rs in chunk for r in rs]
            await conn.copy_records_to_table("game_results", records=batch, columns=result_cols)
            loaded += len(batch)
            print(f"  {loaded:,} result rows loaded ({time.perf_counter() - t0:.0f} s)", end="\r")
        print()
        steps = [
            *(definition for _, definition in indexes),
            "INSERT INTO player_totals (game_id, guild_id, player_id, games, wins, points, deals, "
            "last_at) SELECT game_id, guild_id, player_id, COUNT(*), SUM(won), SUM(score), "
            "SUM(deals), MAX(finished_at) FROM game_results GROUP BY game_id, guild_id, player_id",
            "INSERT INTO player_games (game_id, player_id, mu, sigma, rating, rated, games, wins, "
            "points, deals, last_at) SELECT game_id, player_id, 25, 8, 1, SUM(games), SUM(games), "
            "SUM(wins), SUM(points), SUM(deals), MAX(last_at) FROM player_totals "
            "GROUP BY game_id, player_id",
            "UPDATE player_games SET mu = 20 + random() * 15, sigma = 1 + 7 * random() / rated",
            "UPDATE player_games SET rating = mu - 3 * sigma",
            "INSERT INTO players (player_id, name, updated_at) SELECT DISTINCT ON (player_id) "
            "player_id, name, finished_at FROM game_results WHERE player_id > 0 "
            "ORDER BY player_id, finished_at DESC",
            "INSERT INTO guild_settings (guild_id, global_leaderboards, updated_at) "
            f"SELECT g, 0, {NOW} FROM generate_series(1, {servers}, {max(1, servers // 10)}) g "
            "LIMIT 10",
            "SELECT setval(pg_get_serial_sequence('tables', 'id'), (SELECT MAX(id) FROM tables))",
            "VACUUM ANALYZE",
        ]
        for sql in steps:
            await conn.execute(sql)
            print(f"  {sql.split('(')[0][:60]}… ({time.perf_counter() - t0:.0f} s)")
        facts = {"rows": loaded, "players": players, "servers": servers}
        await conn.execute(
            "INSERT INTO bot_state (key, value, updated_at) VALUES ($1, $2, $3)",
            FACTS_KEY,
            json.dumps(facts),
            NOW,
        )
        print(f"built {loaded:,} result rows in {time.perf_counter() - t0:.0f} s")
        return facts
    finally:
        await conn.close()


def _homes(players: int, servers: int, seed: int = 7) -> dict[int, int]:
    """Every player's home server, as ``world`` drew them (its first draws)."""
    rng = random.Random(seed)
    return {FIRST_USER + p: rng.randrange(servers) + 1 for p in range(players)}


async def prepare(url: str, database: str, args: argparse.Namespace) -> dict[str, Any]:
    admin = await asyncpg.connect(url)
    try:
        exists = await admin.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", database)
        if exists and args.rebuild:
            await admin.execute(f"DROP DATABASE {database} WITH (FORCE)")
            exists = False
        if not exists:
            await admin.execute(f"CREATE DATABASE {database}")
    finally:
        await admin.close()
    target = _url(url, database)
    conn = await asyncpg.connect(target)
    try:
        found = (
            await conn.fetchval("SELECT value FROM bot_state WHERE key = $1", FACTS_KEY)
            if await conn.fetchval("SELECT to_regclass('bot_state') IS NOT NULL")
            else None
        )
    finally:
        await conn.close()
    if found is not None:
        facts = json.loads(found)
        print(f"reusing {database}: {facts['rows']:,} result rows")
    else:
        facts = await build(target, args.rows, args.players, args.servers)
    homes = _homes(facts["players"], facts["servers"])
    return {**facts, "players": list(homes), "home": homes}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--url", required=True, help="a server where databases may be created")
    ap.add_argument("--database", default="trionfi_stats_bench")
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--servers", type=int, default=10_000)
    ap.add_argument("--queries", type=int, default=200, help="timed calls per kind")
    ap.add_argument("--rebuild", action="store_true")
    args = ap.parse_args(argv)
    facts = asyncio.run(prepare(args.url, args.database, args))
    timings = asyncio.run(measure(_url(args.url, args.database), facts, args.queries))  # type: ignore[arg-type]
    print(f"{'':32} {'median':>8} {'p95':>8} {'max':>8}   (ms, {args.queries} calls each)")
    worst = 0.0
    for name, ms in timings.items():
        ms.sort()
        p95 = ms[int(0.95 * (len(ms) - 1))]
        median = statistics.median(ms)
        worst = max(worst, median)
        print(f"{name:32} {median:8.2f} {p95:8.2f} {ms[-1]:8.2f}")
    print(f"target: every median ≤ 50 ms — {'met' if worst <= 50 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
