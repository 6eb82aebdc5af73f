"""Statistics queries over finished games: leaderboards, player profiles and game history.

Every number is an SQL aggregate. All-time boards read ``player_totals`` (kept per game, server
and player when a game finishes); 30-day boards aggregate ``game_results`` over the
``game_results_guild_recent`` / ``game_results_recent`` indexes; profiles and history read one
player's rows through ``game_results_player``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.db.database import Database

METRICS = ("rating", "wins", "win_rate", "games", "points")

# metric -> (value, provisional flag, tie-breaks after the value)
_METRIC_SQL: dict[str, tuple[str, str, str]] = {
    "rating": ("rating", "rated < :provisional", "rated DESC, games DESC"),
    "wins": ("wins", "0", "points DESC, games ASC"),
    "win_rate": ("CAST(wins AS REAL) / games", "games < :provisional", "games DESC"),
    "games": ("games", "0", "wins DESC"),
    "points": ("points", "0", "games ASC"),
}
# Games in servers whose admins turned global leaderboards off never count globally.
_GLOBAL = "guild_id NOT IN (SELECT guild_id FROM guild_settings WHERE global_leaderboards = 0)"


@dataclass(frozen=True, slots=True)
class BoardEntry:
    position: int  # 1-based line of the whole board (pages cut it)
    rank: int  # shown rank; equal values share it
    player_id: int
    name: str  # the name the player last played under
    games: int
    wins: int
    points: int
    rating: float | None  # display rating in this game (None: never rated)
    rated_games: int
    provisional: bool  # listed after every established player


@dataclass(frozen=True, slots=True)
class BoardPage:
    total: int  # players on the whole board
    offset: int  # entries before this page (clamped to the last page)
    entries: tuple[BoardEntry, ...]  # this page
    me: BoardEntry | None  # the viewer's entry, on or off the page (None: not on the board)


async def leaderboard(
    db: Database,
    *,
    game_id: str,
    metric: str,
    guild_id: int | None,
    since: float | None,
    offset: int,
    size: int,
    viewer: int,
    provisional: int,
) -> BoardPage:
    """One page of a board plus the viewer's own entry, in one query.

    Humans only. ``guild_id`` None is the global board; ``since`` None is all time, else games
    finished at or after it (a rating board then lists players active since, by their current
    rating). An ``offset`` past the end shows the last page.
    """
    value, flag, ties = _METRIC_SQL[metric]
    scope = "guild_id = :guild" if guild_id is not None else _GLOBAL
    if since is None:
        source = (
            "SELECT player_id, SUM(games) AS games, SUM(wins) AS wins, SUM(points) AS points "
            f"FROM player_totals WHERE game_id = :game AND player_id > 0 AND {scope} "
            "GROUP BY player_id"
        )
    else:
        source = (
            "SELECT player_id, COUNT(*) AS games, SUM(won) AS wins, SUM(score) AS points "
            "FROM game_results WHERE game_id = :game AND finished_at >= :since "
            f"AND player_id > 0 AND {scope} GROUP BY player_id"
        )
    sql = (
        f"WITH agg AS ({source}), "
        "board AS (SELECT a.player_id, a.games, a.wins, a.points, r.display AS rating, "
        "COALESCE(r.games, 0) AS rated FROM agg a LEFT JOIN ratings r "
        "ON r.game_id = :game AND r.player_id = a.player_id), "
        f"valued AS (SELECT *, {value} AS value, {flag} AS provisional FROM board), "
        "ranked AS (SELECT *, "
        "ROW_NUMBER() OVER (ORDER BY provisional, value DESC NULLS LAST, "
        f"{ties}, player_id) AS pos, "
        "RANK() OVER (ORDER BY provisional, value DESC NULLS LAST) AS shown, "
        "COUNT(*) OVER () AS total FROM valued), "
        "paged AS (SELECT *, MIN(:offset, ((total - 1) / :size) * :size) AS lo FROM ranked) "
        "SELECT pos, shown, player_id, COALESCE(p.name, 'Unknown player'), games, wins, "
        "points, rating, rated, provisional, total, lo "
        "FROM paged LEFT JOIN players p USING (player_id) "
        "WHERE (pos > lo AND pos <= lo + :size) OR player_id = :viewer ORDER BY pos"
    )
    params: dict[str, Any] = {
        "game": game_id,
        "guild": guild_id,
        "since": since,
        "offset": max(0, offset),
        "size": size,
        "viewer": viewer,
        "provisional": provisional,
    }
    async with db.read() as conn:
        rows = list(await conn.execute_fetchall(sql, params))
    if not rows:
        return BoardPage(0, 0, (), None)
    total, lo = rows[0][10], rows[0][11]
    entries = [
        BoardEntry(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], bool(r[9])) for r in rows
    ]
    page = tuple(e for e in entries if lo < e.position <= lo + size)
    me = next((e for e in entries if e.player_id == viewer), None)
    return BoardPage(total, lo, page, me)


@dataclass(frozen=True, slots=True)
class GameStats:
    """One player's record in one game, over every server."""

    game_id: str
    games: int
    wins: int
    points: int
    deals: int
    last_at: float
    rating: float | None
    rated_games: int
    trend: float | None  # rating change over the trend window (None: no rated game in it)


