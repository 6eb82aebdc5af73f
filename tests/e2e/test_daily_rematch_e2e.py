"""A crafted **Rematch** on a finished daily deal opens nothing (issue 28, defect 3).

The review's reproduction through Discord: Alice resigns today's deal, then her modified client
puts ``tb:<daily table>:rematch`` on the deal's result post in her DMs (and on a message of
her server). Before the fix this opened a lobby in her DMs with every seat a computer, which
Start turned into a rated expert match played in one job. Now it is refused privately, no
lobby opens, her DM channel stays free for tomorrow's deal, and nothing is rated.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import labels, said
from tests.e2e.test_daily_e2e import (  # noqa: F401  (fixtures: the daily's bot and computers)
    GAME,
    clock,
    daily_bot,
    quick_expert,
    simcord_bot,
    start,
)
from tests.e2e.test_server_checks_e2e import crafted_click
from tests.resilience.drive import World


async def test_a_crafted_rematch_of_a_daily_deal_opens_nothing(world: tuple[Any, ...]) -> None:
    env, guild, channel, alice, _bob, _carol = world
    service = env.bot.service
    here = World(env, guild, channel, [alice])
    await start(alice, channel)
    r = await alice.slash(channel, "daily", game=GAME, action="resign")
    assert "You resigned" in (said(r).content or "")
    mine = await service.daily_attempt(alice.id, GAME)
    assert mine is not None and mine.status == "finished" and mine.table_id is not None
    dm = alice.user.dm_channel
    result_post = dm.history()[-1]

    r = await crafted_click(here, alice.user, result_post, f"tb:{mine.table_id}:rematch")
    assert r.acknowledged and said(r).ephemeral
    assert "A daily deal has no rematch" in (said(r).content or "")
    await alice.slash(channel, "lamorte new", seats=3)  # a message of her server
    lobby = await service.table_in_channel(channel.id)
    r = await crafted_click(here, alice, channel.last_message, f"tb:{mine.table_id}:rematch")
    assert said(r).ephemeral and "in another server" in (said(r).content or "")

    assert await service.table_in_channel(dm.id) is None  # no lobby in her DMs
    assert await service.table_in_channel(channel.id) == lobby
    assert await service.store.game_results(mine.table_id) == []  # nothing rated
    assert not any("Rematch" in [*labels(m), m.content or ""] for m in dm.history())
