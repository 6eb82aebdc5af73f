"""The PostgreSQL half's databases are reused within a worker (``tests/backends.py``): a
released database must come back exactly as the template is, or not at all."""

from __future__ import annotations

import asyncpg

from bot.db.backends import open_database
from tests.backends import PostgresServer


async def _contents(url: str) -> dict[str, object]:
    """Every public table's rows (sorted) and every sequence's position."""
    conn = await asyncpg.connect(url)
    try:
        tables = [
            r[0]
            for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            )
        ]
        out: dict[str, object] = {
            t: sorted(map(tuple, await conn.fetch(f'SELECT * FROM "{t}"')), key=repr)
            for t in tables
        }
        for (name,) in await conn.fetch("SELECT relname FROM pg_class WHERE relkind = 'S'"):
            out[name] = tuple(await conn.fetchrow(f'SELECT last_value, is_called FROM "{name}"'))
        return out
    finally:
        await conn.close()


async def test_a_released_database_comes_back_as_the_template(
    postgres_server: PostgresServer,
) -> None:
    url = await postgres_server.create()
    fresh = await _contents(url)
    db = await open_database(url)
    try:
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO tables (guild_id, channel_id, game_id, status, owner_id, players, "
                "options_json, seed, rules_version, seq, created_at, updated_at) "
                "VALUES (1, 2, 'la_morte', 'lobby', 3, 4, '{}', 5, 1, 0, 0, 0)"
            )
            await conn.execute("DELETE FROM rolling_window")
        # A session the test left open (a bot it did not close) does not keep it from reuse.
        await postgres_server.release(url)
    finally:
        await db.close()
    again = await postgres_server.create()
    try:
        assert again == url  # the same database, handed to the next test
        assert await _contents(again) == fresh
    finally:
        await postgres_server.release(again)


async def test_a_database_whose_schema_changed_is_dropped(
    postgres_server: PostgresServer,
) -> None:
    url = await postgres_server.create()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("ALTER TABLE user_settings ADD COLUMN extra INTEGER")
    finally:
        await conn.close()
    await postgres_server.release(url)
    other = await postgres_server.create()
    try:
        assert other != url
        admin = await asyncpg.connect(postgres_server.url)
        try:
            name = url.rsplit("/", 1)[1]
            assert not await admin.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name)
        finally:
            await admin.close()
    finally:
        await postgres_server.release(other)
