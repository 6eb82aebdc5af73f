"""Luck and skill a restart lost are caught up (issue 33), in the services, on a real database:
a finished deal without its rows (its process stopped before computing them) is computed by
``catch_up_luck`` once its own process's grace is over, once, whichever of two processes
asks, a claim whose process stopped being taken over; practice tables, games the expert does
not play and deals older than the window are left alone."""

from __future__ import annotations

import asyncio

import pytest

from bot.db import luck as luck_db
from bot.db.database import Database
from bot.services import luck
from bot.services.tables import TableService
from tests.services.conftest import ANA, BEN, CHANNEL, GUILD, Clock
from tests.services.test_coach import _play_out  # pyright: ignore[reportPrivateUsage]

GAME, OPTIONS = "la_morte", {"round_limit": 1}  # one deal, the game's shortest match


@pytest.fixture(autouse=True)
def expert_here(quick_expert: None) -> None:
    """The expert at a fiftieth of its budget, in this process."""


async def _lost_deal(svc: TableService, *, hints: bool = False) -> int:
    """A finished one-deal table whose luck was never computed (``AUTOMATIC`` is off while
    it is played: as if its process stopped right after the deal)."""
    assert not luck.AUTOMATIC
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", GAME, 3, OPTIONS, computers=1, hints=hints)
    await svc.join(t.id, BEN, "Ben")
    out = await _play_out(svc, await svc.start(t.id, ANA, seed=11))
    assert out.finished and out.deals_played == 1
    return t.id


async def _rows(svc: TableService, table_id: int) -> list[luck_db.DealLuck | None]:
    rec = await svc.store.get(table_id)
    assert rec is not None
    return [await luck_db.get(svc.db, table_id, 1, s.seat) for s in rec.seats if not s.is_bot]


async def test_a_lost_deal_is_computed_once_by_one_of_two_processes(
    svc: TableService, db: Database, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await _lost_deal(svc)
    monkeypatch.setattr(luck, "AUTOMATIC", True)
    assert await svc.catch_up_luck() == 0  # its own process's grace: left to it
    clock.now += luck.CATCH_UP_GRACE
    # A process that claimed it and stopped: nobody computes it until its claim is stale.
    stale = clock.now - luck.CATCH_UP_LEASE
    assert await luck_db.claim(db, table_id, 1, "stopped", clock.now, stale)
    assert await svc.catch_up_luck() == 0
    clock.now += luck.CATCH_UP_LEASE + 1
    other = TableService(db, clock=clock)  # a second process on the same database
    taken = await asyncio.gather(svc.catch_up_luck(), other.catch_up_luck())
    assert sorted(taken) == [0, 1]
    rows = await _rows(svc, table_id)
    assert len(rows) == 2 and all(r is not None for r in rows)
    assert (await svc.skill(ANA)).deals == 1 and (await svc.skill(BEN)).deals == 1
    assert [await svc.catch_up_luck(), await other.catch_up_luck()] == [0, 0]
    assert await _rows(svc, table_id) == rows  # not computed again
    # The deal's claim goes once the deal is out of the window.
    clock.now += luck.CATCH_UP_WINDOW + 1
    assert await luck_db.drop_claims(db, clock.now - luck.CATCH_UP_WINDOW) == 1


async def test_practice_other_games_and_old_deals_are_left(
    svc: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = await _lost_deal(svc)
    clock.now += luck.CATCH_UP_WINDOW + luck.CATCH_UP_GRACE
    practice = await _lost_deal(svc, hints=True)
    recent = await _lost_deal(svc)
    clock.now += luck.CATCH_UP_GRACE
    monkeypatch.setattr(luck, "AUTOMATIC", True)
    with monkeypatch.context() as m:
        m.setattr(luck, "expert_ready", lambda game_id: game_id != GAME)
        assert await svc.catch_up_luck() == 0  # a game the expert does not play keeps none
    assert await svc.catch_up_luck() == 1
    assert all(r is not None for r in await _rows(svc, recent))
    assert await _rows(svc, old) == [None, None]  # beyond the window
    assert await _rows(svc, practice) == [None, None]  # a practice table keeps none
    monkeypatch.setattr(luck, "AUTOMATIC", False)  # the tests' switch: nothing at all
    clock.now -= luck.CATCH_UP_WINDOW
    assert await svc.catch_up_luck() == 0
