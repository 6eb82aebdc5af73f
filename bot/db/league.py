"""League nights' persistence (issue 34): the servers in the league, the weekly sessions, the
entries (one per player, session and game), each deal's result per entry, the scoring pass that
matchpoints them, the standings it leaves, forget-me's markers and the announcements made.

Scoring is one statement per session (``score``): window functions rank every entrant's score
at a deal against the same seat of every other table of the session, and the per-entry sums go
to ``league_scores``, which the standings read through ``league_scores_rank``
(``bench/league_bench.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.db.database import Connection, Database

BOARD_SIZE = 10
# A forgotten entrant's id of no one: below every id a solo entry's forgetting used before
# (minus its table), one per table and seat.
_NOBODY = 1 << 40
_SEATS = 16


@dataclass(frozen=True, slots=True)
class Session:
    id: int
    week: str  # ISO week, "2026-W48"
    season: int
    starts_at: float
    ends_at: float
    deals: int
    changed_at: float
    scored_at: float | None
    in_season: bool = False  # its scores are in the season's sums (its window is over)


@dataclass(frozen=True, slots=True)
class Claim:
    """A new entry: who plays which session's set of a game, from which server, in which seat.
    ``marker``: the player's forget-me marker for that set, refused if one is stored."""

    session_id: int
    game_id: str
    user_id: int
    guild_id: int
    name: str
    marker: str


@dataclass(frozen=True, slots=True)
class Entry:
    session_id: int
    game_id: str
    user_id: int
    guild_id: int
    table_id: int | None
    seat: int
    name: str
    status: str | None  # the table's status ("playing", "finished", "abandoned"); None: gone
    #: The last deal that counts for an entrant who left (``leave``; None: they did not), the
    #: one in progress then, which the casual computer finished for them.
    until_deal: int | None = None

    @property
    def left(self) -> bool:
        """They left (resigned, or idle): their table may play on without them."""
        return self.until_deal is not None


@dataclass(frozen=True, slots=True)
class DealResult:
    """One entrant's score at one deal (``resigned``: the casual computer played it)."""

    table_id: int
    deal_no: int
    seat: int
    score: int
    resigned: bool


@dataclass(frozen=True, slots=True)
class Score:
    """An entry's (or a server's, or a season's) matchpoints: ``mp`` out of ``top``."""

    key: int  # the user id (the server id in server standings)
    guild_id: int
    name: str
    mp: int
    top: int
    pct: float
    deals: int
    resigned: bool = False


@dataclass(frozen=True, slots=True)
class Standings:
    top: tuple[Score, ...]
    count: int
    mine: Score | None
    rank: int | None  # 1 = best; ties share


class EntryTaken(Exception):
    """The player already has an entry for that session and game (or forgot one)."""


# ---- servers ---------------------------------------------------------------------------------
async def set_guild(db: Database, guild_id: int, channel_id: int | None, now: float) -> None:
    """The server joins the league with ``channel_id`` for its announcements (None: it leaves)."""
    async with db.transaction() as conn:
        if channel_id is None:
            await conn.execute("DELETE FROM league_guilds WHERE guild_id = ?", (guild_id,))
            return
        await conn.execute(
            "INSERT INTO league_guilds (guild_id, channel_id, joined_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id",
            (guild_id, channel_id, now),
        )


async def guild_channel(db: Database, guild_id: int) -> int | None:
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT channel_id FROM league_guilds WHERE guild_id = ?", (guild_id,)
        )
    return None if row is None else int(row[0])


async def unannounced(db: Database, session_id: int) -> list[tuple[int, int]]:
    """``(guild, channel)`` of the league's servers whose announcement of the session is not
    made (nor claimed) yet."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT g.guild_id, g.channel_id FROM league_guilds g WHERE NOT EXISTS "
            "(SELECT 1 FROM league_events e WHERE e.guild_id = g.guild_id "
            "AND e.session_id = ?) ORDER BY g.guild_id",
            (session_id,),
        )
    return [(int(r[0]), int(r[1])) for r in rows]


async def claim_event(db: Database, guild_id: int, session_id: int, now: float) -> bool:
    """Claim one server's announcement of a session: True for exactly one caller."""
    async with db.transaction() as conn:
        row = await conn.fetchone(
            "INSERT INTO league_events (guild_id, session_id, made_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, session_id) DO NOTHING RETURNING guild_id",
            (guild_id, session_id, now),
        )
    return row is not None


async def set_event(db: Database, guild_id: int, session_id: int, event_id: int | None) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE league_events SET event_id = ? WHERE guild_id = ? AND session_id = ?",
            (event_id, guild_id, session_id),
        )


