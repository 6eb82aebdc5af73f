"""An unfinished "Try another way" replay does not block its player's DMs (issue 33): another
replay, or a daily deal, replaces it there in one step (``bot.services.dm_room``); it ends
abandoned with the reason ``replaced``, unrated and without luck rows, and its old buttons are
refused with that reason. A daily deal under way refuses a replay; nobody replaces another
user's table."""

from __future__ import annotations

import asyncio

import pytest

from bot.db import luck as luck_db
from bot.services import luck
from bot.services.errors import WrongState
from bot.services.models import Outcome
from bot.services.tables import TableService
from tests.services.conftest import ANA, BEN, passive_payload, user_to_act
from tests.services.test_replays import DM, _finished  # pyright: ignore[reportPrivateUsage]


@pytest.fixture(autouse=True)
def expert_here(quick_expert: None) -> None:
    """The expert at a fiftieth of its budget, in this process."""


async def _replay(svc: TableService, table_id: int, pick: int, dm: int = DM) -> Outcome:
    choices = await svc.replay_choices(table_id, ANA, 1)
    return await svc.try_another_way(table_id, ANA, 1, choices[pick].seq, dm_channel_id=dm)


def _move(out: Outcome) -> dict[str, object]:
    seat = out.table.seat_of(ANA)
    assert seat is not None
    return passive_payload(out.seat_views[seat])


async def test_another_replay_replaces_an_unfinished_one(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(luck, "AUTOMATIC", True)  # nothing of a replaced replay is kept
    table_id = await _finished(svc)
    first = await _replay(svc, table_id, 0)
    assert user_to_act(first) == ANA and not first.others
    old = first.table
    second = await _replay(svc, table_id, -1)  # the first left unfinished
    # The new one plays; the old one ended in the same call, and is shown with it.
    assert second.table.status == "playing" and user_to_act(second) == ANA
    [ended] = second.others
    assert ended.table.id == old.id
    assert (ended.table.status, ended.table.end_reason) == ("abandoned", "replaced")
    stored = await svc.get_table(old.id)
    assert (stored.status, stored.end_reason) == ("abandoned", "replaced")
    assert [t.id for t in await svc.active_tables_for_user(ANA)] == [second.table.id]
    # A practice table: no result, no luck row, the user's stats untouched.
    await svc.luck_settled()
    assert await svc.store.game_results(old.id) == []
    assert await luck_db.get(svc.db, old.id, 1, old.seat_of(ANA) or 0) is None
    assert (await svc.skill(ANA)).deals == 1  # the original deal's only
    # The old replay's buttons (stale or crafted) are refused with the reason; nothing moves.
    with pytest.raises(WrongState, match="replay_replaced"):
        await svc.act(old.id, ANA, _move(first))
    assert (await svc.get_table(old.id)).seq == stored.seq
    done = await svc.act(second.table.id, ANA, _move(second))  # the new one plays on
    assert done.table.seq > second.table.seq


async def test_two_clicks_at_once_leave_one_replay(svc: TableService) -> None:
    table_id = await _finished(svc)
    await _replay(svc, table_id, 0)  # an unfinished one, replaced by both
    made = await asyncio.gather(_replay(svc, table_id, 0), _replay(svc, table_id, -1))
    live = await svc.active_tables_for_user(ANA)
    assert len(live) == 1 and live[0].status == "playing"
    # One after the other: the later replaced the earlier; every ended one is whole.
    assert {o.table.id for o in made} >= {live[0].id}
    for out in made:
        table = await svc.get_table(out.table.id)
        if table.id != live[0].id:
            assert (table.status, table.end_reason) == ("abandoned", "replaced")
    assert sum(len(o.others) for o in made) == 2


async def test_a_daily_deal_replaces_a_replay_but_is_never_replaced(
    salted: TableService,
) -> None:
    svc = salted
    table_id = await _finished(svc)
    replay = await _replay(svc, table_id, 0)
    daily = await svc.start_daily(ANA, "Ana", "la_morte", guild_id=None, dm_channel_id=DM)
    assert daily.table.daily is not None and daily.table.status == "playing"
    assert [o.table.id for o in daily.others] == [replay.table.id]
    assert (await svc.get_table(replay.table.id)).end_reason == "replaced"
    # The daily deal under way refuses a replay, and stays as it was.
    with pytest.raises(WrongState, match="replay_dm_busy"):
        await _replay(svc, table_id, 0)
    assert (await svc.get_table(daily.table.id)).seq == daily.table.seq


async def test_nobody_replaces_another_users_table(svc: TableService) -> None:
    table_id = await _finished(svc)
    choices = await svc.replay_choices(table_id, BEN, 1)
    bens = await svc.try_another_way(table_id, BEN, 1, choices[0].seq, dm_channel_id=DM + 1)
    with pytest.raises(WrongState, match="replay_dm_busy"):  # Ben's DM channel, crafted
        await _replay(svc, table_id, 0, dm=DM + 1)
    assert (await svc.get_table(bens.table.id)).status == "playing"
