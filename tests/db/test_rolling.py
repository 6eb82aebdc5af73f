"""The recent (30-day) boards read precomputed rolling totals (``bot.db.rolling``) and must
equal the direct aggregate of the raw results (``tests/db/rolling_check.py``) at every moment:
over random histories, at the window's edge as the clock moves, before and after the sweeper
rolls (and when the caller's clock is behind it), after forget-me and opt-outs, after
``db copy``, and with two processes finishing games and rolling at once.

The window is unchanged by the precomputation: rolling 30 x 24 hours before ``now``, to the
second (a result finished exactly at ``now - 30 days`` counts, one a moment older does not).
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

import pytest

from bot.db import rolling
from bot.db.backends import open_database
from bot.db.copy import copy_database
from bot.db.database import Database, migrations
from bot.db.ratings import record_finished
from bot.db.stats import METRICS
from bot.db.tables import SeatRecord, TableStore
from bot.services import ratings
from bot.services.stats import StatsService
from bot.services.tables import TableService
from bot.services.upkeep import ROLL_STEP
from tests.backends import MakeTarget, PostgresServer
from tests.db.rolling_check import (
    DAY,
    GAMES,
    GUILDS,
    WINDOW,
    History,
    check_all_boards,
    check_board,
    check_rolling_rows,
    ranked,
    raw_board,
)
from tests.services.conftest import Clock

T0 = 2_000_000_040.0  # a whole minute, years after the migration's window start


async def _service_page_matches(
    stats: StatsService, clock: Clock, db: Database, rng: random.Random
) -> None:
    """The service's own first page (its clock, its provisional bar) against the raw rows."""
    game_id = rng.choice(GAMES)
    guild = rng.choice(GUILDS)
    scope = rng.choice(("server", "global"))
    metric = rng.choice(METRICS)
    board = await stats.leaderboard(
        game_id=game_id, viewer=0, guild_id=guild, metric=metric, scope=scope, period="30d"
    )
    expected = await raw_board(
        db, game_id, guild if scope == "server" else None, clock.now - WINDOW
    )
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT player_id, rating, rated FROM player_games WHERE game_id = ?", (game_id,)
        )
    order = ranked(expected, metric, {r[0]: (r[1], r[2]) for r in rows}, ratings.PROVISIONAL_GAMES)
    assert board.total == len(expected)
    assert [(e.player_id, e.games, e.wins, e.points) for e in board.entries] == [
        (p, *expected[p]) for p in order[:10]
    ]


@pytest.mark.parametrize("seed", range(4))
async def test_boards_equal_the_raw_aggregate_over_random_histories(
    db: Database, seed: int
) -> None:
    clock = Clock(T0)
    upkeep = TableService(db, clock=clock)
    stats = StatsService(db, clock=clock)
    history = History(db, seed, T0)
    rng = random.Random(1000 + seed)
    rolls = 0
    for step in range(70):
        r = rng.random()
        if r < 0.7:
            await history.finish()
        elif r < 0.86:  # the sweeper, on time, late, or on a clock a day ahead
            rolls += await upkeep.roll_boards(history.now + rng.choice((0.0, -2 * DAY, DAY)))
        elif r < 0.92:
            await history.forget(rng.randint(1, 12))
        else:
            await history.toggle_opt_out()
        # Boards asked for now, by a clock behind the sweeper's, or with the sweeper days late.
        clock.now = history.now + rng.choice(
            (0.0, -rng.uniform(0, 5 * DAY), rng.uniform(0, 10 * DAY))
        )
        if step % 7 == 0:
            await check_all_boards(db, clock.now - WINDOW, rng)
            await check_rolling_rows(db)
        else:
            guild = rng.choice((None, *GUILDS))
            await check_board(db, rng.choice(GAMES), guild, clock.now - WINDOW, rng.choice(METRICS))
        await _service_page_matches(stats, clock, db, rng)
    assert rolls > 0  # the sweeper did move the window
    await check_rolling_rows(db)


