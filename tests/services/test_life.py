"""Table life at the service layer: turn clocks, timeouts, I'm back, admin controls, settings,
rematch — on a real SQLite file with a settable clock."""

from __future__ import annotations

import pytest

from bot.services.errors import Forbidden, InvalidRequest, NotSeated, WrongState
from bot.services.life import CLOCKS, REPLACE_AFTER
from bot.services.models import Outcome
from bot.services.tables import TableService
from tests.services.conftest import ANA, BEN, CAL, CHANNEL, GUILD, Clock, passive_payload


async def _two_humans(svc: TableService, clock: str = "normal") -> Outcome:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "la_morte", 3, {}, 1, clock=clock)
    await svc.join(t.id, BEN, "Ben")
    return await svc.start(t.id, ANA, seed=3)


def _seat(out: Outcome, user: int) -> int:
    seat = out.table.seat_of(user)
    assert seat is not None
    return seat


async def test_a_deadline_follows_each_human_decision(svc: TableService, clock: Clock) -> None:
    out = await _two_humans(svc)
    assert out.table.turn_clock == CLOCKS["normal"] == 120
    assert out.table.turn_deadline == clock.now + 120
    assert (await svc.store.get(out.table.id)).reminder_at == clock.now + 60  # type: ignore[union-attr]
    none = await _two_humans_elsewhere(svc)
    assert none.table.turn_deadline is None  # clock "off"


async def _two_humans_elsewhere(svc: TableService) -> Outcome:
    t = await svc.open_lobby(GUILD, CHANNEL + 1, CAL, "Cal", "la_morte", 3, {}, 2, clock="off")
    return await svc.start(t.id, CAL, seed=4)


async def test_reminder_once_then_expiry_then_takeover_then_back(
    svc: TableService, clock: Clock
) -> None:
    out = await _two_humans(svc)
    tid = out.table.id
    assert out.public is not None and out.public.to_act is not None
    afk = out.table.seats[out.public.to_act].user_id
    assert afk is not None
    report = await svc.sweep(clock.now + 59)
    assert report.reminders == () and report.expired == ()
    report = await svc.sweep(clock.now + 61)
    assert [r.user_id for r in report.reminders] == [afk] and report.expired == ()
    assert (await svc.sweep(clock.now + 62)).reminders == ()  # never twice

    clock.now += 121
    [expired] = (await svc.sweep()).expired
    seat = _seat(expired, afk)
    assert expired.table.seats[seat].expiries == 1 and expired.table.seats[seat].away
    log = await svc.store.log(tid)
    assert log[-1].payload.get("by") in ("timeout", "ai")

    # Let the other human act until the away player must decide again, then expire it.
    out = expired
    while out.public is not None and out.public.to_act != seat:
        assert out.public.to_act is not None
        user = out.table.seats[out.public.to_act].user_id
        assert user is not None
        out = await svc.act(tid, user, passive_payload(out.seat_views[out.public.to_act]))
    clock.now += 121
    [taken] = (await svc.sweep()).expired
    assert taken.table.seats[seat].expiries == 2
    assert any(e.type == "taken_over" for _, e in taken.events)
    assert taken.public is not None and taken.public.to_act != seat  # the computer plays it

    back = await svc.im_back(tid, afk)
    assert back.table.seats[seat].expiries == 0
    with pytest.raises(WrongState):
        await svc.im_back(tid, afk)
    with pytest.raises(NotSeated):
        await svc.im_back(tid, CAL)


async def test_acting_clears_away(svc: TableService, clock: Clock) -> None:
    out = await _two_humans(svc)
    clock.now += 121
    [out] = (await svc.sweep()).expired
    while out.public is not None and out.public.to_act is not None:
        seat = out.public.to_act
        user = out.table.seats[seat].user_id
        assert user is not None
        was_away = out.table.seats[seat].away
        out = await svc.act(out.table.id, user, passive_payload(out.seat_views[seat]))
        if was_away:
            assert out.table.seats[seat].expiries == 0
            return
    raise AssertionError("the away player never acted")


