"""Base of every game's command group: join, leave, start, hand, status, resign, rules.

Each game's cog (``cogs/<game>.py``) subclasses ``TableCog`` with its group name and adds
``new`` and its own decisions. Command bodies only parse input and call the controller.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.games import renderer

if TYPE_CHECKING:
    from bot.client import TrionfiBot
    from bot.ui.controller import TableController


class TableCog(commands.GroupCog):
    """Commands every table game shares."""

    game_id: ClassVar[str] = ""

    def __init__(self, bot: TrionfiBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def ctl(self) -> TableController:
        return self.bot.controller

    @app_commands.command(name="join")
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Take a free seat at the table in this channel."""
        await self.ctl.lobby_command(interaction, self.game_id, "join")

    @app_commands.command(name="leave")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave the table in this channel before it starts."""
        await self.ctl.lobby_command(interaction, self.game_id, "leave")

    @app_commands.command(name="start")
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Start the full table in this channel (host only)."""
        await self.ctl.start(interaction, None, self.game_id)

    @app_commands.command(name="hand")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """Show your hand privately, with buttons for your decision."""
        await self.ctl.hand_command(interaction, self.game_id)

    @app_commands.command(name="status")
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """Show the table in this channel privately: contract, trick, scores, whose turn."""
        await self.ctl.status(interaction, self.game_id)

    @app_commands.command(name="resign")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        """Resign from the running game; a computer player takes your seat."""
        await self.ctl.resign(interaction, self.game_id)

    @app_commands.command(name="rules")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """Read a short summary of the rules."""
        await interaction.response.send_message(
            embed=renderer(self.game_id).rules_embed(), ephemeral=True
        )
