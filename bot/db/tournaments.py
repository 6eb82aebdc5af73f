"""Tournaments inside one server (issue 34): the tournament row, its entrants, each round's
boards (which game table each group of entrants sits at) and each entrant's round results.

The service (``bot.services.tournaments``) decides everything; this module only reads and
writes. Changes that move a tournament on (start, next round, finish) are guarded by its
``status`` and ``round``, so that two processes sweeping at once do it once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.db.database import Connection, Database, IntegrityError, Row


class AlreadyEntered(Exception):
    """The user is registered already."""


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game_id: str
    players: int  # seats per table
    rounds: int
    deals: int | None  # deals per table (None: the game's own length)
    turn_clock: int | None
    starts_at: float | None
    rated: bool
    seed: int
    language: str
    status: str  # open | running | finished | cancelled
    round: int  # the round being played (0: not started)
    message_id: int | None
    event_id: int | None
    threads: bool  # False: the bot may not make threads there (tables share the channel)
    pairings_posted: int
    standings_posted: int
    created_at: float


@dataclass(frozen=True, slots=True)
class Entrant:
    user_id: int
    name: str
    joined_at: float
    left_round: int | None  # the round they left in (None: still playing)


@dataclass(frozen=True, slots=True)
class Board:
    """One table of a round: its seats (user ids in seat order; None is a computer)."""

    round: int
    board: int
    seats: tuple[int | None, ...]
    thread_id: int | None
    table_id: int | None


@dataclass(frozen=True, slots=True)
class RoundResult:
    round: int
    user_id: int
    board: int
    place: int
    points: int  # half points
    score: int
    left_table: bool


_COLS = (
    "id, guild_id, channel_id, host_id, game_id, players, rounds, deals, turn_clock, "
    "starts_at, rated, seed, language, status, round, message_id, event_id, threads, "
    "pairings_posted, standings_posted, created_at"
)


def _record(r: Row) -> TournamentRecord:
    return TournamentRecord(
        id=int(r[0]),
        guild_id=int(r[1]),
        channel_id=int(r[2]),
        host_id=int(r[3]),
        game_id=str(r[4]),
        players=int(r[5]),
        rounds=int(r[6]),
        deals=None if r[7] is None else int(r[7]),
        turn_clock=None if r[8] is None else int(r[8]),
        starts_at=None if r[9] is None else float(r[9]),
        rated=bool(r[10]),
        seed=int(r[11]),
        language=str(r[12]),
        status=str(r[13]),
        round=int(r[14]),
        message_id=None if r[15] is None else int(r[15]),
        event_id=None if r[16] is None else int(r[16]),
        threads=bool(r[17]),
        pairings_posted=int(r[18]),
        standings_posted=int(r[19]),
        created_at=float(r[20]),
    )


async def create(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    game_id: str,
    players: int,
    rounds: int,
    deals: int | None,
    turn_clock: int | None,
    starts_at: float | None,
    rated: bool,
    seed: int,
    language: str,
    now: float,
) -> int:
    async with db.transaction() as conn:
        row = await conn.fetchone(
            "INSERT INTO tournaments (guild_id, channel_id, host_id, game_id, players, rounds, "
            "deals, turn_clock, starts_at, rated, seed, language, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                guild_id,
                channel_id,
                host_id,
                game_id,
                players,
                rounds,
                deals,
                turn_clock,
                starts_at,
                int(rated),
                seed,
                language,
                now,
                now,
            ),
        )
    assert row is not None
    return int(row[0])


async def get(db: Database, tournament_id: int) -> TournamentRecord | None:
    async with db.read() as conn:
        row = await conn.fetchone(f"SELECT {_COLS} FROM tournaments WHERE id = ?", (tournament_id,))
    return None if row is None else _record(row)


async def active(db: Database, guild_id: int | None = None) -> list[TournamentRecord]:
    """Open and running tournaments (of one server, or all), oldest first."""
    where = "status IN ('open', 'running')"
    params: tuple[int, ...] = ()
    if guild_id is not None:
        where += " AND guild_id = ?"
        params = (guild_id,)
    async with db.read() as conn:
        rows = await conn.fetchall(
            f"SELECT {_COLS} FROM tournaments WHERE {where} ORDER BY id", params
        )
    return [_record(r) for r in rows]


async def to_tend(db: Database) -> list[TournamentRecord]:
    """Running tournaments, finished ones whose last standings are not posted yet, and
    finished or cancelled ones whose scheduled event is not closed yet."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            f"SELECT {_COLS} FROM tournaments WHERE status = 'running' "
            "OR (status = 'finished' AND standings_posted < round) "
            "OR (status IN ('finished', 'cancelled') AND event_id IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM tournament_claims c WHERE c.tournament_id = "
            "tournaments.id AND c.claim = 'event' AND c.done = 1)) ORDER BY id"
        )
    return [_record(r) for r in rows]


