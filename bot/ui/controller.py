"""Turns interactions into service calls and service outcomes into Discord messages.

Slash commands and components both land here, so a decision works the same whichever way
it was made. Every entry point answers the interaction exactly once and never raises:
``ServiceError`` becomes an ephemeral explanation, anything else is logged and reported as
"the game is unchanged" (services persist all-or-nothing) — except after a decision was saved,
when the player is told their move was made.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import N_, _, n_
from bot.log import log_context
from bot.services.errors import IllegalMove, NotSeated, ServiceError
from bot.services.models import Outcome, SeatInfo, TableInfo
from bot.ui.cards import long_name
from bot.ui.coach import CoachController
from bot.ui.components import (
    DEAL_KEY,
    add_hint_button,
    decision_view,
    lobby_view,
    parse_button,
    rematch_view,
    stamp_deal,
    table_view,
)
from bot.ui.daily import DailyController
from bot.ui.delivery.answer import Ack, acknowledge, redraw, send
from bot.ui.delivery.jobs import Post
from bot.ui.delivery.pictures import add_hand_picture, add_table_picture, for_edit, for_send
from bot.ui.delivery.publisher import Publisher
from bot.ui.errors import GENERIC, reply, reply_error
from bot.ui.games import game_title, renderer
from bot.ui.life import LifeController, back_view, clock_line, clock_name, missing_permissions
from bot.ui.locale import for_interaction, for_seat, for_table
from bot.ui.refusals import refusal
from bot.ui.render import coaching_lines, lobby_embed, table_link, with_coaching

if TYPE_CHECKING:
    from bot.client import TrionfiBot
    from bot.engine.views import SeatView
    from bot.services.tables import TableService

log = logging.getLogger(__name__)

RESTARTING = N_("Trionfi is restarting. Nothing was changed; please try again in a minute.")
MOVE_MADE = N_("Your move was made, but showing it failed; the table will update shortly.")


def _confirmation(payload: dict[str, Any], names: dict[str, str]) -> str:
    kind = payload.get("type")
    if kind == "play":
        return _("You played **{card}**.", card=long_name(str(payload.get("card")), names))
    if kind == "bid":
        return _("You bid **{amount}**.", amount=payload.get("amount"))
    if kind == "accept":
        return _("You accepted.")
    if kind == "drop":
        return _("You dropped.")
    if kind == "muck":
        return _("You mucked the deal.")
    return _("Done.")


class TableController:
    """Glue between Discord and ``TableService`` for every game."""

    def __init__(
        self, bot: TrionfiBot, service: TableService, *, retry_delays: tuple[float, ...] = ()
    ) -> None:
        self.bot = bot
        self.service = service
        self.life = LifeController(self)
        self.coach = CoachController(self)
        self.daily = DailyController(self)
        self.publisher = (
            Publisher(self, retry_delays=retry_delays) if retry_delays else Publisher(self)
        )

    # ---- error guard -----------------------------------------------------------------
    async def guarded(
        self,
        interaction: discord.Interaction[Any],
        work: Callable[[], Awaitable[None]],
        ack: Ack | None = "private",
    ) -> None:
        """Acknowledge the interaction (``ack``; None: ``work`` answers at once and touches
        no database), then run ``work``; refusals and failures become one ephemeral reply."""
        data = interaction.data or {}
        command = interaction.command
        with (
            log_context(
                guild=interaction.guild_id,
                user=interaction.user.id,
                custom_id=data.get("custom_id"),
                command=command.qualified_name if command is not None else None,
            ),
            for_interaction(interaction),
        ):
            if not self.bot.accepting:  # stopping: nothing new starts
                await reply_error(interaction, RESTARTING)
                return
            async with self.bot.working():
                if ack is not None and not await acknowledge(interaction, ack):
                    return
                try:
                    await work()
                except ServiceError as exc:
                    await reply_error(interaction, refusal(exc))
                except Exception:
                    log.exception("interaction failed (table state unchanged)")
                    await reply_error(interaction, GENERIC)

    async def channel_table(self, interaction: discord.Interaction[Any], game_id: str) -> TableInfo:
        """The open table of this game in the interaction's channel (or a clear refusal)."""
        title = game_title(game_id)
        if interaction.channel_id is None or interaction.guild_id is None:
            raise ServiceError(
                _("Use this in the server channel where the {game} table is.", game=title)
            )
        table = await self.service.table_in_channel(interaction.channel_id)
        if table is None or table.game_id != game_id:
            raise ServiceError(
                _(
                    "There is no {game} table in this channel. Start one with `/{group} new`.",
                    game=title,
                    group=_group(game_id),
                )
            )
        return table

    # ---- components ------------------------------------------------------------------
    async def on_button(
        self, interaction: discord.Interaction[Any], table_id: int, rest: str
    ) -> None:
        parsed = parse_button(rest)
        if parsed is None:
            with for_interaction(interaction):
                await reply_error(interaction, _("This button is no longer valid."))
            return
        verb, payload = parsed
        # Lobby buttons redraw the lobby and decisions redraw the hand they sit on; the
        # others answer privately.
        mode: Ack = "private"
        if verb in ("join", "leave", "bot", "start") or (verb == "act" and _from_hand(interaction)):
            mode = "update"

        async def work() -> None:
            if verb == "hand":
                await self.show_hand(interaction, table_id)
            elif verb == "back":
                await self.life.back(interaction, table_id)
            elif verb == "rematch":
                await self.life.rematch(interaction, table_id)
            elif verb == "end":
                await self.life.end(interaction, table_id)
            elif verb == "hint":
                await self.coach.hint(interaction, table_id)
            elif verb == "compare":
                await self.daily.compare_table(interaction, table_id)
            elif verb == "review" and payload is not None:
                await self.coach.review(interaction, table_id, int(payload["deal"]))
            elif verb == "act" and payload is not None:
                await self._act(interaction, table_id, payload)
            else:
                await self._lobby_button(interaction, table_id, verb)

        await self.guarded(interaction, work, mode)

    async def on_action(
        self, interaction: discord.Interaction[Any], table_id: int, payload: dict[str, Any]
    ) -> None:
        mode: Ack = "update" if _from_hand(interaction) else "private"
        await self.guarded(interaction, lambda: self._act(interaction, table_id, payload), mode)

    async def on_choice(
        self, interaction: discord.Interaction[Any], table_id: int, selected: list[str]
    ) -> None:
        """A multi-card choice changed: redraw the hand with the picks (nothing is applied)."""

        async def work() -> None:
            outcome = await self.service.snapshot(table_id, interaction.user.id)
            seat = outcome.table.seat_of(interaction.user.id)
            if seat is None or seat not in outcome.seat_views:
                raise NotSeated(_("You are not seated at this table."))
            # Picks mean something only while the seat has a multi-card choice to make.
            choosing = any(a.cards for a in outcome.seat_views[seat].legal)
            picks = tuple(selected) if choosing else ()
            fields = await self.hand_with_picture(outcome, seat, interaction.user.id, picks)
            if _from_hand(interaction):
                await redraw(interaction, **for_edit(fields))
                return
            # Never redraw a hand over a message the channel sees: send it to the presser.
            await send(interaction, ephemeral=True, **fields)

        await self.guarded(interaction, work, "update" if _from_hand(interaction) else "private")

    async def _lobby_button(
        self, interaction: discord.Interaction[Any], table_id: int, verb: str
    ) -> None:
        user = interaction.user
        if verb == "start":
            await self.start(interaction, table_id)
            return
        if verb == "join":
            table = await self.service.join(
                table_id, user.id, user.display_name, _locale(interaction.locale)
            )
        elif verb == "leave":
            table = await self.service.leave(table_id, user.id)
        else:
            table = await self.service.add_computer(table_id, user.id)
        await redraw(interaction, **self.lobby_message(table))

    # ---- lobby -----------------------------------------------------------------------
    def lobby_message(self, table: TableInfo) -> dict[str, Any]:
        with for_table(table):
            return TableController._lobby_fields(table)

    @staticmethod
    def _lobby_fields(table: TableInfo) -> dict[str, Any]:
        r = renderer(table.game_id)
        if table.status == "abandoned":
            embed = discord.Embed(
                title=_("{game} · table #{id}", game=_(r.TITLE), id=table.id),
                description=_("This table was closed."),
            )
            return {"content": None, "embed": embed, "view": None}
        lines = [
            *r.option_lines(table.options),
            _("Turn clock: **{clock}**", clock=clock_name(table.turn_clock)),
            *coaching_lines(table),
        ]
        embed = lobby_embed(table, _(r.TITLE), lines)
        return {"content": None, "embed": embed, "view": lobby_view(table.id, full=table.is_full)}

    async def open_lobby(
        self,
        interaction: discord.Interaction[Any],
        game_id: str,
        players: int,
        options: dict[str, Any],
        computers: int,
        clock: str | None = None,
        *,
        level: str = "casual",
        hints: bool = False,
        language: str | None = None,
    ) -> None:
        """``/<game> new``: open a lobby (``language``: the table's; None: the server's)."""

        async def work() -> None:
            if interaction.guild_id is None or interaction.channel_id is None:
                raise ServiceError(
                    _("Tables live in server channels: use this command in a server.")
                )
            missing = missing_permissions(interaction)
            if missing:  # checked first, so nothing is half-created
                raise ServiceError(
                    n_(
                        "I can't run a table in this channel: I'm missing the {names} "
                        "permission. Ask an admin to grant it, or use another channel.",
                        "I can't run a table in this channel: I'm missing the {names} "
                        "permissions. Ask an admin to grant them, or use another channel.",
                        len(missing),
                        names=", ".join(f"**{m}**" for m in missing),
                    )
                )
            user = interaction.user
            table = await self.service.open_lobby(
                interaction.guild_id,
                interaction.channel_id,
                user.id,
                user.display_name,
                game_id,
                players,
                options,
                computers,
                clock,
                level=level,
                hints=hints,
                language=language,
                server_locale=_locale(interaction.guild_locale),
                owner_locale=_locale(interaction.locale),
            )
            await self.post_lobby(interaction, table)

        await self.guarded(interaction, work)

    async def post_lobby(self, interaction: discord.Interaction[Any], table: TableInfo) -> None:
        """Post a new lobby in the table's channel and answer the opener privately (a public
        "thinking…" answer would have made any refusal public too)."""
        channel = self.bot.get_partial_messageable(table.channel_id)
        try:
            message = await channel.send(**for_send(self.lobby_message(table)))
        except discord.HTTPException:
            await self.service.end_table(table.id, table.owner_id, admin=True)
            raise ServiceError(
                _(
                    "I couldn't post the table in this channel, so it was not opened. Check my "
                    "permissions here and try again."
                )
            ) from None
        await self.service.set_message(table.id, message.id)
        link = f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{message.id}"
        await reply(interaction, _("Table #{id} is open: {link}", id=table.id, link=link))

    async def lobby_command(
        self, interaction: discord.Interaction[Any], game_id: str, verb: str
    ) -> None:
        """``/<game> join|leave`` typed as commands: answer ephemerally, refresh the lobby."""

        async def work() -> None:
            table = await self.channel_table(interaction, game_id)
            user = interaction.user
            if verb == "join":
                table = await self.service.join(
                    table.id, user.id, user.display_name, _locale(interaction.locale)
                )
                text = _("You joined table #{id}.", id=table.id)
            else:
                table = await self.service.leave(table.id, user.id)
                text = _("You left table #{id}.", id=table.id)
            await reply(interaction, text)
            await self.edit_table_message(table, **self.lobby_message(table))

        await self.guarded(interaction, work)

    async def start(
        self, interaction: discord.Interaction[Any], table_id: int | None, game_id: str = ""
    ) -> None:
        """Start a full table (host only) and deal."""

        async def work() -> None:
            tid = (
                table_id
                if table_id is not None
                else (await self.channel_table(interaction, game_id)).id
            )
            outcome = await self.service.start(tid, interaction.user.id)
            table = outcome.table
            on_lobby = (
                interaction.message is not None and interaction.message.id == table.message_id
            )
            if on_lobby and outcome.public is not None and not outcome.ended_deals:
                # The lobby message becomes the table message (no new message to post).
                fields = self.table_message(outcome)
                if await self.service.pictures_on(table.guild_id, None):
                    with for_table(table):  # the table's words, not the clicker's
                        fields = await add_table_picture(fields, outcome)
                try:
                    await redraw(interaction, **for_edit(fields))
                except discord.HTTPException as e:
                    log.info("could not turn lobby %s into its table: %s", table.id, e)
                else:
                    self.publisher.seen_table(table.id, fields)
            elif not on_lobby:
                await reply(interaction, _("Table #{id} started.", id=table.id))
            # Publishing turns the lobby message into the table (if not done above).
            self.publish(outcome)

        await self.guarded(interaction, work, "update" if table_id is not None else "private")

    # ---- decisions ---------------------------------------------------------------------
    async def command_act(
        self, interaction: discord.Interaction[Any], game_id: str, payload: dict[str, Any]
    ) -> None:
        """A decision typed as a slash command in the table's channel."""

        async def work() -> None:
            table = await self.channel_table(interaction, game_id)
            try:
                outcome = await self.service.act(table.id, interaction.user.id, payload)
            except IllegalMove as e:
                raise await self._explained(e, table.id, interaction.user.id) from None
            await reply(interaction, _reply_text(game_id, payload))
            self.publish(outcome)

        await self.guarded(interaction, work)

    async def _act(
        self, interaction: discord.Interaction[Any], table_id: int, payload: dict[str, Any]
    ) -> None:
        payload = dict(payload)
        deal = payload.pop(DEAL_KEY, None)
        expect_deal = deal if isinstance(deal, int) else None
        try:
            outcome = await self.service.act(
                table_id, interaction.user.id, payload, expect_deal=expect_deal
            )
        except IllegalMove as e:
            raise await self._explained(e, table_id, interaction.user.id) from None
        seat = outcome.table.seat_of(interaction.user.id)
        try:
            if seat is not None and seat in outcome.seat_views and _from_hand(interaction):
                # The click came from this player's hand (DM or ephemeral): redraw it in place.
                fields = await self.hand_with_picture(outcome, seat, interaction.user.id)
                try:
                    await redraw(interaction, **for_edit(fields))
                except discord.HTTPException as e:
                    log.info("could not redraw a hand after a decision: %s", e)  # publishing will
                else:
                    if interaction.guild_id is None:
                        self.publisher.seen_dm(outcome.table.id, seat, fields)  # the DM itself
            else:
                await reply(interaction, _reply_text(outcome.table.game_id, payload))
        except Exception:
            # The decision is saved: saying "the game is unchanged" would invite a second one.
            log.exception("could not answer a decision that was made")
            await reply_error(interaction, MOVE_MADE)
        finally:
            self.publish(outcome)  # after the redraw (seen_dm), and whatever failed

    async def _explained(self, e: IllegalMove, table_id: int, user_id: int) -> ServiceError:
        """A refused decision, in words; a refused card also says which rule forbids it, as
        the player's hand does (their current view, fetched only on this path)."""
        if e.params.get("reason") != "cannot_play":
            return e
        try:
            outcome = await self.service.snapshot(table_id, user_id)
        except ServiceError:
            return e
        seat = outcome.table.seat_of(user_id)
        view = outcome.seat_views.get(seat) if seat is not None else None
        return ServiceError(refusal(e, view))

    async def resign(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        async def work() -> None:
            table = await self.channel_table(interaction, game_id)
            outcome = await self.service.resign(table.id, interaction.user.id)
            name = interaction.user.display_name
            closed = outcome.table.status == "abandoned"
            if closed:
                mine = _("You resigned. No human player is left, so the table is closed.")
            else:
                mine = _("You resigned. A computer player takes over your seat.")

            def public() -> list[str]:  # in the table's language
                if closed:
                    return [
                        _(
                            "🏳️ **{name}** resigned; no human player is left at table #{id}.",
                            name=name,
                            id=table.id,
                        )
                    ]
                return [
                    _(
                        "🏳️ **{name}** resigned from table #{id}; a computer player takes the seat.",
                        name=name,
                        id=table.id,
                    )
                ]

            await reply(interaction, mine)
            self.publish(outcome, fresh_message=True, notices=public)

        await self.guarded(interaction, work)

    # ---- hands -------------------------------------------------------------------------
    def _where(self, table: TableInfo) -> str:
        if table.daily is not None:  # played alone, in the player's DMs
            return _("Daily deal · {day}", day=table.daily)
        guild = self.bot.get_guild(table.guild_id)
        channel = guild.get_channel(table.channel_id) if guild else None
        server = guild.name if guild else _("your server")
        place = f"#{channel.name}" if channel else _("the table channel")
        return _("{server} › {place} · table #{id}", server=server, place=place, id=table.id)

    def hand_message(
        self, outcome: Outcome, seat: int, selected: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        """The seat's hand embed and decision controls (``selected``: a multi-card choice in
        progress, see ``bot/ui/choice.py``)."""
        table = outcome.table
        r = renderer(table.game_id)
        view = outcome.seat_views[seat]
        with for_seat(table, seat):  # in the player's own language, wherever it is shown
            embed = r.hand_embed(table, view, self._where(table), outcome)
            controls = None if outcome.finished else _controls(r, table.id, view, selected)
            if controls is not None:
                stamp_deal(controls, outcome.deal_number)
                if table.hints:
                    add_hint_button(controls, table.id)
            me = next(s for s in table.seats if s.seat == seat)
            if me.away and controls is None and not outcome.finished:
                controls = back_view(table.id)  # the computer is playing this seat
        return {"embed": embed, "view": controls}

    async def hand_with_picture(
        self, outcome: Outcome, seat: int, user_id: int | None, selected: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        """``hand_message`` with the picture of the hand, if the player wants pictures."""
        fields = self.hand_message(outcome, seat, selected)
        if user_id is not None and await self.service.pictures_on(outcome.table.guild_id, user_id):
            with for_seat(outcome.table, seat):
                fields = await add_hand_picture(fields, outcome, seat)
        return fields

    async def show_hand(
        self, interaction: discord.Interaction[Any], table_id: int | None, game_id: str = ""
    ) -> None:
        """Ephemeral copy of the caller's hand with live controls (the closed-DM fallback)."""
        tid = (
            table_id
            if table_id is not None
            else (await self.channel_table(interaction, game_id)).id
        )
        outcome = await self.service.snapshot(tid, interaction.user.id)
        seat = outcome.table.seat_of(interaction.user.id)
        if seat is None:
            raise NotSeated(_("You are not seated at this table."))
        if outcome.public is None or seat not in outcome.seat_views:
            raise ServiceError(_("The game has not started yet."))
        fields = await self.hand_with_picture(outcome, seat, interaction.user.id)
        await send(interaction, ephemeral=True, **fields)

    async def hand_command(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        await self.guarded(interaction, lambda: self.show_hand(interaction, None, game_id))

    async def status(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        async def work() -> None:
            table = await self.channel_table(interaction, game_id)
            if table.status == "lobby":
                await reply(
                    interaction,
                    _("The table is still gathering players."),
                    embed=self.lobby_message(table)["embed"],
                )
                return
            outcome = await self.service.snapshot(table.id, None)
            await reply(
                interaction,
                _("Current table:"),
                embed=with_coaching(renderer(game_id).table_embed(outcome), table),
            )

        await self.guarded(interaction, work)

    # ---- publishing ------------------------------------------------------------------
    async def edit_table_message(self, table: TableInfo, **fields: Any) -> bool:
        """Edit a lobby's message in place (best effort: the lobby is redrawn on every
        change, and its buttons work whatever it shows)."""
        if table.message_id is None:
            return False
        channel = self.bot.get_partial_messageable(table.channel_id)
        try:
            await channel.get_partial_message(table.message_id).edit(**fields)
        except discord.HTTPException as e:
            log.info("could not edit the message of table %s: %s", table.id, e)
            return False
        return True

    def publish(
        self,
        outcome: Outcome,
        *,
        fresh_message: bool = False,
        notices: Callable[[], list[str]] | None = None,
    ) -> None:
        """Queue the table message, every human's DM hand and ``notices`` (public one-liners,
        posted first) for delivery after a change; returns at once (see ``Publisher``).

        ``notices`` is called in the table's language (the caller may be answering a player
        who reads another one)."""
        quiet = discord.AllowedMentions.none()
        with for_table(outcome.table):
            texts = notices() if notices is not None else []
        posts = [Post({"content": text, "allowed_mentions": quiet}) for text in texts]
        self.publisher.submit(outcome, posts=posts, fresh=fresh_message)

    def table_message(self, outcome: Outcome) -> dict[str, Any]:
        """The running table's public message: whose turn (mentioned), the clock, the table."""
        table = outcome.table
        r = renderer(table.game_id)
        with for_table(table):
            content = "\n".join(x for x in (r.turn_content(outcome), clock_line(table)) if x)
            return {
                "content": content or None,
                "embed": with_coaching(r.table_embed(outcome), table),
                # A daily deal's table sits in its player's DMs, right above their hand.
                "view": None
                if table.daily is not None
                else table_view(
                    table.id, someone_away=any(s.away for s in table.seats), hints=table.hints
                ),
                "allowed_mentions": discord.AllowedMentions(
                    users=True, roles=False, everyone=False
                ),
            }

    def closed_hand(self, table: TableInfo, seat: SeatInfo | None = None) -> dict[str, Any]:
        """A hand message once its table was closed (no controls left)."""
        with for_seat(table, seat):
            return self._closed_hand(table)

    def _closed_hand(self, table: TableInfo) -> dict[str, Any]:
        return self._handless(table, _("This table was closed. It won't count in any ranking."))

    def handed_over(self, table: TableInfo, seat: SeatInfo) -> dict[str, Any]:
        """The hand message of a seat a computer plays now (its player resigned, was replaced,
        or left a daily deal idle): no controls left, so nothing there would only be refused."""
        with for_seat(table, seat):
            if table.daily is not None:
                text = _("The computer played the rest of your hand; that result is your score.")
            else:
                text = _("A computer player has taken over your seat at this table.")
            return self._handless(table, text)

    def _handless(self, table: TableInfo, text: str) -> dict[str, Any]:
        r = renderer(table.game_id)
        embed = discord.Embed(
            title=_("{game} · table #{id}", game=_(r.TITLE), id=table.id), description=text
        )
        embed.set_author(name=self._where(table), url=table_link(table))
        return {"content": None, "embed": embed, "view": None}

    @staticmethod
    def rematch_view(table: TableInfo) -> discord.ui.View | None:
        """Under a game's result: a rematch (none after a daily deal: one a day)."""
        return None if table.daily is not None else rematch_view(table.id)


def _locale(locale: object) -> str | None:
    """A Discord locale as the services take it (a code such as ``fr`` or ``en-GB``)."""
    value = getattr(locale, "value", locale)
    return None if value is None else str(value)


def _from_hand(interaction: discord.Interaction[Any]) -> bool:
    """The component sits on the presser's own hand (their DM, or an ephemeral copy)."""
    message = interaction.message
    return message is not None and (interaction.guild_id is None or message.flags.ephemeral)


def _group(game_id: str) -> str:
    return str(getattr(renderer(game_id), "GROUP", game_id))


def _controls(
    r: ModuleType, table_id: int, view: SeatView, selected: tuple[str, ...] = ()
) -> discord.ui.View | None:
    """The seat's decision controls: the game's own builder if it has one, else the default."""
    custom = getattr(r, "decision_view", None)
    if custom is not None:
        return custom(table_id, view, selected) if selected else custom(table_id, view)
    return decision_view(
        table_id,
        view.legal,
        r.BUTTON_LABELS,
        getattr(r, "CARD_LABELS", None),
        getattr(r, "CARD_NAMES", None),
    )


def _reply_text(game_id: str, payload: dict[str, Any]) -> str:
    r = renderer(game_id)
    custom = getattr(r, "confirmation", None)
    text = custom(payload) if custom is not None else None
    return text if isinstance(text, str) else _confirmation(payload, getattr(r, "CARD_NAMES", {}))
