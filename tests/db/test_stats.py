"""Leaderboard aggregate: humans only, per server and game, ranked by wins then points."""

from __future__ import annotations

from bot.db.database import Database
from bot.db.stats import BoardRow, leaderboard
from bot.db.tables import GameResultRecord, NewEntry, SeatRecord, TableStore


async def _finished_game(
    store: TableStore,
    guild_id: int,
    game_id: str,
    results: list[GameResultRecord],
    channel_id: int,
    now: float,
) -> None:
    table_id = await store.create(
        guild_id=guild_id,
        channel_id=channel_id,
        game_id=game_id,
        owner_id=1,
        players=4,
        options={},
        seed=1,
        rules_version=1,
        seats=[SeatRecord(r.seat, r.user_id, r.name) for r in results],
        now=now,
    )
    await store.commit(
        table_id,
        expected_seq=0,
        expected_status="lobby",
        entries=[NewEntry("deal", None, {})],
        snapshot={},
        status="finished",
        now=now,
        game_results=results,
    )


async def test_leaderboard(db: Database) -> None:
    store = TableStore(db)
    g = GameResultRecord
    await _finished_game(
        store,
        1,
        "la_morte",
        [g(0, 10, "Ana", 55, True), g(1, 11, "Ben", 30, False), g(2, None, "Bot", 60, False)],
        channel_id=1,
        now=100.0,
    )
    await _finished_game(
        store,
        1,
        "la_morte",
        [g(0, 10, "Ana", 20, False), g(1, 11, "Benny", 52, True), g(2, 12, "Cal", 51, False)],
        channel_id=2,
        now=200.0,
    )
    await _finished_game(
        store, 1, "la_morte", [g(0, 12, "Cal", 50, True), g(1, 10, "Ana", 3, False)], 3, 300.0
    )
    await _finished_game(store, 2, "la_morte", [g(0, 10, "Ana", 99, True)], 4, 400.0)  # other guild
    await _finished_game(store, 1, "french_tarot", [g(0, 11, "Ben", 99, True)], 5, 500.0)

    rows = await leaderboard(db, 1, "la_morte")
    assert rows == [
        BoardRow(12, "Cal", 2, 1, 101),
        BoardRow(11, "Benny", 2, 1, 82),  # latest name
        BoardRow(10, "Ana", 3, 1, 78),
    ]
    assert await leaderboard(db, 1, "la_morte", limit=1) == rows[:1]
    assert await leaderboard(db, 3, "la_morte") == []
