"""Three bot "processes" on one PostgreSQL database and one SimCord: the chaos run's cluster.

SimCord simulates Discord around exactly one ``discord.Client`` (``simcord.Env`` holds one bot,
and there is no SimCord server that separate OS processes could share), so the three processes
are three full controller stacks in this one: each ``Stack`` has its own asyncpg pool,
``TableService`` (its own ``instance`` name in claims and its own table locks), ``StatsService``
and ``TableController`` (its own ``Publisher``, with its own pending, parked and in-flight
deliveries), and its own sweeper. They share the one SimCord bot client (its gateway and HTTP),
as a cluster's processes share Discord.

- **Routing.** ``ChaosBot`` answers ``bot.controller`` / ``bot.service`` / ``bot.stats`` /
  ``bot.db`` with the stack the current task belongs to (``STACK``, a context variable). An
  interaction's task has none at first: its first look picks a live stack at random (a load
  balancer), and everything it starts (deliveries) inherits it.
- **Kill.** ``Cluster.kill`` is a crash, not a shutdown: every task of the stack is cancelled
  wherever it is (mid-delivery, mid-transaction, mid-click), its pool is terminated (the
  server drops its sessions, and their advisory locks), and nothing of it is flushed or
  drained. An armed kill fires at one of the stack's next few REST calls (so it lands
  mid-delivery, after some of its posts went out), that request never leaving.
  Besides, a stack that posts a deal summary or a final result crashes right after it, half
  the time (that post went out; what should follow it did not).
- **Nonces.** The killing call itself never leaves, but the kill also cuts the stack's other
  tasks, and one of them may just have had its request accepted (a hand posted, the DB write
  that records it not made yet). The bot sends new messages with a deterministic nonce, and
  Discord answers a repeated nonce (``enforce_nonce``, set by discord.py with any nonce) with
  the message it already created instead of posting twice, within a few minutes, also to a
  request that arrives while the first is in flight. SimCord ignores nonces, so the wrapped
  REST calls do what Discord does (``Cluster.nonces``, ``tests.resilience.nonces``): without
  that, "sent, but the crash came before it was recorded" would look like a double post here
  though it is not one on Discord.
- **Restart.** A fresh stack on the same database does what ``TrionfiBot.setup_hook`` does
  after the cogs: forgives downtime, then re-publishes (``republish(startup=True)``).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import random
import weakref
from collections.abc import Coroutine
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, cast

import asyncpg
from discord.ext import commands

from bot.client import LOBBY_IDLE, TABLE_IDLE, TrionfiBot, load_cogs
from bot.db.backends import open_database
from bot.db.database import Database
from bot.db.postgres import PostgresDatabase
from bot.i18n.commands import CommandTranslator
from bot.services.stats import StatsService
from bot.services.tables import TableService
from bot.ui.components.choice import ChoiceSelect
from bot.ui.components.table import TableButton, TableSelect
from bot.ui.handlers.controller import TableController
from bot.ui.text.cards import set_suit_marks
from tests.cluster.chaos_checks import RESULT, SUMMARY
from tests.resilience.nonces import EnforcedNonces

log = logging.getLogger(__name__)

SWEEP_EVERY = 5.0  # seconds of the shared clock between a stack's sweeps (production: 5 s)


class Clock:
    """The cluster's shared clock (Unix seconds), moved by the harness as play goes on."""

    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


@dataclass(eq=False)
class Stack:
    """One bot process: its pool, services, controller (publisher) and sweeper."""

    number: int
    db: Database
    service: TableService
    stats: StatsService
    controller: TableController
    alive: bool = True
    tasks: weakref.WeakSet[asyncio.Task[Any]] = field(default_factory=weakref.WeakSet)
    sweeper: asyncio.Task[None] | None = None
    next_sweep: float = 0.0
    countdown: int | None = None  # REST calls left before it crashes (None: not doomed)
    why: str = ""  # what doomed it, for the report

    def __repr__(self) -> str:
        return f"<stack {self.number}{'' if self.alive else ' dead'}>"


#: The stack the running task belongs to (an interaction's, a sweep's, a delivery's).
STACK: contextvars.ContextVar[Stack | None] = contextvars.ContextVar("chaos_stack", default=None)


@dataclass
class Kill:
    """One crash: which stack, where it was (the REST call it never made, or between steps)
    and how many of its tasks were cut."""

    stack: int
    where: str
    tasks: int


