"""A table that is over leaves nothing behind in memory: a bot that runs for months would
otherwise keep every table's message fingerprints, probes and notices (issue 29, defect 6).
Tables that end unseen by this process (in a cluster, another process took the last click)
are bounded by the caches' caps (``bot.lru``)."""

from __future__ import annotations

from pathlib import Path

import pytest
import simcord

from bench.soak_bench import cache_sizes, open_soak
from bot import lru
from tests.resilience.drive import Table, make_world


async def test_a_finished_table_leaves_nothing_in_the_publisher(simcord_env: simcord.Env) -> None:
    world = make_world(simcord_env, 2, pictures=False)
    table = Table(world, "la_morte", world.members[:2], seed=3)
    await table.open(3)  # the short options: to 10 points
    publisher = world.bot.controller.publisher
    await table.step()
    assert any(key[0] == table.table_id for key in publisher.shown)  # while in play
    await table.play()
    out = await world.service.snapshot(table.table_id)
    assert out.finished
    await publisher.drain(timeout=10)
    assert not [key for key in publisher.shown if key[0] == table.table_id]
    assert table.table_id not in publisher.channel.notices._told  # pyright: ignore[reportPrivateUsage]


async def test_every_cache_is_empty_or_within_its_cap_after_many_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Small caps, so that a few dozen games would overflow an unbounded cache.
    monkeypatch.setattr(lru, "TABLES", 10)
    monkeypatch.setattr(lru, "SEATS", 20)
    soak, close = await open_soak(tmp_path / "soak.sqlite3", cluster=True)
    try:
        for _ in range(60):
            await soak.game()
        for publisher in (soak.publisher, soak.other):
            assert publisher is not None
            for name, (size, cap) in cache_sizes(publisher, soak.service).items():
                if cap is None:  # a queue, or a weak mapping: empty once every game is over
                    assert size == 0, name
                else:
                    assert size <= cap, f"{name}: {size} entries, cap {cap}"
        # Half the games ended through the other publisher: this one showed them until then.
        assert len(soak.publisher.shown) == 20
        # The one that saw them end keeps nothing.
        assert soak.other is not None and len(soak.other.shown) == 0
    finally:
        await close()
