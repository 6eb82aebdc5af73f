"""A tournament through Discord (issue 34): nine members register (buttons and the command),
the host starts it, each of three Swiss rounds seats them in a thread per table with a
computer in each missing seat, the bot restarts between rounds, the standings follow every
round, and the final standings come with a picture. The games themselves are played by the
casual computer standing in for the humans, through the same service call their clicks make
(the games' own tests play them click by click)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord
import pytest
import simcord

from bot.client import TrionfiBot
from bot.engine import match
from bot.engine.registry import get_rules
from bot.services import compute, ratings, tournaments
from bot.services.step import computer_action
from bot.services.tables import TableService
from tests.e2e.helpers import labels, pictures, private_answer, said, texts


@pytest.fixture
def quick_tables(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Tournament tables with casual computers thinking in this process (the expert's play
    is not under test here; ``tests/services/test_tournaments.py`` checks its seats)."""
    monkeypatch.setattr(tournaments, "expert_ready", lambda game_id: False)
    with ThreadPoolExecutor(1) as here:
        monkeypatch.setattr(compute, "process_pool", lambda: here)
        yield


async def _stand_in(service: TableService, table_ids: list[int]) -> None:
    """Every human decision of these tables, as the casual computer would click it."""
    rng = random.Random(11)
    for tid in table_ids:
        for _ in range(500):
            out = await service.snapshot(tid)
            if out.table.status != "playing" or out.public is None or out.public.to_act is None:
                break
            seat = out.public.to_act
            user = out.table.seats[seat].user_id
            assert user is not None
            action = computer_action(get_rules(out.table.game_id), out.seat_views[seat], rng)
            payload = action.to_json()
            del payload["seat"]
            await service.act(tid, user, payload)


def _body(message: Any) -> str:
    return "\n".join(texts(message))


@pytest.mark.pictures
async def test_nine_players_three_swiss_rounds_in_threads(
    simcord_env: simcord.Env, make_bot: Callable[[], TrionfiBot], quick_tables: None
) -> None:
    env = simcord_env
    guild = env.create_guild("Tarot Club")
    channel = guild.create_text_channel("tournaments")
    host, *others = [guild.add_member(env.create_user(f"p{i}")) for i in range(9)]
    players = [host, *others]
    outsider = guild.add_member(env.create_user("outsider"))

    # Text-only tables (the server's setting): no picture is drawn in a worker thread, which
    # SimCord's settling would not wait for; the final standings' picture is awaited.
    await env.bot.service.update_guild_settings(guild.id, pictures=False)  # type: ignore[attr-defined]
    await host.slash(channel, "tournament open", game="la_morte", rounds=3, seats=4, deals=1)
    post = channel.history()[-1]
    assert "Tournament #1" in _body(post)
    assert labels(post) == ["Register", "Unregister", "Start", "Standings"]
    for member in players[:8]:
        await member.click(channel.history()[0], label="Register")
    await players[8].slash(channel, "tournament register")
    post = next(m for m in channel.history() if m.id == post.id)
    assert "9 registered" in _body(post)

    # Only the host (or an admin) starts it; a refusal changes nothing.
    refused = await outsider.click(post, label="Start")
    assert "Only the tournament's host" in private_answer(channel, outsider, refused).content
    await host.click(post, label="Start")
    await env.settle()

    bot = env.bot
    assert isinstance(bot, TrionfiBot)
    seen_threads: set[int] = set()
    for round_no in (1, 2, 3):
        threads = [t for t in channel.threads if t.id not in seen_threads]
        assert len(threads) == 3, f"round {round_no}: a thread per table"
        seen_threads |= {t.id for t in threads}
        info = await bot.service.tournament_here(guild.id, channel.id)
        boards = info.round_boards(round_no)
        assert {b.thread_id for b in boards} == {t.id for t in threads}
        # Each thread shows its table; the pairings post names the tables and their threads.
        for t in threads:
            assert t.history(), "the table's message is in its thread"
        pairings = next(
            m for m in reversed(channel.history()) if f"Round {round_no} of 3" in _body(m)
        )
        text = _body(pairings)
        assert all(f"<#{t.id}>" in text for t in threads)
        assert text.count("computer") >= 3  # one computer a table, marked
        seated = [u for b in boards for u in b.seats if u is not None]
        assert sorted(seated) == sorted(m.id for m in players)  # everyone once
        table_ids = [b.table_id for b in boards if b.table_id is not None]
        await _stand_in(bot.service, table_ids)
        if round_no == 3:  # the final standings come with their picture
            await bot.service.update_guild_settings(guild.id, pictures=True)
        if round_no == 1:  # a restart between rounds: the next round is made by the new bot
            old = env.bot
            await env.restart_bot(make_bot())
            await old.close()
            bot = env.bot
            assert isinstance(bot, TrionfiBot)
        await bot.controller.tournament.upkeep()
        await env.settle()
        if round_no < 3:
            after = next(
                m for m in reversed(channel.history()) if "Standings after round" in _body(m)
            )
            assert f"round {round_no} of 3" in _body(after)

    final = channel.history()[-1]
    assert "Final standings" in _body(final)
    assert pictures(final) and pictures(final)[0][0].endswith("standings.png")
    # The standings equal a direct computation from the tables' own final totals.
    info = await bot.service.tournament_here(guild.id, channel.id)
    assert info.record.status == "finished"
    expected: Counter[int] = Counter()
    for b in info.boards:
        assert b.table_id is not None
        rec = await bot.service.store.get(b.table_id)
        assert rec is not None and rec.snapshot is not None and not rec.rated
        m = match.from_json(rec.snapshot)
        places = ratings.placings(m.totals, m.winners, [s.seat for s in rec.seats if s.resigned])
        for s in rec.seats:
            mine = places[s.seat]
            if s.user_id is not None and mine is not None:
                expected[s.user_id] += sum(
                    2 if p is not None and p > mine else 1 if p == mine else 0
                    for i, p in enumerate(places)
                    if i != s.seat
                )
    assert {s.user_id: s.points for s in info.standings} == {m.id: expected[m.id] for m in players}
    leader = info.standings[0].name
    assert f"Congratulations to {leader}!" in _body(final)