class ChaosBot(TrionfiBot):
    """The one SimCord bot whose handlers run on whichever stack an interaction lands on."""

    cluster: Cluster

    def _stack(self) -> Stack:
        stack = STACK.get()
        if stack is None or not stack.alive:
            stack = self.cluster.pick()
            STACK.set(stack)  # this task's (and its children's) process from now on
            task = asyncio.current_task()
            if task is not None:
                stack.tasks.add(task)
        return stack

    @property  # type: ignore[override]
    def controller(self) -> TableController:  # pyright: ignore[reportIncompatibleVariableOverride]
        return self._stack().controller

    @property  # type: ignore[override]
    def service(self) -> TableService:  # pyright: ignore[reportIncompatibleVariableOverride]
        return self._stack().service

    @property  # type: ignore[override]
    def stats(self) -> StatsService:  # pyright: ignore[reportIncompatibleVariableOverride]
        return self._stack().stats

    @property  # type: ignore[override]
    def db(self) -> Database:  # pyright: ignore[reportIncompatibleVariableOverride]
        return self._stack().db

    async def setup_hook(self) -> None:
        """``TrionfiBot.setup_hook`` for the parts the stacks share: cogs, translations,
        restart-proof components, the command sync. The stacks start in ``Cluster.start``."""
        await load_cogs(self)
        await self.tree.set_translator(CommandTranslator())
        set_suit_marks(None)
        self.add_dynamic_items(TableButton, TableSelect, ChoiceSelect)
        self.tree.on_error = self.on_app_command_error
        await self.tree.sync()

    async def close(self) -> None:
        await self.cluster.close()
        await commands.AutoShardedBot.close(self)


