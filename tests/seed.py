"""Finished tables written straight to a database, the way ``TableCore._commit`` writes one."""

from __future__ import annotations

from collections.abc import Sequence

from bot.db.ratings import Rater
from bot.db.tables import GameResultRecord, NewEntry, SeatRecord, TableStore

COMPUTER = -1  # the rated entity of the standard computer level (bot.services.ratings)


def plain_marker(day: str, game_id: str) -> str:
    """A stand-in for forget-me's keyed daily marker (``bot.services.daily.played_marker``)."""
    return f"{day}:{game_id}"


async def finished_table(
    store: TableStore,
    seats: Sequence[tuple[int | None, str, int, int]],  # (user or None, name, score, place)
    *,
    guild_id: int,
    channel_id: int,
    now: float,
    rater: Rater | None,
    game_id: str = "la_morte",
    deals: int = 2,
) -> int:
    """Create a table with these seats and finish it at ``now``; first places win."""
    table_id = await store.create(
        guild_id=guild_id,
        channel_id=channel_id,
        game_id=game_id,
        owner_id=next((u for u, *_ in seats if u is not None), 1),
        players=len(seats),
        options={},
        seed=1,
        rules_version=1,
        seats=[SeatRecord(i, u, name, is_bot=u is None) for i, (u, name, _, _) in enumerate(seats)],
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
        game_results=[
            GameResultRecord(
                i, u, name, score, place == 1, COMPUTER if u is None else u, place, deals
            )
            for i, (u, name, score, place) in enumerate(seats)
        ],
        rater=rater,
    )
    return table_id
