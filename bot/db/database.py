"""The SQLite connection: opening, pragmas, numbered migrations and serialised transactions."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from importlib import resources
from os import PathLike
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")


class DatabaseError(Exception):
    """Base class of the persistence errors the services translate for users."""


def migrations() -> list[tuple[int, str, str]]:
    """``(version, file name, sql)`` of every packaged migration, in version order.

    Read through ``importlib.resources`` so it works from a wheel as well as a checkout.
    """
    folder = resources.files("bot.db").joinpath("migrations")
    found: list[tuple[int, str, str]] = []
    for entry in folder.iterdir():
        m = _MIGRATION_NAME.match(entry.name)
        if m is not None:
            found.append((int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    versions = [v for v, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise DatabaseError(f"migrations must be numbered 0001, 0002, … without gaps: {versions}")
    return found


class Database:
    """Owns one aiosqlite connection.

    Every statement runs under one ``asyncio.Lock`` (``transaction()`` for writes, ``read()``
    for reads), so coroutines never interleave statements on the shared connection and a read
    never observes another coroutine's half-written transaction.
    """

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | PathLike[str], *, busy_timeout_ms: int = 5000) -> Database:
        """Connect to ``path`` (``":memory:"`` allowed), creating its folder, and set pragmas."""
        target = str(path)
        if target != ":memory:" and not target.startswith("file:"):
            Path(target).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the sqlite3 module never opens transactions behind our back;
        # ``transaction()`` issues BEGIN IMMEDIATE itself.
        conn = await aiosqlite.connect(target, isolation_level=None)
        try:
            # execute_fetchall consumes each pragma's result row. An unread row keeps its
            # statement "in progress" for as long as the cursor lives, and aiosqlite hands
            # cursors over through Futures that the event loop's owner may retain (SimCord
            # does): the next COMMIT would then fail. Row-returning SQL always uses fetchall.
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
            rows = list(await conn.execute_fetchall("PRAGMA user_version"))
        return int(rows[0][0])

    async def migrate(self) -> int:
        """Apply every migration newer than ``PRAGMA user_version``; return the new version.

        Each file runs in its own transaction together with the version bump, so a failing
        migration leaves the database at the previous version.
        """
        current = await self.user_version()
        known = migrations()
        if current > len(known):
            raise DatabaseError(
                f"database schema version {current} is newer than this bot ({len(known)})"
            )
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
    async def transaction(self) -> AsyncGenerator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on any exception), serialised."""
        async with self._lock:
            conn = self._conn
            await conn.execute("BEGIN IMMEDIATE")
            committed = False
            try:
                yield conn
                await conn.execute("COMMIT")
                committed = True
            finally:
                if not committed and conn.in_transaction:
                    await conn.execute("ROLLBACK")

    @asynccontextmanager
    async def read(self) -> AsyncGenerator[aiosqlite.Connection]:
        """The connection for reads (autocommit), serialised with the writes."""
        async with self._lock:
            yield self._conn
