"""``/leaderboard``: ratings and records per game, on this server or across servers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.registry import get_rules, implemented
from bot.services.errors import ServiceError
from bot.ui.components.records import BoardButton
from bot.ui.delivery.answer import reply_error, send
from bot.ui.handlers.records import board_message
from bot.ui.text.leaderboard import METRIC_NAMES
from bot.ui.text.locale import for_interaction
from bot.ui.text.refusals import refusal

if TYPE_CHECKING:
    from bot.client import TrionfiBot

GAME_CHOICES = [app_commands.Choice(name=get_rules(g).title, value=g) for g in implemented()]
METRIC_CHOICES = [app_commands.Choice(name=n, value=k) for k, n in METRIC_NAMES.items()]
SCOPE_CHOICES = [
    app_commands.Choice(name="This server", value="server"),
    app_commands.Choice(name="All servers", value="global"),
]
PERIOD_CHOICES = [
    app_commands.Choice(name="All time", value="all"),
    app_commands.Choice(name="Last 30 days", value="30d"),
]


class LeaderboardCog(commands.Cog):
    """Leaderboards built on indexed SQL aggregates."""

    def __init__(self, bot: TrionfiBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard")
    @app_commands.guild_only()
    @app_commands.choices(
        game=GAME_CHOICES, metric=METRIC_CHOICES, scope=SCOPE_CHOICES, period=PERIOD_CHOICES
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: str | None = None,
        scope: str = "server",
        metric: str = "rating",
        period: str = "all",
    ) -> None:
        """Show the best players of a game, with page buttons.

        Args:
            game: Which game (default: the one most played on this server).
            scope: This server's games, or every server's.
            metric: Rank by rating (default), wins, win rate, games played or points.
            period: All time, or the last 30 days.
        """
        ctl = self.bot.controller
        stats = self.bot.stats
        try:  # bad options are refused privately, before the public acknowledgement
            stats.check_board(game, metric, scope, period, interaction.guild_id)
        except ServiceError as e:
            with for_interaction(interaction):
                await reply_error(interaction, refusal(e))
            return

        async def work() -> None:
            guild_id = interaction.guild_id
            game_id = game or await stats.favourite_game(guild_id)
            board = await stats.leaderboard(
                game_id=game_id,
                viewer=interaction.user.id,
                guild_id=guild_id,
                metric=metric,
                scope=scope,
                period=period,
            )
            fields = board_message(board, interaction.user.id, interaction.user.id, guild_id)
            await send(
                interaction,
                ephemeral=False,
                allowed_mentions=discord.AllowedMentions.none(),
                **fields,
            )

        await ctl.desk.guarded(interaction, work, "public")


async def setup(bot: TrionfiBot) -> None:
    bot.add_dynamic_items(BoardButton)
    await bot.add_cog(LeaderboardCog(bot))
