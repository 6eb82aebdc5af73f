"""``/leaderboard``: per-server standings for each game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.registry import get_rules, implemented
from bot.ui.errors import reply_error
from bot.ui.render import COLOUR_DONE

if TYPE_CHECKING:
    from bot.client import TrionfiBot

GAME_CHOICES = [app_commands.Choice(name=get_rules(g).title, value=g) for g in implemented()]


class LeaderboardCog(commands.Cog):
    """Leaderboards built on indexed SQL aggregates."""

    def __init__(self, bot: TrionfiBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard")
    @app_commands.guild_only()
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str] | None = None
    ) -> None:
        """Show this server's best players.

        Args:
            game: Which game (default La Morte).
        """
        if interaction.guild_id is None:
            await reply_error(interaction, "Leaderboards are per server: use this in a server.")
            return
        game_id = game.value if game else "la_morte"
        rows = await self.bot.service.leaderboard(interaction.guild_id, game_id, 10)
        title = f"{get_rules(game_id).title} leaderboard"
        embed = discord.Embed(title=title, colour=COLOUR_DONE)
        if not rows:
            embed.description = "No finished games in this server yet."
        else:
            lines = [
                f"`{i}.` <@{r.user_id}> — **{r.wins}** win{'s' if r.wins != 1 else ''} · "
                f"{r.games} game{'s' if r.games != 1 else ''} · {r.points} pts"
                for i, r in enumerate(rows, 1)
            ]
            embed.description = "\n".join(lines)
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none()
        )


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(LeaderboardCog(bot))
