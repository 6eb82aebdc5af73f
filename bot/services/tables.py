"""TableService: the use cases of a game table (lobby, start, act, rematch, queries).

The only API the Discord layer calls. Every call takes the table's ``asyncio.Lock``, loads the
table (one row + its seats), works on the pure engine, and persists the log entries, snapshot,
sequence number and status in ONE transaction guarded by the expected previous ``seq``
(``TableCore``). Turn clocks, resigning and admin controls come from ``TableLife``. Seeds and
time are parameters, so every call is deterministic under test.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.db.tables import ChannelBusy, SeatRecord, SeatTaken, StaleState, TableRecord
from bot.engine import match
from bot.engine.actions import Action
from bot.engine.codec import parse_action
from bot.engine.errors import IllegalAction
from bot.engine.match import MatchState
from bot.engine.registry import get_rules, implemented
from bot.engine.rules import BadOption, Rules
from bot.i18n import DEFAULT as DEFAULT_LANGUAGE
from bot.i18n import LANGUAGES, language_of
from bot.services.analysis import expert_ready
from bot.services.bounds import Where, require_here, require_room
from bot.services.errors import (
    Conflict,
    Forbidden,
    IllegalMove,
    InvalidRequest,
    NotSeated,
    ServiceError,
    WrongState,
)
from bot.services.league_tables import LeagueLobbies
from bot.services.life import CLOCKS
from bot.services.locks import TableLock
from bot.services.models import Outcome, TableInfo
from bot.services.picks import TablePicks
from bot.services.step import (
    LEVELS,
    SEED_BITS,
    PlayStep,
    deal_number,
    first_dealer,
    first_match,
    human_seat,
    illegal_move,
    name_of,
    replay_entry,
    table_info,
)
from bot.services.tournaments import TournamentTables

log = logging.getLogger(__name__)

# The computer players' names are stored with their seats (data, like a member's display
# name) and are proper names, the same in every language.
COMPUTER_NAMES = (
    "Arturo",  # i18n: code
    "Beatrice",  # i18n: code
    "Cosimo",  # i18n: code
    "Delfina",  # i18n: code
    "Ettore",  # i18n: code
    "Fiammetta",  # i18n: code
    "Giotto",  # i18n: code
    "Ippolita",  # i18n: code
)


def computer_name(name: str | int) -> str:
    """A computer player's stored seat name ("Bot Arturo"; a resigned human's seat, "Bot
    Ana"), the same in every language."""
    return f"Bot {name}"  # i18n: code


def option_refusal(rules: Rules, options: Mapping[str, Any] | None) -> InvalidRequest:
    """Which of ``options`` the engine refused (``BadOption``), found again from the game's
    option specs: an unknown one, or one out of its range."""
    for name, value in (options or {}).items():
        spec = rules.options_spec.get(name)
        if spec is None:
            return InvalidRequest("unknown_option", option=name)
        try:
            spec.check(name, value)
        except BadOption:
            return InvalidRequest("bad_option", option=name, least=spec.minimum, most=spec.maximum)
    return InvalidRequest("bad_option")


