"""The daily deal (issue 20): each UTC day one deal per game, the same for everyone everywhere,
played alone in one's DMs against the expert computers; one attempt a player, day and game.

**The deal.** A day's deal of a game is a seed made from the day, the game and a secret salt
(``DAILY_SALT``, else one made at random once and kept in ``bot_state``): HMAC-SHA256, so it
cannot be computed in advance from public data. The seed is a table seed like any other: it
gives the first dealer, the deck (``deal_seed(seed, 0)``) and the computers' random streams
(``computer_rng(seed, seq)``), and the player's seat comes from the same HMAC. A day whose deal
would be cancelled before anyone acts (French Tarot's petit sec) takes the next seed of the
day instead, so every daily deal is played.

**The attempt** is an ordinary table (``tables.daily_date``) whose channel is the player's DM
channel: the durable publisher, restarts, old buttons and computer moves work unchanged. An
unfinished "Try another way" replay of the player's there is replaced by it
(``bot.services.dm_room``). It is
one deal (``PlayStep`` ends the match after it), unrated, without a turn clock or hints, its
computers at the expert level deciding from their work budget alone (``step.strict_expert_action``)
so that the same choices meet the same replies everywhere.

**Abandoning.** ``resign_daily`` (or an attempt left untouched for ``DAILY_IDLE``) hands the
player's seat to the casual computer, which plays the rest of the deal at once; the score is
the deal's result for that seat, marked as resigned on the boards. An attempt the bot had to
close (the player's DMs became unreachable) has no score; it is still the day's attempt.

**Forgetting** (``/privacy forget-me``) keeps the attempts on the boards under no one's id.
So that it gives no second attempt at a deal whose every hand the player may have seen, each
forgotten attempt at a deal still playable leaves a marker (``played_marker``): a keyed hash
of the day, the game and the user id, which names no one, refused when the same account asks
for that deal again, and deleted by the daily upkeep once the day is over.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from bot.db import daily, user_settings
from bot.db.database import Database
from bot.db.tables import LogEntry, SeatRecord, TableRecord
from bot.engine import match
from bot.engine.actions import Action
from bot.engine.codec import parse_action
from bot.engine.deck import deal_seed, shuffle
from bot.engine.events import Event
from bot.engine.registry import get_rules, implemented
from bot.i18n import language_of
from bot.services.analysis import expert_ready
from bot.services.dm_room import DmRoom
from bot.services.errors import Forbidden, InvalidRequest, NotFound, WrongState
from bot.services.models import Outcome, TableInfo
from bot.services.step import SEED_BITS, PlayStep, first_dealer, first_match, table_info

log = logging.getLogger(__name__)

#: The daily games and their player count: each game's most common table. French Tarot's
#: rules name 4 the usual game (5 is their seed default, the variant for larger groups); Early
#: French Tarot's source says "4 is best"; La Morte (3-5) and Loser's Game (3-6) are at their
#: best with 4; Queen of Tarot is for exactly 3.
DAILY_GAMES: dict[str, int] = {
    "french_tarot": 4,
    "la_morte": 4,
    "early_french_tarot": 4,
    "losers_game": 4,
    "queen_of_tarot": 3,
}
DEFAULT_GAME = "french_tarot"
DAILY_IDLE = 24 * 3600.0  # an attempt untouched this long is played out by the computer
UNDEALT_GRACE = 60.0  # a daily table not dealt this long after it was made was interrupted
# The computer players' names at a daily table (proper names, the same in every language).
DAILY_NAMES = (
    "Bot Arturo",  # i18n: code
    "Bot Beatrice",  # i18n: code
    "Bot Cosimo",  # i18n: code
    "Bot Delfina",  # i18n: code
    "Bot Ettore",  # i18n: code
)


def with_computers(players: int, humans: Mapping[int, SeatRecord]) -> list[SeatRecord]:
    """A DM or league table's seats: each of ``humans`` at its seat number (the key), the
    daily deal's named computers in the others, in order."""
    names = iter(DAILY_NAMES)
    return [
        replace(humans[i], seat=i) if i in humans else SeatRecord(i, None, next(names), is_bot=True)
        for i in range(players)
    ]


def utc_day(now: float) -> str:
    """The UTC day of Unix time ``now``, as ``YYYY-MM-DD``."""
    return datetime.fromtimestamp(now, UTC).date().isoformat()


def day_before(day: str) -> str:
    return (datetime.fromisoformat(day) - timedelta(days=1)).date().isoformat()


def daily_games() -> list[str]:
    """The games with a daily deal (implemented ones, in ``DAILY_GAMES`` order)."""
    have = set(implemented())
    return [g for g in DAILY_GAMES if g in have]


