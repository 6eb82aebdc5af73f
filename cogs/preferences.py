"""``/notify``: when a player's waiting turn gets a real notification (a new message)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.core import DEFAULT_NOTIFY_DELAY
from bot.services.errors import InvalidRequest
from bot.ui.delivery.answer import send

if TYPE_CHECKING:
    from bot.client import TrionfiBot

#: Choice value -> delay in seconds (None: never).
DELAYS: dict[str, int | None] = {
    "0": 0,
    "default": DEFAULT_NOTIFY_DELAY,
    "60": 60,
    "300": 300,
    "never": None,
}
CHOICES = [
    app_commands.Choice(name="Right away", value="0"),
    app_commands.Choice(name=f"After {DEFAULT_NOTIFY_DELAY} seconds (default)", value="default"),
    app_commands.Choice(name="After 1 minute", value="60"),
    app_commands.Choice(name="After 5 minutes", value="300"),
    app_commands.Choice(name="Never", value="never"),
]


def describe(delay: int | None) -> str:
    if delay is None:
        return "never: your hand is still updated, but no new message tells you it's your turn"
    if delay == 0:
        return "right away: every turn that starts after someone else played"
    return f"when your turn has waited {delay} seconds"


class NotifyCog(commands.Cog):
    """A player's own notification setting."""

    def __init__(self, bot: TrionfiBot) -> None:
        self.bot = bot

    @app_commands.command(name="notify")
    @app_commands.choices(when=CHOICES)
    async def notify(self, interaction: discord.Interaction[Any], when: str | None = None) -> None:
        """When the bot sends you a new message because it's your turn at a table.

        Args:
            when: Right away, after a delay, or never (leave out to see your setting).
        """
        service = self.bot.service

        async def work() -> None:
            user = interaction.user.id
            if when is None:
                delay = await service.notify_delay(user)
                text = f"🔔 You get a turn notification {describe(delay)}."
            else:
                if when not in DELAYS:
                    raise InvalidRequest("Pick one of the offered choices.")
                delay = await service.set_notify_delay(user, DELAYS[when])
                text = f"🔔 Saved: you get a turn notification {describe(delay)}."
            await send(
                interaction,
                ephemeral=True,
                content=text + "\nTurns you take one after another are never notified.",
            )

        await self.bot.controller.guarded(interaction, work)


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(NotifyCog(bot))
