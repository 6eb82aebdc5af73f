"""The PostgreSQL backend: an asyncpg pool, ``$n`` parameters, a ``schema_migrations`` table,
constraint errors in the shared vocabulary, and per-table advisory locks shared by every
process of a cluster."""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections.abc import AsyncGenerator, Awaitable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol, cast
from urllib.parse import urlsplit, urlunsplit

import asyncpg  # pyright: ignore[reportMissingTypeStubs]  (asyncpg ships none)

from bot.db.database import (
    Connection,
    Database,
    DatabaseError,
    IntegrityError,
    LockTimeout,
    Params,
    PoolTimeout,
    Row,
    TableLock,
    migrations,
)
from bot.db.dialect import POSTGRES

log = logging.getLogger(__name__)

POOL_SIZE = 10  # connections per process (``DATABASE_POOL_SIZE``)
#: How long a task waits for a pooled connection before the user is told the bot is busy
#: (``DATABASE_ACQUIRE_TIMEOUT``): a full pool must never hang an interaction, a read or the
#: sweeper. A table's lock holds its connection for milliseconds (load, commit), never while
#: computers think, so a wait this long means the database itself is overwhelmed.
ACQUIRE_TIMEOUT = 5.0
#: How long an action waits for a table another process holds before giving up. Holding it
#: takes one use case (milliseconds; a computer's think is capped at a few seconds).
LOCK_WAIT = 30.0
# Advisory lock keys: a table's lock is the one-key form ``pg_advisory_lock(table_id)``; the
# migrations take the two-key form (a separate key space), so they never collide.
_MIGRATION_LOCK = (0x7472, 1)  # "tr", 1

_PARAMETER = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|::|\?|:[A-Za-z_][A-Za-z0-9_]*")


class _Driver(Protocol):
    """The part of ``asyncpg.Connection`` used here (asyncpg ships no type information)."""

    async def execute(self, query: str, *args: Any) -> str: ...
    async def executemany(self, command: str, args: Iterable[Sequence[Any]]) -> None: ...
    async def fetch(self, query: str, *args: Any) -> list[Any]: ...
    async def fetchval(self, query: str, *args: Any) -> Any: ...
    def transaction(self) -> AbstractAsyncContextManager[Any]: ...
    async def copy_records_to_table(
        self, table_name: str, *, records: Iterable[Sequence[Any]], columns: Sequence[str]
    ) -> str: ...
    def terminate(self) -> None: ...


class _Pool(Protocol):
    def acquire(self, *, timeout: float | None = None) -> Awaitable[_Driver]: ...
    async def release(self, connection: _Driver) -> None: ...
    async def close(self) -> None: ...


@functools.lru_cache(maxsize=2048)
def _translate(sql: str) -> tuple[str, tuple[str, ...] | None]:
    """``?`` and ``:name`` parameters as ``$n``: the text, and the names in ``$n`` order (None
    for positional parameters). String literals and ``::`` casts are left alone."""
    names: list[str] = []
    count = 0

    def number(m: re.Match[str]) -> str:
        nonlocal count
        token = m.group(0)
        if token == "?":
            count += 1
            return f"${count}"
        if token.startswith(":") and token != "::":
            name = token[1:]
            if name not in names:
                names.append(name)
            return f"${names.index(name) + 1}"
        return token

    text = _PARAMETER.sub(number, sql)
    if count and names:
        raise ValueError("SQL mixes ? and :name parameters")
    return text, tuple(names) if names else None


def _arguments(sql: str, params: Params) -> tuple[str, Sequence[Any]]:
    text, names = _translate(sql)
    if names is None:
        if isinstance(params, Mapping):
            raise TypeError("positional SQL needs a sequence of parameters")
        return text, params
    if not isinstance(params, Mapping):
        raise TypeError("named SQL needs a mapping of parameters")
    return text, [params[n] for n in names]


