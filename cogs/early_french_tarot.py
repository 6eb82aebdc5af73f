"""``/oldtarot``: Early 17th-century French Tarot tables for 2–6 players."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.ui.text.locale import LANGUAGE_CHOICES
from cogs._table import CLOCK_CHOICES, LEVEL_CHOICES, FullRulesTableCog, clock_value

if TYPE_CHECKING:
    from bot.client import TrionfiBot

GAME = "early_french_tarot"


class EarlyFrenchTarotCog(
    FullRulesTableCog,
    group_name="oldtarot",
    group_description="Play Early 17th-century French Tarot, a 78-card trick game for 2–6.",
):
    """Early French Tarot commands."""

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
        every_card_scores: bool = False,
        clock: str | None = None,
        level: str = "casual",
        hints: bool = False,
        language: str | None = None,
    ) -> None:
        """Open an Early French Tarot table in this channel.

        Args:
            seats: Number of players, 2 to 6 (default 4, the best game).
            computers: How many seats computer players take right away.
            target: Score that wins the game (default 50).
            every_card_scores: Score 1 per card taken instead of 1 per card above 12.
            clock: Turn clock (default: the server's setting).
            level: How the computer players think: casual (default) or expert.
            hints: A practice table: players may ask the expert for hints (never rated).
            language: The table's language (default: the server's).
        """
        options = {"target": target, "every_card_scores": every_card_scores}
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


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(EarlyFrenchTarotCog(bot))
