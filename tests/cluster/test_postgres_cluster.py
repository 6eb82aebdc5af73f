"""Two bot processes, one PostgreSQL database: the same tables played from both at once.

Two independent OS processes (``tests/cluster/worker.py``, each with its own asyncpg pool and
services) click the same decisions at the same time, double-click, press "I'm back" and sweep
(reminders, notifications, overdue turns) the same tables. Afterwards every action applied
exactly once, every log replays to its snapshot, each expiry, reminder and notification
happened once, and the ratings equal a single-process run of the same finished games.
"""

from __future__ import annotations

import asyncio
import json
import math
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from bot.db.backends import open_database
from bot.db.database import Database
from bot.db.tables import GameResultRecord, SeatRecord, TableStore
from bot.engine import match
from bot.services import ratings
from bot.services.tables import TableService
from tests.backends import PostgresServer

ROOT = Path(__file__).resolve().parents[2]
GUILD = 1_111_111_111_111_111_111
USERS = [2_000_000_000_000_000_000 + i for i in range(4)]
TABLES = 6


async def _open_tables(db: Database) -> list[int]:
    """Six La Morte tables, two humans and a computer each, humans shared between tables
    (so finishing games rate the same players), with a fast turn clock."""
    service = TableService(db)
    ids: list[int] = []
    for i in range(TABLES):
        first, second = USERS[i % 4], USERS[(i + 1) % 4]
        lobby = await service.open_lobby(
            GUILD, 500 + i, first, f"P{i % 4}", "la_morte", 3, {"round_limit": 2}, 1, "fast"
        )
        await service.join(lobby.id, second, f"P{(i + 1) % 4}")
        await service.start(lobby.id, first, seed=900 + i)
        ids.append(lobby.id)
    return ids


async def _run_workers(url: str, tables: list[int]) -> list[dict[str, list[Any]]]:
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.cluster.worker",
            url,
            str(seed),
            *map(str, tables),
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        for seed in (1, 2)
    ]
    for proc in procs:
        assert proc.stdout is not None
        assert (await asyncio.wait_for(proc.stdout.readline(), 60)).strip() == b"ready"
    outs = await asyncio.gather(*(proc.communicate(b"go\n") for proc in procs))
    assert [proc.returncode for proc in procs] == [0, 0]
    return [json.loads(out.decode().splitlines()[-1]) for out, _ in outs]


def _rating_order(results: dict[int, list[GameResultRecord]], rows: dict[int, Any]) -> list[int]:
    """The order the finished games were rated in, read from the computer player's rating
    chain (every game has one): each game's rating before it is the previous game's after.
    A lost update (two games rated from the same old value) breaks the chain."""
    before_after = {t: (r[0] - r[1], r[0]) for t, r in rows.items()}
    order: list[int] = []
    left = set(results)
    previous: float | None = None
    while left:
        if previous is None:
            # the first: its "before" is nobody's "after"
            candidates = [
                t
                for t in left
                if not any(
                    math.isclose(before_after[t][0], a, abs_tol=1e-9)
                    for _, a in before_after.values()
                )
            ]
        else:
            candidates = [
                t for t in left if math.isclose(before_after[t][0], previous, abs_tol=1e-9)
            ]
        assert len(candidates) == 1, f"rating chain broken after {order}: {candidates}"
        order.append(candidates[0])
        left.remove(candidates[0])
        previous = before_after[candidates[0]][1]
    return order


async def _single_process_ratings(
    path: Path, order: list[int], results: dict[int, list[GameResultRecord]], seats: dict[int, Any]
) -> list[tuple[Any, ...]]:
    """The same finished games, committed one after another by one process on SQLite."""
    db = await open_database(path)
    await db.migrate()
    store = TableStore(db)
    try:
        for n, table_id in enumerate(order):
            new = await store.create(
                guild_id=GUILD,
                channel_id=n + 1,
                game_id="la_morte",
                owner_id=USERS[0],
                players=3,
                options={},
                seed=0,
                rules_version=1,
                seats=seats[table_id],
                now=float(n),
            )
            await store.commit(
                new,
                expected_seq=0,
                expected_status="lobby",
                entries=(),
                snapshot=None,
                status="finished",
                now=float(n),
                game_results=results[table_id],
                rater=ratings.rate,
            )
        async with db.read() as conn:
            return await conn.fetchall(_RATINGS)
    finally:
        await db.close()


