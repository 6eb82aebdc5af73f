"""``/daily`` on Discord (issue 20): the day's deal dealt into the player's DMs, the boards,
the comparison after one's own finish, resigning, the DM result post and the servers' daily
announcements.

The attempt itself is an ordinary table whose channel is the player's DM channel: the
publisher shows it there (the table message, the hand, the deal summary) like any table.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import _, language_of, using
from bot.ui.components.views import result_view
from bot.ui.delivery.answer import reply, send
from bot.ui.delivery.failures import Broken, Lost, Retry, attempt
from bot.ui.delivery.publisher import Publisher
from bot.ui.games import game_title
from bot.ui.handlers.desk import Desk
from bot.ui.handlers.in_dms import open_in_dms
from bot.ui.text.daily import announcement_text, boards_embed, intro_embed, reveal_embed
from bot.ui.text.mention import command

log = logging.getLogger(__name__)

UPKEEP_EVERY = 60.0  # seconds between two rounds of idle attempts (the daily task's period)
#: Announcements one round of the daily task posts; with more left, the next round starts at
#: once (issue 29, defect 4: midnight is many small rounds, not one long stall).
ANNOUNCE_BATCH = 10
#: An announcement that failed (not a refused channel: an error of ours, or Discord's) is
#: tried again after this many seconds, and meanwhile the rest of the day's go first.
ANNOUNCE_RETRY = 300.0


class DailyController:
    """Handlers of ``/daily`` and its buttons, and the daily upkeep the sweeper runs."""

    def __init__(self, desk: Desk, publisher: Publisher) -> None:
        self.desk = desk
        self.bot = desk.bot
        self.service = desk.service
        self.publisher = publisher
        self._last_settle: float | None = None
        self._failed: dict[tuple[int, str], float] = {}  # (guild, day) -> retry after

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
        await open_in_dms(
            interaction,
            self.publisher,
            intro=intro_embed(game, day),
            what="the daily deal's first DM",
            no_dms=lambda: _(
                "I can't send you direct messages, and the daily deal is played there. "
                "Allow them (User Settings → Content & Social → allow DMs from server "
                "members, or this server's Privacy Settings), then use {daily} again. "
                "Your attempt was not used.",
                daily=command("daily"),
            ),
            start=lambda channel_id, message_id: self.service.start_daily(
                user.id,
                user.display_name,
                game,
                guild_id=interaction.guild_id,
                dm_channel_id=channel_id,
                message_id=message_id,
                locale=str(interaction.locale.value),
            ),
            done=lambda link: _(
                "[Today's {game} deal]({link}) is in your DMs.", game=game_title(game), link=link
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
    async def upkeep(self) -> bool:
        """One round of the daily task: idle attempts played out (at most every
        ``UPKEEP_EVERY`` seconds), then a batch of announcements. True when announcements are
        left for the next round (the sweeper then runs it at once)."""
        now = self.service.now()
        if self._last_settle is None or now - self._last_settle >= UPKEEP_EVERY:
            self._last_settle = now
            for outcome in await self.service.settle_idle_dailies(now):
                self.publisher.publish(outcome)
        return await self.announce(ANNOUNCE_BATCH) == ANNOUNCE_BATCH

    async def announce(self, batch: int | None = None) -> int:
        """Post today's announcement in servers that asked for one and have not had it, at
        most ``batch`` of them (None: all); returns how many were posted.

        Each is claimed in the database just before it is posted (once per server and day
        whatever the processes). One server's failure never stops the others: its claim is
        given back and it is tried again after ``ANNOUNCE_RETRY`` seconds. A channel the bot
        cannot post in any more turns the announcement off."""
        posted = 0
        now = self.service.now()
        self._failed = {k: at for k, at in self._failed.items() if at > now}
        for guild_id, channel_id, day in await self.service.unposted_announcements():
            if batch is not None and posted >= batch:
                break
            if (guild_id, day) in self._failed:
                continue
            if not await self.service.claim_announcement(guild_id, channel_id, day):
                continue  # another process has it
            try:
                posted += await self._announce(guild_id, channel_id, day)
            except Exception:
                log.exception("server %s: the daily announcement failed; retrying later", guild_id)
                self._failed[(guild_id, day)] = now + ANNOUNCE_RETRY
                try:
                    await self.service.release_announcement(guild_id, day)
                except Exception:
                    log.exception("server %s: could not give the announcement back", guild_id)
        return posted

    async def _announce(self, guild_id: int, channel_id: int, day: str) -> int:
        """Post one claimed announcement: 1 if posted, 0 if not (and why, handled)."""
        winners = await self.service.yesterdays_winners(guild_id, day)
        guild = self.bot.get_guild(guild_id)
        locale = guild.preferred_locale.value if guild is not None else None
        settings = await self.service.guild_settings(guild_id)
        with using(settings.language or language_of(locale)):
            text = announcement_text(day, winners)
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await attempt(channel.send(text), "a daily announcement")
            return 1
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
        return 0