async def test_only_host_or_admin_replaces_and_ends(svc: TableService, clock: Clock) -> None:
    out = await _two_humans(svc, clock="off")
    tid = out.table.id
    with pytest.raises(Forbidden):
        await svc.replace_player(tid, BEN, ANA)
    with pytest.raises(NotSeated):
        await svc.replace_player(tid, ANA, CAL)
    while out.public is not None and out.public.to_act != _seat_of_user(out, ANA):
        assert out.public.to_act is not None  # Ben's turn: the computer never waits
        out = await svc.act(tid, BEN, passive_payload(out.seat_views[out.public.to_act]))
    clock.now += REPLACE_AFTER  # the game has waited on Ana: she counts as away
    out = await svc.replace_player(tid, BEN, ANA, admin=True)  # an admin may
    assert out.table.seats[_seat_of_user(out, ANA)].resigned and out.table.status == "playing"
    with pytest.raises(Forbidden):
        await svc.end_table(tid, BEN)
    out = await svc.end_table(tid, ANA)  # the host, even after being replaced: she resigns
    assert out.table.status == "abandoned" and out.rated
    places = {g.user_id: g.place for g in await svc.store.game_results(tid)}
    assert places[ANA] == 3
    with pytest.raises(WrongState):
        await svc.end_table(tid, ANA)


def _seat_of_user(out: Outcome, user: int) -> int:
    return next(s.seat for s in out.table.seats if s.user_id == user)


async def test_ending_a_lobby(svc: TableService) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "losers_game", 4, {})
    out = await svc.end_table(t.id, BEN, admin=True)
    assert out.table.status == "abandoned"
    assert await svc.table_in_channel(CHANNEL) is None


async def test_settings_shape_new_tables(svc: TableService) -> None:
    s = await svc.guild_settings(GUILD)
    assert (s.channels, s.turn_clock, s.computers_allowed) == ((), "off", True)
    with pytest.raises(InvalidRequest):
        await svc.update_guild_settings(GUILD, turn_clock="glacial")
    s = await svc.update_guild_settings(
        GUILD, turn_clock="fast", computers_allowed=False, allow_channel=CHANNEL + 5
    )
    assert s.channels == (CHANNEL + 5,) and s.turn_clock == "fast"
    with pytest.raises(Forbidden):
        await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "la_morte", 3, {})
    with pytest.raises(Forbidden):
        await svc.open_lobby(GUILD, CHANNEL + 5, ANA, "Ana", "la_morte", 3, {}, 1)
    t = await svc.open_lobby(GUILD, CHANNEL + 5, ANA, "Ana", "la_morte", 3, {})
    assert t.turn_clock == CLOCKS["fast"]
    assert [x.id for x in await svc.open_tables(GUILD)] == [t.id]
    s = await svc.update_guild_settings(GUILD, any_channel=True, computers_allowed=True)
    assert s.channels == () and s.turn_clock == "fast"  # untouched settings are kept


async def test_rematch_keeps_seats_options_and_clock(svc: TableService) -> None:
    t = await svc.open_lobby(
        GUILD, CHANNEL, ANA, "Ana", "early_french_tarot", 2, {"target": 5}, 1, clock="relaxed"
    )
    out = await svc.start(t.id, ANA, seed=1)
    with pytest.raises(WrongState):
        await svc.rematch(t.id, ANA)  # not finished yet
    while not out.finished:
        assert out.public is not None and out.public.to_act is not None
        out = await svc.act(t.id, ANA, passive_payload(out.seat_views[out.public.to_act]))
    with pytest.raises(Forbidden):
        await svc.rematch(t.id, BEN)
    again = await svc.rematch(t.id, ANA)
    assert again.id != t.id and again.status == "lobby" and again.is_full
    assert again.options == out.table.options and again.turn_clock == CLOCKS["relaxed"]
    assert [(s.user_id, s.name, s.is_bot) for s in again.seats] == [
        (s.user_id, s.name, s.is_bot) for s in out.table.seats
    ]
    with pytest.raises(WrongState):
        await svc.rematch(t.id, ANA)  # the channel is busy with the rematch
