"""The daily deal end to end through SimCord (issue 20).

Members of two servers play ``/daily`` in their DMs: the same deal and the same computer
replies to the same choices; a second attempt is refused; the boards and the percentile; no
card of the deal reaches anyone before their own finish (the boards show scores only, the
comparison is refused); a restart in the middle of an attempt; the next UTC day; closed DMs;
resigning; and a server's daily announcement, posted once.

Early French Tarot (card play only, the expert's quickest game) with a fiftieth of the
expert's work (``EXPERT_EFFORT``). The computers think in this process and are strict
(``strict_expert_action``: the work budget alone decides, no time cap), so a loaded test
machine cannot cut a search short and make two players' computers differ.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord
import pytest

from bot.client import TrionfiBot
from bot.services import compute, step
from bot.services.daily import utc_day
from bot.ui.text.cards import label
from tests.e2e.helpers import components, embed_text, said, take_turn

GAME = "early_french_tarot"
SALT = "the e2e tests' secret salt"
DAY_ONE = 1_764_000_000.0  # 2025-11-24 16:00 UTC


class Clock:
    def __init__(self) -> None:
        self.now = DAY_ONE

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def quick_expert(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(step, "EXPERT_EFFORT", 0.02)
    with ThreadPoolExecutor(1) as here:
        monkeypatch.setattr(compute, "process_pool", lambda: here)
        yield


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def daily_bot(make_bot: Callable[[], TrionfiBot], clock: Clock) -> Callable[[], TrionfiBot]:
    def factory() -> TrionfiBot:
        bot = make_bot()
        bot.daily_salt = SALT
        bot.clock = clock
        return bot

    return factory


@pytest.fixture
def simcord_bot(daily_bot: Callable[[], TrionfiBot]) -> TrionfiBot:
    return daily_bot()


@pytest.fixture
def two_servers(world: tuple[Any, ...]) -> tuple[Any, ...]:
    """The "Tarot Club" of ``world`` (alice, bob, carol) and "Other Club" with dave."""
    env, guild, channel, alice, bob, carol = world
    other = env.create_guild("Other Club")
    lounge = other.create_text_channel("lounge")
    dave = other.add_member(env.create_user("dave"))
    return env, guild, channel, alice, bob, carol, lounge, dave


def hand_message(member: Any) -> discord.Message | None:
    """The member's DM message with decision controls, if any."""
    for m in reversed(member.user.dm_channel.history()):
        if any(":act:" in (getattr(c, "custom_id", "") or "") for c in components(m)):
            return m
    return None


async def start(member: Any, channel: Any, **options: Any) -> Any:
    r = await member.slash(channel, "daily", game=GAME, **options)
    assert r.acknowledged
    return said(r)


async def play_out(member: Any, *, restart: Callable[[], Any] | None = None) -> int:
    """The member makes the fixed e2e decisions from their DM until the deal is over."""
    steps = 0
    while (message := hand_message(member)) is not None:
        if restart is not None and steps == 3:
            await restart()  # the old DM's buttons must still work
        await take_turn(member, message)
        steps += 1
        assert steps < 60, "the daily deal did not end"
    return steps


async def log_of(env: Any, user_id: int) -> list[Any]:
    service = env.bot.service
    mine = await service.daily_attempt(user_id, GAME)
    assert mine is not None and mine.table_id is not None
    return [(e.kind, e.seat, e.payload) for e in await service.store.log(mine.table_id)]


def deal_labels(hands: tuple[tuple[str, ...], ...]) -> set[str]:
    return {label(c) for hand in hands for c in hand}


async def test_same_deal_everywhere_one_attempt_boards_and_no_leak(
    two_servers: tuple[Any, ...],
) -> None:
    env, _guild, channel, alice, bob, carol, lounge, dave = two_servers
    answer = await start(alice, channel)
    assert answer.ephemeral and "in your DMs" in (answer.content or "")
    dms = alice.user.dm_channel.history()
    assert any("Daily deal" in embed_text(m) for m in dms)
    assert hand_message(alice) is not None
    # Mid-attempt: nobody can see the deal, not even alice.
    for member in (alice, bob):
        r = await member.slash(channel, "daily", game=GAME, action="compare")
        assert said(r).ephemeral and "Finish your own attempt" in (said(r).content or "")
    assert await play_out(alice) > 0
    result = alice.user.dm_channel.history()[-1]
    assert "done" in embed_text(result) and "Compare" in [
        getattr(c, "label", None) for c in components(result)
    ]
    assert "Rematch" not in embed_text(result)
    # Her result post's Compare button: the deal revealed to her alone.
    compare = next(c for c in components(result) if getattr(c, "label", None) == "Compare")
    r = await alice.user.click(result, custom_id=compare.custom_id)
    assert said(r).ephemeral and "alice (you)" in embed_text(said(r))

    await start(dave, lounge)
    await play_out(dave)
    assert await log_of(env, alice.id) == await log_of(env, dave.id)  # deal and every reply

    # One attempt a day and game.
    r = await alice.slash(channel, "daily", game=GAME)
    assert "already played" in (said(r).content or "")

    # The boards: scores only, to someone who has not played.
    r = await bob.slash(channel, "daily", game=GAME, action="board")
    board = embed_text(said(r))
    assert "alice" in board and "dave" not in board.split("Every server")[0]
    assert "dave" in board and "2 players finished" in board
    reveal = await env.bot.service.daily_reveal(alice.id, GAME)
    assert not any(card in board for card in deal_labels(reveal.hands) if len(card) > 2)
    assert not any(suit in board for suit in "♠♥♦♣")  # no card at all
    # Alice ties with dave: the 50th percentile of two, first on her server.
    r = await alice.slash(channel, "daily", game=GAME, action="board")
    text = embed_text(said(r))
    assert "50th percentile" in text and "This server: rank **1** of 1" in text
    # Compare, now that alice finished: every hand, as dealt.
    r = await alice.slash(channel, "daily", game=GAME, action="compare")
    shown = embed_text(said(r))
    assert said(r).ephemeral and "alice (you)" in shown and "Your decisions" in shown
    assert all(card in shown for card in deal_labels(reveal.hands))
    # Carol plays other cards: a third score.
    await start(carol, channel)
    steps = 0
    while (message := hand_message(carol)) is not None and steps < 60:
        playable = [
            c
            for c in components(message)
            if ":act:play:card=" in (getattr(c, "custom_id", "") or "")
        ]
        button = playable[-1] if playable else None
        if button is None:
            await take_turn(carol, message)
        else:
            await carol.user.click(message, custom_id=button.custom_id)
        steps += 1
    boards = await env.bot.service.daily_boards(GAME, carol.id, _guild.id)
    assert boards.world.players == 3 and boards.world_standing is not None
    assert boards.server is not None and boards.server.players == 2


