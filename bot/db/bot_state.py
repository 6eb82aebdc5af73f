"""What the bot remembers about itself between runs (``bot_state``), and the bulk updates of
start-up and upkeep: forgiving downtime, finding idle tables and a server's or channel's
tables."""

from __future__ import annotations

from bot.db.database import Connection, Database


async def _get(conn: Connection, key: str, lock: str = "") -> str | None:
    row = await conn.fetchone(f"SELECT value FROM bot_state WHERE key = ?{lock}", (key,))
    return None if row is None else str(row[0])


async def _put(conn: Connection, key: str, value: str, now: float) -> None:
    await conn.execute(
        "INSERT INTO bot_state (key, value, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
        "updated_at = excluded.updated_at",
        (key, value, now),
    )


async def get(db: Database, key: str) -> str | None:
    async with db.read() as conn:
        return await _get(conn, key)


async def put(db: Database, key: str, value: str, now: float) -> None:
    async with db.transaction() as conn:
        await _put(conn, key, value, now)


async def forgive(db: Database, key: str, now: float, at_least: float) -> tuple[float, int]:
    """Downtime since the time stored under ``key`` (the last sign of life), and the turn
    clocks moved later by it when it is ``at_least`` seconds; ``key`` becomes ``now``.

    One transaction, the key's row locked: processes starting together forgive the downtime
    once (the second finds the first's ``now`` and nothing to forgive). Returns
    ``(downtime forgiven, tables moved)``; ``(0, 0)`` on the very first start.
    """
    async with db.transaction() as conn:
        last = await _get(conn, key, conn.dialect.for_update)
        await _put(conn, key, repr(now), now)
        if last is None or now - float(last) < at_least:
            return 0.0, 0
        down = now - float(last)
        moved = await conn.execute(
            "UPDATE tables SET turn_deadline = turn_deadline + ?, "
            "reminder_at = CASE WHEN reminder_at IS NULL THEN NULL ELSE reminder_at + ? END, "
            "notify_at = CASE WHEN notify_at IS NULL OR notify_at <= ? THEN notify_at "
            "ELSE notify_at + ? END "
            "WHERE status = 'playing' AND turn_deadline IS NOT NULL AND turn_deadline > ?",
            (down, down, float(last), down, float(last)),
        )
    return down, moved


async def idle(db: Database, status: str, before: float) -> list[int]:
    """Tables of ``status`` unchanged since ``before``, oldest first."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT id FROM tables WHERE status = ? AND updated_at < ? ORDER BY updated_at",
            (status, before),
        )
    return [r[0] for r in rows]


async def open_in(
    db: Database, *, guild_id: int | None = None, channel_id: int | None = None
) -> list[int]:
    """Open (lobby or playing) tables of a server or of a channel."""
    column, value = ("guild_id", guild_id) if guild_id is not None else ("channel_id", channel_id)
    async with db.read() as conn:
        rows = await conn.fetchall(
            f"SELECT id FROM tables WHERE {column} = ? AND status IN ('lobby', 'playing') "
            "ORDER BY id",
            (value,),
        )
    return [int(r[0]) for r in rows]


async def count_open(db: Database) -> int:
    """Open (lobby or playing) tables across every server."""
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT COUNT(*) FROM tables WHERE status IN ('lobby', 'playing')"
        )
    assert row is not None
    return int(row[0])
