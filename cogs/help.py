"""``/help``: what Trionfi is, each game with the buttons of ``/play`` (Practice, Rules), how
to start a table with friends, and how the bot is doing (version, uptime, servers, open
tables)."""

from __future__ import annotations

import time
from importlib import metadata
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import _, n_
from bot.ui.delivery.answer import send
from bot.ui.handlers.onboard import picker_view
from bot.ui.text.mention import command, options, pattern
from cogs._table import LEVEL_CHOICES

if TYPE_CHECKING:
    from bot.client import TrionfiBot


def version() -> str:
    try:
        return metadata.version("trionfi")
    except metadata.PackageNotFoundError:
        return "unknown"


def uptime(seconds: float) -> str:
    minutes = int(seconds // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return _("{days} d {hours} h", days=days, hours=hours)
    if hours:
        return _("{hours} h {minutes} min", hours=hours, minutes=minutes)
    return _("{minutes} min", minutes=minutes)


def help_view(*, servers: int, tables: int, up: float) -> discord.ui.LayoutView:
    """``/help``: what Trionfi is, each game with its **Practice** and **Rules** buttons (as
    ``/play``), then the rest in a few lines; every command it names is a mention
    (``bot.ui.text.mention``)."""
    head = "\n".join(
        [
            "## " + _("Trionfi — tarot card games"),
            _(
                "Trick-taking games with the 78-card tarot pack, played in this channel. New "
                "here? Press **Practice** under a game: a table with computer players is dealt "
                "at once, with hints. To play with friends, open a table with {new}; others "
                "press **Join**, the host presses **Start**. Your hand comes by DM.",
                new=pattern("new"),
            ),
        ]
    )
    tail = [
        _(
            "**Computers, hints and reviews.** Computer players are casual or expert "
            "({expert}). At a practice table ({hints}, never rated) {hint} shows privately "
            "what the expert would do. After each deal, **Review** shows you privately where "
            "the expert would have played otherwise and what it cost.",
            expert=pattern("new", level=LEVEL_CHOICES[1].name),
            hints=options(hints=True),
            hint=pattern("hint"),
        ),
        _(
            "**The daily deal.** {daily}: each UTC day one deal per game, the same cards for "
            "everyone in every server, played alone in your DMs against expert computers; one "
            "attempt a day.",
            daily=command("daily"),
        ),
        _(
            "**Also** {play} · {leaderboard} · {stats} · {history} · {record} · {notify} "
            "(turn notifications) · {pictures} · {language} · {forget}",
            play=command("play"),
            leaderboard=command("leaderboard"),
            stats=command("stats"),
            history=command("history"),
            record=command("record"),
            notify=command("notify"),
            pictures=command("pictures"),
            language=command("language"),
            forget=command("privacy forget-me"),
        ),
        "-# "
        + _(
            "Trionfi {version} · up {uptime} · {servers} · {tables}",
            version=version(),
            uptime=uptime(up),
            servers=n_("{n} server", "{n} servers", servers),
            tables=n_("{n} open table", "{n} open tables", tables),
        ),
    ]
    return picker_view(head, "\n\n".join(tail))


class HelpCog(commands.Cog):
    """How to play, and how the bot is doing."""

    def __init__(self, bot: TrionfiBot) -> None:
        self.bot = bot

    @app_commands.command(name="help")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """How to play with Trionfi: the games, their rules, and the bot's status."""

        async def work() -> None:
            tables = await self.bot.service.open_table_count()
            view = help_view(
                servers=len(self.bot.guilds),
                tables=tables,
                up=time.time() - self.bot.started_at,
            )
            await send(interaction, ephemeral=True, view=view)

        await self.bot.controller.desk.guarded(interaction, work)


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(HelpCog(bot))
