"""The sweeper as independent tasks (issue 29, defect 3): a task that hangs or fails stops no
other task, its liveness goes into the health status file, and ``python -m bot health`` names
the task that went stale."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot import health
from bot.ui.handlers.sweeper import STALE_FLOOR, Sweeper


class Wall:
    """A settable Unix clock for the liveness (the periods themselves run on the loop)."""

    def __init__(self) -> None:
        self.now = 1_767_225_600.0

    def __call__(self) -> float:
        return self.now


async def test_a_stuck_task_is_named_by_the_health_check_and_stops_no_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wall = Wall()
    sweeper = Sweeper(wall=wall)
    stuck = asyncio.Event()
    rounds = {"notifications": 0, "boards": 0}

    async def clocks() -> None:  # a round that never ends (a table it waits on for ever)
        await stuck.wait()

    async def notifications() -> None:
        rounds["notifications"] += 1

    async def boards() -> None:  # fails every round: logged, and it goes on
        rounds["boards"] += 1
        raise RuntimeError("boards are broken")

    sweeper.add("clocks", 0.01, clocks)
    sweeper.add("notifications", 0.01, notifications)
    sweeper.add("boards", 0.01, boards)
    sweeper.start()
    try:
        while rounds["notifications"] < 3 or rounds["boards"] < 3:
            await asyncio.sleep(0.01)
        wall.now += STALE_FLOOR + 30  # time passes; the other tasks keep going round
        await sweeper.round("notifications")
        await sweeper.round("boards")
        path = tmp_path / "status.json"
        health.write_status(
            path,
            gateway_connected=True,
            database_ok=True,
            now=wall.now,
            tasks=sweeper.liveness(),
        )
        tasks = sweeper.liveness()
    finally:
        await sweeper.stop()
    assert tasks["clocks"]["running_since"] is not None
    assert tasks["boards"]["failures"] >= 3 and tasks["notifications"]["failures"] == 0
    code, reason = health.check(path, now=wall.now)
    assert code == health.UNHEALTHY
    assert "'clocks'" in reason and "'notifications'" not in reason and "'boards'" not in reason
    assert health.main(["--status", str(path), "--max-age", "1e9"]) == health.UNHEALTHY
    assert "background task 'clocks' has not finished a round" in capsys.readouterr().out
    # Before it went stale, the same file was healthy.
    assert health.check(path, now=wall.now - STALE_FLOOR)[0] == health.HEALTHY


async def test_a_slow_round_delays_only_its_own_task() -> None:
    sweeper = Sweeper()
    slow_gate = asyncio.Event()
    fast_rounds = 0

    async def slow() -> None:
        await slow_gate.wait()

    async def fast() -> None:
        nonlocal fast_rounds
        fast_rounds += 1

    sweeper.add("slow", 0.01, slow)
    sweeper.add("fast", 0.01, fast)
    sweeper.start()
    try:
        while fast_rounds < 5:  # hangs here if the fast task waited for the slow one
            await asyncio.sleep(0.01)
    finally:
        slow_gate.set()
        await sweeper.stop()
    assert sweeper.liveness()["slow"]["running_since"] is None  # it finished once let go
