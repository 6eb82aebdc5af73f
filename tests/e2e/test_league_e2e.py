"""League nights end to end through SimCord (issue 34).

Three servers join the league (``/trionfi settings league:True``); five members enter this
week's set (a one-deal set of Early French Tarot, computers filling the other seats) with
``/league join`` and play it in their DMs: one to the end with a restart of the bot in the
middle, the others leaving after a decision or two (``/league leave``: the casual computer
finishes the deal in progress, marked). The standings equal a direct computation from the
stored results; before the window closes nothing of a deal reaches anyone (standings show
names and percentages, the comparison is refused); after it, the comparison shows every table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord
import pytest

from bot.client import TrionfiBot
from bot.db import league as league_db
from bot.services import compute
from bot.services import league as league_service
from bot.services.league import SCORE_EVERY, LeagueTables
from bot.ui.text.cards import label
from tests.e2e.helpers import components, embed_text, said, take_turn
from tests.services.test_league import direct_standings, pct

GAME = "early_french_tarot"  # card play only: the expert's quickest game
SALT = "the e2e tests' secret salt"
FRIDAY = 1_764_350_000.0  # 2025-11-28 17:13 UTC: this week's window opens at 18:00


class Clock:
    def __init__(self) -> None:
        self.now = FRIDAY

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def quick_league(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """One deal a set (the service tests play longer ones) and casual computers thinking in
    this process (the strict expert's sameness is the daily tests' part): a cheap test."""
    monkeypatch.setattr(LeagueTables, "league_deals", 1)
    monkeypatch.setattr(league_service, "expert_ready", lambda game_id: False)
    with ThreadPoolExecutor(1) as here:
        monkeypatch.setattr(compute, "process_pool", lambda: here)
        yield


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def league_bot(make_bot: Callable[[], TrionfiBot], clock: Clock) -> Callable[[], TrionfiBot]:
    def factory() -> TrionfiBot:
        bot = make_bot()
        bot.daily_salt = SALT
        bot.clock = clock
        return bot

    return factory


@pytest.fixture
def simcord_bot(league_bot: Callable[[], TrionfiBot]) -> TrionfiBot:
    return league_bot()


def hand_message(member: Any) -> discord.Message | None:
    for m in reversed(member.user.dm_channel.history()):
        if any(":act:" in (getattr(c, "custom_id", "") or "") for c in components(m)):
            return m
    return None


async def play(member: Any, *, most: int = 200, restart: Callable[[], Any] | None = None) -> int:
    steps = 0
    while steps < most and (message := hand_message(member)) is not None:
        if restart is not None and steps == 3:
            await restart()  # the old DM's buttons must still work
        await take_turn(member, message)
        steps += 1
    return steps


async def test_three_servers_one_session(
    simcord_env: Any, league_bot: Callable[[], TrionfiBot], clock: Clock
) -> None:
    env = simcord_env
    clubs = []
    for name, player in (("Tarot Club", "alice"), ("Other Club", "dave"), ("Third Club", "erin")):
        guild = env.create_guild(name)
        channel = guild.create_text_channel("league")
        admin = guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
        boss = guild.add_member(env.create_user(f"boss-{player}"), roles=[admin])
        clubs.append((guild, channel, guild.add_member(env.create_user(player)), boss))
    (g1, c1, alice, boss1), (g2, c2, dave, _b2), (_g3, c3, erin, _b3) = clubs
    bob = g1.add_member(env.create_user("bob"))
    frank = g2.add_member(env.create_user("frank"))

    r = await alice.slash(c1, "league join", game=GAME)
    assert "hasn't joined the league" in (said(r).content or "")
    for _guild, channel, _member, boss in clubs:
        r = await boss.slash(channel, "trionfi settings", league=True)
        assert f"in <#{channel.id}>" in embed_text(said(r))
    r = await alice.slash(c1, "league join", game=GAME)
    assert "opens" in (said(r).content or "")  # before the window
    clock.now += 3600  # 18:13: the window is open
    r = await alice.slash(c1, "league join", game=GAME)
    assert "in your DMs" in (said(r).content or "")
    assert any("League night" in embed_text(m) for m in alice.user.dm_channel.history())

    async def restart() -> None:
        old = env.bot
        await env.restart_bot(league_bot())
        await old.close()

    assert await play(alice, restart=restart) > 3
    assert hand_message(alice) is None
    # Four more entrants, who leave after a decision or two (the casual computer finishes
    # the deal in progress): dave and frank of Other Club, erin of Third Club, bob of alice's.
    for member, channel in ((dave, c2), (erin, c3), (bob, c1), (frank, c2)):
        r = await member.slash(channel, "league join", game=GAME)
        assert "in your DMs" in (said(r).content or "")
        await play(member, most=2)
        assert hand_message(member) is not None
        if member is not erin:  # erin is still playing below
            r = await member.slash(channel, "league leave", game=GAME)
            assert "You left" in (said(r).content or "")
    r = await alice.slash(c1, "league join", game=GAME)
    assert "already entered" in (said(r).content or "")

    service = env.bot.service
    session = await service.league_session()
    entries = await league_db.entries(service.db, session.id, GAME)
    assert [e.seat for e in entries] == [0, 1, 2, 3, 0]  # seats rotate with the entries
    log = await service.store.log(entries[0].table_id or 0)
    cards = {label(c) for e in log if e.kind == "deal" for c in e.payload["deck"]}
    cards = {c for c in cards if len(c) > 2}  # "K♠", "T21 World": not a bare number

    # Before the window closes: standings and status show no card to anyone; no comparison.
    seen: list[str] = []
    for member, channel in ((bob, c1), (erin, c3), (alice, c1), (dave, c2)):
        for of in ("players", "servers"):
            r = await member.slash(channel, "league standings", game=GAME, of=of)
            seen.append(embed_text(said(r)))
        r = await member.slash(channel, "league compare", game=GAME, deal=1)
        assert "opens when this week's session closes" in (said(r).content or "")
        r = await member.slash(channel, "league status")
        seen.append(embed_text(said(r)))
    seen += [m.content or "" for m in c1.history(viewer=bob)]
    assert not any(suit in text for text in seen for suit in "♠♥♦♣")
    assert not any(card in text for text in seen for card in cards)

    r = await erin.slash(c3, "league leave", game=GAME)
    assert "You left" in (said(r).content or "")
    clock.now += SCORE_EVERY  # the standings are scored again at most once a minute
    results = await league_db.results(service.db, session.id, GAME)
    owner = {e.table_id or 0: (e.user_id, e.guild_id) for e in entries}
    players, servers = direct_standings(results, owner)
    board = await service.league_board(GAME, alice.id)
    assert {s.key: (s.mp, s.top) for s in board.standings.top} == players
    r = await alice.slash(c1, "league standings", game=GAME)
    text = embed_text(said(r))
    for member in (alice, dave, erin, bob, frank):
        assert f"{pct(*players[member.id]):.1f}%" in text
    assert "🏳️" in text  # the left deals are marked
    assert players[alice.id][1] > 0  # frank's deal 1 at seat 0 is compared with alice's
    r = await boss1.slash(c1, "league standings", game=GAME, of="servers")
    text = embed_text(said(r))
    assert "Tarot Club" in text and "Other Club" in text
    for guild_id, (mp, top) in servers.items():
        assert f"{pct(mp, top):.1f}% ({mp}/{top})" in text, guild_id

    # After the window: the comparison, every table's score at the deal, the hands as dealt.
    clock.now = session.ends_at + 1
    r = await bob.slash(c1, "league compare", game=GAME, deal=1)
    shown = embed_text(said(r))
    assert said(r).ephemeral and "alice" in shown and "dave" in shown and "erin" in shown
    assert any(card in shown for card in cards)
    # Never rated.
    assert await service.store.open_for_user(alice.id) == []


async def test_announcements_once_with_or_without_a_scheduled_event(
    simcord_env: Any, clock: Clock
) -> None:
    env = simcord_env
    a, b = env.create_guild("Tarot Club"), env.create_guild("Other Club")
    news_a, news_b = a.create_text_channel("league"), b.create_text_channel("league")
    service, league = env.bot.service, env.bot.controller.league
    await service.set_league(a.id, news_a.id)
    await service.set_league(b.id, news_b.id)
    # Discord refuses the event in A (no Manage Events) and every post in B's channel.
    env.inject_error("POST", f"/guilds/{a.id}/scheduled-events", status=403, code=50013)
    env.inject_error("POST", f"/channels/{news_b.id}/messages", status=403, code=50013, times=None)
    assert await league.announce() == 2
    assert await league.announce() == 0  # once per server and session
    posted = news_a.last_message.content or ""
    assert "League night" in posted and "/league join" in posted
    assert not any(suit in posted for suit in "♠♥♦♣")
    asked = [r.path for r in env.http_requests if "scheduled-events" in r.path]
    assert asked == [f"/guilds/{a.id}/scheduled-events", f"/guilds/{b.id}/scheduled-events"]
    async with service.db.read() as conn:
        made = await conn.fetchall("SELECT guild_id, event_id FROM league_events ORDER BY guild_id")
    assert [(g, e is not None) for g, e in made] == [(a.id, False), (b.id, True)]
    events = await env.bot.get_guild(b.id).fetch_scheduled_events()
    assert [e.name for e in events] == ["League night 2025-W48"]
    assert await service.league_channel(a.id) == news_a.id  # no event: still in the league
    assert await service.league_channel(b.id) is None  # its channel refuses the bot: it left
    clock.now += 7 * 86_400  # next week's session: announced again
    assert await league.announce() == 1
