"""The storage API every query in ``bot/db`` uses, whichever database is behind it.

A ``Database`` (opened by ``bot.db.backends.open_database``: a SQLite file, the default, or a
PostgreSQL connection pool for a ``postgresql://`` URL) hands out a ``Connection`` for one
transaction (``transaction()``) or for reads (``read()``), runs the numbered migrations of its
dialect, and locks a table across processes (``table_lock``). This module imports no backend:
both import it (ARCHITECTURE §5, no import circles).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from importlib import resources
from typing import Any

from bot.db.dialect import Dialect

_MIGRATION_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")

#: Query parameters: positional for ``?``, or a mapping for ``:name``.
Params = Sequence[Any] | Mapping[str, Any]
Row = tuple[Any, ...]


class DatabaseError(Exception):
    """Base class of the persistence errors the services translate for users."""


class IntegrityError(DatabaseError):
    """A constraint refused a write. ``constraint`` names it the same way on every backend:
    the index or constraint name of the PostgreSQL schema (``tables_open_channel``,
    ``seats_table_user``, ``actions_pkey``…), or the driver's message when unknown."""

    def __init__(self, constraint: str, message: str) -> None:
        super().__init__(message)
        self.constraint = constraint


class LockTimeout(DatabaseError):
    """Another process held a table for longer than anyone should."""


class PoolTimeout(DatabaseError):
    """No pooled connection came free in time: the database is busy (every connection in
    use). The services turn it into a polite "busy, try again" (``errors.Busy``)."""


def migrations(dialect: str = "sqlite") -> list[tuple[int, str, str]]:
    """``(version, file name, sql)`` of every packaged migration of ``dialect``, in order.

    Each dialect has its own numbered history (``bot/db/migrations/<dialect>/``). Read through
    ``importlib.resources`` so it works from a wheel as well as a checkout.
    """
    folder = resources.files("bot.db").joinpath("migrations").joinpath(dialect)
    found: list[tuple[int, str, str]] = []
    for entry in folder.iterdir():
        m = _MIGRATION_NAME.match(entry.name)
        if m is not None:
            found.append((int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    versions = [v for v, _, _ in found]
    if not found or versions != list(range(1, len(found) + 1)):
        raise DatabaseError(
            f"{dialect} migrations must be numbered 0001, 0002, … without gaps: {versions}"
        )
    return found


class Connection(ABC):
    """One connection, for the length of a ``transaction()`` or ``read()`` block.

    SQL uses ``?`` (positional) or ``:name`` (mapping) parameters on both backends. Rows are
    plain tuples. A refused constraint raises ``IntegrityError``.
    """

    dialect: Dialect

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement that returns no rows; the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query (also ``… RETURNING``)."""

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None


class TableLock(ABC):
    """A table's lock in the database, shared by every process that uses it.

    Held across a whole use case (load, engine work, commit), so that concurrent actions from
    different processes wait their turn instead of failing the ``seq`` check. From
    ``try_acquire`` to ``release``, this task's ``read()`` and ``transaction()`` run on the
    connection that holds (or waits for) it: a task never needs a second pooled connection
    while it has one, so a full pool cannot deadlock.
    """

    @abstractmethod
    async def try_acquire(self) -> bool:
        """Take the lock if nobody holds it; False (not held) otherwise."""

    @abstractmethod
    async def acquire(self) -> None:
        """Wait for the lock (after a failed ``try_acquire``); ``LockTimeout`` if it takes
        too long."""

    @abstractmethod
    async def release(self) -> None:
        """Give the lock back (after ``try_acquire`` too, whatever it returned)."""


class Database(ABC):
    """An open database: SQLite (``SqliteDatabase``) or PostgreSQL (``PostgresDatabase``),
    from ``bot.db.backends.open_database``."""

    dialect: Dialect
    target: str  # the file, or the URL without its password: safe to log

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied (0: none)."""

    @abstractmethod
    async def migrate(self) -> int:
        """Apply every migration newer than the schema; return the new version. Each one runs
        in its own transaction with its bookkeeping, so a failure leaves the previous version.
        ``DatabaseError`` if the database is newer than this bot."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """``BEGIN`` … ``COMMIT`` (``ROLLBACK`` on any exception)."""

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for reads (autocommit)."""

    @abstractmethod
    def table_lock(self, table_id: int) -> TableLock:
        """The lock of one table in the database (a no-op where one process owns it)."""

    def _check_version(self, current: int, known: int) -> None:
        if current > known:
            raise DatabaseError(
                f"database schema version {current} is newer than this bot ({known})"
            )
