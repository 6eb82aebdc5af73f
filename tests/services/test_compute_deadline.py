"""Every worker job has a deadline, and a job never runs in the bot's own process (issue 29,
defects 3 and 8): a hung job's workers are stopped and replaced and its fallback answers; a job
whose workers keep dying is answered by its fallback, or refused (``JobFailed``)."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from bot.services import compute


async def _run(*args: object, **kwargs: object) -> object:
    return await asyncio.to_thread(compute.run, None, *args, **kwargs)  # type: ignore[arg-type]


async def test_a_hung_job_is_cut_at_its_deadline_and_its_fallback_answers() -> None:
    pool = compute.process_pool()
    workers = list(pool._processes.values())  # type: ignore[union-attr]  # pyright: ignore[reportPrivateUsage, reportOptionalMemberAccess]
    answer = await _run(time.sleep, 3600, fallback=lambda: "casual", deadline=0.5)
    assert answer == "casual"
    assert compute.process_pool() is not pool  # replaced
    for process in workers:  # and the hung worker stopped, not left thinking for an hour
        process.join(timeout=HANG_GUARD)
        assert not process.is_alive()
    assert await _run(abs, -3) == 3  # the new workers work


HANG_GUARD = 60.0


async def test_a_job_that_kills_its_workers_never_runs_in_the_bot() -> None:
    # os._exit here would end this very process (the test runner): it must not run here.
    assert await _run(os._exit, 3, fallback=lambda: "casual") == "casual"
    with pytest.raises(compute.JobFailed):
        await _run(os._exit, 3)
    assert await _run(abs, -4) == 4
