"""``/tournament`` on Discord (issue 34): opening one (with an optional scheduled event), the
registration post and its buttons, and the sweeper's tending of every tournament: a thread per
table each round, the tables dealt there, the pairings post, the standings after each round
and the final standings with a picture.

**Restart-proof, once across a cluster.** What a tournament still owes Discord is read from
the database each time (boards without a game table, ``pairings_posted``/``standings_posted``
behind the round, an ended tournament's open scheduled event), so a restart between a commit
and its posts only delays them to the next sweep. Each post, thread and table is claimed in the
database before it is made (``bot.services.tournament_posts``): two processes tending one
tournament make it once, and a claim of a process killed before it recorded its work lapses
after a minute (at worst one empty thread or one repeated post is left behind then).

**Permissions.** Without Create Public Threads the tables are played in the tournament's
channel itself, with one notice; without Manage Events there is no scheduled event, and the
host is told so once, privately.
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from bot.db.tournament_claims import Claim
from bot.i18n import _, using
from bot.services.analysis import expert_ready
from bot.services.errors import ServiceError
from bot.services.tournament_posts import (
    EVENT,
    PAIRINGS,
    STANDINGS,
    THREADS_NOTICE,
    post_key,
    thread_key,
)
from bot.services.tournaments import TournamentInfo
from bot.ui.components.layout import Layout, Screen
from bot.ui.components.tournament import VERBS, registration_controls
from bot.ui.delivery.answer import redraw, reply, reply_error
from bot.ui.delivery.failures import DeliveryFailure, Refused, Retry, attempt
from bot.ui.delivery.publisher import Publisher
from bot.ui.handlers.desk import Desk, locale_code
from bot.ui.handlers.life import is_admin
from bot.ui.pictures.standings import StandingsScene, standings_png
from bot.ui.text import tournament as words
from bot.ui.text.locale import for_interaction

log = logging.getLogger(__name__)

PICTURE = "standings.png"
EVENT_HOURS = 3  # a scheduled event's planned length (Discord asks for an end)
ACCENT = discord.Colour.gold()


async def _close(event: discord.ScheduledEvent, status: str) -> None:
    """Mark ``event`` as its tournament ended (``finished`` or ``cancelled``); one already
    ended or cancelled on Discord is left alone."""
    scheduled = event.status is discord.EventStatus.scheduled
    active = event.status is discord.EventStatus.active
    if status == "cancelled":
        if scheduled:
            await event.cancel()
        elif active:  # an event under way cannot be cancelled
            await event.delete()
        return
    if scheduled:  # started before its planned time: it begins now, and ends at once
        event = await event.start()
    if scheduled or active:
        await event.end()


class TournamentController:
    """Handlers of ``/tournament`` and its buttons, and the sweeper's ``upkeep``."""

    def __init__(self, desk: Desk, publisher: Publisher) -> None:
        self.desk = desk
        self.bot = desk.bot
        self.service = desk.service
        self.publisher = publisher
        self._tending: set[int] = set()

    # ---- opening ------------------------------------------------------------------------------
    async def open(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        *,
        players: int | None,
        rounds: int,
        deals: int | None,
        clock: str | None,
        start_in: int | None,
        rated: bool,
        event: bool,
    ) -> None:
        async def work() -> None:
            if interaction.guild_id is None or interaction.channel_id is None:
                raise ServiceError(_("Tournaments live in server channels: use this in a server."))
            now = self.service.now()
            info = await self.service.open_tournament(
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                game,
                players=players,
                rounds=rounds,
                deals=deals,
                clock=clock,
                starts_at=None if start_in is None else now + start_in * 60,
                rated=rated,
                server_locale=locale_code(interaction.guild_locale),
            )
            lines = [_("Tournament #{id} is open.", id=info.id)]
            if not await self._post_registration(info):
                lines = [_("I couldn't post the tournament in this channel: check my permissions.")]
            elif event:
                lines.append(await self._schedule_event(interaction, info))
            await reply(interaction, "\n".join(lines))

        await self.desk.guarded(interaction, work)

    async def _schedule_event(
        self, interaction: discord.Interaction[Any], info: TournamentInfo
    ) -> str:
        """The tournament's Discord scheduled event (a line for the host, either way)."""
        guild = interaction.guild
        start = info.record.starts_at
        if guild is None or start is None:
            return _("-# No scheduled event: the tournament has no start time.")
        when = datetime.fromtimestamp(start, UTC)
        with using(info.record.language):
            name = words.title(info)
            about = words.format_line(info)
        try:
            made = await attempt(
                guild.create_scheduled_event(
                    name=name[:100],
                    description=about[:1000],
                    start_time=when,
                    end_time=when + timedelta(hours=EVENT_HOURS),
                    entity_type=discord.EntityType.external,
                    privacy_level=discord.PrivacyLevel.guild_only,
                    location=f"https://discord.com/channels/{info.record.guild_id}/"
                    f"{info.record.channel_id}",
                ),
                "a tournament's scheduled event",
            )
        except DeliveryFailure:
            return _(
                "-# ⚠️ I couldn't create the scheduled event (I need the **Create Events** "
                "permission); the tournament is open all the same."
            )
        await self.service.set_tournament_post(info.id, event_id=made.id)
        return _("-# The scheduled event is in the server's Events.")

    async def _close_event(self, info: TournamentInfo) -> None:
        """An ended tournament's scheduled event: completed once it finished (started first
        if it had not begun), cancelled (deleted if it had begun) once it was cancelled.
        Claimed, so that one process does it; what Discord refuses is logged and let go,
        what fails for a while is tried again by the next sweep."""
        t = info.record
        if t.event_id is None or t.status not in ("finished", "cancelled"):
            return
        if not (await self.service.claim_tournament(t.id, EVENT)).mine:
            return
        guild = self.bot.get_guild(t.guild_id)
        try:
            if guild is not None:
                event = await attempt(
                    guild.fetch_scheduled_event(t.event_id), "a tournament's scheduled event"
                )
                await attempt(_close(event, t.status), "a tournament's scheduled event")
        except Retry as e:
            log.info("tournament %s's scheduled event: %s (tried again later)", t.id, e)
            await self.service.release_tournament(t.id, EVENT)
            return
        except DeliveryFailure as e:
            log.info("tournament %s's scheduled event is left as it is: %s", t.id, e)
        await self.service.tournament_done(t.id, EVENT, t.event_id)

    # ---- the registration post ----------------------------------------------------------------
    def registration(self, info: TournamentInfo) -> dict[str, Any]:
        """The registration post's fields, in the tournament's language."""
        with using(info.record.language):
            text = words.registration_text(info, f"<@{info.record.host_id}>")
            screen = Screen(
                head=words.title(info),
                brief=text,
                full=text,
                accent=ACCENT,
                controls=registration_controls(info.id, info.record.status),
            )
            return {"view": Layout(screen)}

    async def _post_registration(self, info: TournamentInfo) -> bool:
        channel = self.bot.get_partial_messageable(info.record.channel_id)
        try:
            message = await attempt(channel.send(**self.registration(info)), "a tournament post")
        except DeliveryFailure:
            return False
        await self.service.set_tournament_post(info.id, message_id=message.id)
        return True

    async def _refresh_registration(self, info: TournamentInfo) -> None:
        if info.record.message_id is None:
            return
        channel = self.bot.get_partial_messageable(info.record.channel_id)
        message = channel.get_partial_message(info.record.message_id)
        try:
            await attempt(message.edit(**self.registration(info)), "a tournament post")
        except DeliveryFailure as e:
            log.info("could not refresh tournament %s's post: %s", info.id, e)

    # ---- buttons and commands -----------------------------------------------------------------
    async def click(
        self, interaction: discord.Interaction[Any], tournament_id: int, verb: str
    ) -> None:
        """A registration post's button (``bot.ui.components.tournament``)."""
        if verb not in VERBS:  # a crafted custom_id
            with for_interaction(interaction):
                await reply_error(interaction, _("This button is no longer valid."))
            return
        on_post = verb in ("register", "unregister")

        async def work() -> None:
            info = await self._act(interaction, tournament_id, verb)
            if on_post and info.record.message_id == getattr(interaction.message, "id", None):
                await redraw(interaction, **self.registration(info))
            elif on_post:
                await self._refresh_registration(info)

        await self.desk.guarded(interaction, work, "update" if on_post else "private")

    async def command(self, interaction: discord.Interaction[Any], verb: str) -> None:
        """``/tournament register|leave|start|standings|cancel``: the channel's tournament."""

        async def work() -> None:
            guild = interaction.guild_id or 0
            here = await self.service.tournament_here(guild, interaction.channel_id)
            info = await self._act(interaction, here.id, verb)
            if verb in ("register", "unregister", "leave", "cancel"):
                await self._refresh_registration(info)

        await self.desk.guarded(interaction, work)

    async def _act(
        self, interaction: discord.Interaction[Any], tournament_id: int, verb: str
    ) -> TournamentInfo:
        user = interaction.user
        guild = interaction.guild_id or 0  # a DM names no server's tournament
        admin = is_admin(interaction)
        if verb == "register":
            info = await self.service.register(
                tournament_id, user.id, user.display_name, guild_id=guild
            )
            if interaction.command is not None:  # a button redraws the post instead
                await reply(interaction, _("You are registered for tournament #{id}.", id=info.id))
        elif verb == "unregister":
            info = await self.service.unregister(tournament_id, user.id, guild_id=guild)
            if interaction.command is not None:
                await reply(
                    interaction, _("You are no longer registered for tournament #{id}.", id=info.id)
                )
        elif verb == "leave":
            info, outcome = await self.service.leave_tournament(
                tournament_id, user.id, guild_id=guild
            )
            if outcome is not None:
                self.publisher.publish(outcome)
            await reply(
                interaction,
                _(
                    "You left tournament #{id}: a computer finishes your seat at your table, "
                    "and you are not seated again.",
                    id=info.id,
                ),
            )
        elif verb == "start":
            info = await self.service.start_tournament(
                tournament_id, user.id, admin=admin, guild_id=guild
            )
            await reply(
                interaction, _("Tournament #{id} started: round 1 is being seated.", id=info.id)
            )
            await self.tend(info.id)
        elif verb == "cancel":
            info = await self.service.cancel_tournament(
                tournament_id, user.id, admin=admin, guild_id=guild
            )
            await reply(interaction, _("Tournament #{id} was cancelled.", id=info.id))
            await self.tend(info.id)  # its scheduled event is cancelled
        else:  # standings
            info = await self.service.tournament(tournament_id)
            if info.record.guild_id != guild:
                raise ServiceError("tournament_gone")
            text = (
                words.standings_text(info, info.scored_rounds)
                if info.scored_rounds
                else (words.registration_text(info, f"<@{info.record.host_id}>"))
            )
            await reply(interaction, text)
        return info

    async def withdraw(self, user_id: int) -> None:
        """The user leaves every tournament, before ``/privacy forget-me`` erases them: their
        registrations are withdrawn, their running seats finished by the computer."""
        infos, outcomes = await self.service.withdraw_from_tournaments(user_id)
        for outcome in outcomes:
            self.publisher.publish(outcome)
        for info in infos:
            await self._refresh_registration(info)

    # ---- the sweeper ----------------------------------------------------------------------------
    async def upkeep(self) -> None:
        """Start what is due, end finished rounds, then tend every tournament that owes Discord
        something (see the module docstring)."""
        await self.service.advance_tournaments()
        for t in await self.service.tournaments_to_tend():
            try:
                await self.tend(t.id)
            except Exception:  # one tournament's trouble must not hold the others
                log.exception("could not tend tournament %s", t.id)

    async def tend(self, tournament_id: int) -> None:
        """Post what tournament ``tournament_id`` owes: the last round's standings, the
        current round's threads and tables, its pairings; once it ended, close its scheduled
        event. One at a time per tournament in this process; across processes each post,
        thread and table is claimed first (``bot.services.tournament_posts``)."""
        if tournament_id in self._tending:
            return
        self._tending.add(tournament_id)
        try:
            info = await self.service.tournament(tournament_id)
            t = info.record
            if t.standings_posted < info.scored_rounds:
                await self._post_standings(info)
            if t.status != "running":
                await self._close_event(info)
                if t.message_id is not None:
                    await self._refresh_registration(info)
                return
            await self._seat_round(info)
            info = await self.service.tournament(tournament_id)
            boards = info.round_boards(info.record.round)
            # Once every table is dealt (a board another process is seating: a later sweep),
            # so that the post links every thread.
            seated = all(b.table_id is not None for b in boards)
            if seated and info.record.pairings_posted < info.record.round:
                await self._post_pairings(info)
                await self._refresh_registration(info)
        finally:
            self._tending.discard(tournament_id)

    async def _seat_round(self, info: TournamentInfo) -> None:
        t = info.record
        threads = t.threads
        for b in info.round_boards(t.round):
            # A board with a table is passed on too: one made but not dealt (its process
            # killed in between) is dealt now, any other left as it is.
            where = b.thread_id
            if b.table_id is None and where is None and threads:
                go, where = await self._board_thread(info, b.board)
                if not go:
                    continue  # another process is making its thread (and seats the board)
                threads = where is not None  # refused: the next boards share the channel too
            outcome = await self.service.seat_board(
                t.id, t.round, b.board, where or t.channel_id, known=b
            )
            if outcome is not None:
                self.publisher.publish(outcome)

    async def _board_thread(self, info: TournamentInfo, board: int) -> tuple[bool, int | None]:
        """The board's thread, made by this process if it wins its claim: (whether to seat
        the board now, the thread; None where threads are refused)."""
        t = info.record
        key = thread_key(t.round, board)
        claim = await self.service.claim_tournament(t.id, key)
        if claim.status == Claim.DONE:
            return True, claim.made_id
        if not claim.mine:
            return False, None
        try:
            made = await self._make_thread(info, board)
        except BaseException:
            await self.service.release_tournament(t.id, key)
            raise
        if made is None:  # refused: the board is played in the tournament's channel
            await self.service.release_tournament(t.id, key)
            return True, None
        await self.service.tournament_done(t.id, key, made, thread=(t.round, board))
        return True, made

    async def _make_thread(self, info: TournamentInfo, board: int) -> int | None:
        """A public thread for a table (None: refused; the channel is told once)."""
        t = info.record
        channel = self.bot.get_channel(t.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        with using(t.language):
            name = _("Round {round} · table {n}", round=t.round, n=board)
        try:
            thread = await attempt(
                channel.create_thread(
                    name=name,
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=1440,
                ),
                "a tournament table's thread",
            )
        except Refused:
            await self.service.set_tournament_post(t.id, threads=False)
            if (await self.service.claim_tournament(t.id, THREADS_NOTICE)).mine:
                with using(t.language):
                    notice = words.threads_notice()
                made = await self._post(t.channel_id, Screen(head=notice, brief="", full=""))
                await self._settle(t.id, THREADS_NOTICE, made)
            return None
        return thread.id

    async def _settle(
        self,
        tournament_id: int,
        key: str,
        made: int | None,
        posted: tuple[str, int] | None = None,
    ) -> None:
        """Record a claimed post made (``made``: its message), or free the claim (None)."""
        if made is None:
            await self.service.release_tournament(tournament_id, key)
        else:
            await self.service.tournament_done(tournament_id, key, made, posted=posted)

    async def _post_pairings(self, info: TournamentInfo) -> None:
        t = info.record
        key = post_key(PAIRINGS, t.round)
        if not (await self.service.claim_tournament(t.id, key)).mine:
            return
        links = {
            b.board: f"<#{b.thread_id}>"
            for b in info.round_boards(t.round)
            if b.thread_id is not None
        }
        with using(t.language):
            text = words.pairings_text(info, t.round, links, expert=expert_ready(t.game_id))
            screen = Screen(head=words.title(info), brief=text, full=text, accent=ACCENT)
        made = await self._post(t.channel_id, screen)
        await self._settle(t.id, key, made, (PAIRINGS, t.round))

    async def _post_standings(self, info: TournamentInfo) -> None:
        t = info.record
        after = info.scored_rounds
        key = post_key(STANDINGS, after)
        if not (await self.service.claim_tournament(t.id, key)).mine:
            return
        made = None
        try:
            made = await self._post(t.channel_id, *await self._standings(info))
        finally:
            await self._settle(t.id, key, made, (STANDINGS, after))

    async def _standings(self, info: TournamentInfo) -> tuple[Screen, bytes | None]:
        """The standings post after the rounds scored (the final one with its picture)."""
        t = info.record
        after = info.scored_rounds
        # The server's pictures setting holds for this picture too (its text says it all).
        final = t.status == "finished"
        drawn = final and await self.service.pictures_on(t.guild_id, None)
        with using(t.language):
            text = words.standings_text(info, after)
            head = words.title(info)
            picture = None
            if final:
                text = f"{words.winner_line(info)}\n{text}"
            if drawn:
                scene = StandingsScene(
                    title=head,
                    subtitle=words.format_line(info),
                    rows=tuple(
                        (str(i + 1), s.name, _("{points} pts", points=words.points(s.points)))
                        for i, s in enumerate(info.standings[:12])
                    ),
                )
                picture = await asyncio.to_thread(standings_png, scene)
            screen = Screen(
                head=head,
                brief=text,
                full=text,
                accent=ACCENT,
                picture=PICTURE if picture else None,
                alt=text,
            )
        return screen, picture

    async def _post(
        self, channel_id: int, screen: Screen, picture: bytes | None = None
    ) -> int | None:
        """Post ``screen`` (with ``picture``; without it where Attach Files is refused): the
        message's id, or None if nothing could be posted (the next sweep tries again)."""
        channel = self.bot.get_partial_messageable(channel_id)
        if picture is not None:
            file = discord.File(io.BytesIO(picture), PICTURE)
            try:
                sent = await attempt(
                    channel.send(view=Layout(screen), file=file), "a tournament post"
                )
                return sent.id
            except Refused:
                screen = replace(screen, picture=None)
            except DeliveryFailure as e:
                log.info("could not post in tournament channel %s: %s", channel_id, e)
                return None
        try:
            sent = await attempt(channel.send(view=Layout(screen)), "a tournament post")
        except DeliveryFailure as e:
            log.info("could not post in tournament channel %s: %s", channel_id, e)
            return None
        return sent.id
