"""The daily deal's persistence (issue 20): attempts (one per player, day and game), the day's
boards and percentiles, streaks, the secret salt, and the servers' announcement channels and
posts.

Boards read only ``finished`` attempts, through the partial indexes ``daily_board`` (global)
and ``daily_board_guild`` (one server): a board is a few index range scans, whatever the number
of attempts that day (``bench/daily_bench.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.db.database import Connection, Database, DatabaseError, IntegrityError, Row

SALT_KEY = "daily_salt"  # bot_state key of the salt made when DAILY_SALT is not configured
MARKER_KEY = "daily_marker_key"  # bot_state key of the secret of forget-me's markers
BOARD_SIZE = 10
RECENT = 30  # dailies in a player's average percentile (/stats)


class AlreadyPlayed(DatabaseError):
    """The player already has an attempt at that day's deal of that game."""


class PlayedBeforeForgetting(AlreadyPlayed):
    """The player's attempt at that deal was forgotten (``forget``), and its marker stays."""


@dataclass(frozen=True, slots=True)
class Claim:
    """A new attempt: who plays which day's deal, from which server (0: a DM), in which seat.
    ``marker``: the player's marker for that deal (``forget``), refused if one is stored."""

    day: str
    game_id: str
    user_id: int
    guild_id: int
    seat: int
    name: str
    marker: str | None = None


@dataclass(frozen=True, slots=True)
class Result:
    """How an attempt ended: ``finished`` with the player's ``score``, or ``abandoned`` (closed
    without a result). ``resigned``: the computer played the rest of the player's seat."""

    status: str
    score: int | None
    resigned: bool = False


@dataclass(frozen=True, slots=True)
class Attempt:
    day: str
    game_id: str
    user_id: int
    guild_id: int
    table_id: int | None
    seat: int
    name: str
    status: str
    score: int | None
    resigned: bool
    started_at: float
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class Entry:
    """A line of a board: a player and their score (never anything of the deal)."""

    user_id: int
    name: str
    score: int
    resigned: bool


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a score stands among the finished attempts of a board (the player's own included).

    ``percentile`` is the duplicate players' matchpoint share: each other player beaten counts
    1, each tie 1/2, over the number of other players, as a percentage (100 when alone).
    """

    score: int
    rank: int  # 1 + players with a better score
    players: int
    below: int  # players with a lower score
    tied: int  # other players with the same score

    @property
    def percentile(self) -> float:
        others = self.players - 1
        if others <= 0:
            return 100.0
        return 100.0 * (self.below + self.tied / 2) / others


@dataclass(frozen=True, slots=True)
class Board:
    """A day's board of one game: the best ``top`` and how many finished."""

    day: str
    game_id: str
    guild_id: int | None  # None: every server
    players: int
    top: tuple[Entry, ...]


_ATTEMPT_COLS = (
    "day, game_id, user_id, guild_id, table_id, seat, name, status, score, resigned, "
    "started_at, finished_at"
)


def _attempt(row: Row) -> Attempt:
    return Attempt(
        row[0],
        row[1],
        int(row[2]),
        int(row[3]),
        None if row[4] is None else int(row[4]),
        int(row[5]),
        row[6],
        row[7],
        None if row[8] is None else int(row[8]),
        bool(row[9]),
        float(row[10]),
        None if row[11] is None else float(row[11]),
    )


# ---- attempts ------------------------------------------------------------------------------
async def insert_attempt(conn: Connection, table_id: int, claim: Claim, now: float) -> None:
    """Record a new attempt (inside the transaction that creates its table)."""
    try:
        await conn.execute(
            "INSERT INTO daily_attempts (day, game_id, user_id, guild_id, table_id, seat, name, "
            "started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                claim.day,
                claim.game_id,
                claim.user_id,
                claim.guild_id,
                table_id,
                claim.seat,
                claim.name,
                now,
            ),
        )
    except IntegrityError as e:
        if e.constraint == "daily_attempts_pkey":
            raise AlreadyPlayed("one attempt per player, day and game") from e
        raise
    # After the insert: on PostgreSQL it waited for a forget-me re-keying the player's attempt
    # at this deal, if one was under way, so this read sees the marker that one committed.
    if claim.marker is not None and await _marked(conn, claim.marker):
        raise PlayedBeforeForgetting("one attempt per player, day and game")


async def _marked(conn: Connection, marker: str) -> bool:
    row = await conn.fetchone("SELECT 1 FROM daily_markers WHERE marker = ?", (marker,))
    return row is not None


async def marked(db: Database, marker: str) -> bool:
    """Whether a forgotten attempt left ``marker`` (see ``forget``)."""
    async with db.read() as conn:
        return await _marked(conn, marker)


async def drop_markers(db: Database, before_day: str) -> int:
    """Delete the markers of the days before ``before_day`` (over: their deals are played no
    more); returns how many."""
    async with db.transaction() as conn:
        return await conn.execute("DELETE FROM daily_markers WHERE day < ?", (before_day,))