async def test_without_threads_the_tables_share_the_channel_and_it_is_said_once(
    simcord_env: simcord.Env, quick_tables: None
) -> None:
    """The bot may not make threads: both tables are played in the tournament's channel (one
    notice, once), the scheduled event is made, and a player leaving mid-round hands their
    seat to the computer (``tests/services/test_tournaments.py`` follows them to the end)."""
    env = simcord_env
    guild = env.create_guild("Tarot Club")
    bot = env.bot
    assert isinstance(bot, TrionfiBot) and bot.user is not None
    channel = guild.create_text_channel(
        "tournaments",
        overwrites={bot.user: discord.PermissionOverwrite(create_public_threads=False)},
    )
    members = [guild.add_member(env.create_user(f"q{i}")) for i in range(4)]
    await bot.service.update_guild_settings(guild.id, pictures=False)
    opened = await members[0].slash(
        channel,
        "tournament open",
        game="la_morte",
        seats=3,
        rounds=1,
        deals=1,
        start_in=30,
        event=True,
    )
    assert "scheduled event" in private_answer(channel, members[0], opened).content
    assert [e.name for e in env.backend.get_guild(guild.id).scheduled_events.values()] == [
        "🏆 Tournament #1: La Morte"
    ]
    for m in members:
        await m.slash(channel, "tournament register")
    await members[0].slash(channel, "tournament start")
    await env.settle()
    notices = [m for m in channel.history() if "Create Public Threads" in _body(m)]
    assert len(notices) == 1
    assert channel.threads == []
    info = await bot.service.tournament_here(guild.id, channel.id)
    tables = [await bot.service.get_table(b.table_id or 0) for b in info.round_boards(1)]
    assert [t.channel_id for t in tables] == [channel.id, channel.id]
    shown = {t.message_id for t in tables}
    assert None not in shown and shown <= {m.id for m in channel.history()}

    # A command in the shared channel goes to the table of the one who types it.
    later = next(m for m in members if tables[1].seat_of(m.id) is not None)
    hand = await later.slash(channel, "lamorte hand")
    assert said(hand).ephemeral
    assert f"Your hand — La Morte table #{tables[1].id}" in _body(said(hand).message)
    outsider = guild.add_member(env.create_user("outsider"))
    refused = await outsider.slash(channel, "lamorte status")
    assert "you sit at none of them" in private_answer(channel, outsider, refused).content

    leaver = members[1]
    left = await leaver.slash(channel, "tournament leave")
    assert "You left tournament #1" in private_answer(channel, leaver, left).content
    table = next(t for t in tables if t.seat_of(leaver.id) is not None)
    seat = table.seat_of(leaver.id)
    assert seat is not None and (await bot.service.get_table(table.id)).seats[seat].resigned


