"""Statistics SQL: totals and ratings written with a finished game, boards (scopes, periods,
paging, provisional order, the viewer's line), profiles, history, forget-me, and the 0003
backfill of results stored before ratings existed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import aiosqlite

from bot.db import guild_settings, records
from bot.db.backends import open_database
from bot.db.database import Database, migrations
from bot.db.ratings import Rating, RatingUpdate
from bot.db.stats import BoardPage, history, leaderboard, profile
from bot.db.tables import SeatRecord, TableStore
from tests.seed import finished_table, plain_marker

DAY = 86_400.0


def fake_rater(
    seats: Sequence[tuple[int, int]], current: Mapping[int, Rating]
) -> dict[int, RatingUpdate]:
    """+10 for first place, −1 otherwise: easy to follow (the real maths is tested in
    tests/services/test_ratings.py)."""
    out: dict[int, RatingUpdate] = {}
    for p, place in seats:
        old = current.get(p, Rating(25.0, 8.0, 1.0, 0))
        new = old.display + (10.0 if place == 1 else -1.0)
        out[p] = RatingUpdate(old.display, Rating(old.mu, old.sigma, new, old.games + 1))
    return out


class Games:
    """Writes finished tables through ``TableStore.commit``, as the services do."""

    def __init__(self, db: Database) -> None:
        self.store = TableStore(db)
        self.channel = 0

    async def finish(
        self,
        guild_id: int,
        players: list[tuple[int | None, str, int, int]],  # (user id or None, name, score, place)
        now: float,
        game_id: str = "la_morte",
        deals: int = 2,
    ) -> int:
        self.channel += 1
        return await finished_table(
            self.store,
            players,
            guild_id=guild_id,
            channel_id=self.channel,
            now=now,
            rater=fake_rater,
            game_id=game_id,
            deals=deals,
        )


async def board(db: Database, **kw: object) -> BoardPage:
    args: dict[str, object] = {
        "game_id": "la_morte",
        "metric": "wins",
        "guild_id": 1,
        "since": None,
        "offset": 0,
        "size": 10,
        "viewer": 0,
        "provisional": 5,
    }
    args.update(kw)
    return await leaderboard(db, **args)  # type: ignore[arg-type]


def ids(page: BoardPage) -> list[int]:
    return [e.player_id for e in page.entries]


async def test_finishing_writes_totals_ratings_and_names(db: Database) -> None:
    g = Games(db)
    await g.finish(1, [(10, "Ana", 55, 1), (11, "Ben", 30, 2), (None, "Bot A", 20, 3)], 100.0)
    await g.finish(1, [(10, "Ana", 5, 3), (11, "Benny", 52, 1), (None, "Bot B", 50, 2)], 200.0)
    await g.finish(2, [(10, "Ana", 40, 1), (None, "Bot A", 9, 2), (None, "Bot B", 8, 3)], 300.0)
    async with db.read() as conn:
        totals = list(
            await conn.fetchall(
                "SELECT guild_id, player_id, games, wins, points, deals, last_at "
                "FROM player_totals ORDER BY guild_id, player_id"
            )
        )
        overall = list(
            await conn.fetchall(
                "SELECT player_id, rating, rated, games, wins, points, deals "
                "FROM player_games ORDER BY player_id"
            )
        )
        names = list(await conn.fetchall("SELECT player_id, name FROM players"))
        rows = list(
            await conn.fetchall(
                "SELECT player_id, rating, rating_delta FROM game_results "
                "WHERE table_id = 3 ORDER BY seat"
            )
        )
    assert totals == [
        (1, -1, 2, 0, 70, 4, 200.0),  # two computer seats, one per game
        (1, 10, 2, 1, 60, 4, 200.0),
        (1, 11, 2, 1, 82, 4, 200.0),
        (2, -1, 2, 0, 17, 4, 300.0),  # two seats in one game
        (2, 10, 1, 1, 40, 2, 300.0),
    ]
    # The computer level is one entity: rated 3 times (once per table), its seats share its
    # rating; its totals count seats.
    assert overall == [
        (-1, -2.0, 3, 4, 0, 87, 8),
        (10, 20.0, 3, 3, 2, 100, 6),
        (11, 10.0, 2, 2, 1, 82, 4),
    ]
    assert sorted(names) == [(10, "Ana"), (11, "Benny")]  # latest name; no computer
    assert rows == [(10, 20.0, 10.0), (-1, -2.0, -1.0), (-1, -2.0, -1.0)]


async def test_board_metrics_scopes_and_opt_out(db: Database) -> None:
    g = Games(db)
    await g.finish(1, [(10, "Ana", 55, 1), (11, "Ben", 30, 2)], 100.0)
    await g.finish(1, [(10, "Ana", 20, 2), (11, "Ben", 52, 1), (12, "Cal", 51, 3)], 200.0)
    await g.finish(1, [(12, "Cal", 50, 1), (10, "Ana", 3, 2)], 300.0)
    await g.finish(2, [(11, "Ben", 99, 1), (13, "Dee", 1, 2)], 400.0)
    await g.finish(1, [(11, "Ben", 99, 1), (13, "Dee", 1, 2)], 500.0, game_id="french_tarot")

    wins = await board(db)
    assert [(e.player_id, e.wins, e.points, e.games) for e in wins.entries] == [
        (12, 1, 101, 2),
        (11, 1, 82, 2),
        (10, 1, 78, 3),
    ]
    assert [e.position for e in wins.entries] == [1, 2, 3]
    assert ids(await board(db, metric="games")) == [10, 11, 12]
    assert ids(await board(db, metric="points")) == [12, 11, 10]
    # Global: server 2 counts too (Ben 2 wins), until its admins opt out.
    assert ids(await board(db, guild_id=None)) == [11, 12, 10, 13]
    await guild_settings.put(
        db, guild_settings.GuildSettingsRecord(2, global_leaderboards=False), 1.0
    )
    assert ids(await board(db, guild_id=None)) == [12, 11, 10]
    assert ids(await board(db, guild_id=2)) == [11, 13]  # its own board is unaffected
    assert (await board(db, guild_id=3)) == BoardPage(0, 0, (), None)


async def test_provisional_players_come_after_established_ones(db: Database) -> None:
    g = Games(db)
    # Ana: 5 games, 1 win; Ben: 1 game, 1 win (100%); Cal: 5 games, 0 wins.
    for i in range(5):
        await g.finish(1, [(10, "Ana", 50, 1 if i == 0 else 2), (12, "Cal", 10, 3 - (i == 0))], i)
    await g.finish(1, [(11, "Ben", 60, 1), (None, "Bot", 0, 2)], 10.0)
    rate = await board(db, metric="win_rate")
    assert ids(rate) == [10, 12, 11]  # Ben's 100% is provisional
    assert [e.provisional for e in rate.entries] == [False, False, True]
    rating = await board(db, metric="rating")
    # Ana 1 + 10 − 4 = 7 and Cal 1 − 5 = −4 (5 games each) before Ben 11 (provisional).
    assert ids(rating) == [10, 12, 11]
    assert rating.entries[2].rating == 11.0 and rating.entries[2].rated_games == 1


async def test_paging_clamps_and_always_shows_the_viewer(db: Database) -> None:
    g = Games(db)
    for uid in range(100, 125):  # 25 players, each one game; more points = better
        await g.finish(1, [(uid, f"P{uid}", uid, 1), (None, "Bot", 0, 2)], float(uid))
    first = await board(db, metric="points", viewer=100)
    assert first.total == 25 and first.offset == 0
    assert ids(first) == list(range(124, 114, -1))
    assert first.me is not None and first.me.position == 25
    last = await board(db, metric="points", offset=20, viewer=124)
    assert ids(last) == [104, 103, 102, 101, 100]
    assert last.me is not None and last.me.position == 1
    beyond = await board(db, metric="points", offset=990)
    assert beyond.offset == 20 and ids(beyond) == ids(last)
    assert (await board(db, metric="points", viewer=999)).me is None


async def test_thirty_day_window(db: Database) -> None:
    g = Games(db)
    now = 100 * DAY
    await g.finish(1, [(10, "Ana", 50, 1), (11, "Ben", 0, 2)], now - 40 * DAY)
    await g.finish(1, [(10, "Ana", 50, 1), (11, "Ben", 0, 2)], now - 35 * DAY)
    await g.finish(1, [(11, "Ben", 50, 1), (12, "Cal", 0, 2)], now - 2 * DAY)
    recent = await board(db, since=now - 30 * DAY)
    assert [(e.player_id, e.games, e.wins) for e in recent.entries] == [(11, 1, 1), (12, 1, 0)]
    assert ids(await board(db, since=now - 30 * DAY, guild_id=None)) == [11, 12]
    assert ids(await board(db)) == [10, 11, 12]


async def test_profile_and_history(db: Database) -> None:
    g = Games(db)
    now = 100 * DAY
    await g.finish(1, [(10, "Ana", 40, 2), (11, "Ben", 50, 1), (12, "Cal", 0, 3)], now - 40 * DAY)
    await g.finish(1, [(10, "Ana", 60, 1), (11, "Ben", 50, 2)], now - 3 * DAY, deals=3)
    await g.finish(2, [(10, "Ana", 10, 2), (11, "Ben", 50, 1)], now - 2 * DAY, deals=4)
    await g.finish(1, [(10, "Ana", 77, 1), (11, "Ben", 5, 2)], now - DAY, "french_tarot", 5)
    p = await profile(db, 10, now - 30 * DAY)
    assert p.name == "Ana"
    la_morte, french = p.games
    assert (la_morte.game_id, la_morte.games, la_morte.wins, la_morte.points) == (
        "la_morte",
        3,
        1,
        110,
    )
    assert la_morte.deals == 2 + 3 + 4 and la_morte.last_at == now - 2 * DAY
    # Rating: 1 (prior) −1 +10 −1 = 9; 30-day trend from before the game 3 days ago (0).
    assert (la_morte.rating, la_morte.rated_games, la_morte.trend) == (9.0, 3, 9.0)
    assert (french.game_id, french.rating, french.trend) == ("french_tarot", 11.0, 10.0)
    assert p.best is not None
    assert (p.best.game_id, p.best.place, p.best.players, p.best.score) == (
        "french_tarot",
        1,
        2,
        77,
    )
    empty = await profile(db, 99, 0.0)
    assert empty.name is None and empty.games == () and empty.best is None

    total, games = await history(db, 10, 1, None, 2)
    assert total == 3 and [x.game_id for x in games] == ["french_tarot", "la_morte"]
    assert [(s.name, s.place) for s in games[1].seats] == [("Ana", 1), ("Ben", 2)]
    total, games = await history(db, 10, 1, "la_morte", 10)
    assert total == 2 and [x.place for x in games] == [1, 2]
    assert games[1].seats[2].name == "Cal" and len(games[1].seats) == 3
    assert await history(db, 10, 3, None, 10) == (0, [])


async def test_forget_deletes_stats_and_anonymises_records(db: Database) -> None:
    g = Games(db)
    t1 = await g.finish(1, [(10, "Ana", 40, 1), (11, "Ben", 5, 2)], 100.0)
    done = await records.forget(db, 10, "Former player", plain_marker, "2026-11-26")
    assert (done.open_tables, done.games, done.ratings) == ((), 1, 1)
    assert (await board(db, viewer=10)).me is None
    assert ids(await board(db)) == [11]
    p = await profile(db, 10, 0.0)
    assert p.name is None and p.games == () and p.best is None
    rec = await g.store.get(t1)
    assert rec is not None and rec.owner_id == 0  # she hosted it: no longer linked
    assert [(s.user_id, s.name) for s in rec.seats] == [(None, "Former player"), (11, "Ben")]
    _, games = await history(db, 11, 1, None, 10)
    assert [(s.name, s.player_id) for s in games[0].seats] == [
        ("Former player", None),
        ("Ben", 11),
    ]
    async with db.read() as conn:
        left = list(
            await conn.fetchall(
                "SELECT (SELECT COUNT(*) FROM game_results WHERE user_id = 10), "
                "(SELECT COUNT(*) FROM seats WHERE user_id = 10), "
                "(SELECT COUNT(*) FROM players WHERE player_id = 10), "
                "(SELECT COUNT(*) FROM player_totals WHERE player_id = 10)"
            )
        )
    assert left == [(0, 0, 0, 0)]
    # Seated at an open table: refused, nothing changes.
    await g.store.create(
        guild_id=1,
        channel_id=99,
        game_id="la_morte",
        owner_id=11,
        players=3,
        options={},
        seed=1,
        rules_version=1,
        seats=[SeatRecord(0, 11, "Ben")],
        now=1.0,
    )
    refused = await records.forget(db, 11, "Former player", plain_marker, "2026-11-26")
    assert refused.open_tables != () and refused.games == 0
    assert ids(await board(db)) == [11]


async def test_migration_backfills_results_stored_before_ratings(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    async with aiosqlite.connect(path) as conn:
        for version, _, sql in migrations()[:2]:
            await conn.executescript(sql + f"\n;PRAGMA user_version = {version};")
        await conn.executescript(
            "INSERT INTO tables (id, guild_id, channel_id, game_id, status, owner_id, players, "
            "seed, rules_version, created_at, updated_at) "
            "VALUES (1, 5, 6, 'la_morte', 'finished', 10, 3, 1, 1, 0, 0);"
            "INSERT INTO seats (table_id, seat, user_id, name, is_bot, resigned) VALUES "
            "(1, 0, 10, 'Ana', 0, 1), (1, 1, 11, 'Ben', 0, 0), (1, 2, NULL, 'Bot', 1, 0);"
            "INSERT INTO deal_results (table_id, deal_no, outcome, deltas_json, finished_at) "
            "VALUES (1, 1, 'played', '[9,1,2]', 0), (1, 2, 'played', '[51,1,2]', 0);"
            "INSERT INTO game_results (table_id, guild_id, game_id, seat, user_id, name, score, "
            "won, finished_at) VALUES (1, 5, 'la_morte', 0, 10, 'Ana', 60, 0, 7), "
            "(1, 5, 'la_morte', 1, 11, 'Ben', 2, 0, 7), "
            "(1, 5, 'la_morte', 2, NULL, 'Bot', 4, 1, 7);"
        )
    db = await open_database(path)
    try:
        assert await db.migrate() == len(migrations())
        async with db.read() as conn:
            rows = list(
                await conn.fetchall(
                    "SELECT seat, player_id, place, deals, rating FROM game_results ORDER BY seat"
                )
            )
        # Ana resigned: last despite 60 points; the computer won.
        assert rows == [(0, 10, 3, 2, None), (1, 11, 2, 2, None), (2, -1, 1, 2, None)]
        assert ids(await board(db, guild_id=5, metric="points")) == [10, 11]
        assert (await profile(db, 11, 0.0)).name == "Ben"
    finally:
        await db.close()