async def marker_secret(db: Database, now: float) -> str:
    """The secret of forget-me's markers: made at random on first use and kept in the database
    (``bot_state``), the same for every process and across restarts."""
    return await daily.salt(db, secrets.token_hex(32), now, key=daily.MARKER_KEY)


def played_marker(secret: str, day: str, game_id: str, user_id: int) -> str:
    """The marker a forgotten attempt at the deal of ``day`` and ``game_id`` leaves (see the
    module docstring): HMAC-SHA256 under ``secret``, so that it cannot be tied to a user id
    without the secret, nor tried against the ids of a server's members."""
    message = f"trionfi-daily-played:{day}:{game_id}:{user_id}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """A day's deal of a game: its table seed and the seat everyone plays."""

    day: str
    game_id: str
    players: int
    seed: int
    seat: int


def daily_deal(salt: str, day: str, game_id: str) -> DailyDeal:
    """The deal of ``day`` for ``game_id`` under ``salt`` (see the module docstring)."""
    players = DAILY_GAMES[game_id]
    rules = get_rules(game_id)
    for n in range(1000):
        digest = hmac.new(
            salt.encode(), f"trionfi-daily:{day}:{game_id}:{n}".encode(), hashlib.sha256
        ).digest()
        seed = int.from_bytes(digest[:8], "big") % (1 << SEED_BITS)
        seat = int.from_bytes(digest[8:12], "big") % players
        m = match.new_match(game_id, players, None, first_dealer(seed, players))
        # As ``PlayStep.start_deal`` deals the first deal of a table of this seed.
        m = match.start_deal(m, shuffle(rules.pack(players), deal_seed(seed, 0)))
        if m.deals_played == 0:  # not cancelled on the spot
            return DailyDeal(day, game_id, players, seed, seat)
    raise AssertionError("no playable daily deal")  # i18n: code (never reached in practice)


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    by_computer: bool  # played for the player (after they resigned)


@dataclass(frozen=True, slots=True)
class Reveal:
    """A finished player's look at the day's deal: every hand as dealt, their own decisions
    and those of the day's best player at the same seat."""

    attempt: daily.Attempt
    table: TableInfo
    deal: DailyDeal
    hands: tuple[tuple[str, ...], ...]  # per seat, as dealt
    rest: tuple[str, ...]  # cards dealt to no hand (dog, talon, set aside)
    dealer: int
    standing: daily.Standing
    best: daily.Entry | None  # the day's best finished attempt (None: no other)
    mine: tuple[Decision, ...]  # the player's own decisions
    theirs: tuple[Decision, ...]  # the day's best player's decisions at the same seat
    deltas: tuple[int, ...]  # the deal's result per seat
    outcome: str


@dataclass(frozen=True, slots=True)
class DailyBoards:
    """A day's boards of one game (scores only) and, for a finished player, their standings."""

    day: str
    game_id: str
    world: daily.Board
    server: daily.Board | None
    mine: daily.Attempt | None
    world_standing: daily.Standing | None
    server_standing: daily.Standing | None


@dataclass(frozen=True, slots=True)
class DailyRecord:
    """A player's dailies for ``/stats``."""

    played: int
    average_percentile: float | None
    streak: int  # consecutive UTC days, up to today or yesterday, with a finished daily
    best_streak: int


def streaks(days: list[str], today: str) -> tuple[int, int]:
    """``(current, best)`` runs of consecutive days in ``days`` (newest first). The current
    run still counts when its last day is yesterday (today's daily may still come)."""
    best = run = 0
    previous: str | None = None
    current = 0
    for i, day in enumerate(days):
        run = run + 1 if previous is not None and day_before(previous) == day else 1
        previous = day
        best = max(best, run)
        if i == run - 1:  # still in the newest run
            current = run
    if days and days[0] not in (today, day_before(today)):
        current = 0
    return current, best