def _events(env: simcord.Env, guild: Any) -> dict[str, int]:
    """The server's scheduled events: name → status (1 scheduled, 2 active, 3 completed,
    4 cancelled)."""
    return {e.name: e.status for e in env.backend.get_guild(guild.id).scheduled_events.values()}


async def test_the_scheduled_event_ends_with_the_tournament(
    simcord_env: simcord.Env, quick_tables: None
) -> None:
    """Finished: the tournament's event is completed (it had not begun: it is started and
    ended). Cancelled: its event is cancelled; one deleted on Discord meanwhile is let go."""
    env = simcord_env
    guild = env.create_guild("Tarot Club")
    bot = env.bot
    assert isinstance(bot, TrionfiBot)
    played, cancelled, gone = (guild.create_text_channel(n) for n in ("t1", "t2", "t3"))
    host, guest = (guild.add_member(env.create_user(n)) for n in ("host", "guest"))
    await bot.service.update_guild_settings(guild.id, pictures=False)
    for channel in (played, cancelled, gone):
        await host.slash(
            channel,
            "tournament open",
            game="la_morte",
            seats=3,
            rounds=1,
            deals=1,
            start_in=30,
            event=True,
        )
    assert set(_events(env, guild).values()) == {1}

    # Both entrants leave the one table: the computers play it out, and the round ends.
    for m in (host, guest):
        await m.slash(played, "tournament register")
    await host.slash(played, "tournament start")
    await env.settle()
    for m in (host, guest):
        await m.slash(played, "tournament leave")
    await env.settle()
    await bot.controller.tournament.upkeep()
    await env.settle()
    assert "Final standings" in _body(played.history()[-1])
    assert _events(env, guild)["🏆 Tournament #1: La Morte"] == 3

    await host.slash(cancelled, "tournament cancel")
    assert _events(env, guild)["🏆 Tournament #2: La Morte"] == 4
    third = await bot.service.tournament_here(guild.id, gone.id)
    assert third.record.event_id is not None
    env.backend.delete_scheduled_event(guild.id, third.record.event_id)
    answer = await host.slash(gone, "tournament cancel")
    assert "was cancelled" in private_answer(gone, host, answer).content
    # Nothing is left to tend: the event is not tried again.
    assert await bot.service.tournaments_to_tend() == []


async def test_forget_me_withdraws_the_registration(simcord_env: simcord.Env) -> None:
    """``/privacy forget-me`` takes the player out of the tournament they registered for,
    and its post says so (a running tournament: ``tests/services/test_tournaments.py``)."""
    env = simcord_env
    guild = env.create_guild("Tarot Club")
    channel = guild.create_text_channel("tournaments")
    alice, bob = (guild.add_member(env.create_user(n)) for n in ("alice", "bob"))
    await alice.slash(channel, "tournament open", game="la_morte", seats=3)
    for m in (alice, bob):
        await m.slash(channel, "tournament register")
    assert "2 registered" in _body(channel.history()[0])
    asked = await alice.slash(channel, "privacy forget-me")
    await alice.click(said(asked).message, label="Forget me")
    assert "1 registered" in _body(channel.history()[0])
    info = await env.bot.service.tournament_here(guild.id, channel.id)  # type: ignore[attr-defined]
    assert [e.user_id for e in info.entrants] == [bob.id]
