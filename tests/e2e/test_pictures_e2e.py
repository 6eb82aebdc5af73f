"""Pictures through Discord: the table message and every hand DM carry their picture, edited
in place with the message (no extra request), in every game; a player or a server that turned
pictures off gets text only."""

from __future__ import annotations

from typing import Any

import pytest
import simcord
from simcord.components import walk_components

from tests.e2e.helpers import embed_text, labels
from tests.resilience.drive import Table, World, landed_games, make_world

pytestmark = pytest.mark.pictures  # what this file tests


def picture_of(world: World, channel_id: int | None, message_id: int | None) -> str | None:
    """The attached picture a stored message shows (an embed's image, or an item of the newer
    layout's media gallery, which must have its alt text), if any."""
    assert channel_id is not None and message_id is not None
    stored = world.env.backend.get_message(channel_id, message_id)
    embeds: list[Any] = list(getattr(stored, "embeds", []) or [])
    url = (embeds[0].get("image") or {}).get("url") if embeds else None
    files = {a.get("filename"): a.get("url") for a in (getattr(stored, "attachments", None) or [])}
    for c in walk_components(getattr(stored, "components", None) or []):
        for item in c.get("items") or [] if c.get("type") == 12 else []:
            assert item.get("description"), "a picture without its alt text"
            url = next((n for n, u in files.items() if u == item["media"]["url"]), url)
    if url is None:
        return None
    name = str(url).removeprefix("attachment://")
    assert name in files, (url, files)
    return name


@pytest.mark.parametrize("game_id", landed_games())
async def test_every_table_and_hand_carries_its_picture(
    game_id: str, simcord_env: simcord.Env
) -> None:
    env = simcord_env
    world = make_world(env, 2)
    table = Table(world, game_id, world.members[:2], seed=8)
    await table.open(3, None)  # a whole (short) game
    requests = len(env.http_requests)
    checked = 0

    async def every_message_has_its_picture() -> None:
        nonlocal checked
        info = await world.service.get_table(table.table_id)
        if info.status != "playing":
            return
        assert picture_of(world, info.channel_id, info.message_id) == "table.png"
        public = (await world.service.snapshot(table.table_id)).public
        turn = None if public is None else public.to_act
        for seat in info.seats:
            if seat.user_id is not None and not seat.resigned and not seat.dm_failed:
                # At its player's decision, a hand is the whole table: one picture of both.
                mine = seat.seat == turn
                assert picture_of(world, seat.dm_channel_id, seat.dm_message_id) == (
                    "turn.png" if mine else "hand.png"
                )
        checked += 1

    await table.play(after_step=every_message_has_its_picture)
    assert checked > 0 and (await world.service.snapshot(table.table_id)).finished
    # The result carries the game's deal-by-deal (or hand-by-hand) score table.
    final = next(m for m in world.channel.history() if "Rematch" in labels(m))
    assert " by " in embed_text(final) and "running total" in embed_text(final)
    # Pictures ride on the edits that happen anyway: no upload of their own.
    assert not [c for c in env.http_requests[requests:] if "attachments" in c.path]


async def test_pictures_off_means_text_only(simcord_env: simcord.Env) -> None:
    env = simcord_env
    world = make_world(env, 2)
    alice, bob = world.members
    await bob.slash(world.channel, "pictures", show="off")
    await world.service.update_guild_settings(world.guild.id, pictures=False)
    table = Table(world, "la_morte", [alice, bob], seed=8)
    await table.open(4, {"target": 10, "round_limit": 2})
    await table.step()
    info = await world.service.get_table(table.table_id)
    assert picture_of(world, info.channel_id, info.message_id) is None
    mine = {s.user_id: s for s in info.seats}
    a, b = mine[alice.id], mine[bob.id]
    assert picture_of(world, b.dm_channel_id, b.dm_message_id) is None
    # alice follows the server's default (off) until she chooses otherwise.
    assert picture_of(world, a.dm_channel_id, a.dm_message_id) is None