# ---- sessions --------------------------------------------------------------------------------
_SESSION_COLS = "id, week, season, starts_at, ends_at, deals, changed_at, scored_at, in_season"


def _session(r: Sequence[object]) -> Session:
    return Session(
        int(r[0]),  # type: ignore[arg-type]
        str(r[1]),
        int(r[2]),  # type: ignore[arg-type]
        float(r[3]),  # type: ignore[arg-type]
        float(r[4]),  # type: ignore[arg-type]
        int(r[5]),  # type: ignore[arg-type]
        float(r[6]),  # type: ignore[arg-type]
        None if r[7] is None else float(r[7]),  # type: ignore[arg-type]
        bool(r[8]),
    )


async def session(
    db: Database, week: str, season: int, starts_at: float, ends_at: float, deals: int
) -> Session:
    """The session of ``week``, made now with these values if it does not exist yet (the
    first process to ask wins; every other one reads the same)."""
    async with db.read() as conn:  # nearly always there: no write transaction
        row = await conn.fetchone(
            f"SELECT {_SESSION_COLS} FROM league_sessions WHERE week = ?", (week,)
        )
    if row is not None:
        return _session(row)
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO league_sessions (week, season, starts_at, ends_at, deals) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (week) DO NOTHING",
            (week, season, starts_at, ends_at, deals),
        )
        row = await conn.fetchone(
            f"SELECT {_SESSION_COLS} FROM league_sessions WHERE week = ?", (week,)
        )
    assert row is not None
    return _session(row)


async def unscored(db: Database, now: float) -> list[int]:
    """Sessions with a result newer than their last scoring pass (or none yet), or closed
    and not in their season's sums yet."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT id FROM league_sessions WHERE scored_at IS NULL OR changed_at >= scored_at "
            "OR (in_season = 0 AND ends_at <= ?) ORDER BY id",
            (now,),
        )
    return [int(r[0]) for r in rows]


# ---- entries ---------------------------------------------------------------------------------
async def insert_entry(
    conn: Connection, table_id: int, claim: Claim, seat_of: Callable[[int], int], now: float
) -> int:
    """Record the entry of a new table in its transaction; return the seat it holds
    (``seat_of(n)`` for the session's ``n``-th entry at that game: seats rotate). Raises
    ``EntryTaken`` for a second entry, or one after forgetting."""
    if await conn.fetchone("SELECT 1 FROM league_markers WHERE marker = ?", (claim.marker,)):
        raise EntryTaken("forgotten")
    row = await conn.fetchone(
        "SELECT COUNT(*) FROM league_entries WHERE session_id = ? AND game_id = ?",
        (claim.session_id, claim.game_id),
    )
    seat = seat_of(int(row[0]) if row else 0)
    done = await conn.fetchone(
        "INSERT INTO league_entries (session_id, game_id, user_id, guild_id, table_id, seat, "
        "name, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (session_id, game_id, user_id) DO NOTHING RETURNING seat",
        (
            claim.session_id,
            claim.game_id,
            claim.user_id,
            claim.guild_id,
            table_id,
            seat,
            claim.name,
            now,
        ),
    )
    if done is None:
        raise EntryTaken("entered")
    return seat


_ENTRY_SQL = (
    "SELECT e.session_id, e.game_id, e.user_id, e.guild_id, e.table_id, e.seat, e.name, "
    "t.status, e.until_deal FROM league_entries e LEFT JOIN tables t ON t.id = e.table_id "
)


def _entry(r: Sequence[object]) -> Entry:
    return Entry(
        int(r[0]),  # type: ignore[arg-type]
        str(r[1]),
        int(r[2]),  # type: ignore[arg-type]
        int(r[3]),  # type: ignore[arg-type]
        None if r[4] is None else int(r[4]),  # type: ignore[arg-type]
        int(r[5]),  # type: ignore[arg-type]
        str(r[6]),
        None if r[7] is None else str(r[7]),
        None if r[8] is None else int(r[8]),  # type: ignore[arg-type]
    )


async def entry(db: Database, session_id: int, game_id: str, user_id: int) -> Entry | None:
    async with db.read() as conn:
        row = await conn.fetchone(
            _ENTRY_SQL + "WHERE e.session_id = ? AND e.game_id = ? AND e.user_id = ?",
            (session_id, game_id, user_id),
        )
    return None if row is None else _entry(row)


async def entry_of_table(db: Database, table_id: int) -> Entry | None:
    async with db.read() as conn:
        row = await conn.fetchone(_ENTRY_SQL + "WHERE e.table_id = ?", (table_id,))
    return None if row is None else _entry(row)


async def playing(db: Database, user_id: int) -> bool:
    """Whether the player has a solo league set under way (its table in their DMs; a league
    table of a server is played in its thread)."""
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT 1 FROM league_entries e JOIN tables t ON t.id = e.table_id "
            "WHERE e.user_id = ? AND t.guild_id = 0 AND t.status IN ('lobby', 'playing')",
            (user_id,),
        )
    return row is not None


async def marked(db: Database, marker: str) -> bool:
    async with db.read() as conn:
        row = await conn.fetchone("SELECT 1 FROM league_markers WHERE marker = ?", (marker,))
    return row is not None


async def unfinished(db: Database, session_id: int, game_id: str | None = None) -> int:
    """Entries of the session whose table is still being played."""
    sql = (
        "SELECT COUNT(*) FROM league_entries e JOIN tables t ON t.id = e.table_id "
        "WHERE e.session_id = ? AND t.status IN ('lobby', 'playing')"
    )
    params: tuple[object, ...] = (session_id,)
    if game_id is not None:
        sql += " AND e.game_id = ?"
        params += (game_id,)
    async with db.read() as conn:
        row = await conn.fetchone(sql, params)
    return int(row[0]) if row else 0


async def idle_tables(db: Database, before: float) -> list[int]:
    """League tables in play untouched since ``before`` (their entrant walked away)."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT id FROM tables WHERE league_session IS NOT NULL AND status = 'playing' "
            "AND updated_at < ? ORDER BY id",
            (before,),
        )
    return [int(r[0]) for r in rows]


