"""Statistics queries over finished games: per-server, per-game leaderboards."""

from __future__ import annotations

from dataclasses import dataclass

from bot.db.database import Database


@dataclass(frozen=True, slots=True)
class BoardRow:
    user_id: int
    name: str  # the name used at the user's most recent game
    games: int
    wins: int
    points: int


async def leaderboard(db: Database, guild_id: int, game_id: str, limit: int = 10) -> list[BoardRow]:
    """Humans ranked by games won, then total points (sum of final scores), then fewer games.

    Uses the ``game_results_board`` index. The bare ``name`` column next to ``MAX(finished_at)``
    is SQLite's documented "bare column of the max row" behaviour: the latest name wins.
    """
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT user_id, name, COUNT(*) AS games, SUM(won) AS wins, SUM(score) AS points, "
            "MAX(finished_at) FROM game_results "
            "WHERE guild_id = ? AND game_id = ? AND user_id IS NOT NULL "
            "GROUP BY user_id ORDER BY wins DESC, points DESC, games ASC, user_id ASC LIMIT ?",
            (guild_id, game_id, max(0, limit)),
        )
    return [BoardRow(r[0], r[1], r[2], r[3], r[4]) for r in rows]
