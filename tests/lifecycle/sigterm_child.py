"""The process the SIGTERM test stops: the real bot (its ``TrionfiBot`` and the signal handling
of ``python -m bot``) on a simulated Discord, with computer-heavy Loser's Game decisions made
one after another. Each decision's commit waits a moment first, so a signal lands mid-action.

    python -m tests.lifecycle.sigterm_child DATABASE_PATH

Prints ``ACTING <seq>`` when a decision starts (``seq``: the table's seq before it) and
``STOPPED`` once the bot has shut down; the exit status is 0 after a clean stop.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import simcord

from bot.__main__ import stop_on_signals
from bot.client import TrionfiBot
from tests.conftest import SETTLE_TIMEOUT
from tests.resilience.drive import Table, make_world

COMMIT_DELAY = 0.4  # seconds each commit waits: long enough for the signal to land


async def run(db_path: Path) -> int:
    bot = TrionfiBot(db_path, seed_source=lambda: 5, sweep_every=None, shard_count=1)
    async with simcord.run(bot, check_errors=False, settle_timeout=SETTLE_TIMEOUT) as env:
        stopped = stop_on_signals(bot)
        world = make_world(env, 1)
        table = Table(world, "losers_game", world.members, seed=5)
        await table.open(6, {})
        store = bot.service.store
        real_commit = store.commit

        async def slow_commit(table_id: int, **kwargs: Any) -> int:
            await asyncio.sleep(COMMIT_DELAY)
            return await real_commit(table_id, **kwargs)

        store.commit = slow_commit  # type: ignore[method-assign]
        service = bot.service
        while not stopped.is_set() and bot.accepting:
            out = await service.snapshot(table.table_id, None)
            turn = out.public.to_act if out.public is not None else None
            if out.finished or turn is None:
                break
            user = out.table.seats[turn].user_id
            assert user is not None
            action = out.seat_views[turn].legal[0].to_json()
            del action["seat"]
            print(f"ACTING {out.table.seq}", flush=True)
            async with bot.working():  # what every interaction's handling is wrapped in
                await service.act(table.table_id, user, action)
        await asyncio.wait_for(stopped.wait(), 30)
        print("STOPPED", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(run(Path(sys.argv[1]))))