async def lobbies_after_night(db: Database, now: float) -> list[int]:
    """League tables' lobbies (not started) of a session whose window closed by ``now``."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT t.id FROM tables t JOIN league_sessions s ON s.id = t.league_session "
            "WHERE t.status = 'lobby' AND s.ends_at <= ? ORDER BY t.id",
            (now,),
        )
    return [int(r[0]) for r in rows]


# ---- results ---------------------------------------------------------------------------------
async def record_results(
    conn: Connection, table_id: int, results: Sequence[DealResult], now: float
) -> None:
    """A league table's ended deals, in its commit's transaction: one row per deal and
    entrant's seat, but none of a deal after the last one that counts for an entrant who left
    a table that went on (``leave``)."""
    row = await conn.fetchone(
        "SELECT league_session, game_id FROM tables WHERE id = ?", (table_id,)
    )
    if row is None or row[0] is None:
        return
    held = await conn.fetchall(
        "SELECT seat, until_deal FROM league_entries WHERE table_id = ?", (table_id,)
    )
    until = {int(h[0]): None if h[1] is None else int(h[1]) for h in held}
    kept = [
        r
        for r in results
        if r.seat in until and (until[r.seat] is None or r.deal_no <= (until[r.seat] or 0))
    ]
    if not kept:
        return
    await conn.executemany(
        "INSERT INTO league_results (table_id, deal_no, session_id, game_id, seat, score, "
        "resigned) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (table_id, deal_no, seat) DO NOTHING",
        [(table_id, r.deal_no, row[0], row[1], r.seat, r.score, int(r.resigned)) for r in kept],
    )
    await conn.execute("UPDATE league_sessions SET changed_at = ? WHERE id = ?", (now, row[0]))


async def leave(conn: Connection, table_id: int, seats: Sequence[int], until: int) -> None:
    """Entrants at ``seats`` of a league table left it (in the commit's transaction): deal
    ``until`` (the one in progress, finished for them by the casual computer) is their last;
    the table may go on for its other players. The first leaving counts."""
    await conn.executemany(
        "UPDATE league_entries SET until_deal = ? "
        "WHERE table_id = ? AND seat = ? AND until_deal IS NULL",
        [(until, table_id, seat) for seat in seats],
    )


async def results(db: Database, session_id: int, game_id: str) -> list[DealResult]:
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT table_id, deal_no, seat, score, resigned FROM league_results "
            "WHERE session_id = ? AND game_id = ? ORDER BY deal_no, seat, table_id",
            (session_id, game_id),
        )
    return [DealResult(int(r[0]), int(r[1]), int(r[2]), int(r[3]), bool(r[4])) for r in rows]


# Matchpoints of every result: with the results of the same deal and seat ordered by score,
# RANK() - 1 results are beaten and COUNT(*) (up to the last tie) are at most as high, so
# beaten (2 each) plus tied others (1 each) is ``lower + at_most - 1``; ``top`` is 2 per other
# result (``bot.services.league`` has the formula).
_SCORE_SQL = """
INSERT INTO league_scores (session_id, game_id, table_id, seat, user_id, guild_id, name, mp,
                           top, pct, deals, resigned)
SELECT :s, m.game_id, m.table_id, m.seat, e.user_id, e.guild_id, e.name, m.mp, m.top,
       CASE WHEN m.top = 0 THEN 50.0 ELSE 100.0 * m.mp / m.top END, m.deals, m.resigned
FROM (
    SELECT table_id, seat, game_id, SUM(mp) AS mp, SUM(top) AS top, COUNT(*) AS deals,
           MAX(resigned) AS resigned
    FROM (
        SELECT table_id, seat, game_id, resigned,
               RANK() OVER w - 1 + COUNT(*) OVER w - 1 AS mp,
               2 * (COUNT(*) OVER (PARTITION BY game_id, deal_no, seat) - 1) AS top
        FROM league_results WHERE session_id = :s
        WINDOW w AS (PARTITION BY game_id, deal_no, seat ORDER BY score)
    ) r
    GROUP BY table_id, seat, game_id
) m JOIN league_entries e ON e.table_id = m.table_id AND e.seat = m.seat
"""

# The season's sums follow each pass of a closed session: its previous scores out, its new
# ones in.
_SEASON_OUT_SQL = """
UPDATE league_season SET mp = league_season.mp - o.mp, top = league_season.top - o.top,
                         deals = league_season.deals - o.deals
FROM (SELECT game_id, user_id, mp, top, deals FROM league_scores WHERE session_id = :s) o
WHERE league_season.season = :season AND league_season.game_id = o.game_id
  AND league_season.user_id = o.user_id
"""
_SEASON_IN_SQL = """
INSERT INTO league_season (season, game_id, user_id, guild_id, name, mp, top, pct, deals,
                           resigned)
SELECT :season, game_id, user_id, guild_id, name, mp, top, pct, deals, resigned
FROM league_scores WHERE session_id = :s
ON CONFLICT (season, game_id, user_id) DO UPDATE SET
    mp = league_season.mp + excluded.mp, top = league_season.top + excluded.top,
    deals = league_season.deals + excluded.deals, name = excluded.name,
    guild_id = excluded.guild_id,
    resigned = CASE WHEN excluded.resigned = 1 THEN 1 ELSE league_season.resigned END,
    pct = CASE WHEN league_season.top + excluded.top = 0 THEN 50.0
          ELSE 100.0 * (league_season.mp + excluded.mp) / (league_season.top + excluded.top) END
"""


async def score(db: Database, session_id: int, now: float) -> int:
    """The scoring pass: every entry's matchpoints for the session, from its results as they
    stand (replacing the previous pass's). Once the session's window is over its scores also
    go into the season's sums (``league_season``), replacing what an earlier pass put there.
    Returns the entries scored."""
    async with db.transaction() as conn:
        row = await conn.fetchone(
            "SELECT season, ends_at, in_season FROM league_sessions WHERE id = ?"
            + conn.dialect.for_update,
            (session_id,),
        )
        assert row is not None
        season = {"s": session_id, "season": int(row[0])}
        closed = now >= float(row[1])
        if row[2]:
            await conn.execute(_SEASON_OUT_SQL, season)
        await conn.execute("DELETE FROM league_scores WHERE session_id = ?", (session_id,))
        count = await conn.execute(_SCORE_SQL, {"s": session_id})
        if closed:
            await conn.execute(_SEASON_IN_SQL, season)
        await conn.execute(
            "UPDATE league_sessions SET scored_at = ?, in_season = ? WHERE id = ?",
            (now, int(closed), session_id),
        )
    return count


def _score(r: Sequence[object]) -> Score:
    return Score(
        int(r[0]),  # type: ignore[arg-type]
        int(r[1]),  # type: ignore[arg-type]
        str(r[2]),
        int(r[3]),  # type: ignore[arg-type]
        int(r[4]),  # type: ignore[arg-type]
        float(r[5]),  # type: ignore[arg-type]
        int(r[6]),  # type: ignore[arg-type]
        bool(r[7]),
    )


async def standings(
    db: Database,
    scope: int,
    game_id: str,
    *,
    season: bool = False,
    viewer: int | None = None,
    guild_id: int | None = None,
    by_server: bool = False,
    size: int = BOARD_SIZE,
) -> Standings:
    """Players' (or, ``by_server``, servers') standings of a session (``scope``: its id) or a
    season (``season``: ``scope`` is its number), ranked by their share of the top.
    ``guild_id``: that server's players only. ``viewer``: whose row and rank to add (a user,
    or a server). Players' rows are read as stored (``league_scores``, ``league_season``,
    through their ``*_rank`` indexes); servers' are summed from them."""
    table, column = ("league_season", "season") if season else ("league_scores", "session_id")
    where = f"{column} = ? AND game_id = ?"
    params: list[object] = [scope, game_id]
    if guild_id is not None and not by_server:
        where += " AND guild_id = ?"
        params.append(guild_id)
    cols = "user_id, guild_id, name, mp, top, pct, deals, resigned"
    source = f"(SELECT {cols} FROM {table} WHERE {where}) x"
    if by_server:
        pct = "CASE WHEN SUM(top) = 0 THEN 50.0 ELSE 100.0 * SUM(mp) / SUM(top) END"
        source = (
            f"(SELECT guild_id AS user_id, guild_id, '' AS name, SUM(mp) AS mp, "
            f"SUM(top) AS top, {pct} AS pct, SUM(deals) AS deals, MAX(resigned) AS resigned "
            f"FROM {table} WHERE {where} GROUP BY guild_id) x"
        )
    async with db.read() as conn:
        rows = await conn.fetchall(
            f"SELECT {cols} FROM {source} ORDER BY pct DESC, mp DESC, user_id LIMIT ?",
            (*params, size),
        )
        count_row = await conn.fetchone(f"SELECT COUNT(*) FROM {source}", tuple(params))
        mine: Score | None = None
        rank: int | None = None
        if viewer is not None:
            row = await conn.fetchone(
                f"SELECT {cols} FROM {source} WHERE user_id = ?", (*params, viewer)
            )
            if row is not None:
                mine = _score(row)
                ahead = await conn.fetchone(
                    f"SELECT COUNT(*) FROM {source} WHERE pct > ?", (*params, mine.pct)
                )
                rank = 1 + (int(ahead[0]) if ahead else 0)
    count = int(count_row[0]) if count_row else 0
    return Standings(tuple(_score(r) for r in rows), count, mine, rank)


