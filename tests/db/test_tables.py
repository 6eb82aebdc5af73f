"""TableStore: lobby rows, the seq-guarded atomic commit, the log and results."""

from __future__ import annotations

from typing import Any

import pytest

from bot.db.database import Database
from bot.db.outbox import Outbox
from bot.db.tables import (
    ChannelBusy,
    DealResultRecord,
    GameResultRecord,
    NewEntry,
    SeatRecord,
    SeatTaken,
    StaleState,
    TableCounts,
    TableStore,
)


async def _lobby(store: TableStore, channel_id: int = 20, seats: int = 2) -> int:
    return await store.create(
        guild_id=1,
        channel_id=channel_id,
        game_id="la_morte",
        owner_id=100,
        players=4,
        options={"target": 50, "round_limit": None},
        seed=123,
        rules_version=1,
        seats=[SeatRecord(i, 100 + i, f"P{i}") for i in range(seats)],
        now=1000.0,
    )


async def _start(store: TableStore, table_id: int) -> int:
    return await store.commit(
        table_id,
        expected_seq=0,
        expected_status="lobby",
        entries=[NewEntry("deal", None, {"deal_no": 1})],
        snapshot={"state": 1},
        status="playing",
        now=1001.0,
        seed=77,
    )


async def test_create_and_load(db: Database) -> None:
    store = TableStore(db)
    table_id = await _lobby(store)
    rec = await store.get(table_id)
    assert rec is not None
    assert (rec.status, rec.seq, rec.snapshot, rec.seed, rec.players) == ("lobby", 0, None, 123, 4)
    assert rec.options == {"target": 50, "round_limit": None}
    assert [(s.seat, s.user_id, s.name, s.is_bot) for s in rec.seats] == [
        (0, 100, "P0", False),
        (1, 101, "P1", False),
    ]
    assert (await store.open_in_channel(20)) == rec
    assert [r.id for r in await store.open_for_user(101)] == [table_id]
    assert await store.get(table_id + 1) is None


async def test_one_open_table_per_channel(db: Database) -> None:
    store = TableStore(db)
    table_id = await _lobby(store)
    with pytest.raises(ChannelBusy):
        await _lobby(store)
    await store.update_lobby(table_id, owner_id=100, seats=[], now=1.0, abandon=True)
    await _lobby(store)  # an abandoned table frees the channel


async def test_same_user_cannot_sit_twice(db: Database) -> None:
    store = TableStore(db)
    table_id = await _lobby(store)
    seats = [SeatRecord(0, 100, "P0"), SeatRecord(1, 100, "again")]
    with pytest.raises(SeatTaken):
        await store.update_lobby(table_id, owner_id=100, seats=seats, now=1.0)
    rec = await store.get(table_id)
    assert rec is not None and len(rec.seats) == 2  # rolled back


async def test_commit_appends_and_snapshots_atomically(db: Database) -> None:
    store = TableStore(db)
    table_id = await _lobby(store)
    assert await _start(store, table_id) == 1
    entries = [NewEntry("act", 0, {"type": "drop", "seat": 0}), NewEntry("act", 1, {"x": 1})]
    seq = await store.commit(
        table_id,
        expected_seq=1,
        expected_status="playing",
        entries=entries,
        snapshot={"state": 2},
        status="playing",
        now=1002.0,
        deal_results=[DealResultRecord(1, "played", (3, 0, 1, 2), {"made": True})],
    )
    assert seq == 3
    rec = await store.get(table_id)
    assert rec is not None
    assert (rec.seq, rec.snapshot, rec.status, rec.seed) == (3, {"state": 2}, "playing", 77)
    log = await store.log(table_id)
    assert [(e.seq, e.kind, e.seat) for e in log] == [
        (1, "deal", None),
        (2, "act", 0),
        (3, "act", 1),
    ]
    assert log[1].payload == {"type": "drop", "seat": 0}
    assert await store.deal_results(table_id) == [
        DealResultRecord(1, "played", (3, 0, 1, 2), {"made": True})
    ]


async def test_stale_seq_is_rejected_and_writes_nothing(db: Database) -> None:
    store = TableStore(db)
    table_id = await _lobby(store)
    await _start(store, table_id)
    with pytest.raises(StaleState):
        await store.commit(
            table_id,
            expected_seq=0,  # someone else already moved the table to seq 1
            expected_status="playing",
            entries=[NewEntry("act", 0, {})],
            snapshot={"state": "stale"},
            status="playing",
            now=2.0,
        )
    with pytest.raises(StaleState):  # wrong status guard too
        await store.commit(
            table_id,
            expected_seq=1,
            expected_status="lobby",
            entries=[NewEntry("act", 0, {})],
            snapshot={"state": "stale"},
            status="playing",
            now=2.0,
        )
    rec = await store.get(table_id)
    assert rec is not None and (rec.seq, rec.snapshot) == (1, {"state": 1})
    assert len(await store.log(table_id)) == 1


