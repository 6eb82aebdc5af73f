"""The bot's background work as independent tasks, each with its own period and liveness.

Issue 29, defect 3: the sweeper was one sequential loop (reminders, notifications, expiries,
re-publishing, a wait for deliveries, idle tables, daily announcements, boards), so one slow
piece (a table whose computers thought long, a hung worker, a midnight of announcements)
stopped every clock, and the health file went stale with it. Here every piece is a task of its
own: ``clocks``, ``notifications``, ``deliveries``, ``upkeep``, ``daily``, ``boards``,
``luck`` (issue 33), ``health`` and the rest (see ``bot.client``). A task's failure is logged
and its next round comes as usual; a slow round delays only its own task. The period runs
from one round's start to the next (no drift: a round that took 2 s of a 5 s period is
followed by 3 s of rest).

Each task's liveness (``Liveness``) goes into the health status file, and ``python -m bot
health`` names a task that has not finished a round for too long (``bot.health``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot import metrics

log = logging.getLogger(__name__)

#: A task is stale once it has not finished a round for this many of its periods (and at least
#: ``STALE_FLOOR`` seconds): a round may be slow now and then, never that slow.
STALE_PERIODS = 6.0
STALE_FLOOR = 60.0

#: A round's work: True when it stopped with work left (a batch of a longer list), so the
#: next round starts at once instead of after the period.
Work = Callable[[], Awaitable[bool | None]]


@dataclass(slots=True)
class Liveness:
    """How one task is doing, by the Unix clock (``time.time``)."""

    period: float
    #: When the last round finished (well or not); before the first, when the task started.
    beat: float
    #: When the running round started (None: resting between rounds).
    running_since: float | None = None
    #: The last round's length, in seconds.
    last_seconds: float = 0.0
    #: Rounds in a row that raised.
    failures: int = 0
    rounds: int = 0

    @property
    def stale_after(self) -> float:
        return max(STALE_FLOOR, STALE_PERIODS * self.period)

    def status(self) -> dict[str, Any]:
        """The task's entry in the health status file (``bot.health.write_status``)."""
        return {
            "period": self.period,
            "beat": self.beat,
            "stale_after": self.stale_after,
            "running_since": self.running_since,
            "last_seconds": round(self.last_seconds, 3),
            "failures": self.failures,
        }


@dataclass(slots=True)
class _Task:
    period: float
    work: Work
    task: asyncio.Task[None] | None = None
    liveness: Liveness = field(default_factory=lambda: Liveness(0.0, time.time()))


class Sweeper:
    """Runs named periodic tasks independently of each other (see the module docstring)."""

    def __init__(self, *, wall: Callable[[], float] = time.time) -> None:
        self._wall = wall  # Unix time for liveness (the health file is read by another process)
        self._tasks: dict[str, _Task] = {}

    def add(self, name: str, period: float, work: Work) -> None:
        """Register ``work`` to run every ``period`` seconds once ``start`` is called."""
        self._tasks[name] = _Task(period, work, liveness=Liveness(period, self._wall()))

    def start(self) -> None:
        for name, entry in self._tasks.items():
            if entry.task is None or entry.task.done():
                entry.liveness.beat = self._wall()
                entry.task = asyncio.create_task(self._forever(name, entry), name=f"sweep-{name}")

    async def stop(self) -> None:
        """Cancel every task and wait for them to end."""
        tasks = [e.task for e in self._tasks.values() if e.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for entry in self._tasks.values():
            entry.task = None

    def liveness(self) -> dict[str, dict[str, Any]]:
        """Every task's liveness, for the health status file."""
        return {name: e.liveness.status() for name, e in self._tasks.items()}

    async def _forever(self, name: str, entry: _Task) -> None:
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            more = await self.round(name)
            elapsed = loop.time() - started
            await asyncio.sleep(0 if more else max(0.0, entry.period - elapsed))

    async def round(self, name: str) -> bool:
        """One round of task ``name``, its failure logged; True if it left work for the next
        (which then starts at once)."""
        entry = self._tasks[name]
        alive = entry.liveness
        loop = asyncio.get_running_loop()
        started = loop.time()
        alive.running_since = self._wall()
        more = False
        try:
            more = bool(await entry.work())
            alive.failures = 0
        except Exception:  # one task's failure must never stop it, nor any other task
            alive.failures += 1
            log.exception("background task %s failed (%s in a row)", name, alive.failures)
        finally:
            # The one place a round of each task is measured (its length, for metrics too).
            alive.last_seconds = loop.time() - started
            metrics.sweep_done(name, alive.last_seconds)
            alive.running_since = None
            alive.beat = self._wall()
            alive.rounds += 1
        return more
