"""Try another way (issue 33) in the services, on a real database: a finished deal replayed in
the player's DMs from one of their own decisions, with the same cards and everything before it
as it was, against the expert; unrated (no result, rating, statistic nor luck row); refused to
anyone else, for a decision not theirs and from another server. An unfinished replay is
replaced by the next one: ``test_replays_replaced``."""

from __future__ import annotations

import pytest

from bot.db import luck as luck_db
from bot.services import luck
from bot.services.bounds import Where
from bot.services.errors import Forbidden, InvalidRequest, NotSeated, WrongState
from bot.services.tables import TableService
from tests.services.conftest import ANA, BEN, CAL, CHANNEL, GUILD, user_to_act
from tests.services.test_coach import _play_out  # pyright: ignore[reportPrivateUsage]

GAME, OPTIONS = "la_morte", {"round_limit": 1}
DM = 777  # Ana's DM channel
HERE = Where(GUILD, CHANNEL)


@pytest.fixture(autouse=True)
def expert_here(quick_expert: None) -> None:
    """The expert at a fiftieth of its budget, in this process."""


async def _finished(svc: TableService) -> int:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", GAME, 3, OPTIONS, computers=1)
    await svc.join(t.id, BEN, "Ben")
    out = await _play_out(svc, await svc.start(t.id, ANA, seed=11))
    assert out.finished
    await svc.luck_settled()
    return t.id


async def test_a_deal_is_replayed_from_the_players_decision(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(luck, "AUTOMATIC", True)  # a replay must add no luck row
    table_id = await _finished(svc)
    before = await svc.store.get(table_id)
    results = await svc.store.game_results(table_id)
    choices = await svc.replay_choices(table_id, ANA, 1, where=HERE)
    assert len(choices) >= 2 and [d.seq for d in choices] == sorted(d.seq for d in choices)
    chosen = choices[len(choices) // 2]
    out = await svc.try_another_way(table_id, ANA, 1, chosen.seq, dm_channel_id=DM, where=HERE)
    replay = out.table
    assert replay.replay == (table_id, 1) and replay.in_dms and replay.channel_id == DM
    assert (replay.hints, replay.level, replay.guild_id) == (True, "expert", 0)
    assert [s.user_id for s in replay.seats].count(ANA) == 1
    assert all(s.is_bot for s in replay.seats if s.user_id != ANA)  # the expert elsewhere
    # The same cards, everything before it as it was: Ana faces the very same decision.
    seat = chosen.view.seat
    assert out.public is not None and out.public.to_act == seat and user_to_act(out) == ANA
    view = out.seat_views[seat]
    assert view.hand == chosen.view.hand and view.legal == chosen.view.legal
    assert view.public.history == chosen.view.public.history

    done = await _play_out(svc, out)
    assert done.finished and done.deals_played == 1  # the one deal, then over
    await svc.luck_settled()
    # Unrated and apart: no result, no luck row, the original table untouched.
    assert await svc.store.game_results(replay.id) == []
    assert await luck_db.get(svc.db, replay.id, 1, seat) is None
    assert (await svc.skill(ANA)).deals == 1  # the original deal's only
    after = await svc.store.get(table_id)
    assert after is not None and before is not None and after.seq == before.seq
    assert await svc.store.game_results(table_id) == results
    with pytest.raises(WrongState, match="rematch_replay"):
        await svc.rematch(replay.id, ANA)


async def test_only_ones_own_decision_from_the_table(
    svc: TableService,
) -> None:
    table_id = await _finished(svc)
    choices = await svc.replay_choices(table_id, ANA, 1)
    with pytest.raises(NotSeated):
        await svc.try_another_way(table_id, CAL, 1, choices[0].seq, dm_channel_id=DM + 1)
    bens = await svc.replay_choices(table_id, BEN, 1)
    with pytest.raises(InvalidRequest, match="replay_no_such_decision"):
        await svc.try_another_way(table_id, ANA, 1, bens[0].seq, dm_channel_id=DM)
    elsewhere = Where(GUILD + 1, CHANNEL)  # a crafted id used on another server
    with pytest.raises(Forbidden, match="not_here"):
        await svc.try_another_way(
            table_id, ANA, 1, choices[0].seq, dm_channel_id=DM, where=elsewhere
        )
    with pytest.raises(WrongState, match="deal_not_over"):
        await svc.replay_choices(table_id, ANA, 2)
    # Another one in the same DMs replaces it (``test_replays_replaced``).
