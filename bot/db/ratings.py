"""Ratings and running totals: what a finished game adds to them, and reading them back.

``record_finished`` runs inside the transaction that stores a game's results
(``TableStore.commit``), so results, ratings, totals and names change together or not at all,
and two games finishing at once can never both rate from the same old value: on SQLite the
transaction holds the whole database; on PostgreSQL it locks the player rows it changes, always
in player order, so two games with players in common take turns and never deadlock. The rating
maths itself is a function handed in by the services (``bot.services.ratings``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.db import rolling
from bot.db.database import Connection, Database


@dataclass(frozen=True, slots=True)
class Rating:
    """A rated entity's rating in one game."""

    mu: float
    sigma: float
    display: float  # the conservative value shown and ranked on (mu - 3 sigma)
    games: int  # rated games


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    before: float  # display value before the game (the prior's for a first game)
    after: Rating


@dataclass(frozen=True, slots=True)
class GameRating:
    """What one finished game did to one player's rating in its game."""

    rating: float  # the display value right after the game
    delta: float  # its change in that game


#: ``(player_id, place)`` of every rated seat in seat order, and the current ratings of those
#: players (absent: never rated) -> the update of every player to change.
Rater = Callable[[Sequence[tuple[int, int]], Mapping[int, Rating]], Mapping[int, RatingUpdate]]


async def _current(
    conn: Connection, game_id: str, player_ids: Sequence[int], lock: str = ""
) -> dict[int, Rating]:
    marks = ", ".join("?" * len(player_ids))
    rows = await conn.fetchall(
        f"SELECT player_id, mu, sigma, rating, rated FROM player_games "
        f"WHERE game_id = ? AND player_id IN ({marks}) ORDER BY player_id{lock}",
        (game_id, *player_ids),
    )
    return {r[0]: Rating(r[1], r[2], r[3], r[4]) for r in rows if r[1] is not None}


async def record_finished(conn: Connection, table_id: int, rater: Rater | None) -> None:
    """Fold the ``game_results`` rows just written for ``table_id`` into the players' totals
    (per server and overall, all-time and rolling), ratings and names. Call inside the
    transaction that wrote them.
    """
    totals = (
        "SELECT game_id, {where} player_id, COUNT(*), SUM(won), SUM(score), SUM(deals), "
        "MAX(finished_at) FROM game_results WHERE table_id = ? AND player_id IS NOT NULL "
        # In player order: the upsert locks each row it touches (see the module docstring).
        "GROUP BY game_id, {where} player_id ORDER BY player_id ON CONFLICT ({key}) DO UPDATE SET "
        "games = {table}.games + excluded.games, wins = {table}.wins + excluded.wins, "
        "points = {table}.points + excluded.points, deals = {table}.deals + excluded.deals, "
        f"last_at = {conn.dialect.greatest}({{table}}.last_at, excluded.last_at)"
    )
    await conn.execute(
        "INSERT INTO player_totals (game_id, guild_id, player_id, games, wins, points, deals, "
        "last_at) "
        + totals.format(
            where="guild_id,", key="game_id, guild_id, player_id", table="player_totals"
        ),
        (table_id,),
    )
    await conn.execute(
        "INSERT INTO player_games (game_id, player_id, games, wins, points, deals, last_at) "
        + totals.format(where="", key="game_id, player_id", table="player_games"),
        (table_id,),
    )
    await rolling.add_finished(conn, table_id)
    await conn.execute(
        "INSERT INTO players (player_id, name, updated_at) "
        "SELECT player_id, name, finished_at FROM game_results "
        "WHERE table_id = ? AND player_id > 0 ORDER BY player_id "
        "ON CONFLICT (player_id) DO UPDATE SET name = excluded.name, "
        "updated_at = excluded.updated_at",
        (table_id,),
    )
    rows = await conn.fetchall(
        "SELECT game_id, player_id, place FROM game_results "
        "WHERE table_id = ? AND player_id IS NOT NULL AND place IS NOT NULL ORDER BY seat",
        (table_id,),
    )
    if rater is None or not rows:
        return
    game_id = rows[0][0]
    seats = [(r[1], r[2]) for r in rows]
    # Read under the rows' locks (held since the upsert above): the latest committed ratings.
    current = await _current(conn, game_id, sorted({p for p, _ in seats}), conn.dialect.for_update)
    updates = rater(seats, current)
    await conn.executemany(
        "UPDATE player_games SET mu = ?, sigma = ?, rating = ?, rated = ? "
        "WHERE game_id = ? AND player_id = ?",
        [
            (u.after.mu, u.after.sigma, u.after.display, u.after.games, game_id, p)
            for p, u in updates.items()
        ],
    )
    await conn.executemany(
        "UPDATE game_results SET rating = ?, rating_delta = ? WHERE table_id = ? AND player_id = ?",
        [(u.after.display, u.after.display - u.before, table_id, p) for p, u in updates.items()],
    )


async def rating(db: Database, game_id: str, player_id: int) -> Rating | None:
    """One entity's current rating in one game (None: never rated)."""
    async with db.read() as conn:
        found = await _current(conn, game_id, (player_id,))
    return found.get(player_id)


async def game_rating(db: Database, table_id: int, player_id: int) -> GameRating | None:
    """The player's rating after the finished game ``table_id`` and its change there, as
    ``record_finished`` stored them with the game's results (None: the game rated nobody, or
    not this player: a practice table, a daily deal, a game from before ratings)."""
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT rating, rating_delta FROM game_results "
            "WHERE table_id = ? AND player_id = ? AND rating IS NOT NULL "
            "AND rating_delta IS NOT NULL",
            (table_id, player_id),
        )
    return None if row is None else GameRating(row[0], row[1])
