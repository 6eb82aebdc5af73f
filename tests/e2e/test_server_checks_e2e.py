"""Buttons are checked against the server they are pressed in (issue 15).

A custom_id is text anyone can put on a message (Discord sends whatever the message carries),
so a button naming another server's table or board must not reach it: the admin **End**
button ends only a table of the presser's own server (its host excepted), a server
leaderboard pages only on its own server, and a score sheet opens only for a table of this
server or one the presser played at. The crafted clicks are raw INTERACTION_CREATEs
(``tests/resilience/drive.py``), as a modified client would send them.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
from simcord.enums import InteractionType

from bot.services.errors import Forbidden
from tests.e2e.helpers import components, embed_text, labels, said
from tests.e2e.test_stats_e2e import Seeder
from tests.resilience.drive import World, dispatch


def button(custom_id: str, label: str = "?") -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": label, "custom_id": custom_id}


async def crafted_click(world: World, member: Any, message: discord.Message, custom_id: str) -> Any:
    """``member`` clicks a button with ``custom_id`` that a modified client put on
    ``message`` (whatever the bot rendered there)."""
    backend = world.env.backend
    stored = backend.get_message(message.channel.id, message.id)
    return await dispatch(
        world,
        member.id,
        message.channel.id,
        InteractionType.MESSAGE_COMPONENT,
        {"custom_id": custom_id, "component_type": 2},
        message=stored,
        components=[{"type": 1, "components": [button(custom_id)]}],
    )


def everything_seen(member: Any, *channels: Any) -> str:
    """All text ``member`` can see in ``channels``, their own ephemerals included."""
    return "\n".join(embed_text(m) for c in channels for m in c.history(viewer=member))


def other_server(env: Any) -> tuple[Any, Any, Any, Any]:
    """A second server: its channel, its admin (Manage Server) and a plain member."""
    guild = env.create_guild("Other Club")
    channel = guild.create_text_channel("cards")
    admin = guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("mallory"), roles=[admin])
    dan = guild.add_member(env.create_user("dan"))
    return guild, channel, boss, dan


async def test_an_admin_of_another_server_cannot_end_this_servers_table(
    world: tuple[Any, ...],
) -> None:
    env, guild, channel, alice, bob, _carol = world
    _, cards, boss, dan = other_server(env)
    here = World(env, guild, channel, [alice, bob])

    # A game in progress on the Tarot Club.
    r = await alice.slash(channel, "lamorte new", seats=3, computers=1)
    assert r.acknowledged
    await bob.click(channel.last_message, label="Join")
    await alice.click(channel.history()[0], label="Start")
    service = env.bot.service
    ours = await service.table_in_channel(channel.id)
    assert ours is not None and ours.status == "playing"
    before = ours.seq

    # Mallory, Manage Server on the Other Club only, lists her own tables...
    await dan.slash(cards, "lamorte new", seats=3)
    r = await boss.slash(cards, "trionfi tables")
    listing = said(r).message
    theirs = await service.table_in_channel(cards.id)
    assert theirs is not None and labels(listing) == [f"End #{theirs.id}"]

    # ...and rewrites the End button to name the Tarot Club's table.
    r = await crafted_click(here, boss, listing, f"tb:{ours.id}:end")
    assert r.acknowledged and said(r).ephemeral
    assert "not on this server" in (said(r).content or "")
    after = await service.get_table(ours.id)
    assert after.status == "playing" and after.seq == before  # nothing changed
    assert "was ended by" not in everything_seen(alice, channel)
    assert "is closed" not in everything_seen(boss, cards)

    # A plain member of the Other Club gets the same answer (not the host, not an admin).
    r = await crafted_click(here, dan, listing, f"tb:{ours.id}:end")
    assert said(r).ephemeral and (await service.get_table(ours.id)).status == "playing"

    # Her own server's table she can end, from the very same listing.
    r = await boss.click(listing, label=f"End #{theirs.id}")
    assert r.acknowledged and "is closed" in (said(r).content or "")
    assert (await service.get_table(theirs.id)).status == "abandoned"
    assert (await service.get_table(ours.id)).status == "playing"


async def test_the_host_may_still_end_their_table_and_admins_only_their_own(
    world: tuple[Any, ...],
) -> None:
    """The rule in the service: host of that table, or Manage Server on its server."""
    env, guild, channel, alice, bob, _carol = world
    service = env.bot.service
    t = await service.open_lobby(guild.id, channel.id, alice.id, "alice", "la_morte", 3, {}, 2)
    elsewhere = guild.id + 1
    with pytest.raises(Forbidden, match="other_server"):
        await service.end_table(t.id, bob.id, admin=True, guild_id=elsewhere)
    assert (await service.get_table(t.id)).status == "lobby"
    ended = await service.end_table(t.id, alice.id, admin=False, guild_id=elsewhere)
    assert ended.table.status == "abandoned"  # the host, wherever the button was pressed
    t = await service.open_lobby(guild.id, channel.id, alice.id, "alice", "la_morte", 3, {}, 2)
    ended = await service.end_table(t.id, bob.id, admin=True, guild_id=guild.id)
    assert ended.table.status == "abandoned"  # an admin of the table's own server


async def test_a_crafted_leaderboard_button_never_shows_another_servers_board(
    world: tuple[Any, ...],
) -> None:
    env, guild, channel, alice, _bob, _carol = world
    _, cards, _boss, dan = other_server(env)
    here = World(env, guild, channel, [alice])
    seed = Seeder(env)
    for i in range(12):  # two pages of the Tarot Club's own players
        await seed.game(guild.id, [(60_000 + i, f"Secret {i:02}", 10), (None, "Bot", 0)])

    # On its own server the board pages as before.
    r = await alice.slash(channel, "leaderboard", game="la_morte", metric="games")
    board = channel.last_message
    ids = [c.custom_id for c in components(board) if (c.custom_id or "").endswith(":next")]
    assert ids and f":{guild.id}:" in ids[0]
    await alice.click(board, custom_id=ids[0])
    assert "Page 2/2" in embed_text(channel.last_message)

    # Dan, on the Other Club, has a board of his own server there (nobody yet)...
    r = await dan.slash(cards, "leaderboard", game="la_morte", metric="games")
    mine = said(r).message
    assert "No finished La Morte games on this server" in embed_text(mine)
    before = embed_text(cards.last_message)

    # ...and puts the Tarot Club's id on its buttons: as the board's owner (the public
    # message would be redrawn) and as someone else (a private copy would be sent).
    for owner in (dan.id, alice.id):
        for verb in ("next", "first", "me"):
            crafted = f"lb:{owner}:{guild.id}:la_morte:s:games:a:0:{verb}"
            r = await crafted_click(here, dan, mine, crafted)
            assert r.acknowledged and said(r).ephemeral
            assert "another server" in (said(r).content or "")
    seen = everything_seen(dan, cards)
    assert "Secret" not in seen
    assert embed_text(cards.last_message) == before  # his public board was not redrawn

    # A global board is everyone's, but it is drawn for the server it is pressed in.
    crafted = f"lb:{dan.id}:{guild.id}:la_morte:g:games:a:0:next"
    r = await crafted_click(here, dan, mine, crafted)
    assert r.acknowledged and "another server" not in (said(r).content or "")
    assert "all servers" in embed_text(cards.last_message)


async def test_a_crafted_score_sheet_button_opens_only_this_servers_tables(
    world: tuple[Any, ...],
) -> None:
    env, guild, channel, alice, bob, _carol = world
    other, cards, _boss, dan = other_server(env)
    here = World(env, guild, channel, [alice])
    seed = Seeder(env)
    table_id = await seed.game(guild.id, [(alice.id, "alice", 9), (bob.id, "bob", 1)])

    r = await dan.slash(cards, "leaderboard", game="la_morte")
    anywhere = said(r).message
    r = await crafted_click(here, dan, anywhere, f"hs:{table_id}")
    assert said(r).ephemeral and f"no table #{table_id} on this server" in (said(r).content or "")
    assert "score sheet" not in everything_seen(dan, cards)

    # Alice played at that table: her own game's sheet opens on any server she is on.
    alice_there = other.add_member(alice.user)
    r = await crafted_click(here, alice_there, anywhere, f"hs:{table_id}")
    assert said(r).ephemeral
    assert f"table #{table_id} — score sheet" in embed_text(said(r).message)
