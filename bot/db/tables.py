"""Table persistence: table rows, seats, the append-only action log and results.

Everything is written through ``TableStore``; each method is one transaction (or one
serialised read) and returns small frozen dataclasses, never rows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.db import daily, league, outbox
from bot.db.database import Connection, Database, DatabaseError, IntegrityError, Row
from bot.db.dialect import Dialect
from bot.db.ratings import Rater, record_finished

OPEN_STATUSES = ("lobby", "playing")


class StaleState(DatabaseError):
    """The table changed since it was loaded (expected ``seq`` or status no longer holds)."""


class ChannelBusy(DatabaseError):
    """The channel already has an open (lobby or playing) table."""


class SeatTaken(DatabaseError):
    """The user already sits at this table."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    user_id: int | None
    name: str
    is_bot: bool = False
    dm_channel_id: int | None = None
    dm_message_id: int | None = None
    dm_failed: bool = False
    resigned: bool = False
    expiries: int = 0  # consecutive timed-out turns (1: away; 2+: a computer plays the seat)
    language: str | None = None  # the client's language when the player sat down
    replaced: bool = False  # resigned by the host while away: the game does not count for them
    # The seat's latest "Show my hand" answer (issue 30): its interaction's application id and
    # token, the message, and when it was answered (None: none remembered).
    view_app_id: int | None = None
    view_token: str | None = field(default=None, repr=False)  # a secret for 15 minutes
    view_message_id: int | None = None
    view_at: float | None = None
    # The seat's latest click on its DM hand: its interaction's application id and token (which
    # edit that hand message for 15 minutes), the message, and when (None: none remembered).
    click_app_id: int | None = None
    click_token: str | None = field(default=None, repr=False)  # a secret for 15 minutes
    click_message_id: int | None = None
    click_at: float | None = None


@dataclass(frozen=True, slots=True)
class TableRecord:
    id: int
    guild_id: int
    channel_id: int
    game_id: str
    status: str
    owner_id: int
    players: int
    options: dict[str, Any]
    seed: int
    rules_version: int
    seq: int
    snapshot_json: str | None  # parsed lazily: a caller holding the decoded state skips it
    message_id: int | None
    turn_deadline: float | None
    created_at: float
    updated_at: float
    finished_at: float | None
    seats: tuple[SeatRecord, ...] = ()
    turn_clock: int | None = None  # seconds per human decision; None: no clock
    reminder_at: float | None = None  # half-time reminder due (None: sent, or no clock)
    rematch_of: int | None = None
    shown_seq: int = 0  # the last seq the channel and every DM fully show
    notify_at: float | None = None  # when the seat to act gets a turn notification
    notify_seat: int | None = None
    level: str = "casual"  # the computer players' level (issue 18): "casual" | "expert"
    hints: bool = False  # a practice table: players may ask for hints; never rated
    language: str = "en"  # the public table's language (issue 19)
    daily_date: str | None = None  # a daily attempt's UTC day (issue 20); None: a table
    tournament_id: int | None = None  # a tournament's table (issue 34); None: not one
    rated: bool = True  # False: its results change no rating (an unrated tournament's)
    league_session: int | None = None  # a league entry's session (issue 34); None: a table
    league_deals: int | None = None  # the deals of a league entry's set (its match ends then)
    #: "Try another way" (issue 33): the table and deal number this table replays in its
    #: player's DMs; None: not a replay.
    replay_of: int | None = None
    replay_deal: int | None = None
    #: Why the table ended unfinished, when its messages say so: "replaced" (a replay its
    #: player replaced in their DMs, ``bot.services.dm_room``), "night_over" (a league table's
    #: lobby its night's end closed, ``LeagueLobbies.close_league_lobbies``); None otherwise.
    end_reason: str | None = None

    @property
    def snapshot(self) -> dict[str, Any] | None:
        return None if self.snapshot_json is None else json.loads(self.snapshot_json)


@dataclass(frozen=True, slots=True)
class LeagueTable:
    """A new table that is a league entry (issue 34): its claim, the deals of its set, the
    seat of the session's ``n``-th entry (``seat_of``) and the seats with the entrant in it."""

    claim: league.Claim
    deals: int
    seat_of: Callable[[int], int]
    seats: Callable[[int], Sequence[SeatRecord]]


