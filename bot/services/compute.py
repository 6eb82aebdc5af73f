"""Where computer players think: worker processes, so the event loop never waits for them.

A computer sequence (new deals, every computer decision until a human must act) is pure CPU
work on the engine. Run on the event loop it stalls every interaction; run in a thread it still
holds the GIL, and measured with 50 busy Loser's Game tables the loop then waited up to 80-240
ms for the GIL (``bench/loop_stall_bench.py``). So the work goes to a process pool
(``forkserver``, so no thread of this process is forked), through a waiting thread, so the
event loop (and SimCord's settle in tests) sees an ordinary ``run_in_executor`` call.

A ``PlayStep`` travels by pickle and comes back advanced: callers use the returned step. The
expert's hints and reviews (``bot.services.analysis``) run here too, one decision per job.

Every job has a deadline (``JOB_SECONDS``, counted from when a worker takes it; issue 29,
defect 3): past it the job's pool is stopped (its processes killed: a hung worker cannot be
told to stop, and a pool cannot lose one process without breaking) and replaced, and the job
answers with its fallback, the casual computer for computer moves. A job never runs in the
bot's own process: one that killed a worker could kill the bot, and one that hung would hang
it. Only the fallback does, and it is the casual policy, which thinks in microseconds.
"""

from __future__ import annotations

import contextvars
import copyreg
import logging
import math
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import MappingProxyType
from typing import Any, TypeVar

from bot import metrics
from bot.services.step import PlayStep

log = logging.getLogger(__name__)
_T = TypeVar("_T")


def read_only(data: dict[str, Any]) -> MappingProxyType[str, Any]:
    return MappingProxyType(data)


def _proxy(
    m: MappingProxyType[str, Any],
) -> tuple[Callable[[dict[str, Any]], MappingProxyType[str, Any]], tuple[dict[str, Any]]]:
    return read_only, (dict(m),)


# Events share a read-only empty ``data`` (a mappingproxy), which pickle cannot carry as is.
copyreg.pickle(MappingProxyType, _proxy)

#: The most seconds one job may take once a worker has it (``WORKER_JOB_SECONDS``). A run of
#: computer moves stops by itself after ``step.COMPUTER_RUN_SECONDS`` (8 s) and a decision, a
#: hint takes about half a second: only a hung or runaway job reaches this.
JOB_SECONDS = 20.0
_QUEUE_POLL = 0.05  # seconds between two looks at a queued job (has a worker taken it?)

_processes: ProcessPoolExecutor | None = None
#: Guards ``_processes``: the threads waiting for jobs may find the pool broken at the same
#: moment, and exactly one of them must replace it (two new pools would leak processes).
_pool_lock = threading.Lock()


class JobFailed(Exception):
    """The job could not be done in a worker process (its deadline passed, or the workers
    kept dying) and had no fallback."""


#: At least this many worker processes, even on a machine of one or two cores: with a single
#: one, a job that hangs until its deadline would hold every other table's computers too.
MIN_WORKERS = 2


def process_pool() -> ProcessPoolExecutor:
    """The shared worker processes: one core less than the machine has (the event loop's),
    and at least ``MIN_WORKERS``."""
    global _processes
    with _pool_lock:
        if _processes is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["bot.services.compute"])
            workers = max(MIN_WORKERS, (os.cpu_count() or 2) - 1)
            _processes = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        return _processes


