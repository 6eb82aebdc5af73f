"""Tournaments inside one server (issue 34): open, register, start, Swiss rounds of ordinary
game tables, standings, leaving.

**Life.** A host opens a tournament in a channel (game, seats per table, rounds, deals per
table, turn clock, an optional start time, rated or not: unrated by default). Members
register and unregister until it starts; the host (or a server admin) starts it, or the
sweeper does at its start time (``advance_tournaments``: with fewer than two entrants then,
it is cancelled). Each round pairs the active entrants (``bot.services.swiss``) into
*boards*, stored first; the Discord layer then makes a thread per board and ``seat_board``
deals an ordinary table there (its computers at the expert level; the table names the
tournament and is unrated unless the tournament is rated). A round ends when every one of
its tables has ended (finished, or abandoned: then scored as it stood); the sweeper then
records each entrant's place and tournament points and pairs the next round, or finishes.

**Leaving.** An entrant who leaves a running tournament is paired no more; at their current
table the casual computer finishes their seat and they are marked (as the daily's abandon
rule: ``PlayStep.stand_in``). If they were the table's last human, the computers play it out
at once, so that the round can end. ``/privacy forget-me`` first does the same in every
tournament the player is in (``withdraw_from_tournaments``); ``bot.db.tournaments.forget`` then
keeps their results under a placeholder and an id of no one.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.db import tournaments as store
from bot.db import user_settings
from bot.db.tables import SeatRecord
from bot.db.tournaments import AlreadyEntered, Board, Entrant, RoundResult, TournamentRecord
from bot.engine import match
from bot.engine.events import Event
from bot.engine.registry import get_rules, implemented
from bot.i18n import LANGUAGES, language_of
from bot.services import ratings, swiss
from bot.services.analysis import expert_ready
from bot.services.errors import Forbidden, InvalidRequest, NotFound, ServiceError, WrongState
from bot.services.life import CLOCKS, TableLife
from bot.services.models import Outcome
from bot.services.step import SEED_BITS, PlayStep, first_dealer
from bot.services.tournament_posts import TournamentPosts, table_key

log = logging.getLogger(__name__)

#: Each game's option that fixes how many deals a table plays (Early French Tarot has none:
#: its tables play to the target score).
DEALS_OPTION = {
    "french_tarot": "deals",  # french_tarot D-20
    "queen_of_tarot": "deals",  # queen_of_tarot D-15
    "la_morte": "round_limit",
    "losers_game": "hand_limit",  # losers_game D-12
}
MAX_ROUNDS = 12
MAX_DEALS = 24
# The computer players' names at tournament tables (proper names, the same in every language).
COMPUTER_NAMES = (
    "Bot Arturo",  # i18n: code
    "Bot Beatrice",  # i18n: code
    "Bot Cosimo",  # i18n: code
    "Bot Delfina",  # i18n: code
    "Bot Ettore",  # i18n: code
    "Bot Fiammetta",  # i18n: code
    "Bot Giotto",  # i18n: code
)


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """A tournament as the Discord layer shows it: its row, entrants, boards and standings
    (after the rounds scored so far)."""

    record: TournamentRecord
    entrants: tuple[Entrant, ...]
    boards: tuple[Board, ...]  # every round's
    standings: tuple[swiss.Standing, ...]
    results: tuple[RoundResult, ...]

    @property
    def id(self) -> int:
        return self.record.id

    def names(self) -> dict[int, str]:
        return {e.user_id: e.name for e in self.entrants}

    def round_boards(self, round_no: int) -> list[Board]:
        return [b for b in self.boards if b.round == round_no]

    @property
    def scored_rounds(self) -> int:
        """Rounds whose results are in (the current one once the tournament finished)."""
        r = self.record
        return r.round if r.status == "finished" else max(0, r.round - 1)


class TournamentTables(TableLife, TournamentPosts):
    """Use cases of tournaments (a part of ``TableService``)."""

    # ---- opening and registering ------------------------------------------------------------
    async def open_tournament(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game_id: str,
        *,
        players: int | None = None,
        rounds: int = 3,
        deals: int | None = None,
        clock: str | None = None,
        starts_at: float | None = None,
        rated: bool = False,
        language: str | None = None,
        server_locale: str | None = None,
    ) -> TournamentInfo:
        """Open a tournament in a channel (see the module docstring); the host need not play.

        ``players``: seats per table (None: the game's usual table, 4, or 3 for Queen of
        Tarot). ``deals``: deals per table (None: the game's own length). ``clock``: the turn
        clock (``CLOCKS``; None: the server's). ``starts_at``: when the sweeper starts it."""
        settings = await self.guild_settings(guild_id)
        if settings.channels and channel_id not in settings.channels:
            raise Forbidden("channel_not_allowed", channels=list(settings.channels))
        if not settings.computers_allowed:
            # Rounds fill their missing seats with computers (and finish a leaver's seat).
            raise Forbidden("computers_off")
        try:
            rules = get_rules(game_id)
        except KeyError:
            raise InvalidRequest("unknown_game", game=game_id, games=list(implemented())) from None
        if players is None:
            players = min(max(4, rules.min_players), rules.max_players)
        if not rules.min_players <= players <= rules.max_players:
            raise InvalidRequest(
                "bad_players",
                game=game_id,
                players=players,
                least=rules.min_players,
                most=rules.max_players,
            )
        if not 1 <= rounds <= MAX_ROUNDS:
            raise InvalidRequest("tournament_rounds", most=MAX_ROUNDS)
        if deals is not None and (game_id not in DEALS_OPTION or not 1 <= deals <= MAX_DEALS):
            raise InvalidRequest("tournament_deals", game=game_id, most=MAX_DEALS)
        clock = settings.turn_clock if clock is None else clock
        if clock not in CLOCKS:
            raise InvalidRequest("bad_clock", clock=clock, clocks=list(CLOCKS))
        if language is not None and language not in LANGUAGES:
            raise InvalidRequest("bad_language")
        now = self._clock()
        if starts_at is not None and starts_at <= now:
            raise InvalidRequest("tournament_past_start")
        if any(t.channel_id == channel_id for t in await store.active(self.db, guild_id)):
            raise WrongState("tournament_channel_busy")
        tournament_id = await store.create(
            self.db,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            game_id=game_id,
            players=players,
            rounds=rounds,
            deals=deals,
            turn_clock=CLOCKS[clock],
            starts_at=starts_at,
            rated=rated,
            seed=self._seed_source() % (1 << SEED_BITS),
            language=language or settings.language or language_of(server_locale),
            now=now,
        )
        return await self.tournament(tournament_id)

    async def register(
        self, tournament_id: int, user_id: int, name: str, *, guild_id: int | None = None
    ) -> TournamentInfo:
        """Register for a tournament that has not started."""
        t = await self._tournament(tournament_id, guild_id)
        if t.status != "open":
            raise WrongState("tournament_started")
        try:
            await store.add_entrant(self.db, t.id, user_id, name, self._clock())
        except AlreadyEntered:
            raise WrongState("tournament_registered") from None
        return await self.tournament(t.id)

    async def unregister(
        self, tournament_id: int, user_id: int, *, guild_id: int | None = None
    ) -> TournamentInfo:
        """Unregister before the start (once it runs: ``leave_tournament``)."""
        t = await self._tournament(tournament_id, guild_id)
        if t.status != "open":
            raise WrongState("tournament_started")
        if not await store.remove_entrant(self.db, t.id, user_id):
            raise WrongState("tournament_not_registered")
        return await self.tournament(t.id)

    async def set_tournament_post(
        self,
        tournament_id: int,
        *,
        message_id: int | None = None,
        event_id: int | None = None,
        threads: bool | None = None,
    ) -> None:
        """Remember the registration post, the scheduled event, or that threads were refused."""
        fields: dict[str, int | None] = {}
        if message_id is not None:
            fields["message_id"] = message_id
        if event_id is not None:
            fields["event_id"] = event_id
        if threads is not None:
            fields["threads"] = int(threads)
        if fields:
            await store.set_fields(self.db, tournament_id, **fields)

    # ---- starting and rounds ----------------------------------------------------------------
    async def start_tournament(
        self, tournament_id: int, user_id: int, *, admin: bool = False, guild_id: int | None = None
    ) -> TournamentInfo:
        """The host (or a server admin) starts the tournament: round 1 is paired."""
        t = await self._tournament(tournament_id, guild_id)
        if user_id != t.host_id and not admin:
            raise Forbidden("tournament_host_only")
        if t.status != "open":
            raise WrongState("tournament_started")
        if len(await store.entrants(self.db, t.id)) < 2:
            raise WrongState("tournament_too_few")
        await self._next_round(t)
        return await self.tournament(t.id)

    async def cancel_tournament(
        self, tournament_id: int, user_id: int, *, admin: bool = False, guild_id: int | None = None
    ) -> TournamentInfo:
        """The host (or an admin) cancels a tournament before it starts."""
        t = await self._tournament(tournament_id, guild_id)
        if user_id != t.host_id and not admin:
            raise Forbidden("tournament_host_only")
        if not await store.set_status(
            self.db, t.id, status="cancelled", now=self._clock(), expected="open"
        ):
            raise WrongState("tournament_started")
        return await self.tournament(t.id)

    async def advance_tournaments(self, now: float | None = None) -> list[TournamentInfo]:
        """The sweeper's turn: start tournaments whose time has come (or cancel them, with
        fewer than two entrants), end rounds whose tables have all ended. Returns the
        tournaments that changed."""
        when = self._clock() if now is None else now
        changed: list[TournamentInfo] = []
        for t in await store.active(self.db):
            try:
                if t.status == "open" and t.starts_at is not None and t.starts_at <= when:
                    if len(await store.entrants(self.db, t.id)) < 2:
                        await store.set_status(
                            self.db, t.id, status="cancelled", now=when, expected="open"
                        )
                    else:
                        await self._next_round(t)
                    changed.append(await self.tournament(t.id))
                elif t.status == "running" and await self._round_over(t):
                    await self._next_round(t)
                    changed.append(await self.tournament(t.id))
            except Exception:  # one tournament's trouble must not stop the others
                log.exception("tournament %s could not move on", t.id)
        return changed

    async def _round_over(self, t: TournamentRecord) -> bool:
        states = await store.table_states(self.db, t.id, t.round)
        return bool(states) and all(s in ("finished", "abandoned") for s in states)

    async def _next_round(self, t: TournamentRecord) -> None:
        """Score the round just played (if any), then pair the next one or finish."""
        results = await self._score_round(t) if t.round else []
        names, left, played = await self._history(t, results)
        round_no = t.round + 1
        boards: list[tuple[int | None, ...]] = []
        if round_no <= t.rounds:
            active = [s.user_id for s in swiss.standings(names, left, played, t.seed)]
            active = [u for u in active if u not in left]
            if round_no == 1:
                active.sort(key=lambda u: swiss.lot(t.seed, 0, u))
            met = swiss.meetings(played)
            # Off the event loop: a large tournament's pairing takes a noticeable moment.
            boards = await self._off_loop(
                lambda: swiss.pair(active, t.players, met, t.seed, round_no)
            )
        if not await store.begin_round(
            self.db, t.id, round_no=round_no, boards=boards, results=results, now=self._clock()
        ):
            log.info("tournament %s moved on meanwhile", t.id)

    async def _history(
        self, t: TournamentRecord, new: list[RoundResult]
    ) -> tuple[dict[int, str], set[int], list[swiss.Played]]:
        entrants = await store.entrants(self.db, t.id)
        names = {e.user_id: e.name for e in entrants}
        left = {e.user_id for e in entrants if e.left_round is not None}
        return names, left, played_of([*await store.results(self.db, t.id), *new])

    async def _score_round(self, t: TournamentRecord) -> list[RoundResult]:
        """Every entrant's place and points at their table this round."""
        out: list[RoundResult] = []
        for b in await store.boards(self.db, t.id, t.round):
            rec = None if b.table_id is None else await self.store.get(b.table_id)
            if rec is None or rec.snapshot_json is None:
                continue  # never dealt: nobody played it (cannot happen once the round ends)
            m = self._decoded(rec)
            if m is None:
                continue
            resigned = [s.seat for s in rec.seats if s.resigned]
            places = [p or len(rec.seats) for p in ratings.placings(m.totals, m.winners, resigned)]
            points = swiss.table_points(places)
            for s in rec.seats:
                if s.user_id is not None:
                    out.append(
                        RoundResult(
                            t.round,
                            s.user_id,
                            b.board,
                            places[s.seat],
                            points[s.seat],
                            m.totals[s.seat],
                            s.resigned,
                        )
                    )
        return out

    # ---- a board's game table ---------------------------------------------------------------
    async def seat_board(
        self,
        tournament_id: int,
        round_no: int,
        board: int,
        channel_id: int,
        *,
        known: Board | None = None,
    ) -> Outcome | None:
        """Make and deal the game table of a board in ``channel_id`` (its thread, or the
        tournament's channel); None if it has one dealt already, or another process is making
        it (claimed: ``bot.services.tournament_posts``). A table made but not dealt (its
        process was killed in between) is dealt here. ``known``: the board as the caller's
        sweep read it with the whole round (so a sweep reads the round's boards once, not
        once per board); read here otherwise."""
        t = await self._tournament(tournament_id)
        found = known if known is not None else await store.board(self.db, t.id, round_no, board)
        if found is None or t.status != "running":
            return None
        made = found.table_id
        if made is not None and not await self._undealt(made):
            return None
        key = table_key(round_no, board)
        if not (await self.claim_tournament(t.id, key)).mine:
            return None
        try:
            # Read again under the claim: a process killed after making the table, before
            # recording the claim done, left it to be dealt here.
            again = await store.board(self.db, t.id, round_no, board)
            assert again is not None  # boards are never deleted
            table_id = again.table_id
            if table_id is None:
                table_id = await self._make_board_table(t, again, channel_id)
            outcome = await self._deal_board(table_id)
        except BaseException:
            await self.release_tournament(t.id, key)
            raise
        await self.tournament_done(t.id, key, table_id)
        return outcome

    async def _undealt(self, table_id: int) -> bool:
        rec = await self.store.get(table_id)
        return rec is not None and rec.status == "lobby"

    async def _make_board_table(self, t: TournamentRecord, b: Board, channel_id: int) -> int:
        entrants = {e.user_id: e for e in await store.entrants(self.db, t.id)}
        rules = get_rules(t.game_id)
        options = match.new_match(t.game_id, t.players, self._options(t), 0).options
        names = iter(COMPUTER_NAMES)
        seats: list[SeatRecord] = []
        for i, user in enumerate(b.seats):
            # An entrant who left (or was forgotten) before their table was dealt: a computer.
            if user is None or entrants[user].left_round is not None:
                seats.append(SeatRecord(i, None, next(names), is_bot=True))
            else:
                language = await user_settings.language(self.db, user)
                seats.append(SeatRecord(i, user, entrants[user].name, language=language))
        owner = next((s.user_id for s in seats if s.user_id is not None), t.host_id)
        seed = (t.seed * 1_000_003 + b.round * 101 + b.board) % (1 << SEED_BITS)
        table_id = await self.store.create(
            guild_id=t.guild_id,
            channel_id=channel_id,
            game_id=t.game_id,
            owner_id=owner,
            players=t.players,
            options=options,
            seed=seed,
            rules_version=rules.version,
            seats=seats,
            now=self._clock(),
            turn_clock=t.turn_clock,
            level="expert" if expert_ready(t.game_id) else "casual",
            language=t.language,
            tournament_id=t.id,
            rated=t.rated,
        )
        await store.set_board(self.db, t.id, b.round, b.board, table_id=table_id)
        return table_id

    def _options(self, t: TournamentRecord) -> dict[str, int]:
        name = DEALS_OPTION.get(t.game_id)
        return {name: t.deals} if name is not None and t.deals is not None else {}

    async def _deal_board(self, table_id: int) -> Outcome | None:
        async with self._lock(table_id):
            rec = await self._load(table_id)
            if rec.status != "lobby":
                return None
            m = match.new_match(
                rec.game_id, rec.players, rec.options, first_dealer(rec.seed, rec.players)
            )
            step = await self._advance(PlayStep(rec, m, rec.seed))
            return await self._commit(rec, step, seed=rec.seed, notify=False)

    # ---- leaving ----------------------------------------------------------------------------
    async def leave_tournament(
        self, tournament_id: int, user_id: int, *, guild_id: int | None = None
    ) -> tuple[TournamentInfo, Outcome | None]:
        """Leave a running tournament (see the module docstring). Returns the tournament and
        the outcome at the player's current table (None: they were at none)."""
        t = await self._tournament(tournament_id, guild_id)
        if t.status == "open":
            return await self.unregister(t.id, user_id), None
        if t.status != "running":
            raise WrongState("tournament_over")
        if not await store.mark_left(self.db, t.id, user_id, t.round):
            raise WrongState("tournament_not_registered")
        outcome = None
        for b in await store.boards(self.db, t.id, t.round):
            if user_id in b.seats and b.table_id is not None:
                outcome = await self._recomputing(
                    lambda tid=b.table_id: self._leave_table(tid, user_id)
                )
        return await self.tournament(t.id), outcome

    async def withdraw_from_tournaments(
        self, user_id: int
    ) -> tuple[list[TournamentInfo], list[Outcome]]:
        """The user leaves every tournament they are in, before ``/privacy forget-me`` erases
        them: unregistered where it has not started, gone (as ``leave_tournament``) where it
        runs. Returns those tournaments and the outcomes at their tables."""
        infos: list[TournamentInfo] = []
        outcomes: list[Outcome] = []
        for tournament_id in await store.entered(self.db, user_id):
            try:
                info, outcome = await self.leave_tournament(tournament_id, user_id)
            except ServiceError:
                continue  # it moved on meanwhile (started, ended, or they left already)
            infos.append(info)
            if outcome is not None:
                outcomes.append(outcome)
        return infos, outcomes

    async def _leave_table(self, table_id: int, user_id: int) -> Outcome | None:
        async with self._lock(table_id):
            rec = await self._load(table_id)
            seat = next(
                (s.seat for s in rec.seats if s.user_id == user_id and not s.resigned), None
            )
            if rec.status != "playing" or seat is None:
                return None
            step = PlayStep(rec, self._match(rec), rec.seed)
            step.log("resign", seat, {"seat": seat})
            step.note(Event("resigned", seat))
            step.auto.add(seat)
            # Unlike a resignation at an ordinary table, the last human's leaving does not
            # close the table: the computers play it out, and it counts for the round.
            step = await self._advance(step)
            return await self._commit(rec, step, resign_seat=seat, actor=seat)

    # ---- queries ----------------------------------------------------------------------------
    async def tournament(self, tournament_id: int) -> TournamentInfo:
        t = await self._tournament(tournament_id)
        entrants = await store.entrants(self.db, t.id)
        results = await store.results(self.db, t.id)
        names = {e.user_id: e.name for e in entrants}
        left = {e.user_id for e in entrants if e.left_round is not None}
        table = swiss.standings(names, left, played_of(results), t.seed)
        return TournamentInfo(
            t,
            tuple(entrants),
            tuple(await store.boards(self.db, t.id)),
            tuple(table),
            tuple(results),
        )

    async def tournament_here(self, guild_id: int, channel_id: int | None) -> TournamentInfo:
        """The server's tournament a command means: the channel's open or running one, else
        the server's only open or running one, else its latest."""
        active = await store.active(self.db, guild_id)
        here = [t for t in active if t.channel_id == channel_id]
        if here or len(active) == 1:
            return await self.tournament((here or active)[0].id)
        if active:
            raise NotFound("tournament_which")
        found = await store.latest(self.db, guild_id)
        if found is None:
            raise NotFound("tournament_none")
        return await self.tournament(found.id)

    async def _tournament(
        self, tournament_id: int, guild_id: int | None = None
    ) -> TournamentRecord:
        t = await store.get(self.db, tournament_id) if 0 <= tournament_id < 1 << 63 else None
        # A button crafted on another server names no tournament of this one.
        if t is None or (guild_id is not None and t.guild_id != guild_id):
            raise NotFound("tournament_gone")
        return t

    async def tournaments_to_tend(self) -> list[TournamentRecord]:
        """Tournaments that may owe Discord something: running ones, finished ones whose
        final standings are not out yet, and ended ones whose scheduled event is open."""
        return await store.to_tend(self.db)


def played_of(results: list[RoundResult]) -> list[swiss.Played]:
    """Each result with the other entrants of its table (for Buchholz and repeats)."""
    tables: dict[tuple[int, int], list[int]] = {}
    for r in results:
        tables.setdefault((r.round, r.board), []).append(r.user_id)
    return [
        swiss.Played(
            r.round,
            r.user_id,
            r.place,
            r.points,
            tuple(u for u in tables[(r.round, r.board)] if u != r.user_id),
        )
        for r in results
    ]