async def record_result(conn: Connection, table_id: int, result: Result, now: float) -> None:
    """The attempt of ``table_id`` ended (inside the transaction that ends its table)."""
    await conn.execute(
        "UPDATE daily_attempts SET status = ?, score = ?, resigned = ?, finished_at = ? "
        "WHERE table_id = ? AND status = 'playing'",
        (result.status, result.score, int(result.resigned), now, table_id),
    )


async def attempt(db: Database, day: str, game_id: str, user_id: int) -> Attempt | None:
    async with db.read() as conn:
        row = await conn.fetchone(
            f"SELECT {_ATTEMPT_COLS} FROM daily_attempts "
            "WHERE day = ? AND game_id = ? AND user_id = ?",
            (day, game_id, user_id),
        )
    return None if row is None else _attempt(row)


async def attempt_of_table(db: Database, table_id: int) -> Attempt | None:
    async with db.read() as conn:
        row = await conn.fetchone(
            f"SELECT {_ATTEMPT_COLS} FROM daily_attempts WHERE table_id = ?", (table_id,)
        )
    return None if row is None else _attempt(row)


async def playing(db: Database, user_id: int) -> list[Attempt]:
    """The player's attempts still being played (any day)."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            f"SELECT {_ATTEMPT_COLS} FROM daily_attempts WHERE user_id = ? "
            "AND status = 'playing' ORDER BY day, game_id",
            (user_id,),
        )
    return [_attempt(r) for r in rows]


async def idle_tables(db: Database, before: float) -> list[int]:
    """Daily tables still playing, untouched since ``before``, oldest first."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT id FROM tables WHERE status = 'playing' AND daily_date IS NOT NULL "
            "AND updated_at < ? ORDER BY updated_at",
            (before,),
        )
    return [int(r[0]) for r in rows]


async def undealt_tables(db: Database, before: float) -> list[int]:
    """Daily tables made before ``before`` and never dealt (their start was interrupted)."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT id FROM tables WHERE status = 'lobby' AND daily_date IS NOT NULL "
            "AND created_at < ? ORDER BY id",
            (before,),
        )
    return [int(r[0]) for r in rows]


# ---- boards --------------------------------------------------------------------------------
def _scope(guild_id: int | None) -> tuple[str, tuple[object, ...]]:
    if guild_id is None:
        return "", ()
    return " AND guild_id = ?", (guild_id,)


async def board(
    db: Database, day: str, game_id: str, guild_id: int | None = None, size: int = BOARD_SIZE
) -> Board:
    """The day's best ``size`` finished attempts (ties: the earlier finish first) and their
    number, globally or for one server."""
    where, extra = _scope(guild_id)
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT user_id, name, score, resigned FROM daily_attempts "
            f"WHERE day = ? AND game_id = ? AND status = 'finished'{where} "
            "ORDER BY score DESC, finished_at, user_id LIMIT ?",
            (day, game_id, *extra, size),
        )
        count = await conn.fetchone(
            "SELECT COUNT(*) FROM daily_attempts "
            f"WHERE day = ? AND game_id = ? AND status = 'finished'{where}",
            (day, game_id, *extra),
        )
    assert count is not None
    top = tuple(Entry(int(r[0]), r[1], int(r[2]), bool(r[3])) for r in rows)
    return Board(day, game_id, guild_id, int(count[0]), top)


async def standing(
    db: Database,
    day: str,
    game_id: str,
    score: int,
    guild_id: int | None = None,
    players: int | None = None,
) -> Standing:
    """Where ``score`` (a finished attempt's, counted among them) stands on a board.
    ``players``: the board's count when the caller has it (one range scan fewer)."""
    where, extra = _scope(guild_id)
    base = f"FROM daily_attempts WHERE day = ? AND game_id = ? AND status = 'finished'{where}"
    counts = [f"(SELECT COUNT(*) {base} AND score > ?)", f"(SELECT COUNT(*) {base} AND score = ?)"]
    params: list[object] = [day, game_id, *extra, score, day, game_id, *extra, score]
    if players is None:
        counts.append(f"(SELECT COUNT(*) {base})")
        params += [day, game_id, *extra]
    async with db.read() as conn:
        row = await conn.fetchone(f"SELECT {', '.join(counts)}", params)
    assert row is not None
    above, same = int(row[0]), int(row[1])
    total = int(row[2]) if players is None else players
    return Standing(score, above + 1, total, total - above - same, max(same - 1, 0))


async def finished_days(db: Database, user_id: int, game_id: str | None = None) -> list[str]:
    """The UTC days on which the player finished a daily (of ``game_id``; None: any game),
    newest first."""
    extra = "" if game_id is None else " AND game_id = ?"
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT DISTINCT day FROM daily_attempts WHERE user_id = ? AND status = 'finished'"
            f"{extra} ORDER BY day DESC",
            (user_id,) if game_id is None else (user_id, game_id),
        )
    return [str(r[0]) for r in rows]


