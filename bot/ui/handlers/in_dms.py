"""Tables played alone in a player's DMs (the daily deal, a league entry): their first DM, the
table behind it, and the answer with its link, in one place for both."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.services.errors import ServiceError
from bot.services.models import Outcome
from bot.ui.delivery.answer import reply
from bot.ui.delivery.failures import DeliveryFailure, attempt
from bot.ui.delivery.publisher import Publisher
from bot.ui.text.daily import dm_link


async def open_in_dms(
    interaction: discord.Interaction[Any],
    publisher: Publisher,
    *,
    intro: discord.Embed,
    what: str,
    no_dms: Callable[[], str],
    start: Callable[[int, int], Awaitable[Outcome]],
    done: Callable[[str], str],
) -> None:
    """Send the player's first DM (``intro``; ``what`` names it in failure logs), then
    ``start(dm_channel_id, message_id)`` the table behind it and answer ``done(link)``.

    DMs closed: a refusal (``no_dms()``) and nothing started. A refused start deletes the
    first DM, so no DM points at a table that does not exist."""
    try:
        channel = await attempt(interaction.user.create_dm(), "opening a DM")
        message = await attempt(channel.send(embed=intro), what)
    except DeliveryFailure:
        raise ServiceError(no_dms()) from None
    try:
        outcome = await start(channel.id, message.id)
    except ServiceError:
        with contextlib.suppress(discord.HTTPException):
            await message.delete()
        raise
    publisher.publish(outcome)
    await reply(interaction, done(dm_link(channel.id, message.id)))
