"""What the recent boards must equal, computed straight from the raw results, and random
histories that exercise them (``tests/db/test_rolling.py`` and ``tests/db/rolling_worker.py``).

The definition the rolling totals must reproduce: a board of the games finished since ``S``
(the services pass ``now - 30 x 24 h``, to the second) lists every human with at least one
result in that game with ``finished_at >= S``, on that server (server board) or on any server
not opted out of global boards (global board), with their games, wins and points there.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from bot.db import guild_settings, records, rolling
from bot.db.database import Database
from bot.db.ratings import Rating, RatingUpdate
from bot.db.stats import METRICS, leaderboard
from bot.db.tables import TableStore
from tests.seed import finished_table, plain_marker

DAY = 86_400.0
WINDOW = 30 * DAY
GAMES = ("la_morte", "french_tarot")
GUILDS = (1, 2, 3, 4)
PROVISIONAL = 2  # few games per player here: a low bar so that both orders show up
Totals = dict[int, tuple[int, int, int]]  # player -> (games, wins, points)


def fake_rater(
    seats: Sequence[tuple[int, int]], current: Mapping[int, Rating]
) -> dict[int, RatingUpdate]:
    """+10 for first place, −1 otherwise (the real maths is not what is tested here)."""
    out: dict[int, RatingUpdate] = {}
    for p, place in seats:
        old = current.get(p, Rating(25.0, 8.0, 1.0, 0))
        new = old.display + (10.0 if place == 1 else -1.0)
        out[p] = RatingUpdate(old.display, Rating(old.mu, old.sigma, new, old.games + 1))
    return out


async def raw_board(db: Database, game_id: str, guild_id: int | None, since: float) -> Totals:
    """The board's rows from ``game_results`` alone, aggregated here in Python."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT guild_id, player_id, won, score, finished_at FROM game_results "
            "WHERE game_id = ? AND player_id IS NOT NULL",
            (game_id,),
        )
        opted = {r[0] for r in await conn.fetchall(rolling.OPTED_OUT)}
    out: dict[int, list[int]] = {}
    for guild, player, won, score, at in rows:
        if player <= 0 or at < since:
            continue
        if (guild != guild_id) if guild_id is not None else (guild in opted):
            continue
        t = out.setdefault(player, [0, 0, 0])
        t[0] += 1
        t[1] += won
        t[2] += score
    return {p: (g, w, s) for p, (g, w, s) in out.items()}


async def _ratings(db: Database, game_id: str) -> dict[int, tuple[float | None, int]]:
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT player_id, rating, rated FROM player_games WHERE game_id = ?", (game_id,)
        )
    return {r[0]: (r[1], r[2]) for r in rows}


def ranked(
    totals: Totals,
    metric: str,
    rated: Mapping[int, tuple[float | None, int]],
    provisional: int = PROVISIONAL,
) -> list[int]:
    """The board's order of ``bot.db.stats._KEYS``, spelt out again in Python."""

    def key(p: int) -> tuple[float, ...]:
        games, wins, points = totals[p]
        rating, n = rated.get(p, (None, 0))
        if metric == "rating":
            return (n < provisional, 1e308 if rating is None else -rating, -n, -games, p)
        if metric == "wins":
            return (0, -wins, -points, games, p)
        if metric == "win_rate":
            return (games < provisional, -wins / games, -games, 0, p)
        if metric == "games":
            return (0, -games, -wins, 0, p)
        return (0, -points, games, 0, p)

    return sorted(totals, key=key)


async def check_board(
    db: Database, game_id: str, guild_id: int | None, since: float, metric: str
) -> Totals:
    """The precomputed board (every line, in order) equals the raw aggregate; returns it."""
    expected = await raw_board(db, game_id, guild_id, since)
    page = await leaderboard(
        db,
        game_id=game_id,
        metric=metric,
        guild_id=guild_id,
        since=since,
        offset=0,
        size=1000,
        viewer=0,
        provisional=PROVISIONAL,
    )
    got = [(e.player_id, (e.games, e.wins, e.points)) for e in page.entries]
    order = ranked(expected, metric, await _ratings(db, game_id))
    assert page.total == len(expected), (game_id, guild_id, since, metric)
    assert got == [(p, expected[p]) for p in order], (game_id, guild_id, since, metric)
    return expected


