"""The Discord client: opens the database, builds services, loads cogs, syncs commands."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import importlib
import importlib.util
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import health, metrics
from bot.db.backends import open_database
from bot.db.database import Database
from bot.engine.registry import implemented
from bot.i18n.commands import CommandTranslator
from bot.log import log_context
from bot.services.errors import as_refusal
from bot.services.league import LeagueNight
from bot.services.luck import CATCH_UP_SECONDS
from bot.services.stats import StatsService
from bot.services.tables import TableService
from bot.ui.components.amount import AmountButton, amount_submitted
from bot.ui.components.choice import ChoiceSelect
from bot.ui.components.replay import ReplaySelect
from bot.ui.components.table import TableButton, TableSelect
from bot.ui.components.toggles import PickButton
from bot.ui.delivery import suit_emojis
from bot.ui.delivery.answer import reply_error
from bot.ui.handlers.controller import TableController
from bot.ui.handlers.daily import UPKEEP_EVERY
from bot.ui.handlers.sweeper import Sweeper
from bot.ui.text import mention
from bot.ui.text.cards import set_suit_marks
from bot.ui.text.errors import GENERIC, SERVER_ONLY
from bot.ui.text.locale import for_interaction
from bot.ui.text.refusals import refusal

if TYPE_CHECKING:
    from bot.settings import Settings

log = logging.getLogger(__name__)

SWEEP_SECONDS = 5.0  # how often turn deadlines, notifications and deliveries are checked
UPKEEP_SECONDS = 10.0  # the heartbeat (downtime is forgiven past 30 s) and idle tables
BOARDS_SECONDS = 30.0  # the recent boards' rolling totals (they move by the minute)
HEALTH_SECONDS = 5.0  # the status file (the health check allows 60 s)
LOBBY_IDLE = 24 * 3600.0  # seconds a lobby may sit unchanged before it closes
TABLE_IDLE = 7 * 86400.0  # seconds a running game may go without a move before it ends
SHUTDOWN_GRACE = 8.0  # seconds in-flight work may take once a stop is asked (docker: 10)
METRICS_EVERY = 15.0  # how often the metrics' table counts are refreshed (Prometheus: 15 s)


def _no_prefix(bot: commands.Bot, message: discord.Message) -> list[str]:
    """No prefix commands: Trionfi works from interactions alone."""
    return []


#: Translated command payloads by their untranslated form: the catalogs are fixed for the
#: life of the process, so every bot the process starts (a restart in place, each test's bot)
#: translates its tree once.
_PAYLOADS: dict[str, list[dict[str, Any]]] = {}


async def command_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
) -> list[dict[str, Any]]:
    """What a sync of ``tree`` for ``guild`` (None: global) uploads, its French and Italian
    names and descriptions included."""
    commands = tree.get_commands(guild=guild)
    key = json.dumps([c.to_dict(tree) for c in commands], sort_keys=True, default=str)
    translator = tree.translator
    if translator is None:
        return json.loads(key)
    if key not in _PAYLOADS:
        _PAYLOADS[key] = [await c.get_translated_payload(tree, translator) for c in commands]
    return _PAYLOADS[key]


def payload_digest(payload: list[dict[str, Any]]) -> str:
    """A hash of a sync's payload (a new translation changes it, and syncs again)."""
    data = json.dumps(payload, sort_keys=True, default=str).encode()
    return hashlib.sha256(data).hexdigest()


@functools.cache  # the same for the life of the process (find_spec searches the path)
def extensions() -> tuple[str, ...]:
    """Cogs to load: ``cogs/<game_id>.py`` for every implemented game, then the shared ones."""
    games = tuple(
        f"cogs.{game_id}"
        for game_id in implemented()
        if importlib.util.find_spec(f"cogs.{game_id}") is not None
    )
    return (
        *games,
        "cogs.daily",
        "cogs.league",
        "cogs.leaderboard",
        "cogs.stats",
        "cogs.privacy",
        "cogs.preferences",
        "cogs.help",
        "cogs.play",
        "cogs.admin",
        "cogs.tournament",
    )


