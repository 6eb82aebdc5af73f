"""Two crash-timing races the chaos run found (issue 29), each driven to its exact interleaving:
a process cut between two steps, or one process's request landing between two of another's.

Two full controller stacks share one database and one simulated Discord, as in
``tests/resilience/test_deliver_once.py`` (whose fixtures these are).
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
import simcord

from bot.ui.delivery.publisher import LEFTOVERS_EVERY
from bot.ui.handlers.controller import TableController
from tests.e2e.helpers import has_controls, is_card
from tests.resilience.test_deliver_once import (
    TABLE,
    Clock,
    clock,
    first_move,
    live_tables,
    make_bot,
    mine,
    open_table,
    other,
    simcord_bot,
    summaries,
    to_act,
    world,
)

__all__ = ["clock", "make_bot", "other", "simcord_bot", "world"]


def hands_posted(env: simcord.Env, dm_channel_id: int) -> int:
    """Hands the bot posted as new DMs in that channel (each one notifies its player)."""
    return sum(
        1
        for r in env.http_requests
        if r.method == "POST"
        and r.path == f"/channels/{dm_channel_id}/messages"
        and isinstance(r.json, dict)
        and r.json.get("components")
    )


class _Dying:
    """A DM channel of a process that dies as it sends: the request never leaves, and nothing
    after it runs (a crash cancels the task; no ``except`` gives anything back)."""

    async def send(self, **_: Any) -> discord.Message:
        raise asyncio.CancelledError


async def test_a_notifying_hand_cut_by_a_crash_is_the_notification_once(
    world: tuple[Any, ...],
    other: TableController,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Process A takes a due turn notification and dies while sending the hand that carries
    it (recorded as in flight, not as sent). Before A's hold on the notification lapses, B's
    sweep finds the hand in flight and sends it with its nonce. Before: B did not count that
    hand as the notification (it could not take it while A held it), so once A's hold lapsed
    it was sent again: two new hands for one notification. Now the hand in flight says which
    notification it carries, and whoever completes it records that one sent."""
    env, _guild, channel, alice, bob, _carol = world
    await open_table(env, channel, alice, bob)
    b, a = mine(env), other  # B survives; A takes the notification and dies
    while True:
        first = await to_act(b.service)
        assert first is not None
        out = await b.service.act(TABLE, first, await first_move(b.service, first))
        b.publisher.publish(out)
        await b.publisher.drain()
        waiting = await to_act(b.service)
        if waiting is not None and waiting != first:
            break
    member = alice if waiting == alice.id else bob
    dm = member.user.dm_channel.id
    before = hands_posted(env, dm)

    clock.t += 25  # the notification is due (20 s), the turn not over
    seq = (await b.service.get_table(TABLE)).seq
    notification = await a.service.take_notification(TABLE, seq)
    assert notification is not None

    async def dying(_seat: Any) -> _Dying:
        return _Dying()

    monkeypatch.setattr(a.publisher.hands, "dm_channel", dying)
    await a.publisher.notify(notification)
    await a.publisher.drain()  # A is dead: its notification taken, the hand in flight
    assert await a.service.hands_in_flight(TABLE)
    assert hands_posted(env, dm) == before

    clock.t += 5  # B's next sweep: A's hold on the notification has not lapsed
    await b.publisher.republish()
    await b.publisher.drain()
    assert hands_posted(env, dm) == before + 1
    clock.t += 61  # it has now
    for _ in range(2):
        await b.publisher.republish()
        await b.publisher.drain()

    assert hands_posted(env, dm) == before + 1, "the notification went out twice"
    state = await b.service.delivery_state(TABLE)
    assert state is not None and state.notify_owed is None
    live = [m for m in member.user.dm_channel.history() if is_card(m) and has_controls(m)]
    assert len(live) == 1


