"""A player's right to be forgotten: ratings and statistics deleted, stored records anonymised."""

from __future__ import annotations

from dataclasses import dataclass

from bot.db import daily
from bot.db.database import Database


@dataclass(frozen=True, slots=True)
class Forgotten:
    open_tables: tuple[int, ...]  # lobby/playing tables still holding the user: nothing changed
    games: int  # finished games whose records were anonymised
    ratings: int  # games in which a rating was deleted


async def forget(db: Database, user_id: int, placeholder: str) -> Forgotten:
    """Delete the user's ratings, totals and name; in every stored table, result and seat
    replace them by ``placeholder`` with no user id. Refused (nothing changed) while the user
    still sits at an open table, checked in the same transaction."""
    async with db.transaction() as conn:
        open_rows = await conn.fetchall(
            "SELECT t.id FROM seats s JOIN tables t ON t.id = s.table_id "
            "WHERE s.user_id = ? AND s.resigned = 0 AND t.status IN ('lobby', 'playing') "
            "ORDER BY t.id",
            (user_id,),
        )
        open_tables = tuple(r[0] for r in open_rows)
        if open_tables:
            return Forgotten(open_tables, 0, 0)
        deleted = await conn.fetchall(
            "DELETE FROM player_games WHERE player_id = ? RETURNING mu IS NOT NULL", (user_id,)
        )
        ratings = sum(1 for r in deleted if r[0])
        await conn.execute("DELETE FROM player_totals WHERE player_id = ?", (user_id,))
        await conn.execute("DELETE FROM players WHERE player_id = ?", (user_id,))
        games = await conn.execute(
            "UPDATE game_results SET user_id = NULL, player_id = NULL, name = ? "
            "WHERE player_id = ?",
            (placeholder, user_id),
        )
        await conn.execute(
            "UPDATE seats SET user_id = NULL, name = ?, dm_channel_id = NULL, "
            "dm_message_id = NULL, language = NULL WHERE user_id = ?",
            (placeholder, user_id),
        )
        await conn.execute("UPDATE tables SET owner_id = 0 WHERE owner_id = ?", (user_id,))
        await daily.forget(conn, user_id, placeholder)
    return Forgotten((), games, ratings)
