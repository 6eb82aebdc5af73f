"""Bot configuration: the one place that reads `.env` and the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

DEFAULT_DATABASE_PATH = Path("data/trionfi.sqlite3")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

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
    log_level: str = "INFO"
    # If set, app commands are synced to this guild (instant) instead of globally.
    dev_guild_id: int | None = None


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

    raw_guild = get("DEV_GUILD_ID")
    dev_guild_id = None if raw_guild is None else _parse_int("DEV_GUILD_ID", raw_guild)
    if dev_guild_id is not None and dev_guild_id <= 0:
        raise ConfigError(f"DEV_GUILD_ID must be a positive guild id, got {dev_guild_id}.")

    return Settings(
        token=token,
        database_path=database_path,
        log_level=log_level,
        dev_guild_id=dev_guild_id,
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
