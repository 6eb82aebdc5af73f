"""The one error path of the Discord layer: ephemeral, human, never a traceback."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import N_, _

log = logging.getLogger(__name__)

GENERIC = N_("Something went wrong; the game is unchanged. Please try again.")
SERVER_ONLY = N_("This command only works in a server channel.")


async def reply(
    interaction: discord.Interaction[Any], message: str, *, embed: discord.Embed | None = None
) -> None:
    """Answer ephemerally, whether or not the interaction was already responded to."""
    kwargs: dict[str, Any] = {"ephemeral": True}
    if embed is not None:
        kwargs["embed"] = embed
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, **kwargs)
        else:
            await interaction.response.send_message(message, **kwargs)
    except discord.HTTPException:
        # The token may have expired (15 minutes) or the channel vanished: nothing to tell.
        log.warning("could not send an ephemeral reply", exc_info=True)


async def reply_error(interaction: discord.Interaction[Any], message: str) -> None:
    """Ephemeral ⚠️ message for a refused request (``message`` already in the reader's
    language; a marked constant such as :data:`GENERIC` is translated here)."""
    await reply(interaction, f"⚠️ {_(message)}")
