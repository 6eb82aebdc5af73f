"""``/stats``, ``/history`` and ``/record``: a player's profile, recent games and game logs."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import _
from bot.services.errors import ServiceError
from bot.ui.components.records import SheetButton
from bot.ui.delivery.answer import reply_error, send
from bot.ui.games import game_title
from bot.ui.handlers.records import history_message
from bot.ui.text.daily import record_field
from bot.ui.text.locale import for_interaction
from bot.ui.text.mention import command
from bot.ui.text.refusals import refusal
from bot.ui.text.stats import ordinal, skill_field, stats_embed
from cogs.leaderboard import GAME_CHOICES

if TYPE_CHECKING:
    from bot.client import TrionfiBot

Who = discord.User | discord.Member


class StatsCog(commands.Cog):
    """Players' statistics and the records of finished games."""

    def __init__(self, bot: TrionfiBot) -> None:
        self.bot = bot

    @app_commands.command(name="stats")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction[Any], user: Who | None = None) -> None:
        """A player's games, wins, points per deal and ratings across every game.

        Args:
            user: Whose stats (default: yours).
        """
        who = user or interaction.user
        if who.bot:
            with for_interaction(interaction):
                await reply_error(
                    interaction,
                    _(
                        "Bots have no stats. The computer player's rating is in the footer of "
                        "{leaderboard}.",
                        leaderboard=command("leaderboard", metric="Rating"),
                    ),
                )
            return

        async def work() -> None:
            found = await self.bot.stats.player_stats(who.id)
            embed = stats_embed(found, who.display_name)
            record_field(embed, await self.bot.service.daily_record(who.id))
            skill_field(embed, await self.bot.service.skill(who.id))
            await send(interaction, ephemeral=False, embed=embed)

        await self.bot.controller.desk.guarded(interaction, work, "public")

    @app_commands.command(name="history")
    @app_commands.guild_only()
    @app_commands.choices(game=GAME_CHOICES)
    async def history(
        self,
        interaction: discord.Interaction[Any],
        user: Who | None = None,
        game: str | None = None,
    ) -> None:
        """A player's recent finished games on this server, with their score sheets.

        Args:
            user: Whose games (default: yours).
            game: Only this game.
        """
        who = user or interaction.user
        try:  # a bad game is refused privately, before the public acknowledgement
            self.bot.stats.check_board(game, guild_id=interaction.guild_id)
        except ServiceError as e:
            with for_interaction(interaction):
                await reply_error(interaction, refusal(e))
            return

        async def work() -> None:
            assert interaction.guild_id is not None  # guild_only
            found = await self.bot.stats.history(interaction.guild_id, who.id, game)
            fields = history_message(found, who.display_name, who.id, game)
            await send(
                interaction,
                ephemeral=False,
                allowed_mentions=discord.AllowedMentions.none(),
                **fields,
            )

        await self.bot.controller.desk.guarded(interaction, work, "public")

    @app_commands.command(name="record")
    @app_commands.guild_only()
    async def record(
        self, interaction: discord.Interaction[Any], table: app_commands.Range[int, 1]
    ) -> None:
        """The full action log of a finished game, as a replayable scenario file.

        Args:
            table: The table number (shown on its messages and in /history).
        """

        async def work() -> None:
            guild = interaction.guild
            found = await self.bot.stats.record(
                table, interaction.guild_id, interaction.user.id, guild.name if guild else None
            )
            data = io.BytesIO(found.text.encode("utf-8"))
            await send(
                interaction,
                content=_(
                    "Table #{id}'s full log. Replay it with "
                    "`python -m bot.engine.scenario {file} --check`.",
                    id=found.table_id,
                    file=found.filename,
                ),
                file=discord.File(data, filename=found.filename),
                ephemeral=True,
            )

        await self.bot.controller.desk.guarded(interaction, work)

    @record.autocomplete("table")
    async def suggest_tables(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        """The caller's 25 most recent finished games on this server."""
        if interaction.guild_id is None:
            return []
        try:
            found = await self.bot.stats.history(
                interaction.guild_id, interaction.user.id, limit=25
            )
        except ServiceError:
            return []
        out: list[app_commands.Choice[int]] = []
        for g in found.games:
            day = datetime.fromtimestamp(g.finished_at, UTC).strftime("%d %b %Y")
            place = f"{ordinal(g.place)} of {len(g.seats)}" if g.place else "unplaced"
            text = f"#{g.table_id} · {game_title(g.game_id)} · {day} · {place}"
            if str(current).strip().lstrip("#") in str(g.table_id):
                out.append(app_commands.Choice(name=text, value=g.table_id))
        return out


async def setup(bot: TrionfiBot) -> None:
    bot.add_dynamic_items(SheetButton)
    await bot.add_cog(StatsCog(bot))
