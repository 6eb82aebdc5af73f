"""The databases the persistence and service tests run on: a SQLite file, and PostgreSQL when
``TEST_POSTGRES_URL`` names a server (``scripts/test-with-postgres`` and ``.ci/run`` start one).

Tests take ``db_target`` (a SQLite path or a PostgreSQL URL, for ``open_database``) or the
fixtures built on it; it is parametrised ``sqlite``/``postgres``, so the PostgreSQL half carries
``postgres`` in its test ids (``pytest -k postgres`` runs exactly that half). Without the
variable the ``postgres`` cases are skipped, with the reason in the summary.

One server per test session: the schema is migrated once into a template database per worker,
and every test gets a database of its own copied from it (``CREATE DATABASE … TEMPLATE``). A
test's database is then handed to the worker's next test instead of being dropped, once put
back as the template has it (``PostgresServer.release``): rows deleted and the template's put
back, sequences reset, its sessions ended; one whose schema the test changed (a migration
rolled back, say) is dropped. Copying and dropping a database cost 35–200 ms a test (a copy
checkpoints the whole server, busy with the other worker), the reset a few.
SQLite likewise: each worker migrates one file (``sqlite_template``) and a test's database
starts as a copy of it (``migrated_sqlite``): migrating a new file from zero takes 25–50 ms, and
the suite makes over a thousand. The bots and services still run their own ``migrate()`` on
it (a no-op on a migrated file), and ``tests/db/test_database.py`` migrates from zero.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.db.backends import open_database
from bot.db.database import Database

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL") or None
SKIP_REASON = (
    "PostgreSQL half not run: TEST_POSTGRES_URL is not set "
    "(scripts/test-with-postgres starts a throwaway server and sets it)"
)
BACKENDS = ("sqlite", "postgres")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Without a server, mark the PostgreSQL half skipped up front: pytest then folds the
    skips into one summary line per file, reason included (``-rs`` in pyproject)."""
    if POSTGRES_URL is not None:
        return
    skip = pytest.mark.skip(reason=SKIP_REASON)
    for item in items:
        if "postgres" in item.nodeid:  # what ``pytest -k postgres`` selects
            item.add_marker(skip)


def _run(coro: Coroutine[Any, Any, None]) -> None:
    """Run ``coro`` to the end on its own loop in another thread: the session fixture is set
    up from inside a test's running loop, where ``asyncio.run`` is not allowed."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, coro).result()


def _with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


async def _migrate_sqlite(path: Path) -> None:
    db = await open_database(path)
    try:
        await db.migrate()
    finally:
        await db.close()  # checkpointed: the whole database is in the one file


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file, made once per test process."""
    path = tmp_path_factory.mktemp("template") / "trionfi.sqlite3"
    _run(_migrate_sqlite(path))
    return path


def migrated_sqlite(template: Path, path: Path) -> Path:
    """``path``: a new SQLite database, a copy of the migrated ``template``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, path)
    return path


#: The schema's fingerprint: columns, defaults, constraints, indexes, functions, triggers and
#: the migrations applied (a test that changed any of them leaves a database not reused).
_SCHEMA = """
SELECT md5(string_agg(x, E'\\n' ORDER BY x)) FROM (
    SELECT c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
           || ' ' || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '') AS x
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
    UNION ALL
    SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL
    SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL
    SELECT proname || ' ' || md5(prosrc) FROM pg_proc WHERE pronamespace = 'public'::regnamespace
    UNION ALL
    SELECT tgrelid::regclass || ' ' || tgname FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL
    SELECT 'migration ' || version || ' ' || name FROM schema_migrations
) schema
"""
#: Sessions other than this one (a test's bots, processes it killed) end, their locks with them.
_END_OTHER_SESSIONS = (
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
)


class _Reset:
    """Puts a copy of the template back as the template is: every table's rows (foreign keys
    not checked: all of them are replaced at once), and every sequence's position."""

    def __init__(
        self,
        schema: str,
        rows: dict[str, list[asyncpg.Record]],
        sequences: list[tuple[str, int, bool]],
    ) -> None:
        self.schema = schema
        self.rows = rows
        self.sequences = sequences
        # One round trip; SET LOCAL lasts until the transaction's end.
        self._empty = "SET LOCAL session_replication_role = replica; " + " ".join(
            f'DELETE FROM "{t}";' for t in rows
        )

    @classmethod
    async def read(cls, conn: asyncpg.Connection) -> _Reset:
        """What the template holds (its schema's fingerprint, rows, sequences)."""
        tables = [
            r[0]
            for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                "AND tablename <> 'schema_migrations' ORDER BY tablename"
            )
        ]
        rows = {t: await conn.fetch(f'SELECT * FROM "{t}"') for t in tables}
        sequences: list[tuple[str, int, bool]] = []
        for (name,) in await conn.fetch(
            "SELECT relname FROM pg_class WHERE relkind = 'S' "
            "AND relnamespace = 'public'::regnamespace"
        ):
            at = await conn.fetchrow(f'SELECT last_value, is_called FROM "{name}"')
            assert at is not None
            sequences.append((name, at[0], at[1]))
        return cls(str(await conn.fetchval(_SCHEMA)), rows, sequences)

    async def run(self, conn: asyncpg.Connection) -> None:
        async with conn.transaction():
            await conn.execute(self._empty)
            for table, records in self.rows.items():
                if records:
                    await conn.copy_records_to_table(
                        table, records=records, columns=list(records[0].keys())
                    )
            for name, value, called in self.sequences:
                await conn.execute("SELECT setval($1::regclass, $2, $3)", name, value, called)