class DailyTables(DmRoom):
    """The daily deal's use cases (a mixin of ``TableService``)."""

    #: ``DAILY_SALT`` from the configuration (None: the one kept in the database).
    daily_salt: str | None = None
    _salt_cache: str | None = None
    _marker_secret: str | None = None

    async def _salt(self) -> str:
        if self.daily_salt:
            return self.daily_salt
        if self._salt_cache is None:
            self._salt_cache = await daily.salt(self.db, secrets.token_hex(32), self._clock())
        return self._salt_cache

    async def _played_marker(self, day: str, game_id: str, user_id: int) -> str:
        if self._marker_secret is None:
            self._marker_secret = await marker_secret(self.db, self._clock())
        return played_marker(self._marker_secret, day, game_id, user_id)

    def today(self) -> str:
        return utc_day(self._clock())

    async def deal_of(self, game_id: str, day: str | None = None) -> DailyDeal:
        return daily_deal(await self._salt(), day or self.today(), game_id)

    @staticmethod
    def check_game(game_id: str) -> None:
        if game_id not in daily_games():
            raise InvalidRequest("daily_unknown_game", game=game_id, games=daily_games())

    # ---- playing ---------------------------------------------------------------------------
    async def daily_attempt(
        self, user_id: int, game_id: str, day: str | None = None
    ) -> daily.Attempt | None:
        self.check_game(game_id)
        return await daily.attempt(self.db, day or self.today(), game_id, user_id)

    async def check_daily(self, user_id: int, game_id: str) -> None:
        """Refuse before anything is sent when the player may not start today's deal."""
        self.check_game(game_id)
        today = self.today()
        mine = await daily.attempt(self.db, today, game_id, user_id)
        if mine is not None:
            raise WrongState("daily_played", game=game_id, status=mine.status)
        if await daily.marked(self.db, await self._played_marker(today, game_id, user_id)):
            raise WrongState("daily_played_forgotten", game=game_id)
        busy = await daily.playing(self.db, user_id)
        if busy:
            raise WrongState("daily_in_progress", game=busy[0].game_id, day=busy[0].day)

    async def start_daily(
        self,
        user_id: int,
        name: str,
        game_id: str,
        *,
        guild_id: int | None,
        dm_channel_id: int,
        message_id: int | None = None,
        locale: str | None = None,
    ) -> Outcome:
        """Deal today's deal of ``game_id`` to the player, in their DM channel (its first
        message ``message_id`` becomes the table), and let the computers play up to them."""
        await self.check_daily(user_id, game_id)
        deal = await self.deal_of(game_id)
        language = await user_settings.language(self.db, user_id) or language_of(locale)
        me = SeatRecord(deal.seat, user_id, name, language=language)
        seats = with_computers(deal.players, {deal.seat: me})
        marker = await self._played_marker(deal.day, game_id, user_id)
        claim = daily.Claim(deal.day, game_id, user_id, guild_id or 0, deal.seat, name, marker)
        try:
            return await self._solo_in_dm(
                dm_channel_id,
                user_id,
                message_id,
                WrongState("daily_in_progress", game=game_id, day=deal.day),
                game_id=game_id,
                players=deal.players,
                seed=deal.seed,
                seats=seats,
                language=language,
                level="expert" if expert_ready(game_id) else "casual",
                daily_claim=claim,
            )
        except daily.PlayedBeforeForgetting:  # forgotten between the check and now
            raise WrongState("daily_played_forgotten", game=game_id) from None
        except daily.AlreadyPlayed:
            raise WrongState("daily_played", game=game_id, status="playing") from None

    async def _solo_in_dm(
        self,
        dm_channel_id: int,
        user_id: int,
        message_id: int | None,
        busy: WrongState,
        *,
        game_id: str,
        players: int,
        seed: int,
        seats: list[SeatRecord],
        language: str | None,
        level: str,
        **claim: object,
    ) -> Outcome:
        """Make a player's daily deal or league set table in their DM channel (its message
        ``message_id``; ``claim``: its ``daily_claim`` or ``league_claim``) and deal it, its
        computers at ``level``, no turn clock. An unfinished replay of the player's there is
        replaced (``bot.services.dm_room``; its outcome in ``Outcome.others``); another table
        there refuses with ``busy``."""
        async with self._channel_lock(dm_channel_id):
            replaced = await self._make_dm_room(dm_channel_id, user_id, busy)
            table_id = await self._create_in_dm(
                dm_channel_id,
                user_id,
                message_id,
                busy,
                game_id=game_id,
                players=players,
                options=match.new_match(game_id, players, None, 0).options,
                seed=seed,
                rules_version=get_rules(game_id).version,
                seats=seats,
                now=self._clock(),
                turn_clock=None,
                level=level,
                language=language,
                **claim,
            )
            outcome = await self._dealt(table_id)
        return replace(outcome, others=replaced)

    async def _dealt(self, table_id: int) -> Outcome:
        """A daily or league table just made, dealt: here, or by the sweep meanwhile (a very
        slow start; then as it stands)."""
        outcome = await self._deal_daily(table_id)
        if outcome is None:
            rec = await self._load(table_id)
            outcome = await self._outcome(table_info(rec), self._match(rec), None)
        return outcome

    async def _deal_daily(self, table_id: int) -> Outcome | None:
        """Deal a daily table (or a league entry's, issue 34) made but not dealt yet (None: it
        was dealt already)."""
        async with self._lock(table_id):
            rec = await self._load(table_id)
            if rec.status != "lobby" or (rec.daily_date is None and rec.league_session is None):
                return None
            m = match.new_match(
                rec.game_id, rec.players, rec.options, first_dealer(rec.seed, rec.players)
            )
            step = await self._advance(PlayStep(rec, m, rec.seed))
            return await self._commit(rec, step, seed=rec.seed, notify=False)

    async def resign_daily(self, user_id: int, game_id: str) -> Outcome:
        """The player gives up their attempt: the casual computer plays the rest of their
        seat at once, and the deal's result is their score (see the module docstring)."""
        self.check_game(game_id)
        mine = [a for a in await daily.playing(self.db, user_id) if a.game_id == game_id]
        if not mine or mine[0].table_id is None:
            raise WrongState("daily_not_playing", game=game_id)
        outcome = await self._play_out(mine[0].table_id, "resigned")
        if outcome is None:
            raise WrongState("daily_not_playing", game=game_id)
        return outcome

    async def settle_idle_dailies(self, now: float | None = None) -> list[Outcome]:
        """Attempts untouched for ``DAILY_IDLE`` are played out as if resigned; one made but
        never dealt (the bot stopped right between the two) is dealt now. Forget-me's markers
        of the days that are over are deleted."""
        when = self._clock() if now is None else now
        await daily.drop_markers(self.db, utc_day(when))
        done: list[Outcome] = []
        for table_id in await daily.undealt_tables(self.db, when - UNDEALT_GRACE):
            try:
                outcome = await self._deal_daily(table_id)
            except Exception:
                log.exception("could not deal the daily table %s", table_id)
                continue
            if outcome is not None:
                done.append(outcome)
        for table_id in await daily.idle_tables(self.db, when - DAILY_IDLE):
            try:
                outcome = await self._play_out(table_id, "taken_over")
            except Exception:
                log.exception("could not play out the idle daily table %s", table_id)
                continue
            if outcome is not None:
                done.append(outcome)
        return done

    async def _play_out(self, table_id: int, why: str) -> Outcome | None:
        async with self._lock(table_id):
            rec = await self._load(table_id)
            if rec.status != "playing" or rec.daily_date is None:
                return None
            seat = next(s.seat for s in rec.seats if s.user_id is not None)
            step = PlayStep(rec, self._match(rec), rec.seed)
            step.log("resign", seat, {"seat": seat})
            step.note(Event(why, seat))
            step.auto.add(seat)
            step = await self._advance(step)
            return await self._commit(rec, step, resign_seat=seat, actor=seat)

    # ---- results ---------------------------------------------------------------------------
    async def daily_boards(
        self, game_id: str, user_id: int, guild_id: int | None, day: str | None = None
    ) -> DailyBoards:
        """The day's boards (scores only: they reveal nothing of the deal) and the viewer's
        standings once their own attempt is finished."""
        self.check_game(game_id)
        when = day or self.today()
        world = await daily.board(self.db, when, game_id)
        server = await daily.board(self.db, when, game_id, guild_id) if guild_id else None
        mine = await daily.attempt(self.db, when, game_id, user_id)
        world_standing = server_standing = None
        if mine is not None and mine.status == "finished" and mine.score is not None:
            world_standing = await daily.standing(
                self.db, when, game_id, mine.score, players=world.players
            )
            if server is not None and mine.guild_id == guild_id:
                server_standing = await daily.standing(
                    self.db, when, game_id, mine.score, guild_id, players=server.players
                )
        return DailyBoards(when, game_id, world, server, mine, world_standing, server_standing)

    async def daily_reveal(self, user_id: int, game_id: str, day: str | None = None) -> Reveal:
        """The deal with every hand, for a player who finished it (anyone else is refused:
        nothing of a day's deal is shown before one's own attempt is over)."""
        self.check_game(game_id)
        when = day or self.today()
        mine = await daily.attempt(self.db, when, game_id, user_id)
        if mine is None or mine.status != "finished" or mine.table_id is None:
            raise WrongState(
                "daily_reveal_unfinished",
                game=game_id,
                status=None if mine is None else mine.status,
            )
        rec = await self._load(mine.table_id)
        entries = await self.store.log(rec.id)
        hands, rest, dealer = _dealt(rec, entries)
        standing = await daily.standing(self.db, when, game_id, mine.score or 0)
        top = await daily.board(self.db, when, game_id, size=2)
        best = next((e for e in top.top if e.user_id != user_id), None)
        if best is not None and mine.score is not None and mine.score >= best.score:
            best = None  # the player is (one of) the best: nobody to compare with
        theirs: tuple[Decision, ...] = ()
        if best is not None:
            other = await daily.attempt(self.db, when, game_id, best.user_id)
            if other is not None and other.table_id is not None:
                theirs = _decisions(
                    await self.store.log(other.table_id), other.seat, game_id, rec.players
                )
        results = await self.store.deal_results(rec.id)
        deltas = results[0].deltas if results else ()
        return Reveal(
            attempt=mine,
            table=table_info(rec),
            deal=await self.deal_of(game_id, when),
            hands=hands,
            rest=rest,
            dealer=dealer,
            standing=standing,
            best=best,
            mine=_decisions(entries, mine.seat, game_id, rec.players),
            theirs=theirs,
            deltas=deltas,
            outcome=results[0].outcome if results else "",
        )

    async def daily_record(self, user_id: int) -> DailyRecord:
        """The player's dailies for ``/stats``: how many finished, their average percentile
        over the last ``daily.RECENT`` (on the boards as they stand), and their streaks (any
        game)."""
        found = await daily.percentiles(self.db, user_id)
        days = await daily.finished_days(self.db, user_id)
        current, best = streaks(days, self.today())
        average = sum(found) / len(found) if found else None
        return DailyRecord(await daily.finished_count(self.db, user_id), average, current, best)

    async def daily_reveal_of_table(self, table_id: int, user_id: int) -> Reveal:
        """``daily_reveal`` from an attempt's own table (the **Compare** button of its DM
        post): only that attempt's player may use it."""
        mine = await self.daily_table(table_id)
        if mine.user_id != user_id:
            raise Forbidden("daily_not_yours")
        return await self.daily_reveal(user_id, mine.game_id, mine.day)

    async def daily_table(self, table_id: int) -> daily.Attempt:
        found = await daily.attempt_of_table(self.db, table_id)
        if found is None:
            raise NotFound("table_gone")
        return found

    # ---- announcements ---------------------------------------------------------------------
    async def set_daily_channel(self, guild_id: int, channel_id: int | None) -> None:
        await daily.set_channel(self.db, guild_id, channel_id, self._clock())

    async def daily_channel(self, guild_id: int) -> int | None:
        return await daily.channel(self.db, guild_id)

    async def unposted_announcements(self) -> list[tuple[int, int, str]]:
        """``(guild, channel, day)`` of today's announcements not made yet (nor claimed). The
        caller claims each just before posting it (``claim_announcement``): claiming them
        all first would lose the rest of the day's if the posting stopped half-way."""
        day = self.today()
        return [(g, c, day) for g, c in await daily.unposted(self.db, day)]

    async def claim_announcement(self, guild_id: int, channel_id: int, day: str) -> bool:
        """Claim one server's announcement of ``day`` in the database: True for exactly one
        caller of every process (so none is posted twice)."""
        return await daily.claim_post(self.db, guild_id, day, channel_id, self._clock())

    async def yesterdays_winners(self, guild_id: int, day: str) -> list[tuple[str, str, int]]:
        """``(game, name, score)``: the best finished attempt of each daily game on
        ``guild_id``'s board the day before ``day`` (the day's announcement names them)."""
        winners: list[tuple[str, str, int]] = []
        for game in daily_games():
            top = (await daily.board(self.db, day_before(day), game, guild_id, size=1)).top
            if top:
                winners.append((game, top[0].name, top[0].score))
        return winners

    async def release_announcement(self, guild_id: int, day: str) -> None:
        await daily.release_post(self.db, guild_id, day)


def _dealt(
    rec: TableRecord, entries: list[LogEntry]
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], int]:
    """Every seat's hand as first dealt, the cards no hand got, and the dealer."""
    m = first_match(rec, entries)
    deal_entry = next(e for e in entries if e.kind == "deal")
    deck = list(deal_entry.payload["deck"])
    m = match.start_deal(m, deck)
    rules = m.rules
    hands = tuple(tuple(rules.observe(m.deal, s).hand) for s in range(m.players))
    held = {c for h in hands for c in h}
    return hands, tuple(c for c in deck if c not in held), int(deal_entry.payload["dealer"])


def _decisions(
    entries: list[LogEntry], seat: int, game_id: str, players: int
) -> tuple[Decision, ...]:
    """The seat's decisions in the deal, in order (the computer's for a resigned seat too)."""
    rules = get_rules(game_id)
    return tuple(
        Decision(parse_action(rules, e.payload, players), e.payload.get("by") is not None)
        for e in entries
        if e.kind == "act" and e.seat == seat
    )
