"""One busy table never stalls the others' clocks (issue 29, defect 3), through SimCord: a
table whose computer job hangs in its worker process is skipped by nobody and waited on by
nobody; the other tables' overdue turns are played meanwhile; the hung job is cut at its
deadline and the casual computer plays the turn instead."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import simcord

from bot.client import TrionfiBot
from bot.services import compute
from tests.services import jobs

HUNG_SEED, FREE_SEED = 29_003, 29_004
JOB_SECONDS = 5.0  # the bot's deadline for one worker job (production: 20 s)
HANG_GUARD = 60.0  # only reached if the clocks stall (the defect)


@pytest_asyncio.fixture
async def simcord_bot(bot_database: str | Path) -> AsyncIterator[TrionfiBot]:
    bot = TrionfiBot(
        bot_database,
        seed_source=lambda: 5,
        sweep_every=None,
        retry_delays=(0.0, 0.0),
        shard_count=1,
        job_seconds=JOB_SECONDS,
    )
    yield bot
    await bot.close()


async def test_a_hung_table_delays_no_other_clock_and_is_cut_at_its_deadline(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = simcord_env
    bot: Any = env.bot
    service, life = bot.service, bot.controller.life
    guild = env.create_guild("Clocks")
    hung_channel, free_channel = (guild.create_text_channel(n) for n in ("hung", "free"))
    alice, bob = (guild.add_member(env.create_user(n)) for n in ("alice", "bob"))
    tables = {}
    for channel, member, seed in ((hung_channel, alice, HUNG_SEED), (free_channel, bob, FREE_SEED)):
        lobby = await service.open_lobby(
            guild.id, channel.id, member.id, member.name, "la_morte", 3, computers=2, clock="fast"
        )
        out = await service.start(lobby.id, member.id, seed=seed)
        assert out.table.turn_deadline is not None  # the human's clock runs
        tables[seed] = out.table
    hung, free = tables[HUNG_SEED], tables[FREE_SEED]
    assert hung.id < free.id  # the hung table comes first in the sweep's order
    monkeypatch.setattr(compute, "time_out", jobs.time_out)
    commits: list[int] = []  # the tables committed, in order
    real_commit = service.store.commit

    async def commit(table_id: int, **kwargs: Any) -> int:
        seq = await real_commit(table_id, **kwargs)
        commits.append(table_id)
        return seq

    monkeypatch.setattr(service.store, "commit", commit)
    gate = jobs.Gate(HUNG_SEED)  # never opened: the hung table's job never returns
    try:
        due = max(t.turn_deadline for t in (hung, free)) + 1
        sweep = asyncio.create_task(life.sweep(due))
        async with asyncio.timeout(HANG_GUARD):
            while (await service.get_table(free.id)).seq == free.seq:
                await asyncio.sleep(0.02)
        async with asyncio.timeout(HANG_GUARD):
            await sweep
        # The free table's turn was played first, while the hung table's job was held in its
        # worker (the gate never opened), and the hung table only after its job was cut.
        assert gate.started()
        assert commits == [free.id, hung.id]
        # Cut at its deadline (the gate never opened): the casual computer played the turn.
        after = await service.get_table(hung.id)
        assert after.seq > hung.seq and after.turn_deadline is not None
        timed_out = [e for e in await service.store.log(hung.id) if e.seq > hung.seq]
        assert timed_out[0].kind == "act" and timed_out[0].payload.get("by") == "timeout"
        # And the table shows it: its message was posted with the new state.
        assert after.shown_seq == after.seq
    finally:
        gate.remove()
