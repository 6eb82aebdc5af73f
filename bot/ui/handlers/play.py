"""What a decision does, clicked or typed: the engine's answer, the hand redrawn where the click
came from, the publishing; and the commands around play: ``/<game> hand``, ``status`` and
``resign``."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import N_, _
from bot.services.bounds import Where
from bot.services.errors import IllegalMove, NotSeated, ServiceError
from bot.ui.components.table import DEAL_KEY
from bot.ui.delivery.answer import redraw, reply, reply_error, send
from bot.ui.delivery.pictures import for_edit
from bot.ui.delivery.publisher import Publisher
from bot.ui.games import renderer
from bot.ui.handlers.desk import MOVE_MADE, Desk, from_hand, where_of
from bot.ui.handlers.screens import TableScreens, lobby_embed_of
from bot.ui.text.cards import long_name
from bot.ui.text.locale import for_game
from bot.ui.text.refusals import refusal
from bot.ui.text.render import with_coaching

log = logging.getLogger(__name__)


#: Refusals of a decision clicked on a hand that mean the hand was drawn before the game moved
#: on (issue 30): the turn passed, the deal or the game ended, or the choice is no longer one
#: the seat has (a current hand offers only the engine's legal actions, so a one-tap choice it
#: offered cannot be refused otherwise; a crafted custom_id gets the same answer, and nothing
#: is played either way). A multi-card choice refused for its cards is answered as before.
MOVED_ON = frozenset({"not_your_turn", "deal_over", "earlier_deal", "game_over"})
STALE_REASONS = frozenset(
    {
        "kind_not_now",
        "not_held",
        "cannot_play",
        "cannot_call",
        "bid_too_low",
        "bad_amount",
        "bad_suit",
        "cannot_declare",
    }
)
STALE_VIEW = N_("That view was out of date — nothing was played.")


def moved_on(e: ServiceError) -> bool:
    """Whether a refused decision from a hand means that hand was out of date."""
    if e.code in MOVED_ON:
        return True
    return e.code == "illegal_action" and e.params.get("reason") in STALE_REASONS


class PlayController:
    """Decisions and the hand, from a component or a slash command."""

    def __init__(self, desk: Desk, screens: TableScreens, publisher: Publisher) -> None:
        self.desk = desk
        self.service = desk.service
        self.screens = screens
        self.publisher = publisher

    # ---- decisions -----------------------------------------------------------------------
    async def command_act(
        self, interaction: discord.Interaction[Any], game_id: str, payload: dict[str, Any]
    ) -> None:
        """A decision typed as a slash command in the table's channel."""

        async def work() -> None:
            table = await self.desk.channel_table(interaction, game_id)
            here = where_of(interaction)
            try:
                outcome = await self.service.act(table.id, interaction.user.id, payload, where=here)
            except IllegalMove as e:
                raise await self._explained(e, table.id, interaction.user.id, here) from None
            await reply(interaction, _reply_text(game_id, payload))
            self.publisher.publish(outcome)

        await self.desk.guarded(interaction, work)

    async def act(
        self, interaction: discord.Interaction[Any], table_id: int, payload: dict[str, Any]
    ) -> None:
        """A decision clicked on a hand or a table message (``payload`` from its custom_id)."""
        payload = dict(payload)
        deal = payload.pop(DEAL_KEY, None)
        expect_deal = deal if isinstance(deal, int) else None
        here = where_of(interaction)
        try:
            outcome = await self.service.act(
                table_id, interaction.user.id, payload, expect_deal=expect_deal, where=here
            )
        except ServiceError as e:
            if from_hand(interaction) and moved_on(e):
                await self._out_of_date(interaction, table_id)
                return
            if isinstance(e, IllegalMove):
                raise await self._explained(e, table_id, interaction.user.id, here) from None
            raise
        seat = outcome.table.seat_of(interaction.user.id)
        try:
            if seat is not None and seat in outcome.seat_views and from_hand(interaction):
                # The click came from this player's hand (DM or ephemeral): redraw it in place.
                fields = await self.screens.hand_with_picture(outcome, seat, interaction.user.id)
                try:
                    await redraw(interaction, **for_edit(fields))
                except discord.HTTPException as e:
                    log.info("could not redraw a hand after a decision: %s", e)  # publishing will
                else:
                    if interaction.guild_id is None and interaction.message is not None:
                        # The DM itself.
                        self.publisher.seen_dm(
                            outcome.table.id, seat, interaction.message.id, fields
                        )
                        # What the delivery still has to change on this hand (its link to a
                        # new table message, after a deal's last card) goes through this
                        # same click (``clicks.edit_by_click``).
                        await self.remember_click(interaction, outcome.table.id, seat)
            else:
                await reply(interaction, _reply_text(outcome.table.game_id, payload))
        except Exception:
            # The decision is saved: saying "the game is unchanged" would invite a second one.
            log.exception("could not answer a decision that was made")
            await reply_error(interaction, MOVE_MADE)
        finally:
            # After the redraw (seen_dm), and whatever failed.
            self.publisher.publish(outcome)

    async def choose(
        self, interaction: discord.Interaction[Any], table_id: int, selected: list[str]
    ) -> None:
        """A multi-card choice changed: redraw the hand with the picks (nothing is applied)."""
        outcome = await self.service.snapshot(
            table_id, interaction.user.id, where=where_of(interaction)
        )
        seat = outcome.table.seat_of(interaction.user.id)
        if seat is None or seat not in outcome.seat_views:
            raise NotSeated(_("You are not seated at this table."))
        # Picks mean something only while the seat has a multi-card choice to make.
        choosing = any(a.cards for a in outcome.seat_views[seat].legal)
        picks = tuple(selected) if choosing else ()
        fields = await self.screens.hand_with_picture(outcome, seat, interaction.user.id, picks)
        if from_hand(interaction):
            await redraw(interaction, **for_edit(fields))
            if interaction.guild_id is None:
                await self.remember_click(interaction, outcome.table.id, seat)
            return
        # Never redraw a hand over a message the channel sees: send it to the presser.
        await send(interaction, ephemeral=True, **fields)

    async def remember_click(
        self, interaction: discord.Interaction[Any], table_id: int, seat: int
    ) -> None:
        """The player clicked their DM hand: until its token is too old, deliveries redraw that
        hand through this interaction (e.g. when it becomes their turn), which costs none of the
        bot's REST budget (``clicks.edit_by_click``). Kept in the database: any process of a cluster
        can, even after a restart. Best effort: without it, the hand is edited as usual."""
        message = interaction.message
        if message is None:
            return
        try:
            await self.service.remember_click(
                table_id,
                seat,
                interaction.user.id,
                interaction.application_id,
                interaction.token,
                message.id,
            )
        except Exception:
            log.exception("could not remember a click on a DM hand")

    async def _out_of_date(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """A decision clicked on a hand drawn before the game moved on (issue 30): nothing was
        played; an ephemeral hand is redrawn in place with the current one (a DM hand is the
        publisher's to redraw)."""
        await reply_error(interaction, STALE_VIEW)
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            return
        try:
            outcome = await self.service.snapshot(
                table_id, interaction.user.id, where=where_of(interaction)
            )
        except ServiceError:
            return  # nothing more to show
        seat = outcome.table.seat_of(interaction.user.id)
        try:
            if seat is not None and seat in outcome.seat_views and not outcome.finished:
                fields = await self.screens.hand_with_picture(outcome, seat, interaction.user.id)
            else:
                me = next((s for s in outcome.table.seats if s.seat == seat), None)
                fields = self.screens.out_of_date_hand(outcome.table, me)
            await redraw(interaction, **for_edit(fields))
        except discord.HTTPException as e:
            log.info("could not redraw an out-of-date hand: %s", e)

    async def _explained(
        self, e: IllegalMove, table_id: int, user_id: int, here: Where
    ) -> ServiceError:
        """A refused decision, in words; a refused card also says which rule forbids it, as
        the player's hand does (their current view, fetched only on this path)."""
        if e.params.get("reason") != "cannot_play":
            return e
        try:
            outcome = await self.service.snapshot(table_id, user_id, where=here)
        except ServiceError:
            return e
        seat = outcome.table.seat_of(user_id)
        view = outcome.seat_views.get(seat) if seat is not None else None
        return ServiceError(refusal(e, view))

    async def resign(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        """``/<game> resign``: a computer takes the seat (or the table closes)."""

        async def work() -> None:
            table = await self.desk.channel_table(interaction, game_id)
            outcome = await self.service.resign(
                table.id, interaction.user.id, where=where_of(interaction)
            )
            if outcome.table.status == "abandoned":
                mine = _("You resigned. No human player is left, so the table is closed.")
            else:
                mine = _("You resigned. A computer player takes over your seat.")
            await reply(interaction, mine)
            # The channel's notice ("… resigned") came with the commit (``Outcome.notices``).
            self.publisher.publish(outcome, fresh_message=True)

        await self.desk.guarded(interaction, work)

    # ---- the hand and the table, privately -------------------------------------------------
    async def show_hand(
        self, interaction: discord.Interaction[Any], table_id: int | None, game_id: str = ""
    ) -> None:
        """Ephemeral copy of the caller's hand with live controls (the closed-DM fallback)."""
        tid = (
            table_id
            if table_id is not None
            else (await self.desk.channel_table(interaction, game_id)).id
        )
        outcome = await self.service.snapshot(tid, interaction.user.id, where=where_of(interaction))
        seat = outcome.table.seat_of(interaction.user.id)
        if seat is None:
            raise NotSeated(_("You are not seated at this table."))
        if outcome.public is None or seat not in outcome.seat_views:
            raise ServiceError(_("The game has not started yet."))
        fields = await self.screens.hand_with_picture(outcome, seat, interaction.user.id)
        message = await send(interaction, ephemeral=True, **fields)
        if message is not None:
            # Remembered in the database: every delivery of the table redraws it while its
            # token lasts (issue 30), and the answer it replaces goes out of date at once.
            await self.publisher.views.remember(
                outcome.table, seat, interaction.user.id, interaction, message.id, fields
            )

    async def hand_command(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        """``/<game> hand``."""
        await self.desk.guarded(interaction, lambda: self.show_hand(interaction, None, game_id))

    async def status(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        """``/<game> status``: the lobby or the table, privately."""

        async def work() -> None:
            table = await self.desk.channel_table(interaction, game_id)
            if table.status == "lobby":
                await reply(
                    interaction,
                    _("The table is still gathering players."),
                    embed=lobby_embed_of(table),
                )
                return
            outcome = await self.service.snapshot(table.id, None)
            with for_game(game_id):
                embed = with_coaching(renderer(game_id).table_embed(outcome), table)
            await reply(interaction, _("Current table:"), embed=embed)

        await self.desk.guarded(interaction, work)


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


def _reply_text(game_id: str, payload: dict[str, Any]) -> str:
    """The private answer to a decision (the game's own ``confirmation`` if it has one)."""
    r = renderer(game_id)
    custom = getattr(r, "confirmation", None)
    with for_game(game_id):
        text = custom(payload) if custom is not None else None
        if isinstance(text, str):
            return text
        return _confirmation(payload, getattr(r, "CARD_NAMES", {}))
