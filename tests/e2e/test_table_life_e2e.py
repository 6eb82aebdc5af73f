"""Tables that never get stuck, through SimCord: turn clocks with reminders, AFK expiry and
takeover, I'm back, rematch, host and admin controls, server settings, missing permissions."""

from __future__ import annotations

from typing import Any

import discord

from bot.services.tables import TableService
from tests.e2e.helpers import dm_hand, embed_text, has_controls, labels, said, take_turn


def service_of(env: Any) -> TableService:
    return env.bot.service


async def sweep_at(env: Any, now: float) -> None:
    await env.bot.controller.life.sweep(now)


async def deadline(env: Any, table_id: int = 1) -> float:
    when = (await service_of(env).get_table(table_id)).turn_deadline
    assert when is not None, "no turn clock is running"
    return when


async def table_message(env: Any, channel: Any) -> discord.Message:
    """The public table message (notices may have been posted after it)."""
    message_id = (await service_of(env).get_table(1)).message_id
    return next(m for m in channel.history() if m.id == message_id)


def mover_of(*members: Any) -> Any:
    return next((m for m in members if has_controls(dm_hand(m))), None)


def texts(channel: Any) -> list[str]:
    return [embed_text(m) for m in channel.history()]


async def test_reminder_expiry_takeover_and_im_back(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    r = await alice.slash(channel, "lamorte new", seats=3, computers=1, clock="fast")
    assert r.acknowledged
    assert "Turn clock: **fast (45 s a turn)**" in embed_text(channel.last_message)
    await bob.click(channel.last_message, label="Join")
    await alice.click(channel.history()[0], label="Start")

    afk = mover_of(alice, bob)
    other = bob if afk is alice else alice
    due = await deadline(env)
    assert f"<t:{int(due)}:R>" in embed_text(await table_message(env, channel))  # a countdown

    # Half time: one DM reminder, never two.
    before = len(afk.user.dm_channel.history())
    await sweep_at(env, due - 20)
    await sweep_at(env, due - 10)
    dms = afk.user.dm_channel.history()
    assert len(dms) == before + 1 and "still your turn" in (dms[-1].content or "")

    # Expiry: the computer plays for them, the seat is marked away.
    seq = (await service_of(env).get_table(1)).seq
    await sweep_at(env, due + 1)
    assert (await service_of(env).get_table(1)).seq > seq
    assert any("ran out of time" in t for t in texts(channel))
    assert "I'm back" in labels(await table_message(env, channel))

    # The away player's next turn runs out too: the computer takes the seat.
    for _ in range(60):
        if mover_of(alice, bob) is afk:
            break
        message = dm_hand(other)
        assert message is not None
        await take_turn(other, message)
    assert mover_of(alice, bob) is afk
    await sweep_at(env, await deadline(env) + 1)
    assert any("missed two turns in a row" in t for t in texts(channel))
    seat = next(s for s in (await service_of(env).get_table(1)).seats if s.user_id == afk.id)
    assert seat.expiries == 2
    assert "(away)" in embed_text(await table_message(env, channel))

    # The game goes on without them: only the other human is ever asked.
    for _ in range(5):
        message = dm_hand(other)
        if not has_controls(message):
            break
        assert message is not None
        await take_turn(other, message)
    afk_dm = dm_hand(afk)
    assert afk_dm is not None and labels(afk_dm) == ["I'm back"]

    # I'm back: they play their own seat again.
    r = await afk.user.click(afk_dm, label="I'm back")
    assert r.acknowledged
    assert any("is back" in t for t in texts(channel))
    seat = next(s for s in (await service_of(env).get_table(1)).seats if s.user_id == afk.id)
    assert seat.expiries == 0
    r = await afk.slash(channel, "lamorte back")
    assert said(r).ephemeral and "already playing" in said(r).content


async def test_the_only_human_timing_out_twice_closes_the_table(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, _bob, _carol = world
    await alice.slash(channel, "losers new", seats=3, computers=2, clock="normal")
    await alice.click(channel.last_message, label="Start")
    await sweep_at(env, await deadline(env) + 1)
    await sweep_at(env, await deadline(env) + 1)
    info = await service_of(env).get_table(1)
    assert info.status == "abandoned"
    assert any("No human is playing" in t for t in texts(channel))
    assert await service_of(env).store.game_results(1) == []


async def test_rematch_same_seats_and_options(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await alice.slash(channel, "oldtarot new", seats=2, computers=1, target=10)
    await alice.click(channel.last_message, label="Start")
    for _ in range(300):
        message = dm_hand(alice)
        if not has_controls(message):
            break
        assert message is not None
        await take_turn(alice, message)
    final = next(m for m in channel.history() if "game over" in embed_text(m))
    assert labels(final) == ["Rematch"]
    r = await bob.click(final, label="Rematch")
    assert said(r).ephemeral and "players" in (said(r).content or "")
    r = await alice.click(final, label="Rematch")
    assert r.acknowledged
    lobby = channel.last_message
    text = embed_text(lobby)
    assert "Early French Tarot · table #2" in text and "Game to **10**" in text
    assert "alice" in text and "Bot Arturo" in text and "The table is full" in text
    await alice.click(lobby, label="Start")
    assert (await service_of(env).get_table(2)).status == "playing"


async def test_host_replaces_an_absent_player_and_ends_the_table(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, carol = world
    await alice.slash(channel, "lamorte new", seats=3, clock="fast")
    for member in (bob, carol):
        await member.click(channel.history()[0], label="Join")
    await alice.click(channel.history()[0], label="Start")
    r = await carol.slash(channel, "lamorte replace", player=bob)
    assert said(r).ephemeral and "host" in said(r).content
    r = await alice.slash(channel, "lamorte replace", player=bob)  # Bob is playing
    assert said(r).ephemeral and "still playing" in said(r).content
    # Bob's turn clock runs out: he is away, and may be replaced.
    for _ in range(60):
        mover = mover_of(alice, bob, carol)
        if mover is bob:
            break
        message = dm_hand(mover)
        assert message is not None
        await take_turn(mover, message)
    assert mover_of(alice, bob, carol) is bob
    await sweep_at(env, await deadline(env) + 1)
    r = await alice.slash(channel, "lamorte replace", player=bob)
    assert said(r).ephemeral and "computer player now plays bob" in said(r).content
    info = await service_of(env).get_table(1)
    assert next(s for s in info.seats if s.user_id == bob.id).resigned
    # Bob's hand DM loses its controls: a computer plays that seat now.
    await env.settle()
    hand = dm_hand(bob)
    assert "has taken over your seat" in embed_text(hand) and not has_controls(hand)
    r = await carol.slash(channel, "lamorte end")
    assert said(r).ephemeral and "Manage Server" in said(r).content
    # Carol still plays: the host ending the game is her resignation, rated.
    r = await alice.slash(channel, "lamorte end")
    assert said(r).ephemeral and "counts as your resignation" in said(r).content
    assert (await service_of(env).get_table(1)).status == "abandoned"
    assert any("was ended by" in t and "ranked last" in t for t in texts(channel))
    places = {g.user_id: g.place for g in await service_of(env).store.game_results(1)}
    assert places[alice.id] == 2 and places[carol.id] == 1 and places[bob.id] is None


async def test_server_settings_and_running_tables(world: tuple[Any, ...]) -> None:
    env, guild, channel, alice, bob, _carol = world
    admin = guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[admin])
    games = guild.create_text_channel("games")

    # Discord hides /trionfi from members without Manage Server (default permissions).
    assert "trionfi settings" not in bob.available_commands(channel)
    assert "trionfi settings" in boss.available_commands(channel)
    r = await boss.slash(channel, "trionfi settings")
    assert said(r).ephemeral and "any channel" in embed_text(said(r))

    r = await boss.slash(
        channel, "trionfi settings", allow_channel=games, computers=False, turn_clock="normal"
    )
    assert "Settings saved" in (said(r).content or "")
    text = embed_text(said(r))
    assert "normal (2 min a turn)" in text and "off" in text

    r = await alice.slash(channel, "lamorte new")
    assert said(r).ephemeral and "#" in said(r).content and "only in" in said(r).content
    r = await alice.slash(games, "lamorte new", computers=1)
    assert said(r).ephemeral and "computer players off" in said(r).content
    r = await alice.slash(games, "lamorte new", seats=3)
    assert r.acknowledged and "is open" in (said(r).content or ""), said(r).content
    assert "normal (2 min a turn)" in embed_text(games.last_message)  # the server default

    r = await boss.slash(channel, "trionfi tables")
    assert said(r).ephemeral and "#1" in embed_text(said(r))
    listing = next(m for m in channel.history(viewer=boss) if "Running tables" in embed_text(m))
    assert labels(listing) == ["End #1"]
    r = await boss.click(listing, label="End #1")
    assert r.acknowledged
    assert (await service_of(env).get_table(1)).status == "abandoned"

    await boss.slash(channel, "trionfi settings", any_channel=True)
    r = await alice.slash(channel, "lamorte new")
    assert r.acknowledged and "is open" in (said(r).content or ""), said(r).content


async def test_missing_permission_is_named_and_nothing_is_created(world: tuple[Any, ...]) -> None:
    env, guild, _channel, alice, _bob, _carol = world
    locked = guild.create_text_channel(
        "locked", overwrites={env.bot.user: discord.PermissionOverwrite(read_message_history=False)}
    )
    r = await alice.slash(locked, "lamorte new")
    assert said(r).ephemeral and "**Read Message History**" in said(r).content
    assert await service_of(env).table_in_channel(locked.id) is None
    assert locked.history() == []
