"""StatsService: leaderboards, player profiles, game history, score sheets, records, forget-me.

Reads only: ratings and totals are written when a game finishes (``TableCore._commit`` hands
``ratings.rate`` to the store). Every method validates its input and refuses with a
``ServiceError`` code and its data, which ``bot.ui.text.refusals`` words for the reader.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.db import guild_settings
from bot.db import records as records_db
from bot.db import stats as stats_db
from bot.db.database import Database
from bot.db.ratings import Rating, rating
from bot.db.stats import BestResult, BoardEntry, GameStats, PastGame, SeatResult
from bot.db.tables import DealResultRecord, TableRecord, TableStore
from bot.engine.registry import get_rules, implemented
from bot.services import ratings, records
from bot.services.daily import marker_secret, played_marker, utc_day
from bot.services.errors import InvalidRequest, NotFound, WrongState
from bot.services.step import LEVELS

__all__ = [
    "BestResult",
    "Board",  # i18n: code
    "BoardEntry",
    "GameStats",
    "History",  # i18n: code
    "PastGame",
    "PlayerStats",
    "Record",  # i18n: code
    "ScoreSheet",
    "SeatResult",
    "StatsService",
]

PAGE_SIZE = 10
HISTORY_SIZE = 10
DAY = 86_400.0
TREND_DAYS = 30
METRICS = stats_db.METRICS
SCOPES = ("server", "global")
RECENT_DAYS = 30  # the recent boards' window (rolling 30 x 24 h before now, to the second)
PERIODS: dict[str, int | None] = {"all": None, "30d": RECENT_DAYS}  # days
# Stored data: the name written into a forgotten player's seats in game records, shown as it
# is, like any seat's name (the same in every language).
FORGOTTEN_NAME = "Former player"  # i18n: code


@dataclass(frozen=True, slots=True)
class Board:
    """One page of a leaderboard."""

    game_id: str
    metric: str
    scope: str  # "server" | "global"
    period: str  # "all" | "30d"
    page: int  # 0-based, always an existing page (0 when empty)
    pages: int
    total: int
    entries: tuple[BoardEntry, ...]
    me: BoardEntry | None  # the viewer's line, on or off this page
    #: The rating in this game of every computer level that has one: ``(level, rating)``,
    #: casual first (each level is its own rated entity).
    computers: tuple[tuple[str, Rating], ...]
    counted_globally: bool = True  # False: the server's admins keep its games off global boards

    @property
    def computer(self) -> Rating | None:
        """The casual computer's rating (the only level before there were levels)."""
        return dict(self.computers).get("casual")


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's profile across games (every server)."""

    name: str | None
    games: tuple[GameStats, ...]  # most played first
    best: BestResult | None

    @property
    def played(self) -> int:
        return sum(g.games for g in self.games)

    @property
    def wins(self) -> int:
        return sum(g.wins for g in self.games)

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    @property
    def points_per_deal(self) -> float | None:
        deals = sum(g.deals for g in self.games)
        return sum(g.points for g in self.games) / deals if deals else None

    @property
    def favourite(self) -> str | None:
        return self.games[0].game_id if self.games else None

    @property
    def last_played(self) -> float | None:
        return max((g.last_at for g in self.games), default=None)


@dataclass(frozen=True, slots=True)
class History:
    total: int  # finished games of the player in this server (for this game)
    games: tuple[PastGame, ...]  # newest first


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    table_id: int
    game_id: str
    status: str
    finished_at: float | None
    names: tuple[str | None, ...]  # by seat (None: nobody sat there; the UI words it)
    computers: tuple[bool, ...]
    deals: tuple[DealResultRecord, ...]
    totals: tuple[int, ...]
    places: tuple[int | None, ...]  # by seat (None: not ranked, e.g. abandoned)


@dataclass(frozen=True, slots=True)
class Record:
    table_id: int
    filename: str
    text: str  # the scenario JSON


def _check_game(game_id: str | None) -> None:
    if game_id is None:
        return
    try:
        get_rules(game_id)
    except KeyError:
        raise InvalidRequest("unknown_game", game=game_id, games=list(implemented())) from None