async def test_a_summary_survives_a_late_edit_of_the_table_message_it_replaced(
    world: tuple[Any, ...], other: TableController, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commits the end of a deal; B, redrawing the table meanwhile (say, for a turn
    notification), read the table message just before A's delivery claimed it for the deal's
    summary, and B's edit of it lands after A's summary. Before: the summary was an edit of
    that message, and B's late edit drew the table over it: the summary was gone and the old
    table message was live again beside the new one. Now the summary is a new message and the
    old table message is deleted: B's late edit finds nothing to draw over."""
    env, _guild, channel, alice, _bob, _carol = world
    await open_table(env, channel, alice)
    a, b = mine(env), other
    while True:
        out = await a.service.act(TABLE, alice.id, await first_move(a.service, alice.id))
        if out.ended_deals:
            break
        a.publisher.publish(out)
        await a.publisher.drain()

    # B's redraw of the newest state gets as far as its table message edit, and waits there.
    reached, go = asyncio.Event(), asyncio.Event()
    edit = b.publisher.channel._edit  # pyright: ignore[reportPrivateUsage]

    async def late_edit(*args: Any) -> None:
        reached.set()
        await go.wait()
        await edit(*args)

    monkeypatch.setattr(b.publisher.channel, "_edit", late_edit)
    b.publisher.submit(await b.service.snapshot(TABLE, None))
    await asyncio.wait_for(reached.wait(), 10)

    a.publisher.publish(out)  # the summary, then a new table message
    await a.publisher.drain()
    go.set()  # B's edit lands now
    await b.publisher.drain()
    await a.publisher.drain()

    assert len(summaries(channel)) == 1, "the deal's summary is gone"
    current = (await a.service.get_table(TABLE)).message_id
    assert [m.id for m in live_tables(channel)] == [current]


async def test_the_table_message_a_summary_replaced_is_deleted_though_discord_fails_once(
    world: tuple[Any, ...],
) -> None:
    """The summary is posted and the table message it replaces deleted: a delete Discord
    fails (503) keeps the delivery unfinished, and its retry deletes it (a table whose last
    deal just ended has no later delivery that would)."""
    env, _guild, channel, alice, _bob, _carol = world
    await open_table(env, channel, alice)
    a = mine(env)
    while True:
        out = await a.service.act(TABLE, alice.id, await first_move(a.service, alice.id))
        if out.ended_deals:
            break
        a.publisher.publish(out)
        await a.publisher.drain()
    replaced = (await a.service.get_table(TABLE)).message_id
    env.inject_error("DELETE", f"/channels/{channel.id}/messages/{replaced}", status=503, times=1)
    a.publisher.publish(out)
    await a.publisher.drain()

    assert len(summaries(channel)) == 1
    current = (await a.service.get_table(TABLE)).message_id
    assert [m.id for m in live_tables(channel)] == [current]
    assert replaced not in [m.id for m in channel.history()]


async def test_a_hand_a_crash_left_undeleted_is_deleted_though_no_delivery_follows(
    world: tuple[Any, ...],
    other: TableController,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A sends a turn notification (the hand as a new DM), records it, and dies before
    deleting the hand it replaced. The table is fully shown and owes nothing: no delivery of
    it is to come. Before: the old hand stayed beside the new one, its controls live (the
    chaos run's "other DM(s) with live controls"). Now B's sweep deletes it within a
    minute."""
    env, _guild, channel, alice, bob, _carol = world
    await open_table(env, channel, alice, bob)
    b, a = mine(env), other
    while True:  # a move, after which another player waits (their turn is notified)
        first = await to_act(b.service)
        assert first is not None
        b.publisher.publish(await b.service.act(TABLE, first, await first_move(b.service, first)))
        await b.publisher.drain()
        waiting = await to_act(b.service)
        if waiting is not None and waiting != first:
            break
    member = alice if waiting == alice.id else bob
    dm = member.user.dm_channel

    async def dying(_where: Any) -> bool:
        raise asyncio.CancelledError

    clock.t += 25  # the notification is due (20 s)
    notification = await a.service.take_notification(TABLE, (await a.service.get_table(TABLE)).seq)
    assert notification is not None
    monkeypatch.setattr(a.publisher.hands, "_delete_hand", dying)
    await a.publisher.notify(notification)
    await a.publisher.drain()  # A is dead: the new hand recorded, the old one not deleted
    live = [m for m in dm.history() if is_card(m) and has_controls(m)]
    assert len(live) == 2
    assert await b.service.unshown_tables() == []  # nothing would redraw the table

    clock.t += LEFTOVERS_EVERY  # B's sweeps look for them once a minute
    await b.publisher.republish()
    await b.publisher.drain()

    live = [m for m in dm.history() if is_card(m) and has_controls(m)]
    current = next(s for s in (await b.service.get_table(TABLE)).seats if s.user_id == member.id)
    assert [m.id for m in live] == [current.dm_message_id]
    assert await b.service.retired(TABLE) == []