async def percentiles(db: Database, user_id: int, last: int = RECENT) -> list[float]:
    """The player's percentile on each of their ``last`` finished dailies (as the boards
    stand now): a few index range counts per daily, so a long history stays quick."""
    base = "FROM daily_attempts b WHERE b.day = a.day AND b.game_id = a.game_id AND " + (
        "b.status = 'finished'"
    )
    async with db.read() as conn:
        rows = await conn.fetchall(
            f"SELECT a.score, (SELECT COUNT(*) {base} AND b.score < a.score), "
            f"(SELECT COUNT(*) {base} AND b.score = a.score), (SELECT COUNT(*) {base}) "
            "FROM daily_attempts a WHERE a.user_id = ? AND a.status = 'finished' "
            "ORDER BY a.day DESC, a.game_id LIMIT ?",
            (user_id, last),
        )
    return [
        Standing(int(r[0]), 0, int(r[3]), int(r[1]), max(int(r[2]) - 1, 0)).percentile for r in rows
    ]


async def finished_count(db: Database, user_id: int) -> int:
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT COUNT(*) FROM daily_attempts WHERE user_id = ? AND status = 'finished'",
            (user_id,),
        )
    assert row is not None
    return int(row[0])


async def forget(
    conn: Connection,
    user_id: int,
    placeholder: str,
    marker: Callable[[str, str], str],
    today: str,
) -> None:
    """``/privacy forget-me`` (inside its transaction): the player's attempts stay on the
    boards (others' percentiles do not move) under ``placeholder`` and an id of no one (minus
    the attempt's table id, unique like the attempt).

    Each attempt at a deal of ``today`` or later (still playable) leaves ``marker(day,
    game_id)`` until its day is over (``drop_markers``): it names no one, but the same account
    asking for that deal again meets it (``insert_attempt``, ``marked``), so forgetting does
    not give a second attempt at a deal whose every hand the player has seen.
    """
    rows = await conn.fetchall(
        "SELECT day, game_id FROM daily_attempts WHERE user_id = ? AND day >= ?",
        (user_id, today),
    )
    if rows:
        await conn.executemany(
            "INSERT INTO daily_markers (marker, day) VALUES (?, ?) ON CONFLICT (marker) DO NOTHING",
            [(marker(str(r[0]), str(r[1])), str(r[0])) for r in rows],
        )
    await conn.execute(
        "UPDATE daily_attempts SET user_id = -table_id, name = ? "
        "WHERE user_id = ? AND table_id IS NOT NULL",
        (placeholder, user_id),
    )
    await conn.execute("DELETE FROM daily_attempts WHERE user_id = ?", (user_id,))


# ---- the salt ------------------------------------------------------------------------------
async def salt(db: Database, fresh: str, now: float, key: str = SALT_KEY) -> str:
    """The stored salt (or another secret: ``key``), or ``fresh`` stored now if there is none
    (the first process to ask wins; every other one reads the same)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO bot_state (key, value, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO NOTHING",
            (key, fresh, now),
        )
        row = await conn.fetchone("SELECT value FROM bot_state WHERE key = ?", (key,))
    assert row is not None
    return str(row[0])


# ---- announcements -------------------------------------------------------------------------
async def set_channel(db: Database, guild_id: int, channel_id: int | None, now: float) -> None:
    """Where the server's daily announcement goes (None: no announcement)."""
    async with db.transaction() as conn:
        if channel_id is None:
            await conn.execute("DELETE FROM daily_channels WHERE guild_id = ?", (guild_id,))
            return
        await conn.execute(
            "INSERT INTO daily_channels (guild_id, channel_id, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, "
            "updated_at = excluded.updated_at",
            (guild_id, channel_id, now),
        )


async def channel(db: Database, guild_id: int) -> int | None:
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT channel_id FROM daily_channels WHERE guild_id = ?", (guild_id,)
        )
    return None if row is None else int(row[0])


async def unposted(db: Database, day: str) -> list[tuple[int, int]]:
    """``(guild, channel)`` of the servers whose announcement of ``day`` is not made yet."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT c.guild_id, c.channel_id FROM daily_channels c WHERE NOT EXISTS "
            "(SELECT 1 FROM daily_posts p WHERE p.guild_id = c.guild_id AND p.day = ?) "
            "ORDER BY c.guild_id",
            (day,),
        )
    return [(int(r[0]), int(r[1])) for r in rows]


async def claim_post(db: Database, guild_id: int, day: str, channel_id: int, now: float) -> bool:
    """Claim the server's announcement of ``day``; True for exactly one caller (of every
    process sharing the database)."""
    async with db.transaction() as conn:
        changed = await conn.execute(
            "INSERT INTO daily_posts (guild_id, day, channel_id, posted_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (guild_id, day) DO NOTHING",
            (guild_id, day, channel_id, now),
        )
    return changed == 1


async def release_post(db: Database, guild_id: int, day: str) -> None:
    """Give a claimed announcement back (it could not be posted; a later round retries)."""
    async with db.transaction() as conn:
        await conn.execute(
            "DELETE FROM daily_posts WHERE guild_id = ? AND day = ?", (guild_id, day)
        )