async def latest(db: Database, guild_id: int) -> TournamentRecord | None:
    """The server's newest tournament that was not cancelled."""
    async with db.read() as conn:
        row = await conn.fetchone(
            f"SELECT {_COLS} FROM tournaments WHERE guild_id = ? AND status <> 'cancelled' "
            "ORDER BY id DESC LIMIT 1",
            (guild_id,),
        )
    return None if row is None else _record(row)


async def set_fields(db: Database, tournament_id: int, **fields: int | None) -> None:
    """Set bookkeeping columns (``message_id``, ``event_id``, ``threads``; the posts made:
    ``bot.db.tournament_claims``)."""
    allowed = {"message_id", "event_id", "threads"}
    assert fields and set(fields) <= allowed, fields  # i18n: code
    sets = ", ".join(f"{k} = ?" for k in fields)
    async with db.transaction() as conn:
        await conn.execute(
            f"UPDATE tournaments SET {sets} WHERE id = ?", (*fields.values(), tournament_id)
        )


async def set_status(
    db: Database, tournament_id: int, *, status: str, now: float, expected: str
) -> bool:
    """Move the tournament from ``expected`` to ``status``; False if it was not ``expected``."""
    async with db.transaction() as conn:
        changed = await conn.execute(
            "UPDATE tournaments SET status = ?, updated_at = ? WHERE id = ? AND status = ?",
            (status, now, tournament_id, expected),
        )
    return changed == 1


# ---- entrants -----------------------------------------------------------------------------
async def add_entrant(
    db: Database, tournament_id: int, user_id: int, name: str, now: float
) -> None:
    """Register a user (``AlreadyEntered`` if they are); one who left may not come back."""
    async with db.transaction() as conn:
        try:
            await conn.execute(
                "INSERT INTO tournament_entrants (tournament_id, user_id, name, joined_at) "
                "VALUES (?, ?, ?, ?)",
                (tournament_id, user_id, name, now),
            )
        except IntegrityError as e:
            raise AlreadyEntered from e


async def remove_entrant(db: Database, tournament_id: int, user_id: int) -> bool:
    """Unregister before the start; False if they were not registered."""
    async with db.transaction() as conn:
        changed = await conn.execute(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )
    return changed == 1


async def mark_left(db: Database, tournament_id: int, user_id: int, round_no: int) -> bool:
    """An entrant leaves a running tournament; False if not in it (or gone already)."""
    async with db.transaction() as conn:
        changed = await conn.execute(
            "UPDATE tournament_entrants SET left_round = ? "
            "WHERE tournament_id = ? AND user_id = ? AND left_round IS NULL",
            (round_no, tournament_id, user_id),
        )
    return changed == 1


