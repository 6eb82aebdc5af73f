"""The core every table use case shares: locks, loading, decoding and the one commit.

Locks are per table, in this process and in the database (``bot.services.locks``), so the
services of several processes can share one PostgreSQL database. The database's lock is let go
while computer players think (``_advance``, ``_time_out``) and the table's ``seq`` checked when
it is back: a change another process made meanwhile means the work is done again
(``Recompute``, ``_recomputing``).

``TableCore.commit`` is the single way a change reaches the database: the log entries, the
snapshot, the status, the seats' timeout counters and the next turn deadline (the table's
turn clock, when the seat to act is a human's) go in one transaction guarded by ``seq``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import replace
from typing import TypeVar

from bot import metrics
from bot.db import daily, league, user_settings
from bot.db.database import Database
from bot.db.outbox import Outbox
from bot.db.tables import GameResultRecord, SeatRecord, StaleState, TableRecord, TableStore
from bot.engine import match
from bot.engine.events import Event
from bot.engine.match import MatchState
from bot.i18n import language_of
from bot.lru import LRU
from bot.services import compute, explain, ratings
from bot.services.errors import Conflict, NotFound, NotSeated, WrongState
from bot.services.locks import TableLock, TableLocks, held
from bot.services.models import Outcome, TableInfo
from bot.services.notices import NoticeData, life_notices, numbered
from bot.services.step import PlayStep, deal_number, human_seat, random_seed, table_info

log = logging.getLogger(__name__)

_MEMO_SIZE = 256  # decoded match states kept (validated by seq on every use)
DEFAULT_NOTIFY_DELAY = 20  # seconds before a waiting turn gets a real notification
#: How long the process that commits a change to a table is its only deliverer (renewed while
#: it delivers or holds a retry): another process re-publishes the table only after this.
DELIVERY_LEASE = 60.0

#: How many times a use case is done again when another process changed its table while its
#: computers thought (each time is rare: a cluster's two processes at one table at once).
RECOMPUTE_TRIES = 3
_T = TypeVar("_T")
_pool: ThreadPoolExecutor | None = None


class Recompute(Conflict):
    """The table changed while its computers thought without the database's lock: the work
    is stale and is done again from the new state (``TableCore._recomputing``)."""

    def __init__(self) -> None:
        super().__init__("changed_while_acting")


def engine_pool() -> ThreadPoolExecutor:
    """The shared threads that wait for the worker processes (``compute``), or do light
    engine work such as rebuilding an unshown state, off the event loop."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="trionfi-engine")
    return _pool


def _daily_result(
    rec: TableRecord, seats: tuple[SeatRecord, ...], m: MatchState | None, status: str
) -> daily.Result | None:
    """How a daily attempt ends with this commit (None: not a daily, or not ending): the
    player's score in the deal, or abandoned (closed without one; ``m`` may then be None)."""
    if rec.daily_date is None or status not in ("finished", "abandoned"):
        return None
    me = next(s for s in seats if s.user_id is not None)
    if status == "abandoned" or m is None:
        return daily.Result("abandoned", None, resigned=me.resigned)
    return daily.Result("finished", m.totals[me.seat], resigned=me.resigned)


def _league_results(
    rec: TableRecord, seats: tuple[SeatRecord, ...], step: PlayStep
) -> list[league.DealResult]:
    """Each entrant's score at each deal of a league table that ended with this commit
    (marked ``resigned`` once the casual computer plays for them: the abandon rule). A table
    of several humans has one per human seat; the store keeps none of a deal after an
    entrant's last (``league.leave``)."""
    if rec.league_session is None or not step.deal_results:
        return []
    return [
        league.DealResult(rec.id, d.deal_no, s.seat, d.deltas[s.seat], s.resigned)
        for d in step.deal_results
        for s in seats
        if not s.is_bot and s.user_id is not None
    ]


