"""Focused tests for what fuzzing (``test_fuzz.py``) found, one per bug."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.db.database import Database
from bot.services.errors import NotFound
from bot.services.tables import TableService
from tests.resilience.drive import logged_errors, make_world, raw_slash


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


@pytest.mark.parametrize(
    ("command", "sub", "option"),
    [
        ("oldtarot", "play", {"name": "card", "type": 3, "value": True}),
        ("lamorte", "bid", {"name": "amount", "type": 4, "value": "abc"}),
        ("lamorte", "new", {"name": "seats", "type": 4, "value": 3.5}),
        ("tarot", "chelem", {"name": "announce", "type": 5, "value": "yes"}),
        ("lamorte", "new", {"name": "computers", "type": 4, "value": None}),
    ],
)
async def test_a_wrong_typed_option_is_refused_politely(
    command: str, sub: str, option: dict[str, Any], simcord_env: simcord.Env
) -> None:
    """Found by fuzzing: ``/oldtarot play card:True`` (a command tree out of sync with the
    code can send that) raised AttributeError in the command ("Something went wrong", logged
    as an error); now the option is refused by name before any command code runs."""
    world = make_world(simcord_env, 1)
    member = world.members[0]
    with logged_errors() as errors:
        r = await raw_slash(world, member.id, world.channel.id, command, sub, [option])
    assert r.ephemeral and r.response is not None
    assert r.response.content.startswith("⚠️") and f"**{option['name']}**" in r.response.content
    assert not errors.records, [x.getMessage() for x in errors.records]
