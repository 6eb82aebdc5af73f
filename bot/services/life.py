"""Table life: turn clocks and the sweeper, away seats, resigning, admin controls, settings.

Turn deadlines live in the database (``tables.turn_deadline``/``reminder_at``, set by every
commit while a human must decide), so one periodic ``sweep`` serves every table and survives
restarts. Every process of a cluster sweeps; each due item is claimed in the database, so it
happens once: a reminder or notification by a conditional UPDATE on the table's ``seq``, an
expiry by taking the table's lock without waiting (a table another process is at is skipped,
like ``SKIP LOCKED``, and checked again under the lock).

On expiry the computer policy decides for the human (never a penalty) and the seat
counts a timeout: one marks it away, two in a row hand it to the computer until the human
presses **I'm back** (any own action also resets the count).

Fair ratings (issue 28; the README's "Replace and end" says the same to players): the host or
an admin may ``replace`` only a player who is away, and the game then counts neither for nor
against that player; ending a rated game one plays in, while another human still plays, is
one's resignation (``end_table``).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

from bot.db import guild_settings
from bot.db.guild_settings import GuildSettingsRecord
from bot.db.tables import SeatRecord, TableRecord
from bot.engine import match
from bot.engine.events import Event
from bot.i18n import LANGUAGES
from bot.services.bounds import Where, require_here
from bot.services.core import TableCore
from bot.services.errors import Conflict, Forbidden, InvalidRequest, NotSeated, WrongState
from bot.services.models import Outcome, TableInfo
from bot.services.notices import NoticeData, life_notices
from bot.services.step import AWAY_TAKEOVER, PlayStep, table_info

log = logging.getLogger(__name__)

#: Turn clocks a table can have (seconds per decision; None: no clock).
CLOCKS: dict[str, int | None] = {"off": None, "relaxed": 600, "normal": 120, "fast": 45}
#: How long the game must have waited on a player (seconds) before the host may replace them,
#: when their turn clock has not run out: long enough that nobody is replaced for thinking,
#: short enough that a table without a clock is not held up for long by someone who left. A
#: longer turn clock is waited out in full.
REPLACE_AFTER = 300.0


@dataclass(frozen=True, slots=True)
class Reminder:
    """A human whose turn is half over: the Discord layer DMs them."""

    table: TableInfo
    seat: int
    user_id: int
    seconds_left: float


@dataclass(frozen=True, slots=True)
class Notification:
    """A human whose turn started after someone else's decision and who has not acted within
    their delay: the Discord layer gives them a new message (edits notify nobody)."""

    table: TableInfo
    seat: int
    user_id: int


@dataclass(frozen=True, slots=True)
class SweepReport:
    reminders: tuple[Reminder, ...] = ()
    expired: tuple[Outcome, ...] = ()
    notifications: tuple[Notification, ...] = ()


class TableLife(TableCore):
    """Use cases that keep tables moving and let hosts and admins manage them."""

    # ---- the sweeper -----------------------------------------------------------------
    async def sweep(self, now: float | None = None) -> SweepReport:
        """Due turn notifications and half-time reminders, then overdue turns (acted for by
        the computer), one after another. The bot's sweeper runs these as independent tasks
        (``reminders_due``, ``notifications_due``, ``overdue``/``expire_turn``); this whole
        round is for callers that want everything done when it returns."""
        when = self._clock() if now is None else now
        reminders = await self.reminders_due(when)
        notifications = await self.notifications_due(when)
        expired = await self.expire_overdue(when)
        return SweepReport(tuple(reminders), tuple(expired), tuple(notifications))

    async def reminders_due(self, now: float | None = None) -> list[Reminder]:
        """Half-time reminders due now, each claimed (at most once a turn)."""
        when = self._clock() if now is None else now
        reminders: list[Reminder] = []
        for table_id in await self.store.reminders_due(when):
            rec = await self.store.get(table_id)
            if rec is None or rec.turn_deadline is None:
                continue
            seat = match.to_act(self._match(rec)) if rec.status == "playing" else None
            user = next((s.user_id for s in rec.seats if s.seat == seat), None)
            if seat is None or user is None or not await self.store.clear_reminder(rec.id, rec.seq):
                continue
            reminders.append(Reminder(table_info(rec), seat, user, rec.turn_deadline - when))
        return reminders

    async def notifications_due(self, now: float | None = None) -> list[Notification]:
        """Turn notifications due now, each claimed (at most once a turn)."""
        when = self._clock() if now is None else now
        notifications: list[Notification] = []
        for table_id, seq in await self.store.notifications_due(when):
            found = await self.take_notification(table_id, seq, when)
            if found is not None:
                notifications.append(found)
        return notifications

    async def overdue(self, now: float | None = None) -> list[int]:
        """Tables whose turn is overdue now (``expire_turn`` each)."""
        return await self.store.overdue(self._clock() if now is None else now)

    async def take_notification(
        self, table_id: int, seq: int, now: float | None = None
    ) -> Notification | None:
        """Claim the table's turn notification if it is due at ``seq`` (at most once a turn):
        it is owed to its seat until a delivery sends it."""
        when = self._clock() if now is None else now
        rec = await self.store.get(table_id)
        if (
            rec is None
            or rec.status != "playing"
            or rec.seq != seq
            or rec.notify_at is None
            or rec.notify_at > when
            or rec.notify_seat is None
        ):
            return None
        seat = next((s for s in rec.seats if s.seat == rec.notify_seat), None)
        if seat is None or seat.user_id is None or seat.resigned:
            return None
        # Owed from now on, in the database: whichever delivery sends it takes it
        # (``Outbox.take_owed``), and a crash before that leaves it for the re-publisher.
        if await self.outbox.owe_notification(table_id, seq) is None:
            return None
        return Notification(table_info(rec), seat.seat, seat.user_id)

    async def expire_overdue(self, now: float | None = None) -> list[Outcome]:
        """The computer decides for every human whose turn is overdue (issue 8: the computer
        policy, never a penalty), and the seat's consecutive timeouts go up by one.

        Each table is handled on its own: one that fails is logged and retried at the next
        sweep, and never stops the tables after it.
        """
        when = self._clock() if now is None else now
        outcomes: list[Outcome] = []
        for table_id in await self.store.overdue(when):
            outcome = await self.expire_turn(table_id, when)
            if outcome is not None:
                outcomes.append(outcome)
        return outcomes

    async def expire_turn(self, table_id: int, now: float | None = None) -> Outcome | None:
        """The computer decides for the table's overdue turn (``expire_overdue``). None when
        there was nothing to do, or the table is busy (someone is at it, here or in another
        process: skipped, never waited on, and found again at the next round), or the
        expiry failed (logged)."""
        when = self._clock() if now is None else now
        try:
            return await self._expire(table_id, when)
        except Conflict:
            log.info("table %s changed while expiring its turn", table_id)
        except Exception:
            log.exception("could not expire the turn at table %s", table_id)
        return None

    async def _expire(self, table_id: int, when: float) -> Outcome | None:
        async with self._lock(table_id, wait=False) as ours:
            if not ours:
                return None  # another process is at this table: its own sweep, or a move
            rec = await self.store.get(table_id)
            if (
                rec is None
                or rec.status != "playing"
                or rec.turn_deadline is None
                or rec.turn_deadline > when
            ):
                return None
            m = self._match(rec)
            step = PlayStep(rec, m, rec.seed)
            if step.has_work():
                # Not a human's clock: computer moves an earlier job left for later (its run
                # reached ``step.COMPUTER_RUN_MOVES`` or ``COMPUTER_RUN_SECONDS``).
                return await self._commit(rec, await self._advance(step))
            seat = match.to_act(m)
            if seat is None:
                return None
            count = next(s.expiries for s in rec.seats if s.seat == seat) + 1
            step.expiries[seat] = count
            step.note(Event("timed_out", seat, {"expiries": count}))
            if count >= AWAY_TAKEOVER:
                step.auto.add(seat)
                if count == AWAY_TAKEOVER:
                    step.note(Event("taken_over", seat))
            # Nobody left to play for: the table ends unrated rather than letting computers
            # finish a game no human is playing.
            abandon = not self._present(rec, step)

            step = await self._time_out(step, seat, then_advance=not abandon)
            if abandon:
                step.note(Event("abandoned"))
            return await self._commit(rec, step, abandon=abandon, actor=seat)

    @staticmethod
    def _present(rec: TableRecord, step: PlayStep) -> list[int]:
        """Seats of humans still playing for themselves: not resigned, and not away with the
        computer playing for them (``step.auto``)."""
        return [s.seat for s in rec.seats if s.user_id is not None and s.seat not in step.auto]

    async def im_back(self, table_id: int, user_id: int, *, where: Where | None = None) -> Outcome:
        """The human takes their seat back from the computer (or clears "away")."""
        async with self._lock(table_id):
            rec = await self._load(table_id)
            require_here(rec, where, "seat")
            self._require_playing(rec)
            seat = self._seated(rec, user_id)
            if next(s.expiries for s in rec.seats if s.seat == seat) == 0:
                raise WrongState("not_away")
            step = PlayStep(rec, self._match(rec), rec.seed)
            step.expiries[seat] = 0
            step.auto.discard(seat)
            step.note(Event("back", seat))
            return await self._commit(rec, step, actor=seat)

    # ---- leaving and admin controls --------------------------------------------------
    async def resign(
        self,
        table_id: int,
        user_id: int,
        *,
        where: Where | None = None,
        leaving: bool = False,
    ) -> Outcome:
        """The user leaves a game in play; a computer plays their seat from now on.

        The resigned player is recorded as not winning (their seat's score still counts at
        the table). If no active human remains the table is abandoned, without results.
        ``leaving``: they leave every table at once (``leave_all``); the channel is told a
        player left rather than who resigned.
        """
        return await self._recomputing(lambda: self._resign(table_id, user_id, where, leaving))

    async def _resign(
        self, table_id: int, user_id: int, where: Where | None, leaving: bool
    ) -> Outcome:
        async with self._lock(table_id):
            rec = await self._load(table_id)
            require_here(rec, where, "seat")
            self._require_playing(rec)
            seat = self._seated(rec, user_id)
            return await self._hand_to_computer(
                rec, seat, "resigned", notice=("left", {}) if leaving else ("resigned", {})
            )

    async def replace_player(
        self,
        table_id: int,
        actor_id: int,
        target_user_id: int,
        *,
        admin: bool = False,
        where: Where | None = None,
    ) -> Outcome:
        """The host (or a server admin) gives an away player's seat to a computer.

        Away: their turn clock ran out (the seat is marked away), or the game has waited on
        them for ``REPLACE_AFTER`` (their turn clock, if longer). Nobody replaces themselves:
        that is resigning. The replaced player is not ranked: the game counts neither for nor
        against them (``bot.services.core._results``).
        """
        async with self._lock(table_id):
            rec = await self._load(table_id)
            require_here(rec, where)
            self._require_playing(rec)
            self._require_host(rec, actor_id, admin)
            target = next(
                (s for s in rec.seats if s.user_id == target_user_id and not s.resigned), None
            )
            if target is None:
                raise NotSeated("member_not_playing")
            if target_user_id == actor_id:
                raise Forbidden("replace_self")
            wait = max(REPLACE_AFTER, rec.turn_clock or 0)
            if not self._away(rec, target, wait):
                raise WrongState("replace_not_away", minutes=math.ceil(wait / 60))
            return await self._hand_to_computer(rec, target.seat, "replaced")

    def _away(self, rec: TableRecord, seat: SeatRecord, wait: float) -> bool:
        """Whether ``seat`` is away: marked so by its clock, or the game has waited on it for
        ``wait`` seconds (every commit moves ``updated_at``, so it is how long the seat to act
        has had the turn)."""
        if seat.expiries > 0:
            return True
        if self._clock() - rec.updated_at < wait:
            return False
        return match.to_act(self._match(rec)) == seat.seat

    async def end_table(
        self,
        table_id: int,
        actor_id: int,
        *,
        admin: bool = False,
        guild_id: int | None = None,
        by_name: str = "",
    ) -> Outcome:
        """The host (or a server admin) ends a lobby or a game.

        A rated game ended by one of its players while another human still plays is that
        player's resignation: it is recorded and rated as it stands, the ender last, the others
        by their totals so far (``Outcome.rated``). Otherwise it is recorded as abandoned (no
        results, not rated): an admin without a seat, a practice table, nobody left to rate
        against, or a snapshot that can no longer be decoded (closed without replaying it).

        ``admin``: the actor has Manage Server in ``guild_id``, which then counts only for
        that server's tables (a button's table id can be crafted). ``guild_id`` None is for
        callers that already hold the table (e.g. a lobby the bot could not post).
        ``by_name``: the ender's name, for the channel's notice.
        """
        async with self._lock(table_id):
            rec = await self._load(table_id)
            if guild_id is not None and rec.guild_id != guild_id:
                admin = False  # an admin of another server
                if actor_id != rec.owner_id:  # before anything about the table is told
                    raise Forbidden("other_server", table=table_id)
            if rec.status not in ("lobby", "playing"):
                raise WrongState("already_ended")
            if rec.league_session is not None and rec.status == "playing" and not admin:
                # Ending it would end every player's entry of the set: each leaves alone.
                raise Forbidden("league_no_end")
            self._require_host(rec, actor_id, admin)
            ended = Event("abandoned", data={"by": actor_id})
            ender = self._resigning_ender(rec, actor_id)
            notice = ("ended", {"name": by_name, "rated": ender is not None})
            return await self._end_open(
                rec, ended, ender, [] if rec.status == "lobby" else [notice]
            )

    @staticmethod
    def _resigning_ender(rec: TableRecord, actor_id: int) -> int | None:
        """The ender's seat when ending the game is their resignation: a rated game (not a
        practice table nor a daily), a seat of theirs (resigned or replaced included: a player
        who left cannot void the game by ending it), and another human who has not resigned.
        None: the table ends unrated."""
        if rec.hints or rec.daily_date is not None or rec.league_session is not None:
            return None
        mine = next((s.seat for s in rec.seats if s.user_id == actor_id), None)
        others = [s for s in rec.seats if s.user_id not in (None, actor_id) and not s.resigned]
        return mine if others else None

    @staticmethod
    def _require_host(rec: TableRecord, actor_id: int, admin: bool) -> None:
        if actor_id != rec.owner_id and not admin:
            raise Forbidden("host_or_admin")

    async def _hand_to_computer(
        self, rec: TableRecord, seat: int, why: str, notice: NoticeData | None = None
    ) -> Outcome:
        """``why``: ``resigned`` (their choice) or ``replaced`` (the host's, while away).
        ``notice``: what the channel is told of a resignation (``resigned`` names the seat and
        says whether the table closed; ``left`` comes before the events' own notices)."""
        replaced = why == "replaced"
        m = self._match(rec)
        step = PlayStep(rec, m, rec.seed)
        step.log("resign", seat, {"seat": seat})
        step.note(Event(why, seat))
        step.auto.add(seat)
        # Humans the computer already plays for (away after two timeouts) are not present:
        # handing the last present seat over must close the table, not let computers play
        # the rest of the match in this call.
        closed = not self._present(rec, step)
        if closed:
            step.note(Event("abandoned"))
        else:
            step = await self._advance(step)
        notices: list[NoticeData] | None = None  # the events' own (``life_notices``)
        if notice is not None and notice[0] == "resigned":
            notices = [("resigned", {"seat": seat, "closed": closed})]
        elif notice is not None:
            notices = ([notice] if not closed else []) + life_notices(rec, step.events)
        return await self._commit(
            rec, step, resign_seat=seat, replaced=replaced, abandon=closed, notices=notices
        )

    # ---- server settings -------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettingsRecord:
        return await guild_settings.get(self.db, guild_id)

    async def update_guild_settings(
        self,
        guild_id: int,
        *,
        turn_clock: str | None = None,
        computers_allowed: bool | None = None,
        global_leaderboards: bool | None = None,
        allow_channel: int | None = None,
        disallow_channel: int | None = None,
        any_channel: bool = False,
        pictures: bool | None = None,
        language: str | None = None,
    ) -> GuildSettingsRecord:
        """Change the given settings (``None`` keeps a setting) and return them all.

        ``language``: a code of ``bot.i18n.LANGUAGES``, or ``"auto"`` to follow the server's
        Discord language again."""
        current = await guild_settings.get(self.db, guild_id)
        if turn_clock is not None and turn_clock not in CLOCKS:
            raise InvalidRequest("bad_clock", clock=turn_clock, clocks=list(CLOCKS))
        if language is not None and language != "auto" and language not in LANGUAGES:
            raise InvalidRequest("bad_language")
        channels = set(() if any_channel else current.channels)
        if allow_channel is not None:
            channels.add(allow_channel)
        if disallow_channel is not None:
            channels.discard(disallow_channel)
        new = GuildSettingsRecord(
            guild_id,
            tuple(sorted(channels)),
            turn_clock if turn_clock is not None else current.turn_clock,
            current.computers_allowed if computers_allowed is None else computers_allowed,
            current.global_leaderboards if global_leaderboards is None else global_leaderboards,
            current.pictures if pictures is None else pictures,
            current.language if language is None else (None if language == "auto" else language),
        )
        await guild_settings.put(self.db, new, self._clock())
        return new

    async def open_tables(self, guild_id: int) -> list[TableInfo]:
        """The server's lobbies and running games, oldest first."""
        return [table_info(r) for r in await self.store.open_in_guild(guild_id)]
