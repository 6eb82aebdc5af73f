"""No stale message (issue 30), through SimCord.

- A half-time turn reminder DM is withdrawn once the turn is over (the player or the clock
  acted), also across a restart; a player without DMs still gets the channel reminder.
- A **Show my hand** answer (ephemeral) is redrawn when the table moves on, and stamped out of
  date before its token lapses (14 minutes) or when the game is over; a newer one replaces it.
- A decision clicked on an out-of-date hand is refused with a word saying so, and changes
  nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot.client import TrionfiBot
from bot.services.tables import TableService
from bot.ui.delivery.views import REFRESH_FOR
from tests.e2e.helpers import (
    components,
    dm_hand,
    embed_text,
    has_controls,
    labels,
    mover_of,
    play_turn,
    said,
)

OUT_OF_DATE = "This view is out of date"
STALE_CLICK = "That view was out of date — nothing was played."


def service_of(env: Any) -> TableService:
    return env.bot.service


async def start(channel: Any, alice: Any, bob: Any, **options: Any) -> None:
    """alice opens a La Morte table (table #1) with bob and a computer, and starts it."""
    await alice.slash(channel, "lamorte new", seats=3, computers=1, target=30, **options)
    await bob.click(channel.last_message, label="Join")
    await alice.click(channel.history()[0], label="Start")


def reminders(member: Any) -> list[discord.Message]:
    return [m for m in member.user.dm_channel.history() if "still your turn" in (m.content or "")]


async def remind(env: Any) -> float:
    """The sweeper at half time of the current turn; returns the turn's deadline."""
    due = (await service_of(env).get_table(1)).turn_deadline
    assert due is not None, "no turn clock is running"
    await env.bot.controller.life.sweep(due - 20)
    return due


def table_message(channel: Any) -> discord.Message:
    return next(m for m in reversed(channel.history()) if "Show my hand" in labels(m))


async def show_hand(channel: Any, member: Any) -> discord.Message:
    """``member`` presses **Show my hand**; returns the ephemeral answer."""
    r = await member.click(table_message(channel), label="Show my hand")
    answer = said(r)
    assert answer.ephemeral
    return answer.message


def current(channel: Any, member: Any, message_id: int) -> discord.Message:
    """An ephemeral answer as its member sees it now."""
    return next(m for m in channel.history(viewer=member) if m.id == message_id)


# ---- turn reminders ------------------------------------------------------------------------


async def test_a_dm_reminder_goes_once_the_player_acts(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await start(channel, alice, bob, clock="fast")
    mover = mover_of(alice, bob)
    await remind(env)
    assert len(reminders(mover)) == 1
    await play_turn(alice, bob)
    assert reminders(mover) == [], "withdrawn once the turn is over"
    row_count = await service_of(env).pings(1, 10**9)
    assert row_count == []


async def test_a_dm_reminder_goes_when_the_clock_acts(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await start(channel, alice, bob, clock="fast")
    mover = mover_of(alice, bob)
    due = await remind(env)
    assert len(reminders(mover)) == 1
    await env.bot.controller.life.sweep(due + 1)  # the computer plays for them
    assert reminders(mover) == []


async def test_a_dm_reminder_survives_a_restart_and_still_goes(
    world: tuple[Any, ...], make_bot: Callable[[], TrionfiBot]
) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await start(channel, alice, bob, clock="fast")
    mover = mover_of(alice, bob)
    await remind(env)
    assert len(reminders(mover)) == 1
    old = env.bot
    await env.restart_bot(make_bot())
    await old.close()
    await play_turn(alice, bob)
    assert reminders(mover) == [], "the new process withdrew what the old one sent"


async def test_a_failing_withdrawal_is_tried_again(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await start(channel, alice, bob, clock="fast")
    mover = mover_of(alice, bob)
    await remind(env)
    (reminder,) = reminders(mover)
    path = f"/channels/{reminder.channel.id}/messages/{reminder.id}"
    env.inject_error("DELETE", path, status=503, message="Service Unavailable", times=1)
    await play_turn(alice, bob)
    assert len(reminders(mover)) == 1, "a 5xx leaves it for the next delivery"
    assert len(await service_of(env).pings(1, 10**9)) == 1
    await play_turn(alice, bob)  # the next move delivers the table again
    assert reminders(mover) == []


async def test_an_unclocked_table_costs_no_ping_query(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await start(channel, alice, bob)
    calls: list[int] = []
    service = service_of(env)
    real = service.pings

    async def counted(table_id: int, before_seq: int) -> Any:
        calls.append(table_id)
        return await real(table_id, before_seq)

    service.pings = counted  # type: ignore[method-assign]
    await play_turn(alice, bob)
    await play_turn(alice, bob)
    assert calls == []


# ---- Show my hand ----------------------------------------------------------------------------


async def test_show_my_hand_is_redrawn_then_stamped_out_of_date(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await start(channel, alice, bob)
    mover = mover_of(alice, bob)
    waiting = bob if mover is alice else alice
    shown = await show_hand(channel, waiting)
    before = embed_text(current(channel, waiting, shown.id))

    # The other player acts: the answer follows, as the DM hand does.
    while mover_of(alice, bob) is not waiting:
        await play_turn(alice, bob)
    now = current(channel, waiting, shown.id)
    assert embed_text(now) != before
    assert embed_text(now) == embed_text(dm_hand(waiting))  # type: ignore[arg-type]
    assert has_controls(now)

    # 14 minutes on (the sweeper's clock), before its token lapses: out of date, no controls.
    await env.bot.controller.life.sweep(service_of(env).now() + REFRESH_FOR + 1)
    now = current(channel, waiting, shown.id)
    assert OUT_OF_DATE in embed_text(now) and not has_controls(now)
    table = await service_of(env).get_table(1)
    assert all(s.view is None for s in table.seats)


async def test_the_sweeper_stamps_it_before_simcord_lapses_the_token(
    world: tuple[Any, ...],
) -> None:
    env, _guild, channel, alice, bob, _carol = world
    clock = [0.0]
    service = service_of(env)
    base = service.now()
    service._clock = lambda: base + clock[0]  # type: ignore[attr-defined]  # moves with SimCord
    await start(channel, alice, bob)
    shown = await show_hand(channel, alice)
    await env.advance_time(REFRESH_FOR + 5)
    clock[0] += REFRESH_FOR + 5
    await env.bot.controller.life.sweep()
    now = current(channel, alice, shown.id)
    assert OUT_OF_DATE in embed_text(now) and not has_controls(now)


async def test_a_newer_show_my_hand_stamps_the_older_at_once(world: tuple[Any, ...]) -> None:
    _env, _guild, channel, alice, bob, _carol = world
    await start(channel, alice, bob)
    first = await show_hand(channel, alice)
    second = await show_hand(channel, alice)
    old = current(channel, alice, first.id)
    assert OUT_OF_DATE in embed_text(old) and not has_controls(old)
    assert OUT_OF_DATE not in embed_text(current(channel, alice, second.id))


async def test_show_my_hand_is_stamped_when_the_game_ends(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await start(channel, alice, bob)
    shown = await show_hand(channel, bob)
    r = await alice.slash(channel, "lamorte end")
    assert r.acknowledged
    assert (await service_of(env).get_table(1)).status in ("abandoned", "finished")
    now = current(channel, bob, shown.id)
    assert OUT_OF_DATE in embed_text(now) and not has_controls(now)


def another_choice(message: discord.Message, played: str | None) -> str:
    """A decision the message offers other than ``played`` (the last one)."""
    ids = [
        c.custom_id
        for c in components(message)
        if ":act:" in (c.custom_id or "") and c.custom_id != played
    ]
    assert ids, "no other decision offered"
    return ids[-1]


def view_path(env: Any, message: discord.Message) -> str:
    """The webhook path that edits an ephemeral answer through its interaction's token (the
    token of the last follow-up the bot sent)."""
    followup = next(
        r.path
        for r in reversed(env.http_requests)
        if r.method == "POST" and r.path.startswith("/webhooks/") and r.path.count("/") == 3
    )
    return f"{followup}/messages/{message.id}"


async def test_a_failing_webhook_edit_breaks_nothing(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await start(channel, alice, bob)
    for status, code, kept in ((503, 0, True), (404, 10008, False), (403, 50001, False)):
        waiting = next(m for m in (alice, bob) if m is not mover_of(alice, bob))
        shown = await show_hand(channel, waiting)
        path = view_path(env, shown)
        env.inject_error("PATCH", path, status=status, code=code, times=1)
        # Play on until it is their turn: their answer must change, so it is edited.
        while mover_of(alice, bob) is not waiting:
            seq = (await service_of(env).get_table(1)).seq
            await play_turn(alice, bob)
            table = await service_of(env).get_table(1)
            assert table.seq > seq and table.shown_seq == table.seq, "delivered all the same"
        assert any(r.method == "PATCH" and r.path == path for r in env.http_requests)
        seat = next(s for s in table.seats if s.user_id == waiting.id)
        assert (seat.view is not None) is kept, (status, "only a 5xx is redrawn again")
        if kept:  # the next delivery redraws it
            await play_turn(alice, bob)
            now = current(channel, waiting, shown.id)
            assert embed_text(now) == embed_text(dm_hand(waiting))  # type: ignore[arg-type]


# ---- a click on an old view ------------------------------------------------------------------


async def test_a_click_on_an_out_of_date_show_my_hand_says_so(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await start(channel, alice, bob)
    mover = mover_of(alice, bob)
    # The mover keeps an ephemeral copy of their hand, which Discord will not let the bot
    # redraw; then they play from their DM.
    shown = await show_hand(channel, mover)
    env.inject_error("PATCH", view_path(env, shown), status=503, times=None)
    hand = dm_hand(mover)
    assert hand is not None
    played = another_choice(hand, None)
    assert (await mover.user.click(hand, custom_id=played)).acknowledged
    assert mover_of(alice, bob) is not mover
    seq = (await service_of(env).get_table(1)).seq
    stale = current(channel, mover, shown.id)
    assert has_controls(stale), "still the old hand"
    r = await mover.click(stale, custom_id=another_choice(stale, played))
    assert STALE_CLICK in (said(r).content or "")
    assert (await service_of(env).get_table(1)).seq == seq, "nothing was played"
    # It was redrawn with the current hand (the click's own token).
    now = current(channel, mover, shown.id)
    assert embed_text(now) == embed_text(dm_hand(mover))  # type: ignore[arg-type]


async def test_a_click_on_an_out_of_date_dm_hand_says_so(world: tuple[Any, ...]) -> None:
    env, _guild, _channel, alice, bob, _carol = world
    await start(_channel, alice, bob, clock="fast")
    mover = mover_of(alice, bob)
    hand = dm_hand(mover)
    assert hand is not None
    # The clock plays for them, and their DM hand could not be redrawn.
    path = f"/channels/{hand.channel.id}/messages/{hand.id}"
    env.inject_error("PATCH", path, status=503, times=None)
    due = (await service_of(env).get_table(1)).turn_deadline
    assert due is not None
    await env.bot.controller.life.sweep(due + 1)
    seq = (await service_of(env).get_table(1)).seq
    stale = dm_hand(mover)
    assert stale is not None and has_controls(stale)
    r = await mover.user.click(stale, custom_id=another_choice(stale, None))
    assert STALE_CLICK in (said(r).content or "")
    assert (await service_of(env).get_table(1)).seq == seq