@dataclass(frozen=True, slots=True)
class TableCounts:
    """Open tables, and tables whose last commit is not fully shown (``lag``: the largest
    ``seq - shown_seq``)."""

    lobbies: int
    playing: int
    unshown: int
    lag: int


@dataclass(frozen=True, slots=True)
class NewEntry:
    """A log entry to append; its ``seq`` is assigned when written."""

    kind: str  # "deal" | "act" | "resign"
    seat: int | None
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class LogEntry:
    seq: int
    kind: str
    seat: int | None
    payload: dict[str, Any]
    created_at: float


@dataclass(frozen=True, slots=True)
class DealResultRecord:
    deal_no: int
    outcome: str
    deltas: tuple[int, ...]
    detail: dict[str, Any] = field(default_factory=dict[str, Any])


@dataclass(frozen=True, slots=True)
class GameResultRecord:
    seat: int
    user_id: int | None
    name: str
    score: int
    won: bool
    player_id: int | None = None  # rated entity: the user, or a computer level (< 0)
    place: int | None = None  # 1 = best, ties share; None: not ranked
    deals: int = 0  # deals the match lasted


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


_TABLE_COLS = (
    "id, guild_id, channel_id, game_id, status, owner_id, players, options_json, seed, "
    "rules_version, seq, snapshot_json, message_id, turn_deadline, created_at, updated_at, "
    "finished_at, turn_clock, reminder_at, rematch_of, shown_seq, notify_at, notify_seat, "
    "level, hints, language, daily_date, tournament_id, rated, league_session, league_deals, "
    "replay_of, replay_deal, end_reason"
)
_SEAT_COLS = (
    "seat, user_id, name, is_bot, dm_channel_id, dm_message_id, dm_failed, resigned, expiries, "
    "language, replaced, view_app_id, view_token, view_message_id, view_at, click_app_id, "
    "click_token, click_message_id, click_at"
)


def _load_sql(dialect: Dialect, where: str) -> str:
    # Seats come back in the same row as a JSON array (one query, one round trip per load).
    seats = f"(SELECT {dialect.json_rows(_SEAT_COLS)} FROM seats s WHERE s.table_id = tables.id)"
    return f"SELECT {_TABLE_COLS}, {seats} FROM tables WHERE {where}"


def _table(row: Row) -> TableRecord:
    return TableRecord(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        game_id=row[3],
        status=row[4],
        owner_id=row[5],
        players=row[6],
        options=json.loads(row[7]),
        seed=row[8],
        rules_version=row[9],
        seq=row[10],
        snapshot_json=row[11],
        message_id=row[12],
        turn_deadline=row[13],
        created_at=row[14],
        updated_at=row[15],
        finished_at=row[16],
        turn_clock=row[17],
        reminder_at=row[18],
        rematch_of=row[19],
        shown_seq=row[20],
        notify_at=row[21],
        notify_seat=row[22],
        level=row[23],
        hints=bool(row[24]),
        language=row[25],
        daily_date=row[26],
        tournament_id=row[27],
        rated=bool(row[28]),
        league_session=row[29],
        league_deals=row[30],
        replay_of=row[31],
        replay_deal=row[32],
        end_reason=row[33],
        seats=tuple(
            sorted(
                (
                    SeatRecord(
                        seat=r[0],
                        user_id=r[1],
                        name=r[2],
                        is_bot=bool(r[3]),
                        dm_channel_id=r[4],
                        dm_message_id=r[5],
                        dm_failed=bool(r[6]),
                        resigned=bool(r[7]),
                        expiries=r[8],
                        language=r[9],
                        replaced=bool(r[10]),
                        view_app_id=r[11],
                        view_token=r[12],
                        view_message_id=r[13],
                        view_at=r[14],
                        click_app_id=r[15],
                        click_token=r[16],
                        click_message_id=r[17],
                        click_at=r[18],
                    )
                    for r in json.loads(row[34])
                ),
                key=lambda seat: seat.seat,
            )
        ),
    )