def _results(
    rec: TableRecord, seats: tuple[SeatRecord, ...], m: MatchState
) -> list[GameResultRecord]:
    """Every seat's result of a game that ends rated (finished, or ended by a resignation).

    A player the host replaced while away is neither ranked nor rated: their row names no
    rated entity, so the game counts neither for nor against them, nor for the computer that
    finished their seat (it played only part of the game).
    """
    winners = set(m.winners)
    places = ratings.placings(
        m.totals,
        m.winners,
        [s.seat for s in seats if s.resigned],
        [s.seat for s in seats if s.replaced],
    )
    return [
        GameResultRecord(
            seat=s.seat,
            user_id=s.user_id,
            name=s.name,
            score=m.totals[s.seat],
            won=s.seat in winners and not s.resigned,  # a resigned player never wins
            player_id=None if s.replaced else ratings.player_id(s.user_id, s.is_bot, rec.level),
            place=places[s.seat],
            deals=m.deals_played,
        )
        for s in seats
    ]


class TableCore:
    """Shared plumbing of the table services (no use case of its own)."""

    def __init__(
        self,
        db: Database,
        *,
        seed_source: Callable[[], int] = random_seed,
        clock: Callable[[], float] = time.time,
        workers: Executor | None = None,
        processes: Executor | None = None,
        job_seconds: float | None = None,
    ) -> None:
        """
        Args:
            db: an open, migrated database.
            seed_source: returns a table's seed when its lobby opens.
            clock: Unix time now (stored on rows, and the base of turn deadlines).
            workers: threads that wait for (or do) work off the event loop (default:
                ``engine_pool()``).
            processes: where computer players think (default: ``compute.process_pool()``).
            job_seconds: the deadline of one worker job (default: ``compute.JOB_SECONDS``),
                after which the casual computer decides instead.
        """
        self.db = db
        self.store = TableStore(db)
        self.outbox = Outbox(db)
        #: This service's name in claims of shared work (re-publishing), unique per process.
        self.instance = secrets.token_hex(8)
        self._seed_source = seed_source
        self._clock = clock
        self._locks = TableLocks(db, self.store)
        self._channel_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._memo: LRU[int, tuple[int, MatchState]] = LRU(_MEMO_SIZE)  # dropped when it ends
        self._workers = workers
        self._processes = processes
        self._job_seconds = job_seconds

    async def _off_loop(self, fn: Callable[[], _T]) -> _T:
        """Run CPU work (computer decisions, whole computer sequences) in a worker thread so
        the event loop keeps answering interactions meanwhile."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._workers or engine_pool(), fn)

    async def _advance(self, step: PlayStep) -> PlayStep:
        """``step.advance()`` (new deals, computer moves) in a worker process; returns the
        advanced step (a copy). A human to act with no deal to start needs no trip."""
        if not step.has_work():
            return step
        return await self._compute(
            step,
            lambda: compute.run(
                self._processes,
                compute.advance,
                step,
                fallback=lambda: compute.casually(step),
                deadline=self._job_seconds,
            ),
        )

    async def _time_out(self, step: PlayStep, seat: int, then_advance: bool) -> PlayStep:
        """The computer's decision for a timed-out ``seat`` (and the computer seats after
        it), in a worker process; returns the advanced step."""
        return await self._compute(
            step,
            lambda: compute.run(
                self._processes,
                compute.time_out,
                step,
                seat,
                then_advance,
                fallback=lambda: compute.casually(step, seat, then_advance),
                deadline=self._job_seconds,
            ),
        )

    async def _compute(self, step: PlayStep, job: Callable[[], PlayStep]) -> PlayStep:
        """Run ``job`` off the loop with the table's database lock let go (issue 29, defect
        5: no pooled connection is held while computers think). Once the lock is back, the
        table must still be at the ``seq`` the step started from, or ``Recompute``."""
        lock = held()
        if lock is None:  # not under a table lock (a caller that holds none)
            return await self._off_loop(job)
        start = step.seq - len(step.entries)  # the seq the step was loaded at
        async with lock.released():
            done = await self._off_loop(job)
        if await self.store.seq_of(lock.table_id) != start:
            log.info("table %s changed while its computers thought; recomputing", lock.table_id)
            raise Recompute
        return done

    async def _recomputing(self, work: Callable[[], Awaitable[_T]]) -> _T:
        """``work()``, done again from the table's new state when it raises ``Recompute``
        (at most ``RECOMPUTE_TRIES`` times, then the ``Conflict`` reaches the caller)."""
        for _ in range(RECOMPUTE_TRIES - 1):
            try:
                return await work()
            except Recompute:
                continue
        return await work()

    # ---- plumbing --------------------------------------------------------------------
    def _lock(self, table_id: int, *, wait: bool = True) -> TableLock:
        """The table's turn (``async with``); see ``bot.services.locks``."""
        return self._locks(table_id, wait=wait)

    def _channel_lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._channel_locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._channel_locks[channel_id] = lock
        return lock

    async def _load(self, table_id: int) -> TableRecord:
        # Ids come from custom_ids and commands: one beyond SQLite's integers names no table.
        rec = await self.store.get(table_id) if -(1 << 63) <= table_id < 1 << 63 else None
        if rec is None:
            raise NotFound("table_gone")
        return rec

    def _match(self, rec: TableRecord) -> MatchState:
        """The match of a freshly loaded row.

        Decoding a snapshot is the costliest step of a call, so the last decoded state of a
        table is memoised under the ``seq`` it was stored at, and reused only when the row
        just read still has that ``seq``. It can never be stale: every change of a snapshot
        (from any process) advances ``seq``, and the row is read on every call anyway.
        """
        hit = self._memo.get(rec.id)
        if hit is not None and hit[0] == rec.seq:
            return hit[1]
        snapshot = rec.snapshot
        # An invariant, for developers (never shown to a player).
        assert snapshot is not None, "a started table always has a snapshot"  # i18n: code
        m = match.from_json(snapshot)
        self._remember(rec.id, rec.seq, m)
        return m

    def _decoded(self, rec: TableRecord) -> MatchState | None:
        """``_match``, or None when the snapshot can no longer be decoded (corrupt, or written
        in a form the engine reads no more): such a table can only be closed, by
        ``_end_open``, so that it does not hold its channel for ever."""
        try:
            return self._match(rec)
        except Exception:  # whatever decoding raised: ending a table must not depend on it
            log.exception("table %s: its snapshot cannot be decoded", rec.id)
            return None

    async def _end_open(
        self,
        rec: TableRecord,
        event: Event,
        ender: int | None = None,
        notices: Sequence[NoticeData] | None = None,
        end_reason: str | None = None,
    ) -> Outcome:
        """End an open table (``event`` says why): a lobby closes; a game is abandoned, unrated
        and without results, or with ``ender`` recorded and rated as that seat's resignation
        (``TableLife.end_table``). ``end_reason``: why, for the game's messages (``TableInfo``).

        A game whose snapshot cannot be decoded is abandoned without replaying anything, and
        unrated whoever ends it. Its snapshot is dropped (a cache of the log, which stays
        whole), so that nothing after this (re-publishing, ``/record``) tries it again.
        """
        if rec.status == "lobby":
            await self.store.update_lobby(
                rec.id,
                owner_id=rec.owner_id,
                seats=rec.seats,
                now=self._clock(),
                abandon=True,
                end_reason=end_reason,
            )
            closed = replace(rec, status="abandoned", end_reason=end_reason)
            return Outcome(table=table_info(closed))
        m = self._decoded(rec)
        if m is not None:
            step = PlayStep(rec, m, rec.seed)
            step.note(event)
            if ender is None:
                return await self._commit(
                    rec, step, abandon=True, notices=notices, end_reason=end_reason
                )
            step.log("resign", ender, {"seat": ender})
            return await self._commit(
                rec, step, resign_seat=ender, abandon=True, rated_end=True, notices=notices
            )
        said = life_notices(rec, [(0, event)]) if notices is None else list(notices)
        now = self._clock()
        try:
            new_seq = await self.store.commit(
                rec.id,
                expected_seq=rec.seq,
                expected_status=rec.status,
                entries=(),
                snapshot=None,
                status="abandoned",
                now=now,
                daily_result=_daily_result(rec, rec.seats, None, "abandoned"),
                owner=self.instance,
                lease_until=now + DELIVERY_LEASE,
                notices=said,
                end_reason=end_reason,
            )
        except StaleState as e:
            raise Conflict("changed_while_acting") from e
        self._memo.pop(rec.id, None)
        closed = replace(
            rec,
            seq=new_seq,
            status="abandoned",
            end_reason=end_reason,
            turn_deadline=None,
            reminder_at=None,
            notify_at=None,
            notify_seat=None,
        )
        # Events carry their deal's number; with the match unread it is unknown (0).
        return Outcome(
            table=table_info(closed),
            events=((0, event),),
            notices=numbered(new_seq, said),
            prior_seq=rec.seq,
        )

    def _remember(self, table_id: int, seq: int, m: MatchState) -> None:
        self._memo[table_id] = (seq, m)

    @staticmethod
    def _require_playing(rec: TableRecord) -> None:
        if rec.status == "lobby":
            raise WrongState("not_started")
        if rec.status != "playing":
            # A replay replaced by a newer one (``TableReplays``) says so to its old buttons.
            raise WrongState("replay_replaced" if rec.end_reason == "replaced" else "game_over")

    async def _dm_language(self, user_id: int, locale: str | None) -> str:
        """A seated player's DM language: their ``/language`` choice, else their client's."""
        return await user_settings.language(self.db, user_id) or language_of(locale)

    @staticmethod
    def _busy(t: TableRecord) -> WrongState:
        """The channel already has an open table: which one, and whether it may be joined."""
        return WrongState("channel_busy", table=t.id, game=t.game_id, status=t.status)

    @staticmethod
    def _require_lobby(rec: TableRecord) -> None:
        if rec.status == "playing":
            raise WrongState("already_started")
        if rec.status != "lobby":
            raise WrongState("table_closed")

    @staticmethod
    def _seated(rec: TableRecord, user_id: int) -> int:
        seat = human_seat(rec, user_id)
        if seat is None:
            raise NotSeated("not_seated")
        return seat

    async def _outcome(
        self, info: TableInfo, m: MatchState | None, step: PlayStep | None
    ) -> Outcome:
        if m is None:
            return Outcome(table=info)
        rules = m.rules
        public = None
        views = {}
        if m.deal is not None:
            public = rules.observe_public(m.deal)
            views = {
                s.seat: rules.observe(m.deal, s.seat)
                for s in info.seats
                if s.user_id is not None and not s.resigned
            }
        return Outcome(
            table=info,
            events=tuple(step.events) if step else (),
            public=public,
            seat_views=views,
            ended_deals=tuple(step.ended) if step else (),
            totals=m.totals,
            deal_number=deal_number(m),
            deals_played=m.deals_played,
            finished=m.finished,
            winners=m.winners,
            new_deal=step.new_deal if step else False,
            reasons=await self._reasons(info.id) if m.deal is not None else (),
        )

    async def _reasons(self, table_id: int) -> tuple[Event, ...]:
        """The current deal's explained computer moves, from the log (``Outcome.reasons``)."""
        return tuple(
            explain.event(e.seat, e.payload["why"], e.payload)
            for e in await self.store.deal_reasons(table_id)
            if isinstance(e.payload.get("why"), dict)
        )

    async def _commit(
        self,
        rec: TableRecord,
        step: PlayStep,
        *,
        resign_seat: int | None = None,
        replaced: bool = False,
        abandon: bool = False,
        rated_end: bool = False,
        seed: int | None = None,
        actor: int | None = None,
        notify: bool = True,
        notices: Sequence[NoticeData] | None = None,
        league_until: int | None = None,
        end_reason: str | None = None,
    ) -> Outcome:
        """Persist ``step`` (see the module docstring).

        ``resign_seat`` is handed to the computer: resigned, or ``replaced`` by the host while
        away (``bot.services.life``). ``rated_end``: the table ends (``abandon``) by a player's
        resignation, so its results are recorded and rated as they stand, as if finished.

        ``actor`` is the seat whose decision this call made (a human's own action, or the
        computer's for a timed-out seat). A human whose turn starts after *another* seat's
        decision gets a turn notification after their delay; their own consecutive decisions
        never do. ``notify=False`` (the game's start, whose first hands are new messages that
        notify already) schedules none; a call that applied no decision keeps the pending one.
        """
        m = step.m
        now = self._clock()
        status = "abandoned" if abandon else ("finished" if m.finished else "playing")
        seats = rec.seats
        if resign_seat is not None:
            seats = tuple(
                replace(s, resigned=True, replaced=replaced) if s.seat == resign_seat else s
                for s in seats
            )
        results: list[GameResultRecord] = []
        # A practice table (hints on) is never rated: like an ended table, it leaves no result
        # in ratings, leaderboards, /stats or /history.
        # A daily attempt is never rated either: its result goes to the day's board; nor is
        # an unrated tournament's table (issue 34): its result goes to the standings; nor is a
        # league entry (issue 34): its deals are matchpointed in the league's standings.
        if (
            (status == "finished" or rated_end)
            and not rec.hints
            and rec.daily_date is None
            and rec.rated
            and rec.league_session is None
        ):
            results = _results(rec, seats, m)
        if step.expiries:
            seats = tuple(
                replace(s, expiries=step.expiries[s.seat]) if s.seat in step.expiries else s
                for s in seats
            )
        deadline = reminder = None
        turn = match.to_act(m) if status == "playing" else None
        pending = status == "playing" and step.has_work()
        if pending:
            # Computer moves are still to make (a run cut short at its limits, issue 28): due
            # at once, so the sweeper goes on with them in a job of their own.
            deadline = now
        elif rec.turn_clock and turn is not None and turn not in step.auto:
            # A human must decide: their clock starts now, with a reminder at half time.
            deadline = now + rec.turn_clock
            reminder = now + rec.turn_clock / 2
        daily_result = _daily_result(rec, seats, m, status)
        notify_at, notify_seat = await self._notification(
            rec, step, status, turn, actor=actor, notify=notify, now=now
        )
        said = life_notices(rec, step.events) if notices is None else list(notices)
        try:
            new_seq = await self.store.commit(
                rec.id,
                expected_seq=rec.seq,
                expected_status=rec.status,
                entries=step.entries,
                snapshot=match.to_json(m),
                status=status,
                now=now,
                seed=seed,
                turn_deadline=deadline,
                reminder_at=reminder,
                deal_results=step.deal_results,
                game_results=results,
                rater=ratings.rate,
                resign_seats=() if resign_seat is None else (resign_seat,),
                replaced=replaced,
                seat_expiries=step.expiries,
                notify_at=notify_at,
                notify_seat=notify_seat,
                daily_result=daily_result,
                league_results=_league_results(rec, seats, step),
                league_until=league_until,
                owner=self.instance,
                lease_until=now + DELIVERY_LEASE,
                notices=said,
                end_reason=end_reason,
            )
        except StaleState as e:
            raise Conflict("changed_while_acting") from e
        metrics.decisions(
            rec.game_id, [e.payload.get("by", "human") for e in step.entries if e.kind == "act"]
        )
        metrics.ai_decisions(rec.game_id, rec.level, step.thinking)
        if status == "playing":
            self._remember(rec.id, new_seq, m)
        else:
            self._memo.pop(rec.id, None)
        new_rec = replace(
            rec,
            seq=new_seq,
            status=status,
            seats=seats,
            turn_deadline=None if pending else deadline,  # no human's clock runs meanwhile
            reminder_at=reminder,
            notify_at=notify_at,
            notify_seat=notify_seat,
            end_reason=end_reason if status == "abandoned" else None,
        )
        return replace(
            await self._outcome(table_info(new_rec), m, step),
            rated=bool(results),
            notices=numbered(new_seq, said),
            prior_seq=rec.seq,
        )

    async def _notification(
        self,
        rec: TableRecord,
        step: PlayStep,
        status: str,
        turn: int | None,
        *,
        actor: int | None,
        notify: bool,
        now: float,
    ) -> tuple[float | None, int | None]:
        """When (and whom) the next turn notification is due, after this commit."""
        if status != "playing" or turn is None or turn in step.auto or not notify:
            return None, None
        if not any(e.kind in ("act", "deal") for e in step.entries):
            return rec.notify_at, rec.notify_seat  # nobody decided: the same turn goes on
        if turn == actor:
            return None, None  # their own consecutive decisions
        user = next((s.user_id for s in rec.seats if s.seat == turn), None)
        if user is None:
            return None, None
        delay = await user_settings.notify_delay(self.db, user)
        if delay is None:
            delay = DEFAULT_NOTIFY_DELAY
        if delay == user_settings.NEVER:
            return None, None
        return now + delay, turn
