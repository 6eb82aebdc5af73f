"""Bot configuration: the one place that reads `.env` and the environment."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

DEFAULT_DATABASE_PATH = Path("data/trionfi.sqlite3")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
COMMAND_SYNC_MODES = ("auto", "on", "off")
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
DEFAULT_LOBBY_IDLE_HOURS = 24.0
DEFAULT_TABLE_IDLE_DAYS = 7.0
DEFAULT_POOL_SIZE = 10  # bot.db.postgres.POOL_SIZE (not imported: it would load asyncpg)
DEFAULT_ACQUIRE_TIMEOUT = 5.0  # bot.db.postgres.ACQUIRE_TIMEOUT
DEFAULT_JOB_SECONDS = 20.0  # bot.services.compute.JOB_SECONDS
#: The league's weekly night (bot.services.league): its day, start hour (UTC), length, deals.
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
DEFAULT_LEAGUE_DAY = "friday"
DEFAULT_LEAGUE_HOUR = 18
DEFAULT_LEAGUE_HOURS = 6
DEFAULT_LEAGUE_DEALS = 8

MISSING_TOKEN_MESSAGE = (
    "DISCORD_TOKEN is not set. Create a bot at https://discord.com/developers/applications "
    "(your application → Bot tab → Reset Token), then put DISCORD_TOKEN=<token> in .env "
    "or the environment."
)


class ConfigError(Exception):
    """A configuration problem; ``str(error)`` is a one-line message for the operator."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Validated configuration. The token is kept out of ``repr`` so it never reaches a log."""

    token: str = field(repr=False)
    database_path: Path = DEFAULT_DATABASE_PATH
    # A PostgreSQL server instead of the SQLite file (kept out of ``repr``: it may hold a
    # password). The status file for ``python -m bot health`` stays next to database_path.
    database_url: str | None = field(default=None, repr=False)
    log_level: str = "INFO"
    # If set, app commands are synced to this guild (instant) instead of globally.
    dev_guild_id: int | None = None
    # "text" (human-readable lines) or "json" (one JSON object per line); see bot.log.
    log_format: str = "text"
    # Sharding: None lets Discord decide the shard count. ``shard_ids`` (only with a
    # ``shard_count``) are the shards this process runs; None: all of them.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # Which process of a cluster uploads the slash commands: "auto" (the one running shard 0,
    # or every shard), "on" or "off".
    command_sync: str = "auto"
    # A lobby unchanged this long closes; a running table without an action this long ends
    # unrated.
    lobby_idle_hours: float = DEFAULT_LOBBY_IDLE_HOURS
    table_idle_days: float = DEFAULT_TABLE_IDLE_DAYS
    # The secret mixed into each day's daily deal (issue 20), so nobody can compute a deal in
    # advance; None: one made at random on first start and kept in the database.
    daily_salt: str | None = field(default=None, repr=False)
    # Serve Prometheus metrics on this port (``/metrics``, every interface); None: no metrics.
    metrics_port: int | None = None
    # PostgreSQL: connections per process, and how long a task waits for one before the user
    # is told the bot is busy (seconds).
    database_pool_size: int = DEFAULT_POOL_SIZE
    database_acquire_timeout: float = DEFAULT_ACQUIRE_TIMEOUT
    # The most seconds one job of the computer players (or one hint) may think in a worker
    # process; then its worker is stopped and the casual computer decides instead.
    worker_job_seconds: float = DEFAULT_JOB_SECONDS
    # The league's weekly session (issue 34): its day (Monday = 0), the hour it opens (UTC),
    # how many hours it stays open, and the deals of each game's set. Every process of a
    # cluster reads the session from the database, made by the first to need it.
    league_weekday: int = WEEKDAYS.index(DEFAULT_LEAGUE_DAY)
    league_hour: int = DEFAULT_LEAGUE_HOUR
    league_hours: int = DEFAULT_LEAGUE_HOURS
    league_deals: int = DEFAULT_LEAGUE_DEALS

    @property
    def owns_command_sync(self) -> bool:
        if self.command_sync != "auto":
            return self.command_sync == "on"
        return self.shard_ids is None or 0 in self.shard_ids

    @property
    def lobby_idle_seconds(self) -> float:
        return self.lobby_idle_hours * 3600.0

    @property
    def table_idle_seconds(self) -> float:
        return self.table_idle_days * 86400.0


