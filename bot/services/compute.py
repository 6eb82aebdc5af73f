"""Where computer players think: worker processes, so the event loop never waits for them.

A computer sequence (new deals, every computer decision until a human must act) is pure CPU
work on the engine. Run on the event loop it stalls every interaction; run in a thread it still
holds the GIL, and measured with 50 busy Loser's Game tables the loop then waited up to 80-240
ms for the GIL (``bench/loop_stall_bench.py``). So the work goes to a process pool
(``forkserver``, so no thread of this process is forked), through a waiting thread, so the
event loop (and SimCord's settle in tests) sees an ordinary ``run_in_executor`` call.

A ``PlayStep`` travels by pickle and comes back advanced: callers use the returned step. The
expert's hints and reviews (``bot.services.analysis``) run here too, one decision per job.
"""

from __future__ import annotations

import copyreg
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
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

_processes: ProcessPoolExecutor | None = None


def process_pool() -> ProcessPoolExecutor:
    """The shared worker processes: one core less than the machine has (the event loop's)."""
    global _processes
    if _processes is None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["bot.services.compute"])
        workers = max(1, (os.cpu_count() or 2) - 1)
        _processes = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    return _processes


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


def run(executor: Executor | None, fn: Callable[..., _T], *args: Any) -> _T:
    """Run ``fn(*args)`` in ``executor`` (default: the process pool) and wait for it; called
    from a thread. A broken pool (a worker killed) is replaced once, then the work runs here."""
    with metrics.worker_job(getattr(fn, "__name__", "job")):
        return _run(executor, fn, *args)


def _run(executor: Executor | None, fn: Callable[..., _T], *args: Any) -> _T:
    global _processes
    pool = executor or process_pool()
    try:
        return pool.submit(fn, *args).result()
    except BrokenProcessPool:
        log.warning("the computer players' worker process died; starting a new one")
        if executor is None and _processes is pool:
            _processes = None
        try:
            return (executor or process_pool()).submit(fn, *args).result()
        except BrokenProcessPool:
            log.error("worker processes keep failing; computer moves run in this process")
            return fn(*args)