class StatsService:
    """Standings and records of finished games."""

    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.store = TableStore(db)
        self._clock = clock

    # ---- leaderboards ----------------------------------------------------------------
    @staticmethod
    def check_board(
        game_id: str | None,
        metric: str = "rating",
        scope: str = "server",
        period: str = "all",
        guild_id: int | None = None,
    ) -> None:
        """Refuse a board's options before any work (no database): the Discord layer answers
        such refusals privately before it acknowledges the command publicly."""
        _check_game(game_id)
        if metric not in METRICS:
            raise InvalidRequest("bad_metric", metric=metric, metrics=list(METRICS))
        if scope not in SCOPES:
            raise InvalidRequest("bad_scope", scope=scope, scopes=list(SCOPES))
        if period not in PERIODS:
            raise InvalidRequest("bad_period", period=period, periods=list(PERIODS))
        if scope == "server" and guild_id is None:
            raise InvalidRequest("board_needs_server")

    async def leaderboard(
        self,
        *,
        game_id: str,
        viewer: int,
        guild_id: int | None,
        metric: str = "rating",
        scope: str = "server",
        period: str = "all",
        page: int = 0,
        around_viewer: bool = False,
    ) -> Board:
        """A page of the board (``around_viewer``: the page holding the viewer's line).

        Server scope counts games played in ``guild_id``; global counts every server whose
        admins did not opt out. Provisional players (fewer than 5 rated games for ``rating``,
        fewer than 5 games for ``win_rate``) are listed after the established ones.
        """
        self.check_board(game_id, metric, scope, period, guild_id)
        days = PERIODS[period]
        since = None if days is None else self._clock() - days * DAY

        async def fetch(p: int) -> stats_db.BoardPage:
            return await stats_db.leaderboard(
                self.db,
                game_id=game_id,
                metric=metric,
                guild_id=guild_id if scope == "server" else None,
                since=since,
                offset=max(0, p) * PAGE_SIZE,
                size=PAGE_SIZE,
                viewer=viewer,
                provisional=ratings.PROVISIONAL_GAMES,
            )

        found = await fetch(page)
        if around_viewer and found.me is not None:
            mine = (found.me.position - 1) // PAGE_SIZE
            if mine != found.offset // PAGE_SIZE:
                found = await fetch(mine)
        counted = True
        if scope == "global" and guild_id is not None:
            counted = (await guild_settings.get(self.db, guild_id)).global_leaderboards
        return Board(
            game_id=game_id,
            metric=metric,
            scope=scope,
            period=period,
            page=found.offset // PAGE_SIZE,
            pages=max(1, -(-found.total // PAGE_SIZE)),
            total=found.total,
            entries=found.entries,
            me=found.me,
            computers=await self._computers(game_id),
            counted_globally=counted,
        )

    async def _computers(self, game_id: str) -> tuple[tuple[str, Rating], ...]:
        found: list[tuple[str, Rating]] = []
        for level in LEVELS:
            value = await rating(self.db, game_id, ratings.COMPUTER_LEVELS[level])
            if value is not None:
                found.append((level, value))
        return tuple(found)

    async def favourite_game(self, guild_id: int | None) -> str:
        """The game most played on the server: a leaderboard's default (else the first)."""
        games = implemented()
        found = None if guild_id is None else await stats_db.most_played(self.db, guild_id, games)
        return found or games[0]

    # ---- profiles and history --------------------------------------------------------
    async def player_stats(self, user_id: int) -> PlayerStats:
        """Games, wins, points per deal, rating and its 30-day trend per game, best result."""
        since = self._clock() - TREND_DAYS * DAY
        p = await stats_db.profile(self.db, user_id, since)
        return PlayerStats(p.name, p.games, p.best)

    async def history(
        self, guild_id: int, user_id: int, game_id: str | None = None, limit: int = HISTORY_SIZE
    ) -> History:
        """The user's most recent finished games in this server, newest first."""
        _check_game(game_id)
        total, games = await stats_db.history(self.db, user_id, guild_id, game_id, limit)
        return History(total, tuple(games))

    async def _ended_table(self, table_id: int, guild_id: int | None, user_id: int) -> TableRecord:
        """A finished or abandoned table of this server, or one the user played at."""
        rec = await self.store.get(table_id)
        if rec is None or (
            rec.guild_id != guild_id and all(s.user_id != user_id for s in rec.seats)
        ):
            raise NotFound("no_such_table", table=table_id)
        if rec.status == "lobby":
            raise WrongState("never_started", table=table_id)
        if rec.status == "playing":
            raise WrongState("still_playing", table=table_id)
        return rec

    async def score_sheet(self, table_id: int, guild_id: int | None, user_id: int) -> ScoreSheet:
        """Deal-by-deal scores of an ended table."""
        rec = await self._ended_table(table_id, guild_id, user_id)
        deals = tuple(await self.store.deal_results(table_id))
        places = {g.seat: g.place for g in await self.store.game_results(table_id)}
        totals = tuple(
            sum(d.deltas[s] for d in deals if s < len(d.deltas)) for s in range(rec.players)
        )
        seats = {s.seat: s for s in rec.seats}
        return ScoreSheet(
            table_id=rec.id,
            game_id=rec.game_id,
            status=rec.status,
            finished_at=rec.finished_at,
            names=tuple(seats[s].name if s in seats else None for s in range(rec.players)),
            computers=tuple(s in seats and seats[s].is_bot for s in range(rec.players)),
            deals=deals,
            totals=totals,
            places=tuple(places.get(s) for s in range(rec.players)),
        )

    async def record(
        self, table_id: int, guild_id: int | None, user_id: int, guild_name: str | None = None
    ) -> Record:
        """The table's full action log as a scenario file (``design/SCENARIOS.md``)."""
        rec = await self._ended_table(table_id, guild_id, user_id)
        log = await self.store.log(table_id)
        if not any(e.kind == "deal" for e in log):
            raise WrongState("never_started", table=table_id)
        deals = await self.store.deal_results(table_id)
        data = records.scenario(rec, log, deals, guild_name if rec.guild_id == guild_id else None)
        return Record(rec.id, f"trionfi-table-{rec.id}-{rec.game_id}.json", records.dumps(data))

    # ---- privacy ---------------------------------------------------------------------
    async def forget(self, user_id: int) -> records_db.Forgotten:
        """Delete the user's ratings and statistics; anonymise their seats in stored games.
        Today's daily deals they played stay played (``bot.services.daily``: markers)."""
        now = self._clock()
        secret = await marker_secret(self.db, now)
        done = await records_db.forget(
            self.db,
            user_id,
            FORGOTTEN_NAME,
            lambda day, game_id: played_marker(secret, day, game_id, user_id),
            utc_day(now),
        )
        if done.open_tables:
            raise WrongState("still_seated", tables=list(done.open_tables))
        return done
