"""League tables with several humans of one server (issue 34).

A player opens a table of a week's set in their server's league channel (``open_league_table``:
a lobby like any other, but of the set: its seed, the expert computers, no turn clock); others
of that server take its seats (``TableService.join`` asks ``check_league_seat``). When its
host starts it (``start_league_table``), every human seated becomes an entry at once, in one
transaction, in lobby order, each at the seat the entry-order rule gives them (the session's
``n``-th entrant at a game holds seat ``n mod players``, so the humans of one table hold
distinct seats), the other seats go to strict expert computers, and the table moves into the
private thread the Discord layer made for its players; the lobby's message never shows it.

Scoring knows nothing of tables: each human seat's deal results are matchpointed against the
same seat of every other table, as a solo entry's are. A player who leaves (``/league leave``,
or the table waiting on them for ``LEAGUE_IDLE``) is finished by the casual computer for the
deal in progress, marked, and nothing after that deal counts for them; the table goes on for
the others (its set ends with the deal in progress once no human is left).

**The night's end.** A lobby not started when its session's window closes is closed by the
league's upkeep (``close_league_lobbies``): its seats free, no entry made; a table started in
the window plays its set to the end.

**Who may enter.** A member who may read other members' private threads of the league channel
(Manage Threads or Administrator there, or the server's owner, which the Discord layer tells as
``sees_threads``) could read another table's deals before playing them: such members are
refused any entry of the league (alone or at a table) in that server.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.db import guild_settings, league, league_threads
from bot.db.tables import ChannelBusy, SeatRecord, StaleState, TableRecord
from bot.engine import match
from bot.engine.events import Event
from bot.engine.registry import get_rules
from bot.i18n import language_of
from bot.services.analysis import expert_ready
from bot.services.bounds import Where, require_here, require_room
from bot.services.core import DELIVERY_LEASE
from bot.services.daily import DAILY_GAMES, with_computers
from bot.services.errors import Conflict, Forbidden, WrongState
from bot.services.league import LeagueTables
from bot.services.models import Outcome, TableInfo
from bot.services.step import table_info

#: ``TableRecord.end_reason`` of a lobby its night's end closed: its message says so.
NIGHT_OVER = "night_over"


class LeagueLobbies(LeagueTables):
    """League tables of several humans (a mixin of ``TableService``)."""

    async def check_league(
        self, user_id: int, game_id: str, guild_id: int | None, *, sees_threads: bool = False
    ) -> None:
        """The solo entry's checks, and: not a member who can read others' private threads
        (see the module docstring), not seated in a league table's lobby of that set."""
        await super().check_league(user_id, game_id, guild_id)
        if sees_threads:
            raise Forbidden("league_sees_threads")
        session = await self.league_session()
        for t in await self.store.open_for_user(user_id):
            if t.league_session == session.id and t.game_id == game_id and t.status == "lobby":
                raise WrongState("league_in_lobby", game=game_id)

    async def open_league_table(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        game_id: str,
        *,
        locale: str | None = None,
        server_locale: str | None = None,
        sees_threads: bool = False,
    ) -> TableInfo:
        """Open a lobby of this week's set of ``game_id`` in the server's league channel, its
        opener at the first seat (the seats are dealt again at the start)."""
        await self.check_league(user_id, game_id, guild_id, sees_threads=sees_threads)
        home = await league.guild_channel(self.db, guild_id)
        if channel_id != home:
            raise WrongState("league_table_channel", channel=home)
        require_room(await self.store.open_for_user(user_id), user_id, hosting=True)
        session = await self.league_session()
        players = DAILY_GAMES[game_id]
        settings = await guild_settings.get(self.db, guild_id)
        owner = SeatRecord(0, user_id, name, language=await self._dm_language(user_id, locale))
        async with self._channel_lock(channel_id):
            existing = await self.store.open_in_channel(channel_id)
            if existing is not None:
                raise self._busy(existing)
            try:
                table_id = await self.store.create(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game_id=game_id,
                    owner_id=user_id,
                    players=players,
                    options=match.new_match(game_id, players, None, 0).options,
                    seed=await self.league_seed(session, game_id),
                    rules_version=get_rules(game_id).version,
                    seats=[owner],
                    now=self._clock(),
                    turn_clock=None,
                    level="expert" if expert_ready(game_id) else "casual",
                    language=settings.language or language_of(server_locale),
                    rated=False,
                    league_lobby=(session.id, session.deals),
                )
            except ChannelBusy:
                found = await self.store.open_in_channel(channel_id)
                raise (self._busy(found) if found else WrongState("channel_busy")) from None
        return table_info(await self._load(table_id))

    async def check_league_seat(self, rec: TableRecord, user_id: int, sees_threads: bool) -> None:
        """May ``user_id`` take a seat of the league table ``rec`` (a lobby)?"""
        await self.check_league(user_id, rec.game_id, rec.guild_id, sees_threads=sees_threads)
        if rec.league_session != (await self.league_session()).id:
            raise WrongState("league_table_stale")

    async def _league_start_refusal(self, rec: TableRecord, user_id: int) -> None:
        """Refuse the start of a league table's lobby: not its host, not this week's open
        session, a seated player who entered that set meanwhile (named: they must leave)."""
        self._require_lobby(rec)
        if rec.owner_id != user_id:
            host = next((s.name for s in rec.seats if s.user_id == rec.owner_id), None)
            raise Forbidden("host_only_start", host=host)
        session = await self.league_session()
        now = self._clock()
        if rec.league_session != session.id:
            raise WrongState("league_table_stale")
        self._require_night(session, now)
        for s in rec.seats:
            if s.user_id is None:
                continue
            marker = await self._league_marker(session.id, rec.game_id, s.user_id)
            if await league.entry(
                self.db, session.id, rec.game_id, s.user_id
            ) is not None or await league.marked(self.db, marker):
                raise WrongState("league_seat_entered", name=s.name, game=rec.game_id)

    async def close_league_lobbies(self, now: float | None = None) -> list[Outcome]:
        """The league's upkeep: lobbies of a session whose window is over close (their
        players' seats free; no entry was made for them). Tables under way are not touched:
        their sets are played to the end."""
        when = self._clock() if now is None else now
        closed: list[Outcome] = []
        for table_id in await league.lobbies_after_night(self.db, when):
            async with self._lock(table_id):
                rec = await self.store.get(table_id)
                if rec is None or rec.status != "lobby":
                    continue  # started (in its window) or closed meanwhile
                event = Event("abandoned", data={"league_over": True})
                try:
                    closed.append(await self._end_open(rec, event, end_reason=NIGHT_OVER))
                except StaleState:  # another process closed (or started) it meanwhile
                    continue
        return closed

    async def league_table_ready(
        self, table_id: int, user_id: int, *, where: Where | None = None
    ) -> TableInfo:
        """The start's checks, before the Discord layer makes the table's thread."""
        rec = await self._load(table_id)
        require_here(rec, where)
        await self._league_start_refusal(rec, user_id)
        return table_info(rec)

    # ---- the table's thread, made once (``bot.db.league_threads``) -------------------------
    async def claim_league_thread(self, table_id: int) -> int | None:
        """Claim the start of a league table's lobby for this process, before the Discord
        layer makes its thread: the thread an earlier attempt made and recorded (None: make
        one). Refused while another start of it holds the claim (a double click, or another
        process); a claim of a process that died lapses after ``DELIVERY_LEASE``."""
        now = self._clock()
        found = await league_threads.claim(
            self.db, table_id, self.instance, now, now + DELIVERY_LEASE
        )
        if not found.mine:
            raise WrongState("league_table_starting")
        return found.thread_id

    async def league_thread_made(self, table_id: int, thread_id: int) -> None:
        """The claimed start has its thread (recorded at once, for a retry after a crash)."""
        await league_threads.made(self.db, table_id, self.instance, thread_id)

    async def release_league_thread(self, table_id: int) -> None:
        """The table started in its thread: the claim goes, the thread stays recorded."""
        await league_threads.release(self.db, table_id, self.instance)

    async def drop_league_thread(self, table_id: int) -> int | None:
        """The start failed: the claim goes, and the thread it made (returned, for the Discord
        layer to delete) is forgotten, unless the table started meanwhile."""
        return await league_threads.drop(self.db, table_id, self.instance)

    async def start_league_table(
        self, table_id: int, user_id: int, thread_id: int, *, where: Where | None = None
    ) -> Outcome:
        """Start a league table in its private thread ``thread_id``: its humans become
        entries at their rotating seats, computers take the others, the first deal is dealt
        and the computers play up to a human."""
        async with self._lock(table_id):
            rec = await self._load(table_id)
            require_here(rec, where)
            await self._league_start_refusal(rec, user_id)
            session = await self.league_session()
            humans = [s for s in rec.seats if s.user_id is not None]
            claims = [
                league.Claim(
                    session.id,
                    rec.game_id,
                    s.user_id,
                    rec.guild_id,
                    s.name,
                    await self._league_marker(session.id, rec.game_id, s.user_id),
                )
                for s in humans
                if s.user_id is not None
            ]

            def seats(held: Sequence[int]) -> list[SeatRecord]:
                return with_computers(rec.players, dict(zip(held, humans, strict=True)))

            try:
                await self.store.start_league(
                    table_id,
                    claims=claims,
                    seat_of=lambda n: n % rec.players,
                    seats=seats,
                    channel_id=thread_id,
                    now=self._clock(),
                )
            except league.EntryTaken:
                raise WrongState("league_table_taken") from None
            except StaleState:
                raise Conflict("changed_meanwhile") from None
        return await self._dealt(table_id)
