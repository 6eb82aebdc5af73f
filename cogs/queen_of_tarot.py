"""``/tarocchi``: Queen of Tarot (Mitigati) tables for exactly three players."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.ui.handlers.desk import where_of
from bot.ui.text.locale import LANGUAGE_CHOICES
from cogs._table import (
    CLOCK_CHOICES,
    LEVEL_CHOICES,
    FullRulesTableCog,
    clock_value,
    parse_cards,
)

if TYPE_CHECKING:
    from bot.client import TrionfiBot

GAME = "queen_of_tarot"
BONUSES = [
    app_commands.Choice(name="Best I can make", value="best"),
    app_commands.Choice(name="Nothing (keep my hand hidden)", value="none"),
    app_commands.Choice(name="Abundance", value="abundance"),
    app_commands.Choice(name="Kings", value="kings"),
    app_commands.Choice(name="Mitigati", value="mitigati"),
    app_commands.Choice(name="Mixed Honours", value="mixed_honours"),
    app_commands.Choice(name="Abundance + Kings", value="abundance-kings"),
    app_commands.Choice(name="Abundance + Mitigati", value="abundance-mitigati"),
    app_commands.Choice(name="Abundance + Mixed Honours", value="abundance-mixed_honours"),
    app_commands.Choice(name="Kings + Mitigati", value="kings-mitigati"),
    app_commands.Choice(name="Mitigati + Mixed Honours", value="mitigati-mixed_honours"),
]


class QueenOfTarotCog(
    FullRulesTableCog,
    group_name="tarocchi",
    group_description="Play Queen of Tarot (Mitigati): three-player tarocchi with bargaining.",
):
    """Queen of Tarot commands."""

    game_id = GAME

    @app_commands.command(name="new")
    @app_commands.guild_only()
    @app_commands.choices(clock=CLOCK_CHOICES, level=LEVEL_CHOICES, language=LANGUAGE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        computers: app_commands.Range[int, 0, 2] = 0,
        deals: app_commands.Range[int, 1, 60] = 6,
        max_bargain: app_commands.Range[int, 1, 129] = 43,
        clock: str | None = None,
        level: str = "casual",
        hints: bool = False,
        language: str | None = None,
    ) -> None:
        """Open a Queen of Tarot table (exactly 3 seats) in this channel.

        Args:
            computers: How many seats computer players take right away (0–2).
            deals: Number of deals (default 6, so everyone deals twice).
            max_bargain: Highest amount a demand or offer may name (default 43).
            clock: Turn clock (default: the server's setting).
            level: How the computer players think: casual (default) or expert.
            hints: A practice table: players may ask the expert for hints (never rated).
            language: The table's language (default: the server's).
        """
        options = {"deals": deals, "max_bargain": max_bargain}
        await self.ctl.lobby.open_lobby(
            interaction,
            GAME,
            3,
            options,
            computers,
            clock_value(clock),
            level=level,
            hints=hints,
            language=language,
        )

    @app_commands.command(name="pass")
    @app_commands.guild_only()
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        """Bargaining: pass (your standing demand or offer stays)."""
        await self.ctl.play.command_act(interaction, GAME, {"type": "pass"})

    @app_commands.command(name="demand")
    @app_commands.guild_only()
    async def demand(
        self, interaction: discord.Interaction[Any], amount: app_commands.Range[int, 1, 129]
    ) -> None:
        """Bargaining: ask to be paid this many game points to abandon the hand.

        Args:
            amount: Game points (lower than your standing demand, if any).
        """
        await self.ctl.play.command_act(interaction, GAME, {"type": "demand", "amount": amount})

    @app_commands.command(name="offer")
    @app_commands.guild_only()
    async def offer(
        self, interaction: discord.Interaction[Any], amount: app_commands.Range[int, 1, 129]
    ) -> None:
        """Bargaining: pay this many game points to abandon the hand.

        Args:
            amount: Game points (higher than your standing offer, if any).
        """
        await self.ctl.play.command_act(interaction, GAME, {"type": "offer", "amount": amount})

    @app_commands.command(name="continue")
    @app_commands.guild_only()
    async def continue_(self, interaction: discord.Interaction[Any]) -> None:
        """Bargaining: end this session and go on dealing (you want to play the hand)."""
        await self.ctl.play.command_act(interaction, GAME, {"type": "continue"})

    @app_commands.command(name="discard")
    @app_commands.guild_only()
    async def discard(
        self, interaction: discord.Interaction[Any], first: str, second: str, third: str
    ) -> None:
        """Dealer: discard 3 cards (no Kings, Angel, Bagatto or Fool), picked from suggestions.

        Args:
            first: A card to discard (pick from the suggestions).
            second: A card to discard (pick from the suggestions).
            third: A card to discard (pick from the suggestions).
        """
        # Each card is picked by name ("9 of Coins"): the engine's codes name French suits
        # (D9), which would contradict the Italian pack the players see.
        cards = parse_cards(" ".join((first, second, third)))
        await self.ctl.play.command_act(interaction, GAME, {"type": "discard", "cards": cards})

    @discard.autocomplete("first")
    @discard.autocomplete("second")
    @discard.autocomplete("third")
    async def discard_card(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest exactly the cards the dealer may discard."""
        return await self.suggest_cards(interaction, current, "discard")

    @app_commands.command(name="declare")
    @app_commands.guild_only()
    @app_commands.choices(bonuses=BONUSES)
    async def declare(self, interaction: discord.Interaction[Any], bonuses: str = "best") -> None:
        """Declare your bonuses (shown to everyone), or nothing.

        Args:
            bonuses: What to declare (default: the best you can make).
        """

        async def work() -> None:
            names = [] if bonuses == "none" else bonuses.split("-")
            if bonuses == "best":  # the engine's pre-filled choice, read from the seat's view
                table = await self.ctl.desk.channel_table(interaction, GAME)
                outcome = await self.ctl.service.snapshot(
                    table.id, interaction.user.id, where=where_of(interaction)
                )
                views = list(outcome.seat_views.values())
                names = list(views[0].info.get("best", [])) if views else []
            await self.ctl.play.command_act(
                interaction, GAME, {"type": "declare", "bonuses": names}
            )

        await self.ctl.desk.guarded(interaction, work)


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(QueenOfTarotCog(bot))
