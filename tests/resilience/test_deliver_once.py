"""Delivered once, in order, across processes and crashes (issue 29, defects 1, 2, 7, 8, 9).

Two full controller stacks share one database file and one simulated Discord, as two bot
processes of a cluster do: each has its own ``TableService`` (its own ``instance``), its own
``Publisher`` and handlers; only the Discord connection is shared (the same bot account).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
import simcord

from bot.client import TrionfiBot
from bot.db.backends import open_database
from bot.db.database import Database
from bot.services.stats import StatsService
from bot.services.tables import TableService
from bot.ui.handlers.controller import TableController
from tests.e2e.conftest import world
from tests.e2e.helpers import dm_hand, embed_text, has_controls, labels

__all__ = ["world"]  # the e2e server: "Tarot Club", #tarot, alice, bob and carol

TABLE = 1


class Clock:
    """The services' clock, moved by the tests (SimCord's own is separate)."""

    def __init__(self) -> None:
        self.t = time.time()

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest_asyncio.fixture
async def make_bot(bot_database: str | Path, clock: Clock) -> AsyncIterator[Callable[[], Any]]:
    """Bots on one database and one moved clock; every bot made is closed after the test."""
    made: list[TrionfiBot] = []

    def factory() -> TrionfiBot:
        bot = TrionfiBot(
            bot_database,
            seed_source=lambda: 20261122,
            sweep_every=None,
            retry_delays=(0.0, 0.0),
            shard_count=1,
            clock=clock,
        )
        made.append(bot)
        return bot

    yield factory
    for bot in made:
        await bot.close()


@pytest.fixture
def simcord_bot(make_bot: Callable[[], TrionfiBot]) -> TrionfiBot:
    return make_bot()


@pytest_asyncio.fixture
async def other(
    simcord_env: simcord.Env, bot_database: str | Path, clock: Clock
) -> AsyncIterator[TableController]:
    """A second process's stack: its own database connection, service and publisher, posting
    through the same bot account."""
    db: Database = await open_database(bot_database)
    await db.migrate()
    service = TableService(db, clock=clock)
    bot = simcord_env.bot
    assert isinstance(bot, TrionfiBot)
    controller = TableController(bot, service, StatsService(db), retry_delays=(0.0, 0.0))
    yield controller
    controller.publisher.close()
    await db.close()


def mine(env: simcord.Env) -> TableController:
    return env.bot.controller  # type: ignore[attr-defined, no-any-return]


async def first_move(service: TableService, user_id: int) -> dict[str, Any]:
    """The first legal decision of the user's seat (its JSON, without the seat)."""
    snap = await service.snapshot(TABLE, user_id)
    (view,) = snap.seat_views.values()
    payload = view.legal[0].to_json()
    payload.pop("seat", None)
    return payload


async def to_act(service: TableService) -> int | None:
    """The user whose decision it is (None: a computer, or nobody)."""
    snap = await service.snapshot(TABLE, None)
    seat = snap.public.to_act if snap.public is not None else None
    return next((s.user_id for s in snap.table.seats if s.seat == seat), None)


def summaries(channel: Any) -> list[discord.Message]:
    return [m for m in channel.history() if "deal 1 result" in embed_text(m)]


def live_tables(channel: Any) -> list[discord.Message]:
    """Channel messages with a live table's controls."""
    return [m for m in channel.history() if "Show my hand" in labels(m)]


async def open_table(
    env: simcord.Env, channel: Any, alice: Any, *joiners: Any, **opts: Any
) -> None:
    """A La Morte table of three: ``alice``, the ``joiners`` and computers (no pictures: the
    tests are about delivery, not drawing)."""
    await mine(env).service.update_guild_settings(channel.guild.id, pictures=False)
    await alice.slash(channel, "lamorte new", seats=3, computers=2 - len(joiners), **opts)
    lobby = channel.last_message
    for member in joiners:
        await member.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    await env.settle()