def load_settings(env: Mapping[str, str] | None = None, *, require_token: bool = True) -> Settings:
    """Build `Settings` from ``env``, or from `.env` in the working directory plus the environment.

    With ``env=None``, values from ``./.env`` are used only where the real environment does not
    set the key (python-dotenv's ``override=False`` semantics); ``os.environ`` is not modified.
    An explicit ``env`` mapping is used as is, without reading any file. Empty values count as
    unset. Raises `ConfigError` with a one-line message naming the offending key.
    """
    source = _environment_with_dotenv() if env is None else env

    def get(key: str) -> str | None:
        value = source.get(key)
        if value is None:
            return None
        return value.strip() or None

    token = get("DISCORD_TOKEN") or ""
    if require_token and not token:
        raise ConfigError(MISSING_TOKEN_MESSAGE)

    log_level = (get("LOG_LEVEL") or "INFO").upper()
    if log_level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {log_level!r}.")

    raw_path = get("DATABASE_PATH")
    database_path = Path(raw_path).expanduser() if raw_path else DEFAULT_DATABASE_PATH
    database_url = get("DATABASE_URL")
    if database_url is not None and not database_url.startswith(POSTGRES_SCHEMES):
        raise ConfigError(
            "DATABASE_URL must be a PostgreSQL URL like postgresql://user:password@host:5432/db "
            "(leave it empty to use the SQLite file of DATABASE_PATH)."
        )

    raw_guild = get("DEV_GUILD_ID")
    dev_guild_id = None if raw_guild is None else _parse_int("DEV_GUILD_ID", raw_guild)
    if dev_guild_id is not None and dev_guild_id <= 0:
        raise ConfigError(f"DEV_GUILD_ID must be a positive guild id, got {dev_guild_id}.")

    log_format = (get("LOG_FORMAT") or "text").lower()
    if log_format not in LOG_FORMATS:
        raise ConfigError(
            f"LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, got {get('LOG_FORMAT')!r}."
        )

    raw_count = get("SHARD_COUNT")
    shard_count = None if raw_count is None else _parse_int("SHARD_COUNT", raw_count)
    if shard_count is not None and shard_count <= 0:
        raise ConfigError(f"SHARD_COUNT must be a positive number of shards, got {shard_count}.")
    raw_ids = get("SHARD_IDS")
    shard_ids = None if raw_ids is None else _parse_shard_ids(raw_ids, shard_count)

    command_sync = (get("COMMAND_SYNC") or "auto").lower()
    if command_sync not in COMMAND_SYNC_MODES:
        raise ConfigError(
            f"COMMAND_SYNC must be one of {', '.join(COMMAND_SYNC_MODES)}, "
            f"got {get('COMMAND_SYNC')!r}."
        )

    lobby_idle_hours = _positive_number("LOBBY_IDLE_HOURS", get, DEFAULT_LOBBY_IDLE_HOURS)
    table_idle_days = _positive_number("TABLE_IDLE_DAYS", get, DEFAULT_TABLE_IDLE_DAYS)

    daily_salt = get("DAILY_SALT")
    if daily_salt is not None and len(daily_salt) < 16:
        raise ConfigError(
            "DAILY_SALT must be at least 16 characters of secret (or empty: one is made at "
            "random and kept in the database)."
        )

    raw_port = get("METRICS_PORT")
    metrics_port = None if raw_port is None else _parse_int("METRICS_PORT", raw_port)
    if metrics_port is not None and not 1 <= metrics_port <= 65535:
        raise ConfigError(
            f"METRICS_PORT must be a TCP port from 1 to 65535, got {metrics_port} "
            "(leave it empty for no metrics)."
        )
    raw_pool = get("DATABASE_POOL_SIZE")
    pool_size = (
        DEFAULT_POOL_SIZE if raw_pool is None else _parse_int("DATABASE_POOL_SIZE", raw_pool)
    )
    if pool_size < 1:
        raise ConfigError(f"DATABASE_POOL_SIZE must be at least 1 connection, got {pool_size}.")
    acquire_timeout = _positive_number("DATABASE_ACQUIRE_TIMEOUT", get, DEFAULT_ACQUIRE_TIMEOUT)
    job_seconds = _positive_number("WORKER_JOB_SECONDS", get, DEFAULT_JOB_SECONDS)
    day = (get("LEAGUE_DAY") or DEFAULT_LEAGUE_DAY).lower()
    if day not in WEEKDAYS:
        raise ConfigError(
            f"LEAGUE_DAY must be a day of the week in English, got {get('LEAGUE_DAY')!r}."
        )
    league_hour = _int_within("LEAGUE_HOUR", get, DEFAULT_LEAGUE_HOUR, 0, 23, "an hour (UTC)")
    league_hours = _int_within("LEAGUE_HOURS", get, DEFAULT_LEAGUE_HOURS, 1, 24, "hours")
    league_deals = _int_within("LEAGUE_DEALS", get, DEFAULT_LEAGUE_DEALS, 6, 12, "deals")

    return Settings(
        token=token,
        database_path=database_path,
        database_url=database_url,
        log_level=log_level,
        dev_guild_id=dev_guild_id,
        log_format=log_format,
        shard_count=shard_count,
        shard_ids=shard_ids,
        command_sync=command_sync,
        lobby_idle_hours=lobby_idle_hours,
        table_idle_days=table_idle_days,
        daily_salt=daily_salt,
        metrics_port=metrics_port,
        database_pool_size=pool_size,
        database_acquire_timeout=acquire_timeout,
        worker_job_seconds=job_seconds,
        league_weekday=WEEKDAYS.index(day),
        league_hour=league_hour,
        league_hours=league_hours,
        league_deals=league_deals,
    )


