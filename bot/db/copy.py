"""Copying a SQLite database into an empty PostgreSQL one (``python -m bot db copy``).

Every table is streamed in primary-key order (keyset pages, so a large ``game_results`` never
sits in memory whole) and bulk-loaded with binary COPY, all in one target transaction: a copy
that fails leaves the target empty. Then the identity sequence of ``tables.id`` is moved past
the copied ids, and the copy is verified: the same row count and the same digest of every row,
read back from both databases.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from bot.db.database import Connection, Database, DatabaseError, Row
from bot.db.postgres import PgConnection

#: Every table with its primary key, parents before children (foreign keys hold row by row).
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("tables", ("id",)),
    ("seats", ("table_id", "seat")),
    ("actions", ("table_id", "seq")),
    ("deal_results", ("table_id", "deal_no")),
    ("game_results", ("table_id", "seat")),
    ("player_games", ("game_id", "player_id")),
    ("player_totals", ("game_id", "guild_id", "player_id")),
    ("players", ("player_id",)),
    ("guild_settings", ("guild_id",)),
    ("user_settings", ("user_id",)),
    ("bot_state", ("key",)),
    ("daily_attempts", ("day", "game_id", "user_id")),
    ("daily_channels", ("guild_id",)),
    ("daily_posts", ("guild_id", "day")),
    ("daily_markers", ("marker",)),
    ("tournaments", ("id",)),
    ("tournament_entrants", ("tournament_id", "user_id")),
    ("tournament_boards", ("tournament_id", "round", "board")),
    ("tournament_results", ("tournament_id", "round", "user_id")),
    # The recent boards' rolling totals, as they stand with the results copied above (their
    # window row replaces the one the target's migration started).
    ("rolling_window", ("id",)),
    ("rolling_totals", ("game_id", "guild_id", "player_id")),
    ("rolling_games", ("game_id", "player_id")),
)
#: Tables whose migration already fills them: emptied in the target before the copy.
_SEEDED = ("rolling_window",)
PAGE = 5000

_CASTS: dict[str, Callable[[Any], Any]] = {
    "bigint": int,
    "integer": int,
    "smallint": int,
    "double precision": float,
    "text": str,
}


@dataclass(frozen=True, slots=True)
class TableCount:
    name: str
    source: int
    target: int
    same_rows: bool  # every row's digest matches

    @property
    def ok(self) -> bool:
        return self.source == self.target and self.same_rows


@dataclass(frozen=True, slots=True)
class CopyReport:
    tables: tuple[TableCount, ...]
    next_table_id: int  # where the target's tables.id sequence goes on

    @property
    def ok(self) -> bool:
        return all(t.ok for t in self.tables)


async def _pages(conn: Connection, table: str, key: tuple[str, ...]) -> AsyncIterator[list[Row]]:
    """All rows of ``table`` (``SELECT *``), in key order, a page at a time."""
    keys = ", ".join(key)
    after: Row | None = None
    while True:
        where = "" if after is None else f"WHERE ({keys}) > ({', '.join('?' * len(key))}) "
        rows = await conn.fetchall(
            f"SELECT * FROM {table} {where}ORDER BY {keys} LIMIT {PAGE}",
            () if after is None else after,
        )
        if not rows:
            return
        yield rows
        after = tuple(rows[-1][i] for i in await _key_positions(conn, table, key))


_positions: dict[tuple[str, str], tuple[int, ...]] = {}


async def _key_positions(conn: Connection, table: str, key: tuple[str, ...]) -> tuple[int, ...]:
    cache = (conn.dialect.name, table)
    if cache not in _positions:
        columns = await _columns(conn, table)
        _positions[cache] = tuple(columns.index(k) for k in key)
    return _positions[cache]


async def _columns(conn: Connection, table: str) -> list[str]:
    if conn.dialect.name == "sqlite":
        return [r[1] for r in await conn.fetchall(f"PRAGMA table_info({table})")]
    rows = await conn.fetchall(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = "
        "current_schema() AND table_name = ? ORDER BY ordinal_position",
        (table,),
    )
    return [r[0] for r in rows]


async def _types(conn: Connection, table: str) -> list[str]:
    rows = await conn.fetchall(
        "SELECT data_type FROM information_schema.columns WHERE table_schema = "
        "current_schema() AND table_name = ? ORDER BY ordinal_position",
        (table,),
    )
    return [r[0] for r in rows]


def _cast(casts: list[Callable[[Any], Any]], row: Row) -> Row:
    """A SQLite row with the exact Python types binary COPY wants for the target's columns."""
    return tuple(None if v is None else cast(v) for cast, v in zip(casts, row, strict=True))


