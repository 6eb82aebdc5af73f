"""A hand drawn late by one process over a newer one drawn by another (the cluster chaos run's
"the DM hand is not the engine's view"), driven to its exact interleaving.

Two full controller stacks share one database and one simulated Discord, as in
``tests/resilience/test_deliver_once.py`` (whose fixtures these are).
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.services.models import Outcome
from bot.ui.handlers.controller import TableController
from bot.ui.handlers.screens import TableScreens
from tests.cluster.chaos_checks import drawn_key, live_controls, shown_key
from tests.e2e.helpers import dm_hand, is_card, take_turn
from tests.resilience.nonces import EnforcedNonces
from tests.resilience.test_deliver_once import (
    TABLE,
    Clock,
    clock,
    first_move,
    make_bot,
    mine,
    open_table,
    other,
    simcord_bot,
    to_act,
    world,
)

__all__ = ["clock", "make_bot", "other", "simcord_bot", "world"]


async def test_a_hand_drawn_late_over_a_newer_one_is_drawn_again_though_its_delivery_failed(
    world: tuple[Any, ...],
    other: TableController,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """B redraws the table; its edit of Alice's hand is slow. Meanwhile Alice plays from that
    hand on A, which redraws it in place (and so knows it shows the newer state) and holds the
    table's lease, its own delivery failing (Discord 503s). B's late edit lands: Alice's hand
    shows the older state, with its controls. B's delivery failed too, and its retry finds
    the table moved on and leased to A. Before: B let A deliver, and A, sure that Alice's
    hand already showed its state, never drew it again: she kept a stale hand for good. Now
    B puts the newest state back itself."""
    env, _guild, channel, alice, bob, _carol = world
    await open_table(env, channel, alice, bob)
    a, b = mine(env), other
    while (who := await to_act(a.service)) != alice.id:
        assert who == bob.id
        hand = dm_hand(bob)
        assert hand is not None
        await take_turn(bob, hand)
        await env.settle()
    await a.publisher.drain()

    # B's edit of Alice's hand (the seat to act: drawn first) waits for the click.
    reached, go = asyncio.Event(), asyncio.Event()
    edit = b.publisher.hands._edit  # pyright: ignore[reportPrivateUsage]

    async def late_edit(job: Any, table: Any, seat: Any, *args: Any) -> None:
        if seat.user_id == alice.id and not go.is_set():
            reached.set()
            await go.wait()
        await edit(job, table, seat, *args)

    monkeypatch.setattr(b.publisher.hands, "_edit", late_edit)
    table_edits = f"/channels/{channel.id}/messages/*"
    env.inject_error("PATCH", table_edits, status=503, times=1)  # B's table edit fails
    b.publisher.submit(await b.service.snapshot(TABLE, None))
    await asyncio.wait_for(reached.wait(), 10)

    # Alice plays on A: her hand redrawn in place; A's table edit fails, its retries too.
    env.inject_error("PATCH", table_edits, status=503, times=3)
    hand = dm_hand(alice)
    assert hand is not None
    await take_turn(alice, hand)
    await env.settle()
    await a.publisher.drain()
    newer = await a.service.snapshot(TABLE, None)
    state = await a.service.delivery_state(TABLE)
    assert state is not None and state.owner == a.service.instance  # A holds a parked retry

    go.set()  # B's edit lands now, then its retry
    await b.publisher.drain()
    clock.t += 400  # A's parked retry is due
    await a.publisher.republish()
    await a.publisher.drain()

    seat = newer.table.seat_of(alice.id)
    assert seat is not None
    expected = await TableScreens(env.bot, a.service).hand_with_picture(newer, seat, alice.id)
    hand = dm_hand(alice)
    assert hand is not None and shown_key(hand) == drawn_key(expected), "a stale hand"


class _Paused:
    """A DM channel whose next send waits for ``go`` (the hand is recorded in flight)."""

    def __init__(self, channel: Any, reached: asyncio.Event, go: asyncio.Event) -> None:
        self.channel, self.reached, self.go = channel, reached, go

    def __getattr__(self, name: str) -> Any:
        return getattr(self.channel, name)

    async def send(self, **kwargs: Any) -> discord.Message:
        self.reached.set()
        await self.go.wait()
        return await self.channel.send(**kwargs)


class _DyingAfter:
    """A DM channel of a process that dies just after its send went out (nothing after it
    runs: the message exists, and the process recorded nothing of it)."""

    def __init__(self, channel: Any) -> None:
        self.channel = channel

    def __getattr__(self, name: str) -> Any:
        return getattr(self.channel, name)

    async def send(self, **kwargs: Any) -> discord.Message:
        await self.channel.send(**kwargs)
        raise asyncio.CancelledError


async def test_a_hand_sent_twice_with_one_nonce_at_once_is_one_hand_showing_the_newest_state(
    world: tuple[Any, ...],
    other: TableController,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """B is delivering the table (Bob to act); A commits Bob's move (Alice to act, notified
    at once) and sends her a new hand, recorded in flight with its nonce, the request not
    sent yet. B reaches Alice's hand, finds it in flight and sends it with that nonce, drawn
    as B sees the table (not her turn), and dies. A's request arrives: Discord answers its
    nonce with B's message. Before: A recorded it as showing A's drawing, and Alice kept a
    hand without controls at her turn. Now A finds it showing something else and draws it."""
    env, _guild, channel, alice, bob, _carol = world
    nonces = EnforcedNonces(env.bot.http.request)
    monkeypatch.setattr(env.bot.http, "request", nonces.request)
    await open_table(env, channel, alice, bob)
    a, b = mine(env), other
    await a.service.set_notify_delay(alice.id, 0)
    # B's deliveries wait before their hands while ``held`` is clear.
    held, reached = asyncio.Event(), asyncio.Event()
    held.set()
    deliver = b.publisher.hands.deliver

    async def held_hands(*args: Any) -> bool:
        reached.set()
        await held.wait()
        return await deliver(*args)

    monkeypatch.setattr(b.publisher.hands, "deliver", held_hands)
    while True:  # until B holds a delivery with Bob to act, and Bob's move makes it Alice's
        who = await to_act(a.service)
        assert who is not None
        if who == bob.id:
            held.clear()
            reached.clear()
            b.publisher.submit(await b.service.snapshot(TABLE, None))
            await asyncio.wait_for(reached.wait(), 10)
        out = await a.service.act(TABLE, who, await first_move(a.service, who))
        if who == bob.id and await to_act(a.service) == alice.id:
            break
        a.publisher.publish(out)
        await a.publisher.drain()
        held.set()
        await b.publisher.drain()

    # A's new hand for Alice (her notification) is in flight, its request held back.
    a_at, a_go = asyncio.Event(), asyncio.Event()
    real = a.publisher.hands.dm_channel

    async def a_channel(seat: Any) -> Any:
        found = await real(seat)
        return _Paused(found, a_at, a_go) if seat.user_id == alice.id else found

    monkeypatch.setattr(a.publisher.hands, "dm_channel", a_channel)
    a.publisher.publish(out)
    await asyncio.wait_for(a_at.wait(), 10)
    assert await a.service.hands_in_flight(TABLE)

    # B finds it in flight, sends it with its nonce and dies.
    b_real = b.publisher.hands.dm_channel

    async def b_channel(seat: Any) -> Any:
        found = await b_real(seat)
        return _DyingAfter(found) if seat.user_id == alice.id else found

    monkeypatch.setattr(b.publisher.hands, "dm_channel", b_channel)
    held.set()
    await b.publisher.drain()
    a_go.set()  # A's request arrives now
    await a.publisher.drain()

    assert nonces.repeats == 1
    newer = await a.service.snapshot(TABLE, None)
    seat = newer.table.seat_of(alice.id)
    assert seat is not None
    expected = await TableScreens(env.bot, a.service).hand_with_picture(newer, seat, alice.id)
    hands = [m for m in alice.user.dm_channel.history() if is_card(m) and live_controls(m, TABLE)]
    assert [shown_key(m) for m in hands] == [drawn_key(expected)]


async def test_a_hand_sent_beside_another_in_flight_is_never_left_live_and_unrecorded(
    world: tuple[Any, ...],
    other: TableController,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Alice is notified at once: each time her turn comes, she gets a new hand. A delivers
    Bob's move that makes it her turn (seq S); B delivers her move and Bob's next one (S+2),
    her turn again; both are about to send her a hand. A's goes in flight (nonce recorded,
    request held back), then B's, with another nonce. Before: B sent it beside A's and died
    before recording it, and A's hand, recorded, took the seat: B's stayed in her DMs, live,
    recorded nowhere (the chaos run's "other DM(s) with live controls"). Now B does not send
    beside a hand in flight: its retry completes A's (with A's nonce: one message), and
    Alice has one live hand, the newest."""
    env, _guild, channel, alice, bob, _carol = world
    nonces = EnforcedNonces(env.bot.http.request)
    monkeypatch.setattr(env.bot.http, "request", nonces.request)
    await open_table(env, channel, alice, bob)
    a, b = mine(env), other
    await a.service.set_notify_delay(alice.id, 0)

    async def move(controller: TableController, who: Any, then: Any) -> Outcome:
        out = await controller.service.act(TABLE, who.id, await first_move(a.service, who.id))
        assert await to_act(a.service) == then.id
        return out

    def held_channel(hands: Any, wrap: Any, at: asyncio.Event, go: asyncio.Event) -> Any:
        """``hands.dm_channel`` whose first call for Alice waits for ``go``, and whose
        channels for her are ``wrap``ped."""
        real = hands.dm_channel

        async def dm_channel(seat: Any) -> Any:
            found = await real(seat)
            if seat.user_id != alice.id:
                return found
            if not at.is_set():
                at.set()
                await go.wait()
            return wrap(found)

        return dm_channel

    a_at, a_go, a_sent, a_send = (asyncio.Event() for _ in range(4))
    b_at, b_go = asyncio.Event(), asyncio.Event()
    monkeypatch.setattr(
        a.publisher.hands,
        "dm_channel",
        held_channel(a.publisher.hands, lambda c: _Paused(c, a_sent, a_send), a_at, a_go),
    )
    monkeypatch.setattr(
        b.publisher.hands, "dm_channel", held_channel(b.publisher.hands, _DyingAfter, b_at, b_go)
    )
    # The seed deals Bob the first move, then Alice, then Bob.
    a.publisher.publish(await move(a, bob, alice))
    await asyncio.wait_for(a_at.wait(), 10)  # A is about to send Alice's hand at S
    await move(b, alice, bob)
    b.publisher.publish(await move(b, bob, alice))
    await asyncio.wait_for(b_at.wait(), 10)  # and B at S+2
    a_go.set()
    await asyncio.wait_for(a_sent.wait(), 10)  # A's hand is in flight
    b_go.set()
    await b.publisher.drain()  # B sends (before: with its own nonce) and dies
    a_send.set()
    await a.publisher.drain()

    newer = await a.service.snapshot(TABLE, None)
    seat = newer.table.seat_of(alice.id)
    assert seat is not None
    expected = await TableScreens(env.bot, a.service).hand_with_picture(newer, seat, alice.id)
    hands = [m for m in alice.user.dm_channel.history() if is_card(m) and live_controls(m, TABLE)]
    assert [shown_key(m) for m in hands] == [drawn_key(expected)]