class PostgresServer:
    """Fresh migrated databases on the server of ``url``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.template = f"trionfi_template_{os.getpid()}"
        self._numbers = itertools.count(1)
        self._copy = ""  # how CREATE DATABASE copies the template (``start``)
        self._reset: _Reset | None = None  # how a copy is put back as the template is
        self._copies: set[str] = set()  # this worker's copies of the template
        self._free: list[str] = []  # copies released by their test, as the template is

    async def _admin(self, sql: str) -> None:
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def start(self) -> None:
        conn = await asyncpg.connect(self.url)
        try:
            version = int(await conn.fetchval("SHOW server_version_num"))
        finally:
            await conn.close()
        # PostgreSQL 15 copies a template through the write-ahead log by default, made for big
        # templates; the file copy is faster for this small one (~55 against ~75 ms a test).
        self._copy = " STRATEGY FILE_COPY" if version >= 150000 else ""
        await self._admin(f"DROP DATABASE IF EXISTS {self.template}")
        await self._admin(f"CREATE DATABASE {self.template}")
        url = _with_database(self.url, self.template)
        db = await open_database(url)
        try:
            await db.migrate()
        finally:
            await db.close()
        conn = await asyncpg.connect(url)
        try:
            self._reset = await _Reset.read(conn)
        finally:
            await conn.close()

    async def stop(self) -> None:
        await self._admin(f"DROP DATABASE IF EXISTS {self.template} WITH (FORCE)")

    async def create(self, *, migrated: bool = True) -> str:
        """The URL of a database of its own: a copy of the migrated template (one a test has
        released, if there is one), or empty."""
        if migrated and self._free:
            return self._free.pop()
        name = f"trionfi_test_{os.getpid()}_{next(self._numbers)}"
        template = f" TEMPLATE {self.template}{self._copy}" if migrated else ""
        await self._admin(f"CREATE DATABASE {name}{template}")
        url = _with_database(self.url, name)
        if migrated:
            self._copies.add(url)
        return url

    async def release(self, url: str) -> None:
        """A test is done with ``url``: kept for the next test if it is a copy of the template
        whose schema is still the template's, put back as the template has it; else
        dropped."""
        if url in self._copies and self._reset is not None:
            conn = await asyncpg.connect(url)
            try:
                await conn.execute(_END_OTHER_SESSIONS)
                if await conn.fetchval(_SCHEMA) == self._reset.schema:
                    await self._reset.run(conn)
                    self._free.append(url)
                    return
            finally:
                await conn.close()
        await self.drop(url)

    async def drop(self, url: str) -> None:
        self._copies.discard(url)
        name = urlsplit(url).path.lstrip("/")
        await self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    if POSTGRES_URL is None:
        pytest.skip(SKIP_REASON)
    server = PostgresServer(POSTGRES_URL)
    _run(server.start())
    yield server
    _run(server.stop())


#: Makes another database of the test's backend: (name) -> a SQLite path or PostgreSQL URL.
MakeTarget = Callable[[str], Awaitable[str]]


@pytest.fixture(params=BACKENDS)
async def make_target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[MakeTarget]:
    """Factory of fresh, migrated databases of the test's backend, removed after the test."""
    if request.param == "sqlite":
        template: Path = request.getfixturevalue("sqlite_template")

        async def sqlite_file(name: str) -> str:
            return str(migrated_sqlite(template, tmp_path / f"{name}.sqlite3"))

        yield sqlite_file
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    made: list[str] = []

    async def postgres_database(name: str) -> str:
        made.append(await server.create())
        return made[-1]

    yield postgres_database
    for url in made:
        await server.release(url)


@pytest.fixture
async def db_target(make_target: MakeTarget) -> str:
    """The test's database: a SQLite file path, or a PostgreSQL URL."""
    return await make_target("trionfi")


@pytest.fixture
def bot_database(tmp_path: Path, sqlite_template: Path) -> str | Path:
    """Where a test's bots keep their data (``make_bot`` of ``tests/e2e``): a migrated SQLite
    file; ``tests/e2e/postgres`` swaps in a PostgreSQL database."""
    return migrated_sqlite(sqlite_template, tmp_path / "trionfi.sqlite3")


@pytest.fixture
async def db(db_target: str) -> AsyncIterator[Database]:
    database = await open_database(db_target)
    await database.migrate()
    try:
        yield database
    finally:
        await database.close()
