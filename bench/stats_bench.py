"""Leaderboard and stats queries at scale: 1,000,000 result rows, 10,000 players, 1,000 servers.

Builds a database with the real migrations, fills it with a year of finished games (rated in
time order by the real rating maths, ``bot.services.ratings.rate``), then times the service
calls the slash commands make, each on a fresh random choice of server, player, metric and
period:

* ``/leaderboard`` on one server, and across all servers: all time, last 30 days, and the
  worst case (la_morte, the most played game, over 30 days). The 30-day boards read the
  rolling totals (``bot.db.rolling``) as the sweeper leaves them at worst in steady state (a
  roll step and a sweep behind), and once more with the sweeper a day late;
* the sweeper's roll of those totals by one step (a minute);
* ``/stats`` (a player's profile) and ``/history`` (a player's recent games on a server);
* recording one more finished game (results, rating update, totals) at that size.

    python -m bench.stats_bench [--rows 1000000] [--players 10000] [--servers 1000]
                                [--db PATH] [--queries 200]

``--db PATH`` keeps the generated database and reuses it on the next run (generation takes a
minute or two; each run's timed writes stay in it, 4 result rows per call).

The world: every player has a home server and up to two more; tables of 3–5 seats (some
computers) form among a server's members; busier servers have more members; games are spread
over 365 days; la_morte 40 %, french_tarot 25 %, early_french_tarot 15 %, losers_game 12 %,
queen_of_tarot 8 %; ten servers keep their games off global boards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.db import rolling
from bot.db.backends import open_database
from bot.db.database import Database
from bot.db.ratings import Rating
from bot.db.tables import GameResultRecord, NewEntry, SeatRecord, TableStore
from bot.services import ratings
from bot.services.stats import METRICS, StatsService
from bot.services.upkeep import ROLL_STEP, ROLLING_WINDOW

NOW = 1_800_000_000.0
DAY = 86_400.0
GAMES = {
    "la_morte": 0.40,
    "french_tarot": 0.25,
    "early_french_tarot": 0.15,
    "losers_game": 0.12,
    "queen_of_tarot": 0.08,
}
SEATS = {"queen_of_tarot": (3, 3)}  # the rest: 3–5 seats
CPU = ratings.COMPUTER_LEVELS["standard"]
FIRST_USER = 10**17  # Discord-sized ids
#: Where the rolling window starts in steady state at its latest: a roll step and a 5-second
#: sweep behind the board's start (the raw results a 30-day board reads beyond the totals).
STEADY = NOW - ROLLING_WINDOW - ROLL_STEP - 5.0


def build(path: Path, rows: int, players: int, servers: int, seed: int = 7) -> dict[str, Any]:
    """Fill a migrated database at ``path``; returns facts about the world for the queries."""
    rng = random.Random(seed)
    home = [rng.randrange(servers) for _ in range(players)]
    members: list[list[int]] = [[] for _ in range(servers)]
    for p in range(players):
        extra = rng.choices((0, 1, 2), (0.5, 0.35, 0.15))[0]
        for s in {home[p], *(rng.randrange(servers) for _ in range(extra))}:
            members[s].append(p)
    weights = [max(1, len(m)) ** 1.3 for m in members]
    game_ids, game_weights = list(GAMES), list(GAMES.values())

    tables: list[tuple[float, int, str, list[int | None]]] = []
    total = 0
    while total < rows:
        server = rng.choices(range(servers), weights)[0]
        game_id = rng.choices(game_ids, game_weights)[0]
        low, high = SEATS.get(game_id, (3, 5))
        n = max(2, min(rng.randint(low, high), rows - total))
        if rows - total - n == 1:  # never leave a single row to fill
            n += 1
        computers = min(n - 1, rng.choices((0, 1, 2), (0.7, 0.2, 0.1))[0])
        pool = members[server]
        humans = rng.sample(pool, min(len(pool), n - computers)) if pool else []
        seats: list[int | None] = [FIRST_USER + p for p in humans]
        seats += [None] * (n - len(seats))
        rng.shuffle(seats)
        if not humans:
            continue
        tables.append((NOW - rng.random() * 365 * DAY, server + 1, game_id, seats))
        total += n
    tables.sort()

    current: dict[tuple[str, int], Rating] = {}
    table_rows: list[tuple[Any, ...]] = []
    result_rows: list[tuple[Any, ...]] = []
    for table_id, (when, guild, game_id, seats) in enumerate(tables, start=1):
        scores = [rng.randint(-20, 80) for _ in seats]
        top = max(scores)
        winners = [i for i, v in enumerate(scores) if v == top]
        places = ratings.placings(scores, winners)
        ids = [CPU if u is None else u for u in seats]
        updates = ratings.rate(
            list(zip(ids, places, strict=True)),
            {p: current[game_id, p] for p in set(ids) if (game_id, p) in current},
        )
        for p, u in updates.items():
            current[game_id, p] = u.after
        deals = rng.randint(3, 14)
        owner = next(u for u in seats if u is not None)
        table_rows.append((table_id, guild, table_id, game_id, owner, len(seats), when))
        for seat, (u, pid) in enumerate(zip(seats, ids, strict=True)):
            up = updates[pid]
            result_rows.append(
                (
                    table_id,
                    guild,
                    game_id,
                    seat,
                    u,
                    "Bot" if u is None else f"Player {u - FIRST_USER}",
                    scores[seat],
                    int(seat in winners),
                    when,
                    pid,
                    places[seat],
                    deals,
                    up.after.display,
                    up.after.display - up.before,
                )
            )

    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO tables (id, guild_id, channel_id, game_id, status, owner_id, players, "
        "seed, rules_version, created_at, updated_at, finished_at) "
        "VALUES (?, ?, ?, ?, 'finished', ?, ?, 0, 1, ?7, ?7, ?7)",
        table_rows,
    )
    conn.executemany(
        "INSERT INTO game_results (table_id, guild_id, game_id, seat, user_id, name, score, won, "
        "finished_at, player_id, place, deals, rating, rating_delta) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        result_rows,
    )
    conn.execute(
        "INSERT INTO player_totals (game_id, guild_id, player_id, games, wins, points, deals, "
        "last_at) SELECT game_id, guild_id, player_id, COUNT(*), SUM(won), SUM(score), "
        "SUM(deals), MAX(finished_at) FROM game_results GROUP BY game_id, guild_id, player_id"
    )
    conn.execute(
        "INSERT INTO player_games (game_id, player_id, games, wins, points, deals, last_at) "
        "SELECT game_id, player_id, SUM(games), SUM(wins), SUM(points), SUM(deals), "
        "MAX(last_at) FROM player_totals GROUP BY game_id, player_id"
    )
    conn.executemany(
        "UPDATE player_games SET mu = ?, sigma = ?, rating = ?, rated = ? "
        "WHERE game_id = ? AND player_id = ?",
        [(r.mu, r.sigma, r.display, r.games, g, p) for (g, p), r in current.items()],
    )
    conn.execute(
        "INSERT INTO players (player_id, name, updated_at) SELECT player_id, name, "
        "MAX(finished_at) FROM game_results WHERE player_id > 0 GROUP BY player_id"
    )
    conn.executemany(
        "INSERT INTO guild_settings (guild_id, global_leaderboards, updated_at) VALUES (?, 0, ?)",
        [(g, NOW) for g in range(1, servers + 1, servers // 10 or 1)][:10],
    )
    conn.execute("COMMIT")
    conn.close()
    return {
        "players": [FIRST_USER + p for p in range(players)],
        "home": {FIRST_USER + p: home[p] + 1 for p in range(players)},
        "servers": servers,
        "rows": len(result_rows),
        "tables": len(table_rows),
    }


def _facts(path: Path) -> Path:
    return path.with_suffix(".facts.json")


async def _timed(calls: int, make: Callable[[random.Random], Awaitable[object]]) -> list[float]:
    rng = random.Random(11)
    out: list[float] = []
    for _ in range(calls):
        t0 = time.perf_counter()
        await make(rng)
        out.append((time.perf_counter() - t0) * 1000)
    return out


async def measure(path: Path, facts: dict[str, Any], calls: int) -> dict[str, list[float]]:
    db = await open_database(path)
    await db.migrate()
    stats = StatsService(db, clock=lambda: NOW)
    players: list[int] = facts["players"]
    home: dict[int, int] = {int(k): v for k, v in facts["home"].items()}
    servers: int = facts["servers"]

    def board(
        scope: str, period: str | None = None, game_id: str | None = None
    ) -> Callable[[random.Random], Awaitable[object]]:
        def make(rng: random.Random) -> Awaitable[object]:
            return stats.leaderboard(
                game_id=game_id or rng.choices(list(GAMES), list(GAMES.values()))[0],
                viewer=rng.choice(players),
                guild_id=rng.randint(1, servers),
                metric=rng.choice(METRICS),
                scope=scope,
                period=period or rng.choice(("all", "30d")),
                page=rng.choice((0, 0, 0, 1, 5)),
            )

        return make

    def history(rng: random.Random) -> Awaitable[object]:
        p = rng.choice(players)
        return stats.history(home[p], p)

    results: dict[str, list[float]] = {}
    try:
        if await rolling.since(db) != STEADY:  # a new (or bulk-loaded) database
            await rolling.rebuild(db, STEADY)
        await stats.leaderboard(game_id="la_morte", viewer=0, guild_id=1, scope="global")  # warm
        results["leaderboard server"] = await _timed(calls, board("server"))
        results["leaderboard server, all time"] = await _timed(calls, board("server", "all"))
        results["leaderboard server, 30 days"] = await _timed(calls, board("server", "30d"))
        results["leaderboard global, all time"] = await _timed(calls, board("global", "all"))
        results["leaderboard global, 30 days"] = await _timed(calls, board("global", "30d"))
        results["  la_morte global, 30 days"] = await _timed(
            calls, board("global", "30d", "la_morte")
        )
        results["stats (profile)"] = await _timed(
            calls, lambda rng: stats.player_stats(rng.choice(players))
        )
        results["history"] = await _timed(calls, history)
        results["record a finished game"] = await _record_games(db, players, home, calls)
        # The sweeper a day late: the boards read a day of raw results beyond the totals.
        await rolling.rebuild(db, STEADY - DAY)
        results["global, 30 days, a day late"] = await _timed(calls, board("global", "30d"))
        results["  la_morte, a day late"] = await _timed(calls, board("global", "30d", "la_morte"))
        results["server, 30 days, a day late"] = await _timed(calls, board("server", "30d"))
        results["roll the window a minute"] = await _rolls(db, STEADY - DAY, calls)
        await rolling.rebuild(db, STEADY)  # as the next run expects it
    finally:
        await db.close()
    return results


async def _rolls(db: Database, start: float, calls: int) -> list[float]:
    """The sweeper's step: ``rolling.roll`` by ``ROLL_STEP``, from ``start`` on."""
    out: list[float] = []
    for i in range(1, calls + 1):
        t0 = time.perf_counter()
        assert await rolling.roll(db, start + i * ROLL_STEP)
        out.append((time.perf_counter() - t0) * 1000)
    return out


