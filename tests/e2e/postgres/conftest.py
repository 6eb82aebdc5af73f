"""The end-to-end games once more, on PostgreSQL: every module here re-runs one game's
``tests/e2e`` module with the bots' database on the test session's PostgreSQL server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from tests.backends import PostgresServer


@pytest_asyncio.fixture
async def bot_database(postgres_server: PostgresServer) -> AsyncIterator[str]:
    url = await postgres_server.create()
    yield url
    await postgres_server.drop(url)
