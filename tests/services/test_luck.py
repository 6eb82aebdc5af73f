"""Luck and skill per deal (issue 33) in the services, on a real database: after a deal every
human gets "cards" (the expert's value of their dealt hand) and "play" (summed from the very
evaluations of their Review), stored so ``/stats`` averages them by a query; a practice table
keeps none; forgetting a player deletes theirs."""

from __future__ import annotations

import asyncio

import pytest

from bot.db import luck as luck_db
from bot.services import luck
from bot.services.stats import StatsService
from bot.services.tables import TableService
from tests.services.conftest import ANA, BEN, CHANNEL, GUILD
from tests.services.test_coach import _play_out  # pyright: ignore[reportPrivateUsage]

GAME, OPTIONS = "la_morte", {"round_limit": 1}  # one deal, the game's shortest match


@pytest.fixture(autouse=True)
def after_each_deal(quick_expert: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert at a fiftieth of its budget, in this process; luck computed after deals."""
    monkeypatch.setattr(luck, "AUTOMATIC", True)


async def _one_deal(svc: TableService, *, hints: bool = False) -> int:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", GAME, 3, OPTIONS, computers=1, hints=hints)
    await svc.join(t.id, BEN, "Ben")
    out = await _play_out(svc, await svc.start(t.id, ANA, seed=11))
    assert out.finished and out.deals_played == 1
    return t.id


async def test_each_human_gets_cards_and_play_after_the_deal(svc: TableService) -> None:
    table_id = await _one_deal(svc)
    await svc.luck_settled()  # computed in the background after the deal
    rec = await svc.store.get(table_id)
    assert rec is not None
    entries = await svc.store.log(table_id)
    rows = {}
    for user in (ANA, BEN):
        seat = next(s.seat for s in rec.seats if s.user_id == user)
        row = await luck_db.get(svc.db, table_id, 1, seat)
        assert row is not None and (row.user_id, row.game_id) == (user, GAME)
        # "play" is the Review's own verdict, decision by decision (the Review is the cached one).
        review = await svc.review(table_id, user, 1)
        assert row.play == pytest.approx(luck.play_value(review))
        assert (row.judged, row.decisions) == (len(review.judged), review.decisions)
        # What the Review counts as lost, less what the player found better than the expert.
        assert row.play >= -review.lost - 1e-9
        # "cards" values the hand as dealt: the seat's first decision, before any trick.
        view = luck.dealt_view(rec, entries, 1, seat)
        assert view is not None and view.public.tricks_played == 0 and not view.public.trick
        assert isinstance(row.cards, float)
        rows[user] = row
        # The Review answers with the same stored numbers.
        assert (await svc.reviewed(table_id, user, 1))[1] == row
    assert all(r.judged for r in rows.values()), "each player's decisions were judged"
    skill = await svc.skill(ANA)
    assert (skill.deals, skill.play, skill.cards) == (1, rows[ANA].play, rows[ANA].cards)

    await StatsService(svc.db).forget(ANA)  # the right to be forgotten takes them too
    assert (await svc.skill(ANA)).deals == 0
    assert (await svc.skill(BEN)).deals == 1


async def test_a_practice_table_keeps_no_luck(svc: TableService) -> None:
    table_id = await _one_deal(svc, hints=True)
    await svc.luck_settled()
    review, found = await svc.reviewed(table_id, ANA, 1)
    assert found is not None and found.play == pytest.approx(luck.play_value(review))
    assert (await svc.skill(ANA)).deals == 0  # shown in its Review only, never kept


async def test_closing_stops_the_background_computations(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that closes cancels the luck still being computed (caught up after the restart),
    instead of leaving it to fail against a closed database."""
    started = asyncio.Event()

    async def thinking(*args: object) -> None:
        started.set()
        await asyncio.Event().wait()  # a computation that would outlive the bot

    monkeypatch.setattr(svc, "_after_deals", thinking)
    table_id = await _one_deal(svc)
    await started.wait()
    (task,) = list(svc._background)  # pyright: ignore[reportPrivateUsage]
    await svc.stop_luck()
    assert task.cancelled() and not svc._background  # pyright: ignore[reportPrivateUsage]
    assert await luck_db.get(svc.db, table_id, 1, 0) is None  # left for the catch-up
