"""The SQLite backend: one aiosqlite connection, pragmas, ``PRAGMA user_version`` migrations and
serialised transactions."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncGenerator, Iterable, Sequence
from contextlib import asynccontextmanager
from os import PathLike
from pathlib import Path
from typing import Any, cast

import aiosqlite

from bot.db.database import (
    Connection,
    Database,
    IntegrityError,
    Params,
    Row,
    TableLock,
    migrations,
)
from bot.db.dialect import SQLITE

log = logging.getLogger(__name__)

# SQLite names the columns of a failed unique constraint, not the index: these map them to the
# names the PostgreSQL schema gives the same constraints, which callers test for.
_UNIQUE_NAMES = {
    "tables.channel_id": "tables_open_channel",
    "seats.table_id, seats.user_id": "seats_table_user",
    "actions.table_id, actions.seq": "actions_pkey",
    "daily_attempts.day, daily_attempts.game_id, daily_attempts.user_id": "daily_attempts_pkey",
}


def _integrity(e: sqlite3.IntegrityError) -> IntegrityError:
    message = str(e)
    _, _, columns = message.partition("UNIQUE constraint failed: ")
    return IntegrityError(_UNIQUE_NAMES.get(columns, message), message)


class SqliteConnection(Connection):
    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        try:
            cur = await self._conn.execute(sql, params)
        except sqlite3.IntegrityError as e:
            raise _integrity(e) from e
        count = cur.rowcount
        await cur.close()  # in the connection's thread: see ``executemany``
        return count

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            cur = await self._conn.executemany(sql, rows)
        except sqlite3.IntegrityError as e:
            raise _integrity(e) from e
        # Closed here, in the connection's thread: a cursor left to the garbage collector is
        # freed in the event loop's thread, and CPython 3.11 then resets its statement, which
        # the statement cache may already have handed to a newer cursor running the same SQL
        # in the connection's thread (seen as SQLITE_MISUSE, "bad parameter or other API
        # misuse", in a burst of tables committing the same INSERT).
        await cur.close()

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        # execute_fetchall consumes every row. An unread row keeps its statement "in
        # progress" for as long as the cursor lives, and aiosqlite hands cursors over through
        # Futures that the event loop's owner may retain (SimCord does): the next COMMIT
        # would then fail. So row-returning SQL (RETURNING too) always comes here.
        try:
            rows = await self._conn.execute_fetchall(sql, params)
        except sqlite3.IntegrityError as e:
            raise _integrity(e) from e
        return cast(list[Row], list(rows))


class _InProcess(TableLock):
    """SQLite is written by one process: the services' in-process lock is all there is."""

    async def try_acquire(self) -> bool:
        return True

    async def acquire(self) -> None:
        return None

    async def release(self) -> None:
        return None


class SqliteDatabase(Database):
    """Owns one aiosqlite connection.

    Every statement runs under one ``asyncio.Lock`` (``transaction()`` for writes, ``read()``
    for reads), so coroutines never interleave statements on the shared connection and a read
    never observes another coroutine's half-written transaction.
    """

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self._wrapped = SqliteConnection(conn)
        self.target = path
        self._lock = asyncio.Lock()

    @classmethod
    async def connect(
        cls, path: str | PathLike[str], *, busy_timeout_ms: int = 5000
    ) -> SqliteDatabase:
        """Connect to ``path`` (``":memory:"`` allowed), creating its folder, and set pragmas."""
        target = str(path)
        if target != ":memory:" and not target.startswith("file:"):
            Path(target).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the sqlite3 module never opens transactions behind our back;
        # ``transaction()`` issues BEGIN IMMEDIATE itself.
        conn = await aiosqlite.connect(target, isolation_level=None)
        try:
            for pragma in (
                "journal_mode=WAL",
                "foreign_keys=ON",
                "synchronous=NORMAL",
                f"busy_timeout={int(busy_timeout_ms)}",
            ):
                await conn.execute_fetchall(f"PRAGMA {pragma}")
        except BaseException:
            await conn.close()
            raise
        return cls(conn, target)

    async def close(self) -> None:
        """Checkpoint the write-ahead log into the database file, then close."""
        async with self._lock:
            with contextlib.suppress(Exception):  # closing matters more than the checkpoint
                await self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            await self._conn.close()

    async def user_version(self) -> int:
        async with self.read() as conn:
            row = await conn.fetchone("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def schema_version(self) -> int:
        return await self.user_version()

    async def migrate(self) -> int:
        current = await self.user_version()
        known = migrations(self.dialect.name)
        self._check_version(current, len(known))
        async with self._lock:
            for version, name, sql in known:
                if version <= current:
                    continue
                log.info("applying migration %s", name)
                script = f"BEGIN IMMEDIATE;\n{sql}\n;PRAGMA user_version = {version};\nCOMMIT;"
                try:
                    await self._conn.executescript(script)
                except BaseException:
                    if self._conn.in_transaction:
                        await self._conn.execute("ROLLBACK")
                    raise
                current = version
        return current

    @asynccontextmanager
    async def transaction(self) -> AsyncGenerator[Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on any exception), serialised."""
        async with self._lock:
            conn = self._conn
            await conn.execute("BEGIN IMMEDIATE")
            committed = False
            try:
                yield self._wrapped
                await conn.execute("COMMIT")
                committed = True
            finally:
                if not committed and conn.in_transaction:
                    await conn.execute("ROLLBACK")

    @asynccontextmanager
    async def read(self) -> AsyncGenerator[Connection]:
        """The connection for reads (autocommit), serialised with the writes."""
        async with self._lock:
            yield self._wrapped

    def table_lock(self, table_id: int) -> TableLock:
        return _InProcess()
