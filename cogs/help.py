"""``/help``: what Trionfi is, how to start a table, each game's rules, and how the bot is
doing (version, uptime, servers, open tables)."""

from __future__ import annotations

import time
from importlib import metadata
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.registry import get_rules, implemented
from bot.i18n import _, n_
from bot.ui.delivery.answer import send
from bot.ui.games import game_title, renderer
from bot.ui.text.mention import command, options, pattern
from bot.ui.text.render import COLOUR_LOBBY
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


def help_embed(*, servers: int, tables: int, up: float) -> discord.Embed:
    """``/help``; every command it names is a mention (``bot.ui.text.mention``)."""
    embed = discord.Embed(
        title=_("Trionfi — tarot card games"),
        colour=COLOUR_LOBBY,
        description=_(
            "Trick-taking games with the 78-card tarot pack, played in this channel: open a "
            "table with {new}, others press **Join**, the host presses **Start**. Your "
            "hand comes by DM (or **Show my hand**), and you decide with its buttons and menus "
            "or with the game's commands. Computer players can fill empty seats.",
            new=pattern("new"),
        ),
    )
    lines = []
    for game_id in implemented():
        rules = get_rules(game_id)
        group = getattr(renderer(game_id), "GROUP", game_id)
        players = f"{rules.min_players}–{rules.max_players}"
        if rules.min_players == rules.max_players:
            players = str(rules.min_players)
        lines.append(
            _(
                "**{game}** ({players} players) · {new} · rules: {rules} ({full} for all of them)",
                game=game_title(game_id),
                players=players,
                new=command(f"{group} new"),
                rules=command(f"{group} rules"),
                full=options(full=True),
            )
        )
    embed.add_field(name=_("Games"), value="\n".join(lines)[:1024], inline=False)
    embed.add_field(
        name=_("Computers, hints and reviews"),
        value=_(
            "Computer players are casual or expert ({expert}). At a practice table ({hints}, "
            "never rated) {hint} shows privately what the expert would do. After each deal, "
            "**Review** shows you privately where the expert would have played otherwise and "
            "what it cost.",
            expert=pattern("new", level=LEVEL_CHOICES[1].name),
            hints=options(hints=True),
            hint=pattern("hint"),
        ),
        inline=False,
    )
    embed.add_field(
        name=_("The daily deal"),
        value=_(
            "{daily}: each UTC day one deal per game, the same cards for everyone in every "
            "server, played alone in your DMs against expert computers; one attempt a day. "
            "Boards show scores only; once you finish, **Compare** shows every hand and the "
            "day's best play. Resigning (or leaving it untouched for a day) lets the casual "
            "computer finish your hand, and that result is your score.",
            daily=command("daily"),
        ),
        inline=False,
    )
    embed.add_field(
        name=_("Also"),
        value=_(
            "{leaderboard} · {stats} · {history} · {record} · {notify} (turn notifications) · "
            "{pictures} · {language} · {forget}",
            leaderboard=command("leaderboard"),
            stats=command("stats"),
            history=command("history"),
            record=command("record"),
            notify=command("notify"),
            pictures=command("pictures"),
            language=command("language"),
            forget=command("privacy forget-me"),
        ),
        inline=False,
    )
    embed.set_footer(
        text=_(
            "Trionfi {version} · up {uptime} · {servers} · {tables}",
            version=version(),
            uptime=uptime(up),
            servers=n_("{n} server", "{n} servers", servers),
            tables=n_("{n} open table", "{n} open tables", tables),
        )
    )
    return embed


class HelpCog(commands.Cog):
    """How to play, and how the bot is doing."""

    def __init__(self, bot: TrionfiBot) -> None:
        self.bot = bot

    @app_commands.command(name="help")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """How to play with Trionfi: the games, their rules, and the bot's status."""

        async def work() -> None:
            tables = await self.bot.service.open_table_count()
            embed = help_embed(
                servers=len(self.bot.guilds),
                tables=tables,
                up=time.time() - self.bot.started_at,
            )
            await send(interaction, ephemeral=True, embed=embed)

        await self.bot.controller.desk.guarded(interaction, work)


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(HelpCog(bot))
