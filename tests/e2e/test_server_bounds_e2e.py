"""A table is used only from its own server, or its own DMs (issue 28, defects 2 and 4).

Two servers: the Tarot Club, where Alice and Bob play, and the Other Club, where Dan has a
table of his own. Dan's client is modified: it puts any ``tb:``/``ts:`` custom_id on a message
he can see (his lobby, his table, his hand's DM), naming the Tarot Club's table, and sends the
click as Discord would (a raw INTERACTION_CREATE, ``tests/resilience/drive.py``). Every such
click is refused privately, without naming the other server or channel, and nothing changes at
the Tarot Club's table nor on Dan's own messages. The caps on lobbies and seats per person, and
the server setting "computer players off" against the lobby's **Add computer** button, are
checked through the buttons as well.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
from simcord.enums import InteractionType

from bot.services.bounds import MAX_HOSTED_LOBBIES, MAX_OPEN_SEATS
from bot.services.models import TableInfo
from tests.e2e.helpers import embed_text, is_card, said
from tests.e2e.test_server_checks_e2e import crafted_click, everything_seen, other_server
from tests.resilience.drive import World, dispatch

NOT_HERE = "in another server"
LOBBY_VERBS = ("join", "bot", "leave", "start", "rematch")
SEAT_VERBS = ("hand", "back", "hint", "act:bid:amount=1", "act:accept", "act:play:card=S7")


def state(t: TableInfo) -> tuple[Any, ...]:
    """What a refused click must leave as it was."""
    return (t.status, t.seq, t.owner_id, [(s.user_id, s.name, s.is_bot) for s in t.seats])


def stored_text(env: Any, message: discord.Message) -> str:
    """The message as Discord stores it now (its text and its components' ids)."""
    stored = env.backend.get_message(message.channel.id, message.id)
    return repr((stored.content, stored.embeds, stored.components))


async def crafted_select(
    world: World, member: Any, message: discord.Message, custom_id: str, value: str
) -> Any:
    """``member`` picks ``value`` in a select with ``custom_id`` put on ``message``."""
    stored = world.env.backend.get_message(message.channel.id, message.id)
    menu = {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": value, "value": value}],
    }
    return await dispatch(
        world,
        member.id,
        message.channel.id,
        InteractionType.MESSAGE_COMPONENT,
        {"custom_id": custom_id, "component_type": 3, "values": [value]},
        message=stored,
        components=[{"type": 1, "components": [menu]}],
    )


async def test_a_member_of_another_server_changes_nothing_at_this_servers_table(
    world: tuple[Any, ...],
) -> None:
    env, guild, channel, alice, bob, _carol = world
    other, cards, _boss, dan = other_server(env)
    here = World(env, guild, channel, [alice, bob])
    service = env.bot.service

    # The Tarot Club's lobby: Alice hosts, two seats are free.
    r = await alice.slash(channel, "lamorte new", seats=3)
    assert r.acknowledged
    ours = await service.table_in_channel(channel.id)
    assert ours is not None
    lobby = channel.last_message

    # Dan's own table on the Other Club, started: a table message there and a hand in his DMs.
    await dan.slash(cards, "lamorte new", seats=3, computers=2)
    await dan.click(cards.last_message, label="Start")
    theirs = await service.table_in_channel(cards.id)
    assert theirs is not None and theirs.status == "playing"
    his_table = cards.last_message
    his_dm = [m for m in dan.user.dm_channel.history() if is_card(m)][-1]
    places = [(his_table, "his table message"), (his_dm, "his hand's DM")]

    async def refused(member: Any, message: discord.Message, custom_id: str) -> None:
        before = state(await service.get_table(ours.id))
        shown = (stored_text(env, lobby), stored_text(env, message))
        r = await crafted_click(here, member, message, custom_id)
        assert r.acknowledged and said(r).ephemeral, custom_id
        assert NOT_HERE in (said(r).content or ""), (custom_id, said(r).content)
        assert state(await service.get_table(ours.id)) == before, custom_id
        assert (stored_text(env, lobby), stored_text(env, message)) == shown, custom_id

    # The lobby's buttons and Rematch, from a message in the Other Club and from a DM.
    for message, _where in places:
        for verb in LOBBY_VERBS:
            await refused(dan, message, f"tb:{ours.id}:{verb}")
    assert [s.user_id for s in (await service.get_table(ours.id)).seats] == [alice.id]

    # The Tarot Club's game starts, with Bob and a computer player.
    await bob.click(lobby, label="Join")
    await alice.click(channel.last_message, label="Add computer")
    await alice.click(channel.last_message, label="Start")
    assert (await service.get_table(ours.id)).status == "playing"

    # A seat's buttons and menus, from the Other Club: Dan has no seat at all...
    for verb in (*LOBBY_VERBS, *SEAT_VERBS):
        await refused(dan, his_table, f"tb:{ours.id}:{verb}")
    before = state(await service.get_table(ours.id))
    r = await crafted_select(here, dan, his_table, f"ts:{ours.id}:play:card", "S7")
    assert said(r).ephemeral and NOT_HERE in (said(r).content or "")
    assert state(await service.get_table(ours.id)) == before

    # ...and Alice, who has one, uses it from her own server or her DMs, not from another.
    alice_there = other.add_member(alice.user)
    for verb in SEAT_VERBS:
        await refused(alice_there, his_table, f"tb:{ours.id}:{verb}")

    # Nothing Dan saw names the Tarot Club, its channel or its players.
    seen = everything_seen(dan, cards) + "\n".join(
        embed_text(m) for m in dan.user.dm_channel.history()
    )
    assert "Tarot Club" not in seen and "#tarot" not in seen and "bob" not in seen


async def test_add_computer_is_refused_when_the_servers_admins_turned_computers_off(
    world: tuple[Any, ...],
) -> None:
    env, guild, channel, alice, _bob, _carol = world
    admin = guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[admin])
    r = await boss.slash(channel, "trionfi settings", computers=False)
    assert "Settings saved" in (said(r).content or "")

    r = await alice.slash(channel, "lamorte new", seats=3)
    assert r.acknowledged
    lobby = channel.last_message
    table = await env.bot.service.table_in_channel(channel.id)
    assert table is not None
    for _ in range(2):
        r = await alice.click(lobby, label="Add computer")
        assert said(r).ephemeral and "computer players off" in (said(r).content or "")
    after = await env.bot.service.get_table(table.id)
    assert [(s.user_id, s.is_bot) for s in after.seats] == [(alice.id, False)]
    r = await alice.click(channel.last_message, label="Start")
    assert said(r).ephemeral and (await env.bot.service.get_table(table.id)).status == "lobby"

    # Turned on again, the same button seats a computer player.
    await boss.slash(channel, "trionfi settings", computers=True)
    await alice.click(channel.last_message, label="Add computer")
    after = await env.bot.service.get_table(table.id)
    assert [s.is_bot for s in after.seats] == [False, True]


