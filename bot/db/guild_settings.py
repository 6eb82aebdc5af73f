"""Per-server settings chosen by its admins (``/trionfi settings``)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.db.database import Database


@dataclass(frozen=True, slots=True)
class GuildSettingsRecord:
    guild_id: int
    channels: tuple[int, ...] = ()  # channels where tables may be opened; () = anywhere
    turn_clock: str = "off"  # default turn clock of new tables
    computers_allowed: bool = True
    global_leaderboards: bool = True
    pictures: bool = True  # pictures of the table and hands, unless a player turns them off
    language: str | None = None  # new tables' language; None: the server's Discord language


async def get(db: Database, guild_id: int) -> GuildSettingsRecord:
    """The server's settings (the defaults if its admins never changed them)."""
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT channels_json, turn_clock, computers_allowed, global_leaderboards, "
            "pictures, language FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
    if row is None:
        return GuildSettingsRecord(guild_id)
    return GuildSettingsRecord(
        guild_id,
        tuple(json.loads(row[0])),
        row[1],
        bool(row[2]),
        bool(row[3]),
        bool(row[4]),
        row[5],
    )


async def put(db: Database, record: GuildSettingsRecord, now: float) -> None:
    """Store the server's settings (insert or replace)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, channels_json, turn_clock, computers_allowed, "
            "global_leaderboards, pictures, language, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET channels_json = excluded.channels_json, "
            "turn_clock = excluded.turn_clock, computers_allowed = excluded.computers_allowed, "
            "global_leaderboards = excluded.global_leaderboards, pictures = excluded.pictures, "
            "language = excluded.language, updated_at = excluded.updated_at",
            (
                record.guild_id,
                json.dumps(sorted(record.channels)),
                record.turn_clock,
                int(record.computers_allowed),
                int(record.global_leaderboards),
                int(record.pictures),
                record.language,
                now,
            ),
        )
