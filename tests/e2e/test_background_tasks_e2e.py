"""The running bot's background tasks (issue 29), through SimCord: each runs on its own and
reports its liveness in the health status file, which ``python -m bot health`` reads."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
import simcord

from bot import health
from bot.client import TrionfiBot

TASKS = {
    "clocks",
    "notifications",
    "deliveries",
    "upkeep",
    "daily",
    "tournaments",
    "league",
    "boards",
    "luck",
    "health",
}


@pytest_asyncio.fixture
async def simcord_bot(bot_database: str | Path, tmp_path: Path) -> AsyncIterator[TrionfiBot]:
    bot = TrionfiBot(
        bot_database,
        sweep_every=5.0,
        retry_delays=(0.0, 0.0),
        shard_count=1,
        status_path=tmp_path / "status.json",
    )
    yield bot
    await bot.close()


@pytest.mark.simcord(settle_timeout=0.25)
async def test_every_task_reports_its_liveness(simcord_env: simcord.Env) -> None:
    env = simcord_env
    bot = env.bot
    assert isinstance(bot, TrionfiBot) and bot.status_path is not None
    await env.advance_time(6)  # a round of every task, the status file rewritten
    status = json.loads(bot.status_path.read_text())
    assert set(status["tasks"]) == TASKS
    assert all(t["failures"] == 0 for t in status["tasks"].values()), status["tasks"]
    assert status["tasks"]["clocks"]["period"] == 5.0
    code, reason = health.check(bot.status_path, now=time.time())
    assert code == health.HEALTHY, reason