async def _record_games(
    db: Database, players: list[int], home: dict[int, int], calls: int
) -> list[float]:
    """TableStore.commit of a finished 4-player game: results, ratings, totals, names."""
    store = TableStore(db)
    rng = random.Random(5)
    out: list[float] = []
    for i in range(calls):
        who = rng.sample(players, 4)
        guild = home[who[0]]
        table_id = await store.create(
            guild_id=guild,
            channel_id=10**12 + i,
            game_id="la_morte",
            owner_id=who[0],
            players=4,
            options={},
            seed=1,
            rules_version=1,
            seats=[SeatRecord(s, u, f"Player {u}") for s, u in enumerate(who)],
            now=NOW,
        )
        places = [1, 2, 3, 4]
        rng.shuffle(places)
        results = [
            GameResultRecord(s, u, f"Player {u}", 10 * (5 - p), p == 1, u, p, 6)
            for s, (u, p) in enumerate(zip(who, places, strict=True))
        ]
        t0 = time.perf_counter()
        await store.commit(
            table_id,
            expected_seq=0,
            expected_status="lobby",
            entries=[NewEntry("act", 0, {})],
            snapshot={},
            status="finished",
            now=NOW,
            game_results=results,
            rater=ratings.rate,
        )
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--servers", type=int, default=1_000)
    ap.add_argument("--queries", type=int, default=200, help="timed calls per kind")
    ap.add_argument("--db", type=Path, help="keep (and reuse) the database at this path")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "stats.sqlite3"
        if args.db is not None and path.exists() and _facts(path).exists():
            facts = json.loads(_facts(path).read_text())
            print(f"reusing {path}: {facts['rows']:,} result rows, {facts['tables']:,} tables")
        else:
            path.unlink(missing_ok=True)
            asyncio.run(_migrate(path))
            t0 = time.perf_counter()
            facts = build(path, args.rows, args.players, args.servers)
            print(
                f"built {facts['rows']:,} result rows ({facts['tables']:,} tables, "
                f"{args.players:,} players, {args.servers:,} servers) in "
                f"{time.perf_counter() - t0:.0f} s; {path.stat().st_size / 2**20:.0f} MiB"
            )
            if args.db is not None:
                _facts(path).write_text(json.dumps(facts))
        timings = asyncio.run(measure(path, facts, args.queries))
    print(f"{'':32} {'median':>8} {'p95':>8} {'max':>8}   (ms, {args.queries} calls each)")
    for name, ms in timings.items():
        ms.sort()
        p95 = ms[int(0.95 * (len(ms) - 1))]
        print(f"{name:32} {statistics.median(ms):8.2f} {p95:8.2f} {ms[-1]:8.2f}")
    return 0


async def _migrate(path: Path) -> None:
    db = await open_database(path)
    try:
        await db.migrate()
    finally:
        await db.close()


if __name__ == "__main__":
    sys.exit(main())
