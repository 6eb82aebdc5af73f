"""The publisher: brings a table's public message and its players' DM hands up to date after a
commit, durably and cheaply.

- **Separate from replying.** Interactions are answered first; a commit's ``Outcome`` is then
  handed to ``publish`` and delivered by one task per table (its channel by ``channel.Channel``,
  its DMs by ``hands.Hands``). Outcomes that arrive while a delivery runs are merged: channel
  posts (deal summaries, notices, results) keep their order, the table message and hands only
  show the newest state.
- **Durable.** Only when every recipient shows a commit is its ``seq`` marked shown. A failed
  delivery is retried at once with short backoffs, then parked and retried by the sweeper with
  a growing delay; on start-up and in every sweep, tables whose shown ``seq`` lags are
  re-published from the database (``TableService.unshown_outcome``).
- **Isolated.** Each recipient's failure is its own (``failures.attempt``): a deleted table
  message is re-posted, a deleted channel closes the table unrated (its players are told by
  DM), a blocked DM switches that seat to **Show my hand** with one public notice, a 5xx/429
  leaves that recipient for the retry and never stops the others.
- **Within the channel's permissions** (``access``, issue 28): a channel that denies the bot
  a permission gets the table degraded (no pictures, plain text, Unicode suits); one it
  cannot post in is retried with back-off while the game goes on in the DMs, and the table
  closes only after ``access.UNREACHABLE_LIMIT``. The host is told once what is missing.
- **Cheap.** A DM is edited only when what its player sees changed (a fingerprint of the
  rendered hand and controls); the public table carries the trick. The player who must act next
  is updated first, the other hands concurrently; DM channels are created from the stored id or
  the user id alone (no user lookups).
- **Noticed.** Edits notify nobody: a turn notification re-sends the hand as a new DM and
  deletes the old one (or pings a player without DMs in the channel).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from typing import Any

from bot import lru, metrics
from bot.db.outbox import DeliveryState
from bot.log import bind, table_fields
from bot.services.errors import ServiceError
from bot.services.life import Notification
from bot.services.models import Outcome, TableInfo
from bot.services.tables import TableService
from bot.ui.delivery.access import REFUSED, UNREACHABLE_LIMIT, blocks
from bot.ui.delivery.channel import Channel, Shown
from bot.ui.delivery.closing import tell_closed
from bot.ui.delivery.hands import Hands
from bot.ui.delivery.jobs import Job, fingerprint, mark, together
from bot.ui.delivery.posts import job_for
from bot.ui.delivery.protocols import Messenger, Screens
from bot.ui.delivery.views import HandViews

log = logging.getLogger(__name__)

RETRY_DELAYS = (0.5, 2.0)  # immediate retries of a failed delivery (seconds)
PARK_DELAYS = (5.0, 15.0, 60.0, 300.0)  # then: retried by the sweeper, at most this often
SWEEP_GRACE = 10.0  # seconds a commit may take to reach ``submit`` before a sweep re-publishes
LEFTOVERS_EVERY = 60.0  # seconds between two looks for what cut deliveries left undeleted


class Publisher:
    """Delivers tables for one bot (see the module docstring)."""

    def __init__(
        self,
        bot: Messenger,
        service: TableService,
        screens: Screens,
        *,
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
        park_delays: tuple[float, ...] = PARK_DELAYS,
    ) -> None:
        self.bot = bot
        self.service = service
        self.screens = screens
        self.retry_delays = retry_delays
        self.park_delays = park_delays
        # Work, not caches: a table is in these only while it has something to show.
        self._pending: dict[int, Job] = {}  # waiting for the table's task
        self._parked: dict[int, tuple[Job, float]] = {}  # failed: (job, retry at)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        # Caches (``bot.lru``): a table's entries go when it ends (``_forget``), and the caps
        # bound what tables that end unseen leave. An evicted fingerprint costs one edit.
        # (table, seat or -1) -> that message and the fingerprint of what it shows (``mark``)
        self.shown: lru.LRU[tuple[int, int], str] = lru.LRU(lru.SEATS)
        self.hands = Hands(bot, service, screens, self.shown)
        self.channel = Channel(bot, service, screens, self.hands, self.shown)
        self.views = HandViews(bot, service, screens)  # the players' "Show my hand" answers
        # table -> when its channel began refusing (evicted: its hour of grace starts again)
        self._refused_since: lru.LRU[int, float] = lru.LRU(lru.TABLES)
        self._leftovers_due = 0.0  # when a sweep next looks for them (``LEFTOVERS_EVERY``)

    # ---- entry points --------------------------------------------------------------------
    def publish(
        self,
        outcome: Outcome,
        *,
        fresh_message: bool = False,
    ) -> None:
        """Queue the table message, every human's DM hand and the channel posts ``outcome``
        owes (its deal summaries, notices and result) for delivery after a change, and those
        of the other tables it changed (``Outcome.others``); returns at once."""
        for other in outcome.others:
            self.publish(other)
        self._enqueue(outcome.table.id, self._job(outcome, fresh_message))

    def submit(
        self, outcome: Outcome, *, fresh: bool = False, renotify: set[int] | None = None
    ) -> None:
        """Queue ``outcome`` for delivery; returns at once."""
        self._enqueue(outcome.table.id, self._job(outcome, fresh, renotify or set()))

    def _job(self, outcome: Outcome, fresh: bool = False, renotify: set[int] | None = None) -> Job:
        """The job that shows ``outcome`` and the posts it owes (``posts.job_for``), with the
        suit signs the bot may use in the table's channel."""
        plain = "use_external_emojis" in self.channel.lacking(outcome.table)
        return job_for(outcome, self.screens, plain=plain, fresh=fresh, renotify=renotify)

    def host_told(self, table_id: int, lacking: frozenset[str]) -> None:
        """The table's host already knows the bot lacks ``lacking`` in its channel (told when
        opening it): no DM about it."""
        self.channel.notices.told(table_id, lacking)

    def seen_table(self, table_id: int, message_id: int, fields: dict[str, Any]) -> None:
        """The table message ``message_id`` now shows ``fields`` (redrawn by an
        interaction)."""
        self.shown[(table_id, -1)] = mark(message_id, fingerprint(fields))

    def seen_dm(self, table_id: int, seat: int, message_id: int, fields: dict[str, Any]) -> None:
        """The seat's DM hand ``message_id`` now shows ``fields`` (redrawn by the interaction
        it came from)."""
        self.shown[(table_id, seat)] = mark(message_id, fingerprint(fields))

    async def notify(self, n: Notification) -> None:
        """A turn notification the sweeper found due (owed in the database): re-send that
        seat's hand as a new DM."""
        outcome = await self.service.snapshot(n.table.id, None)
        self._enqueue(n.table.id, Job(outcome, renotify={n.seat}))

    async def republish(self, *, now: float | None = None, startup: bool = False) -> None:
        """Keep the lease of the tables this process delivers or holds a retry of, retry
        parked deliveries that are due, and re-publish tables whose shown ``seq`` lags or
        that owe a turn notification, if no other process holds their lease (all of them on
        start-up; otherwise those idle for ``SWEEP_GRACE``); delete what a cut delivery
        replaced but left behind (``Channel.retire_leftovers``)."""
        when = self.service.now() if now is None else now
        held = set(self._pending) | set(self._tasks) | set(self._parked)
        if held:
            await self.service.renew_leases(sorted(held))
        for table_id, (job, at) in list(self._parked.items()):
            if at <= when:
                del self._parked[table_id]
                self._enqueue(table_id, job)
        before = None if startup else when - SWEEP_GRACE
        for table_id in await self.service.unshown_tables(before):
            if table_id in held:
                continue
            try:
                outcome = await self.service.unshown_outcome(table_id)
            except Exception:
                log.exception(
                    "could not rebuild table %s for re-publishing",
                    table_id,
                    extra={"table": table_id},
                )
                continue
            if outcome is not None:
                log.info(
                    "re-publishing table %s (seq %s)",
                    table_id,
                    outcome.table.seq,
                    extra=table_fields(outcome.table),
                )
                self._enqueue(table_id, self._job(outcome))
        if startup or when >= self._leftovers_due:  # rare, and never urgent: not every sweep
            self._leftovers_due = when + LEFTOVERS_EVERY
            await self.channel.retire_leftovers(held | set(self._pending) | set(self._tasks))

    async def drain(self, timeout: float | None = None) -> None:
        """Wait until every queued delivery has run (parked ones excluded). With a
        ``timeout`` (the sweeper's), wait at most that long for the deliveries queued now:
        a busy bot always has more, and the next sweep must not wait for them."""
        if timeout is not None:
            if self._tasks:
                await asyncio.wait(list(self._tasks.values()), timeout=timeout)
            return
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()

    async def release(self) -> None:
        """This process stops delivering: its tables' leases end now, so another process (or
        the next start) re-publishes whatever they still owe at once, not a lease later."""
        try:
            await self.service.release_leases()
        except Exception:  # best effort: the leases lapse by themselves
            log.exception("could not release the delivery leases")

    # ---- the per-table task --------------------------------------------------------------
    def _enqueue(self, table_id: int, job: Job) -> None:
        parked = self._parked.pop(table_id, None)
        if parked is not None:
            job = parked[0].merge(job)
        queued = self._pending.get(table_id)
        self._pending[table_id] = job if queued is None else queued.merge(job)
        if table_id not in self._tasks:
            task = asyncio.get_running_loop().create_task(self._run(table_id))
            self._tasks[table_id] = task

    async def _run(self, table_id: int) -> None:
        # This is its own task (its own copy of the log context): every line logged while
        # delivering carries the table, not the user or component of whatever started it.
        bind(table=table_id, user=None, custom_id=None, command=None)
        try:
            while (job := self._pending.pop(table_id, None)) is not None:
                bind(**table_fields(job.outcome.table))
                try:
                    done = await self._deliver(job)
                except Exception:
                    log.exception("publishing table %s failed", table_id)
                    done = False
                if done:
                    continue
                newer = self._pending.pop(table_id, None)
                job = job if newer is None else job.merge(newer)
                job.attempts += 1
                if job.attempts <= len(self.retry_delays):
                    await asyncio.sleep(self.retry_delays[job.attempts - 1])
                    self._pending[table_id] = (
                        job
                        if table_id not in self._pending
                        else job.merge(self._pending.pop(table_id))
                    )
                    continue
                delay = self.park_delays[
                    min(job.attempts - len(self.retry_delays), len(self.park_delays)) - 1
                ]
                log.warning(
                    "table %s could not be fully published (attempt %s); retrying in %s s",
                    table_id,
                    job.attempts,
                    delay,
                )
                self._parked[table_id] = (job, self.service.now() + delay)
        finally:
            self._tasks.pop(table_id, None)

    async def _deliver(self, job: Job) -> bool:
        """One delivery of ``job``; True once every recipient shows it (or another process
        delivers the table)."""
        table_id = job.outcome.table.id
        state = await self.service.delivery_state(table_id)
        if state is None:
            return True  # the table is gone: nothing to show
        if not await self._catch_up(job, state):
            return True  # another process delivers the table, and whatever it still owes
        if state.notify_owed is not None and state.seq == job.outcome.table.seq:
            job.renotify.add(state.notify_owed)  # found due, and not sent yet
        try:
            table = await self.service.get_table(table_id)  # current message and DM ids
        except ServiceError:
            return True
        # Messages earlier deliveries replaced and recorded, but were cut off before deleting.
        await self.channel.retire_replaced(table)
        outcome = job.outcome
        turn = outcome.public.to_act if outcome.public is not None else None
        after: DeliveryState | None = None  # the table's state once it is drawn
        if job.fresh or any(p.replaces for p in job.posts) or table.message_id is None:
            # A new table message is coming: the hands link to it, so they go after it.
            shown = await self._deliver_channel(job, table)
            if shown is None:
                return True
            table = await self.service.get_table(table_id)
            job.outcome = replace(
                outcome, table=replace(outcome.table, message_id=table.message_id)
            )
            hands_ok = await self.hands.deliver(job, table, turn)
        else:
            shown, hands_ok = await together(
                self._deliver_channel(job, table), self.hands.deliver(job, table, turn)
            )
            if shown and hands_ok:
                after = await self.service.delivery_state(table_id)
                if after is not None and after.message_id not in (None, table.message_id):
                    # The channel posted the table anew meanwhile (its message was too old to
                    # edit, or gone): the hands drawn beside it link to the old message, and
                    # nothing else would redraw them (found by bench/chaos_bench.py).
                    table = await self.service.get_table(table_id)
                    job.outcome = replace(
                        job.outcome, table=replace(job.outcome.table, message_id=table.message_id)
                    )
                    hands_ok = await self.hands.deliver(job, table, turn)
        if shown is None:  # the channel is gone, or refused for too long: the table was closed
            return True
        # Best effort, never a reason to retry: a "Show my hand" answer not redrawn now is
        # redrawn by the next delivery, or stamped out of date by the sweeper.
        await self.views.refresh(job.outcome, table)
        if not (shown and hands_ok):
            return False
        if job.upto is not None:
            await self.service.mark_shown(table_id, job.upto)
            metrics.delivered(time.monotonic() - job.since)
        if outcome.table.status in ("finished", "abandoned"):
            self._forget(table_id)
            # The players' click tokens (``clicks.edit_by_click``) are credentials: none outlives
            # its table.
            await self.service.forget_clicks(table_id)
            return True
        if after is None:
            after = await self.service.delivery_state(table_id)
        if after is not None and after.seq > outcome.table.seq and table_id not in self._pending:
            # A newer state was committed (here or elsewhere) while this one was drawn: it must
            # not stay under this older one, whoever draws it last (issue 29).
            self._pending[table_id] = Job(await self.service.snapshot(table_id, None))
        return True

    async def _catch_up(self, job: Job, state: DeliveryState) -> bool:
        """Bring ``job`` level with the table before anything is drawn: a delivery never
        draws an older state over a newer one, nor marks shown what it did not post. False:
        another live process holds the table's lease and delivers it (it rebuilds whatever
        is unshown, this job's posts included)."""
        table_id = job.outcome.table.id
        newer = self._pending.pop(table_id, None)
        if newer is not None:  # this process's own later commits: one delivery shows all
            job.absorb(newer)
        behind = state.seq > job.outcome.table.seq
        gap = job.prior_seq is not None and state.shown_seq < job.prior_seq
        if not (behind or gap):
            return True
        if self.service.leased_elsewhere(state):
            if behind and job.attempts:
                # An earlier attempt of this job drew its older state, possibly over the newer
                # one (drawn by the lease holder, or by a player's click redrawing their
                # hand): their fingerprints say the newer one is shown, so they would never
                # draw it again. This process puts the newest state back; the posts are the
                # holder's (it rebuilds whatever is unshown).
                self._redraw(job, await self.service.snapshot(table_id, None))
                return True
            return behind is False and job.prior_seq is None  # a redraw of the newest state
        if state.owner == self.service.instance and not gap:
            # Our own newer commit, whose publishing is on its way: draw the newest state now,
            # its posts come with it.
            newest = await self.service.snapshot(table_id, None)
            job.outcome = replace(newest, prior_seq=job.prior_seq)
            return True
        # Commits nobody is delivering (their process stopped, or its lease lapsed): rebuilt
        # from the log, posts included (those already sent are claimed, and skipped).
        rebuilt = await self.service.unshown_outcome(table_id)
        if rebuilt is None:
            job.outcome = replace(
                await self.service.snapshot(table_id, None), prior_seq=job.prior_seq
            )
            return True
        job.absorb(self._job(rebuilt), first=True)
        return True

    @staticmethod
    def _redraw(job: Job, newest: Outcome) -> None:
        """Turn ``job`` into a redraw of ``newest`` (the table's current state): it posts
        nothing, marks nothing shown and notifies nobody."""
        job.outcome, job.posts, job.fresh, job.upto = newest, [], False, None
        job.renotify = set()

    # ---- the channel ---------------------------------------------------------------------
    async def _deliver_channel(self, job: Job, table: TableInfo) -> bool | None:
        """Posts, then the table message. False: retry later; None: the table was closed (its
        channel is gone, or refused the bot for ``UNREACHABLE_LIMIT``)."""
        shown = await self.channel.deliver(job, table)
        if shown is Shown.REFUSED:
            now = self.service.now()
            since = self._refused_since.setdefault(table.id, now)
            if job.attempts >= 1 and not blocks(self.channel.lacking(table)):
                # Refused again, though the bot seems to have every permission: say so.
                await self.channel.notices.trouble(table, frozenset({REFUSED}))
            if now - since < UNREACHABLE_LIMIT:
                return False
            await self._channel_lost(table, refused=True)
            return None
        self._refused_since.pop(table.id, None)
        if shown is Shown.LOST:
            await self._channel_lost(table)
            return None
        return shown is Shown.DONE

    async def _channel_lost(self, table: TableInfo, *, refused: bool = False) -> None:
        """The table's channel was deleted (``refused``: or refused the bot for
        ``UNREACHABLE_LIMIT``): close the table, unrated, and tell its players privately. A
        table that had ended meanwhile keeps its result; what the channel missed is dropped."""
        log.info(
            "table %s: its channel %s is unreachable%s; closing it",
            table.id,
            table.channel_id,
            " (refused for too long)" if refused else "",
            extra=table_fields(table),
        )
        self._forget(table.id)
        closed = await self.service.close_unreachable(table.id)
        if closed is None:
            self._drop(table)
            await self.service.mark_shown(table.id, table.seq)
            return
        await self.channel_gone(closed.table, refused=refused)

    def _drop(self, table: TableInfo) -> None:
        self._pending.pop(table.id, None)
        self._parked.pop(table.id, None)
        self._forget(table.id)

    def _forget(self, table_id: int) -> None:
        """A table that is over keeps nothing in memory here: its messages' fingerprints
        (a later redraw would only edit once more) and its channel's probes and notices."""
        self.shown.drop(lambda key: key[0] == table_id)
        self._refused_since.pop(table_id, None)
        self.channel.forget(table_id)

    async def channel_gone(self, table: TableInfo, *, refused: bool = False) -> None:
        """A table closed because its channel (or server) is gone, or refused the bot for too
        long (``refused``): it is shown as it is, and its players learn it by DM (their hands
        lose their controls)."""
        self._drop(table)
        await self.service.mark_shown(table.id, table.seq)
        await tell_closed(self.hands, self.screens, table, refused=refused)