async def test_window_edge_as_the_clock_moves(db: Database) -> None:
    """Rolling 30 x 24 h to the second, whichever side of the rolled start a board asks."""
    clock = Clock(T0)
    upkeep = TableService(db, clock=clock)
    history = History(db, 0, T0)
    a = await history.finish(players=(1, 2), at=T0)
    b = await history.finish(players=(3, 4), at=T0 + 30)
    async with db.read() as conn:
        times = dict(
            await conn.fetchall(
                "SELECT table_id, MAX(finished_at) FROM game_results GROUP BY table_id"
            )
        )
    assert times == {a: T0, b: T0 + 30}

    async def members(now: float) -> set[int]:
        found: set[int] = set()
        for game in GAMES:
            found |= set(await check_board(db, game, None, now - WINDOW, "games"))
        return found

    assert await upkeep.roll_boards(T0 + WINDOW) and await rolling.since(db) == T0
    assert await members(T0 + WINDOW - 1) == {1, 2, 3, 4}
    assert await members(T0 + WINDOW) == {1, 2, 3, 4}  # finished exactly 30 days ago: in
    assert await members(T0 + WINDOW + 0.5) == {3, 4}  # half a second more: out
    # The sweeper's next step passes both games: the later one is added back for the board.
    assert await upkeep.roll_boards(T0 + WINDOW + ROLL_STEP)
    assert await rolling.since(db) == T0 + ROLL_STEP
    assert await members(T0 + WINDOW + 0.5) == {3, 4}
    assert await members(T0 + WINDOW + 30) == {3, 4}
    assert await members(T0 + WINDOW + 30.5) == set()
    assert await members(T0 + WINDOW - 1) == {1, 2, 3, 4}  # a clock behind the sweeper's
    await check_rolling_rows(db)
    # Rolling again to where it is (another process's sweep) changes nothing.
    assert not await upkeep.roll_boards(T0 + WINDOW + ROLL_STEP + 1)


async def test_results_older_than_the_window_start_stay_out_of_the_totals(db: Database) -> None:
    upkeep = TableService(db, clock=Clock(T0))
    history = History(db, 3, T0)
    await history.finish()
    await upkeep.roll_boards(T0 + 40 * DAY)
    start = await rolling.since(db)
    await history.finish(at=start - 1)  # recorded with a time before the rolled start
    await check_rolling_rows(db)
    for since in (start - 2, start - 1, start, start + 1):
        for game in GAMES:
            await check_board(db, game, None, since, "points")


async def test_a_long_way_behind_the_window_catches_up_in_bounded_steps(db: Database) -> None:
    """After downtime the window moves a bounded number of results at a time; every board is
    exact at every step, and it gets there."""
    history = History(db, 17, T0)
    for _ in range(40):
        await history.finish()
    until = history.now - 5 * DAY
    steps = 0
    while await rolling.roll(db, until, most=3):
        steps += 1
        await check_rolling_rows(db)
        await check_all_boards(db, history.now - WINDOW, random.Random(steps))
    assert await rolling.since(db) == until
    assert steps > 5


async def test_the_sweeper_rolls_each_step_once(make_target: MakeTarget) -> None:
    """Two processes' sweeps at the same moment: one of them rolls, the totals are exact."""
    target = await make_target("shared")
    first, second = await open_database(target), await open_database(target)
    try:
        await first.migrate()
        history = History(first, 11, T0)
        for _ in range(25):
            await history.finish()
        services = [TableService(d, clock=Clock(history.now)) for d in (first, second)]
        for now in (history.now, history.now + ROLL_STEP, history.now + 2 * DAY):
            done = await asyncio.gather(*(s.roll_boards(now) for s in services))
            assert sorted(done) == [False, True]
            await check_rolling_rows(first)
            await check_all_boards(first, now - WINDOW, random.Random(int(now)))
    finally:
        await first.close()
        await second.close()


