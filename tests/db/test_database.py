"""Database: pragmas, migrations from zero, transactions that commit or leave nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.db.database import Database, DatabaseError, migrations


async def test_migrates_from_zero_and_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "t.sqlite3"  # parent folders are created
    db = await Database.open(path)
    try:
        assert await db.user_version() == 0
        latest = len(migrations())
        assert await db.migrate() == latest
        assert await db.user_version() == latest
        async with db.read() as conn:
            names = {
                r[0]
                for r in await conn.execute_fetchall(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                )
            }
            pragmas = [
                [r[0] for r in await conn.execute_fetchall(f"PRAGMA {name}")]
                for name in ("journal_mode", "foreign_keys", "synchronous")
            ]
        assert {"tables", "seats", "actions", "deal_results", "game_results"} <= names
        assert pragmas == [["wal"], [1], [1]]  # synchronous=NORMAL is 1
    finally:
        await db.close()
    db = await Database.open(path)  # reopening applies nothing new
    try:
        assert await db.migrate() == latest
    finally:
        await db.close()


async def test_memory_database(tmp_path: Path) -> None:
    db = await Database.open(":memory:")
    try:
        assert await db.migrate() == len(migrations())
    finally:
        await db.close()


async def test_refuses_a_newer_schema(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "t.sqlite3")
    try:
        async with db.transaction() as conn:
            await conn.execute("PRAGMA user_version = 999")
        with pytest.raises(DatabaseError, match="newer"):
            await db.migrate()
    finally:
        await db.close()


def test_migration_files_are_numbered_without_gaps() -> None:
    found = migrations()
    assert [v for v, _, _ in found] == list(range(1, len(found) + 1))
    assert found[0][1] == "0001_initial.sql"


async def test_transaction_failure_leaves_nothing(db: Database) -> None:
    class Boom(Exception):
        pass

    with pytest.raises(Boom):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO tables (guild_id, channel_id, game_id, owner_id, players, seed, "
                "rules_version, created_at, updated_at) VALUES (1, 2, 'la_morte', 3, 4, 5, 1, 0, 0)"
            )
            raise Boom
    async with db.read() as conn:
        rows = [tuple(r) for r in await conn.execute_fetchall("SELECT COUNT(*) FROM tables")]
        assert rows == [(0,)]
        assert not conn.in_transaction
    async with db.transaction() as conn:  # the connection is usable afterwards
        await conn.execute("SELECT 1")


async def test_foreign_keys_are_enforced(db: Database) -> None:
    import sqlite3

    with pytest.raises(sqlite3.IntegrityError):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO seats (table_id, seat, user_id, name) VALUES (42, 0, 1, 'x')"
            )
