"""The end-to-end games once more, on PostgreSQL: each module here re-runs one game's whole-game
tests from ``tests/e2e`` with the bots' database on the test session's PostgreSQL server (the
tests of Discord details only, such as component limits or autocomplete, run on SQLite)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.services.delivery import TableDelivery
from tests.backends import PostgresServer


@pytest_asyncio.fixture
async def bot_database(postgres_server: PostgresServer) -> AsyncIterator[str]:
    url = await postgres_server.create()
    yield url
    await postgres_server.drop(url)


@pytest.fixture(autouse=True)
def _no_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """No pictures drawn: these runs are about the database, and the pictures, the same on
    either backend, are tested on SQLite (``tests/e2e/test_pictures_e2e.py``); drawing them
    was a quarter of a whole game's time here."""

    async def never(self: TableDelivery, guild_id: int, user_id: int | None) -> bool:
        return False

    monkeypatch.setattr(TableDelivery, "pictures_on", never)
