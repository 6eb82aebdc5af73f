"""Statistics queries over finished games: leaderboards, player profiles and game history.

Every number is an SQL aggregate. All-time boards read the running totals kept when a game
finishes (``player_games`` over every server, ``player_totals`` per server); recent (30-day)
boards read the rolling totals of ``bot.db.rolling`` (``rolling_games``, ``rolling_totals``),
corrected to the exact start asked for; profiles and history read one player's rows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.db import rolling
from bot.db.database import Database
from bot.db.dialect import Dialect

METRICS = ("rating", "wins", "win_rate", "games", "points")

# A board's order as an ascending sort key (k1, k2, k3, k4, player_id), so "ranked before" is
# one row-value comparison: provisional players last, then the metric, then tie-breaks.
_KEYS: dict[str, tuple[str, str, str, str]] = {
    "rating": ("rated < :provisional", "COALESCE(-rating, 1e308)", "-rated", "-games"),
    "wins": ("0", "-wins", "-points", "games"),
    "win_rate": ("games < :provisional", "-CAST(wins AS DOUBLE PRECISION) / games", "-games", "0"),
    "games": ("0", "-games", "-wins", "0"),
    "points": ("0", "-points", "games", "0"),
}
_OPTED_OUT = rolling.OPTED_OUT


@dataclass(frozen=True, slots=True)
class BoardEntry:
    position: int  # 1-based line of the whole board: the rank shown
    player_id: int
    name: str  # the name the player last played under
    games: int
    wins: int
    points: int
    rating: float | None  # current rating in this game (rating boards only; None: unrated)
    rated_games: int
    provisional: bool  # listed after every established player


@dataclass(frozen=True, slots=True)
class BoardPage:
    total: int  # players on the whole board
    offset: int  # entries before this page (clamped to the last page)
    entries: tuple[BoardEntry, ...]  # this page
    me: BoardEntry | None  # the viewer's entry, on or off the page (None: not on the board)


def _source(dialect: Dialect, global_: bool, recent: bool, rated: bool) -> str:
    """``player_id, games, wins, points, rating, rated`` of everyone on the board (ratings
    only when ``rated``: the join costs a lookup per player)."""
    rating = (
        "g.rating, COALESCE(g.rated, 0) AS rated"
        if rated
        else "CAST(NULL AS DOUBLE PRECISION) AS rating, 0 AS rated"
    )
    join = "LEFT JOIN player_games g ON g.game_id = :game AND g.player_id = {}.player_id "
    if recent:
        return (
            f"SELECT r.player_id, r.games, r.wins, r.points, {rating} "
            f"FROM ({rolling.board_rows(dialect, global_)}) AS r "
            + (join.format("r") if rated else "")
        )
    if global_:
        # Every server's totals, less those of servers that opted out (usually none).
        return (
            "SELECT g.player_id, g.games - COALESCE(x.games, 0) AS games, "
            "g.wins - COALESCE(x.wins, 0) AS wins, g.points - COALESCE(x.points, 0) AS points, "
            "g.rating, g.rated FROM player_games g "
            "LEFT JOIN (SELECT player_id, SUM(games) AS games, SUM(wins) AS wins, "
            "SUM(points) AS points FROM player_totals WHERE game_id = :game "
            f"AND guild_id IN ({_OPTED_OUT}) GROUP BY player_id) AS x USING (player_id) "
            "WHERE g.game_id = :game AND g.player_id > 0 AND g.games > COALESCE(x.games, 0)"
        )
    return (
        f"SELECT t.player_id, t.games, t.wins, t.points, {rating} FROM player_totals t "
        + (join.format("t") if rated else "")
        + "WHERE t.game_id = :game AND t.guild_id = :guild AND t.player_id > 0"
    )


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
    """One page of a board, the viewer's own entry and the board's size, in one query.

    Humans only. ``guild_id`` None is the global board; ``since`` None is all time, else games
    finished at or after it (a rating board then lists players active since, by their current
    rating). An ``offset`` past the end shows the last page.

    The board is materialised once; the page is a top-N sort over it, the viewer's position a
    count of the entries ranked before them (no window function has to sort every entry).
    """
    k1, k2, k3, k4 = _KEYS[metric]
    source = _source(db.dialect, guild_id is None, since is not None, metric == "rating")
    sql = (
        f"WITH keyed AS MATERIALIZED (SELECT *, {k1} AS k1, {k2} AS k2, {k3} AS k3, {k4} AS k4 "
        f"FROM ({source}) AS board), "
        "size (total, lo) AS (SELECT COUNT(*), "
        f"{db.dialect.least}(:offset, {db.dialect.greatest}(0, (COUNT(*) - 1) / :size * :size)) "
        "FROM keyed), "
        "page AS (SELECT *, ROW_NUMBER() OVER (ORDER BY k1, k2, k3, k4, player_id) AS n "
        "FROM (SELECT * FROM keyed ORDER BY k1, k2, k3, k4, player_id "
        "LIMIT :size OFFSET (SELECT lo FROM size)) AS top), "
        "me AS (SELECT *, (SELECT COUNT(*) FROM keyed k "
        "WHERE (k.k1, k.k2, k.k3, k.k4, k.player_id) < (m.k1, m.k2, m.k3, m.k4, m.player_id)) "
        "AS n FROM keyed m WHERE m.player_id = :viewer), "
        "found AS (SELECT 0 AS part, * FROM page UNION ALL SELECT 1, * FROM me) "
        "SELECT s.total, s.lo, f.part, f.n, f.player_id, COALESCE(p.name, 'Unknown player'), "
        "f.games, f.wins, f.points, f.rating, f.rated, f.k1 "
        "FROM size s LEFT JOIN found f ON TRUE LEFT JOIN players p ON p.player_id = f.player_id "
        "ORDER BY f.part, f.n"
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
        rows = await conn.fetchall(sql, params)
    total, lo = rows[0][0], rows[0][1]
    page: list[BoardEntry] = []
    me: BoardEntry | None = None
    for r in rows:
        if r[2] is None:  # an empty board
            continue
        # page rows count from the page's start, the viewer's row the entries before it
        position = lo + r[3] if r[2] == 0 else r[3] + 1
        entry = BoardEntry(position, r[4], r[5], r[6], r[7], r[8], r[9], r[10], bool(r[11]))
        if r[2] == 0:
            page.append(entry)
        else:
            me = entry
    return BoardPage(total, lo, tuple(page), me)


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
        rows = await conn.fetchall(
            # The rating before the first rated game in the window, per game (ties on the
            # time: the lower table id, as the game_results_player index yields them).
            "WITH firsts AS (SELECT game_id, rating - rating_delta AS before, ROW_NUMBER() "
            "OVER (PARTITION BY game_id ORDER BY finished_at, table_id) AS n "
            "FROM game_results WHERE player_id = :p AND finished_at >= :since "
            "AND rating IS NOT NULL), "
            "first_rated AS (SELECT game_id, before FROM firsts WHERE n = 1) "
            "SELECT g.game_id, g.games, g.wins, g.points, g.deals, g.last_at, g.rating, "
            "g.rated, g.rating - f.before FROM player_games g "
            "LEFT JOIN first_rated f ON f.game_id = g.game_id "
            "WHERE g.player_id = :p AND g.games > 0 ORDER BY g.games DESC, g.last_at DESC",
            {"p": player_id, "since": trend_since},
        )
        best = await conn.fetchone(
            "SELECT g.game_id, g.table_id, g.place, t.players, g.score, g.finished_at "
            "FROM game_results g JOIN tables t ON t.id = g.table_id "
            "WHERE g.player_id = ? AND g.place IS NOT NULL "
            "ORDER BY g.place, t.players DESC, g.score DESC, g.finished_at DESC LIMIT 1",
            (player_id,),
        )
        name = await conn.fetchone("SELECT name FROM players WHERE player_id = ?", (player_id,))
    return Profile(
        None if name is None else name[0],
        tuple(GameStats(*r) for r in rows),
        None if best is None else BestResult(*best),
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
        seats = conn.dialect.json_rows("o.seat, o.name, o.player_id, o.score, o.place")
        rows = await conn.fetchall(
            "SELECT g.table_id, g.game_id, g.finished_at, g.place, g.score, g.won, "
            f"g.rating_delta, (SELECT {seats} FROM game_results o "
            "WHERE o.table_id = g.table_id), COUNT(*) OVER () FROM game_results g "
            f"WHERE g.player_id = :p AND g.guild_id = :guild {game_filter}"
            "ORDER BY g.finished_at DESC, g.table_id DESC LIMIT :limit",
            {"p": player_id, "guild": guild_id, "game": game_id, "limit": limit},
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
        row = await conn.fetchone(
            f"SELECT game_id FROM player_totals WHERE game_id IN ({marks}) AND guild_id = ? "
            "GROUP BY game_id ORDER BY SUM(games) DESC, game_id LIMIT 1",
            (*game_ids, guild_id),
        )
    return None if row is None else row[0]
