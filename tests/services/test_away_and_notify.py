"""Away seats, turn notifications and the outbox at the service layer, on a real SQLite file
with a settable clock.

Away seats (issue 14): a human the computer plays for after two timeouts is not present, so
handing the last present seat over (resigning, being replaced, timing out) or ending the
table closes it unrated at once — computers never play the rest of a match in one call.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.engine.registry import get_rules, implemented
from bot.services.errors import InvalidRequest
from bot.services.life import REPLACE_AFTER, Notification
from bot.services.models import Outcome
from bot.services.step import AWAY_TAKEOVER
from bot.services.tables import TableService
from tests.services.conftest import (
    ANA,
    BEN,
    CAL,
    CHANNEL,
    GUILD,
    Clock,
    passive_payload,
    user_to_act,
)

GAMES = implemented()
MAX_NEW_ENTRIES = 10  # a closing call logs a handful of entries, never a match's worth
STEP_LIMIT = 400  # human decisions a search may take before the test gives up


# ---- helpers --------------------------------------------------------------------------------


async def _two_humans(
    svc: TableService, game: str, clock: str = "normal", seed: int = 7
) -> Outcome:
    """ANA (host, seat 0), computers, then BEN in the last seat; the game's largest table and
    default (long) options."""
    players = get_rules(game).max_players
    t = await svc.open_lobby(
        GUILD, CHANNEL, ANA, "Ana", game, players, {}, players - 2, clock=clock
    )
    await svc.join(t.id, BEN, "Ben")
    return await svc.start(t.id, ANA, seed=seed)


def _seat(out: Outcome, user: int) -> int:
    seat = out.table.seat_of(user)
    assert seat is not None
    return seat


def _to_act(out: Outcome) -> int:
    assert out.table.status == "playing"
    assert out.public is not None and out.public.to_act is not None
    return out.public.to_act


async def _act(svc: TableService, out: Outcome) -> Outcome:
    """The human to move makes a simple legal decision."""
    seat = _to_act(out)
    return await svc.act(out.table.id, user_to_act(out), passive_payload(out.seat_views[seat]))


async def _expire(svc: TableService, clock: Clock, out: Outcome) -> Outcome:
    """Let the current human turn run out; the sweep acts for them."""
    assert out.table.turn_deadline is not None
    clock.now = out.table.turn_deadline + 1
    report = await svc.sweep()
    [expired] = report.expired
    assert expired.table.id == out.table.id
    return expired


async def _make_away(svc: TableService, clock: Clock, out: Outcome, away: int) -> Outcome:
    """Time ``away`` out twice in a row (the computer then plays them); the other human
    acts whenever it is their turn."""
    for _ in range(STEP_LIMIT):
        if out.table.seats[_seat(out, away)].expiries >= AWAY_TAKEOVER:
            return out
        if user_to_act(out) == away:
            out = await _expire(svc, clock, out)
        else:
            out = await _act(svc, out)
    raise AssertionError("the player never timed out twice")


class Before:
    """The table just before a closing call."""

    def __init__(self, out: Outcome) -> None:
        self.seq = out.table.seq
        self.deals_played = out.deals_played


async def _assert_closed_unrated(
    svc: TableService, out: Outcome, before: Before, *, deal_may_end: bool = False
) -> None:
    """The call ended the table unrated, without computers playing on."""
    tid = out.table.id
    row = await svc.store.get(tid)
    assert row is not None
    assert out.table.status == row.status == "abandoned"
    assert await svc.store.game_results(tid) == []
    assert row.turn_deadline is None and row.notify_at is None
    new = [e for e in await svc.store.log(tid) if e.seq > before.seq]
    assert row.seq == before.seq + max(1, len(new))  # a change with no entry moves seq too
    assert len(new) < MAX_NEW_ENTRIES, [(e.kind, e.seat, e.payload) for e in new]
    assert [e for e in new if e.kind == "act" and e.payload.get("by") == "ai"] == []
    assert [e for e in new if e.kind == "deal"] == []
    # A timed-out decision may be a deal's last card; nothing beyond it is played.
    assert out.deals_played <= before.deals_played + (1 if deal_may_end else 0)
    assert not out.finished
    assert (await svc.sweep(row.updated_at + 10_000)).expired == ()  # nothing left to run


# ---- away seats are absent (issue 14) -------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
async def test_resigning_beside_an_away_player_abandons(
    svc: TableService, clock: Clock, game: str
) -> None:
    out = await _make_away(svc, clock, await _two_humans(svc, game), ANA)
    assert user_to_act(out) == BEN  # the only one left deciding
    before = Before(out)
    out = await svc.resign(out.table.id, BEN)
    await _assert_closed_unrated(svc, out, before)
    assert out.table.seats[_seat_of(out, BEN)].resigned


@pytest.mark.parametrize("game", GAMES)
async def test_replacing_the_last_present_player_abandons(
    svc: TableService, clock: Clock, game: str
) -> None:
    # The host (ANA) is away; the game has waited on the other player (BEN) long enough that
    # he counts as away too, and the host hands his seat to a computer.
    out = await _make_away(svc, clock, await _two_humans(svc, game), ANA)
    assert user_to_act(out) == BEN
    clock.now += REPLACE_AFTER
    before = Before(out)
    out = await svc.replace_player(out.table.id, ANA, BEN, admin=False)
    await _assert_closed_unrated(svc, out, before)


@pytest.mark.parametrize("game", GAMES)
async def test_admin_ending_a_table_with_an_away_player(
    svc: TableService, clock: Clock, game: str
) -> None:
    out = await _make_away(svc, clock, await _two_humans(svc, game), BEN)
    before = Before(out)
    out = await svc.end_table(out.table.id, CAL, admin=True)
    await _assert_closed_unrated(svc, out, before)


@pytest.mark.parametrize("game", GAMES)
async def test_the_last_present_player_timing_out_abandons(
    svc: TableService, clock: Clock, game: str
) -> None:
    out = await _two_humans(svc, game)
    tid = out.table.id
    for _ in range(STEP_LIMIT):
        present = [
            s.seat for s in out.table.seats if s.user_id is not None and s.expiries < AWAY_TAKEOVER
        ]
        assert present, "a table with nobody present must already be closed"
        before = Before(out)
        out = await _expire(svc, clock, out)
        if out.table.status != "playing":
            break
    else:
        raise AssertionError("the table never closed")
    await _assert_closed_unrated(svc, out, before, deal_may_end=True)
    row = await svc.store.get(tid)
    assert row is not None
    assert all(s.expiries >= AWAY_TAKEOVER for s in row.seats if s.user_id is not None)
    new = [e for e in await svc.store.log(tid) if e.seq > before.seq]
    assert [e.payload.get("by") for e in new if e.kind == "act"] == ["timeout"]


def _seat_of(out: Outcome, user: int) -> int:
    return next(s.seat for s in out.table.seats if s.user_id == user)


# ---- turn notifications ---------------------------------------------------------------------

NOTIFY_GAME = "la_morte"


async def _act_until(
    svc: TableService, out: Outcome, want: Callable[[int, Outcome], bool]
) -> Outcome:
    """Simple humans act until ``want(actor, outcome)`` holds after one of their actions."""
    for _ in range(STEP_LIMIT):
        actor = user_to_act(out)
        out = await _act(svc, out)
        assert not out.finished, "the game ended before the situation arose"
        if want(actor, out):
            return out
    raise AssertionError("the situation never arose")


def _handoff(src: int, dst: int) -> Callable[[int, Outcome], bool]:
    return lambda actor, out: actor == src and user_to_act(out) == dst


async def _row_notify(svc: TableService, table_id: int) -> tuple[float | None, int | None]:
    row = await svc.store.get(table_id)
    assert row is not None
    return row.notify_at, row.notify_seat


async def test_the_start_schedules_no_notification(svc: TableService, clock: Clock) -> None:
    out = await _two_humans(svc, NOTIFY_GAME, clock="off")
    assert out.table.notify_at is None
    assert await _row_notify(svc, out.table.id) == (None, None)
    assert (await svc.sweep(clock.now + 10_000)).notifications == ()


async def test_a_turn_after_another_decision_is_notified_once(
    svc: TableService, clock: Clock
) -> None:
    out = await _two_humans(svc, NOTIFY_GAME, clock="off")
    tid = out.table.id
    out = await _act_until(svc, out, _handoff(ANA, BEN))
    ben = _seat(out, BEN)
    assert await _row_notify(svc, tid) == (clock.now + 20, ben)
    assert (out.table.notify_at, out.table.notify_seat) == (clock.now + 20, ben)
    assert (await svc.sweep(clock.now + 19)).notifications == ()
    [note] = (await svc.sweep(clock.now + 21)).notifications
    assert note == Notification(note.table, ben, BEN) and note.table.id == tid
    assert (await svc.sweep(clock.now + 22)).notifications == ()  # at most once a turn
    assert (await svc.sweep(clock.now + 10_000)).notifications == ()


async def test_own_consecutive_decisions_are_not_notified(svc: TableService) -> None:
    out = await _two_humans(svc, NOTIFY_GAME, clock="off")
    out = await _act_until(svc, out, _handoff(ANA, ANA))
    assert await _row_notify(svc, out.table.id) == (None, None)


async def test_a_players_delay_decides_when(svc: TableService, clock: Clock) -> None:
    out = await _two_humans(svc, NOTIFY_GAME, clock="off")
    tid = out.table.id
    assert await svc.notify_delay(BEN) == 20
    assert await svc.set_notify_delay(BEN, 0) == 0
    out = await _act_until(svc, out, _handoff(ANA, BEN))
    assert await _row_notify(svc, tid) == (clock.now, _seat(out, BEN))
    [note] = (await svc.sweep(clock.now)).notifications
    assert note.user_id == BEN

    assert await svc.set_notify_delay(BEN, None) is None
    assert await svc.notify_delay(BEN) is None
    clock.now += 1
    out = await _act_until(svc, out, _handoff(ANA, BEN))
    assert await _row_notify(svc, tid) == (None, None)
    assert (await svc.sweep(clock.now + 10_000)).notifications == ()

    for bad in (5000, -1):
        with pytest.raises(InvalidRequest):
            await svc.set_notify_delay(BEN, bad)
    assert await svc.notify_delay(BEN) is None  # unchanged
    assert await svc.set_notify_delay(BEN, 3600) == 3600
    clock.now += 1
    out = await _act_until(svc, out, _handoff(ANA, BEN))
    assert await _row_notify(svc, tid) == (clock.now + 3600, _seat(out, BEN))


async def test_acting_in_time_clears_the_pending_notification(
    svc: TableService, clock: Clock
) -> None:
    out = await _two_humans(svc, NOTIFY_GAME, clock="off")
    tid = out.table.id
    out = await _act_until(svc, out, _handoff(ANA, BEN))
    ben = _seat(out, BEN)
    due = clock.now + 20
    assert await _row_notify(svc, tid) == (due, ben)
    clock.now += 5
    out = await _act(svc, out)  # BEN acts within the delay
    notify_at, notify_seat = await _row_notify(svc, tid)
    assert notify_seat != ben
    if notify_seat is None:
        assert notify_at is None
    else:  # ANA's turn follows BEN's decision: hers is scheduled from now
        assert (notify_at, notify_seat) == (clock.now + 20, _seat(out, ANA))
    notes = (await svc.sweep(due + 1)).notifications
    assert [n.user_id for n in notes if n.user_id == BEN] == []


# ---- the outbox -----------------------------------------------------------------------------


async def _unshown(svc: TableService, table_id: int) -> bool:
    return table_id in await svc.unshown_tables()


async def test_unshown_states_are_rebuilt_until_marked_shown(svc: TableService) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "la_morte", 4, {}, 2, clock="off")
    await svc.join(t.id, BEN, "Ben")
    out = await svc.start(t.id, ANA, seed=11)
    tid = out.table.id
    row = await svc.store.get(tid)
    assert row is not None and row.shown_seq < row.seq == out.table.seq
    assert await _unshown(svc, tid)
    pending = await svc.unshown_outcome(tid)
    assert pending is not None and pending.table.seq == row.seq
    assert pending.new_deal
    await svc.mark_shown(tid, row.seq)
    assert await svc.unshown_outcome(tid) is None
    assert not await _unshown(svc, tid)

    # Several calls, none shown, until a deal ends: the rebuild says what they all said.
    ended = []
    for _ in range(STEP_LIMIT):
        out = await _act(svc, out)
        assert await _unshown(svc, tid)
        ended += out.ended_deals
        if ended:
            break
    else:
        raise AssertionError("no deal ended")
    pending = await svc.unshown_outcome(tid)
    assert pending is not None
    assert pending.table.seq == out.table.seq and pending.table.shown_seq == row.seq
    assert [(d.number, d.result.outcome, d.result.deltas) for d in pending.ended_deals] == [
        (d.number, d.result.outcome, d.result.deltas) for d in ended
    ]
    assert pending.totals == out.totals and pending.deals_played == out.deals_played
    assert pending.public == out.public
    await svc.mark_shown(tid, out.table.seq)
    assert await svc.unshown_outcome(tid) is None
    assert not await _unshown(svc, tid)
    await svc.mark_shown(tid, row.seq)  # never moves back
    assert await svc.unshown_outcome(tid) is None


async def test_an_unreachable_table_closes_unrated(svc: TableService) -> None:
    out = await _two_humans(svc, NOTIFY_GAME, clock="normal")
    tid = out.table.id
    before = Before(out)
    closed = await svc.close_unreachable(tid)
    assert closed is not None
    await _assert_closed_unrated(svc, closed, before)
    assert await svc.close_unreachable(tid) is None  # already ended

    lobby = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", NOTIFY_GAME, 3, {})
    closed = await svc.close_unreachable(lobby.id)
    assert closed is not None
    assert (await svc.get_table(lobby.id)).status == "abandoned"
    assert await svc.close_unreachable(lobby.id) is None


async def test_ending_a_shown_table_is_unshown_again(svc: TableService) -> None:
    out = await _two_humans(svc, NOTIFY_GAME, clock="off")
    tid = out.table.id
    await svc.mark_shown(tid, out.table.seq)
    ended = await svc.end_table(tid, CAL, admin=True)
    # A crash before publishing must leave the abandoned state to re-publish.
    assert ended.table.seq > out.table.seq
    assert await _unshown(svc, tid)
    pending = await svc.unshown_outcome(tid)
    assert pending is not None and pending.table.status == "abandoned"
