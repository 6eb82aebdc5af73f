"""The handlers' front desk: every interaction's one error guard (``Desk.guarded``), the table
of a command's channel (``Desk.channel_table``), and the bot they run in (``Host``).

Slash commands and components both land in ``bot.ui.handlers``, so a decision works the same
whichever way it was made. Every entry point answers the interaction exactly once and never
raises: ``ServiceError`` becomes an ephemeral explanation, anything else is logged and reported
as "the game is unchanged" (services persist all-or-nothing), except after a decision was saved,
when the player is told their move was made.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

import discord

from bot.i18n import N_, _
from bot.log import log_context
from bot.services.bounds import Where
from bot.services.errors import ServiceError, as_refusal
from bot.services.models import TableInfo
from bot.services.tables import TableService
from bot.ui.delivery.answer import Ack, acknowledge, reply_error
from bot.ui.delivery.protocols import Messenger
from bot.ui.games import game_title, renderer
from bot.ui.text.cards import plain_suits
from bot.ui.text.errors import GENERIC
from bot.ui.text.locale import for_interaction
from bot.ui.text.mention import command
from bot.ui.text.refusals import refusal

log = logging.getLogger(__name__)

RESTARTING = N_("Trionfi is restarting. Nothing was changed; please try again in a minute.")
MOVE_MADE = N_("Your move was made, but showing it failed; the table will update shortly.")


class Host(Messenger, Protocol):
    """What the handlers ask of the bot (``bot.client.TrionfiBot``), which they are handed and
    never import: whether it still takes new work, counting the work in flight (a clean stop
    waits for it), the servers it knows, and its channels (``Messenger``)."""

    @property
    def accepting(self) -> bool: ...

    def working(self) -> AbstractAsyncContextManager[None]: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...


class Desk:
    """What every handler works through: the bot, the table service, the error guard."""

    def __init__(self, bot: Host, service: TableService) -> None:
        self.bot = bot
        self.service = service

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
            # Our suit emojis show as words where the bot may not use them (issue 28).
            plain_suits(
                interaction.guild_id is not None
                and not interaction.app_permissions.use_external_emojis
            ),
        ):
            if not self.bot.accepting:  # stopping: nothing new starts
                await reply_error(interaction, RESTARTING)
                return
            async with self.bot.working():
                if ack is not None and not await acknowledge(interaction, ack):
                    return
                try:
                    await work()
                except Exception as exc:
                    refused = as_refusal(exc)  # a ServiceError, or a database too busy
                    if refused is not None:
                        await reply_error(interaction, refusal(refused))
                    else:
                        log.exception("interaction failed (table state unchanged)")
                        await reply_error(interaction, GENERIC)

    async def channel_table(self, interaction: discord.Interaction[Any], game_id: str) -> TableInfo:
        """The open table of this game in the interaction's channel (or a clear refusal):
        where several share it (a tournament's, without threads), the user's own."""
        title = game_title(game_id)
        if interaction.channel_id is None or interaction.guild_id is None:
            raise ServiceError(
                _("Use this in the server channel where the {game} table is.", game=title)
            )
        table = await self.service.table_in_channel(interaction.channel_id, interaction.user.id)
        if table is None or table.game_id != game_id:
            raise ServiceError(
                _(
                    "There is no {game} table in this channel. Start one with {new}.",
                    game=title,
                    new=command(f"{getattr(renderer(game_id), 'GROUP', game_id)} new"),
                )
            )
        return table


def where_of(interaction: discord.Interaction[Any]) -> Where:
    """Where an interaction came from, as the services check it against a table's server
    (``bot.services.bounds``): its server, or the DM channel it was used in."""
    return Where(interaction.guild_id, interaction.channel_id)


def locale_code(locale: object) -> str | None:
    """A Discord locale as the services take it (a code such as ``fr`` or ``en-GB``)."""
    value = getattr(locale, "value", locale)
    return None if value is None else str(value)


def from_hand(interaction: discord.Interaction[Any]) -> bool:
    """The component sits on the presser's own hand (their DM, or an ephemeral copy)."""
    message = interaction.message
    return message is not None and (interaction.guild_id is None or message.flags.ephemeral)
