"""The Discord client: opens the database, builds services, loads cogs, syncs commands."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.db.database import Database
from bot.engine.registry import implemented
from bot.services.errors import ServiceError
from bot.services.stats import StatsService
from bot.services.tables import TableService
from bot.ui.choice import ChoiceSelect
from bot.ui.components import TableButton, TableSelect
from bot.ui.controller import TableController
from bot.ui.errors import GENERIC, reply_error

if TYPE_CHECKING:
    from bot.settings import Settings

log = logging.getLogger(__name__)

SWEEP_SECONDS = 5.0  # how often turn deadlines and reminders are checked


def extensions() -> tuple[str, ...]:
    """Cogs to load: ``cogs/<game_id>.py`` for every implemented game, then the shared ones."""
    games = tuple(
        f"cogs.{game_id}"
        for game_id in implemented()
        if importlib.util.find_spec(f"cogs.{game_id}") is not None
    )
    return (*games, "cogs.leaderboard", "cogs.stats", "cogs.privacy", "cogs.notify", "cogs.admin")


_OPTION_KINDS: dict[discord.AppCommandOptionType, tuple[type, ...]] = {
    discord.AppCommandOptionType.string: (str,),
    discord.AppCommandOptionType.integer: (int,),
    discord.AppCommandOptionType.boolean: (bool,),
    discord.AppCommandOptionType.number: (int, float),
}
_OPTION_WORDS = {
    discord.AppCommandOptionType.string: "text",
    discord.AppCommandOptionType.integer: "a whole number",
    discord.AppCommandOptionType.boolean: "true or false",
    discord.AppCommandOptionType.number: "a number",
}


def option_problem(command: app_commands.Command[Any, ..., Any], namespace: Any) -> str | None:
    """Why the given options don't fit the command's own declaration, if they don't.

    Discord checks option types and ranges, but a command tree out of sync with this code
    (an old client cache, a deploy before the sync) can still send anything, and discord.py
    hands text, number and true/false values to the command unchecked.
    """
    given = vars(namespace)  # a Namespace answers None for options not given
    for param in command.parameters:
        kinds = _OPTION_KINDS.get(param.type)
        if param.display_name not in given or kinds is None:
            continue
        value = given[param.display_name]
        is_bool = isinstance(value, bool)
        if not isinstance(value, kinds) or is_bool != (bool in kinds):
            return f"**{param.display_name}** takes {_OPTION_WORDS[param.type]}."
        if param.type in (
            discord.AppCommandOptionType.integer,
            discord.AppCommandOptionType.number,
        ) and (
            (param.min_value is not None and value < param.min_value)
            or (param.max_value is not None and value > param.max_value)
        ):
            return f"**{param.display_name}** {_bounds(param.min_value, param.max_value)}."
    return None


class TrionfiTree(app_commands.CommandTree[Any]):
    """The command tree: options that don't fit their command are refused by name, politely,
    before any command code runs."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.type is not discord.InteractionType.application_command:
            return True
        try:
            command = interaction.command
            problem = (
                option_problem(command, interaction.namespace)
                if isinstance(command, app_commands.Command)
                else None
            )
        except Exception:  # unknown command or unreadable options: the tree reports those
            return True
        if problem is None:
            return True
        await reply_error(interaction, problem)
        return False


class TrionfiBot(commands.Bot):
    """Trionfi's bot. Everything it knows lives in the SQLite file at ``database_path``."""

    db: Database
    service: TableService
    stats: StatsService
    controller: TableController

    def __init__(
        self,
        database_path: str | Path,
        *,
        dev_guild_id: int | None = None,
        seed_source: Callable[[], int] | None = None,
        sweep_every: float | None = SWEEP_SECONDS,
        retry_delays: tuple[float, ...] = (),
    ) -> None:
        # No privileged intents: the bot works from interactions alone.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            tree_cls=TrionfiTree,
        )
        self.database_path = database_path
        self.dev_guild_id = dev_guild_id
        self.seed_source = seed_source
        self.sweep_every = sweep_every  # None: no background sweeper (tests sweep by hand)
        self.retry_delays = retry_delays  # () : the publisher's defaults
        self._sweeper: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.database_path)
        await self.db.migrate()
        if self.seed_source is not None:
            self.service = TableService(self.db, seed_source=self.seed_source)
        else:
            self.service = TableService(self.db)
        self.stats = StatsService(self.db)
        self.controller = TableController(self, self.service, retry_delays=self.retry_delays)
        for ext in extensions():
            await self.load_extension(ext)
        # Restart-proof components: every button/select of every table, old or new.
        self.add_dynamic_items(TableButton, TableSelect, ChoiceSelect)
        self.tree.on_error = self.on_app_command_error
        if self.sweep_every is not None:
            self._sweeper = asyncio.create_task(self._sweep_forever(self.sweep_every))
        # Whatever a previous run committed but did not finish showing (a crash or a deploy
        # between a commit and its publishing) is shown again now.
        await self.controller.publisher.republish(startup=True)
        if self.dev_guild_id is not None:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """The single fallback for command errors: ephemeral, human, never a traceback."""
        original = getattr(error, "original", error)
        if isinstance(original, ServiceError):
            await reply_error(interaction, original.message)
        elif isinstance(error, app_commands.NoPrivateMessage):
            await reply_error(interaction, "This command only works in a server channel.")
        elif isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
            await reply_error(interaction, str(error))
        else:
            log.exception(
                "command %s failed",
                interaction.command and interaction.command.qualified_name,
                exc_info=original,
            )
            await reply_error(interaction, GENERIC)

    async def _sweep_forever(self, every: float) -> None:
        """Turn clocks: one loop for every table; deadlines live in the database, so a
        restart simply picks them up again."""
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.controller.life.sweep()
            except Exception:  # a failed sweep must not stop the next one
                log.exception("turn-clock sweep failed")
            await asyncio.sleep(every)

    async def close(self) -> None:
        controller = getattr(self, "controller", None)
        if controller is not None:
            controller.publisher.close()  # unshown states are re-published on the next start
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        await super().close()
        db = getattr(self, "db", None)
        if db is not None:
            await db.close()


def create_bot(settings: Settings) -> TrionfiBot:
    """The production bot for ``settings``."""
    return TrionfiBot(settings.database_path, dev_guild_id=settings.dev_guild_id)


def _bounds(low: float | None, high: float | None) -> str:
    """The allowed range in words: goes from 1 to 5, is at least 1, or is at most 5."""
    if low is not None and high is not None:
        return f"goes from {low} to {high}"
    return f"is at least {low}" if low is not None else f"is at most {high}"
