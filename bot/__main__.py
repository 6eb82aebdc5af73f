"""Entry point: ``python -m bot`` (or the ``trionfi`` script) loads settings and runs the bot."""

from __future__ import annotations

import logging
import sys

from bot.settings import ConfigError, load_settings

log = logging.getLogger("bot")


def main() -> int:
    """Run the bot until it is stopped; return the process exit status."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    from bot.log import setup_logging

    setup_logging(settings.log_level)
    try:
        settings.database_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(
            f"error: cannot create the directory for DATABASE_PATH={settings.database_path} "
            f"({exc.strerror or exc})",
            file=sys.stderr,
        )
        return 2

    # Imported here so a configuration error is reported before discord.py (slow) is imported.
    import discord

    from bot.client import create_bot

    try:
        bot = create_bot(settings)
        # log_handler=None: bot.log.setup_logging already configured the root logger.
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure as exc:
        print(
            f"error: Discord rejected DISCORD_TOKEN ({exc}). Reset the token in the Developer "
            "Portal (Bot tab → Reset Token) and update .env or the environment.",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        log.info("interrupted; shutting down")
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
