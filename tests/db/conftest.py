"""Fixtures for the persistence tests: a real, migrated SQLite file per test."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from pathlib import Path

import pytest

from bot.db.database import Database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncGenerator[Database]:
    database = await Database.open(tmp_path / "trionfi.sqlite3")
    await database.migrate()
    try:
        yield database
    finally:
        await database.close()
