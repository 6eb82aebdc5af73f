"""Logging set-up: stdlib logging to stderr, one format for the bot and discord.py."""

from __future__ import annotations

import logging
import sys

LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


def setup_logging(level: str) -> None:
    """Send all records at ``level`` and above to stderr, replacing any earlier set-up.

    ``discord.http`` logs every rate-limit bucket at INFO/DEBUG; it is held at WARNING so real
    problems stay visible without drowning the bot's own messages.
    """
    logging.basicConfig(
        level=level.upper(),
        format=LOG_FORMAT,
        datefmt=DATE_FORMAT,
        stream=sys.stderr,
        force=True,
    )
    logging.getLogger("discord.http").setLevel(logging.WARNING)
