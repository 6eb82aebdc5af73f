"""The permissions walk (issue 28): each permission the bot uses in a table's channel is taken
from it in the middle of a game. The table goes on — degraded where it must be (no pictures,
plain text, Unicode suits; shown nowhere but the DMs while the bot may not post), its host
told once and exactly what is missing — and giving the permission back brings the table back
to normal. A channel that stays closed to the bot closes its table only after
``UNREACHABLE_LIMIT``, and its players are told why.

SimCord is made to refuse what Discord refuses and it does not (``strict.refuse_as_discord``:
uploads without Attach Files, embeds without Embed Links).
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.client import TrionfiBot
from bot.ui.delivery.access import UNREACHABLE_LIMIT
from bot.ui.delivery.channel import PROBE_EVERY
from bot.ui.text.cards import set_suit_marks
from tests.e2e.helpers import embed_text, pictures
from tests.resilience.drive import Table, World, logged_errors, make_world
from tests.resilience.strict import deny, refuse_as_discord, restore
from tests.resilience.test_field import assert_shown, stored

pytestmark = pytest.mark.pictures  # Attach Files, and pictures lost with a permission

GAME = "la_morte"
OPTIONS = {"target": 10, "round_limit": 2}
EMOJI = re.compile(r"<:(spades|hearts|diamonds|clubs):\d+>")


class Clock:
    """The services' clock: the real time, moved on by the test."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def simcord_bot(tmp_path: Path, clock: Clock) -> AsyncIterator[TrionfiBot]:
    """A bot with its four-colour suit emojis (what Use External Emojis is for)."""
    bot = TrionfiBot(
        tmp_path / "trionfi.sqlite3",
        seed_source=lambda: 3,
        sweep_every=None,
        retry_delays=(0.0, 0.0),
        shard_count=1,
        suit_emojis=True,
        clock=clock,
    )
    yield bot
    await bot.close()
    set_suit_marks(None)  # the next test's bots start from Unicode


def notices(member: Any) -> list[str]:
    """The permission notices in a member's DMs."""
    texts = [m.content or "" for m in member.user.dm_channel.history()]
    return [t for t in texts if t.startswith("⚠️ Table #")]


def table_message(world: World, info: Any) -> discord.Message:
    return stored(world, info.channel_id, info.message_id)


def visible(message: discord.Message) -> str:
    return (message.content or "") + "\n" + embed_text(message)


async def start(world: World) -> Table:
    table = Table(world, GAME, world.members[:2], seed=11)
    await table.open(4, dict(OPTIONS))
    for _ in range(3):
        assert await table.step()
    await assert_shown(world, table.table_id)
    return table


async def steps(table: Table, n: int) -> None:
    for _ in range(n):
        assert await table.step(), "the game ended too soon for the test"
    await table.world.bot.controller.publisher.drain()


#: Discord's name of each permission (what the host is told), and whether the bot may still
#: post in the channel without it (else the table closes if it lasts: the host is told when).
WALK: dict[str, tuple[str, bool]] = {
    "view_channel": ("View Channel", False),
    "send_messages": ("Send Messages", False),
    "embed_links": ("Embed Links", True),
    "attach_files": ("Attach Files", True),
    "read_message_history": ("Read Message History", True),
    "use_external_emojis": ("Use External Emojis", True),
}