class TableService(LeagueLobbies, TournamentTables, TablePicks):
    """Use cases of game tables. Every method returns models and raises ``ServiceError``s."""

    # ---- lobby -----------------------------------------------------------------------
    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        owner_id: int,
        owner_name: str,
        game_id: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        computers: int = 0,
        clock: str | None = None,
        *,
        level: str = "casual",
        hints: bool = False,
        language: str | None = None,
        server_locale: str | None = None,
        owner_locale: str | None = None,
    ) -> TableInfo:
        """Open a lobby in a channel; the owner takes seat 0, then ``computers`` computers.

        ``clock`` is the turn clock (``CLOCKS``; ``None``: the server's default). The
        server's settings decide where tables may open and whether computers may play.
        ``level`` is how the table's computer players think (``LEVELS``); ``hints`` opens a
        practice table where players may ask the expert for hints, never rated.
        ``language`` is the table's (``bot.i18n.LANGUAGES``); None: the server's default
        setting, else its Discord locale ``server_locale``. ``owner_locale`` is the locale of
        the owner's client (their DMs' language unless they chose one with ``/language``).
        """
        settings = await self.guild_settings(guild_id)
        if language is not None and language not in LANGUAGES:
            raise InvalidRequest("bad_language")
        spoken = language or settings.language or language_of(server_locale)
        if settings.channels and channel_id not in settings.channels:
            raise Forbidden("channel_not_allowed", channels=list(settings.channels))
        if computers and not settings.computers_allowed:
            raise Forbidden("computers_off")
        clock = settings.turn_clock if clock is None else clock
        if clock not in CLOCKS:
            raise InvalidRequest("bad_clock", clock=clock, clocks=list(CLOCKS))
        try:
            rules = get_rules(game_id)
        except KeyError:
            raise InvalidRequest("unknown_game", game=game_id, games=list(implemented())) from None
        if level not in LEVELS:
            raise InvalidRequest("bad_level", level=level, levels=list(LEVELS))
        if (level != "casual" or hints) and not expert_ready(game_id):
            raise InvalidRequest("no_expert", game=game_id)
        if not rules.min_players <= players <= rules.max_players:
            raise InvalidRequest(
                "bad_players",
                game=game_id,
                players=players,
                least=rules.min_players,
                most=rules.max_players,
            )
        try:
            normalized = match.new_match(game_id, players, options, 0).options
        except ValueError:  # BadOption is a ValueError
            raise option_refusal(rules, options) from None
        if not 0 <= computers <= players - 1:
            raise InvalidRequest("too_many_computers", players=players, most=players - 1)
        require_room(await self.store.open_for_user(owner_id), owner_id, hosting=True)
        seats = [
            SeatRecord(
                0, owner_id, owner_name, language=await self._dm_language(owner_id, owner_locale)
            )
        ]
        seats += [
            SeatRecord(i + 1, None, computer_name(COMPUTER_NAMES[i]), is_bot=True)
            for i in range(computers)
        ]
        return await self._create_lobby(
            guild_id,
            channel_id,
            owner_id,
            game_id,
            players,
            normalized,
            seats,
            clock,
            level=level,
            hints=hints,
            language=spoken,
        )

    async def _create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        owner_id: int,
        game_id: str,
        players: int,
        normalized: Mapping[str, Any],
        seats: list[SeatRecord],
        clock: str,
        rematch_of: int | None = None,
        *,
        level: str = "casual",
        hints: bool = False,
        language: str = DEFAULT_LANGUAGE,
    ) -> TableInfo:
        rules = get_rules(game_id)
        async with self._channel_lock(channel_id):
            existing = await self.store.open_in_channel(channel_id)
            if existing is not None:
                raise self._busy(existing)
            now = self._clock()
            try:
                table_id = await self.store.create(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game_id=game_id,
                    owner_id=owner_id,
                    players=players,
                    options=normalized,
                    seed=self._seed_source() % (1 << SEED_BITS),
                    rules_version=rules.version,
                    seats=seats,
                    now=now,
                    turn_clock=CLOCKS[clock],
                    rematch_of=rematch_of,
                    level=level,
                    hints=hints,
                    language=language,
                )
            except ChannelBusy:
                existing = await self.store.open_in_channel(channel_id)
                raise (self._busy(existing) if existing else WrongState("channel_busy")) from None
        return table_info(await self._load(table_id))

    async def join(
        self,
        table_id: int,
        user_id: int,
        name: str,
        locale: str | None = None,
        *,
        where: Where | None = None,
        sees_threads: bool = False,
    ) -> TableInfo:
        """Take the next free seat of a lobby (``locale``: the client's, see ``open_lobby``).

        ``where`` (every use case that names a table takes it): where the interaction came
        from, refused unless it is the table's server (``bot.services.bounds``).
        ``sees_threads``: the user may read others' private threads there (a league table's
        lobby refuses them, ``bot.services.league_tables``)."""
        language = await self._dm_language(user_id, locale)
        async with self._lock(table_id):
            rec = await self._load(table_id)
            require_here(rec, where)
            self._require_lobby(rec)
            if any(s.user_id == user_id for s in rec.seats):
                raise WrongState("already_seated")
            if len(rec.seats) >= rec.players:
                raise WrongState("table_full")
            if rec.league_session is not None:
                await self.check_league_seat(rec, user_id, sees_threads)
            require_room(await self.store.open_for_user(user_id), user_id, hosting=False)
            seats = (*rec.seats, SeatRecord(len(rec.seats), user_id, name, language=language))
            return await self._save_lobby(rec, rec.owner_id, seats)

    async def leave(self, table_id: int, user_id: int, *, where: Where | None = None) -> TableInfo:
        """Leave a lobby. Ownership passes to the next human; with none left it is abandoned."""
        async with self._lock(table_id):
            rec = await self._load(table_id)
            require_here(rec, where)
            if rec.status == "playing":
                raise WrongState("leave_started")
            self._require_lobby(rec)
            self._seated(rec, user_id)
            kept = [s for s in rec.seats if s.user_id != user_id]
            seats = tuple(replace(s, seat=i) for i, s in enumerate(kept))  # compact renumbering
            humans = [s for s in seats if s.user_id is not None]
            owner = rec.owner_id
            if owner == user_id and humans:
                owner = humans[0].user_id or owner
            return await self._save_lobby(rec, owner, seats, abandon=not humans)

    async def add_computer(
        self, table_id: int, user_id: int, *, where: Where | None = None
    ) -> TableInfo:
        """Any seated human may fill the next free seat of a lobby with a computer player,
        unless the server's admins turned computer players off (issue 28, defect 4)."""
        async with self._lock(table_id):
            rec = await self._load(table_id)
            require_here(rec, where)
            self._require_lobby(rec)
            self._seated(rec, user_id)
            if rec.league_session is not None:  # its empty seats get the experts at the start
                raise WrongState("league_computers_at_start")
            if len(rec.seats) >= rec.players:
                raise WrongState("table_full")
            if not (await self.guild_settings(rec.guild_id)).computers_allowed:
                raise Forbidden("computers_off")
            used = {s.name for s in rec.seats}
            names = [computer_name(n) for n in COMPUTER_NAMES]
            name = next((n for n in names if n not in used), computer_name(len(rec.seats) + 1))
            seats = (*rec.seats, SeatRecord(len(rec.seats), None, name, is_bot=True))
            return await self._save_lobby(rec, rec.owner_id, seats)

    async def _save_lobby(
        self,
        rec: TableRecord,
        owner_id: int,
        seats: tuple[SeatRecord, ...],
        *,
        abandon: bool = False,
    ) -> TableInfo:
        try:
            await self.store.update_lobby(
                rec.id, owner_id=owner_id, seats=seats, now=self._clock(), abandon=abandon
            )
        except StaleState as e:
            raise Conflict("changed_meanwhile") from e
        except SeatTaken as e:
            raise WrongState("already_seated") from e
        status = "abandoned" if abandon else "lobby"
        return table_info(replace(rec, owner_id=owner_id, seats=seats, status=status))

    # ---- play ------------------------------------------------------------------------
    async def start(
        self,
        table_id: int,
        user_id: int,
        *,
        seed: int | None = None,
        where: Where | None = None,
    ) -> Outcome:
        """The owner starts a full lobby: first dealer by seeded lottery, deal 1, computers.

        A lobby with no human seated never starts (issue 28, defect 3): computers alone
        would play a whole match nobody watches (rated, at the expert level, in one job)."""
        return await self._recomputing(lambda: self._start(table_id, user_id, seed, where))

    async def _start(
        self, table_id: int, user_id: int, seed: int | None, where: Where | None
    ) -> Outcome:
        async with self._lock(table_id):
            rec = await self._load(table_id)
            require_here(rec, where)
            self._require_lobby(rec)
            if rec.league_session is not None:  # its thread is made first (its Start button)
                raise WrongState("league_start_button")
            if rec.owner_id != user_id:
                host = next((s.name for s in rec.seats if s.user_id == rec.owner_id), None)
                raise Forbidden("host_only_start", host=host)
            if not any(s.user_id is not None for s in rec.seats):
                raise WrongState("no_human")
            if len(rec.seats) < rec.players:
                raise WrongState("table_not_full", players=rec.players, seated=len(rec.seats))
            table_seed = rec.seed if seed is None else seed % (1 << SEED_BITS)
            m = match.new_match(
                rec.game_id, rec.players, rec.options, first_dealer(table_seed, rec.players)
            )
            step = PlayStep(rec, m, table_seed)
            step = await self._advance(step)
            # The first hands are new DMs, which notify by themselves.
            return await self._commit(rec, step, seed=table_seed, notify=False)

    async def act(
        self,
        table_id: int,
        user_id: int,
        payload: Mapping[str, Any],
        *,
        expect_seq: int | None = None,
        expect_deal: int | None = None,
        where: Where | None = None,
    ) -> Outcome:
        """Apply the user's decision (action JSON without ``seat``), then computer moves.

        ``expect_seq`` (optional): the ``TableInfo.seq`` the user's button was rendered at;
        if the table has moved on, ``Conflict`` is raised and nothing changes.
        ``expect_deal`` (optional): the deal number the button was drawn for; a click from
        an earlier deal is refused (``Conflict``) and nothing changes.
        """
        lock = self._lock(table_id)
        # Queued behind another call: the seq it will find if nothing is applied meanwhile.
        queued = [self._memo.get(table_id, (None,))[0] if lock.locked() else None]

        async def once() -> Outcome:
            return await self._act(
                lock,
                user_id,
                payload,
                queued,
                expect_seq=expect_seq,
                expect_deal=expect_deal,
                where=where,
            )

        return await self._recomputing(once)

    async def _act(
        self,
        lock: TableLock,
        user_id: int,
        payload: Mapping[str, Any],
        queued: list[int | None],
        *,
        expect_seq: int | None,
        expect_deal: int | None,
        where: Where | None,
    ) -> Outcome:
        """One try of ``act``. ``queued[0]``: the seq this call expected to find (a double
        click's twin applied meanwhile is refused); a try done again (``Recompute``) expects
        the seq its first try loaded."""
        table_id = lock.table_id
        async with lock:
            if queued[0] is None:  # or queued behind another process
                queued[0] = lock.queued_seq
            queued_at = queued[0]
            rec = await self._load(table_id)
            if queued_at is None:
                queued[0] = rec.seq  # a recomputed try: this is what the user acted on
            require_here(rec, where, "seat")
            self._require_playing(rec)
            seat = self._seated(rec, user_id)
            if expect_seq is not None and expect_seq != rec.seq:
                raise Conflict("out_of_date")
            m = self._match(rec)
            if expect_deal is not None and expect_deal != deal_number(m):
                raise Conflict("earlier_deal", game=rec.game_id)
            rules = m.rules
            if not isinstance(payload, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
                raise IllegalMove("bad_action", game=rec.game_id, reason="other")
            try:
                action = parse_action(rules, {**payload, "seat": seat}, m.players)
            except IllegalAction as e:
                raise illegal_move(e, m) from None
            if queued_at is not None and queued_at != rec.seq:
                # The same decision applied while this one waited is its double click's
                # twin, even if it would be legal again now (the same card in a new deal).
                await self._refuse_repeat(table_id, action)
            turn = match.to_act(m)
            if turn != seat:
                await self._refuse_repeat(table_id, action)
                raise IllegalMove("not_your_turn", game=rec.game_id, waiting=name_of(rec, turn))
            step = PlayStep(rec, m, rec.seed)
            if any(s.seat == seat and s.expiries for s in rec.seats):
                step.expiries[seat] = 0  # acting again clears "away"
            try:
                step.apply(action, by="human")
            except IllegalAction as e:
                if e.code == "illegal_action":
                    await self._refuse_repeat(table_id, action)
                raise illegal_move(e, m, action) from None
            step = await self._advance(step)
            return await self._commit(rec, step, actor=seat)

    async def _refuse_repeat(self, table_id: int, action: Action) -> None:
        """A refused action that repeats the seat's own latest decision is a double click (or
        a stale button pressed again): say so, rather than "not your turn" or "not in your
        hand", which would read as if the first click had failed."""
        for e in reversed(await self.store.log(table_id)):
            if e.kind == "act" and e.seat == action.seat:
                if "by" not in e.payload and e.payload == action.to_json():
                    raise IllegalMove("already_played")
                return

    async def rematch(
        self, table_id: int, user_id: int, *, where: Where | None = None
    ) -> TableInfo:
        """A finished game's player opens a new lobby in the same channel with the same
        seats, options, clock, computer level and hints; they host it and press Start when
        everyone is ready.

        The player asking sits again as themselves, even if they had resigned; other players
        who resigned come back as computer players, or, where the server's admins turned
        computer players off, their seats wait for someone to join. A daily deal has no
        rematch: there is one a day (issue 28, defect 3).
        """
        rec = await self._load(table_id)
        require_here(rec, where)
        if rec.daily_date is not None or rec.league_session is not None:
            raise WrongState("rematch_daily", game=rec.game_id)
        if rec.replay_of is not None:  # "Try another way" again from the Review instead
            raise WrongState("rematch_replay")
        if rec.status != "finished":
            raise WrongState("rematch_unfinished")
        if not any(s.user_id == user_id for s in rec.seats):
            raise Forbidden("rematch_players_only")
        require_room(await self.store.open_for_user(user_id), user_id, hosting=True)
        computers = (await self.guild_settings(rec.guild_id)).computers_allowed
        seats: list[SeatRecord] = []
        for s in rec.seats:
            if s.user_id is not None and (s.user_id == user_id or not s.resigned):
                seats.append(SeatRecord(len(seats), s.user_id, s.name, language=s.language))
            elif computers:
                name = s.name if s.is_bot else computer_name(s.name)
                seats.append(SeatRecord(len(seats), None, name, is_bot=True))
        clock = next((k for k, v in CLOCKS.items() if v == rec.turn_clock), "off")
        return await self._create_lobby(
            rec.guild_id,
            rec.channel_id,
            user_id,
            rec.game_id,
            rec.players,
            rec.options,
            seats,
            clock,
            rematch_of=rec.id,
            level=rec.level if expert_ready(rec.game_id) else "casual",
            hints=rec.hints and expert_ready(rec.game_id),
            language=rec.language,
        )

    # ---- a player leaving everything -----------------------------------------------------
    async def resign(
        self,
        table_id: int,
        user_id: int,
        *,
        where: Where | None = None,
        leaving: bool = False,
    ) -> Outcome:
        """``TableLife.resign``; a league table's player leaves by the league's rule instead
        (``LeagueTables._finish_entry``: the deal in progress is their last, marked, and a
        table of several humans goes on for the others)."""
        rec = await self._load(table_id)
        if rec.league_session is None:
            return await super().resign(table_id, user_id, where=where, leaving=leaving)
        require_here(rec, where, "seat")
        self._require_playing(rec)
        outcome = await self._finish_entry(table_id, "resigned", self._seated(rec, user_id))
        if outcome is None:
            raise WrongState("already_ended")
        return outcome

    async def leave_all(self, user_id: int) -> list[Outcome]:
        """Give up every open seat of the user (leave lobbies, resign games), e.g. before
        they are forgotten. Returns the changed tables' outcomes (lobbies as bare ones)."""
        outcomes: list[Outcome] = []
        for table in await self.active_tables_for_user(user_id):
            try:
                if table.status == "lobby":
                    info = await self.leave(table.id, user_id)
                    outcomes.append(Outcome(table=info))
                else:
                    outcomes.append(await self.resign(table.id, user_id, leaving=True))
            except ServiceError:
                continue  # it changed meanwhile (ended, or they left already)
        return outcomes

    # ---- queries ---------------------------------------------------------------------
    async def get_table(self, table_id: int) -> TableInfo:
        return table_info(await self._load(table_id))

    async def table_in_channel(
        self, channel_id: int, user_id: int | None = None
    ) -> TableInfo | None:
        """The channel's lobby or playing table, if any. Where several share the channel (a
        tournament's tables, where threads were refused), the one ``user_id`` sits at (their
        live seat first, then one they left); ``NotSeated`` if they sit at none of them.
        Without ``user_id``: the earliest."""
        found = await self.store.all_open_in_channel(channel_id)
        if len(found) <= 1 or user_id is None:
            return table_info(found[0]) if found else None
        for live in (True, False):
            for rec in found:
                if any(s.user_id == user_id and (not live or not s.resigned) for s in rec.seats):
                    return table_info(rec)
        raise NotSeated("not_seated_in_channel")

    async def active_tables_for_user(self, user_id: int) -> list[TableInfo]:
        """Lobby and playing tables where the user holds a (non-resigned) seat."""
        return [table_info(r) for r in await self.store.open_for_user(user_id)]

    async def snapshot(
        self, table_id: int, user_id: int | None = None, *, where: Where | None = None
    ) -> Outcome:
        """Current state for rendering (no events).

        ``seat_views`` holds the user's own view if they are seated (empty otherwise); with
        ``user_id=None`` it holds every active human seat's view (e.g. to redraw DMs).
        ``where``: a player's own look at their hand (a ``"seat"`` use, see ``bounds``).
        """
        rec = await self._load(table_id)
        require_here(rec, where, "seat")
        info = table_info(rec)
        if rec.snapshot_json is None:
            return Outcome(table=info)
        out = await self._outcome(info, self._match(rec), None)
        if user_id is not None:
            seat = human_seat(rec, user_id)
            views = {} if seat is None else {k: v for k, v in out.seat_views.items() if k == seat}
            out = replace(out, seat_views=views)
        return out

    async def legal_cards(self, table_id: int, user_id: int, kind: str = "play") -> list[str]:
        """Cards the user may use in a ``kind`` action right now (``play``, ``call``, or a
        multi-card choice's candidates), in hand order; empty unless it is their turn."""
        rec = await self._load(table_id)
        seat = human_seat(rec, user_id)
        if rec.status != "playing" or seat is None or rec.snapshot_json is None:
            return []
        m = self._match(rec)
        if match.to_act(m) != seat:
            return []
        cards: set[str] = set()
        for a in match.legal_actions(m):
            if a.type == kind:
                cards.update(a.cards or ((a.card,) if a.card else ()))
        return sorted(cards, key=lambda c: m.rules.card_sort_key(m.deal, c))

    async def replay(self, table_id: int) -> MatchState:
        """Rebuild the match from the action log alone (tests assert it equals the snapshot)."""
        rec = await self._load(table_id)
        entries = await self.store.log(table_id)
        try:
            m = first_match(rec, entries)
        except ValueError:
            raise WrongState("not_started") from None
        for e in entries:
            m, _ = replay_entry(m, e)
        return m

    # ---- bookkeeping -----------------------------------------------------------------
    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """Remember the public table message (edited in place by the Discord layer)."""
        await self.store.set_message(table_id, message_id)

    async def set_dm(
        self,
        table_id: int,
        seat: int,
        channel_id: int | None,
        message_id: int | None,
        failed: bool,
    ) -> None:
        """Remember a seat's private hand message, or that DMs to that user failed."""
        await self.store.set_dm(table_id, seat, channel_id, message_id, failed)
