"""Turn notifications through Discord: edits notify nobody, so a turn that started after
someone else's decision and waits past the player's delay gets one new message (the hand,
re-sent; the old one deleted). Exactly one per such turn, none for a player's own consecutive
decisions, none while everyone is quick, none for a player who muted them."""

from __future__ import annotations

import itertools
import time
from typing import Any

import simcord

from tests.e2e.helpers import said
from tests.resilience.drive import Table, World, make_world

OPTIONS = {"target": 10, "round_limit": 2}


def dm_posts(world: World, member: Any) -> int:
    """New messages the bot sent to the member's DMs."""
    path = f"/channels/{member.user.dm_channel.id}/messages"
    return len([c for c in world.env.http_requests if c.method == "POST" and c.path == path])


async def play(world: World, *, slow: bool) -> list[int]:
    """A whole game of two humans and two computers; the user id of each decision's maker.
    ``slow``: after every decision the sweeper runs past the notification delay."""
    table = Table(world, "la_morte", world.members[:2], seed=6)
    await table.open(4, dict(OPTIONS))
    movers: list[int] = []
    for _ in range(1000):
        found = await table.mover()
        if found is None:
            return movers
        movers.append(found[0].id)
        await table.step(found=found)
        if slow:
            await world.bot.controller.life.sweep(time.time() + 21)
    raise AssertionError("the game did not end")


def turns_started_by_others(movers: list[int], user_id: int) -> int:
    return sum(1 for a, b in itertools.pairwise(movers) if b == user_id and a != b)


async def test_every_waiting_turn_is_notified_once(simcord_env: simcord.Env) -> None:
    world = make_world(simcord_env, 2)
    movers = await play(world, slow=True)
    for member in world.members:
        expected = turns_started_by_others(movers, member.id)
        assert expected > 0
        # The first hand is a new message too; every other new message is a notification.
        assert dm_posts(world, member) - 1 == expected, member.name


async def test_quick_players_get_no_notification(simcord_env: simcord.Env) -> None:
    world = make_world(simcord_env, 2)
    await play(world, slow=False)
    assert [dm_posts(world, m) for m in world.members] == [1, 1]


async def test_muted_players_get_none_and_right_away_ones_get_them_at_once(
    simcord_env: simcord.Env,
) -> None:
    world = make_world(simcord_env, 2)
    alice, bob = world.members
    r = await bob.slash(world.channel, "notify", when="never")
    assert said(r).ephemeral and "never" in said(r).content
    r = await alice.slash(world.channel, "notify", when="0")
    assert said(r).ephemeral and "right away" in said(r).content
    # Nobody waits, yet alice is notified as each of her turns starts after someone else's.
    movers = await play(world, slow=False)
    assert dm_posts(world, bob) == 1
    assert dm_posts(world, alice) - 1 == turns_started_by_others(movers, alice.id)
    r = await bob.slash(world.channel, "notify")
    assert "never" in said(r).content
