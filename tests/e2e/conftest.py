"""SimCord fixtures: a real TrionfiBot on a real SQLite file, closed after every test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import simcord

from bot.client import TrionfiBot

SEED = 20261122


@pytest_asyncio.fixture
async def make_bot(bot_database: str | Path) -> AsyncIterator[Callable[[], TrionfiBot]]:
    """Factory of bots sharing one database; closes every bot it made.

    SimCord never closes bots, and an open aiosqlite thread would hang pytest.
    """
    made: list[TrionfiBot] = []

    def factory(seed: int = SEED) -> TrionfiBot:
        # No background sweeper: tests run turn clocks with ``controller.life.sweep(now)``
        # (a parked sleep would slow every SimCord action down).
        # A failed delivery is retried at once (no real-time backoff in tests).
        bot = TrionfiBot(
            bot_database,
            seed_source=lambda: seed,
            sweep_every=None,
            retry_delays=(0.0, 0.0),
            shard_count=1,
        )
        made.append(bot)
        return bot

    yield factory
    for bot in made:
        await bot.close()


@pytest.fixture
def simcord_bot(make_bot: Callable[[], TrionfiBot]) -> TrionfiBot:
    return make_bot()


@pytest.fixture
def world(simcord_env: simcord.Env) -> tuple[Any, ...]:
    """A server "Tarot Club" with channel #tarot and members alice, bob and carol."""
    env = simcord_env
    guild = env.create_guild("Tarot Club")
    channel = guild.create_text_channel("tarot")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    return env, guild, channel, alice, bob, carol
