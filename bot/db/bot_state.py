"""What the bot remembers about itself between runs (``bot_state``), and the bulk updates of
start-up and upkeep: forgiving downtime, finding idle tables and a server's or channel's
tables."""

from __future__ import annotations

from bot.db.database import Database


async def get(db: Database, key: str) -> str | None:
    async with db.read() as conn:
        rows = list(
            await conn.execute_fetchall("SELECT value FROM bot_state WHERE key = ?", (key,))
        )
    return None if not rows else str(rows[0][0])


async def put(db: Database, key: str, value: str, now: float) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO bot_state (key, value, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
            "updated_at = excluded.updated_at",
            (key, value, now),
        )


async def shift_deadlines(db: Database, since: float, by: float) -> int:
    """Move every turn deadline, reminder and notification still pending at ``since`` later
    by ``by`` seconds; returns how many tables moved."""
    async with db.transaction() as conn:
        cur = await conn.execute(
            "UPDATE tables SET turn_deadline = turn_deadline + ?, "
            "reminder_at = CASE WHEN reminder_at IS NULL THEN NULL ELSE reminder_at + ? END, "
            "notify_at = CASE WHEN notify_at IS NULL OR notify_at <= ? THEN notify_at "
            "ELSE notify_at + ? END "
            "WHERE status = 'playing' AND turn_deadline IS NOT NULL AND turn_deadline > ?",
            (by, by, since, by, since),
        )
    return cur.rowcount


async def idle(db: Database, status: str, before: float) -> list[int]:
    """Tables of ``status`` unchanged since ``before``, oldest first."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
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
        rows = await conn.execute_fetchall(
            f"SELECT id FROM tables WHERE {column} = ? AND status IN ('lobby', 'playing') "
            "ORDER BY id",
            (value,),
        )
    return [int(r[0]) for r in rows]


async def count_open(db: Database) -> int:
    """Open (lobby or playing) tables across every server."""
    async with db.read() as conn:
        rows = list(
            await conn.execute_fetchall(
                "SELECT COUNT(*) FROM tables WHERE status IN ('lobby', 'playing')"
            )
        )
    return int(rows[0][0])