@dataclass(frozen=True, slots=True)
class BestResult:
    game_id: str
    table_id: int
    place: int
    players: int
    score: int
    finished_at: float


@dataclass(frozen=True, slots=True)
class Profile:
    name: str | None  # last name played under (None: never played)
    games: tuple[GameStats, ...]  # most played first
    best: BestResult | None


async def profile(db: Database, player_id: int, trend_since: float) -> Profile:
    """A player's record per game, with rating, its trend since ``trend_since`` and best
    result (best place, then most players, then highest score)."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "WITH t AS (SELECT game_id, SUM(games) AS games, SUM(wins) AS wins, "
            "SUM(points) AS points, SUM(deals) AS deals, MAX(last_at) AS last_at "
            "FROM player_totals WHERE player_id = :p GROUP BY game_id), "
            # bare column next to MIN(): the rating before the first rated game in the window
            "first AS (SELECT game_id, rating - rating_delta AS before, MIN(finished_at) "
            "FROM game_results WHERE player_id = :p AND finished_at >= :since "
            "AND rating IS NOT NULL GROUP BY game_id) "
            "SELECT t.game_id, t.games, t.wins, t.points, t.deals, t.last_at, r.display, "
            "COALESCE(r.games, 0), r.display - first.before FROM t "
            "LEFT JOIN ratings r ON r.game_id = t.game_id AND r.player_id = :p "
            "LEFT JOIN first ON first.game_id = t.game_id "
            "ORDER BY t.games DESC, t.last_at DESC",
            {"p": player_id, "since": trend_since},
        )
        best = list(
            await conn.execute_fetchall(
                "SELECT g.game_id, g.table_id, g.place, t.players, g.score, g.finished_at "
                "FROM game_results g JOIN tables t ON t.id = g.table_id "
                "WHERE g.player_id = ? AND g.place IS NOT NULL "
                "ORDER BY g.place, t.players DESC, g.score DESC, g.finished_at DESC LIMIT 1",
                (player_id,),
            )
        )
        names = list(
            await conn.execute_fetchall(
                "SELECT name FROM players WHERE player_id = ?", (player_id,)
            )
        )
    return Profile(
        names[0][0] if names else None,
        tuple(GameStats(*r) for r in rows),
        BestResult(*best[0]) if best else None,
    )


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    name: str
    player_id: int | None  # < 0: a computer level; None: anonymised
    score: int
    place: int | None


@dataclass(frozen=True, slots=True)
class PastGame:
    """A finished game from one player's point of view."""

    table_id: int
    game_id: str
    finished_at: float
    place: int | None
    score: int
    won: bool
    rating_delta: float | None
    seats: tuple[SeatResult, ...]


async def history(
    db: Database, player_id: int, guild_id: int, game_id: str | None, limit: int
) -> tuple[int, list[PastGame]]:
    """The player's most recent finished games in one server (optionally one game), newest
    first, and how many there are in all."""
    game_filter = "AND g.game_id = :game " if game_id is not None else ""
    async with db.read() as conn:
        rows = list(
            await conn.execute_fetchall(
                "SELECT g.table_id, g.game_id, g.finished_at, g.place, g.score, g.won, "
                "g.rating_delta, (SELECT json_group_array(json_array(o.seat, o.name, o.player_id, "
                "o.score, o.place)) FROM game_results o WHERE o.table_id = g.table_id), "
                "COUNT(*) OVER () FROM game_results g "
                f"WHERE g.player_id = :p AND g.guild_id = :guild {game_filter}"
                "ORDER BY g.finished_at DESC, g.table_id DESC LIMIT :limit",
                {"p": player_id, "guild": guild_id, "game": game_id, "limit": limit},
            )
        )
    games = [
        PastGame(
            r[0],
            r[1],
            r[2],
            r[3],
            r[4],
            bool(r[5]),
            r[6],
            tuple(sorted((SeatResult(*s) for s in json.loads(r[7])), key=lambda s: s.seat)),
        )
        for r in rows
    ]
    return (rows[0][8] if rows else 0), games


async def most_played(db: Database, guild_id: int, game_ids: Sequence[str]) -> str | None:
    """The game with the most results in a server (None: nothing played there yet)."""
    if not game_ids:
        return None
    marks = ", ".join("?" * len(game_ids))
    async with db.read() as conn:
        rows = list(
            await conn.execute_fetchall(
                f"SELECT game_id FROM player_totals WHERE game_id IN ({marks}) AND guild_id = ? "
                "GROUP BY game_id ORDER BY SUM(games) DESC, game_id LIMIT 1",
                (*game_ids, guild_id),
            )
        )
    return rows[0][0] if rows else None