@pytest.mark.parametrize("permission", list(WALK))
async def test_a_permission_lost_mid_game(
    permission: str, simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = simcord_env
    refused = refuse_as_discord(monkeypatch)
    world = make_world(env, 2)
    host = world.members[0]
    name, may_post = WALK[permission]
    with logged_errors() as errors:
        table = await start(world)
        before = await world.service.get_table(table.table_id)
        normal = table_message(world, before)
        assert normal.attachments and pictures(normal)  # a picture, in the layout
        assert EMOJI.search(visible(normal)), "the table shows the bot's suit emojis"

        deny(env, world.channel.id, permission)
        await steps(table, 4)
        info = await world.service.get_table(table.table_id)
        assert info.status == "playing"  # never closed for a missing permission
        assert refused == []  # nothing Discord would refuse was even tried
        told = notices(host)
        if permission in ("read_message_history", "embed_links"):
            # A table never reads the channel, and its layout has no embed.
            assert told == []
            await assert_shown(world, table.table_id)
        else:
            assert len(told) == 1, told  # once, however many updates
            assert f"**{name}**" in told[0]
            assert ("6 hours" in told[0]) is not may_post
            for other, (other_name, _) in WALK.items():
                if other != permission:
                    assert f"**{other_name}**" not in told[0]
        now = table_message(world, info)
        if permission == "attach_files":
            await assert_shown(world, table.table_id)  # the same table, without its picture
            assert not now.attachments
        elif permission == "embed_links":
            assert now.attachments and pictures(now)  # unchanged: nothing to degrade
        elif permission == "use_external_emojis":
            assert info.shown_seq == info.seq and now.attachments and pictures(now)
            assert not EMOJI.search(visible(now)) and any(s in visible(now) for s in "♠♥♦♣")
        elif permission == "view_channel":
            assert visible(now) == visible(normal)  # left as it was: the game is in the DMs
            assert info.shown_seq < info.seq
        elif permission == "send_messages":
            # Edits go on; a new message (a deal's result, the next deal's table) waits.
            assert info.seq > before.seq

        restore(env, world.channel.id)
        await steps(table, 1)
        await assert_shown(world, table.table_id)
        back = table_message(world, await world.service.get_table(table.table_id))
        assert back.attachments and pictures(back)
        assert EMOJI.search(visible(back))
        assert len(notices(host)) == len(told)  # nothing more to say
        await table.play()
        assert (await world.service.get_table(table.table_id)).status == "finished"
    assert errors.records == []


async def test_a_table_in_a_channel_without_attach_files_plays_without_pictures(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28, defect 1: a channel that denies Attach Files to the bot (common in general
    channels) used to close a table at its first picture. Now its opener is told once, when
    opening, and the game plays to its end without pictures in the channel."""
    env = simcord_env
    refused = refuse_as_discord(monkeypatch)
    world = make_world(env, 2)
    deny(env, world.channel.id, "attach_files")
    host = world.members[0]
    table = Table(world, GAME, world.members[:2], seed=5)
    await table.open(4, dict(OPTIONS))
    opened = [m for m in world.channel.history(viewer=host) if "is open" in (m.content or "")]
    assert opened and "**Attach Files**" in (opened[-1].content or "")
    await steps(table, 2)
    hand = await table.hand(host)
    assert hand is not None and hand.attachments  # DMs keep their pictures
    await table.play()
    info = await world.service.get_table(table.table_id)
    assert info.status == "finished" and refused == []
    assert await world.service.store.game_results(table.table_id)  # rated as usual
    assert notices(host) == []  # told once already, when opening
    assert not any(m.attachments for m in world.channel.history())


async def test_a_channel_closed_to_the_bot_for_hours_closes_its_table(
    simcord_env: simcord.Env, clock: Clock
) -> None:
    """A moderator hides the channel from the bot: the game goes on in the DMs, the table
    stays open through the limit's last minute, and is closed, unrated, once it has passed;
    every player is told why."""
    env = simcord_env
    world = make_world(env, 2)
    table = await start(world)
    deny(env, world.channel.id, "view_channel")
    await steps(table, 2)
    life = world.bot.controller.life
    clock.offset += UNREACHABLE_LIMIT - 60
    await life.sweep(world.service.now())
    assert (await world.service.get_table(table.table_id)).status == "playing"
    await steps(table, 1)
    clock.offset += 120
    await life.sweep(world.service.now())
    await world.bot.controller.publisher.drain()
    info = await world.service.get_table(table.table_id)
    assert info.status == "abandoned"
    assert await world.service.store.game_results(table.table_id) == []
    for member in world.members[:2]:
        texts = [m.content or "" for m in member.user.dm_channel.history()]
        assert any("couldn't post in its channel for 6 hours" in t for t in texts), texts


async def test_a_channel_refusing_the_bot_unexplained_is_tried_sparingly(
    simcord_env: simcord.Env, clock: Clock
) -> None:
    """Discord answers 403 in the channel although the bot's permissions look complete (news
    the gateway has not brought): the game goes on in the DMs, the host is told once, the bot
    tries the channel again once a minute rather than at every move (each 403 counts toward
    Discord's limit of invalid requests), and shows the table once Discord accepts again."""
    env = simcord_env
    world = make_world(env, 2)
    table = await start(world)
    channel = f"/channels/{world.channel.id}/messages*"
    for method in ("POST", "PATCH"):
        env.inject_error(
            method, channel, status=403, code=50013, message="Missing Permissions", times=None
        )
    first = len(env.http_requests)
    await steps(table, 6)
    tried = [r for r in env.http_requests[first:] if r.path.startswith(channel[:-1])]
    assert 1 <= len(tried) <= 2, [r.path for r in tried]
    told = notices(world.members[0])
    assert len(told) == 1 and "Discord refuses my messages" in told[0] and "6 hours" in told[0]
    info = await world.service.get_table(table.table_id)
    assert info.status == "playing" and info.shown_seq < info.seq
    env.backend.faults.clear()
    clock.offset += PROBE_EVERY
    await steps(table, 1)
    await assert_shown(world, table.table_id)
