"""Answer first, work second: every interaction is acknowledged before any database or engine
work, then completed by editing the acknowledged response or by a follow-up; and the one error
path's ephemeral answer (``reply_error``: human, never a traceback).

Discord drops an interaction that is not acknowledged within 3 seconds, and a service call
(lock, database, computer moves) can take longer on a busy bot. Acknowledging first keeps the
15-minute token valid for whatever the work then has to say, refusals included.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord

from bot.i18n import _
from bot.ui.delivery.pictures import for_send

log = logging.getLogger(__name__)

#: How an interaction is acknowledged:
#: ``update`` — a component whose message is redrawn in place (a hand, a lobby, a board page);
#: ``private`` — an ephemeral "thinking…" answer (most commands, refusals stay private);
#: ``public`` — a public "thinking…" answer (results everyone in the channel sees).
Ack = Literal["update", "private", "public"]


async def acknowledge(interaction: discord.Interaction[Any], mode: Ack) -> bool:
    """Defer the interaction; False if Discord no longer accepts it (too late to answer, so
    the work must not run: the user was told the interaction failed)."""
    if interaction.response.is_done():
        return True
    try:
        if mode == "update":
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=mode == "private", thinking=True)
    except discord.NotFound:
        log.warning("interaction %s expired before it was acknowledged", interaction.id)
        return False
    except discord.HTTPException as e:
        if e.code == 40060:  # already acknowledged (a retry of ours): carry on
            return True
        log.warning("could not acknowledge interaction %s: %s", interaction.id, e)
        return False
    return True


async def send(
    interaction: discord.Interaction[Any], *, ephemeral: bool, **fields: Any
) -> discord.abc.Snowflake | None:
    """A new answer: the deferred "thinking…" message is completed by the first follow-up;
    later ones are new messages. Returns the message sent as a follow-up (None: the answer
    was the interaction's first response)."""
    fields = for_send(fields)  # no ``view=None``; a picture becomes its file
    try:
        if interaction.response.is_done():
            return await interaction.followup.send(ephemeral=ephemeral, wait=True, **fields)
        await interaction.response.send_message(ephemeral=ephemeral, **fields)
        return None
    finally:
        _release(fields.get("view"))


def _release(view: Any) -> None:
    """Drop a sent view from discord.py's view store. Every control of ours is a dynamic
    item, dispatched from its custom_id alone (so it works after a restart), never through
    the view object; but discord.py keeps each ephemeral answer's view for 15 minutes, with a
    timeout task of its own: a task and a view per answer, for nothing (issue 29: bounded
    memory). It also made every SimCord settle scan those tasks."""
    if isinstance(view, discord.ui.View | discord.ui.LayoutView):
        view.stop()


async def redraw(interaction: discord.Interaction[Any], **fields: Any) -> None:
    """Edit the message the component was on (after a deferred update)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


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
    language; a marked constant such as ``bot.ui.text.errors.GENERIC`` is translated here)."""
    await reply(interaction, f"⚠️ {_(message)}")