async def test_two_processes_finishing_and_rolling_lose_nothing(
    make_target: MakeTarget,
) -> None:
    """Two OS processes (``tests/db/rolling_worker.py``, each its own connection or pool)
    finish games among the same players and roll the window at once."""
    target = await make_target("shared")
    db = await open_database(target)
    try:
        await db.migrate()
        workers = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.db.rolling_worker",
                target,
                str(n),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
            for n in (1, 2)
        ]
        for w in workers:
            assert w.stdout is not None
            assert (await asyncio.wait_for(w.stdout.readline(), 60)).strip() == b"ready"
        for w in workers:
            assert w.stdin is not None
            w.stdin.write(b"go\n")
            await w.stdin.drain()
        outputs = [await asyncio.wait_for(w.communicate(), 180) for w in workers]
        assert [w.returncode for w in workers] == [0, 0], outputs
        finished = [int(out.split()[-1]) for out, _ in outputs]
        async with db.read() as conn:
            row = await conn.fetchone("SELECT COUNT(DISTINCT table_id) FROM game_results")
        assert row is not None and row[0] == sum(finished) == 2 * 40
        await check_rolling_rows(db)
        end = T0 + 45 * DAY
        for now in (end, end - 10 * DAY, end + 10 * DAY):
            await check_all_boards(db, now - WINDOW, random.Random(int(now)))
    finally:
        await db.close()