async def test_failure_mid_transaction_leaves_nothing(db: Database) -> None:
    """A log row already at seq 3 (a double-applied click from another writer that bypassed
    the seq guard) makes the second insert fail: the row update and the first insert roll back."""
    store = TableStore(db)
    table_id = await _lobby(store)
    await _start(store, table_id)
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO actions (table_id, seq, kind, seat, payload_json, created_at) "
            "VALUES (?, 3, 'act', 0, '{}', 0)",
            (table_id,),
        )
    with pytest.raises(StaleState):
        await store.commit(
            table_id,
            expected_seq=1,
            expected_status="playing",
            entries=[NewEntry("act", 0, {"n": 2}), NewEntry("act", 1, {"n": 3})],
            snapshot={"state": 2},
            status="finished",
            now=5.0,
            game_results=[GameResultRecord(0, 100, "P0", 10, True)],
        )
    rec = await store.get(table_id)
    assert rec is not None
    assert (rec.seq, rec.snapshot, rec.status, rec.finished_at) == (
        1,
        {"state": 1},
        "playing",
        None,
    )
    assert [e.seq for e in await store.log(table_id)] == [1, 3]
    assert await store.game_results(table_id) == []


async def test_finish_writes_game_results_and_closes(db: Database) -> None:
    store = TableStore(db)
    table_id = await _lobby(store)
    await _start(store, table_id)
    results = [
        GameResultRecord(0, 100, "P0", 51, True),
        GameResultRecord(1, None, "Bot Arturo", 20, False),
    ]
    await store.commit(
        table_id,
        expected_seq=1,
        expected_status="playing",
        entries=[NewEntry("act", 0, {})],
        snapshot={"state": "end"},
        status="finished",
        now=9.0,
        turn_deadline=99.0,
        game_results=results,
    )
    rec = await store.get(table_id)
    assert rec is not None
    assert (rec.status, rec.finished_at, rec.turn_deadline) == ("finished", 9.0, None)
    assert await store.game_results(table_id) == results
    assert await store.open_in_channel(20) is None
    assert await store.open_for_user(100) == []
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT DISTINCT guild_id, game_id FROM game_results WHERE table_id = ?", (table_id,)
        )
    assert [tuple(r) for r in rows] == [(1, "la_morte")]


async def test_resign_seats_and_deadlines(db: Database) -> None:
    store = TableStore(db)
    table_id = await _lobby(store)
    await _start(store, table_id)
    await store.commit(
        table_id,
        expected_seq=1,
        expected_status="playing",
        entries=[NewEntry("resign", 1, {"seat": 1})],
        snapshot={"state": 2},
        status="playing",
        now=10.0,
        turn_deadline=70.0,
        resign_seats=[1],
    )
    rec = await store.get(table_id)
    assert rec is not None and [s.resigned for s in rec.seats] == [False, True]
    assert [r.id for r in await store.open_for_user(101)] == []  # resigned: not active
    assert await store.overdue(69.0) == []
    assert await store.overdue(70.0) == [table_id]


async def test_message_and_dm_bookkeeping(db: Database) -> None:
    store = TableStore(db)
    table_id = await _lobby(store)
    await store.set_message(table_id, 555)
    await store.set_dm(table_id, 1, 777, 888, False)
    await store.set_dm(table_id, 0, None, None, True)
    rec = await store.get(table_id)
    assert rec is not None and rec.message_id == 555
    got: list[Any] = [(s.dm_channel_id, s.dm_message_id, s.dm_failed) for s in rec.seats]
    assert got == [(None, None, True), (777, 888, False)]


async def test_counts_of_open_tables_and_the_delivery_backlog(db: Database) -> None:
    store = TableStore(db)
    assert await store.counts() == TableCounts(0, 0, 0, 0)
    lobby = await _lobby(store, channel_id=20)
    playing = await _lobby(store, channel_id=21)
    await _start(store, playing)  # seq 1, shown 0
    assert await store.counts() == TableCounts(1, 1, 1, 1)
    await Outbox(db).mark_shown(playing, 1, None)
    await store.update_lobby(lobby, owner_id=100, seats=[], now=1.0, abandon=True)
    assert await store.counts() == TableCounts(0, 1, 0, 0)
