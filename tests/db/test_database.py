"""Database: pragmas, migrations from zero (each dialect's history), transactions that commit
or leave nothing, constraint errors in one vocabulary, and PostgreSQL's shared bookkeeping."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.db.backends import open_database
from bot.db.database import Database, DatabaseError, IntegrityError, migrations
from bot.db.tables import SeatRecord, TableStore
from tests.backends import PostgresServer


async def test_migrates_from_zero_and_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "t.sqlite3"  # parent folders are created
    db = await open_database(path)
    try:
        assert await db.user_version() == 0
        latest = len(migrations())
        assert await db.migrate() == latest
        assert await db.user_version() == latest
        async with db.read() as conn:
            names = {
                r[0]
                for r in await conn.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            pragmas = [
                [r[0] for r in await conn.fetchall(f"PRAGMA {name}")]
                for name in ("journal_mode", "foreign_keys", "synchronous")
            ]
        assert {"tables", "seats", "actions", "deal_results", "game_results"} <= names
        assert pragmas == [["wal"], [1], [1]]  # synchronous=NORMAL is 1
    finally:
        await db.close()
    db = await open_database(path)  # reopening applies nothing new
    try:
        assert await db.migrate() == latest
    finally:
        await db.close()


async def test_memory_database(tmp_path: Path) -> None:
    db = await open_database(":memory:")
    try:
        assert await db.migrate() == len(migrations())
    finally:
        await db.close()


async def test_refuses_a_newer_schema(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "t.sqlite3")
    try:
        async with db.transaction() as conn:
            await conn.execute("PRAGMA user_version = 999")
        with pytest.raises(DatabaseError, match="newer"):
            await db.migrate()
    finally:
        await db.close()


@pytest.mark.parametrize("dialect", ["sqlite", "postgres"])
def test_migration_files_are_numbered_without_gaps(dialect: str) -> None:
    found = migrations(dialect)
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
        assert await conn.fetchall("SELECT COUNT(*) FROM tables") == [(0,)]
    async with db.transaction() as conn:  # the connection is usable afterwards
        assert await conn.fetchone("SELECT 1") == (1,)


async def test_foreign_keys_are_enforced(db: Database) -> None:
    with pytest.raises(IntegrityError):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO seats (table_id, seat, user_id, name) VALUES (42, 0, 1, 'x')"
            )


async def test_parameters_counts_and_snowflakes(db: Database) -> None:
    """``?`` and ``:name`` parameters, changed-row counts, ``RETURNING`` and 64-bit ids read
    back exactly, on both backends; a ``?`` inside a string literal is text."""
    snowflake = 1_234_567_890_123_456_789
    async with db.transaction() as conn:
        row = await conn.fetchone(
            "INSERT INTO tables (guild_id, channel_id, game_id, owner_id, players, seed, "
            "rules_version, created_at, updated_at) VALUES (?, ?, 'la_morte', ?, 4, ?, 1, 0.5, 0) "
            "RETURNING id",
            (snowflake, snowflake + 1, snowflake + 2, (1 << 62) + 3),
        )
        assert row is not None
        table_id = row[0]
        await conn.executemany(
            "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
            [(table_id, 0, snowflake, "what?"), (table_id, 1, None, "Bot")],
        )
        changed = await conn.execute(
            "UPDATE seats SET dm_failed = 1 WHERE table_id = :t AND name <> ':t?'", {"t": table_id}
        )
    assert changed == 2
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT t.guild_id, t.owner_id, t.seed, t.created_at, s.user_id, s.name "
            "FROM tables t JOIN seats s ON s.table_id = t.id WHERE t.channel_id = ? "
            "ORDER BY s.seat",
            (snowflake + 1,),
        )
        assert await conn.fetchone("SELECT id FROM tables WHERE id = ?", (-1,)) is None
    assert rows == [
        (snowflake, snowflake + 2, (1 << 62) + 3, 0.5, snowflake, "what?"),
        (snowflake, snowflake + 2, (1 << 62) + 3, 0.5, None, "Bot"),
    ]
    record = await TableStore(db).get(table_id)
    assert record is not None and record.seats[0].user_id == snowflake  # through the JSON too


async def test_unique_constraints_have_one_name_on_both_backends(db: Database) -> None:
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
    with pytest.raises(IntegrityError) as refused:
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO tables (guild_id, channel_id, game_id, owner_id, players, seed, "
                "rules_version, created_at, updated_at) VALUES (1, 2, 'la_morte', 3, 4, 5, 1, 0, 0)"
            )
    assert refused.value.constraint == "tables_open_channel"


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
        db = await open_database(tmp_path / "t.sqlite3")
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


# ---- PostgreSQL only ------------------------------------------------------------------------


async def test_postgres_migrates_from_zero_once_with_concurrent_starts(
    postgres_server: PostgresServer,
) -> None:
    """Three processes starting together on an empty database: the schema is created once,
    recorded in ``schema_migrations``, and a database newer than the bot is refused."""
    url = await postgres_server.create(migrated=False)
    dbs = [await open_database(url) for _ in range(3)]
    try:
        assert await dbs[0].schema_version() == 0
        latest = len(migrations("postgres"))
        assert await asyncio.gather(*(d.migrate() for d in dbs)) == [latest] * 3
        async with dbs[0].read() as conn:
            recorded = await conn.fetchall("SELECT version, name FROM schema_migrations")
            assert [v for v, _ in recorded] == list(range(1, latest + 1))
            await conn.execute("INSERT INTO schema_migrations VALUES (999, 'future', 0)")
        with pytest.raises(DatabaseError, match="newer"):
            await dbs[1].migrate()
    finally:
        for d in dbs:
            await d.close()
        await postgres_server.drop(url)


async def test_postgres_schema_matches_sqlite(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    """Both migration histories end at the same tables and columns (in the same order, so a
    copy maps column for column)."""
    url = await postgres_server.create()
    lite = await open_database(tmp_path / "t.sqlite3")
    pg = await open_database(url)
    try:
        await lite.migrate()
        async with lite.read() as conn:
            names = [
                r[0]
                for r in await conn.fetchall(
                    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
                )
            ]
            sqlite_columns = {
                n: [r[1] for r in await conn.fetchall(f"PRAGMA table_info({n})")] for n in names
            }
        async with pg.read() as conn:
            rows = await conn.fetchall(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = 'public' AND table_name <> 'schema_migrations' "
                "ORDER BY table_name, ordinal_position"
            )
        postgres_columns: dict[str, list[str]] = {}
        for table, column in rows:
            postgres_columns.setdefault(table, []).append(column)
        assert postgres_columns == sqlite_columns
    finally:
        await lite.close()
        await pg.close()
        await postgres_server.drop(url)


async def test_postgres_url_password_is_not_kept_for_logs(postgres_server: PostgresServer) -> None:
    url = await postgres_server.create()
    parts = url.split("://", 1)
    user_host = parts[1].split("@", 1)
    secret = f"{parts[0]}://{user_host[0]}:s3cret@{user_host[1]}"  # trust auth ignores it
    db = await open_database(secret)
    try:
        assert "s3cret" not in db.target and "***" in db.target
    finally:
        await db.close()
        await postgres_server.drop(url)


async def test_postgres_unreachable_server_is_a_database_error() -> None:
    with pytest.raises(DatabaseError, match="cannot connect"):
        await open_database("postgresql://nobody@127.0.0.1:1/none")