@pytest.mark.parametrize("verb", ["new", "join"])
async def test_one_person_holds_a_bounded_number_of_lobbies_and_seats(
    world: tuple[Any, ...], verb: str
) -> None:
    """``new`` fills the hosted-lobbies cap, ``join`` the seats cap; the refusal says the
    limit, and the table refused is left as it was."""
    env, guild, _channel, alice, _bob, _carol = world
    service = env.bot.service
    channels = [guild.create_text_channel(f"room-{i}") for i in range(MAX_OPEN_SEATS + 1)]
    hosts = [guild.add_member(env.create_user(f"host{i}")) for i in range(len(channels))]
    cap = MAX_HOSTED_LOBBIES if verb == "new" else MAX_OPEN_SEATS
    for room, host in zip(channels[:cap], hosts, strict=False):
        if verb == "new":
            r = await alice.slash(room, "lamorte new", seats=3)
        else:
            await host.slash(room, "lamorte new", seats=3)
            r = await alice.click(room.last_message, label="Join")
        assert r.acknowledged and "⚠️" not in (said(r).content or ""), said(r).content
    last = channels[cap]
    if verb == "new":
        r = await alice.slash(last, "lamorte new", seats=3)
        assert said(r).ephemeral and f"You already host {cap} open tables" in said(r).content
        assert await service.table_in_channel(last.id) is None
    else:
        await hosts[cap].slash(last, "lamorte new", seats=3)
        r = await alice.click(last.last_message, label="Join")
        assert said(r).ephemeral and f"seats at {cap} open tables" in (said(r).content or "")
        table = await service.table_in_channel(last.id)
        assert table is not None and [s.user_id for s in table.seats] == [hosts[cap].id]
    # Leaving one lobby makes room again.
    first = await service.table_in_channel(channels[0].id)
    assert first is not None
    await alice.slash(channels[0], "lamorte leave")
    if verb == "new":
        r = await alice.slash(last, "lamorte new", seats=3)
        assert "is open" in (said(r).content or ""), said(r).content
    else:
        r = await alice.click(last.last_message, label="Join")
        table = await service.table_in_channel(last.id)
        assert table is not None and [s.user_id for s in table.seats] == [hosts[cap].id, alice.id]
