"""The databases the persistence and service tests run on: a SQLite file, and PostgreSQL when
``TEST_POSTGRES_URL`` names a server (``scripts/test-with-postgres`` and ``.ci/run`` start one).

Tests take ``db_target`` (a SQLite path or a PostgreSQL URL, for ``open_database``) or the
fixtures built on it; it is parametrised ``sqlite``/``postgres``, so the PostgreSQL half carries
``postgres`` in its test ids (``pytest -k postgres`` runs exactly that half). Without the
variable the ``postgres`` cases are skipped, with the reason in the summary.

One server per test session: the schema is migrated once into a template database, and every
test gets its own database copied from it (``CREATE DATABASE … TEMPLATE``), dropped after.
"""

from __future__ import annotations

import asyncio
import itertools
import os
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


class PostgresServer:
    """Fresh migrated databases on the server of ``url``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.template = f"trionfi_template_{os.getpid()}"
        self._numbers = itertools.count(1)

    async def _admin(self, sql: str) -> None:
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def start(self) -> None:
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
        template = f" TEMPLATE {self.template}" if migrated else ""
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

        async def sqlite_file(name: str) -> str:
            return str(tmp_path / f"{name}.sqlite3")

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
def bot_database(tmp_path: Path) -> str | Path:
    """Where a test's bots keep their data (``make_bot`` of ``tests/e2e``): a SQLite file;
    ``tests/e2e/postgres`` swaps in a PostgreSQL database."""
    return tmp_path / "trionfi.sqlite3"


@pytest.fixture
async def db(db_target: str) -> AsyncIterator[Database]:
    database = await open_database(db_target)
    await database.migrate()
    try:
        yield database
    finally:
        await database.close()
