"""``/privacy forget-me``: delete the caller's ratings and statistics, after confirming."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.components.records import ForgetButton
from bot.ui.delivery.answer import send
from bot.ui.handlers.records import confirm_message

if TYPE_CHECKING:
    from bot.client import TrionfiBot


class PrivacyCog(commands.GroupCog, group_name="privacy", group_description="Your data"):
    """What the bot keeps about a player, and forgetting it."""

    def __init__(self, bot: TrionfiBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="forget-me")
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        """Delete your ratings and statistics and anonymise your seats in stored games."""
        await send(interaction, ephemeral=True, **confirm_message(interaction.user.id))


async def setup(bot: TrionfiBot) -> None:
    bot.add_dynamic_items(ForgetButton)
    await bot.add_cog(PrivacyCog(bot))
