"""The daily deal's SQL on both backends: the one-attempt rule, results written with the
table's commit, boards, standings and percentiles, streak days, the salt kept once, and the
announcement claims (issue 20)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from bot.db import daily
from bot.db.database import Database
from bot.db.tables import SeatRecord, TableStore

DAY = "2026-11-26"
GAME = "french_tarot"
CHANNELS = itertools.count(10_000)  # a DM channel holds one open table: one each here


def marker(user: int) -> Callable[[str, str], str]:
    """A stand-in for the services' keyed marker of ``user``'s deals."""
    return lambda day, game: f"marker-{user}-{day}-{game}"


async def new_attempt(
    db: Database,
    user: int,
    *,
    guild: int = 7,
    day: str = DAY,
    game: str = GAME,
    mark: str | None = None,
) -> int:
    store = TableStore(db)
    return await store.create(
        guild_id=0,
        channel_id=next(CHANNELS),
        game_id=game,
        owner_id=user,
        players=4,
        options={},
        seed=42,
        rules_version=1,
        seats=[SeatRecord(0, user, f"u{user}")]
        + [SeatRecord(i, None, f"Bot {i}", is_bot=True) for i in (1, 2, 3)],
        now=1.0,
        level="expert",
        daily_claim=daily.Claim(day, game, user, guild, 0, f"u{user}", mark),
    )


async def finish(db: Database, table_id: int, score: int, *, resigned: bool = False) -> None:
    async with db.transaction() as conn:
        await daily.record_result(
            conn, table_id, daily.Result("finished", score, resigned), float(table_id)
        )
        await conn.execute("UPDATE tables SET status = 'finished' WHERE id = ?", (table_id,))


async def test_one_attempt_per_player_day_and_game(db: Database) -> None:
    table = await new_attempt(db, 1)
    with pytest.raises(daily.AlreadyPlayed):
        await new_attempt(db, 1)
    # Nothing of the refused one was written: no second table either.
    async with db.read() as conn:
        row = await conn.fetchone("SELECT COUNT(*) FROM tables")
    assert row is not None and row[0] == 1
    await new_attempt(db, 1, game="la_morte")  # another game
    await new_attempt(db, 1, day="2026-11-27")  # another day
    found = await daily.attempt(db, DAY, GAME, 1)
    assert found is not None and found.table_id == table and found.status == "playing"
    assert (await TableStore(db).get(table)).daily_date == DAY  # type: ignore[union-attr]
    assert [a.game_id for a in await daily.playing(db, 1)] == [GAME, "la_morte", GAME]


async def test_boards_standings_and_percentiles(db: Database) -> None:
    scores = {1: 30, 2: 30, 3: -10, 4: 80, 5: 5}
    tables = {u: await new_attempt(db, u, guild=7 if u <= 3 else 8) for u in scores}
    await new_attempt(db, 6)  # still playing: on no board
    for u, s in scores.items():
        await finish(db, tables[u], s, resigned=u == 5)
    world = await daily.board(db, DAY, GAME)
    assert world.players == 5
    assert [(e.user_id, e.score) for e in world.top] == [
        (4, 80),
        (1, 30),
        (2, 30),
        (5, 5),
        (3, -10),
    ]
    assert world.top[3].resigned
    server = await daily.board(db, DAY, GAME, guild_id=7)
    assert server.players == 3 and {e.user_id for e in server.top} == {1, 2, 3}
    assert (await daily.board(db, DAY, GAME, size=2)).top[0].user_id == 4
    st = await daily.standing(db, DAY, GAME, 30)
    assert (st.rank, st.players, st.below, st.tied) == (2, 5, 2, 1)
    assert st.percentile == pytest.approx(100 * 2.5 / 4)
    assert (await daily.standing(db, DAY, GAME, 80)).percentile == 100.0
    assert (await daily.standing(db, DAY, GAME, -10)).percentile == 0.0
    assert (await daily.standing(db, DAY, GAME, 30, 7)).rank == 1
    assert sorted(await daily.percentiles(db, 1)) == [pytest.approx(62.5)]
    alone = await daily.standing(db, "2030-01-01", GAME, 0)
    assert alone.players == 0 and alone.percentile == 100.0


async def test_finished_days_and_idle_tables(db: Database) -> None:
    for day in ("2026-11-24", "2026-11-25", "2026-11-26"):
        await finish(db, await new_attempt(db, 1, day=day), 1)
    await finish(db, await new_attempt(db, 1, day="2026-11-26", game="la_morte"), 1)
    assert await daily.finished_days(db, 1) == ["2026-11-26", "2026-11-25", "2026-11-24"]
    assert await daily.finished_days(db, 1, "la_morte") == ["2026-11-26"]
    # Daily tables still playing and untouched (the lobby status here: none is playing yet).
    assert await daily.idle_tables(db, 1e12) == []


async def test_forgetting_a_player_keeps_the_boards(db: Database) -> None:
    from bot.db import records

    mine = await new_attempt(db, 1)
    await finish(db, mine, 40)
    await finish(db, await new_attempt(db, 1, day="2026-11-25"), 5)  # a day that is over
    await finish(db, await new_attempt(db, 2), 10)
    done = await records.forget(db, 1, "Forgotten player", marker(1), DAY)
    assert done.open_tables == ()
    assert await daily.attempt(db, DAY, GAME, 1) is None
    board = await daily.board(db, DAY, GAME)
    assert board.players == 2 and board.top[0].name == "Forgotten player"
    assert board.top[0].user_id < 0
    assert (await daily.standing(db, DAY, GAME, 10)).percentile == 0.0
    # Today's deal stays played (its marker), the past day's leaves none.
    assert await daily.marked(db, marker(1)(DAY, GAME))
    assert not await daily.marked(db, marker(1)("2026-11-25", GAME))
    with pytest.raises(daily.PlayedBeforeForgetting):
        await new_attempt(db, 1, mark=marker(1)(DAY, GAME))
    await new_attempt(db, 1, game="la_morte", mark=marker(1)(DAY, "la_morte"))
    assert await daily.drop_markers(db, DAY) == 0  # today's is kept while the day lasts
    assert await daily.drop_markers(db, "2026-11-27") == 1
    await new_attempt(db, 1, mark=marker(1)(DAY, GAME))


async def test_salt_is_made_once(db: Database) -> None:
    first = await daily.salt(db, "first salt", 1.0)
    assert first == "first salt"
    assert await daily.salt(db, "second salt", 2.0) == "first salt"


async def test_announcements_are_claimed_once_a_day(db: Database) -> None:
    await daily.set_channel(db, 7, 70, 1.0)
    await daily.set_channel(db, 8, 80, 1.0)
    await daily.set_channel(db, 8, 81, 2.0)  # moved
    assert await daily.channel(db, 8) == 81
    assert await daily.unposted(db, DAY) == [(7, 70), (8, 81)]
    assert await daily.claim_post(db, 7, DAY, 70, 3.0)
    assert not await daily.claim_post(db, 7, DAY, 70, 3.0)  # another process, same day
    assert await daily.unposted(db, DAY) == [(8, 81)]
    await daily.release_post(db, 7, DAY)  # the post failed: a later round retries
    assert await daily.claim_post(db, 7, DAY, 70, 4.0)
    await daily.set_channel(db, 8, None, 5.0)
    assert await daily.channel(db, 8) is None
    assert await daily.unposted(db, "2026-11-27") == [(7, 70)]
