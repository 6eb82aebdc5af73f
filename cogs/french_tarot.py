"""``/tarot``: French Tarot tables for 3–5 players (FFT rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.ui.text.locale import LANGUAGE_CHOICES
from cogs._table import CLOCK_CHOICES, LEVEL_CHOICES, TableCog, clock_value, parse_cards

if TYPE_CHECKING:
    from bot.client import TrionfiBot

GAME = "french_tarot"
CONTRACTS = [
    app_commands.Choice(name="Pass", value="pass"),
    app_commands.Choice(name="Prise (×1)", value="prise"),
    app_commands.Choice(name="Garde (×2)", value="garde"),
    app_commands.Choice(name="Garde sans le chien (×4)", value="garde_sans"),
    app_commands.Choice(name="Garde contre le chien (×6)", value="garde_contre"),
]


class FrenchTarotCog(
    TableCog,
    group_name="tarot",
    group_description="Play French Tarot (FFT rules) for 3, 4 or 5 players.",
):
    """French Tarot commands."""

    game_id = GAME

    @app_commands.command(name="new")
    @app_commands.guild_only()
    @app_commands.choices(clock=CLOCK_CHOICES, level=LEVEL_CHOICES, language=LANGUAGE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 3, 5] = 5,
        computers: app_commands.Range[int, 0, 4] = 0,
        deals: app_commands.Range[int, 1, 100] | None = None,
        chelem: bool = True,
        clock: str | None = None,
        level: str = "casual",
        hints: bool = False,
        language: str | None = None,
    ) -> None:
        """Open a French Tarot table in this channel.

        Args:
            seats: Number of players, 3 to 5 (default 5, with a called King).
            computers: How many seats computer players take right away.
            deals: Number of played deals in the game (default 2 per player).
            chelem: Allow the taker to announce a chelem (default on).
            clock: Turn clock (default: the server's setting).
            level: How the computer players think: casual (default) or expert.
            hints: A practice table: players may ask the expert for hints (never rated).
            language: The table's language (default: the server's).
        """
        options = {"deals": deals, "chelem": chelem}
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
    @app_commands.choices(contract=CONTRACTS)
    async def bid(self, interaction: discord.Interaction[Any], contract: str) -> None:
        """Bid a contract higher than the last one, or pass.

        Args:
            contract: Your contract (each player speaks once).
        """
        await self.ctl.play.command_act(interaction, GAME, {"type": "bid", "contract": contract})

    @app_commands.command(name="call")
    @app_commands.guild_only()
    async def call(self, interaction: discord.Interaction[Any], card: str) -> None:
        """As the taker at 5 players: call the card whose holder is your partner.

        Args:
            card: Usually a King you don't hold (pick from the suggestions).
        """
        await self.ctl.play.command_act(
            interaction, GAME, {"type": "call", "card": card.strip().upper()}
        )

    @app_commands.command(name="discard")
    @app_commands.guild_only()
    async def discard(self, interaction: discord.Interaction[Any], cards: str) -> None:
        """As the taker: put the dog's worth of cards aside.

        Args:
            cards: The cards, separated by spaces, e.g. "S2 S3 H4" (3 at 5 players, else 6).
        """
        await self.ctl.play.command_act(
            interaction, GAME, {"type": "discard", "cards": parse_cards(cards)}
        )

    @app_commands.command(name="chelem")
    @app_commands.guild_only()
    async def chelem(self, interaction: discord.Interaction[Any], announce: bool) -> None:
        """As the taker after the dog: announce a chelem (every trick) or not.

        Args:
            announce: True to announce; you then lead the first trick.
        """
        await self.ctl.play.command_act(interaction, GAME, {"type": "chelem", "announce": announce})

    @app_commands.command(name="poignee")
    @app_commands.guild_only()
    async def poignee(self, interaction: discord.Interaction[Any], cards: str) -> None:
        """Before your first card: show a poignée (exactly 8/10/13 trumps at 5 players…).

        Args:
            cards: The trumps to show, e.g. "T2 T5 T7 T9 T11 T14 T16 T21".
        """
        await self.ctl.play.command_act(
            interaction, GAME, {"type": "poignee", "cards": parse_cards(cards)}
        )


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(FrenchTarotCog(bot))
