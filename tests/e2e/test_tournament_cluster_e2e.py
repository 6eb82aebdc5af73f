"""A tournament tended by two bot processes of a cluster at once (issue 34): each round's
pairings are posted once and each board gets one thread and one game table, whichever process
wins each claim; a claim left by a process killed before its post lapses and is taken over.

Two full controller stacks share one database and one simulated Discord, as two processes do
(``tests/resilience/test_deliver_once.py``: its ``other`` stack, bots and moved clock)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import simcord

from bot.db import tournaments as tstore
from bot.services.tournament_posts import thread_key
from bot.ui.handlers.controller import TableController
from tests.e2e.helpers import texts
from tests.e2e.test_tournament_e2e import quick_tables
from tests.resilience.test_deliver_once import Clock, clock, make_bot, mine, other, simcord_bot

__all__ = ["clock", "make_bot", "other", "quick_tables", "simcord_bot"]


async def _running(env: simcord.Env, players: int) -> tuple[Any, int]:
    """A running one-round tournament of ``players`` at tables of three (no thread, table nor
    post made yet): the channel and the tournament's id."""
    guild = env.create_guild("Tarot Club")
    channel = guild.create_text_channel("tournaments")
    members = [guild.add_member(env.create_user(f"p{i}")) for i in range(players)]
    service = mine(env).service
    await service.update_guild_settings(guild.id, pictures=False)
    info = await service.open_tournament(
        guild.id, channel.id, members[0].id, "la_morte", players=3, rounds=1, deals=1
    )
    for m in members:
        await service.register(info.id, m.id, m.name)
    await service.start_tournament(info.id, members[0].id)
    return channel, info.id


def _pairings(channel: Any) -> list[Any]:
    return [m for m in channel.history() if "Round 1 of 1" in "\n".join(texts(m))]


async def test_two_processes_tending_at_once_post_the_pairings_and_each_thread_once(
    simcord_env: simcord.Env, other: TableController, quick_tables: None
) -> None:
    env = simcord_env
    channel, tid = await _running(env, 6)
    await asyncio.gather(mine(env).tournament.tend(tid), other.tournament.tend(tid))
    await env.settle()
    # A later sweep of either finds nothing more to make.
    await other.tournament.tend(tid)
    await mine(env).tournament.tend(tid)
    await env.settle()

    assert len(_pairings(channel)) == 1
    assert len(channel.threads) == 2, "one thread per board"
    info = await mine(env).service.tournament(tid)
    boards = info.round_boards(1)
    assert {b.thread_id for b in boards} == {t.id for t in channel.threads}
    store = mine(env).service.store
    seated = [await store.open_for_user(e.user_id) for e in info.entrants]
    assert all(len(at) == 1 for at in seated), "each entrant sits at one table"
    assert len({at[0].id for at in seated}) == 2, "one game table per board"
    for thread in channel.threads:
        # One table dealt in each thread, shown there once.
        assert len(thread.history()) == 1


async def test_a_claim_left_by_a_killed_process_lapses_and_is_taken_over(
    simcord_env: simcord.Env, other: TableController, clock: Clock, quick_tables: None
) -> None:
    env = simcord_env
    channel, tid = await _running(env, 6)
    # The other process claimed board 1's thread, then was killed before making it.
    assert (await other.service.claim_tournament(tid, thread_key(1, 1))).mine
    await mine(env).tournament.tend(tid)
    await env.settle()
    assert len(channel.threads) == 1, "board 2 only: board 1's thread is claimed"
    assert _pairings(channel) == [], "the pairings wait for every table"

    clock.t += 61  # the dead process's claim has lapsed
    await mine(env).tournament.tend(tid)
    await env.settle()
    assert len(channel.threads) == 2
    assert len(_pairings(channel)) == 1
    info = await mine(env).service.tournament(tid)
    assert all(b.table_id is not None for b in info.round_boards(1))


async def test_one_sweep_reads_a_rounds_boards_a_fixed_number_of_times(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch, quick_tables: None
) -> None:
    """Seating a round reads its boards once per sweep (twice: before and after seating),
    not once per board: the rows read grow with the boards, not with their square."""
    env = simcord_env
    channel, tid = await _running(env, 12)
    read = boards_read(monkeypatch)
    await mine(env).tournament.tend(tid)
    await env.settle()
    assert len(channel.threads) == 4 and len(_pairings(channel)) == 1
    assert read == [4, 4], "the tournament's boards, read twice in the sweep"


def boards_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The rows of each read of a tournament's boards from now on."""
    read: list[int] = []
    real = tstore.boards

    async def counted(*args: Any, **kwargs: Any) -> list[tstore.Board]:
        found = await real(*args, **kwargs)
        read.append(len(found))
        return found

    monkeypatch.setattr(tstore, "boards", counted)
    return read
