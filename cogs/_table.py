"""Base of every game's command group: join, leave, start, play, hand, status, hint, resign,
back, replace, end, rules.

Each game's cog (``cogs/<game>.py``) subclasses ``TableCog`` with its group name and adds
``new`` and its own decisions. Command bodies only parse input and call the controller.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.errors import ServiceError
from bot.ui.games import renderer
from bot.ui.text.cards import label, long_name
from bot.ui.text.locale import for_game

if TYPE_CHECKING:
    from bot.client import TrionfiBot
    from bot.ui.handlers.controller import TableController


CLOCK_CHOICES = [
    app_commands.Choice(name="Server default", value="default"),
    app_commands.Choice(name="Off", value="off"),
    app_commands.Choice(name="Relaxed (10 min a turn)", value="relaxed"),
    app_commands.Choice(name="Normal (2 min a turn)", value="normal"),
    app_commands.Choice(name="Fast (45 s a turn)", value="fast"),
]

LEVEL_CHOICES = [
    app_commands.Choice(name="Casual (quick, plays by rules of thumb)", value="casual"),
    app_commands.Choice(name="Expert (thinks ahead, like a strong player)", value="expert"),
]


def parse_cards(text: str) -> list[str]:
    """``"s2, h3 t5"`` → ``["S2", "H3", "T5"]``: codes are upper-case; La Morte's ``lm`` and
    ``bag`` aliases become ``LM``/``BAG`` (the engine judges the choice)."""
    return [c for c in text.replace(",", " ").upper().split() if c]


def clock_value(choice: str | None) -> str | None:
    """The ``clock`` option of ``/<game> new``: ``None`` means the server's default."""
    return None if choice in (None, "default") else choice


class TableCog(commands.GroupCog):
    """Commands every table game shares."""

    game_id: ClassVar[str] = ""

    def __init__(self, bot: TrionfiBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def ctl(self) -> TableController:
        return self.bot.controller

    async def suggest_cards(
        self, interaction: discord.Interaction[Any], current: str, kind: str = "play"
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete: exactly the caller's legal cards for ``kind`` at this channel's
        table, filtered by what they typed (code, label or name)."""
        if interaction.channel_id is None:
            return []
        try:
            table = await self.ctl.service.table_in_channel(
                interaction.channel_id, interaction.user.id
            )
            if table is None or table.game_id != self.game_id:
                return []
            cards = await self.ctl.service.legal_cards(table.id, interaction.user.id, kind)
        except ServiceError:
            return []
        r = renderer(self.game_id)
        labels = getattr(r, "CARD_LABELS", {})
        names = getattr(r, "CARD_NAMES", {})
        needle = current.strip().lower()
        out: list[app_commands.Choice[str]] = []
        with for_game(self.game_id):  # Queen of Tarot's cards in its Italian suits
            for c in cards:
                text = f"{label(c, labels, plain=True)} — {long_name(c, names)}"
                if not needle or needle in f"{c} {text}".lower():
                    out.append(app_commands.Choice(name=text, value=c))
        return out[:25]

    @app_commands.command(name="join")
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Take a free seat at the table in this channel."""
        await self.ctl.lobby.lobby_command(interaction, self.game_id, "join")

    @app_commands.command(name="leave")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave the table in this channel before it starts."""
        await self.ctl.lobby.lobby_command(interaction, self.game_id, "leave")

    @app_commands.command(name="start")
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Start the full table in this channel (host only)."""
        await self.ctl.lobby.start(interaction, None, self.game_id)

    @app_commands.command(name="hand")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """Show your hand privately, with buttons for your decision."""
        await self.ctl.play.hand_command(interaction, self.game_id)

    @app_commands.command(name="status")
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """Show the table in this channel privately: contract, trick, scores, whose turn."""
        await self.ctl.play.status(interaction, self.game_id)

    @app_commands.command(name="resign")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        """Resign from the running game; a computer player takes your seat."""
        await self.ctl.play.resign(interaction, self.game_id)

    @app_commands.command(name="play")
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction[Any], card: str) -> None:
        """Play a card from your hand.

        Args:
            card: The card to play (pick from the suggestions).
        """
        payload = {"type": "play", "card": card.strip().upper()}
        await self.ctl.play.command_act(interaction, self.game_id, payload)

    @play.autocomplete("card")
    async def play_card(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest exactly the caller's legal cards."""
        return await self.suggest_cards(interaction, current)

    @app_commands.command(name="hint")
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        """Ask the expert privately what it would do now (tables opened with hints on)."""
        await self.ctl.coach.hint_command(interaction, self.game_id)

    @app_commands.command(name="back")
    @app_commands.guild_only()
    async def back(self, interaction: discord.Interaction[Any]) -> None:
        """Take your seat back after the computer played for you ("I'm back")."""

        async def work() -> None:
            table = await self.ctl.desk.channel_table(interaction, self.game_id)
            await self.ctl.life.back(interaction, table.id)

        await self.ctl.desk.guarded(interaction, work)

    @app_commands.command(name="replace")
    @app_commands.guild_only()
    async def replace(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        """Host or Manage Server: give an absent player's seat to a computer player.

        Args:
            player: The absent player.
        """
        await self.ctl.desk.guarded(
            interaction, lambda: self.ctl.life.replace(interaction, self.game_id, player)
        )

    @app_commands.command(name="end")
    @app_commands.guild_only()
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """Host or Manage Server: end the table in this channel (it is not rated)."""

        async def work() -> None:
            table = await self.ctl.desk.channel_table(interaction, self.game_id)
            await self.ctl.life.end(interaction, table.id)

        await self.ctl.desk.guarded(interaction, work)

    @app_commands.command(name="rules")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """Read the rules, a short page for each part of a deal, with the cards drawn."""
        await self.ctl.onboard.rules(interaction, self.game_id)


class FullRulesTableCog(TableCog):
    """A game whose rules also come in a complete version (``rules_full_embeds``): its
    ``rules`` command offers it (issue 31: ``full`` is offered only where it exists)."""

    @app_commands.command(name="rules")
    async def rules(  # pyright: ignore[reportIncompatibleVariableOverride]
        self, interaction: discord.Interaction[Any], full: bool = False
    ) -> None:
        """Read the rules: short pages with the cards drawn, or the complete rules.

        Args:
            full: Show the complete rules instead of the pages.
        """
        await self.ctl.onboard.rules(interaction, self.game_id, full)
