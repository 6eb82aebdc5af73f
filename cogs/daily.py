"""``/daily``: the day's deal, the same for everyone in every server, played alone in one's
DMs against the expert computers; its boards, the comparison after one's own finish, and
resigning (issue 20)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.registry import get_rules
from bot.services.daily import DEFAULT_GAME, daily_games

if TYPE_CHECKING:
    from bot.client import TrionfiBot

GAMES = [app_commands.Choice(name=get_rules(g).title, value=g) for g in daily_games()]
ACTIONS = [
    app_commands.Choice(name="Play today's deal", value="play"),
    app_commands.Choice(name="Board", value="board"),
    app_commands.Choice(name="Compare (after your finish)", value="compare"),
    app_commands.Choice(name="Resign (the computer finishes your hand)", value="resign"),
]


class DailyCog(commands.Cog):
    """The daily deal."""

    def __init__(self, bot: TrionfiBot) -> None:
        self.bot = bot

    @app_commands.command(name="daily")
    @app_commands.choices(game=GAMES, action=ACTIONS)
    async def daily(
        self,
        interaction: discord.Interaction[Any],
        game: str = DEFAULT_GAME,
        action: str = "play",
    ) -> None:
        """Today's deal: the same cards for everyone, played privately in your DMs.

        Args:
            game: Which game's deal (default: French Tarot).
            action: Play (default), the day's board, compare after your finish, or resign.
        """
        await self.bot.controller.daily.command(interaction, game, action)


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(DailyCog(bot))