class Cluster:
    """Three stacks on ``url``, killed and restarted at the harness's word."""

    def __init__(
        self,
        url: str,
        clock: Clock,
        rng: random.Random,
        processes: Executor,
        size: int = 3,
        trap: float = 0.5,
    ) -> None:
        self.url = url
        self.clock = clock
        self.rng = rng
        self.processes = processes
        self.size = size
        self.stacks: list[Stack] = []
        self.numbers = 0
        self.kills: list[Kill] = []
        self.armed: Stack | None = None
        #: The chance that a stack posting a deal summary or a final result crashes right
        #: after it (checked at most once per stack).
        self.trap = trap
        self.bot: ChaosBot | None = None
        self._previous_factory: Any = None
        #: Discord's answers to messages posted with a nonce it saw already (``start``).
        self.nonces: EnforcedNonces | None = None

    def make_bot(self) -> ChaosBot:
        bot = ChaosBot(
            self.url,
            seed_source=lambda: self.rng.getrandbits(32),
            sweep_every=None,
            retry_delays=(0.0, 0.0),
            shard_count=1,
            clock=self.clock,
        )
        bot.cluster = self
        self.bot = bot
        return bot

    @property
    def live(self) -> list[Stack]:
        return [s for s in self.stacks if s.alive]

    def pick(self) -> Stack:
        return self.rng.choice(self.live)

    # ---- starting ----------------------------------------------------------------------
    async def start(self) -> None:
        """Install the task bookkeeping, wrap the bot's REST calls, start ``size`` stacks."""
        loop = asyncio.get_running_loop()
        self._previous_factory = loop.get_task_factory()
        loop.set_task_factory(self._task_factory)  # pyright: ignore[reportArgumentType]
        assert self.bot is not None
        http = self.bot.http
        send = http.request
        nonces = self.nonces = EnforcedNonces(send)

        async def request(route: Any, **kwargs: Any) -> Any:
            stack = STACK.get()
            if stack is not None and not stack.alive:
                raise asyncio.CancelledError  # a dead process sends nothing
            if stack is None or route.method == "GET":
                return await send(route, **kwargs)
            if stack.countdown is not None:
                stack.countdown -= 1
                if stack.countdown <= 0:
                    self.kill(stack, f"before {route.method} {route.path}{stack.why}")
                    raise asyncio.CancelledError
            if (
                _is_channel_post(kwargs.get("json"))
                and stack.countdown is None
                and len(self.live) > 1
                and self.rng.random() < self.trap
            ):
                # The moment that matters: a summary or result goes out, and the stack
                # crashes right after it (what should follow it does not go out).
                stack.countdown, stack.why = 1, " (right after a summary or result)"
            return await nonces.request(route, **kwargs)

        http.request = request  # type: ignore[method-assign]
        for _ in range(self.size):
            await self.restart()

    def _task_factory(
        self, loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **kwargs: Any
    ) -> asyncio.Task[Any]:
        """Every task belongs to the stack of the context it starts in, to be cut with it."""
        task: asyncio.Task[Any] = asyncio.Task(coro, loop=loop, **kwargs)
        context: contextvars.Context | None = kwargs.get("context")
        stack = context.get(STACK) if context is not None else STACK.get()
        if stack is not None:
            stack.tasks.add(task)
        return task

    async def restart(self) -> Stack:
        """A fresh process on the database: its own pool and services, then what
        ``TrionfiBot.setup_hook`` does after the cogs (forgive downtime, re-publish)."""
        assert self.bot is not None
        self.numbers += 1
        db = await open_database(self.url)
        service = TableService(
            db,
            seed_source=self.bot.seed_source or (lambda: 0),
            clock=self.clock,
            processes=self.processes,
        )
        stats = StatsService(db)
        controller = TableController(self.bot, service, stats, retry_delays=(0.0, 0.0))
        stack = Stack(self.numbers, db, service, stats, controller)
        stack.next_sweep = self.clock.now + self.rng.uniform(0, SWEEP_EVERY)
        self.stacks.append(stack)
        self.spawn(stack, self._boot(stack))
        return stack

    async def _boot(self, stack: Stack) -> None:
        await stack.service.forgive_downtime()
        await stack.controller.publisher.republish(startup=True)

    def spawn(self, stack: Stack, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """``coro`` as a task of ``stack`` (not the bot's own: SimCord does not wait for it,
        as it would not wait for another process)."""
        context = contextvars.copy_context()
        context.run(STACK.set, stack)
        task = asyncio.get_running_loop().create_task(_logged(coro), context=context)
        stack.tasks.add(task)
        return task

    # ---- sweeping ----------------------------------------------------------------------
    def sweep_due(self) -> None:
        """Each live stack whose sweep period passed starts a sweep (unless one still runs)."""
        for stack in self.live:
            if self.clock.now < stack.next_sweep:
                continue
            stack.next_sweep = self.clock.now + SWEEP_EVERY
            if stack.sweeper is None or stack.sweeper.done():
                stack.sweeper = self.spawn(stack, self.sweep(stack))

    @staticmethod
    async def sweep(stack: Stack) -> None:
        """One round of ``TrionfiBot._sweep_forever`` on ``stack``."""
        await stack.service.heartbeat()
        await stack.controller.life.sweep()
        await stack.controller.life.expire_idle(LOBBY_IDLE, TABLE_IDLE)
        await stack.controller.daily.upkeep()
        await stack.service.roll_boards()

    # ---- crashing ----------------------------------------------------------------------
    def arm(self) -> Stack:
        """One of the next few REST calls of a random live stack kills it (not always the
        first: a delivery is cut after some of its posts and edits went out)."""
        self.armed = self.rng.choice(self.live)
        self.armed.countdown = self.rng.randint(1, 5)
        return self.armed

    def kill(self, stack: Stack, where: str) -> None:
        """Crash ``stack``: cancel every task it has, wherever it is, and drop its pool."""
        if self.armed is stack:
            self.armed = None
        stack.alive = False
        me = asyncio.current_task()
        cut = [t for t in list(stack.tasks) if t is not me and not t.done()]
        for task in cut:
            task.cancel()
        if isinstance(stack.db, PostgresDatabase):
            cast(asyncpg.Pool, stack.db.pool).terminate()
        self.kills.append(Kill(stack.number, where, len(cut) + (me in stack.tasks)))

    async def close(self) -> None:
        """The end of the run: live stacks close their pools (the dead ones were dropped)."""
        for stack in self.live:
            for task in list(stack.tasks):
                task.cancel()
            stack.alive = False
            await stack.db.close()
        loop = asyncio.get_running_loop()
        if loop.get_task_factory() == self._task_factory:
            loop.set_task_factory(self._previous_factory)


def _is_channel_post(payload: Any) -> bool:
    """Is this request a deal summary or a final result (by its layout's first line, as
    ``chaos_checks`` reads posted messages)?"""
    if not isinstance(payload, dict):
        return False
    first = _first_text(cast(dict[str, Any], payload).get("components") or [])
    title = (first or "").split("\n", 1)[0].strip().strip("*")
    return bool(SUMMARY.search(title) or RESULT.search(title))


def _first_text(components: list[Any]) -> str | None:
    """The content of a Components V2 payload's first text display (type 10), depth first."""
    for c in components:
        if not isinstance(c, dict):
            continue
        found = cast(dict[str, Any], c)
        if found.get("type") == 10:
            return str(found.get("content", ""))
        inner = _first_text(list(found.get("components") or []))
        if inner is not None:
            return inner
    return None


async def _logged(coro: Coroutine[Any, Any, None]) -> None:
    """A stack's background work: a failure is logged (as the bot's sweeper does), a crash
    (cancellation) just ends it."""
    try:
        await coro
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("chaos: a stack's background work failed")
