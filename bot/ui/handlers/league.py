"""``/league`` on Discord (issue 34): entering the week's set (dealt into the player's DMs, as
the daily deal), the session's status, the standings, the comparison after the window, leaving,
and the announcements (a Discord scheduled event per server and session, where permitted).

An entry is an ordinary table whose channel is the player's DM channel: the publisher shows it
there (the table message, the hand, each deal's summary) like any table.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import discord

from bot.i18n import _, language_of, using
from bot.ui.delivery.answer import reply, send
from bot.ui.delivery.failures import DeliveryFailure, Lost, attempt
from bot.ui.delivery.publisher import Publisher
from bot.ui.games import game_title
from bot.ui.handlers.desk import Desk
from bot.ui.handlers.in_dms import open_in_dms
from bot.ui.handlers.league_tables import sees_league_threads
from bot.ui.text.league import (
    announcement_text,
    compare_embed,
    intro_embed,
    standings_embed,
    status_embed,
)
from bot.ui.text.mention import command

log = logging.getLogger(__name__)


class LeagueController:
    """Handlers of ``/league`` and the league's upkeep the sweeper runs with the daily's."""

    def __init__(self, desk: Desk, publisher: Publisher) -> None:
        self.desk = desk
        self.bot = desk.bot
        self.service = desk.service
        self.publisher = publisher

    def _guild_names(self, ids: set[int]) -> dict[int, str]:
        """The names of the servers a board or comparison names (others: "a server")."""
        found = {i: self.bot.get_guild(i) for i in ids}
        return {i: g.name for i, g in found.items() if g is not None}

    async def join(self, interaction: discord.Interaction[Any], game: str) -> None:
        user = interaction.user
        await self.service.check_league(
            user.id,
            game,
            interaction.guild_id,
            sees_threads=await sees_league_threads(self.service, interaction),
        )
        session = await self.service.league_session()
        assert interaction.guild_id is not None  # guild_only
        guild_id = interaction.guild_id
        await open_in_dms(
            interaction,
            self.publisher,
            intro=intro_embed(game, session),
            what="a league entry's first DM",
            no_dms=lambda: _(
                "I can't send you direct messages, and league sets are played there. "
                "Allow them (User Settings → Content & Social → allow DMs from server "
                "members, or this server's Privacy Settings), then use {league} again. "
                "You have not entered yet.",
                league=command("league join"),
            ),
            start=lambda channel_id, message_id: self.service.start_league(
                user.id,
                user.display_name,
                game,
                guild_id=guild_id,
                dm_channel_id=channel_id,
                message_id=message_id,
                locale=str(interaction.locale.value),
            ),
            done=lambda link: _(
                "[This week's {game} set]({link}) is in your DMs.",
                game=game_title(game),
                link=link,
            ),
        )

    async def status(self, interaction: discord.Interaction[Any]) -> None:
        session, sets = await self.service.league_status(interaction.user.id)
        joined = (
            await self.service.league_channel(interaction.guild_id)
            if interaction.guild_id
            else None
        )
        embed = status_embed(session, joined, sets, self.service.now())
        await send(interaction, ephemeral=True, embed=embed)

    async def standings(
        self, interaction: discord.Interaction[Any], game: str, scope: str, of: str
    ) -> None:
        servers = of == "servers"
        board = await self.service.league_board(
            game,
            (interaction.guild_id or 0) if servers else interaction.user.id,
            guild_id=interaction.guild_id if of == "server" else None,
            season=scope == "season",
            servers=servers,
        )
        me = (interaction.guild_id or 0) if servers else interaction.user.id
        ids = {s.key if servers else s.guild_id for s in board.standings.top}
        embed = standings_embed(board, me, self._guild_names(ids))
        await send(interaction, ephemeral=True, embed=embed)

    async def compare(self, interaction: discord.Interaction[Any], game: str, deal: int) -> None:
        found = await self.service.league_compare(interaction.user.id, game, deal)
        await send(
            interaction,
            ephemeral=True,
            embed=compare_embed(found, self._guild_names({r.guild_id for r in found.rows})),
        )

    async def leave(self, interaction: discord.Interaction[Any], game: str) -> None:
        outcome = await self.service.resign_league(interaction.user.id, game)
        self.publisher.publish(outcome)
        await reply(
            interaction,
            _(
                "You left this week's {game} set: the computer finished the deal in progress "
                "for you (marked 🏳️ on the standings), and your entry ends there.",
                game=game_title(game),
            ),
        )

    # ---- upkeep: idle entries and announcements -----------------------------------------
    async def upkeep(self) -> None:
        """League tables' lobbies closed with their night, idle entries finished by the
        casual computer, sessions with new results scored, then the week's announcements."""
        for outcome in await self.service.close_league_lobbies():
            self.publisher.publish(outcome)  # the lobby's message says the night is over
        for outcome in await self.service.settle_idle_league():
            self.publisher.publish(outcome)
        await self.service.score_league()
        await self.announce()

    async def announce(self) -> int:
        """Announce this week's session in every league server not told yet: a Discord
        scheduled event (when the bot may manage events there) and a post in its league
        channel. Each is claimed once in the database; returns how many were made."""
        session = await self.service.league_session()
        if self.service.now() >= session.ends_at:
            return 0
        made = 0
        for guild_id, channel_id in await self.service.unannounced_league(session.id):
            if not await self.service.claim_league_event(guild_id, session.id):
                continue
            made += 1
            guild = self.bot.get_guild(guild_id)
            locale = guild.preferred_locale.value if guild is not None else None
            settings = await self.service.guild_settings(guild_id)
            with using(settings.language or language_of(locale)):
                text = announcement_text(session)
                name = _("League night {week}", week=session.week)
            event_id = None
            if guild is not None and guild.me.guild_permissions.manage_events:
                try:
                    event = await attempt(
                        guild.create_scheduled_event(
                            name=name,
                            start_time=datetime.fromtimestamp(session.starts_at, UTC),
                            end_time=datetime.fromtimestamp(session.ends_at, UTC),
                            entity_type=discord.EntityType.external,
                            privacy_level=discord.PrivacyLevel.guild_only,
                            location="Trionfi · /league join",
                            description=text[:1000],
                        ),
                        "a league scheduled event",
                    )
                    event_id = event.id
                except DeliveryFailure:
                    log.info("server %s: no scheduled event for the league night", guild_id)
            await self.service.set_league_event(guild_id, session.id, event_id)
            try:
                await attempt(
                    self.bot.get_partial_messageable(channel_id).send(text),
                    "a league announcement",
                )
            except Lost:
                log.info("server %s: the league channel is gone; leaving the league", guild_id)
                await self.service.set_league(guild_id, None)
            except DeliveryFailure:
                log.warning("server %s: the league announcement could not be posted", guild_id)
        return made
