"""A player's right to be forgotten: ratings and statistics deleted, stored records anonymised."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.db import daily, league, tournaments
from bot.db.database import Database


@dataclass(frozen=True, slots=True)
class Forgotten:
    open_tables: tuple[int, ...]  # lobby/playing tables still holding the user: nothing changed
    games: int  # finished games whose records were anonymised
    ratings: int  # games in which a rating was deleted


async def forget(
    db: Database,
    user_id: int,
    placeholder: str,
    marker: Callable[[str, str], str],
    today: str,
) -> Forgotten:
    """Delete the user's ratings, totals (all-time and rolling) and name; in every stored
    table, result and seat replace them by ``placeholder`` with no user id. Refused (nothing
    changed) while the user still sits at an open table, checked in the same transaction.

    ``marker(day, game_id)`` and ``today``: the daily deals stay played (``daily.forget``).
    """
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
        # In the order a finishing game locks these rows (``bot.db.ratings.record_finished``):
        # per-server totals, overall totals, then their rolling twins.
        totals = await conn.fetchall(
            "DELETE FROM player_totals WHERE player_id = ? RETURNING game_id, guild_id",
            (user_id,),
        )
        deleted = await conn.fetchall(
            "DELETE FROM player_games WHERE player_id = ? RETURNING game_id, mu IS NOT NULL",
            (user_id,),
        )
        ratings = sum(1 for r in deleted if r[1])
        if totals:
            await conn.executemany(
                "DELETE FROM rolling_totals WHERE game_id = ? AND guild_id = ? AND player_id = ?",
                [(g, guild, user_id) for g, guild in totals],
            )
        if deleted:
            await conn.executemany(
                "DELETE FROM rolling_games WHERE game_id = ? AND player_id = ?",
                [(r[0], user_id) for r in deleted],
            )
        await conn.execute("DELETE FROM players WHERE player_id = ?", (user_id,))
        await conn.execute("DELETE FROM deal_luck WHERE user_id = ?", (user_id,))
        games = await conn.execute(
            "UPDATE game_results SET user_id = NULL, player_id = NULL, name = ? "
            "WHERE player_id = ?",
            (placeholder, user_id),
        )
        # Games the user was replaced in count for no one, so their rows name no player_id.
        games += await conn.execute(
            "UPDATE game_results SET user_id = NULL, name = ? "
            "WHERE user_id = ? AND player_id IS NULL",
            (placeholder, user_id),
        )
        await conn.execute(
            "UPDATE seats SET user_id = NULL, name = ?, dm_channel_id = NULL, "
            "dm_message_id = NULL, language = NULL WHERE user_id = ?",
            (placeholder, user_id),
        )
        await conn.execute("UPDATE tables SET owner_id = 0 WHERE owner_id = ?", (user_id,))
        await daily.forget(conn, user_id, placeholder, marker, today)
        # League entries stay entered (issue 34): their markers use the same keyed hash.
        await league.forget(conn, user_id, placeholder, lambda s, g: marker(f"league-{s}", g))
        # Tournaments keep their standings (issue 34): the service withdrew the user first.
        await tournaments.forget(conn, user_id, placeholder)
    return Forgotten((), games, ratings)