def _retire(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` and let the next job start a new one, once whatever the number of
    threads that found it broken or late: only the thread that still finds it current
    replaces it. Its processes are killed (a hung one would never finish), so the jobs other
    tables had in it fail with ``BrokenProcessPool`` and go again in the new pool."""
    global _processes
    with _pool_lock:
        if _processes is not pool:
            return  # another thread retired it already
        _processes = None
    processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        try:
            process.kill()
        except Exception:  # already gone
            log.debug("worker process already gone", exc_info=True)
    pool.shutdown(wait=False, cancel_futures=True)


def _wait(future: Future[_T], seconds: float) -> _T:
    """The job's result, waiting at most ``seconds`` once a worker has taken it (time spent
    queued behind other tables' jobs is not this job's fault); ``TimeoutError`` past it."""
    while not future.running() and not future.done():
        try:
            return future.result(timeout=_QUEUE_POLL)
        except TimeoutError:
            continue
    return future.result(timeout=None if math.isinf(seconds) else seconds)


def run(
    executor: Executor | None,
    fn: Callable[..., _T],
    *args: Any,
    fallback: Callable[[], _T] | None = None,
    deadline: float | None = None,
) -> _T:
    """Run ``fn(*args)`` in ``executor`` (default: the shared process pool) and wait for it;
    called from a thread, never from the event loop.

    A broken pool (a worker died) is replaced and the job goes again once. A job past its
    ``deadline`` (seconds; default ``JOB_SECONDS``) has its pool stopped and replaced (the
    shared pool only: an executor the caller passed is the caller's, and is left alone).
    When the workers could not answer, ``fallback()`` does, here; without one ``JobFailed``
    is raised. The job itself never runs in this process.
    """
    with metrics.worker_job(getattr(fn, "__name__", "job")):
        return _run(
            executor, fn, args, fallback, seconds=JOB_SECONDS if deadline is None else deadline
        )


def _submit(pool: Executor, fn: Callable[..., _T], args: tuple[Any, ...]) -> Future[_T]:
    """``pool.submit(fn, *args)``, in an empty context when ``pool`` is a process pool.

    Submitting may start a worker process, and starting one polls the earlier ones with a
    zero timeout measured on ``time.monotonic``; whatever the caller's context does to the
    clock (a simulated clock in tests, which stands still while the bot works) must not
    reach that poll, where a clock that never moves is a busy loop that never returns.
    """
    if isinstance(pool, ProcessPoolExecutor):
        return contextvars.Context().run(pool.submit, fn, *args)
    return pool.submit(fn, *args)


def _run(
    executor: Executor | None,
    fn: Callable[..., _T],
    args: tuple[Any, ...],
    fallback: Callable[[], _T] | None,
    *,
    seconds: float,
) -> _T:
    for _ in range(2):
        pool = executor or process_pool()
        try:
            future = _submit(pool, fn, args)
        except (BrokenProcessPool, RuntimeError):  # broken, or shut down by another thread
            if isinstance(pool, ProcessPoolExecutor) and executor is None:
                _retire(pool)
            continue
        try:
            return _wait(future, seconds)
        except BrokenProcessPool:
            log.warning("the computer players' worker process died; starting a new one")
            if isinstance(pool, ProcessPoolExecutor) and executor is None:
                _retire(pool)
        except TimeoutError:
            name = getattr(fn, "__name__", "a job")
            log.error("a worker job (%s) passed its %.0f s deadline; stopping it", name, seconds)
            future.cancel()
            if isinstance(pool, ProcessPoolExecutor) and executor is None:
                _retire(pool)
            break  # the same job would hang again: the fallback answers
    else:
        log.error("worker processes keep failing; the job is not run in the bot's process")
    if fallback is None:
        raise JobFailed(getattr(fn, "__name__", "job"))
    return fallback()


def advance(step: PlayStep) -> PlayStep:
    """Start deals and play computer seats until a human must decide (in a worker)."""
    step.advance()
    return step


def time_out(step: PlayStep, seat: int, then_advance: bool) -> PlayStep:
    """The computer decides for ``seat``, whose time ran out, then (``then_advance``) the
    computer seats play on (in a worker)."""
    step.apply(step.computer_action(seat), by="timeout")
    if then_advance:
        step.advance()
    return step


def casually(step: PlayStep, seat: int | None = None, then_advance: bool = True) -> PlayStep:
    """``time_out`` (a ``seat`` given) or ``advance`` with the casual policy at every computer
    seat: the fallback of a job the workers could not do. Runs in the bot's process (a
    thread), which the casual policy's microseconds a decision allow."""
    step.casual = True
    if seat is not None:
        step.apply(step.computer_action(seat), by="timeout")
    if then_advance:
        step.advance()
    return step
