"""Restart anywhere: a game interrupted by bot restarts (a new bot object on the same database)
at random points ends exactly as the same game played without them, and every button rendered
before a restart still works after it.

Each test plays one seeded game twice in one simulated server: straight through in #straight,
then in #restarted with restarts in the lobby and before random decisions. The tables share
the seed and their humans the same seeded policy, so the two action logs must be identical.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import discord
import pytest
import simcord

from bot.engine import match
from tests.e2e.helpers import dm_hand, embed_text, said
from tests.resilience.drive import Table, World, landed_games, make_world, seat_counts

GAMES = landed_games()
SEEDS = (11, 12, 13)
RESTARTS = 3  # besides the one in the lobby (fewer in a game of fewer decisions)


async def log_of(world: World, table_id: int) -> list[tuple[str, int | None, dict[str, Any]]]:
    return [(e.kind, e.seat, e.payload) for e in await world.service.store.log(table_id)]


def message(channel: Any, message_id: int | None) -> discord.Message:
    return next(m for m in channel.history() if m.id == message_id)


@pytest.mark.parametrize("simcord_bot", SEEDS, indirect=True)
@pytest.mark.parametrize("game_id", GAMES)
async def test_restarts_anywhere_change_nothing(
    game_id: str, simcord_env: simcord.Env, make_bot: Any
) -> None:
    env = simcord_env
    seed = env.bot.seed_source()  # type: ignore[attr-defined]
    counts = seat_counts(game_id)
    seats = counts[seed % len(counts)]
    world = make_world(env, 4, "straight", pictures=False)
    straight = Table(world, game_id, world.members[:2], seed)
    await straight.open(seats)
    await straight.play()
    expected = await log_of(world, straight.table_id)
    expected_totals = (await world.service.snapshot(straight.table_id)).totals

    other = replace(
        world, channel=world.guild.create_text_channel("restarted"), members=world.members[2:]
    )
    table = Table(other, game_id, other.members, seed)
    points = set(random.Random(seed).sample(range(straight.steps), min(RESTARTS, straight.steps)))
    restarts = 0

    async def restart() -> None:
        nonlocal restarts
        await other.restart(make_bot(seed))
        restarts += 1

    async def before_step() -> dict[int, discord.Message] | None:
        if table.steps not in points:
            return None
        info = await other.service.get_table(table.table_id)
        table_message = message(other.channel, info.message_id)
        hands = {m.id: dm for m in other.members if (dm := dm_hand(m)) is not None}
        await restart()
        # The public table's button, rendered by the old bot, opens the hand privately.
        viewer = other.members[table.steps % 2]
        shown = await viewer.click(table_message, label="Show my hand")
        assert said(shown).ephemeral and shown.response is not None
        assert "Your hand" in embed_text(said(shown).message)
        return hands  # the next decision is made on a hand message from before the restart

    await table.open(seats, in_lobby=restart)  # Join and Start on the pre-restart lobby
    await table.play(before_step=before_step)

    assert restarts == len(points) + 1
    assert await log_of(other, table.table_id) == expected
    out = await other.service.snapshot(table.table_id)
    assert out.finished and out.totals == expected_totals
    rec = await other.service.store.get(table.table_id)
    assert rec is not None and rec.snapshot is not None
    assert await other.service.replay(table.table_id) == match.from_json(rec.snapshot)
