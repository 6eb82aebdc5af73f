"""Stale messages in the outbox (issue 30): turn reminders kept with their channel and their
turn's commit, and each seat's latest "Show my hand" answer."""

from __future__ import annotations

from bot.db.database import Database
from bot.db.outbox import HandView, Outbox, Ping
from bot.db.tables import TableStore
from tests.db.test_tables import _lobby, _start


async def test_pings_go_once_the_table_moves_past_their_turn(db: Database) -> None:
    store = TableStore(db)
    table = await _lobby(store)
    await _start(store, table)
    outbox = Outbox(db)
    await outbox.add_ping(table, 11)  # an old row: no turn, goes at the next delivery
    await outbox.add_ping(table, 12, None, 3)  # a channel ping of the turn at seq 3
    await outbox.add_ping(table, 13, 777, 3)  # a DM reminder of that turn
    await outbox.add_ping(table, 13, 777, 3)  # recorded twice: kept once
    assert await outbox.pings(table, 3) == [Ping(11)]  # the turn at seq 3 is still on
    assert await outbox.pings(table, 4) == [Ping(11), Ping(12), Ping(13, 777)]
    await outbox.drop_ping(table, 13)
    assert await outbox.pings(table, 4) == [Ping(11), Ping(12)]


async def test_a_seat_remembers_its_latest_answer(db: Database) -> None:
    store = TableStore(db)
    table = await _lobby(store)
    await _start(store, table)
    outbox = Outbox(db)
    first = HandView(5, "tok-1", 900, 100.0)
    assert await outbox.remember_view(table, 1, 101, first) is None
    assert await outbox.remember_view(table, 1, 999, HandView(5, "x", 1, 1.0)) is None  # not seated
    second = HandView(5, "tok-2", 901, 200.0)
    assert await outbox.remember_view(table, 1, 101, second) == first  # replaced: to stamp
    # Loaded with the seats: deliveries need no query of their own.
    seat = next(s for s in (await store.get(table)).seats if s.seat == 1)  # type: ignore[union-attr]
    assert (seat.view_token, seat.view_message_id, seat.view_at) == ("tok-2", 901, 200.0)
    assert "tok-2" not in repr(seat)  # a secret while it is valid
    # Forgetting an older token leaves the newer one.
    assert not await outbox.forget_view(table, 1, "tok-1")
    # The sweeper takes those answered before its cut, once.
    assert await outbox.take_expiring_views(150.0) == []
    taken = await outbox.take_expiring_views(250.0)
    assert [(t.table_id, t.seat, t.view) for t in taken] == [(table, 1, second)]
    assert await outbox.take_expiring_views(250.0) == []
    assert not await outbox.forget_view(table, 1, "tok-2")


async def test_a_seat_remembers_its_latest_click_on_its_dm_hand(db: Database) -> None:
    store = TableStore(db)
    table = await _lobby(store)
    await _start(store, table)
    outbox = Outbox(db)

    async def click_of(seat: int) -> tuple[object, ...]:
        record = await store.get(table)
        assert record is not None
        s = next(s for s in record.seats if s.seat == seat)
        assert "tok-" not in repr(s)  # a secret while it is valid
        return (s.click_app_id, s.click_token, s.click_message_id, s.click_at)

    await outbox.remember_click(table, 1, 101, HandView(5, "tok-1", 900, 100.0))
    await outbox.remember_click(table, 1, 999, HandView(5, "tok-x", 1, 1.0))  # not seated
    assert await click_of(1) == (5, "tok-1", 900, 100.0)
    await outbox.remember_click(table, 1, 101, HandView(5, "tok-2", 901, 200.0))
    assert await click_of(1) == (5, "tok-2", 901, 200.0)  # the latest replaces it
    await outbox.forget_click(table, 1, "tok-1")  # an older token: the newer one stays
    assert await click_of(1) == (5, "tok-2", 901, 200.0)
    await outbox.forget_click(table, 1, "tok-2")
    assert await click_of(1) == (None, None, None, None)
    await outbox.remember_click(table, 0, 100, HandView(5, "tok-3", 902, 300.0))
    await outbox.remember_click(table, 1, 101, HandView(5, "tok-4", 903, 300.0))
    await outbox.forget_clicks(table)  # the table ended
    assert await click_of(0) == await click_of(1) == (None, None, None, None)