async def table_scores(db: Database, session_id: int, game_id: str) -> list[Score]:
    """Every scored entry of a session's game (the comparison after the window)."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT user_id, guild_id, name, mp, top, pct, deals, resigned FROM league_scores "
            "WHERE session_id = ? AND game_id = ? ORDER BY pct DESC, user_id",
            (session_id, game_id),
        )
    return [_score(r) for r in rows]


async def entry_score(db: Database, session_id: int, game_id: str, user_id: int) -> Score | None:
    """One entry's matchpoints as the last scoring pass left them (None: nothing scored)."""
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT user_id, guild_id, name, mp, top, pct, deals, resigned FROM league_scores "
            "WHERE session_id = ? AND game_id = ? AND user_id = ?",
            (session_id, game_id, user_id),
        )
    return None if row is None else _score(row)


async def entries(db: Database, session_id: int, game_id: str) -> list[Entry]:
    async with db.read() as conn:
        rows = await conn.fetchall(
            _ENTRY_SQL + "WHERE e.session_id = ? AND e.game_id = ? ORDER BY e.table_id",
            (session_id, game_id),
        )
    return [_entry(r) for r in rows]


# ---- forgetting ------------------------------------------------------------------------------
async def forget(
    conn: Connection, user_id: int, placeholder: str, marker: Callable[[int, str], str]
) -> None:
    """``/privacy forget-me`` (inside its transaction): the entries stay in the standings (no
    one else's matchpoints move) under ``placeholder`` and an id of no one (made of the first
    of the player's league tables and their seat there: unique, like them, also when several
    players of one table forget), and each leaves ``marker(session, game)``, which names no
    one but refuses the same account a second entry at that set."""
    rows = await conn.fetchall(
        "SELECT session_id, game_id, table_id, seat FROM league_entries WHERE user_id = ?",
        (user_id,),
    )
    if not rows:
        return
    await conn.executemany(
        "INSERT INTO league_markers (marker, session_id) VALUES (?, ?) "
        "ON CONFLICT (marker) DO NOTHING",
        [(marker(int(r[0]), str(r[1])), int(r[0])) for r in rows],
    )
    held = [(int(r[2]), int(r[3])) for r in rows if r[2] is not None]
    if not held:
        await conn.execute("DELETE FROM league_entries WHERE user_id = ?", (user_id,))
        return
    first, seat = min(held)
    nobody = -(_NOBODY + first * _SEATS + seat)
    for table in ("league_entries", "league_scores", "league_season"):
        await conn.execute(
            f"UPDATE {table} SET user_id = ?, name = ? WHERE user_id = ?",
            (nobody, placeholder, user_id),
        )
