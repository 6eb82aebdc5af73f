"""A player's own preferences: ``/notify`` (when a waiting turn gets a real notification, a
new message), ``/pictures`` (pictures of the table and the hand, or text only) and
``/language`` (the language of their hands and DMs)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import LANGUAGE_NAMES, _, current, using
from bot.services.core import DEFAULT_NOTIFY_DELAY
from bot.services.errors import InvalidRequest
from bot.ui.delivery.answer import send
from bot.ui.text.locale import LANGUAGE_CHOICES

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
        return _("never: your hand is still updated, but no new message tells you it's your turn")
    if delay == 0:
        return _("right away: every turn that starts after someone else played")
    return _("when your turn has waited {seconds} seconds", seconds=delay)


PICTURES = [
    app_commands.Choice(name="On", value="on"),
    app_commands.Choice(name="Off (text only)", value="off"),
    app_commands.Choice(name="The server's default", value="default"),
]


LANGUAGES = [
    *LANGUAGE_CHOICES,
    app_commands.Choice(name="As my Discord (default)", value="default"),
]


class PreferencesCog(commands.Cog):
    """A player's own settings."""

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
                text = _("🔔 You get a turn notification {when}.", when=describe(delay))
            else:
                if when not in DELAYS:
                    raise InvalidRequest(_("Pick one of the offered choices."))
                delay = await service.set_notify_delay(user, DELAYS[when])
                text = _("🔔 Saved: you get a turn notification {when}.", when=describe(delay))
            note = _("Turns you take one after another are never notified.")
            await send(interaction, ephemeral=True, content=f"{text}\n{note}")

        await self.bot.controller.desk.guarded(interaction, work)

    @app_commands.command(name="pictures")
    @app_commands.choices(show=PICTURES)
    async def pictures(
        self, interaction: discord.Interaction[Any], show: str | None = None
    ) -> None:
        """Pictures of the table and of your hand, or text only.

        Args:
            show: On, off, or the server's default (leave out to see your setting).
        """
        service = self.bot.service

        async def work() -> None:
            user = interaction.user.id
            if show is not None:
                if show not in ("on", "off", "default"):
                    raise InvalidRequest(_("Pick one of the offered choices."))
                await service.set_pictures(user, None if show == "default" else show == "on")
            mine = await service.pictures_setting(user)
            on = await service.pictures_on(interaction.guild_id or 0, user)
            state = _("on") if on else _("off (text only)")
            if mine is not None:
                source = _("your choice")
            elif interaction.guild_id is None:
                source = _("the server's default")
            else:
                source = _("the server's default on this server")
            text = _(
                "🖼️ Pictures of the table and your hand are **{state}** ({source}).",
                state=state,
                source=source,
            )
            if show is not None:
                text = _("Saved. {text}", text=text)
            note = _("The text always stays complete; pictures come with it.")
            await send(interaction, ephemeral=True, content=f"{text}\n{note}")

        await self.bot.controller.desk.guarded(interaction, work)

    @app_commands.command(name="language")
    @app_commands.choices(choice=LANGUAGES)
    async def language(
        self, interaction: discord.Interaction[Any], choice: str | None = None
    ) -> None:
        """The language of your hands and DMs (tables speak their own language).

        Args:
            choice: English, Français, Italiano, or as your Discord (leave out to see it).
        """
        ctl = self.bot.controller
        service = self.bot.service

        async def work() -> None:
            user = interaction.user.id
            if choice is not None:
                if choice not in (*LANGUAGE_NAMES, "default"):
                    raise InvalidRequest(_("Pick one of the offered choices."))
                chosen = None if choice == "default" else choice
                for table_id in await service.set_language(user, chosen):
                    # Hands at running tables are redrawn in the new language at once.
                    outcome = await service.snapshot(table_id, None)
                    if outcome.public is not None:
                        ctl.publisher.publish(outcome)
            mine = await service.language_setting(user)
            with using(mine or interaction.locale):
                if mine is None:
                    text = _(
                        "🌐 Your hands and DMs follow your Discord language when you join a "
                        "table (now: **{name}**).",
                        name=LANGUAGE_NAMES[current()],
                    )
                else:
                    text = _("🌐 Your hands and DMs are in **{name}**.", name=LANGUAGE_NAMES[mine])
                if choice is not None:
                    text = _("Saved. {text}", text=text)
                note = _("Each table's public messages stay in the table's language.")
            await send(interaction, ephemeral=True, content=f"{text}\n{note}")

        await ctl.desk.guarded(interaction, work)


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(PreferencesCog(bot))