async def _load_many(conn: Connection, where: str, params: Sequence[Any]) -> list[TableRecord]:
    rows = await conn.fetchall(_load_sql(conn.dialect, where), params)
    return [_table(r) for r in rows]


async def _write_seats(conn: Connection, table_id: int, seats: Iterable[SeatRecord]) -> None:
    try:
        await conn.executemany(
            "INSERT INTO seats (table_id, seat, user_id, name, is_bot, dm_channel_id, "
            "dm_message_id, dm_failed, resigned, expiries, language) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    table_id,
                    s.seat,
                    s.user_id,
                    s.name,
                    int(s.is_bot),
                    s.dm_channel_id,
                    s.dm_message_id,
                    int(s.dm_failed),
                    int(s.resigned),
                    s.expiries,
                    s.language,
                )
                for s in seats
            ],
        )
    except IntegrityError as e:
        if e.constraint == "seats_table_user":
            raise SeatTaken("that user already sits at this table") from e
        raise


class TableStore:
    """Repository of game tables over a ``Database``."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # ---- reads -----------------------------------------------------------------------
    async def get(self, table_id: int) -> TableRecord | None:
        async with self.db.read() as conn:
            found = await _load_many(conn, "id = ?", (table_id,))
        return found[0] if found else None

    async def open_in_channel(self, channel_id: int) -> TableRecord | None:
        """The lobby or playing table of a channel, if any (the earliest of several)."""
        found = await self.all_open_in_channel(channel_id)
        return found[0] if found else None

    async def all_open_in_channel(self, channel_id: int) -> list[TableRecord]:
        """The lobby and playing tables of a channel, oldest first: one, except a tournament's
        tables sharing a channel that cannot have threads."""
        async with self.db.read() as conn:
            return await _load_many(
                conn, "channel_id = ? AND status IN ('lobby', 'playing') ORDER BY id", (channel_id,)
            )

    async def open_for_user(self, user_id: int) -> list[TableRecord]:
        """Lobby or playing tables where the user holds a seat they have not resigned."""
        async with self.db.read() as conn:
            return await _load_many(
                conn,
                "status IN ('lobby', 'playing') AND id IN (SELECT table_id FROM seats "
                "WHERE user_id = ? AND resigned = 0) ORDER BY id",
                (user_id,),
            )

    async def log(self, table_id: int) -> list[LogEntry]:
        async with self.db.read() as conn:
            rows = await conn.fetchall(
                "SELECT seq, kind, seat, payload_json, created_at FROM actions "
                "WHERE table_id = ? ORDER BY seq",
                (table_id,),
            )
        return [LogEntry(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    async def deal_reasons(self, table_id: int) -> list[LogEntry]:
        """The current deal's logged moves that carry a computer's reason (``payload["why"]``,
        issue 33), in order: what the table message shows, whichever commit it is drawn for."""
        async with self.db.read() as conn:
            rows = await conn.fetchall(
                "SELECT seq, kind, seat, payload_json, created_at FROM actions "
                "WHERE table_id = ? AND payload_json LIKE '%\"why\"%' AND seq > COALESCE("
                "(SELECT MAX(seq) FROM actions WHERE table_id = ? AND kind = 'deal'), 0) "
                "ORDER BY seq",
                (table_id, table_id),
            )
        return [LogEntry(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    async def deal_results(self, table_id: int) -> list[DealResultRecord]:
        async with self.db.read() as conn:
            rows = await conn.fetchall(
                "SELECT deal_no, outcome, deltas_json, detail_json FROM deal_results "
                "WHERE table_id = ? ORDER BY deal_no",
                (table_id,),
            )
        return [
            DealResultRecord(r[0], r[1], tuple(json.loads(r[2])), json.loads(r[3])) for r in rows
        ]

    async def game_results(self, table_id: int) -> list[GameResultRecord]:
        async with self.db.read() as conn:
            rows = await conn.fetchall(
                "SELECT seat, user_id, name, score, won, player_id, place, deals "
                "FROM game_results WHERE table_id = ? ORDER BY seat",
                (table_id,),
            )
        return [
            GameResultRecord(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6], r[7]) for r in rows
        ]

    async def overdue(self, now: float) -> list[int]:
        """Ids of playing tables whose turn deadline has passed."""
        async with self.db.read() as conn:
            rows = await conn.fetchall(
                "SELECT id FROM tables WHERE status = 'playing' AND turn_deadline IS NOT NULL "
                "AND turn_deadline <= ? ORDER BY turn_deadline",
                (now,),
            )
        return [r[0] for r in rows]

    async def reminders_due(self, now: float) -> list[int]:
        """Ids of playing tables whose half-time reminder is due."""
        async with self.db.read() as conn:
            rows = await conn.fetchall(
                "SELECT id FROM tables WHERE status = 'playing' AND reminder_at IS NOT NULL "
                "AND reminder_at <= ? ORDER BY reminder_at",
                (now,),
            )
        return [r[0] for r in rows]

    async def counts(self) -> TableCounts:
        """Open tables by status, and how far delivery lags (for the operators' metrics)."""
        async with self.db.read() as conn:
            rows = await conn.fetchall(
                "SELECT status, COUNT(*) FROM tables WHERE status IN ('lobby', 'playing') "
                "GROUP BY status"
            )
            lag = await conn.fetchone(
                "SELECT COUNT(*), COALESCE(MAX(seq - shown_seq), 0) FROM tables "
                "WHERE shown_seq < seq"
            )
        by_status = {str(r[0]): int(r[1]) for r in rows}
        unshown, most = (0, 0) if lag is None else (int(lag[0]), int(lag[1]))
        return TableCounts(by_status.get("lobby", 0), by_status.get("playing", 0), unshown, most)

    async def claim_unshown(
        self, claimant: str, now: float, until: float, updated_before: float | None = None
    ) -> list[int]:
        """Ids of tables whose last committed state is not fully shown yet, or that owe a
        turn notification (optionally only those not changed since ``updated_before``),
        claimed for re-publishing by ``claimant`` until ``until``.

        Several processes share the database: a table is delivered by the holder of its lease
        (the process that committed its last change, ``bot.db.outbox``) and skipped by the
        others until that lease lapses or the table is shown (``Outbox.mark_shown``), so a
        lagging table is re-published once, not once per process. A claimant always gets its
        own claims back (it decides itself whether one is still in hand).
        """
        free = "(republish_until IS NULL OR republish_until <= :now OR republish_by = :me)"
        async with self.db.transaction() as conn:
            rows = await conn.fetchall(
                "UPDATE tables SET republish_by = :me, republish_until = :until "
                "WHERE id IN (SELECT id FROM tables "
                "WHERE (shown_seq < seq OR notify_owed IS NOT NULL) "
                f"AND updated_at <= :before AND {free} ORDER BY id{conn.dialect.skip_locked}) "
                f"AND {free} RETURNING id",
                {
                    "me": claimant,
                    "now": now,
                    "until": until,
                    "before": float("inf") if updated_before is None else updated_before,
                },
            )
        return sorted(r[0] for r in rows)

    async def notifications_due(self, now: float) -> list[tuple[int, int]]:
        """``(table id, seq)`` of playing tables whose turn notification is due."""
        async with self.db.read() as conn:
            rows = await conn.fetchall(
                "SELECT id, seq FROM tables WHERE status = 'playing' AND notify_at IS NOT NULL "
                "AND notify_at <= ? ORDER BY notify_at",
                (now,),
            )
        return [(r[0], r[1]) for r in rows]

    async def open_in_guild(self, guild_id: int) -> list[TableRecord]:
        """The server's lobby and playing tables, oldest first."""
        async with self.db.read() as conn:
            return await _load_many(
                conn, "guild_id = ? AND status IN ('lobby', 'playing') ORDER BY id", (guild_id,)
            )

    async def clear_reminder(self, table_id: int, expected_seq: int) -> bool:
        """Mark the reminder sent, unless the table moved on meanwhile (then a new one is
        already scheduled). True if this call claimed the reminder."""
        return await self._claim(table_id, expected_seq, "reminder_at")

    async def _claim(self, table_id: int, expected_seq: int, due: str) -> bool:
        """Clear the ``due`` time column if the table is still at ``expected_seq``."""
        assert due == "reminder_at"  # a column name, never user input
        async with self.db.transaction() as conn:
            # One conditional UPDATE is the claim: when two processes race for it, the second
            # waits for the first's row lock, re-reads the row, and changes nothing.
            changed = await conn.execute(
                f"UPDATE tables SET {due} = NULL WHERE id = ? AND seq = ? AND {due} IS NOT NULL",
                (table_id, expected_seq),
            )
        return changed == 1

    async def seq_of(self, table_id: int) -> int | None:
        """The table's current ``seq`` alone (None: no such table)."""
        async with self.db.read() as conn:
            row = await conn.fetchone("SELECT seq FROM tables WHERE id = ?", (table_id,))
        return None if row is None else int(row[0])

    # ---- lobby writes ------------------------------------------------------------------
    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game_id: str,
        owner_id: int,
        players: int,
        options: Mapping[str, Any],
        seed: int,
        rules_version: int,
        seats: Sequence[SeatRecord],
        now: float,
        turn_clock: int | None = None,
        rematch_of: int | None = None,
        level: str = "casual",
        hints: bool = False,
        language: str = "en",
        daily_claim: daily.Claim | None = None,
        tournament_id: int | None = None,
        rated: bool = True,
        league_claim: LeagueTable | None = None,
        league_lobby: tuple[int, int] | None = None,
        replay: tuple[int, int] | None = None,
    ) -> int:
        """Insert a lobby and its seats; return the new table id. Raises ``ChannelBusy``.

        ``daily_claim``: the table is that daily attempt, claimed in the same transaction
        (``daily.AlreadyPlayed`` if the player has one for that day and game already).
        ``league_claim``: the table is that league entry (``league.EntryTaken`` for a second
        one); its ``seats(seat)`` are the table's once the entry's rotating seat is known.
        ``league_lobby``: (session id, deals) of a league table's lobby, whose entries are
        made when it starts (``start_league``).
        ``replay``: the (table, deal number) the new table replays ("Try another way")."""
        league_set = (
            (league_claim.claim.session_id, league_claim.deals)
            if league_claim is not None
            else league_lobby or (None, None)
        )
        async with self.db.transaction() as conn:
            try:
                row = await conn.fetchone(
                    "INSERT INTO tables (guild_id, channel_id, game_id, status, owner_id, "
                    "players, options_json, seed, rules_version, created_at, updated_at, "
                    "turn_clock, rematch_of, level, hints, language, daily_date, tournament_id, "
                    "rated, league_session, league_deals, replay_of, replay_deal) "
                    "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                    "?, ?) "
                    "RETURNING id",
                    (
                        guild_id,
                        channel_id,
                        game_id,
                        owner_id,
                        players,
                        _dumps(dict(options)),
                        seed,
                        rules_version,
                        now,
                        now,
                        turn_clock,
                        rematch_of,
                        level,
                        int(hints),
                        language,
                        None if daily_claim is None else daily_claim.day,
                        tournament_id,
                        int(rated),
                        league_set[0],
                        league_set[1],
                        None if replay is None else replay[0],
                        None if replay is None else replay[1],
                    ),
                )
            except IntegrityError as e:
                if e.constraint == "tables_open_channel":
                    raise ChannelBusy("the channel already has an open table") from e
                raise
            assert row is not None
            table_id = int(row[0])
            if league_claim is not None:
                seat = await league.insert_entry(
                    conn, table_id, league_claim.claim, league_claim.seat_of, now
                )
                seats = league_claim.seats(seat)
            await _write_seats(conn, table_id, seats)
            if daily_claim is not None:
                await daily.insert_attempt(conn, table_id, daily_claim, now)
        return table_id

    async def update_lobby(
        self,
        table_id: int,
        *,
        owner_id: int,
        seats: Sequence[SeatRecord],
        now: float,
        abandon: bool = False,
        end_reason: str | None = None,
    ) -> None:
        """Rewrite a lobby's owner and seats (or abandon it, ``end_reason`` saying why:
        ``TableRecord.end_reason``). ``StaleState`` unless a lobby."""
        async with self.db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE tables SET owner_id = ?, status = ?, updated_at = ?, finished_at = ?, "
                "end_reason = ? WHERE id = ? AND status = 'lobby'",
                (
                    owner_id,
                    "abandoned" if abandon else "lobby",
                    now,
                    now if abandon else None,
                    end_reason if abandon else None,
                    table_id,
                ),
            )
            if changed != 1:
                raise StaleState("the table is no longer a lobby")
            await conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await _write_seats(conn, table_id, seats)

    async def start_league(
        self,
        table_id: int,
        *,
        claims: Sequence[league.Claim],
        seat_of: Callable[[int], int],
        seats: Callable[[Sequence[int]], Sequence[SeatRecord]],
        channel_id: int,
        now: float,
    ) -> None:
        """A league table's lobby becomes its entries, in ONE transaction: one entry per
        ``claims`` (in order, each at its rotating seat ``seat_of(n)``: ``league.EntryTaken``
        names none of them if one is taken), the seats ``seats(entrants' seats)``, and the
        table moves to ``channel_id`` (its private thread) with no message yet.
        ``StaleState`` unless still a lobby."""
        async with self.db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE tables SET channel_id = ?, message_id = NULL, updated_at = ? "
                "WHERE id = ? AND status = 'lobby'",
                (channel_id, now, table_id),
            )
            if changed != 1:
                raise StaleState("the table is no longer a lobby")
            held = [await league.insert_entry(conn, table_id, c, seat_of, now) for c in claims]
            await conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await _write_seats(conn, table_id, seats(held))

    # ---- game writes -------------------------------------------------------------------
    async def commit(
        self,
        table_id: int,
        *,
        expected_seq: int,
        expected_status: str,
        entries: Sequence[NewEntry],
        snapshot: Mapping[str, Any] | None,
        status: str,
        now: float,
        seed: int | None = None,
        turn_deadline: float | None = None,
        reminder_at: float | None = None,
        deal_results: Sequence[DealResultRecord] = (),
        game_results: Sequence[GameResultRecord] = (),
        rater: Rater | None = None,
        resign_seats: Sequence[int] = (),
        replaced: bool = False,
        seat_expiries: Mapping[int, int] | None = None,
        notify_at: float | None = None,
        notify_seat: int | None = None,
        daily_result: daily.Result | None = None,
        league_results: Sequence[league.DealResult] = (),
        league_until: int | None = None,
        owner: str | None = None,
        lease_until: float = 0.0,
        notices: Sequence[tuple[str, dict[str, Any]]] = (),
        end_reason: str | None = None,
    ) -> int:
        """Append ``entries`` and store the new snapshot/status in ONE transaction.

        ``game_results`` (a finished game) also update the ratings (through ``rater``), the
        players' running totals and names in that transaction. ``resign_seats`` are handed to
        the computer: resigned, or ``replaced`` (by the host, while away); at a league table,
        ``league_until`` is then the last deal that counts for them (``league.leave``).

        The table row is updated only if its ``seq`` and ``status`` are still the expected
        ones (optimistic concurrency across processes); otherwise ``StaleState`` is raised
        and nothing is written. Returns the new ``seq``.

        ``owner`` (the committing service's ``instance``) takes the table's delivery lease
        until ``lease_until``, and ``notices`` (kind, data) are recorded for that delivery
        (``bot.db.outbox``); a turn notification still owed is moot once the table moves.
        ``end_reason``: why an abandoned table ended (``TableRecord.end_reason``).
        """
        # A change without log entries (ending a table, "I'm back") still moves ``seq``: it
        # is the table's version, which concurrent writers and the outbox (``shown_seq``)
        # rely on. Log entries keep the numbers of the commits that wrote them.
        new_seq = expected_seq + max(1, len(entries))
        ended = status in ("finished", "abandoned")
        async with self.db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE tables SET seq = ?, snapshot_json = ?, status = ?, updated_at = ?, "
                "finished_at = ?, seed = COALESCE(?, seed), turn_deadline = ?, reminder_at = ?, "
                "notify_at = ?, notify_seat = ?, notify_owed = NULL, end_reason = ? "
                "WHERE id = ? AND seq = ? AND status = ?",
                (
                    new_seq,
                    None if snapshot is None else _dumps(snapshot),
                    status,
                    now,
                    now if ended else None,
                    seed,
                    None if ended else turn_deadline,
                    None if ended else reminder_at,
                    None if ended else notify_at,
                    None if ended or notify_at is None else notify_seat,
                    end_reason if status == "abandoned" else None,
                    table_id,
                    expected_seq,
                    expected_status,
                ),
            )
            if changed != 1:
                raise StaleState("the table changed since it was loaded")
            if entries:
                try:
                    await conn.executemany(
                        "INSERT INTO actions (table_id, seq, kind, seat, payload_json, "
                        "created_at) VALUES (?, ?, ?, ?, ?, ?)",
                        [
                            (table_id, expected_seq + i, e.kind, e.seat, _dumps(e.payload), now)
                            for i, e in enumerate(entries, start=1)
                        ],
                    )
                except IntegrityError as e:
                    if e.constraint == "actions_pkey":
                        raise StaleState("these actions were already recorded") from e
                    raise
            if resign_seats:
                await conn.executemany(
                    "UPDATE seats SET resigned = 1, replaced = ? WHERE table_id = ? AND seat = ?",
                    [(int(replaced), table_id, s) for s in resign_seats],
                )
            if seat_expiries:
                await conn.executemany(
                    "UPDATE seats SET expiries = ? WHERE table_id = ? AND seat = ?",
                    [(n, table_id, s) for s, n in seat_expiries.items()],
                )
            if deal_results:
                await conn.executemany(
                    "INSERT INTO deal_results (table_id, deal_no, outcome, deltas_json, "
                    "detail_json, finished_at) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (
                            table_id,
                            d.deal_no,
                            d.outcome,
                            _dumps(list(d.deltas)),
                            _dumps(d.detail),
                            now,
                        )
                        for d in deal_results
                    ],
                )
            if game_results:
                await conn.executemany(
                    "INSERT INTO game_results (table_id, guild_id, game_id, seat, user_id, name, "
                    "score, won, finished_at, player_id, place, deals) "
                    "SELECT id, guild_id, game_id, ?, ?, ?, ?, ?, ?, ?, ?, ? "
                    "FROM tables WHERE id = ?",
                    [
                        (
                            g.seat,
                            g.user_id,
                            g.name,
                            g.score,
                            int(g.won),
                            now,
                            g.player_id,
                            g.place,
                            g.deals,
                            table_id,
                        )
                        for g in game_results
                    ],
                )
                await record_finished(conn, table_id, rater)
            if daily_result is not None:
                await daily.record_result(conn, table_id, daily_result, now)
            if league_until is not None and resign_seats:
                # A league entrant who leaves: deals after ``league_until`` are not theirs.
                await league.leave(conn, table_id, resign_seats, league_until)
            if league_results:
                await league.record_results(conn, table_id, league_results, now)
            if owner is not None:
                await outbox.take_lease(conn, table_id, new_seq, owner, lease_until, notices)
        return new_seq

    # ---- message bookkeeping -----------------------------------------------------------
    async def set_message(self, table_id: int, message_id: int | None) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id)
            )

    async def set_languages(self, user_id: int, language: str | None) -> list[int]:
        """The language of the user's seats at open tables (their DMs follow it); returns
        those tables' ids."""
        async with self.db.transaction() as conn:
            rows = await conn.fetchall(
                "UPDATE seats SET language = ? WHERE user_id = ? AND table_id IN "
                "(SELECT id FROM tables WHERE status IN ('lobby', 'playing')) RETURNING table_id",
                (language, user_id),
            )
        return sorted({int(r[0]) for r in rows})

    async def set_dm(
        self,
        table_id: int,
        seat: int,
        channel_id: int | None,
        message_id: int | None,
        failed: bool,
    ) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE seats SET dm_channel_id = ?, dm_message_id = ?, dm_failed = ? "
                "WHERE table_id = ? AND seat = ?",
                (channel_id, message_id, int(failed), table_id, seat),
            )
