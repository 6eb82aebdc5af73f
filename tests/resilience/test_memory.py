"""A table that is over leaves nothing behind in the publisher's memory: a bot that runs for
months would otherwise keep every table's message fingerprints, probes and notices."""

from __future__ import annotations

import simcord

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
