"""``/lamorte``: La Morte tables (lobby, auction decisions, card play)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.ui.text.locale import LANGUAGE_CHOICES
from cogs._table import CLOCK_CHOICES, LEVEL_CHOICES, TableCog, clock_value

if TYPE_CHECKING:
    from bot.client import TrionfiBot

GAME = "la_morte"


class LaMorteCog(
    TableCog,
    group_name="lamorte",
    group_description="Play La Morte, a tarot trick-taking game for 3–5.",
):
    """La Morte commands."""

    game_id = GAME

    @app_commands.command(name="new")
    @app_commands.guild_only()
    @app_commands.choices(clock=CLOCK_CHOICES, level=LEVEL_CHOICES, language=LANGUAGE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 3, 5] = 4,
        computers: app_commands.Range[int, 0, 4] = 0,
        target: app_commands.Range[int, 1, 500] = 50,
        round_limit: app_commands.Range[int, 1, 200] | None = None,
        clock: str | None = None,
        level: str = "casual",
        hints: bool = False,
        language: str | None = None,
    ) -> None:
        """Open a La Morte table in this channel.

        Args:
            seats: Number of players, 3 to 5 (default 4).
            computers: How many seats computer players take right away.
            target: Score that wins the game (default 50).
            round_limit: Optional maximum number of deals.
            clock: Turn clock (default: the server's setting).
            level: How the computer players think: casual (default) or expert.
            hints: A practice table: players may ask the expert for hints (never rated).
            language: The table's language (default: the server's).
        """
        options = {"target": target, "round_limit": round_limit}
        await self.ctl.lobby.open_lobby(
            interaction,
            GAME,
            seats,
            options,
            computers,
            clock_value(clock),
            level=level,
            hints=hints,
            language=language,
        )

    @app_commands.command(name="bid")
    @app_commands.guild_only()
    async def bid(
        self, interaction: discord.Interaction[Any], amount: app_commands.Range[int, 1, 9]
    ) -> None:
        """Bid a number of tricks (higher than the standing bid).

        Args:
            amount: Tricks you promise to win, 1 to 9.
        """
        await self.ctl.play.command_act(interaction, GAME, {"type": "bid", "amount": amount})

    @app_commands.command(name="accept")
    @app_commands.guild_only()
    async def accept(self, interaction: discord.Interaction[Any]) -> None:
        """Accept the standing bid and defend against it."""
        await self.ctl.play.command_act(interaction, GAME, {"type": "accept"})

    @app_commands.command(name="drop")
    @app_commands.guild_only()
    async def drop(self, interaction: discord.Interaction[Any]) -> None:
        """Drop out: you score if you then take no trick."""
        await self.ctl.play.command_act(interaction, GAME, {"type": "drop"})

    @app_commands.command(name="muck")
    @app_commands.guild_only()
    async def muck(self, interaction: discord.Interaction[Any]) -> None:
        """As dealer after everyone dropped: abandon the deal."""
        await self.ctl.play.command_act(interaction, GAME, {"type": "muck"})


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(LaMorteCog(bot))
