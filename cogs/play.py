"""``/play``: the way in (issue 31) — pick a game, read its rules as pages, or press
**Practice** for a table with computers and hints, dealt at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.components.onboard import OnboardButton

if TYPE_CHECKING:
    from bot.client import TrionfiBot


class PlayCog(commands.Cog):
    """The game picker."""

    def __init__(self, bot: TrionfiBot) -> None:
        self.bot = bot

    @app_commands.command(name="play")
    async def play(self, interaction: discord.Interaction[Any]) -> None:
        """Pick a tarot game: its rules, or a practice table against computers in one click."""
        await self.bot.controller.onboard.play(interaction)


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(PlayCog(bot))
    # The picker's and the rules pages' buttons, restart-proof.
    bot.add_dynamic_items(OnboardButton)
