"""League nights (issue 34): duplicate sessions between servers.

**Joining.** A server's admins join the league with a channel for its announcements
(``/trionfi settings league:on league_channel:#channel``); its members may then enter.

**A session** is one a week (ISO week), with a fixed window (``LeagueNight``: Friday at 18:00
UTC, 6 hours long, unless the bot's operator chose another night: ``LEAGUE_DAY``,
``LEAGUE_HOUR``, ``LEAGUE_HOURS``), and publishes one set of ``league_deals`` deals per
game (French Tarot first, each game at its usual count: ``bot.services.daily.DAILY_GAMES``).
A set is a table seed (HMAC-SHA256 of the week and the game under the daily salt): every
entry's table has that seed, so the same deck, first dealer and dealer rotation at every deal,
and the same computer random streams (``computer_rng``), everywhere.

**An entry** is one player's table of a session's set (one per player, session and game: the
primary key of ``league_entries``), played in their DMs like the daily deal (nothing of a deal
reaches a channel anyone else reads) against the expert computers in strict mode, which decide
the same way for the same choices at every table; or one seat of a league table of several
humans of one server, played in a private thread (``bot.services.league_tables``). Seats
rotate: the session's ``n``-th entrant at a game holds seat ``n mod players``, so each seat of
each deal is held by entrants in turn.

**Matchpoints** (FFT duplicate). A deal's score of an entrant at seat ``s`` is compared with the
score at seat ``s`` of that deal at every other table of the session, in every server::

    mp  = 2 × (results it beats) + 1 × (results it ties)
    top = 2 × (results it is compared with)
    %   = 100 × Σ mp / Σ top   over the deals (50 when there is nothing to compare with)

A player's session standing is that percentage over their deals; a server's, over every deal
its entrants played; a season (``SEASON_WEEKS`` weeks) sums the matchpoints of its sessions
once their window is over.
Computers are compared against, never ranked.

**Fairness.** Leaving (``/league resign``), or leaving the table untouched for ``LEAGUE_IDLE``,
hands the seat to the casual computer, which finishes the deal in progress; that deal is marked
on the standings and the entry ends there. Forget-me keeps the entry under no one's name and
leaves a marker (as the daily's), so nobody enters a set twice. Entries are never rated.

**Privacy.** Standings show names and percentages only. The comparison of every table's play
of a deal opens when the window is over, and never to a player whose entry is still in play.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.db import league, user_settings
from bot.db.tables import LeagueTable, SeatRecord
from bot.engine import match
from bot.engine.events import Event
from bot.i18n import language_of
from bot.services.analysis import expert_ready
from bot.services.daily import (
    DAILY_GAMES,
    DailyTables,
    daily_games,
    played_marker,
    with_computers,
)
from bot.services.errors import InvalidRequest, WrongState
from bot.services.models import Outcome
from bot.services.step import SEED_BITS, PlayStep

log = logging.getLogger(__name__)

LEAGUE_DEALS = 8  # deals of a session's set by default (the issue asks 6 to 12: LEAGUE_DEALS)
SEASON_WEEKS = 12
LEAGUE_IDLE = 3600.0  # an entry untouched this long is finished by the casual computer
SCORE_EVERY = 60.0  # seconds between two scoring passes of a session while its window is open
_EPOCH = datetime(1970, 1, 5, tzinfo=UTC)  # a Monday: seasons count 12-week blocks from it


def league_games() -> list[str]:
    """The games of a session, French Tarot first (as the daily's)."""
    return daily_games()


def week_of(now: float) -> tuple[str, datetime]:
    """The ISO week of Unix time ``now`` ("2026-W48") and its Monday at 00:00 UTC."""
    when = datetime.fromtimestamp(now, UTC)
    year, week, weekday = when.isocalendar()
    monday = (when - timedelta(days=weekday - 1)).replace(hour=0, minute=0, second=0, microsecond=0)
    return f"{year}-W{week:02d}", monday


def season_of(monday: datetime) -> int:
    return (monday - _EPOCH).days // 7 // SEASON_WEEKS


@dataclass(frozen=True, slots=True)
class LeagueNight:
    """When a week's session is open: on ``weekday`` (Monday = 0) from ``hour`` (UTC), for
    ``hours`` (the operator's ``LEAGUE_DAY``, ``LEAGUE_HOUR`` and ``LEAGUE_HOURS``). A session
    is made with its window on first use, so a changed night applies from the next week."""

    weekday: int = 4  # Friday
    hour: int = 18
    hours: int = 6


def night_of(monday: datetime, night: LeagueNight) -> tuple[datetime, datetime]:
    """When the night of the week starting ``monday`` opens and closes."""
    starts = monday + timedelta(days=night.weekday, hours=night.hour)
    return starts, starts + timedelta(hours=night.hours)


def next_night(now: float, night: LeagueNight) -> float:
    """When the first league night opening after ``now`` opens (this week's, or the next
    week's), as the operator's night is now."""
    _, monday = week_of(now)
    starts, _ = night_of(monday, night)
    if starts.timestamp() <= now:
        starts, _ = night_of(monday + timedelta(weeks=1), night)
    return starts.timestamp()


@dataclass(frozen=True, slots=True)
class LeagueBoard:
    """Standings of one game, for a session or a season, of players or of servers."""

    session: league.Session
    game_id: str
    season: bool
    servers: bool
    standings: league.Standings


@dataclass(frozen=True, slots=True)
class TableOfDeal:
    """One entry's play of a deal, for the comparison after the window."""

    name: str
    guild_id: int
    seat: int
    score: int
    resigned: bool
    outcome: str
    detail: dict[str, object]


@dataclass(frozen=True, slots=True)
class Comparison:
    session: league.Session
    game_id: str
    deal_no: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    rows: tuple[TableOfDeal, ...]  # best first within each seat


@dataclass(frozen=True, slots=True)
class SetStatus:
    """A player's entry of one game's set this week, for ``/league status``: ``score``, its
    matchpoints as the last scoring pass left them (a player who left keeps those of the
    deals up to the one they left in, marked; see the module docstring)."""

    game_id: str
    entry: league.Entry
    score: league.Score | None


class LeagueTables(DailyTables):
    """The league's use cases (a mixin of ``TableService``)."""

    league_deals: int = LEAGUE_DEALS
    league_night: LeagueNight = LeagueNight()

    # ---- servers ---------------------------------------------------------------------------
    async def set_league(self, guild_id: int, channel_id: int | None) -> None:
        await league.set_guild(self.db, guild_id, channel_id, self._clock())

    async def league_channel(self, guild_id: int) -> int | None:
        return await league.guild_channel(self.db, guild_id)

    # ---- sessions --------------------------------------------------------------------------
    async def league_session(self, now: float | None = None) -> league.Session:
        """This week's session (made on first use)."""
        week, monday = week_of(self._clock() if now is None else now)
        starts, ends = night_of(monday, self.league_night)
        return await league.session(
            self.db,
            week,
            season_of(monday),
            starts.timestamp(),
            ends.timestamp(),
            self.league_deals,
        )

    async def league_seed(self, session: league.Session, game_id: str) -> int:
        """The table seed of a session's set of ``game_id`` (see the module docstring)."""
        message = f"trionfi-league:{session.week}:{game_id}".encode()
        digest = hmac.new((await self._salt()).encode(), message, hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") % (1 << SEED_BITS)

    @staticmethod
    def check_league_game(game_id: str) -> None:
        if game_id not in league_games():
            raise InvalidRequest("league_unknown_game", game=game_id, games=league_games())

    async def _league_marker(self, session_id: int, game_id: str, user_id: int) -> str:
        if self._marker_secret is None:
            await self._played_marker("", game_id, user_id)  # loads the secret
        assert self._marker_secret is not None
        return played_marker(self._marker_secret, f"league-{session_id}", game_id, user_id)

    # ---- playing ---------------------------------------------------------------------------
    async def check_daily(self, user_id: int, game_id: str) -> None:
        """The daily's checks, and no daily deal while a league set is under way in the same
        DMs (one table at a time there)."""
        await super().check_daily(user_id, game_id)
        if await league.playing(self.db, user_id):
            raise WrongState("league_dm_busy")

    def _require_night(self, session: league.Session, now: float) -> None:
        """Refuse outside the session's window (naming it, and the next night once over)."""
        if not session.starts_at <= now < session.ends_at:
            raise WrongState(
                "league_closed",
                starts=session.starts_at,
                ends=session.ends_at,
                now=now,
                next=next_night(now, self.league_night),
            )

    async def check_league(self, user_id: int, game_id: str, guild_id: int | None) -> None:
        """Refuse before anything is sent when the player may not enter now."""
        self.check_league_game(game_id)
        if guild_id is None or await league.guild_channel(self.db, guild_id) is None:
            raise WrongState("league_not_joined")
        session = await self.league_session()
        now = self._clock()
        self._require_night(session, now)
        if await league.entry(self.db, session.id, game_id, user_id) is not None:
            raise WrongState("league_entered", game=game_id)
        if await league.marked(self.db, await self._league_marker(session.id, game_id, user_id)):
            raise WrongState("league_entered", game=game_id)

    async def start_league(
        self,
        user_id: int,
        name: str,
        game_id: str,
        *,
        guild_id: int,
        dm_channel_id: int,
        message_id: int | None = None,
        locale: str | None = None,
    ) -> Outcome:
        """Deal the session's set of ``game_id`` to the player in their DM channel (its first
        message ``message_id`` becomes the table) and let the computers play up to them."""
        await self.check_league(user_id, game_id, guild_id)
        session = await self.league_session()
        players = DAILY_GAMES[game_id]
        seed = await self.league_seed(session, game_id)
        language = await user_settings.language(self.db, user_id) or language_of(locale)

        def seats(mine: int) -> list[SeatRecord]:
            return with_computers(
                players, {mine: SeatRecord(mine, user_id, name, language=language)}
            )

        marker = await self._league_marker(session.id, game_id, user_id)
        claim = league.Claim(session.id, game_id, user_id, guild_id, name, marker)
        try:
            return await self._solo_in_dm(
                dm_channel_id,
                user_id,
                message_id,
                WrongState("league_dm_busy"),
                game_id=game_id,
                players=players,
                seed=seed,
                seats=seats(0),
                language=language,
                level="expert" if expert_ready(game_id) else "casual",
                league_claim=LeagueTable(claim, session.deals, lambda n: n % players, seats),
            )
        except league.EntryTaken:
            raise WrongState("league_entered", game=game_id) from None

    async def league_entry(self, user_id: int, game_id: str) -> league.Entry | None:
        self.check_league_game(game_id)
        session = await self.league_session()
        return await league.entry(self.db, session.id, game_id, user_id)

    async def league_status(self, user_id: int) -> tuple[league.Session, list[SetStatus]]:
        """This week's session and the player's entries of it, each with its score so far."""
        session = await self.league_session()
        await self._scored(session)
        sets: list[SetStatus] = []
        for game_id in league_games():
            mine = await league.entry(self.db, session.id, game_id, user_id)
            if mine is not None:
                score = await league.entry_score(self.db, session.id, game_id, user_id)
                sets.append(SetStatus(game_id, mine, score))
        return session, sets

    async def resign_league(self, user_id: int, game_id: str) -> Outcome:
        """The player leaves their entry: the casual computer finishes the deal in progress
        for them (marked), and the entry ends with it (a table of several humans goes on)."""
        mine = await self.league_entry(user_id, game_id)
        if mine is None or mine.table_id is None or mine.status != "playing":
            raise WrongState("league_not_playing", game=game_id)
        outcome = await self._finish_entry(mine.table_id, "resigned", mine.seat)
        if outcome is None:
            raise WrongState("league_not_playing", game=game_id)
        return outcome

    async def settle_idle_league(self, now: float | None = None) -> list[Outcome]:
        """Entries untouched for ``LEAGUE_IDLE`` end as if their player resigned (at a table of
        several humans, the one it waits on)."""
        when = self._clock() if now is None else now
        done: list[Outcome] = []
        for table_id in await league.idle_tables(self.db, when - LEAGUE_IDLE):
            try:
                outcome = await self._finish_entry(table_id, "taken_over")
            except Exception:
                log.exception("could not finish the idle league table %s", table_id)
                continue
            if outcome is not None:
                done.append(outcome)
        return done

    async def _finish_entry(
        self, table_id: int, why: str, seat: int | None = None
    ) -> Outcome | None:
        """Hand ``seat`` (None: the human the table waits on) to the casual computer, which
        finishes the deal in progress for them; that deal is their last. With no other human
        left, the set ends with it."""
        async with self._lock(table_id):
            rec = await self._load(table_id)
            if rec.status != "playing" or rec.league_session is None:
                return None
            m = self._match(rec)
            active = [s.seat for s in rec.seats if s.user_id is not None and not s.resigned]
            if seat is None:
                turn = match.to_act(m)
                seat = turn if turn in active else (active[0] if active else None)
            if seat is None or seat not in active:
                return None
            step = PlayStep(rec, m, rec.seed)
            step.log("resign", seat, {"seat": seat})
            step.note(Event(why, seat))
            step.auto.add(seat)
            if active == [seat]:  # the last human: the deal in progress is played out, and
                step.deal_limit = step.m.deals_played + 1  # the set ends with it
            last = m.deals_played + 1
            step = await self._advance(step)
            return await self._commit(rec, step, resign_seat=seat, actor=seat, league_until=last)

    # ---- standings -------------------------------------------------------------------------
    async def _scored(self, session: league.Session) -> None:
        """Score the session again if a result arrived since its last scoring pass, at most
        every ``SCORE_EVERY`` seconds while its window is open (standings asked for meanwhile
        are those of the last pass); the league's upkeep scores what is left."""
        now = self._clock()
        closed = now >= session.ends_at
        if session.scored_at is not None and (
            (session.changed_at < session.scored_at and session.in_season == closed)
            or (not closed and now - session.scored_at < SCORE_EVERY)
        ):
            return
        await league.score(self.db, session.id, now)

    async def score_league(self) -> int:
        """Score every session with results newer than its last pass (the league's upkeep:
        so the season's sums hold every result even if nobody asks for standings)."""
        done = 0
        for session_id in await league.unscored(self.db, self._clock()):
            await league.score(self.db, session_id, self._clock())
            done += 1
        return done

    async def league_board(
        self,
        game_id: str,
        viewer: int,
        *,
        guild_id: int | None = None,
        season: bool = False,
        servers: bool = False,
    ) -> LeagueBoard:
        """Standings of this week's session (or its season) of ``game_id``: players (of one
        server with ``guild_id``) or servers (``servers``; ``viewer`` is then a server id)."""
        self.check_league_game(game_id)
        session = await self.league_session()
        await self._scored(session)
        standings = await league.standings(
            self.db,
            session.season if season else session.id,
            game_id,
            season=season,
            viewer=viewer,
            guild_id=None if servers else guild_id,
            by_server=servers,
        )
        return LeagueBoard(session, game_id, season, servers, standings)

    async def league_compare(self, user_id: int, game_id: str, deal_no: int) -> Comparison:
        """Every table's play of a deal of this week's set, side by side: only once the
        window is over, and never to a player whose own entry is still in play."""
        self.check_league_game(game_id)
        session = await self.league_session()
        if self._clock() < session.ends_at:
            raise WrongState("league_compare_early", ends=session.ends_at)
        mine = await league.entry(self.db, session.id, game_id, user_id)
        if mine is not None and mine.status in ("lobby", "playing"):
            raise WrongState("league_compare_playing", game=game_id)
        if not 1 <= deal_no <= session.deals:
            raise InvalidRequest("league_bad_deal", most=session.deals)
        everyone = [e for e in await league.entries(self.db, session.id, game_id) if e.table_id]
        rows: list[TableOfDeal] = []
        hands: tuple[tuple[str, ...], ...] = ()
        dealer = 0
        by_table = {
            r.table_id: r
            for r in await league.results(self.db, session.id, game_id)
            if r.deal_no == deal_no
        }
        for e in everyone:
            assert e.table_id is not None
            res = by_table.get(e.table_id)
            if res is None:
                continue
            detail = next(
                (d for d in await self.store.deal_results(e.table_id) if d.deal_no == deal_no),
                None,
            )
            rows.append(
                TableOfDeal(
                    e.name,
                    e.guild_id,
                    res.seat,
                    res.score,
                    res.resigned,
                    detail.outcome if detail else "",
                    dict(detail.detail) if detail else {},
                )
            )
            if not hands:
                hands, dealer = await self._dealt_hands(e.table_id, deal_no)
        rows.sort(key=lambda r: (r.seat, -r.score, r.name))
        return Comparison(session, game_id, deal_no, dealer, hands, tuple(rows))

    async def _dealt_hands(
        self, table_id: int, deal_no: int
    ) -> tuple[tuple[tuple[str, ...], ...], int]:
        """Every seat's hand as dealt at deal ``deal_no`` of a table, and its dealer."""
        rec = await self._load(table_id)
        entry = next(
            e
            for e in await self.store.log(table_id)
            if e.kind == "deal" and e.payload["deal_no"] == deal_no
        )
        dealer = int(entry.payload["dealer"])
        m = match.start_deal(
            match.new_match(rec.game_id, rec.players, rec.options, dealer),
            list(entry.payload["deck"]),
        )
        hands = tuple(tuple(m.rules.observe(m.deal, s).hand) for s in range(rec.players))
        return hands, dealer

    # ---- announcements ---------------------------------------------------------------------
    async def unannounced_league(self, session_id: int) -> list[tuple[int, int]]:
        return await league.unannounced(self.db, session_id)

    async def claim_league_event(self, guild_id: int, session_id: int) -> bool:
        return await league.claim_event(self.db, guild_id, session_id, self._clock())

    async def set_league_event(self, guild_id: int, session_id: int, event_id: int | None) -> None:
        await league.set_event(self.db, guild_id, session_id, event_id)