async def test_restart_mid_attempt_gives_the_same_game(
    two_servers: tuple[Any, ...], daily_bot: Callable[[], TrionfiBot]
) -> None:
    env, _guild, channel, alice, _bob, _carol, lounge, dave = two_servers
    await start(alice, channel)

    async def restart() -> None:
        old = env.bot
        await env.restart_bot(daily_bot())
        await old.close()

    await play_out(alice, restart=restart)
    assert (await env.bot.service.daily_attempt(alice.id, GAME)).status == "finished"
    await start(dave, lounge)
    await play_out(dave)
    assert await log_of(env, alice.id) == await log_of(env, dave.id)


async def test_the_next_day_is_a_new_deal_and_streaks(world: tuple[Any, ...], clock: Clock) -> None:
    env, _guild, channel, alice, _bob, _carol = world
    await start(alice, channel)
    await play_out(alice)
    first = await log_of(env, alice.id)
    clock.now += 86_400  # the next UTC day
    assert utc_day(clock.now) != utc_day(DAY_ONE)
    r = await alice.slash(channel, "daily", game=GAME, action="board")
    assert "Nobody has finished yet" in embed_text(said(r))
    await start(alice, channel)
    await play_out(alice)
    second = await log_of(env, alice.id)
    assert first[0] != second[0]  # another deck
    r = await alice.slash(channel, "stats")
    text = embed_text(said(r))
    assert "2 daily deals finished" in text and "streak **2 days**" in text


async def test_closed_dms_refuse_without_using_the_attempt(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, _bob, _carol = world
    env.inject_error(
        "POST",
        f"/channels/{alice.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=1,
    )
    answer = await start(alice, channel)
    assert "can't send you direct messages" in (answer.content or "")
    assert await env.bot.service.daily_attempt(alice.id, GAME) is None
    answer = await start(alice, channel)  # DMs open again: the attempt was not used
    assert "in your DMs" in (answer.content or "")


async def test_resign_scores_the_computers_finish(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, _bob, _carol = world
    await start(alice, channel)
    r = await alice.slash(channel, "daily", game=GAME, action="resign")
    assert "You resigned" in (said(r).content or "")
    mine = await env.bot.service.daily_attempt(alice.id, GAME)
    assert mine is not None and mine.status == "finished" and mine.resigned
    assert hand_message(alice) is None  # the publisher took the controls off her hand
    dms = alice.user.dm_channel.history()
    assert any("The computer played the rest of your hand" in embed_text(m) for m in dms)
    assert "You resigned" in embed_text(dms[-1])


async def test_announcement_once_a_day_and_off_when_the_channel_is_gone(
    world: tuple[Any, ...], clock: Clock
) -> None:
    env, guild, channel, _alice, _bob, _carol = world
    admin = guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[admin])
    service = env.bot.service
    daily = env.bot.controller.daily
    assert await daily.announce() == 0  # off by default
    r = await boss.slash(channel, "trionfi settings", daily_channel=channel, daily_off=True)
    assert "not both" in (said(r).content or "")
    r = await boss.slash(channel, "trionfi settings", daily_channel=channel)
    assert "Settings saved" in (said(r).content or "")
    assert f"<#{channel.id}>" in embed_text(said(r))
    assert await daily.announce() == 1
    assert await daily.announce() == 0  # claimed for the day
    posted = channel.last_message.content or ""
    assert "daily deals of" in posted and not any(suit in posted for suit in "♠♥♦♣")
    clock.now += 86_400
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=403, code=50013, times=None)
    assert await daily.announce() == 0
    assert await service.daily_channel(guild.id) is None  # turned off
    r = await boss.slash(channel, "trionfi settings")
    assert "Daily deal announcement" in embed_text(said(r))
