"""``/daily`` on Discord (issue 20): the day's deal dealt into the player's DMs, the boards,
the comparison after one's own finish, resigning, the DM result post and the servers' daily
announcements.

The attempt itself is an ordinary table whose channel is the player's DM channel: the
publisher shows it there (the table message, the hand, the deal summary) like any table.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from bot.i18n import _, language_of, using
from bot.services.errors import ServiceError
from bot.ui.components.views import result_view
from bot.ui.delivery.answer import reply, send
from bot.ui.delivery.failures import Broken, DeliveryFailure, Lost, Retry, attempt
from bot.ui.delivery.publisher import Publisher
from bot.ui.games import game_title
from bot.ui.handlers.desk import Desk
from bot.ui.text.daily import announcement_text, boards_embed, dm_link, intro_embed, reveal_embed
from bot.ui.text.mention import command

log = logging.getLogger(__name__)

UPKEEP_EVERY = 60.0  # seconds between two rounds of announcements and idle attempts


class DailyController:
    """Handlers of ``/daily`` and its buttons, and the daily upkeep the sweeper runs."""

    def __init__(self, desk: Desk, publisher: Publisher) -> None:
        self.desk = desk
        self.bot = desk.bot
        self.service = desk.service
        self.publisher = publisher
        self._last_upkeep: float | None = None

    async def command(self, interaction: discord.Interaction[Any], game: str, action: str) -> None:
        async def work() -> None:
            if action == "board":
                await self.board(interaction, game)
            elif action == "compare":
                await self.compare(interaction, game)
            elif action == "resign":
                await self.resign(interaction, game)
            else:
                await self.play(interaction, game)

        await self.desk.guarded(interaction, work)

    async def play(self, interaction: discord.Interaction[Any], game: str) -> None:
        user = interaction.user
        await self.service.check_daily(user.id, game)
        day = self.service.today()
        try:
            channel = await attempt(user.create_dm(), "opening a DM")
            message = await attempt(
                channel.send(embed=intro_embed(game, day)), "the daily deal's first DM"
            )
        except DeliveryFailure:
            raise ServiceError(
                _(
                    "I can't send you direct messages, and the daily deal is played there. "
                    "Allow them (User Settings → Content & Social → allow DMs from server "
                    "members, or this server's Privacy Settings), then use {daily} again. "
                    "Your attempt was not used.",
                    daily=command("daily"),
                )
            ) from None
        try:
            outcome = await self.service.start_daily(
                user.id,
                user.display_name,
                game,
                guild_id=interaction.guild_id,
                dm_channel_id=channel.id,
                message_id=message.id,
                locale=str(interaction.locale.value),
            )
        except ServiceError:
            with contextlib.suppress(discord.HTTPException):
                await message.delete()
            raise
        self.publisher.publish(outcome)
        await reply(
            interaction,
            _(
                "[Today's {game} deal]({link}) is in your DMs.",
                game=game_title(game),
                link=dm_link(channel.id, message.id),
            ),
        )

    async def board(self, interaction: discord.Interaction[Any], game: str) -> None:
        boards = await self.service.daily_boards(game, interaction.user.id, interaction.guild_id)
        guild = interaction.guild
        await send(
            interaction,
            ephemeral=True,
            embed=boards_embed(boards, interaction.user.id, guild.name if guild else None),
        )

    async def compare(self, interaction: discord.Interaction[Any], game: str) -> None:
        found = await self.service.daily_reveal(interaction.user.id, game)
        await send(
            interaction,
            ephemeral=True,
            embed=reveal_embed(found),
            view=result_view(found.table.id),
        )

    async def compare_table(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """The **Compare** button of a finished attempt's DM post."""
        found = await self.service.daily_reveal_of_table(table_id, interaction.user.id)
        await send(interaction, ephemeral=True, embed=reveal_embed(found))

    async def resign(self, interaction: discord.Interaction[Any], game: str) -> None:
        outcome = await self.service.resign_daily(interaction.user.id, game)
        self.publisher.publish(outcome)  # which also takes the controls off the hand's DM
        await reply(
            interaction,
            _(
                "You resigned today's {game} deal: the computer played the rest of your hand, "
                "and that result is your score.",
                game=game_title(game),
            ),
        )

    # ---- upkeep: idle attempts and announcements -----------------------------------------
    async def upkeep(self, *, force: bool = False) -> None:
        """Play out idle attempts and post due announcements, at most every ``UPKEEP_EVERY``
        seconds (the sweeper calls this on every round)."""
        now = self.service.now()
        if not force and self._last_upkeep is not None and now - self._last_upkeep < UPKEEP_EVERY:
            return
        self._last_upkeep = now
        for outcome in await self.service.settle_idle_dailies(now):
            self.publisher.publish(outcome)
        await self.announce()

    async def announce(self) -> int:
        """Post today's announcement in every server that asked for one and has not had it
        (claimed in the database: once per server and day whatever the processes). A channel
        the bot cannot post in any more turns the announcement off."""
        posted = 0
        for guild_id, channel_id, day in await self.service.due_announcements():
            winners = await self.service.yesterdays_winners(guild_id, day)
            guild = self.bot.get_guild(guild_id)
            locale = guild.preferred_locale.value if guild is not None else None
            settings = await self.service.guild_settings(guild_id)
            with using(settings.language or language_of(locale)):
                text = announcement_text(day, winners)
            channel = self.bot.get_partial_messageable(channel_id)
            try:
                await attempt(channel.send(text), "a daily announcement")
                posted += 1
            except Lost:
                log.info(
                    "server %s: the daily announcement channel %s is gone or closed to me; "
                    "turning the announcement off",
                    guild_id,
                    channel_id,
                )
                await self.service.set_daily_channel(guild_id, None)
            except Retry:
                log.info("server %s: the daily announcement failed; retrying later", guild_id)
                await self.service.release_announcement(guild_id, day)
            except Broken:
                log.warning("server %s: the daily announcement could not be posted", guild_id)
        return posted
