"""Rolling totals for the recent leaderboards: what a finished game adds, what the sweeper ages
out, and the board rows read from them.

``rolling_totals`` (per game, server and human player) and ``rolling_games`` (per game and
player, every server) hold exactly the games, wins and points of the results with
``finished_at >= rolling_window.since`` (migration ``0011_rolling``/``0005_rolling``):

* ``add_finished`` folds a finished game's results in, in the transaction that stores them;
* ``roll`` moves ``since`` forward and subtracts the results it passes, read back from
  ``game_results`` over its ``(game_id, finished_at)`` indexes (the results are the log: no
  second copy of them to keep in step with forget-me or ``db copy``);
* forget-me deletes the player's rows, as it deletes their totals (``bot.db.records``).

A board of the games finished since ``S`` (``board_rows``) reads the rolling rows and corrects
them by the results between ``since`` and ``S``, whichever comes first, in the same statement:
exact whether the sweeper is up to date, late, or ahead of the caller's clock.

Concurrency: a finishing game reads ``since`` under a shared row lock (``for_share``), the
roll takes it exclusively, so a roll never passes results of a game still being recorded, and a
game recorded after a roll sees the new ``since``. On SQLite write transactions are serial.
"""

from __future__ import annotations

from bot.db.database import Connection, Database
from bot.db.dialect import Dialect

# The servers whose admins keep their games off global boards.
OPTED_OUT = "SELECT guild_id FROM guild_settings WHERE global_leaderboards = 0"


async def since(db: Database) -> float:
    """Where the rolling totals start: they hold the results finished at or after it."""
    async with db.read() as conn:
        row = await conn.fetchone("SELECT since FROM rolling_window")
    assert row is not None  # the migration inserts the only row
    return float(row[0])


def _upsert(table: str, key: str, where: str) -> str:
    """Add the ``game_results`` rows chosen by ``where`` into ``table``, grouped by ``key``
    (in player order: PostgreSQL locks the rows in that order, as ``record_finished`` does)."""
    return (
        f"INSERT INTO {table} ({key}, games, wins, points) "
        f"SELECT {key}, COUNT(*), SUM(won), SUM(score) FROM game_results WHERE {where} "
        f"AND player_id > 0 GROUP BY {key} ORDER BY player_id ON CONFLICT ({key}) DO UPDATE SET "
        f"games = {table}.games + excluded.games, wins = {table}.wins + excluded.wins, "
        f"points = {table}.points + excluded.points"
    )


async def add_finished(conn: Connection, table_id: int) -> None:
    """Fold the results just written for ``table_id`` into the rolling totals (those not
    older than the window's start). Call inside the transaction that wrote them."""
    row = await conn.fetchone(f"SELECT since FROM rolling_window{conn.dialect.for_share}")
    assert row is not None
    for table, key in (
        ("rolling_totals", "game_id, guild_id, player_id"),
        ("rolling_games", "game_id, player_id"),
    ):
        await conn.execute(
            _upsert(table, key, "table_id = ? AND finished_at >= ?"), (table_id, row[0])
        )


#: The most results of one game a roll passes at once: after long downtime the sweeper
#: catches up over several sweeps, never holding the window (and finishing games) for long.
ROLL_RESULTS = 20_000


async def roll(db: Database, until: float, *, most: int = ROLL_RESULTS) -> bool:
    """Move the window's start forward to ``until`` (or short of it, so as to pass at most
    ``most`` results of each game): subtract the results finished in between. False (nothing
    changed) when it is there already, e.g. because another process just rolled it: rolls are
    idempotent and serialised by the window row's lock."""
    async with db.read() as conn:
        row = await conn.fetchone("SELECT since FROM rolling_window")
    if row is None or row[0] >= until:  # the common case, without a lock
        return False
    async with db.transaction() as conn:
        row = await conn.fetchone(f"SELECT since FROM rolling_window{conn.dialect.for_update}")
        assert row is not None
        start = row[0]
        if start >= until:
            return False
        # The games with totals, one index probe each (a loose index scan: neither database
        # skips through an index for DISTINCT by itself).
        games = await conn.fetchall(
            "WITH RECURSIVE g (id) AS (SELECT MIN(game_id) FROM rolling_games UNION ALL "
            "SELECT (SELECT MIN(game_id) FROM rolling_games WHERE game_id > g.id) FROM g "
            "WHERE g.id IS NOT NULL) SELECT id FROM g WHERE id IS NOT NULL"
        )
        for (game_id,) in games:
            row = await conn.fetchone(
                "SELECT finished_at FROM game_results WHERE game_id = ? AND finished_at >= ? "
                "AND finished_at < ? AND player_id > 0 ORDER BY finished_at LIMIT 1 OFFSET ?",
                (game_id, start, until, most),
            )
            if row is not None and row[0] > start:  # (never stuck on one crowded instant)
                until = row[0]
        for (game_id,) in games:
            passed = (
                "FROM game_results WHERE game_id = :game AND finished_at >= :start "
                "AND finished_at < :until AND player_id > 0"
            )
            params = {"game": game_id, "start": start, "until": until}
            for table, key in (
                ("rolling_totals", "guild_id, player_id"),
                ("rolling_games", "player_id"),
            ):
                match = " AND ".join(f"{table}.{k} = d.{k}" for k in key.split(", "))
                await conn.execute(
                    f"UPDATE {table} SET games = {table}.games - d.games, "
                    f"wins = {table}.wins - d.wins, points = {table}.points - d.points "
                    f"FROM (SELECT {key}, COUNT(*) AS games, SUM(won) AS wins, "
                    f"SUM(score) AS points {passed} GROUP BY {key}) AS d "
                    f"WHERE {table}.game_id = :game AND {match}",
                    params,
                )
                await conn.execute(
                    f"DELETE FROM {table} WHERE game_id = :game AND games = 0 "
                    f"AND ({key}) IN (SELECT {key} {passed})",
                    params,
                )
        await conn.execute("UPDATE rolling_window SET since = ?", (until,))
    return True