# ---- defect 1 -----------------------------------------------------------------------------
async def test_a_starting_process_leaves_a_parked_retry_to_the_process_that_owns_it(
    world: tuple[Any, ...], other: TableController, clock: Clock
) -> None:
    """Process A commits the end of a deal and cannot show it (Discord fails): the retry is
    parked. Process B starts meanwhile. Before: B re-published the table too, and the deal's
    summary was posted twice. Now the commit's lease keeps B off it: posted once."""
    env, _guild, channel, alice, _bob, _carol = world
    await open_table(env, channel, alice)
    a = mine(env)
    while True:
        out = await a.service.act(TABLE, alice.id, await first_move(a.service, alice.id))
        if out.ended_deals:
            break
        a.publisher.publish(out)
        await a.publisher.drain()
    # The summary takes the table message's place (posted, the old one deleted): Discord
    # fails that post, three times.
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=503, times=3)
    a.publisher.publish(out)
    await a.publisher.drain()
    assert summaries(channel) == []  # parked

    await other.publisher.republish(startup=True)  # process B starts
    await other.publisher.drain()
    clock.t += 400  # A's parked retry is due
    await a.publisher.republish()
    await a.publisher.drain()

    assert len(summaries(channel)) == 1
    tables = live_tables(channel)
    assert [m.id for m in tables] == [(await a.service.get_table(TABLE)).message_id]


# ---- defect 2 -----------------------------------------------------------------------------
async def test_an_older_commit_delivered_last_never_hides_the_newer_one(
    world: tuple[Any, ...], other: TableController
) -> None:
    """A commits a move; before A delivers it, B commits the next player's move and shows it.
    Before: A's late delivery drew its older state over B's: the player to act saw a hand
    without controls ("Not your turn"). Now A sees the newer commit and leaves it to B."""
    env, _guild, channel, alice, bob, _carol = world
    await open_table(env, channel, alice, bob)
    a = mine(env)
    while True:
        first = await to_act(a.service)
        assert first is not None
        older = await a.service.act(TABLE, first, await first_move(a.service, first))
        second = await to_act(a.service)
        if second is not None and second != first:
            break
        a.publisher.publish(older)
        await a.publisher.drain()
    newer = await other.service.act(TABLE, second, await first_move(other.service, second))
    other.publisher.publish(newer)
    await other.publisher.drain()
    a.publisher.publish(older)  # lands last
    await a.publisher.drain()

    now = await to_act(a.service)
    member = alice if now == alice.id else bob
    hand = dm_hand(member)
    assert hand is not None and has_controls(hand), "the player to act has no controls"
    assert "Your turn" in embed_text(hand)
    (table,) = live_tables(channel)
    assert f"<@{now}>, it's your turn" in embed_text(table)
    shown = await a.service.get_table(TABLE)
    assert shown.shown_seq == shown.seq


# ---- defect 7 -----------------------------------------------------------------------------
async def test_a_crash_between_commit_and_send_loses_no_notice_nor_notification(
    world: tuple[Any, ...], make_bot: Callable[[], TrionfiBot], clock: Clock
) -> None:
    """The sweeper commits (a due turn notification claimed; later a timed-out turn) and the
    process dies before sending anything. Before: the notification was lost (claimed in the
    database, kept in memory) and the restart re-published the timeout without its notice.
    Now both are in the outbox: the next process sends each exactly once."""
    env, _guild, channel, alice, bob, _carol = world
    await open_table(env, channel, alice, bob, clock="normal")
    service = mine(env).service
    while True:
        first = await to_act(service)
        assert first is not None
        out = await service.act(TABLE, first, await first_move(service, first))
        mine(env).publisher.publish(out)
        await mine(env).publisher.drain()
        waiting = await to_act(service)
        if waiting is not None and waiting != first:
            break
    member = alice if waiting == alice.id else bob
    dm = member.user.dm_channel.id

    def hands_sent() -> int:
        return sum(
            1
            for r in env.http_requests
            if r.method == "POST"
            and r.path == f"/channels/{dm}/messages"
            and (r.json.get("embeds") or r.json.get("components"))
        )

    async def crash_and_restart() -> None:
        old = env.bot
        await env.restart_bot(make_bot())
        await old.close()
        clock.t += 61  # a crashed process's lease lapses

    async def sweep_publish_twice() -> None:
        for _ in range(2):
            await mine(env).publisher.republish()
            await mine(env).publisher.drain()

    clock.t += 25  # the notification is due (20 s), the turn not over (120 s)
    sent = hands_sent()
    await service.sweep()  # claimed… and the process dies
    await crash_and_restart()
    await sweep_publish_twice()
    assert hands_sent() == sent + 1

    clock.t += 120  # the turn is over: the computer plays for them
    assert (await mine(env).service.sweep()).expired  # committed… and the process dies
    await crash_and_restart()
    await sweep_publish_twice()
    timed_out = [m for m in channel.history() if "ran out of time" in (m.content or "")]
    assert len(timed_out) == 1