async def check_rolling_rows(db: Database) -> None:
    """``rolling_totals``/``rolling_games`` hold exactly the results since the window start."""
    start = await rolling.since(db)
    async with db.read() as conn:
        raw = await conn.fetchall(
            "SELECT game_id, guild_id, player_id, won, score FROM game_results "
            "WHERE player_id > 0 AND finished_at >= ?",
            (start,),
        )
        per_guild = await conn.fetchall(
            "SELECT game_id, guild_id, player_id, games, wins, points FROM rolling_totals"
        )
        per_game = await conn.fetchall(
            "SELECT game_id, player_id, games, wins, points FROM rolling_games"
        )
    want_guild: dict[tuple[str, int, int], list[int]] = {}
    want_game: dict[tuple[str, int], list[int]] = {}
    for game, guild, player, won, score in raw:
        for t in (
            want_guild.setdefault((game, guild, player), [0, 0, 0]),
            want_game.setdefault((game, player), [0, 0, 0]),
        ):
            t[0] += 1
            t[1] += won
            t[2] += score
    assert {r[:3]: list(r[3:]) for r in per_guild} == want_guild
    assert {r[:2]: list(r[2:]) for r in per_game} == want_game


async def check_all_boards(db: Database, since: float, rng: random.Random) -> None:
    """Every game's global board and each server's, in a random metric's order."""
    for game_id in GAMES:
        for guild in (None, *GUILDS):
            await check_board(db, game_id, guild, since, rng.choice(METRICS))


class History:
    """Random finished games written through ``TableStore.commit`` (as the services do), in
    roughly increasing time, with now and then one recorded late (older than the window)."""

    def __init__(self, db: Database, seed: int, start: float, channel_base: int = 0) -> None:
        self.db = db
        self.store = TableStore(db)
        self.rng = random.Random(seed)
        self.now = start
        self.channel = channel_base

    async def finish(self, players: Sequence[int] = range(1, 13), at: float | None = None) -> int:
        """One finished game among ``players`` (and now and then a computer), at ``at`` or
        at the history's clock, moved on a little (now and then recorded late)."""
        rng = self.rng
        if at is None:
            self.now += rng.choice((0.0, 1.0, rng.uniform(0, 6 * 3600), rng.uniform(0, 3 * DAY)))
            when = self.now - rng.uniform(20, 50) * DAY if rng.random() < 0.1 else self.now
        else:
            when = at
        humans = rng.sample(list(players), min(len(players), rng.randint(1, 4)))
        seats: list[int | None] = [*humans, *[None] * max(2 - len(humans), rng.random() < 0.3)]
        rng.shuffle(seats)
        scores = [rng.randint(-20, 60) for _ in seats]
        ranks = sorted(scores, reverse=True)
        self.channel += 1
        return await finished_table(
            self.store,
            [(u, f"P{u}", s, 1 + ranks.index(s)) for u, s in zip(seats, scores, strict=True)],
            guild_id=rng.choice(GUILDS),
            channel_id=self.channel,
            now=when,
            rater=fake_rater,
            game_id=rng.choice(GAMES),
        )

    async def forget(self, player: int) -> None:
        done = await records.forget(self.db, player, "Former player", plain_marker, "1970-01-01")
        assert not done.open_tables

    async def toggle_opt_out(self) -> None:
        guild = self.rng.choice(GUILDS)
        current = await guild_settings.get(self.db, guild)
        await guild_settings.put(
            self.db,
            guild_settings.GuildSettingsRecord(
                guild, global_leaderboards=not current.global_leaderboards
            ),
            self.now,
        )