def _normal(value: Any) -> str:
    """A value as both databases give it back (SQLite may hand an integral REAL as an int)."""
    if isinstance(value, float):
        return f"f{value!r}"
    if isinstance(value, int):
        return f"f{float(value)!r}" if abs(value) < 1 << 53 else f"i{value}"
    return "n" if value is None else f"s{value}"


async def _digest(conn: Connection, table: str, key: tuple[str, ...]) -> tuple[int, int]:
    """Row count and a digest of the rows as a set: the sum of their hashes, so that the
    databases' different text orders (collations) do not matter."""
    count = 0
    total = 0
    async for rows in _pages(conn, table, key):
        for row in rows:
            count += 1
            line = "\x1f".join(_normal(v) for v in row).encode()
            total += int.from_bytes(hashlib.sha256(line).digest(), "big")
    return count, total % (1 << 256)


async def _is_empty(conn: Connection) -> bool:
    for table, _ in TABLES:
        if table in _SEEDED:
            continue
        if await conn.fetchone(f"SELECT 1 FROM {table} LIMIT 1") is not None:
            return False
    return True


async def copy_database(
    source: Database, target: Database, progress: Callable[[str, int], None] | None = None
) -> CopyReport:
    """Copy every row of ``source`` (SQLite, migrated) into ``target`` (PostgreSQL, migrated,
    empty), then verify. ``progress(table, rows copied so far)`` is called after each page."""
    if target.dialect.name != "postgres":
        raise DatabaseError("the copy goes into a PostgreSQL database")
    async with target.transaction() as out:
        assert isinstance(out, PgConnection)
        if not await _is_empty(out):
            raise DatabaseError(f"{target.target} already holds data; copy into an empty one")
        for table, key in TABLES:
            async with source.read() as conn:
                columns = await _columns(conn, table)
            if columns != await _columns(out, table):
                raise DatabaseError(f"{table}: the two schemas differ; update the bot first")
            casts = [_CASTS[t] for t in await _types(out, table)]
            if table in _SEEDED:
                await out.execute(f"DELETE FROM {table}")
            copied = 0
            async with source.read() as conn:
                async for rows in _pages(conn, table, key):
                    await out.copy_in(table, columns, [_cast(casts, r) for r in rows])
                    copied += len(rows)
                    if progress is not None:
                        progress(table, copied)
        row = await out.fetchone(
            "SELECT setval(pg_get_serial_sequence('tables', 'id'), "
            "COALESCE(MAX(id), 0) + 1, false) FROM tables"
        )
        # The tournaments' ids go on past the copied ones too.
        await out.execute(
            "SELECT setval(pg_get_serial_sequence('tournaments', 'id'), "
            "COALESCE(MAX(id), 0) + 1, false) FROM tournaments"
        )
    assert row is not None
    return CopyReport(await verify(source, target), int(row[0]))


async def verify(source: Database, target: Database) -> tuple[TableCount, ...]:
    """Row counts and row digests of every table, in both databases."""
    counts: list[TableCount] = []
    for table, key in TABLES:
        async with source.read() as conn:
            n_source, d_source = await _digest(conn, table, key)
        async with target.read() as conn:
            n_target, d_target = await _digest(conn, table, key)
        counts.append(TableCount(table, n_source, n_target, d_source == d_target))
    return tuple(counts)