async def load_cogs(bot: TrionfiBot) -> None:
    """Add the cogs of :func:`extensions` to ``bot``: each module is imported once per process
    and its ``setup`` run for each bot.

    ``load_extension`` would execute every cog module afresh for each bot (new module, new cog
    classes, every command's signature parsed again): a tenth of a test's time went there, for
    nothing here, where no extension is ever reloaded.
    """
    for ext in extensions():
        await importlib.import_module(ext).setup(bot)


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


class TrionfiBot(commands.AutoShardedBot):
    """Trionfi's bot. Everything it knows lives in the database at ``database_path``: a SQLite
    file, or a ``postgresql://`` URL that several processes of a cluster share (each running
    some of the shards; any of them can handle any table, as DMs all arrive on shard 0).

    Sharded (Discord decides how many shards unless ``shard_count`` says), with the smallest
    intents that work: ``guilds`` only (the guild and channel cache for names, and the events
    of the bot leaving a server or a channel being deleted). No message, typing, reaction or
    member events reach it; everything it does comes from interactions.
    """

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
        shard_count: int | None = None,
        shard_ids: list[int] | None = None,
        lobby_idle: float = LOBBY_IDLE,
        table_idle: float = TABLE_IDLE,
        status_path: Path | None = None,
        suit_emojis: bool = False,
        command_sync: bool = True,
        daily_salt: str | None = None,
        league_night: LeagueNight | None = None,
        league_deals: int | None = None,
        clock: Callable[[], float] | None = None,
        metrics_port: int | None = None,
        count_every: float | None = METRICS_EVERY,
        pool_size: int | None = None,
        acquire_timeout: float | None = None,
        job_seconds: float | None = None,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        options: dict[str, Any] = {
            "command_prefix": _no_prefix,
            "intents": intents,
            "help_command": None,
            "tree_cls": TrionfiTree,
            # Nobody is pinged unless a message asks for exactly that user.
            "allowed_mentions": discord.AllowedMentions.none(),
            "shard_count": shard_count,
        }
        if shard_ids is not None:
            options["shard_ids"] = shard_ids
        if metrics_port is not None:
            options["http_trace"] = metrics.trace_config()  # Discord's 429s, retried ones too
        super().__init__(**options)
        self.database_path = database_path
        self.dev_guild_id = dev_guild_id
        self.seed_source = seed_source
        self.sweep_every = sweep_every  # None: no background tasks (tests sweep by hand)
        self.retry_delays = retry_delays  # () : the publisher's defaults
        self.lobby_idle = lobby_idle
        self.table_idle = table_idle
        self.status_path = status_path  # where ``python -m bot health`` reads how we are
        self.suit_emojis = suit_emojis  # four-colour suit emojis in text (production: on)
        self.command_sync = command_sync  # this process owns the command sync (one per cluster)
        self.daily_salt = daily_salt  # DAILY_SALT (None: the one kept in the database)
        self.league_night = league_night  # LEAGUE_DAY/_HOUR/_HOURS (None: Friday, 18-24 UTC)
        self.league_deals = league_deals  # LEAGUE_DEALS (None: 8)
        self.clock = clock  # the services' clock (tests move it; None: the real time)
        self.pool_size = pool_size  # PostgreSQL's pool (None: the backend's defaults)
        self.acquire_timeout = acquire_timeout
        self.job_seconds = job_seconds  # a worker job's deadline (None: compute's default)
        self.started_at = time.time()
        self.accepting = True  # False once a stop is asked: new interactions are turned away
        self.in_flight = 0  # interactions being handled
        self.sync_only = False  # ``python -m bot sync``: set up, sync (forced), nothing else
        self.metrics_port = metrics_port  # None: no metrics (METRICS_PORT)
        self.count_every = count_every  # None: tables counted by hand (``count_tables``)
        self._counter: asyncio.Task[None] | None = None  # refreshes the metrics' table counts
        self.sweeper = Sweeper()
        self._republishing: asyncio.Task[None] | None = None
        self._starting: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        self.db = await open_database(
            self.database_path, pool_size=self.pool_size, acquire_timeout=self.acquire_timeout
        )
        await self.db.migrate()
        options: dict[str, Any] = {"job_seconds": self.job_seconds}
        if self.seed_source is not None:
            options["seed_source"] = self.seed_source
        if self.clock is not None:
            options["clock"] = self.clock
        self.service = TableService(self.db, **options)
        self.service.daily_salt = self.daily_salt
        if self.league_night is not None:
            self.service.league_night = self.league_night
        if self.league_deals is not None:
            self.service.league_deals = self.league_deals
        self.stats = StatsService(self.db)
        self.controller = TableController(
            self, self.service, self.stats, retry_delays=self.retry_delays
        )
        await load_cogs(self)
        await self.tree.set_translator(CommandTranslator())  # French and Italian commands
        # Before anything is published: text shows the suits as our four-colour emojis.
        if self.suit_emojis and not self.sync_only:
            await suit_emojis.install(self)
        else:
            set_suit_marks(None)
        # Restart-proof components: every button/select of every table, old or new.
        self.add_dynamic_items(
            TableButton, TableSelect, ChoiceSelect, PickButton, AmountButton, ReplaySelect
        )
        self.add_listener(amount_submitted, "on_interaction")  # typed bids, restart-proof
        self.tree.on_error = self.on_app_command_error
        if self.sync_only:
            await self.sync_commands(force=True)
            return
        # Turns whose clock ran while the bot was down get that time back.
        await self.service.forgive_downtime()
        if self.metrics_port is not None:
            metrics.enable(self.metrics_port)
            metrics.watch_http(self.http)
            if self.count_every is not None:
                self._counter = asyncio.create_task(self._count_forever(self.count_every))
        if self.command_sync:
            await self.sync_commands()
        else:  # the owner of the sync stored the ids (a later sweep reads them if it had not)
            mention.remember(await self.service.command_ids())
        # Whatever a previous run committed but did not finish showing (a crash or a deploy
        # between a commit and its publishing) is shown again, in the background: rebuilding
        # every unshown table's state must not keep the gateway from connecting.
        self._republishing = asyncio.create_task(self._republish_unshown(), name="republish")
        if self.sweep_every is not None:
            self._starting = asyncio.create_task(self._start_background(self.sweep_every))

    async def _republish_unshown(self) -> None:
        try:
            await self.controller.publisher.republish(startup=True)
        except Exception:
            log.exception("could not re-publish the tables left unshown by the last run")

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Upload the command tree where it changed since the last sync (``force``: always).

        Global syncs are rate-limited by Discord, so a bot that restarts (or crash-loops)
        with the same commands does not sync again. With ``dev_guild_id`` the commands live in
        that server only and the global ones are removed, so none appear twice there. A failed
        sync is logged and the bot runs on with the commands Discord has. True if it synced.

        The ids Discord gives the commands are stored (every process and every restart writes
        the same command mentions: ``bot.ui.text.mention``); a bot whose commands were synced
        before ids were stored fetches them once.
        """
        targets: list[tuple[str, discord.abc.Snowflake | None]] = [("global", None)]
        if self.dev_guild_id is not None:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            self.tree.clear_commands(guild=None)  # the dev server's copy answers them
            targets = [(f"guild:{self.dev_guild_id}", guild), ("global", None)]
        synced = False
        stored = await self.service.command_ids()
        ids = dict(stored)
        for scope, guild in targets:
            payload = await command_payload(self.tree, guild)
            digest = payload_digest(payload)
            if not force and await self.service.synced_commands(scope) == digest:
                continue
            try:  # the payload uploaded as it was hashed (``tree.sync`` would translate again)
                commands = await self._upload_commands(guild, payload)
            except discord.HTTPException as e:
                log.error(
                    "could not sync the %s commands (%s); running with the old ones", scope, e
                )
                continue
            await self.service.commands_synced(scope, digest)
            log.info("synced the %s commands", scope)
            synced = True
            if commands:  # one scope holds the commands (the dev server's empties global)
                ids = commands
        if not ids:
            try:  # the scope holding the commands comes first in ``targets``
                ids = {c.name: c.id for c in await self.tree.fetch_commands(guild=targets[0][1])}
            except discord.HTTPException as e:
                log.warning("could not read the command ids (%s); commands stay typed", e)
        if ids != stored:
            await self.service.command_ids_synced(ids)
        mention.remember(ids)
        return synced

    async def _upload_commands(
        self, guild: discord.abc.Snowflake | None, payload: list[dict[str, Any]]
    ) -> dict[str, int]:
        """Replace the commands of ``guild`` (None: global) with ``payload``: name -> id."""
        app = self.application_id
        if app is None:
            raise app_commands.MissingApplicationID
        if guild is None:
            data = await self.http.bulk_upsert_global_commands(app, payload=payload)
        else:
            data = await self.http.bulk_upsert_guild_commands(app, guild.id, payload=payload)
        return {str(c["name"]): int(c["id"]) for c in data}

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """The single fallback for command errors: ephemeral, human, never a traceback."""
        original = getattr(error, "original", error)
        with for_interaction(interaction):  # in the language of the client that asked
            refused = as_refusal(original)  # a ServiceError, or a database too busy
            if refused is not None:
                await reply_error(interaction, refusal(refused))
            elif isinstance(error, app_commands.NoPrivateMessage):
                await reply_error(interaction, SERVER_ONLY)
            elif isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
                await reply_error(interaction, str(error))
            else:
                command = interaction.command.qualified_name if interaction.command else None
                with log_context(
                    guild=interaction.guild_id, user=interaction.user.id, command=command
                ):
                    log.exception("command %s failed", command, exc_info=original)
                await reply_error(interaction, GENERIC)

    async def _start_background(self, every: float) -> None:
        """The sweeper's independent tasks (``bot.ui.handlers.sweeper``): turn clocks,
        notifications and delivery retries every ``every`` seconds, then upkeep, the daily
        task, the boards and the health file each on its own period. Deadlines live in the
        database, so a restart simply picks them up again."""
        await self.wait_until_ready()  # the guild cache, for names and languages
        life, daily, service = self.controller.life, self.controller.daily, self.service

        async def upkeep() -> None:
            await service.heartbeat()
            await life.expire_idle(self.lobby_idle, self.table_idle)

        async def boards() -> None:
            await service.roll_boards()

        async def luck() -> None:
            await service.catch_up_luck()

        sweeper = self.sweeper
        sweeper.add("clocks", every, life.clocks)
        sweeper.add("notifications", every, life.notifications)
        sweeper.add("deliveries", every, life.deliveries)
        sweeper.add("upkeep", UPKEEP_SECONDS, upkeep)
        sweeper.add("daily", UPKEEP_EVERY, daily.upkeep)
        # Tournaments: start times, rounds whose tables have all ended, their posts.
        sweeper.add("tournaments", every, self.controller.tournament.upkeep)
        sweeper.add("league", UPKEEP_EVERY, self.controller.league.upkeep)
        sweeper.add("boards", BOARDS_SECONDS, boards)
        # Luck and skill a restart lost (issue 33), on start and every few minutes.
        sweeper.add("luck", CATCH_UP_SECONDS, luck)
        sweeper.add("health", HEALTH_SECONDS, self._write_health)
        if not self.command_sync:  # another process owns the sync: its ids, once stored
            sweeper.add("command ids", UPKEEP_SECONDS, self._learn_command_ids)
        sweeper.start()

    async def _learn_command_ids(self) -> None:
        """Another process owns the command sync: its command ids, once it stored them."""
        if not mention.known():
            mention.remember(await self.service.command_ids())

    async def _count_forever(self, every: float) -> None:
        while not self.is_closed():
            await self.count_tables()
            await asyncio.sleep(every)

    async def count_tables(self) -> None:
        """The metrics' open tables and delivery backlog, from the database (shared by a
        cluster's processes: each reports the same counts)."""
        try:
            c = await self.service.counts()
        except Exception:  # the next round tries again
            log.warning("could not count the tables for the metrics", exc_info=True)
            return
        metrics.tables(c.lobbies, c.playing, c.unshown, c.lag)

    async def _write_health(self, *, connected: bool | None = None) -> None:
        """The status file of ``python -m bot health``: gateway and database state."""
        if self.status_path is None:
            return
        try:
            async with asyncio.timeout(5):
                async with self.db.read() as conn:
                    await conn.fetchone("SELECT 1")
            database_ok = True
        except Exception:
            database_ok = False
        if connected is None:
            shards = self.shards
            connected = (
                self.is_ready()
                and not self.is_closed()
                and bool(shards)
                and all(not s.is_closed() for s in shards.values())
            )
        try:
            health.write_status(
                self.status_path,
                gateway_connected=connected,
                database_ok=database_ok,
                now=time.time(),
                tasks=self.sweeper.liveness(),
            )
        except OSError:
            log.warning("cannot write the health status %s", self.status_path, exc_info=True)

    # ---- a server or a channel goes away ---------------------------------------------------
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server (kicked, or the server deleted): its tables end unrated."""
        await self.controller.life.close_gone(await self.service.close_guild(guild.id))

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: its table ends unrated."""
        await self.controller.life.close_gone(await self.service.close_channel(channel.id))

    # ---- stopping ----------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def working(self) -> AsyncIterator[None]:
        """Count a piece of interaction work in flight (a stop waits for it)."""
        self.in_flight += 1
        try:
            yield
        finally:
            self.in_flight -= 1

    async def shutdown(self, grace: float = SHUTDOWN_GRACE) -> None:
        """A clean stop (SIGTERM, SIGINT): turn new interactions away, let the ones in flight
        finish (up to ``grace`` seconds), stop the sweeper, let deliveries end, then close the
        gateway and the database (checkpointed)."""
        if not self.accepting:
            return
        self.accepting = False
        log.info("stopping: %s interaction(s) in flight", self.in_flight)
        deadline = asyncio.get_running_loop().time() + grace
        while self.in_flight and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        await self.sweeper.stop()
        controller = getattr(self, "controller", None)
        if controller is not None:
            remaining = max(0.1, deadline - asyncio.get_running_loop().time())
            await controller.publisher.drain(timeout=remaining)
        await self.close()

    async def close(self) -> None:
        if getattr(self, "db", None) is not None:
            await self._write_health(connected=False)
        controller = getattr(self, "controller", None)
        if controller is not None:
            controller.publisher.close()  # unshown states are re-published on the next start
            if not self.is_closed():  # …by whichever process comes first, at once
                await controller.publisher.release()
        for task in (self._starting, self._republishing, self._counter):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self.sweeper.stop()
        service = getattr(self, "service", None)
        if service is not None:
            await service.stop_luck()
        if self.metrics_port is not None:
            metrics.disable()
        await super().close()
        db = getattr(self, "db", None)
        if db is not None:
            await db.close()  # checkpoints the WAL into the database file


def create_bot(settings: Settings) -> TrionfiBot:
    """The production bot for ``settings``."""
    return TrionfiBot(
        settings.database_url or settings.database_path,
        dev_guild_id=settings.dev_guild_id,
        shard_count=settings.shard_count,
        shard_ids=None if settings.shard_ids is None else list(settings.shard_ids),
        lobby_idle=settings.lobby_idle_seconds,
        table_idle=settings.table_idle_seconds,
        status_path=health.status_path_for(settings.database_path),
        suit_emojis=True,
        command_sync=settings.owns_command_sync,
        daily_salt=settings.daily_salt,
        metrics_port=settings.metrics_port,
        pool_size=settings.database_pool_size,
        acquire_timeout=settings.database_acquire_timeout,
        job_seconds=settings.worker_job_seconds,
        league_night=LeagueNight(
            settings.league_weekday, settings.league_hour, settings.league_hours
        ),
        league_deals=settings.league_deals,
    )


def _bounds(low: float | None, high: float | None) -> str:
    """The allowed range in words: goes from 1 to 5, is at least 1, or is at most 5."""
    if low is not None and high is not None:
        return f"goes from {low} to {high}"
    return f"is at least {low}" if low is not None else f"is at most {high}"