_RATINGS = (
    "SELECT game_id, player_id, mu, sigma, rating, rated, games, wins, points, deals "
    "FROM player_games ORDER BY game_id, player_id"
)


def _key(payload: dict[str, Any]) -> str:
    """A decision as text, whoever's seat it names (the clicks leave the seat out)."""
    return json.dumps({k: v for k, v in payload.items() if k != "seat"}, sort_keys=True)


def _same_numbers(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> bool:
    return len(a) == len(b) and all(
        len(x) == len(y)
        and all(
            math.isclose(u, v, rel_tol=1e-12, abs_tol=1e-12)
            if isinstance(u, float) or isinstance(v, float)
            else u == v
            for u, v in zip(x, y, strict=True)
        )
        for x, y in zip(a, b, strict=True)
    )


async def test_two_postgres_processes_apply_everything_once(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    url = await postgres_server.create()
    db = await open_database(url)
    try:
        tables = await _open_tables(db)
        records = await _run_workers(url, tables)
        service = TableService(db)
        store = service.store

        # Every table ended, and its log replays to its snapshot.
        finished: dict[int, list[GameResultRecord]] = {}
        seats: dict[int, tuple[SeatRecord, ...]] = {}
        logs = {}
        for table_id in tables:
            record = await store.get(table_id)
            assert record is not None and record.snapshot is not None
            assert record.status in ("finished", "abandoned"), (table_id, record.status)
            assert await service.replay(table_id) == match.from_json(record.snapshot)
            logs[table_id] = await store.log(table_id)
            assert [e.seq for e in logs[table_id]] == sorted({e.seq for e in logs[table_id]})
            if record.status == "finished":
                finished[table_id] = await store.game_results(table_id)
                seats[table_id] = tuple(
                    SeatRecord(s.seat, s.user_id, s.name, s.is_bot) for s in record.seats
                )
        assert len(finished) >= TABLES // 2, "most games finish"

        # Every click applied exactly once: one success per decision, however many clicks
        # from however many processes, and the log holds exactly the successful ones.
        acts = [a for r in records for a in r["acts"]]
        applied = [a for a in acts if a[3] == "ok"]
        per_decision = Counter((a[0], a[1]) for a in applied)
        assert per_decision and max(per_decision.values()) == 1
        attempts = Counter((a[0], a[1]) for a in acts)
        both = {(a[0], a[1]) for a in records[0]["acts"]} & {
            (a[0], a[1]) for a in records[1]["acts"]
        }
        assert both, "the two processes collided on some decisions"
        assert max(attempts.values()) >= 2
        for table_id in tables:
            humans = [
                {**e.payload} for e in logs[table_id] if e.kind == "act" and "by" not in e.payload
            ]
            clicked = [a[2] for a in applied if a[0] == table_id]
            assert len(humans) == len(clicked), table_id
            assert sorted(_key(h) for h in humans) == sorted(_key(c) for c in clicked)

        # Each expiry happened once (one computer decision per reported expiry), and each
        # reminder and notification was claimed by one process only.
        expired = Counter(e[0] for r in records for e in r["expired"])
        timeouts = Counter(
            t
            for t in tables
            for e in logs[t]
            if e.kind == "act" and e.payload.get("by") == "timeout"
        )
        assert expired == timeouts and sum(expired.values()) > 0
        for kind in ("reminders", "notifications"):
            claimed = Counter((x[0], x[1]) for r in records for x in r[kind])
            assert claimed and max(claimed.values()) == 1, kind

        # Ratings: the same as one process rating the same games one after another.
        computer = {}
        for table_id, results in finished.items():
            [row] = [r for r in results if r.player_id == ratings.player_id(None, True)]
            async with db.read() as conn:
                computer[table_id] = await conn.fetchone(
                    "SELECT rating, rating_delta FROM game_results WHERE table_id = ? AND seat = ?",
                    (table_id, row.seat),
                )
        order = _rating_order(finished, computer)
        expected = await _single_process_ratings(tmp_path / "one.sqlite3", order, finished, seats)
        async with db.read() as conn:
            got = await conn.fetchall(_RATINGS)
        assert _same_numbers(got, expected)
    finally:
        await db.close()
        await postgres_server.drop(url)
