"""TableService: the use cases of a game table (lobby, start, act, resign, expire) over the DB.

The only API the Discord layer calls. Every call takes the table's ``asyncio.Lock``, loads the
table (one row + its seats), works on the pure engine, and persists the log entries, snapshot,
sequence number and status in ONE transaction guarded by the expected previous ``seq``.
Seeds and time are parameters, so every call is deterministic under test.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from bot.db.database import Database
from bot.db.stats import leaderboard as board_query
from bot.db.tables import (
    ChannelBusy,
    GameResultRecord,
    SeatRecord,
    SeatTaken,
    StaleState,
    TableRecord,
    TableStore,
)
from bot.engine import match
from bot.engine.codec import parse_action
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.match import MatchState
from bot.engine.registry import get_rules
from bot.services.errors import (
    Conflict,
    Forbidden,
    IllegalMove,
    InvalidRequest,
    NotFound,
    NotSeated,
    WrongState,
)
from bot.services.models import LeaderRow, Outcome, TableInfo
from bot.services.step import (
    SEED_BITS,
    PlayStep,
    deal_number,
    first_dealer,
    game_title,
    human_seat,
    illegal_move,
    name_of,
    random_seed,
    sentence,
    status_phrase,
    table_info,
)

log = logging.getLogger(__name__)

COMPUTER_NAMES = (
    "Arturo",
    "Beatrice",
    "Cosimo",
    "Delfina",
    "Ettore",
    "Fiammetta",
    "Giotto",
    "Ippolita",
)
_MEMO_SIZE = 256  # decoded match states kept (validated by seq on every use)


class TableService:
    """Use cases of game tables. Every method returns models and raises ``ServiceError``s."""

    def __init__(
        self,
        db: Database,
        *,
        seed_source: Callable[[], int] = random_seed,
        clock: Callable[[], float] = time.time,
        turn_timeout: float | None = None,
    ) -> None:
        """
        Args:
            db: an open, migrated database.
            seed_source: returns a table's seed when its lobby opens.
            clock: Unix time now (stored on rows, and the base of turn deadlines).
            turn_timeout: seconds a human has for each decision before ``expire_overdue``
                plays the rules' default action for them; ``None`` disables deadlines.
        """
        self.db = db
        self.store = TableStore(db)
        self._seed_source = seed_source
        self._clock = clock
        self.turn_timeout = turn_timeout
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._channel_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._memo: OrderedDict[int, tuple[int, MatchState]] = OrderedDict()

    # ---- plumbing --------------------------------------------------------------------
    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[table_id] = lock
        return lock

    def _channel_lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._channel_locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._channel_locks[channel_id] = lock
        return lock

    async def _load(self, table_id: int) -> TableRecord:
        rec = await self.store.get(table_id)
        if rec is None:
            raise NotFound("That table no longer exists.")
        return rec

    def _match(self, rec: TableRecord) -> MatchState:
        """The match of a freshly loaded row.

        Decoding a snapshot is the costliest step of a call, so the last decoded state of a
        table is memoised under the ``seq`` it was stored at, and reused only when the row
        just read still has that ``seq``. It can never be stale: every change of a snapshot
        (from any process) advances ``seq``, and the row is read on every call anyway.
        """
        hit = self._memo.get(rec.id)
        if hit is not None and hit[0] == rec.seq:
            self._memo.move_to_end(rec.id)
            return hit[1]
        snapshot = rec.snapshot
        assert snapshot is not None, "a started table always has a snapshot"
        m = match.from_json(snapshot)
        self._remember(rec.id, rec.seq, m)
        return m

    def _remember(self, table_id: int, seq: int, m: MatchState) -> None:
        self._memo[table_id] = (seq, m)
        self._memo.move_to_end(table_id)
        while len(self._memo) > _MEMO_SIZE:
            self._memo.popitem(last=False)

    @staticmethod
    def _require_playing(rec: TableRecord) -> None:
        if rec.status == "lobby":
            raise WrongState("The game hasn't started yet.")
        if rec.status != "playing":
            raise WrongState("This game is over.")

    @staticmethod
    def _require_lobby(rec: TableRecord) -> None:
        if rec.status == "playing":
            raise WrongState("This table's game has already started.")
        if rec.status != "lobby":
            raise WrongState("This table is closed.")

    @staticmethod
    def _seated(rec: TableRecord, user_id: int) -> int:
        seat = human_seat(rec, user_id)
        if seat is None:
            raise NotSeated("You are not seated at this table.")
        return seat

    def _outcome(self, info: TableInfo, m: MatchState | None, step: PlayStep | None) -> Outcome:
        if m is None:
            return Outcome(table=info)
        rules = m.rules
        public = None
        views = {}
        if m.deal is not None:
            public = rules.observe_public(m.deal)
            views = {
                s.seat: rules.observe(m.deal, s.seat)
                for s in info.seats
                if s.user_id is not None and not s.resigned
            }
        return Outcome(
            table=info,
            events=tuple(step.events) if step else (),
            public=public,
            seat_views=views,
            ended_deals=tuple(step.ended) if step else (),
            totals=m.totals,
            deal_number=deal_number(m),
            deals_played=m.deals_played,
            finished=m.finished,
            winners=m.winners,
            new_deal=step.new_deal if step else False,
        )

    async def _commit(
        self,
        rec: TableRecord,
        step: PlayStep,
        *,
        resign_seat: int | None = None,
        abandon: bool = False,
        seed: int | None = None,
    ) -> Outcome:
        m = step.m
        now = self._clock()
        status = "abandoned" if abandon else ("finished" if m.finished else "playing")
        seats = rec.seats
        if resign_seat is not None:
            seats = tuple(replace(s, resigned=True) if s.seat == resign_seat else s for s in seats)
        results: list[GameResultRecord] = []
        if status == "finished":
            winners = set(m.winners)
            results = [
                GameResultRecord(
                    seat=s.seat,
                    user_id=s.user_id,
                    name=s.name,
                    score=m.totals[s.seat],
                    won=s.seat in winners and not s.resigned,  # a resigned player never wins
                )
                for s in seats
            ]
        deadline = None
        if status == "playing" and self.turn_timeout is not None:
            deadline = now + self.turn_timeout
        try:
            new_seq = await self.store.commit(
                rec.id,
                expected_seq=rec.seq,
                expected_status=rec.status,
                entries=step.entries,
                snapshot=match.to_json(m),
                status=status,
                now=now,
                seed=seed,
                turn_deadline=deadline,
                deal_results=step.deal_results,
                game_results=results,
                resign_seats=() if resign_seat is None else (resign_seat,),
            )
        except StaleState as e:
            raise Conflict(
                "The table changed while you were acting, so nothing was applied. Please try again."
            ) from e
        if status == "playing":
            self._remember(rec.id, new_seq, m)
        else:
            self._memo.pop(rec.id, None)
        new_rec = replace(rec, seq=new_seq, status=status, seats=seats)
        return self._outcome(table_info(new_rec), m, step)

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
    ) -> TableInfo:
        """Open a lobby in a channel; the owner takes seat 0, then ``computers`` computers."""
        try:
            rules = get_rules(game_id)
        except KeyError:
            raise InvalidRequest(f"There is no game called {game_id!r}.") from None
        try:
            normalized = match.new_match(game_id, players, options, 0).options
        except ValueError as e:  # BadOption is a ValueError
            raise InvalidRequest(sentence(str(e))) from None
        if not 0 <= computers <= players - 1:
            raise InvalidRequest(
                f"A {players}-player table has room for at most {players - 1} computer "
                "players besides you."
            )
        seats = [SeatRecord(0, owner_id, owner_name)]
        seats += [
            SeatRecord(i + 1, None, f"Bot {COMPUTER_NAMES[i]}", is_bot=True)
            for i in range(computers)
        ]
        async with self._channel_lock(channel_id):
            existing = await self.store.open_in_channel(channel_id)
            if existing is not None:
                raise WrongState(self._busy_message(existing))
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
                )
            except ChannelBusy:
                existing = await self.store.open_in_channel(channel_id)
                raise WrongState(
                    self._busy_message(existing)
                    if existing
                    else "There is already a table in this channel."
                ) from None
        return table_info(await self._load(table_id))

    @staticmethod
    def _busy_message(t: TableRecord) -> str:
        what = "Join it, or wait" if t.status == "lobby" else "Wait"
        return (
            f"There is already a {game_title(t.game_id)} table in this channel "
            f"(table #{t.id}, {status_phrase(t.status)}). {what} until it ends, "
            "or use another channel."
        )

    async def join(self, table_id: int, user_id: int, name: str) -> TableInfo:
        """Take the next free seat of a lobby."""
        async with self._lock(table_id):
            rec = await self._load(table_id)
            self._require_lobby(rec)
            if any(s.user_id == user_id for s in rec.seats):
                raise WrongState("You are already seated at this table.")
            if len(rec.seats) >= rec.players:
                raise WrongState("This table is full.")
            seats = (*rec.seats, SeatRecord(len(rec.seats), user_id, name))
            return await self._save_lobby(rec, rec.owner_id, seats)

    async def leave(self, table_id: int, user_id: int) -> TableInfo:
        """Leave a lobby. Ownership passes to the next human; with none left it is abandoned."""
        async with self._lock(table_id):
            rec = await self._load(table_id)
            if rec.status == "playing":
                raise WrongState("The game has started: resign instead of leaving.")
            self._require_lobby(rec)
            self._seated(rec, user_id)
            kept = [s for s in rec.seats if s.user_id != user_id]
            seats = tuple(replace(s, seat=i) for i, s in enumerate(kept))  # compact renumbering
            humans = [s for s in seats if s.user_id is not None]
            owner = rec.owner_id
            if owner == user_id and humans:
                owner = humans[0].user_id or owner
            return await self._save_lobby(rec, owner, seats, abandon=not humans)

    async def add_computer(self, table_id: int, user_id: int) -> TableInfo:
        """Any seated human may fill the next free seat of a lobby with a computer player."""
        async with self._lock(table_id):
            rec = await self._load(table_id)
            self._require_lobby(rec)
            self._seated(rec, user_id)
            if len(rec.seats) >= rec.players:
                raise WrongState("This table is full.")
            used = {s.name for s in rec.seats}
            name = next(
                (f"Bot {n}" for n in COMPUTER_NAMES if f"Bot {n}" not in used),
                f"Bot {len(rec.seats) + 1}",
            )
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
            raise Conflict("The table changed meanwhile; please try again.") from e
        except SeatTaken as e:
            raise WrongState("You are already seated at this table.") from e
        status = "abandoned" if abandon else "lobby"
        return table_info(replace(rec, owner_id=owner_id, seats=seats, status=status))

    # ---- play ------------------------------------------------------------------------
    async def start(self, table_id: int, user_id: int, *, seed: int | None = None) -> Outcome:
        """The owner starts a full lobby: first dealer by seeded lottery, deal 1, computers."""
        async with self._lock(table_id):
            rec = await self._load(table_id)
            self._require_lobby(rec)
            if rec.owner_id != user_id:
                owner = next((s.name for s in rec.seats if s.user_id == rec.owner_id), "host")
                raise Forbidden(f"Only the table's host ({owner}) can start the game.")
            if len(rec.seats) < rec.players:
                raise WrongState(
                    f"The table needs {rec.players} players and has {len(rec.seats)}. "
                    "Wait for someone to join, or add a computer player."
                )
            table_seed = rec.seed if seed is None else seed % (1 << SEED_BITS)
            m = match.new_match(
                rec.game_id, rec.players, rec.options, first_dealer(table_seed, rec.players)
            )
            step = PlayStep(rec, m, table_seed)
            step.advance()
            return await self._commit(rec, step, seed=table_seed)

    async def act(
        self,
        table_id: int,
        user_id: int,
        payload: Mapping[str, Any],
        *,
        expect_seq: int | None = None,
    ) -> Outcome:
        """Apply the user's decision (action JSON without ``seat``), then computer moves.

        ``expect_seq`` (optional): the ``TableInfo.seq`` the user's button was rendered at;
        if the table has moved on, ``Conflict`` is raised and nothing changes.
        """
        async with self._lock(table_id):
            rec = await self._load(table_id)
            self._require_playing(rec)
            seat = self._seated(rec, user_id)
            if expect_seq is not None and expect_seq != rec.seq:
                raise Conflict("That choice is out of date: the table has moved on.")
            m = self._match(rec)
            rules = m.rules
            if not isinstance(payload, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
                raise IllegalMove("That isn't a valid choice.", "bad_action")
            try:
                action = parse_action(rules, {**payload, "seat": seat}, m.players)
            except IllegalAction as e:
                raise illegal_move(e) from None
            turn = match.to_act(m)
            if turn != seat:
                raise IllegalMove(
                    f"It's not your turn — waiting for {name_of(rec, turn)}.", "not_your_turn"
                )
            step = PlayStep(rec, m, rec.seed)
            try:
                step.apply(action, by="human")
            except IllegalAction as e:
                raise illegal_move(e) from None
            step.advance()
            return await self._commit(rec, step)

    async def resign(self, table_id: int, user_id: int) -> Outcome:
        """The user leaves a game in play; a computer plays their seat from now on.

        The resigned player is recorded as not winning (their seat's score still counts at
        the table). If no active human remains the table is abandoned, without results.
        """
        async with self._lock(table_id):
            rec = await self._load(table_id)
            self._require_playing(rec)
            seat = self._seated(rec, user_id)
            m = self._match(rec)
            step = PlayStep(rec, m, rec.seed)
            step.log("resign", seat, {"seat": seat})
            step.note(Event("resigned", seat))
            step.auto.add(seat)
            others = [
                s for s in rec.seats if s.user_id is not None and not s.resigned and s.seat != seat
            ]
            if not others:
                step.note(Event("abandoned"))
                return await self._commit(rec, step, resign_seat=seat, abandon=True)
            step.advance()
            return await self._commit(rec, step, resign_seat=seat)

    async def expire_overdue(self, now: float | None = None) -> list[Outcome]:
        """Play the default action (la_morte D-15) for every human whose turn is overdue.

        For a periodic sweeper; does nothing unless the service has a ``turn_timeout``.
        """
        when = self._clock() if now is None else now
        outcomes: list[Outcome] = []
        for table_id in await self.store.overdue(when):
            async with self._lock(table_id):
                rec = await self.store.get(table_id)
                if (
                    rec is None
                    or rec.status != "playing"
                    or rec.turn_deadline is None
                    or rec.turn_deadline > when
                ):
                    continue
                m = self._match(rec)
                seat = match.to_act(m)
                if seat is None:
                    continue
                step = PlayStep(rec, m, rec.seed)
                step.note(Event("timed_out", seat))
                step.apply(m.rules.default_action(m.deal), by="timeout")
                step.advance()
                try:
                    outcomes.append(await self._commit(rec, step))
                except Conflict:
                    log.info("table %s changed while expiring its turn", table_id)
        return outcomes

    # ---- queries ---------------------------------------------------------------------
    async def get_table(self, table_id: int) -> TableInfo:
        return table_info(await self._load(table_id))

    async def table_in_channel(self, channel_id: int) -> TableInfo | None:
        """The channel's lobby or playing table, if any."""
        rec = await self.store.open_in_channel(channel_id)
        return None if rec is None else table_info(rec)

    async def active_tables_for_user(self, user_id: int) -> list[TableInfo]:
        """Lobby and playing tables where the user holds a (non-resigned) seat."""
        return [table_info(r) for r in await self.store.open_for_user(user_id)]

    async def snapshot(self, table_id: int, user_id: int | None = None) -> Outcome:
        """Current state for rendering (no events).

        ``seat_views`` holds the user's own view if they are seated (empty otherwise); with
        ``user_id=None`` it holds every active human seat's view (e.g. to redraw DMs).
        """
        rec = await self._load(table_id)
        info = table_info(rec)
        if rec.snapshot_json is None:
            return Outcome(table=info)
        out = self._outcome(info, self._match(rec), None)
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
        deals = [e for e in entries if e.kind == "deal"]
        if not deals:
            raise WrongState("The game hasn't started yet.")
        m = match.new_match(rec.game_id, rec.players, rec.options, deals[0].payload["dealer"])
        rules = m.rules
        for e in entries:
            if e.kind == "deal":
                if e.payload["dealer"] != m.dealer:
                    raise AssertionError(f"log seq {e.seq}: dealer mismatch")
                m = match.start_deal(m, e.payload["deck"])
            elif e.kind == "act":
                m, _ = match.apply(m, parse_action(rules, e.payload, m.players))
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

    async def leaderboard(self, guild_id: int, game_id: str, limit: int = 10) -> list[LeaderRow]:
        rows = await board_query(self.db, guild_id, game_id, limit)
        return [LeaderRow(r.user_id, r.name, r.games, r.wins, r.points) for r in rows]