# ---- defect 9 -----------------------------------------------------------------------------
async def test_an_old_table_message_is_posted_anew_instead_of_edited(
    world: tuple[Any, ...],
) -> None:
    """Discord refuses edits to messages older than an hour past a limit (30046). Before: the
    refusal was logged as our bug and the table message stayed stale. Now it is posted anew
    (and the old one deleted), on the refusal or, better, before the hour is up."""
    env, _guild, channel, alice, _bob, _carol = world
    await open_table(env, channel, alice)
    a = mine(env)

    async def move() -> None:
        out = await a.service.act(TABLE, alice.id, await first_move(a.service, alice.id))
        a.publisher.publish(out)
        await a.publisher.drain()

    first = (await a.service.get_table(TABLE)).message_id
    env.inject_error(
        "PATCH",
        f"/channels/{channel.id}/messages/{first}",
        status=400,
        code=30046,
        message="Maximum number of edits to messages older than 1 hour reached.",
        times=None,
    )
    await move()
    second = (await a.service.get_table(TABLE)).message_id
    assert second != first
    assert [m.id for m in live_tables(channel)] == [second]
    # The hand drawn beside the re-post links to the new table message, not the old one.
    hand = dm_hand(alice)
    assert hand is not None and f"/{second})" in embed_text(hand)

    await env.advance_time(55 * 60)  # Discord's clock: the new table message is old now
    await move()
    third = (await a.service.get_table(TABLE)).message_id
    assert third not in (first, second)
    assert [m.id for m in live_tables(channel)] == [third]
    hand = dm_hand(alice)
    assert hand is not None and f"/{third})" in embed_text(hand)


# ---- defect 8 (the gather) ----------------------------------------------------------------
@pytest.mark.simcord(check_errors=False)  # the failure is logged, as it should be
async def test_a_failing_hand_never_leaves_another_running_beside_the_retry(
    world: tuple[Any, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three humans: one hand fails to draw while another is still being sent. Before: the
    retry ran beside the unfinished send, and that player got their hand twice. Now every
    hand of a try ends before the retry."""
    env, _guild, channel, alice, bob, carol = world
    await mine(env).service.update_guild_settings(channel.guild.id, pictures=False)
    await alice.slash(channel, "lamorte new", seats=3)
    lobby = channel.last_message
    for member in (bob, carol):
        await member.click(lobby, label="Join")
    screens = mine(env).screens
    draw = screens.hand_with_picture
    failed: list[int] = []

    async def slow_or_failing(outcome: Any, seat: int, user_id: int | None) -> dict[str, Any]:
        fields = await draw(outcome, seat, user_id)
        if outcome.public is None or seat == outcome.public.to_act:
            return fields  # the player to act: their hand goes first, on its own
        if not failed:
            failed.append(seat)
            raise RuntimeError("a picture could not be drawn")
        await asyncio.sleep(0.05)  # still being sent when the other one failed
        return fields

    monkeypatch.setattr(screens, "hand_with_picture", slow_or_failing)
    await alice.click(lobby, label="Start")
    await env.settle()
    await mine(env).publisher.drain()
    for member in (alice, bob, carol):
        hands = [m for m in member.user.dm_channel.history() if m.embeds or m.components]
        assert len(hands) == 1, f"{member.user.name} got {len(hands)} hands"
