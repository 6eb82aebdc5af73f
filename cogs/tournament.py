"""``/tournament``: a Swiss tournament inside one server (issue 34) — open one, register or
leave, start it, read the standings, cancel it. Command bodies only parse input and call the
controller (``bot.ui.handlers.tournament``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.registry import get_rules, implemented
from bot.services.tournaments import MAX_DEALS, MAX_ROUNDS
from bot.ui.components.tournament import TournamentButton
from cogs._table import CLOCK_CHOICES, clock_value

if TYPE_CHECKING:
    from bot.client import TrionfiBot

GAMES = [app_commands.Choice(name=get_rules(g).title, value=g) for g in implemented()]


class TournamentCog(
    commands.GroupCog, group_name="tournament", group_description="Swiss tournaments on this server"
):
    """Tournaments inside one server."""

    def __init__(self, bot: TrionfiBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="open")
    @app_commands.guild_only()
    @app_commands.choices(game=GAMES, clock=CLOCK_CHOICES)
    async def open_(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] = 3,
        seats: app_commands.Range[int, 2, 6] | None = None,
        deals: app_commands.Range[int, 1, MAX_DEALS] | None = None,
        clock: str | None = None,
        start_in: app_commands.Range[int, 5, 20160] | None = None,
        rated: bool = False,
        event: bool = False,
    ) -> None:
        """Open a Swiss tournament in this channel; players register with its buttons.

        Args:
            game: The game played at every table.
            rounds: How many rounds (default 3).
            seats: Seats at each table (default: the game's usual table).
            deals: Deals each table plays (default: the game's usual length).
            clock: The turn clock (default: the server's).
            start_in: Start by itself this many minutes from now (default: when you start it).
            rated: Whether its games change the players' ratings (default: no).
            event: Also create a Discord scheduled event (needs a start time).
        """
        await self.bot.controller.tournament.open(
            interaction,
            game,
            players=seats,
            rounds=rounds,
            deals=deals,
            clock=clock_value(clock),
            start_in=start_in,
            rated=rated,
            event=event,
        )

    @app_commands.command(name="register")
    @app_commands.guild_only()
    async def register(self, interaction: discord.Interaction[Any]) -> None:
        """Register for this channel's tournament (before it starts)."""
        await self.bot.controller.tournament.command(interaction, "register")

    @app_commands.command(name="leave")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Unregister, or leave a tournament under way (a computer finishes your seat)."""
        await self.bot.controller.tournament.command(interaction, "leave")

    @app_commands.command(name="start")
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Host or admin: start this channel's tournament now."""
        await self.bot.controller.tournament.command(interaction, "start")

    @app_commands.command(name="standings")
    @app_commands.guild_only()
    async def standings(self, interaction: discord.Interaction[Any]) -> None:
        """The standings of this channel's tournament (or the server's latest)."""
        await self.bot.controller.tournament.command(interaction, "standings")

    @app_commands.command(name="cancel")
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        """Host or admin: cancel this channel's tournament before it starts."""
        await self.bot.controller.tournament.command(interaction, "cancel")


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(TournamentCog(bot))
    # The registration posts' buttons, restart-proof.
    bot.add_dynamic_items(TournamentButton)
