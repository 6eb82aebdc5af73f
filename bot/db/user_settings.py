"""A player's own settings: turn notifications (``/notify``), pictures (``/pictures``) and
the language of their DMs (``/language``)."""

from __future__ import annotations

from bot.db.database import Database

NEVER = -1  # stored notify_delay meaning "never notify me"


async def notify_delay(db: Database, user_id: int) -> int | None:
    """The stored delay in seconds (``NEVER`` = off), or None for the default."""
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT notify_delay FROM user_settings WHERE user_id = ?", (user_id,)
        )
    return None if row is None else row[0]


async def set_notify_delay(db: Database, user_id: int, delay: int | None, now: float) -> None:
    """Store the delay (``None``: back to the default, ``NEVER``: off)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO user_settings (user_id, notify_delay, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET notify_delay = excluded.notify_delay, "
            "updated_at = excluded.updated_at",
            (user_id, delay, now),
        )


async def pictures(db: Database, user_id: int) -> bool | None:
    """The user's own choice about pictures (None: the server's default)."""
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT pictures FROM user_settings WHERE user_id = ?", (user_id,)
        )
    return None if row is None or row[0] is None else bool(row[0])


async def set_pictures(db: Database, user_id: int, on: bool | None, now: float) -> None:
    """Store the user's choice about pictures (None: back to the server's default)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO user_settings (user_id, pictures, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET pictures = excluded.pictures, "
            "updated_at = excluded.updated_at",
            (user_id, None if on is None else int(on), now),
        )


async def language(db: Database, user_id: int) -> str | None:
    """The language the user chose for their DMs (None: the one they joined a table in)."""
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT language FROM user_settings WHERE user_id = ?", (user_id,)
        )
    return None if row is None else row[0]


async def languages(db: Database, user_ids: list[int]) -> dict[int, str]:
    """The chosen DM languages of ``user_ids`` that chose one."""
    if not user_ids:
        return {}
    marks = ", ".join("?" for _ in user_ids)
    async with db.read() as conn:
        rows = await conn.fetchall(
            f"SELECT user_id, language FROM user_settings WHERE user_id IN ({marks}) "
            "AND language IS NOT NULL",
            tuple(user_ids),
        )
    return {int(r[0]): str(r[1]) for r in rows}


async def set_language(db: Database, user_id: int, language: str | None, now: float) -> None:
    """Store the user's DM language (None: back to the one they join tables in)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO user_settings (user_id, language, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, "
            "updated_at = excluded.updated_at",
            (user_id, language, now),
        )