async def entered(db: Database, user_id: int) -> list[int]:
    """The open and running tournaments the user is in (registered, and not gone)."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT e.tournament_id FROM tournament_entrants e "
            "JOIN tournaments t ON t.id = e.tournament_id WHERE e.user_id = ? "
            "AND e.left_round IS NULL AND t.status IN ('open', 'running') ORDER BY t.id",
            (user_id,),
        )
    return [int(r[0]) for r in rows]


async def forget(conn: Connection, user_id: int, placeholder: str) -> None:
    """``/privacy forget-me`` (inside its transaction, once the user left every tournament):
    their entries, results and seats in every tournament stay (no one else's standing moves)
    under ``placeholder`` and an id of no one, negative and unique in its tournament."""
    # Withdrawn first by the service; one who registered again meanwhile is withdrawn here
    # (out of an open tournament, gone from a running one), so that no one is seated as them.
    await conn.execute(
        "DELETE FROM tournament_entrants WHERE user_id = ? AND tournament_id IN "
        "(SELECT id FROM tournaments WHERE status = 'open')",
        (user_id,),
    )
    await conn.execute(
        "UPDATE tournament_entrants SET left_round = (SELECT round FROM tournaments "
        "WHERE id = tournament_id) WHERE user_id = ? AND left_round IS NULL",
        (user_id,),
    )
    rows = await conn.fetchall(
        "SELECT tournament_id FROM tournament_entrants WHERE user_id = ? ORDER BY tournament_id",
        (user_id,),
    )
    for (tid,) in rows:
        # The tournament's row held: two players forgotten at once get different ids.
        await conn.fetchone(
            f"SELECT id FROM tournaments WHERE id = ?{conn.dialect.for_update}", (tid,)
        )
        low = await conn.fetchone(
            "SELECT MIN(user_id) FROM tournament_entrants WHERE tournament_id = ?", (tid,)
        )
        assert low is not None  # the user's own entry is one
        nobody = min(int(low[0]), 0) - 1
        await conn.execute(
            "UPDATE tournament_entrants SET user_id = ?, name = ? "
            "WHERE tournament_id = ? AND user_id = ?",
            (nobody, placeholder, tid, user_id),
        )
        await conn.execute(
            "UPDATE tournament_results SET user_id = ? WHERE tournament_id = ? AND user_id = ?",
            (nobody, tid, user_id),
        )
        boards = await conn.fetchall(
            "SELECT round, board, seats_json FROM tournament_boards WHERE tournament_id = ?",
            (tid,),
        )
        changed: list[tuple[str, int, int, int]] = []
        for round_no, board, seats_json in boards:
            seats = json.loads(str(seats_json))
            if user_id in seats:
                seats = [nobody if u == user_id else u for u in seats]
                changed.append((json.dumps(seats), tid, round_no, board))
        if changed:
            await conn.executemany(
                "UPDATE tournament_boards SET seats_json = ? "
                "WHERE tournament_id = ? AND round = ? AND board = ?",
                changed,
            )


async def entrants(db: Database, tournament_id: int) -> list[Entrant]:
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT user_id, name, joined_at, left_round FROM tournament_entrants "
            "WHERE tournament_id = ? ORDER BY joined_at, user_id",
            (tournament_id,),
        )
    return [Entrant(int(r[0]), str(r[1]), float(r[2]), r[3]) for r in rows]


# ---- rounds -------------------------------------------------------------------------------
async def begin_round(
    db: Database,
    tournament_id: int,
    *,
    round_no: int,
    boards: Sequence[tuple[int | None, ...]],
    results: Sequence[RoundResult],
    now: float,
) -> bool:
    """In one transaction: record the finished round's ``results``, then either seat round
    ``round_no`` at ``boards`` (status ``running``) or, with no boards, finish the tournament.
    Guarded by the tournament's current round (``round_no - 1``): False if another call moved
    it on first."""
    async with db.transaction() as conn:
        status = "running" if boards else "finished"
        changed = await conn.execute(
            "UPDATE tournaments SET status = ?, round = ?, updated_at = ? "
            "WHERE id = ? AND round = ? AND status IN ('open', 'running')",
            (status, round_no if boards else round_no - 1, now, tournament_id, round_no - 1),
        )
        if changed != 1:
            return False
        await _insert_results(conn, tournament_id, results)
        await conn.executemany(
            "INSERT INTO tournament_boards (tournament_id, round, board, seats_json) "
            "VALUES (?, ?, ?, ?)",
            [
                (tournament_id, round_no, i + 1, json.dumps(list(seats)))
                for i, seats in enumerate(boards)
            ],
        )
    return True


async def _insert_results(
    conn: Connection, tournament_id: int, results: Sequence[RoundResult]
) -> None:
    await conn.executemany(
        "INSERT INTO tournament_results (tournament_id, round, user_id, board, place, points, "
        "score, left_table) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                tournament_id,
                r.round,
                r.user_id,
                r.board,
                r.place,
                r.points,
                r.score,
                int(r.left_table),
            )
            for r in results
        ],
    )


_BOARD_SQL = "SELECT round, board, seats_json, thread_id, table_id FROM tournament_boards "


def _board(r: Row) -> Board:
    return Board(int(r[0]), int(r[1]), tuple(json.loads(str(r[2]))), r[3], r[4])


async def boards(db: Database, tournament_id: int, round_no: int | None = None) -> list[Board]:
    """The boards of one round (or of every round), in order."""
    where = "tournament_id = ?"
    params: tuple[int, ...] = (tournament_id,)
    if round_no is not None:
        where += " AND round = ?"
        params = (tournament_id, round_no)
    async with db.read() as conn:
        rows = await conn.fetchall(f"{_BOARD_SQL}WHERE {where} ORDER BY round, board", params)
    return [_board(r) for r in rows]


async def board(db: Database, tournament_id: int, round_no: int, board_no: int) -> Board | None:
    """One board of a round (None: no such board)."""
    async with db.read() as conn:
        r = await conn.fetchone(
            f"{_BOARD_SQL}WHERE tournament_id = ? AND round = ? AND board = ?",
            (tournament_id, round_no, board_no),
        )
    return None if r is None else _board(r)


async def set_board(
    db: Database, tournament_id: int, round_no: int, board: int, *, table_id: int
) -> None:
    """Remember a board's game table (once dealt; its thread: ``tournament_claims.done``)."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tournament_boards SET table_id = ? "
            "WHERE tournament_id = ? AND round = ? AND board = ? AND table_id IS NULL",
            (table_id, tournament_id, round_no, board),
        )


async def table_states(db: Database, tournament_id: int, round_no: int) -> list[str | None]:
    """The status of each board's game table this round (None: not made yet)."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT t.status FROM tournament_boards b LEFT JOIN tables t ON t.id = b.table_id "
            "WHERE b.tournament_id = ? AND b.round = ? ORDER BY b.board",
            (tournament_id, round_no),
        )
    return [None if r[0] is None else str(r[0]) for r in rows]


async def results(db: Database, tournament_id: int) -> list[RoundResult]:
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT round, user_id, board, place, points, score, left_table "
            "FROM tournament_results WHERE tournament_id = ? ORDER BY round, board, user_id",
            (tournament_id,),
        )
    return [
        RoundResult(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]), bool(r[6]))
        for r in rows
    ]