def _integrity(e: asyncpg.IntegrityConstraintViolationError) -> IntegrityError:
    name = cast(str | None, getattr(e, "constraint_name", None))
    return IntegrityError(name or str(e), str(e))


def redact(url: str) -> str:
    """The URL without its password, for logs and reports."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class PgConnection(Connection):
    dialect = POSTGRES

    def __init__(self, conn: _Driver) -> None:
        self.driver = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        text, args = _arguments(sql, params)
        try:
            status = await self.driver.execute(text, *args)
        except asyncpg.IntegrityConstraintViolationError as e:
            raise _integrity(e) from e
        # The command tag: "UPDATE 3", "INSERT 0 1", "DELETE 0"… (the count comes last)
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        text, _ = _arguments(sql, ())
        try:
            await self.driver.executemany(text, rows)
        except asyncpg.IntegrityConstraintViolationError as e:
            raise _integrity(e) from e

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        text, args = _arguments(sql, params)
        try:
            records = await self.driver.fetch(text, *args)
        except asyncpg.IntegrityConstraintViolationError as e:
            raise _integrity(e) from e
        return [tuple(r) for r in records]

    async def copy_in(
        self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
    ) -> None:
        """Bulk-load rows with binary COPY (values must have the columns' exact types)."""
        await self.driver.copy_records_to_table(table, records=rows, columns=columns)


@dataclass(slots=True)
class _Pin:
    """The connection a task holds a table lock on; its reads and writes run there."""

    db: PostgresDatabase
    conn: _Driver
    active: bool = True


_PINNED: ContextVar[_Pin | None] = ContextVar("trionfi_pinned_connection", default=None)


class _AdvisoryLock(TableLock):
    """``pg_advisory_lock(table_id)`` held on one pooled connection (session level: it outlives
    the short transactions of the use case). A connection given back to the pool is reset,
    which releases every advisory lock on it, so a lock can never outlive its holder."""

    def __init__(self, db: PostgresDatabase, table_id: int) -> None:
        self._db = db
        self._key = table_id
        self._conn: _Driver | None = None
        self._pin: _Pin | None = None
        self._previous: _Pin | None = None

    async def try_acquire(self) -> bool:
        self._conn = await self._db.acquire()
        # Pinned from here on, held or not: what the task reads before it waits (the seq it
        # queued at) must not need a second pooled connection either.
        self._pin = _Pin(self._db, self._conn)
        self._previous = _PINNED.get()
        _PINNED.set(self._pin)
        return bool(await self._conn.fetchval("SELECT pg_try_advisory_lock($1)", self._key))

    async def acquire(self) -> None:
        assert self._conn is not None, "acquire follows try_acquire"
        try:
            async with asyncio.timeout(LOCK_WAIT):
                await self._conn.execute("SELECT pg_advisory_lock($1)", self._key)
        except TimeoutError:
            raise LockTimeout(f"table {self._key} stayed locked for {LOCK_WAIT:.0f} s") from None

    async def release(self) -> None:
        conn, self._conn = self._conn, None
        if self._pin is not None:
            self._pin.active = False  # tasks started while held must not use it later
            if _PINNED.get() is self._pin:  # (locks released out of order leave it alone)
                _PINNED.set(self._previous)
            self._pin = self._previous = None
        if conn is None:
            return
        try:
            await conn.execute("SELECT pg_advisory_unlock_all()")
        except BaseException:
            # Unknown whether the lock is still held (cancelled, connection broken): close the
            # session, which releases it for certain, rather than pool a connection holding it.
            conn.terminate()
            raise
        finally:
            await self._db.pool.release(conn)


async def _keep_session(conn: object) -> None:
    """Given back to the pool, a connection only has its transaction rolled back (asyncpg does
    that before this hook): the bot sets no session state, and the one thing a session may
    hold, a table's advisory lock, is released by ``_AdvisoryLock.release`` (or its connection
    closed). The default reset would cost a round trip on every pooled read."""


class PostgresDatabase(Database):
    """A pool of connections to one PostgreSQL database, shared with other processes."""

    dialect = POSTGRES

    def __init__(
        self, pool: _Pool, target: str, *, acquire_timeout: float = ACQUIRE_TIMEOUT
    ) -> None:
        self.pool = pool
        self.target = target
        self.acquire_timeout = acquire_timeout

    @classmethod
    async def connect(
        cls, url: str, *, pool_size: int = POOL_SIZE, acquire_timeout: float = ACQUIRE_TIMEOUT
    ) -> PostgresDatabase:
        try:
            pool = await asyncpg.create_pool(  # pyright: ignore[reportUnknownMemberType]
                dsn=url,
                min_size=1,
                max_size=pool_size,
                # The queries are short and planned in a few milliseconds: JIT compiling
                # them would cost more than it saves.
                server_settings={"application_name": "trionfi", "jit": "off"},
                reset=_keep_session,
            )
        except (OSError, asyncpg.PostgresError) as e:
            raise DatabaseError(f"cannot connect to {redact(url)}: {e}") from e
        return cls(cast(_Pool, pool), redact(url), acquire_timeout=acquire_timeout)

    async def close(self) -> None:
        await self.pool.close()

    async def acquire(self) -> _Driver:
        """A pooled connection, or ``PoolTimeout`` after ``acquire_timeout`` seconds."""
        try:
            return await self.pool.acquire(timeout=self.acquire_timeout)
        except TimeoutError:
            log.warning(
                "no database connection came free in %.1f s (pool full)", self.acquire_timeout
            )
            raise PoolTimeout(
                f"no pooled connection came free in {self.acquire_timeout:g} s"
            ) from None

    def _pinned(self) -> _Driver | None:
        pin = _PINNED.get()
        return pin.conn if pin is not None and pin.active and pin.db is self else None

    @asynccontextmanager
    async def _connection(self) -> AsyncGenerator[_Driver]:
        pinned = self._pinned()
        if pinned is not None:
            yield pinned
            return
        conn = await self.acquire()
        try:
            yield conn
        finally:
            await self.pool.release(conn)

    @asynccontextmanager
    async def transaction(self) -> AsyncGenerator[Connection]:
        async with self._connection() as conn, conn.transaction():
            yield PgConnection(conn)

    @asynccontextmanager
    async def read(self) -> AsyncGenerator[Connection]:
        async with self._connection() as conn:
            yield PgConnection(conn)

    def table_lock(self, table_id: int) -> TableLock:
        return _AdvisoryLock(self, table_id)

    async def schema_version(self) -> int:
        async with self.read() as conn:
            return await self._version(conn)

    @staticmethod
    async def _version(conn: Connection) -> int:
        row = await conn.fetchone("SELECT to_regclass('schema_migrations') IS NOT NULL")
        if row is None or not row[0]:
            return 0
        row = await conn.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return 0 if row is None else int(row[0])

    async def migrate(self) -> int:
        """As for SQLite, and safe when several processes start at once: each migration runs
        under a transaction-level advisory lock and re-reads the version first, so exactly one
        process applies it and the others find it done."""
        known = migrations(self.dialect.name)
        current = await self.schema_version()
        self._check_version(current, len(known))
        for version, name, sql in known:
            if version <= current:
                continue
            async with self.transaction() as conn:
                await conn.execute("SELECT pg_advisory_xact_lock(?, ?)", _MIGRATION_LOCK)
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations ("
                    "version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                    "applied_at DOUBLE PRECISION NOT NULL)"
                )
                if await self._version(conn) >= version:
                    current = version  # another process applied it meanwhile
                    continue
                log.info("applying migration postgres/%s", name)
                # A script of several statements: asyncpg runs it as one simple query.
                await cast(PgConnection, conn).driver.execute(sql)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (version, name, time.time()),
                )
            current = version
        return current