def _environment_with_dotenv() -> dict[str, str]:
    # Only ./.env is read: load_dotenv()'s default search starts from the *calling module's*
    # directory, which for an installed package is site-packages or the source checkout,
    # not where the operator runs the bot.
    from_file = dotenv_values(Path.cwd() / ".env")
    merged = {key: value for key, value in from_file.items() if value is not None}
    merged.update(os.environ)  # the real environment wins over .env
    return merged


def _parse_int(key: str, raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{key} must be a whole number, got {raw!r}.") from None


def _int_within(
    key: str, get: Callable[[str], str | None], default: int, low: int, high: int, what: str
) -> int:
    raw = get(key)
    value = default if raw is None else _parse_int(key, raw)
    if not low <= value <= high:
        raise ConfigError(f"{key} must be {what} from {low} to {high}, got {value}.")
    return value


def _positive_number(key: str, get: Callable[[str], str | None], default: float) -> float:
    raw = get(key)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{key} must be a number, got {raw!r}.") from None
    if not math.isfinite(value) or value <= 0:
        raise ConfigError(f"{key} must be a positive number, got {raw!r}.")
    return value


def _parse_shard_ids(raw: str, shard_count: int | None) -> tuple[int, ...]:
    if shard_count is None:
        raise ConfigError(
            "SHARD_IDS needs SHARD_COUNT: set SHARD_COUNT to the total number of shards "
            "of the cluster."
        )
    ids: list[int] = []
    for item in raw.split(","):
        item = item.strip()
        try:
            shard = int(item)
        except ValueError:
            raise ConfigError(
                f"SHARD_IDS must be comma-separated shard numbers like 0,1,2, got {raw!r}."
            ) from None
        if not 0 <= shard < shard_count:
            raise ConfigError(
                f"SHARD_IDS must be shard numbers from 0 to {shard_count - 1} "
                f"(SHARD_COUNT is {shard_count}), got {shard}."
            )
        if shard in ids:
            raise ConfigError(f"SHARD_IDS lists shard {shard} more than once.")
        ids.append(shard)
    return tuple(ids)
