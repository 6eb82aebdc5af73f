"""League tables with several humans of one server, end to end through SimCord (issue 34).

In Tarot Club, alice opens a table of this week's set with ``/league table`` in the league
channel and bob joins it; a moderator who can read the channel's private threads is refused,
and bob may not also enter alone. alice's **Start** makes a private thread with the two of
them in it, the expert computers (here the casual ones, for speed) take the other seats, and
the table is played there, hands in the DMs. carol, of the same server but not at the table,
cannot read the thread and her crafted click on its table is refused. bob leaves mid-deal (the
casual computer finishes it, marked); alice plays on to the end. erin of Third Club enters
alone. The standings equal a direct computation from the stored results, seat by seat, and
nothing of the deal reached the league channel. Without Create Private Threads no league table
opens.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import discord
import pytest
import simcord

from bot.client import TrionfiBot
from bot.db import league as league_db
from bot.services import compute, league_tables
from bot.services import league as league_service
from bot.services.league import SCORE_EVERY, LeagueTables
from bot.ui.text.cards import label
from tests.e2e.helpers import components, embed_text, said
from tests.e2e.test_league_e2e import FRIDAY, GAME, SALT, Clock, hand_message, play
from tests.e2e.test_server_checks_e2e import crafted_click
from tests.resilience.drive import World


@pytest.fixture(autouse=True)
def quick_league(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """One deal a set, casual computers thinking in this process: a cheap test."""
    monkeypatch.setattr(LeagueTables, "league_deals", 1)
    monkeypatch.setattr(league_service, "expert_ready", lambda game_id: False)
    monkeypatch.setattr(league_tables, "expert_ready", lambda game_id: False)
    with ThreadPoolExecutor(1) as here:
        monkeypatch.setattr(compute, "process_pool", lambda: here)
        yield


@pytest.fixture
def clock() -> Clock:
    clock = Clock()
    clock.now = FRIDAY + 3600  # the window is open
    return clock


@pytest.fixture
def simcord_bot(make_bot: Callable[[], TrionfiBot], clock: Clock) -> TrionfiBot:
    bot = make_bot()
    bot.daily_salt = SALT
    bot.clock = clock
    return bot


def direct(
    results: list[league_db.DealResult], owner: dict[tuple[int, int], int]
) -> dict[int, tuple[int, int]]:
    """Each entrant's ``(mp, top)`` computed here from the stored results: every result
    against the same deal and seat at every other table (``owner``: (table, seat) -> user)."""
    groups: dict[tuple[int, int], list[league_db.DealResult]] = defaultdict(list)
    for r in results:
        groups[(r.deal_no, r.seat)].append(r)
    out: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for group in groups.values():
        for r in group:
            others = [o for o in group if o is not r]
            acc = out[owner[(r.table_id, r.seat)]]
            acc[0] += sum(2 if r.score > o.score else r.score == o.score for o in others)
            acc[1] += 2 * len(others)
    return {k: (v[0], v[1]) for k, v in out.items()}


async def test_two_members_at_one_table_in_a_private_thread(
    simcord_env: simcord.Env, clock: Clock
) -> None:
    env = simcord_env
    club = env.create_guild("Tarot Club")
    hall = club.create_text_channel("league")
    admin = club.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
    mods = club.create_role("Mods", permissions=discord.Permissions(manage_threads=True))
    boss = club.add_member(env.create_user("boss"), roles=[admin])
    mod = club.add_member(env.create_user("mod"), roles=[mods])
    alice, bob, carol = (club.add_member(env.create_user(n)) for n in ("alice", "bob", "carol"))
    third = env.create_guild("Third Club")
    news = third.create_text_channel("league")
    erin = third.add_member(env.create_user("erin"))
    bot = env.bot
    assert isinstance(bot, TrionfiBot)
    service = bot.service
    await boss.slash(hall, "trionfi settings", league=True)
    await service.set_league(third.id, news.id)

    r = await mod.slash(hall, "league table", game=GAME)
    assert "private threads" in (said(r).content or "")  # could read the other tables
    r = await alice.slash(hall, "league table", game=GAME)
    assert said(r).ephemeral and "is open" in (said(r).content or "")
    lobby = hall.last_message
    assert lobby is not None and "Add computer" not in str(lobby.components)
    await bob.click(lobby, label="Join")
    r = await bob.slash(hall, "league join", game=GAME)  # not alone as well
    assert "league table" in (said(r).content or "")
    r = await mod.click(lobby, label="Join")
    assert "private threads" in (said(r).content or "")

    table = await service.store.open_in_channel(hall.id)
    assert table is not None and table.league_session is not None
    r = await alice.click(lobby, label="Start")
    [thread] = hall.threads
    assert set(env.backend.channels[thread.id].thread_members) >= {alice.id, bob.id}
    assert not {carol.id, mod.id, boss.id} & set(env.backend.channels[thread.id].thread_members)
    with pytest.raises(simcord.SetupError):
        thread.history(viewer=carol)
    shown = next(m for m in hall.history() if m.id == lobby.id)  # the lobby's message now
    assert f"<#{thread.id}>" in embed_text(shown) and not components(shown)
    started = await service.get_table(table.id)
    assert started.channel_id == thread.id and started.message_id is not None
    assert [(s.seat, s.user_id) for s in started.seats if not s.is_bot] == [
        (0, alice.id),
        (1, bob.id),
    ]  # the set's first two entrants: seats 0 and 1

    # carol crafts a click on the table from the league channel: refused, nothing changes.
    before = started.seq
    here = World(env, club, hall, [carol])
    for verb in ("hand", "act:play:card=S7", "leave"):
        r = await crafted_click(here, carol, lobby, f"tb:{table.id}:{verb}")
        assert said(r).ephemeral and "another server" in (said(r).content or ""), verb
    assert (await service.get_table(table.id)).seq == before

    await play(bob, most=2)
    r = await bob.slash(hall, "league leave", game=GAME)
    assert "You left" in (said(r).content or "")
    # The table plays on without him, and /league status says he left, not that he plays.
    r = await bob.slash(hall, "league status")
    status = embed_text(said(r))
    assert "left at deal 1" in status and "under way" not in status, status
    assert await play(alice) > 0 and hand_message(alice) is None
    assert (await service.get_table(table.id)).status == "finished"
    r = await bob.slash(hall, "league join", game=GAME)
    assert "already entered" in (said(r).content or "")

    r = await erin.slash(news, "league join", game=GAME)
    assert "in your DMs" in (said(r).content or "")
    await play(erin, most=3)
    await erin.slash(news, "league leave", game=GAME)

    session = await service.league_session()
    entries = await league_db.entries(service.db, session.id, GAME)
    assert sorted((e.user_id, e.seat) for e in entries) == sorted(
        [(alice.id, 0), (bob.id, 1), (erin.id, 2)]
    )
    results = await league_db.results(service.db, session.id, GAME)
    assert {(r.table_id, r.seat, r.resigned) for r in results} >= {
        (table.id, 0, False),
        (table.id, 1, True),
    }
    clock.now += SCORE_EVERY
    owner = {(e.table_id or 0, e.seat): e.user_id for e in entries}
    board = await service.league_board(GAME, alice.id)
    assert {s.key: (s.mp, s.top) for s in board.standings.top} == direct(results, owner)
    gone = next(s for s in board.standings.top if s.key == bob.id)
    assert gone.resigned
    r = await bob.slash(hall, "league status")  # what he scored, by the deal he left in
    assert f"left at deal 1 🏳️ · {gone.pct:.1f}% ({gone.mp}/{gone.top}) over 1 deal" in (
        embed_text(said(r))
    )

    # Nothing of the deal outside the thread and the DMs.
    log = await service.store.log(table.id)
    cards = {label(c) for e in log if e.kind == "deal" for c in e.payload["deck"]}
    cards = {c for c in cards if len(c) > 2}
    outside = "\n".join(embed_text(m) for m in hall.history(viewer=carol))
    assert not any(card in outside for card in cards)
    inside = "\n".join(embed_text(m) for m in thread.history(viewer=alice))
    assert "alice" in inside and "score sheet" in inside


async def test_no_league_table_without_private_threads(simcord_env: simcord.Env) -> None:
    env = simcord_env
    club = env.create_guild("Tarot Club")
    bot = env.bot
    assert isinstance(bot, TrionfiBot) and bot.user is not None
    hall = club.create_text_channel(
        "league",
        overwrites={bot.user: discord.PermissionOverwrite(create_private_threads=False)},
    )
    alice = club.add_member(env.create_user("alice"))
    await bot.service.set_league(club.id, hall.id)
    r = await alice.slash(hall, "league table", game=GAME)
    assert said(r).ephemeral and "**Create Private Threads**" in (said(r).content or "")
    assert hall.history() == [] and await bot.service.store.open_in_channel(hall.id) is None


async def test_a_lobby_not_started_closes_when_the_night_ends(
    simcord_env: simcord.Env, clock: Clock
) -> None:
    """The night ends with alice's lobby not started: the league's upkeep closes it, its
    message says so and when the next night opens, and a late Join is refused."""
    env = simcord_env
    club = env.create_guild("Tarot Club")
    hall = club.create_text_channel("league")
    alice, bob, carol = (club.add_member(env.create_user(n)) for n in ("alice", "bob", "carol"))
    bot = env.bot
    assert isinstance(bot, TrionfiBot)
    await bot.service.set_league(club.id, hall.id)
    await alice.slash(hall, "league table", game=GAME)
    lobby = hall.last_message
    assert lobby is not None
    await bob.click(lobby, label="Join")
    session = await bot.service.league_session()

    clock.now = session.ends_at
    r = await carol.click(lobby, label="Join")  # before the sweep: refused, the next night named
    following = int(session.starts_at) + 7 * 86400
    assert f"<t:{following}:F>" in (said(r).content or "")
    await bot.controller.league.upkeep()
    await env.settle()
    shown = next(m for m in hall.history() if m.id == lobby.id)
    text = embed_text(shown)
    assert "league night is over" in text and f"<t:{following}:F>" in text, text
    assert not components(shown)
    assert await bot.service.store.open_for_user(bob.id) == []


async def test_a_start_after_a_crash_reuses_the_tables_thread(
    simcord_env: simcord.Env, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot dies between making a table's thread and starting the table, once before it
    recorded the thread and once after: each table ends up with one thread, the one made
    first; a Start while another holds the start is refused."""
    env = simcord_env
    club = env.create_guild("Tarot Club")
    hall = club.create_text_channel("league")
    alice, bob, carol, dave = (
        club.add_member(env.create_user(n)) for n in ("alice", "bob", "carol", "dave")
    )
    bot = env.bot
    assert isinstance(bot, TrionfiBot)
    service = bot.service
    await service.set_league(club.id, hall.id)

    def dies_once(name: str) -> None:
        real = getattr(service, name)

        async def killed(*args: object, **kwargs: object) -> object:
            monkeypatch.setattr(service, name, real)
            raise RuntimeError("the process was killed here")

        monkeypatch.setattr(service, name, killed)

    async def lobby_of(host: simcord.Member, guest: simcord.Member) -> discord.Message:
        await host.slash(hall, "league table", game=GAME)
        lobby = hall.last_message
        assert lobby is not None
        await guest.click(lobby, label="Join")
        return lobby

    # Killed right after Discord made the thread, before it was recorded.
    first = await lobby_of(alice, bob)
    dies_once("league_thread_made")
    await alice.click(first, label="Start")
    [thread] = hall.threads
    r = await alice.click(first, label="Start")  # the dead start's claim has not lapsed yet
    assert "being started already" in (said(r).content or "")
    clock.now += 61
    await alice.click(first, label="Start")
    assert [t.id for t in hall.threads] == [thread.id], "found again by its name, not anew"
    table = await service.table_in_channel(thread.id)
    assert table is not None and table.status == "playing"
    assert {alice.id, bob.id} <= set(env.backend.channels[thread.id].thread_members)

    # Killed after the thread was recorded, before the table started in it.
    second = await lobby_of(carol, dave)
    dies_once("start_league_table")
    await carol.click(second, label="Start")
    assert len(hall.threads) == 2
    made = hall.threads[-1]
    clock.now += 61
    await carol.click(second, label="Start")
    assert [t.id for t in hall.threads] == [thread.id, made.id], "the recorded one, reused"
    table = await service.table_in_channel(made.id)
    assert table is not None and table.status == "playing"
