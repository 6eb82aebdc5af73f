"""Running unattended, through Discord: commands synced only when they change (and never twice
in a dev server), a deleted channel or a removed server closing its tables, forget-me with
open seats, and display names that cannot ping anyone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.client import TrionfiBot
from tests.conftest import SETTLE_TIMEOUT
from tests.e2e.helpers import embed_text, said
from tests.resilience.drive import Table, make_world


def command_puts(env: simcord.Env) -> list[str]:
    return [c.path for c in env.http_requests if c.method == "PUT" and "/commands" in c.path]


async def test_commands_sync_only_when_they_change(
    simcord_env: simcord.Env, make_bot: Callable[..., TrionfiBot]
) -> None:
    env = simcord_env
    assert len(command_puts(env)) == 1  # the first start syncs
    old = env.bot
    await env.restart_bot(make_bot())
    await old.close()
    assert len(command_puts(env)) == 1  # same commands: no sync on the restart
    bot = env.bot
    assert isinstance(bot, TrionfiBot)
    assert await bot.sync_commands(force=True)  # ``python -m bot sync``
    assert len(command_puts(env)) == 2


@pytest.fixture
def dev_bot(tmp_path: Path) -> Any:
    made: list[TrionfiBot] = []

    def factory() -> TrionfiBot:
        bot = TrionfiBot(
            tmp_path / "dev.sqlite3",
            dev_guild_id=424242,
            sweep_every=None,
            shard_count=1,
        )
        made.append(bot)
        return bot

    return factory


async def test_a_dev_server_never_sees_commands_twice(dev_bot: Any) -> None:
    bot = dev_bot()
    async with simcord.run(bot, strict_sync=False, settle_timeout=SETTLE_TIMEOUT) as env:
        guild = env.create_guild("Dev", id=424242) if _takes_id() else None
        assert env.backend.find_command("lamorte", None) is None  # no global copy
        if guild is not None:
            assert env.backend.find_command("lamorte", guild.id) is not None
        puts = command_puts(env)
        assert any("/guilds/424242/commands" in p for p in puts)
    await bot.close()


def _takes_id() -> bool:
    import inspect

    return "id" in inspect.signature(simcord.Env.create_guild).parameters


async def test_a_deleted_channel_closes_its_table(simcord_env: simcord.Env) -> None:
    env = simcord_env
    world = make_world(env, 2)
    table = Table(world, "la_morte", world.members[:2], seed=3)
    await table.open(4, {"target": 10})
    env.backend.delete_channel(world.channel.id)
    await env.settle()
    await world.bot.controller.publisher.drain()
    assert (await world.service.get_table(table.table_id)).status == "abandoned"
    for member in world.members[:2]:
        texts = [m.content or "" for m in member.user.dm_channel.history()]
        assert any("can no longer reach its channel" in t for t in texts)


async def test_leaving_a_server_closes_its_tables(simcord_env: simcord.Env) -> None:
    env = simcord_env
    world = make_world(env, 2)
    table = Table(world, "la_morte", world.members[:2], seed=3)
    await table.open(4, {"target": 10})
    env.backend.remove_guild(world.guild.id)
    await env.settle()
    await world.bot.controller.publisher.drain()
    assert (await world.service.get_table(table.table_id)).status == "abandoned"
    assert await world.service.store.game_results(table.table_id) == []


async def test_forget_me_gives_up_open_seats_first(simcord_env: simcord.Env) -> None:
    env = simcord_env
    world = make_world(env, 2)
    alice, bob = world.members
    table = Table(world, "la_morte", [alice, bob], seed=3)
    await table.open(4, {"target": 10})
    r = await alice.slash(world.channel, "privacy forget-me")
    confirm = said(r).message
    r = await alice.click(confirm, label="Forget me")
    assert "Done" in (said(r).content or "")
    info = await world.service.get_table(table.table_id)
    assert info.status == "playing" and info.seat_of(alice.id) is None  # bob plays on
    assert await world.service.active_tables_for_user(alice.id) == []


async def test_a_display_name_cannot_ping_everyone(simcord_env: simcord.Env) -> None:
    env = simcord_env
    world = make_world(env, 1)
    sneaky = world.guild.add_member(env.create_user("sneaky"), nick="@everyone")
    table = Table(world, "la_morte", [world.members[0], sneaky], seed=3)
    await table.open(4, {"target": 10})
    await sneaky.slash(world.channel, "lamorte resign")
    notices = [m for m in world.channel.history() if "resigned" in (m.content or "")]
    # The name shows (a zero-width space after "@" keeps it from being a mention at all:
    # issue 28, defect 7), and nothing pings everyone.
    assert notices and "@\u200beveryone" in notices[0].content
    assert not any(m.mention_everyone for m in world.channel.history())


async def test_help_tells_how_to_play_and_how_the_bot_is(simcord_env: simcord.Env) -> None:
    world = make_world(simcord_env, 1)
    member = world.members[0]
    r = await member.slash(world.channel, "help")
    # The answer is drawn in the newer layout: read it as the member's channel shows it.
    text = embed_text(next(m for m in world.channel.history(viewer=member) if m.id == said(r).id))
    assert said(r).ephemeral and "/lamorte new" in text and "/tarocchi rules" in text
    assert "1 server ·" in text and "0 open tables" in text


@pytest.mark.pictures
async def test_pictures_are_a_players_choice_over_the_servers_default(
    simcord_env: simcord.Env,
) -> None:
    world = make_world(simcord_env, 1)
    alice = world.members[0]
    r = await alice.slash(world.channel, "pictures")
    assert "**on**" in said(r).content and "server's default" in said(r).content
    await world.service.update_guild_settings(world.guild.id, pictures=False)
    r = await alice.slash(world.channel, "pictures")
    assert "**off (text only)**" in said(r).content
    r = await alice.slash(world.channel, "pictures", show="on")
    assert said(r).content.startswith("Saved.") and "**on** (your choice)" in said(r).content
    assert await world.service.pictures_on(world.guild.id, alice.id)
    assert not await world.service.pictures_on(world.guild.id, None)