async def test_postgres_copy_carries_the_rolling_totals(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    """``db copy`` (the copy and its verification; the seeded tables here have no game log
    to replay) moves the rolling totals with the results they sum."""
    path = tmp_path / "trionfi.sqlite3"
    source = await open_database(path)
    await source.migrate()
    clock = Clock(T0)
    history = History(source, 21, T0)
    upkeep = TableService(source, clock=clock)
    for i in range(60):
        await history.finish()
        if i % 10 == 9:
            await upkeep.roll_boards(history.now)
    await history.forget(5)
    url = await postgres_server.create(migrated=False)
    target = await open_database(url)
    try:
        await target.migrate()
        report = await copy_database(source, target)
        assert report.ok, report
        copied = {t.name: t.target for t in report.tables}
        assert copied["rolling_window"] == 1 and copied["rolling_totals"] > 0
        assert await rolling.since(target) == await rolling.since(source)
        await check_rolling_rows(target)
        for now in (history.now, history.now - 3 * DAY, history.now + 4 * DAY):
            for db in (source, target):
                await check_all_boards(db, now - WINDOW, random.Random(int(now)))
        # The bot carries on on PostgreSQL: more games, the sweeper rolls, still exact.
        history.db, history.store = target, TableStore(target)
        later = TableService(target, clock=clock)
        for _ in range(15):
            await history.finish()
        assert await later.roll_boards(history.now + DAY)
        await check_rolling_rows(target)
        await check_all_boards(target, history.now - WINDOW, random.Random(2))
    finally:
        await source.close()
        await target.close()
        await postgres_server.drop(url)


async def test_a_roll_waits_for_a_game_being_recorded(make_target: MakeTarget) -> None:
    """A roll that starts while another process is recording a game it would pass waits for
    that game's transaction (the window row's lock), then subtracts it too."""
    target = await make_target("shared")
    recorder, sweeper = await open_database(target), await open_database(target)
    try:
        await recorder.migrate()
        store = TableStore(recorder)
        table_id = await store.create(
            guild_id=1,
            channel_id=1,
            game_id="la_morte",
            owner_id=1,
            players=2,
            options={},
            seed=1,
            rules_version=1,
            seats=[SeatRecord(0, 1, "P1"), SeatRecord(1, 2, "P2")],
            now=T0,
        )
        upkeep = TableService(sweeper, clock=Clock(T0))
        async with recorder.transaction() as conn:
            await conn.executemany(
                "INSERT INTO game_results (table_id, guild_id, game_id, seat, user_id, name, "
                "score, won, finished_at, player_id, place, deals) "
                "VALUES (?, 1, 'la_morte', ?, ?, ?, ?, ?, ?, ?, ?, 1)",
                [(table_id, 0, 1, "P1", 50, 1, T0, 1, 1), (table_id, 1, 2, "P2", 9, 0, T0, 2, 2)],
            )
            await record_finished(conn, table_id, None)
            roll = asyncio.create_task(upkeep.roll_boards(T0 + WINDOW + DAY))
            await asyncio.sleep(0.5)
            assert not roll.done()  # waiting for this transaction
        assert await roll
        assert await rolling.since(recorder) > T0
        await check_rolling_rows(recorder)
        for since in (T0, T0 + 1):
            await check_board(recorder, "la_morte", None, since, "wins")
    finally:
        await recorder.close()
        await sweeper.close()


#: Undoing the migrations after the rolling totals', newest first (the same on both dialects).
UNDO_AFTER_ROLLING = (
    # luck caught up, replays replaced (issue 33)
    "DROP INDEX deal_results_finished",
    "ALTER TABLE tables DROP COLUMN end_reason",
    # league tables' threads (issue 34)
    "DROP TABLE league_threads",
    # tournaments' claims (issue 34)
    "DROP TABLE tournament_claims",
    # luck and replays (issue 33)
    "ALTER TABLE tables DROP COLUMN replay_deal",
    "ALTER TABLE tables DROP COLUMN replay_of",
    "DROP TABLE deal_luck",
    # league nights (issue 34)
    "DROP TABLE league_events",
    "DROP TABLE league_markers",
    "DROP TABLE league_season",
    "DROP TABLE league_scores",
    "DROP TABLE league_results",
    "DROP TABLE league_entries",
    "DROP TABLE league_sessions",
    "DROP TABLE league_guilds",
    "ALTER TABLE tables DROP COLUMN league_deals",
    "ALTER TABLE tables DROP COLUMN league_session",
    # tournaments (issue 34)
    "DROP TABLE tournament_results",
    "DROP TABLE tournament_boards",
    "DROP TABLE tournament_entrants",
    "DROP TABLE tournaments",
    "DROP INDEX tables_open_in_channel",
    "DROP INDEX tables_open_channel",
    "CREATE UNIQUE INDEX tables_open_channel ON tables (channel_id) "
    "WHERE status IN ('lobby', 'playing')",
    "ALTER TABLE tables DROP COLUMN rated",
    "ALTER TABLE tables DROP COLUMN tournament_id",
    "ALTER TABLE seats DROP COLUMN picks",
    "ALTER TABLE seats DROP COLUMN click_at",
    "ALTER TABLE seats DROP COLUMN click_message_id",
    "ALTER TABLE seats DROP COLUMN click_token",
    "ALTER TABLE seats DROP COLUMN click_app_id",
    "DROP INDEX seats_view_at",
    "ALTER TABLE seats DROP COLUMN view_at",
    "ALTER TABLE seats DROP COLUMN view_message_id",
    "ALTER TABLE seats DROP COLUMN view_token",
    "ALTER TABLE seats DROP COLUMN view_app_id",
    "DROP TABLE seat_sending",
    "DROP TABLE table_retired",
    "ALTER TABLE tables DROP COLUMN notify_until",
    "ALTER TABLE tables DROP COLUMN notify_by",
    "DROP TABLE table_pings",
    "DROP TABLE table_notices",
    "DROP TABLE table_posts",
    "DROP INDEX tables_owed",
    "ALTER TABLE tables DROP COLUMN notify_owed",
    "DROP TABLE daily_markers",
    "DROP INDEX game_results_unranked",
    "ALTER TABLE seats DROP COLUMN replaced",
)


async def test_the_migration_backfills_the_rolling_totals(db: Database) -> None:
    """Results stored before ``0011_rolling`` (``0005_rolling`` on PostgreSQL): the migration
    starts the window 30 days before the database's clock and sums the results since."""
    now = time.time()
    history = History(db, 31, now - 50 * DAY)
    while history.now < now - DAY:
        await history.finish()
    # Back to the schema before the migration: the later ones undone, no rolling tables, the
    # version before.
    before = next(v for v, name, _ in migrations(db.dialect.name) if "rolling" in name) - 1
    async with db.transaction() as conn:
        for undo in UNDO_AFTER_ROLLING:
            await conn.execute(undo)
        for table in ("rolling_games", "rolling_totals", "rolling_window"):
            await conn.execute(f"DROP TABLE {table}")
        if db.dialect.name == "postgres":
            await conn.execute("DELETE FROM schema_migrations WHERE version > ?", (before,))
    if db.dialect.name == "sqlite":
        async with db.read() as conn:
            await conn.execute(f"PRAGMA user_version = {before}")
    assert await db.schema_version() == before
    await db.migrate()
    start = await rolling.since(db)
    assert now - WINDOW - 1 <= start <= time.time() - WINDOW + 1
    await check_rolling_rows(db)
    async with db.read() as conn:
        row = await conn.fetchone("SELECT COUNT(*) FROM rolling_totals")
    assert row is not None and row[0] > 0
    await check_all_boards(db, time.time() - WINDOW, random.Random(4))
