"""The databases the persistence and service tests run on: a SQLite file, and PostgreSQL when
``TEST_POSTGRES_URL`` names a server (``scripts/test-with-postgres`` and ``.ci/run`` start one).

Tests take ``db_target`` (a SQLite path or a PostgreSQL URL, for ``open_database``) or the
fixtures built on it; it is parametrised ``sqlite``/``postgres``, so the PostgreSQL half carries
``postgres`` in its test ids (``pytest -k postgres`` runs exactly that half). Without the
variable the ``postgres`` cases are skipped, with the reason in the summary.

One server per test session: the schema is migrated once into a template database, and every
test gets its own database copied from it (``CREATE DATABASE … TEMPLATE``), dropped after.
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


class PostgresServer:
    """Fresh migrated databases on the server of ``url``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.template = f"trionfi_template_{os.getpid()}"
        self._numbers = itertools.count(1)
        self._copy = ""  # how CREATE DATABASE copies the template (``start``)

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
        db = await open_database(_with_database(self.url, self.template))
        try:
            await db.migrate()
        finally:
            await db.close()

    async def stop(self) -> None:
        await self._admin(f"DROP DATABASE IF EXISTS {self.template} WITH (FORCE)")

    async def create(self, *, migrated: bool = True) -> str:
        """The URL of a new database: a copy of the migrated template, or empty."""
        name = f"trionfi_test_{os.getpid()}_{next(self._numbers)}"
        template = f" TEMPLATE {self.template}{self._copy}" if migrated else ""
        await self._admin(f"CREATE DATABASE {name}{template}")
        return _with_database(self.url, name)

    async def drop(self, url: str) -> None:
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
        await server.drop(url)


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
