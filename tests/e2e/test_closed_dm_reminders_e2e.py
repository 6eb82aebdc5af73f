"""Turn reminders never DM a player whose DMs are known closed (issue 28, defect 8).

Every refused DM is a 403, and 403s count toward Discord's invalid-request limit (10,000 per
10 minutes per IP, then the whole bot is banned for a while). A player whose DMs are closed
gets their reminders as a channel ping instead; a reminder DM refused with 50007 is
remembered on the seat, so the next reminders go to the channel too. Counted on SimCord's
record of every REST call the bot made.
"""

from __future__ import annotations

from typing import Any

import simcord

from tests.e2e.helpers import dm_hand, has_controls, labels, said, take_turn

REMINDERS = 3


def close_dms(env: simcord.Env, member: Any) -> None:
    """The member closes their DMs: every message the bot sends them is refused."""
    env.inject_error(
        "POST",
        f"/channels/{member.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )


def dm_requests(env: simcord.Env, member: Any) -> int:
    """REST calls that send (or open a channel to send) the member a DM."""
    dm = f"/channels/{member.user.dm_channel.id}/messages"
    return sum(
        1
        for r in env.http_requests
        if (r.method == "POST" and r.path == dm)
        or (
            r.path == "/users/@me/channels"
            and str((r.json or {}).get("recipient_id")) == str(member.id)
        )
    )


async def start(env: simcord.Env, channel: Any, alice: Any, bob: Any) -> int:
    """alice opens a fast-clock La Morte table with bob and a computer, and starts it."""
    await alice.slash(channel, "lamorte new", seats=3, computers=1, clock="fast", target=30)
    await bob.click(channel.last_message, label="Join")
    await alice.click(channel.history()[0], label="Start")
    table = await env.bot.service.table_in_channel(channel.id)  # type: ignore[attr-defined]
    assert table is not None
    return table.id


async def bobs_turn(env: simcord.Env, table_id: int, alice: Any, bob: Any) -> bool:
    """alice plays from her DMs until bob must decide (False: the game ended first)."""
    service = env.bot.service  # type: ignore[attr-defined]
    for _ in range(60):
        outcome = await service.snapshot(table_id, None)
        if outcome.finished or outcome.public is None:
            return False
        turn = outcome.public.to_act
        if turn == outcome.table.seat_of(bob.id):
            return True
        hand = dm_hand(alice)
        assert has_controls(hand) and hand is not None
        await take_turn(alice, hand)
    raise AssertionError("bob never had a turn")


async def bob_plays(channel: Any, bob: Any) -> None:
    """bob decides from **Show my hand** (his DMs are closed)."""
    table = next(m for m in reversed(channel.history()) if "Show my hand" in labels(m))
    shown = await bob.click(table, label="Show my hand")
    await take_turn(bob, said(shown).message, actor=bob)


async def remind_bob(env: simcord.Env, table_id: int) -> None:
    """The sweeper runs at half time of bob's turn (before it runs out)."""
    info = await env.bot.service.get_table(table_id)  # type: ignore[attr-defined]
    assert info.turn_deadline is not None
    await env.bot.controller.life.sweep(info.turn_deadline - 20)  # type: ignore[attr-defined]


def reminders_posted(env: simcord.Env, channel: Any, bob: Any) -> int:
    """Turn reminders the bot posted in the table's channel for bob (a later delivery of the
    same turn, such as its notification, may already have replaced them)."""
    path = f"/channels/{channel.id}/messages"
    return sum(
        1
        for r in env.http_requests
        if r.method == "POST"
        and r.path == path
        and "still your turn" in str((r.json or {}).get("content"))
        and f"<@{bob.id}>" in str((r.json or {}).get("content"))
    )


def pings_left(channel: Any, bob: Any) -> list[Any]:
    """Pings (turn notifications and reminders, not the table message) still calling bob."""
    return [
        m
        for m in channel.history()
        if f"<@{bob.id}>, it's" in (m.content or "") and "at table #" in m.content
    ]


async def test_reminders_ping_in_the_channel_when_dms_are_known_closed(
    world: tuple[Any, ...],
) -> None:
    env, _guild, channel, alice, bob, _carol = world
    close_dms(env, bob)
    table_id = await start(env, channel, alice, bob)
    seat = next(s for s in (await env.bot.service.get_table(table_id)).seats if s.user_id == bob.id)
    assert seat.dm_failed  # his first hand was refused: known closed
    before = dm_requests(env, bob)
    reminded = 0
    while reminded < REMINDERS and await bobs_turn(env, table_id, alice, bob):
        await remind_bob(env, table_id)
        reminded += 1
        assert dm_requests(env, bob) == before, "no DM was even tried"
        assert reminders_posted(env, channel, bob) == reminded, "in the channel, mentioning bob"
        await bob_plays(channel, bob)
        assert pings_left(channel, bob) == [], "removed once his turn is over"
    assert reminded == REMINDERS


async def test_a_refused_reminder_dm_is_remembered(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    table_id = await start(env, channel, alice, bob)
    assert dm_hand(bob) is not None  # his DMs were open: his hand is there
    close_dms(env, bob)  # then he closes them
    before = dm_requests(env, bob)
    reminded = 0
    while reminded < REMINDERS and await bobs_turn(env, table_id, alice, bob):
        await remind_bob(env, table_id)
        reminded += 1
        await bob_plays(channel, bob)
    assert reminded == REMINDERS
    # The first reminder (or the turn notification that came with it) found the DMs closed;
    # every later one went to the channel.
    assert dm_requests(env, bob) - before == 1
    seat = next(s for s in (await env.bot.service.get_table(table_id)).seats if s.user_id == bob.id)
    assert seat.dm_failed
