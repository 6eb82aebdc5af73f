"""``/league``: league nights between servers (issue 34): enter the week's set of a game
(played in one's DMs), or open a table of it for several members of the server (played in a
private thread), the session's status, the standings (players, this server's, the
servers'), the comparison of every table's play after the window, and leaving."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.registry import get_rules
from bot.services.daily import DEFAULT_GAME
from bot.services.league import league_games

if TYPE_CHECKING:
    from bot.client import TrionfiBot

GAMES = [app_commands.Choice(name=get_rules(g).title, value=g) for g in league_games()]
SCOPES = [
    app_commands.Choice(name="This week's session", value="session"),
    app_commands.Choice(name="The season (12 weeks)", value="season"),
]
OF = [
    app_commands.Choice(name="Every player", value="players"),
    app_commands.Choice(name="This server's players", value="server"),
    app_commands.Choice(name="The servers", value="servers"),
]


@app_commands.guild_only()
class LeagueCog(commands.GroupCog, group_name="league", group_description="League nights"):
    """Duplicate sessions between servers."""

    def __init__(self, bot: TrionfiBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="join")
    @app_commands.choices(game=GAMES)
    async def join(self, interaction: discord.Interaction[Any], game: str = DEFAULT_GAME) -> None:
        """Enter this week's set: the same deals at every table, played in your DMs.

        Args:
            game: Which game's set (default: French Tarot).
        """
        ctl = self.bot.controller.league
        await self.bot.controller.desk.guarded(interaction, lambda: ctl.join(interaction, game))

    @app_commands.command(name="table")
    @app_commands.choices(game=GAMES)
    async def table(self, interaction: discord.Interaction[Any], game: str = DEFAULT_GAME) -> None:
        """Open a table of this week's set in the league channel, for several of you.

        Args:
            game: Which game's set (default: French Tarot).
        """
        ctl = self.bot.controller.league_tables
        await self.bot.controller.desk.guarded(interaction, lambda: ctl.open(interaction, game))

    @app_commands.command(name="status")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """This week's league session: when it is open and your sets."""
        ctl = self.bot.controller.league
        await self.bot.controller.desk.guarded(interaction, lambda: ctl.status(interaction))

    @app_commands.command(name="standings")
    @app_commands.choices(game=GAMES, scope=SCOPES, of=OF)
    async def standings(
        self,
        interaction: discord.Interaction[Any],
        game: str = DEFAULT_GAME,
        scope: str = "session",
        of: str = "players",
    ) -> None:
        """The league's standings in matchpoints (names and scores only).

        Args:
            game: Which game (default: French Tarot).
            scope: This week's session (default) or the season.
            of: Every player (default), this server's players, or the servers.
        """
        ctl = self.bot.controller.league
        await self.bot.controller.desk.guarded(
            interaction, lambda: ctl.standings(interaction, game, scope, of)
        )

    @app_commands.command(name="compare")
    @app_commands.choices(game=GAMES)
    async def compare(
        self,
        interaction: discord.Interaction[Any],
        deal: app_commands.Range[int, 1, 12],
        game: str = DEFAULT_GAME,
    ) -> None:
        """After the session: every table's play of a deal, side by side.

        Args:
            deal: Which deal of the set.
            game: Which game (default: French Tarot).
        """
        ctl = self.bot.controller.league
        await self.bot.controller.desk.guarded(
            interaction, lambda: ctl.compare(interaction, game, deal)
        )

    @app_commands.command(name="leave")
    @app_commands.choices(game=GAMES)
    async def leave(self, interaction: discord.Interaction[Any], game: str = DEFAULT_GAME) -> None:
        """Leave your set: the computer finishes the deal in progress, marked.

        Args:
            game: Which game's set (default: French Tarot).
        """
        ctl = self.bot.controller.league
        await self.bot.controller.desk.guarded(interaction, lambda: ctl.leave(interaction, game))


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(LeagueCog(bot))
