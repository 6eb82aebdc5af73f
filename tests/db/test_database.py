"""Database: pragmas, migrations from zero, transactions that commit or leave nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.db.database import Database, DatabaseError, migrations
from bot.db.tables import SeatRecord, TableStore


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


async def test_no_statement_is_left_in_progress_when_results_are_retained(
    tmp_path: Path,
) -> None:
    """aiosqlite hands each cursor over through an asyncio Future; when something keeps those
    futures alive (SimCord does), an unread result row (``PRAGMA journal_mode`` returns one)
    keeps its statement "in progress" and the next COMMIT fails. Retain every future here."""
    loop = asyncio.get_running_loop()
    kept: list[asyncio.Future[Any]] = []
    create_future = loop.create_future

    def retaining() -> asyncio.Future[Any]:
        future = create_future()
        kept.append(future)
        return future

    loop.create_future = retaining  # type: ignore[method-assign]
    try:
        db = await Database.open(tmp_path / "t.sqlite3")
        try:
            assert await db.migrate() == len(migrations())
            store = TableStore(db)
            await store.create(
                guild_id=1,
                channel_id=2,
                game_id="la_morte",
                owner_id=3,
                players=4,
                options={},
                seed=5,
                rules_version=1,
                seats=[SeatRecord(0, 3, "Ana")],
                now=0.0,
            )
            assert await store.open_in_channel(2) is not None
            async with db.transaction() as conn:
                await conn.execute("UPDATE tables SET message_id = 1")
        finally:
            await db.close()
    finally:
        del loop.create_future  # type: ignore[attr-defined]
    assert kept
