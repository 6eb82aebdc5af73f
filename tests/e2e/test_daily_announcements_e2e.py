"""Midnight without a stall (issue 29, defect 4), through SimCord: the servers' daily
announcements are claimed one by one as they are posted, in small batches, and one server's
failure loses no other server's announcement (its own is tried again later)."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.ui.handlers import daily as daily_handlers


def _servers(env: simcord.Env, n: int) -> list[tuple[Any, Any]]:
    found = []
    for i in range(n):
        guild = env.create_guild(f"Club {i}")
        found.append((guild, guild.create_text_channel("tarot")))
    return found


def _posted(channel: Any) -> int:
    return sum("daily deals of" in (m.content or "") for m in channel.history())


async def test_one_servers_failure_loses_no_other_announcement(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = simcord_env
    service = env.bot.service  # type: ignore[attr-defined]
    daily = env.bot.controller.daily  # type: ignore[attr-defined]
    servers = _servers(env, 3)
    for guild, channel in servers:
        await service.set_daily_channel(guild.id, channel.id)
    broken = servers[0][0].id  # the first in the posting order
    real = service.yesterdays_winners

    async def winners(guild_id: int, day: str) -> list[tuple[str, str, int]]:
        if guild_id == broken:
            raise RuntimeError("a bug of ours, for this server only")
        return await real(guild_id, day)

    monkeypatch.setattr(service, "yesterdays_winners", winners)
    monkeypatch.setattr(daily_handlers, "ANNOUNCE_RETRY", 0.0, raising=False)  # at once
    assert await daily.announce() == 2  # the others are posted, nothing escapes
    assert [_posted(c) for _, c in servers] == [0, 1, 1]
    # The failed one was given back: posted once the fault is gone (after its retry delay).
    monkeypatch.setattr(service, "yesterdays_winners", real)
    assert await daily.announce() == 1
    assert await daily.announce() == 0
    assert [_posted(c) for _, c in servers] == [1, 1, 1]


async def test_announcements_go_out_in_small_batches(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = simcord_env
    service = env.bot.service  # type: ignore[attr-defined]
    daily = env.bot.controller.daily  # type: ignore[attr-defined]
    servers = _servers(env, 5)
    for guild, channel in servers:
        await service.set_daily_channel(guild.id, channel.id)
    monkeypatch.setattr(daily_handlers, "ANNOUNCE_BATCH", 2)
    rounds = [await daily.upkeep(), await daily.upkeep(), await daily.upkeep()]
    # Two, two, then the last one: the sweeper runs the next round at once while more are left.
    assert rounds == [True, True, False]
    assert [_posted(c) for _, c in servers] == [1] * 5
    # Unposted ones were never claimed ahead of their post: none is lost if a round stops.
    assert await service.unposted_announcements() == []
