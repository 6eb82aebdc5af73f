"""Focused tests for what fuzzing (``test_fuzz.py``) found, one per bug."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.db.database import Database
from bot.services.errors import NotFound
from bot.services.tables import TableService


async def test_a_table_id_beyond_sqlite_integers_names_no_table(tmp_path: Path) -> None:
    """Found by fuzzing: ``tb:10000000000000000000000000:hand`` reached SQLite and failed
    with OverflowError ("Something went wrong") instead of "That table no longer exists"."""
    db = await Database.open(tmp_path / "ids.sqlite3")
    await db.migrate()
    try:
        service = TableService(db)
        for table_id in (10**25, 1 << 63, -(1 << 64)):
            with pytest.raises(NotFound):
                await service.act(table_id, 1, {"type": "play", "card": "S7"})
            with pytest.raises(NotFound):
                await service.snapshot(table_id, 1)
    finally:
        await db.close()
