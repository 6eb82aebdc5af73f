"""The end-to-end games once more, on PostgreSQL: each module here re-runs one game's whole-game
tests from ``tests/e2e`` with the bots' database on the test session's PostgreSQL server (the
tests of Discord details only, such as component limits or autocomplete, run on SQLite)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from tests.backends import PostgresServer


@pytest_asyncio.fixture
async def bot_database(postgres_server: PostgresServer) -> AsyncIterator[str]:
    url = await postgres_server.create()
    yield url
    await postgres_server.release(url)
