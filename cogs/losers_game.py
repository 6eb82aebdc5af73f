"""``/losers``: Loser's Game tables for 3–6 players (2 as an option)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.ui.text.locale import LANGUAGE_CHOICES
from cogs._table import CLOCK_CHOICES, LEVEL_CHOICES, FullRulesTableCog, clock_value

if TYPE_CHECKING:
    from bot.client import TrionfiBot

GAME = "losers_game"
SUITS = [
    app_commands.Choice(name="♠ Spades", value="S"),
    app_commands.Choice(name="♥ Hearts", value="H"),
    app_commands.Choice(name="♦ Diamonds", value="D"),
    app_commands.Choice(name="♣ Clubs", value="C"),
]


class LosersGameCog(
    FullRulesTableCog,
    group_name="losers",
    group_description="Play Loser's Game: bid the trumps and sets you will take.",
):
    """Loser's Game commands."""

    game_id = GAME

    @app_commands.command(name="new")
    @app_commands.guild_only()
    @app_commands.choices(clock=CLOCK_CHOICES, level=LEVEL_CHOICES, language=LANGUAGE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 2, 6] = 4,
        computers: app_commands.Range[int, 0, 5] = 0,
        target: app_commands.Range[int, 1, 500] = 50,
        hand_limit: app_commands.Range[int, 1, 100] | None = None,
        clock: str | None = None,
        level: str = "casual",
        hints: bool = False,
        language: str | None = None,
    ) -> None:
        """Open a Loser's Game table in this channel.

        Args:
            seats: Number of players, 3 to 6 (default 4); 2 is allowed as a variant.
            computers: How many seats computer players take right away.
            target: Score that wins the game with the unique top total (default 50).
            hand_limit: End after this many hands at most (highest total wins).
            clock: Turn clock (default: the server's setting).
            level: How the computer players think: casual (default) or expert.
            hints: A practice table: players may ask the expert for hints (never rated).
            language: The table's language (default: the server's).
        """
        options = {"target": target, "hand_limit": hand_limit}
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

    @app_commands.command(name="trump")
    @app_commands.guild_only()
    @app_commands.choices(suit=SUITS)
    async def trump(self, interaction: discord.Interaction[Any], suit: str) -> None:
        """As the player with the lowest score: name the trump suit.

        Args:
            suit: The trump suit for this hand.
        """
        await self.ctl.play.command_act(interaction, GAME, {"type": "trump", "suit": suit})

    @app_commands.command(name="bid")
    @app_commands.guild_only()
    async def bid(
        self, interaction: discord.Interaction[Any], amount: app_commands.Range[int, 0, 130]
    ) -> None:
        """Bid the points you will take (1 per trump, 3 per three of a kind, 9 per four).

        Args:
            amount: Your bid, from 0 to the bound shown on the table.
        """
        await self.ctl.play.command_act(interaction, GAME, {"type": "bid", "amount": amount})


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(LosersGameCog(bot))