async def rebuild(db: Database, start: float) -> None:
    """Recompute the rolling totals from ``game_results`` for a window starting at ``start``
    (a repair, and bulk loads that bypass ``add_finished``; rolling is the everyday way)."""
    async with db.transaction() as conn:
        await conn.fetchone(f"SELECT since FROM rolling_window{conn.dialect.for_update}")
        await conn.execute("DELETE FROM rolling_totals")
        await conn.execute("DELETE FROM rolling_games")
        await conn.execute(
            "INSERT INTO rolling_totals (game_id, guild_id, player_id, games, wins, points) "
            "SELECT game_id, guild_id, player_id, COUNT(*), SUM(won), SUM(score) "
            "FROM game_results WHERE player_id > 0 AND finished_at >= ? "
            "GROUP BY game_id, guild_id, player_id",
            (start,),
        )
        await conn.execute(
            "INSERT INTO rolling_games (game_id, player_id, games, wins, points) "
            "SELECT game_id, player_id, SUM(games), SUM(wins), SUM(points) "
            "FROM rolling_totals GROUP BY game_id, player_id"
        )
        await conn.execute("UPDATE rolling_window SET since = ?", (start,))


def board_rows(dialect: Dialect, global_: bool) -> str:
    """SQL of ``player_id, games, wins, points`` of every human with a result in ``:game``
    finished at or after ``:since`` (``global_``: on any server not opted out; else on
    ``:guild``): the rolling rows, corrected by the results between the window's start and
    ``:since`` (subtracted when the window starts earlier, added when it starts later).

    The correction (and, globally, the opted-out servers' rows) is small: it is grouped once
    and joined to the rolling rows, which are read in key order and never sorted or grouped.
    """
    start = "(SELECT since FROM rolling_window)"
    if global_:
        table, match = "rolling_games", "game_id = :game"
        opted = (
            "SELECT player_id, -games AS games, -wins AS wins, -points AS points "
            f"FROM rolling_totals WHERE game_id = :game AND guild_id IN ({OPTED_OUT}) UNION ALL "
        )
        scope = f"guild_id NOT IN ({OPTED_OUT})"
    else:
        table, match = "rolling_totals", "game_id = :game AND guild_id = :guild"
        opted = ""
        scope = "guild_id = :guild"
    return (
        "WITH corr (player_id, games, wins, points) AS MATERIALIZED (SELECT player_id, "
        f"SUM(games), SUM(wins), SUM(points) FROM ({opted}"
        "SELECT player_id, sign AS games, sign * won AS wins, sign * score AS points "
        "FROM (SELECT player_id, won, score, "
        "CASE WHEN finished_at < :since THEN -1 ELSE 1 END AS sign FROM game_results "
        f"WHERE game_id = :game AND finished_at >= {dialect.least}(:since, {start}) "
        f"AND finished_at < {dialect.greatest}(:since, {start}) AND player_id > 0 AND {scope}"
        ") AS c) AS parts GROUP BY player_id) "
        "SELECT r.player_id, r.games + COALESCE(c.games, 0) AS games, "
        "r.wins + COALESCE(c.wins, 0) AS wins, r.points + COALESCE(c.points, 0) AS points "
        f"FROM {table} r LEFT JOIN corr c ON c.player_id = r.player_id WHERE r.{match} "
        "AND r.games + COALESCE(c.games, 0) > 0 "
        "UNION ALL SELECT player_id, games, wins, points FROM corr c WHERE games > 0 "
        f"AND NOT EXISTS (SELECT 1 FROM {table} r WHERE r.{match} AND r.player_id = c.player_id)"
    )
