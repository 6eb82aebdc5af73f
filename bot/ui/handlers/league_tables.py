"""League tables with several humans of one server on Discord (issue 34): ``/league table``
opens a lobby in the server's league channel, its members join with the lobby's buttons, and
the host's **Start** makes a private thread, adds the table's players to it and starts the
table there (``bot.services.league_tables``).

**Nothing of a deal outside the thread and the players' DMs.** The lobby shows names only; the
table and its posts go to the thread (the table's channel from its start), the hands to DMs as
at any table. Without **Create Private Threads** or **Send Messages in Threads** in the league
channel no league table opens or starts (the refusal names what is missing); it never falls
back to a table in the channel. A member who could read others' private threads there is
refused any entry (``sees_threads``).
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from bot.i18n import _
from bot.services.errors import ServiceError
from bot.services.models import TableInfo
from bot.services.tables import TableService
from bot.ui.components.layout import from_embed
from bot.ui.delivery.answer import redraw
from bot.ui.delivery.failures import DeliveryFailure, attempt
from bot.ui.delivery.pictures import for_edit
from bot.ui.delivery.publisher import Publisher
from bot.ui.handlers.desk import Desk, locale_code, where_of
from bot.ui.handlers.lobby import (
    LobbyController,
    reads_others_threads,
    reads_threads,
    require_permissions,
)
from bot.ui.text.league import THREAD_NEEDS, no_thread_refusal, started_embed, thread_name
from bot.ui.text.locale import for_table

log = logging.getLogger(__name__)


def require_thread_permissions(interaction: discord.Interaction[Any]) -> None:
    """Refuse a league table where the bot may not run its private thread, naming what it
    lacks (the channel's own essentials are checked as for any table)."""
    require_permissions(interaction)
    have = interaction.app_permissions
    missing = [attr for attr in THREAD_NEEDS if not getattr(have, attr)]
    if missing:
        raise ServiceError(no_thread_refusal(missing))


async def sees_league_threads(service: TableService, interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's member may read private threads of their server's league
    channel they were not added to (``reads_threads`` there; in the interaction's own channel
    when the league channel is unknown here)."""
    member = interaction.user
    guild = interaction.guild
    if guild is not None and isinstance(member, discord.Member):
        home = await service.league_channel(guild.id)
        channel = guild.get_channel(home) if home is not None else None
        if channel is not None:
            return reads_others_threads(channel.permissions_for(member))
    return reads_threads(interaction)


class LeagueTableController:
    """``/league table`` and its lobby's **Start**."""

    def __init__(self, desk: Desk, lobby: LobbyController, publisher: Publisher) -> None:
        self.desk = desk
        self.bot = desk.bot
        self.service = desk.service
        self.lobby = lobby
        self.publisher = publisher

    async def open(self, interaction: discord.Interaction[Any], game: str) -> None:
        """``/league table``: a lobby of this week's set in the league channel."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise ServiceError(_("Tables live in server channels: use this command in a server."))
        require_thread_permissions(interaction)
        user = interaction.user
        table = await self.service.open_league_table(
            interaction.guild_id,
            interaction.channel_id,
            user.id,
            user.display_name,
            game,
            locale=locale_code(interaction.locale),
            server_locale=locale_code(interaction.guild_locale),
            sees_threads=reads_threads(interaction),
        )
        await self.lobby.post_lobby(interaction, table)

    async def is_league_table(self, table_id: int) -> bool:
        try:
            table = await self.service.get_table(table_id)
        except ServiceError:
            return False
        return table.league is not None and bool(table.guild_id)

    async def start(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """The lobby's **Start**: the private thread with the table's players in it, then the
        table there; the lobby's message says where it went, and nothing of it.

        The thread is made once (``bot.services.league_tables``, ``claim_league_thread``): the
        start is claimed in the database first, the thread recorded as soon as Discord made
        it, and a Start after a crash reuses it (the recorded one, or one of the table's name
        in the channel, made just before a crash that left it unrecorded)."""
        user = interaction.user
        where = where_of(interaction)
        table = await self.service.league_table_ready(table_id, user.id, where=where)
        require_thread_permissions(interaction)
        channel = self.bot.get_channel(table.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise ServiceError(no_thread_refusal(list(THREAD_NEEDS)))
        recorded = await self.service.claim_league_thread(table_id)
        thread: discord.Thread | None = None
        try:
            thread = await self._thread(channel, table, recorded)
            await self.service.league_thread_made(table_id, thread.id)
            for seat in table.seats:
                if seat.user_id is not None:
                    await attempt(
                        thread.add_user(discord.Object(id=seat.user_id)),
                        "adding a player to a league table's thread",
                    )
            outcome = await self.service.start_league_table(
                table_id, user.id, thread.id, where=where
            )
        except (ServiceError, DeliveryFailure) as e:
            made = await self.service.drop_league_thread(table_id)
            if thread is not None and made == thread.id:
                with contextlib.suppress(discord.HTTPException):
                    await thread.delete()  # nobody is left with an empty thread
            if isinstance(e, ServiceError):
                raise
            raise ServiceError(no_thread_refusal(list(THREAD_NEEDS))) from None
        await self.service.release_league_thread(table_id)
        try:
            with for_table(table):  # the table's words, not the clicker's
                embed = started_embed(table.game_id, table.id, thread.id)
            await redraw(interaction, **for_edit({"view": from_embed(embed)}))
        except discord.HTTPException as e:
            log.info("could not redraw the lobby of league table %s: %s", table.id, e)
        self.publisher.publish(outcome)

    async def _thread(
        self, channel: discord.TextChannel, table: TableInfo, recorded: int | None
    ) -> discord.Thread:
        """The table's private thread: the one an earlier Start recorded (``recorded``), or
        one of its name in the channel (made by a Start that crashed before recording it),
        else a new one."""
        with for_table(table):  # one name per table, whoever presses Start
            name = thread_name(table.game_id, table.id)
        # The bot is a member of the threads it made, so Discord keeps them in its cache
        # (also after a restart) while they are active.
        found = channel.guild.get_thread(recorded) if recorded is not None else None
        if found is not None:
            return found
        for found in channel.threads:
            if found.name == name and found.type is discord.ChannelType.private_thread:
                return found
        return await attempt(
            channel.create_thread(
                name=name,
                type=discord.ChannelType.private_thread,
                invitable=False,
                auto_archive_duration=1440,
            ),
            "a league table's private thread",
        )
