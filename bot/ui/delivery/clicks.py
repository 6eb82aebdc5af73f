"""A DM hand edited through its player's latest click on it (issue 30's REST budget).

The click's interaction token is remembered in the database (``seats.click_*``), so any
process can use it, even after a restart. The interaction's original message is that hand,
and editing it answers the interaction, outside Discord's global rate limit: the next
player's hand at each turn costs none of the bot's budget.
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot.services.models import SeatInfo, TableInfo
from bot.services.tables import TableService
from bot.ui.delivery.failures import Retry
from bot.ui.delivery.pictures import for_edit
from bot.ui.delivery.protocols import Messenger

log = logging.getLogger(__name__)

#: How long a player's click on their DM hand may redraw it (seconds, by the service's clock):
#: Discord keeps an interaction token 15 minutes; the margin covers a slow delivery.
CLICK_FOR = 14 * 60.0


async def edit_by_click(
    bot: Messenger, service: TableService, table: TableInfo, seat: SeatInfo, fields: dict[str, Any]
) -> bool:
    """Edit the seat's DM hand through its player's latest click on it (remembered in the
    database, so any process can, even after a restart): the interaction's original message
    is that hand, and editing it answers the interaction, outside Discord's global rate
    limit (issue 30's REST budget: the next player's hand at each turn costs none). False:
    no such click to use (too old, on an earlier hand message, or refused: forgotten), the
    caller edits it as usual. Raises ``Retry`` when Discord could not take it now (5xx)."""
    click = seat.click
    if click is None or not isinstance(bot, discord.Client):
        return False
    if click.message_id != seat.dm_message_id or service.now() - click.at >= CLICK_FOR:
        # A token for a hand that was replaced by a new DM, or about to lapse: useless,
        # and a credential all the same.
        await service.forget_click(table.id, seat.seat, click.token)
        return False
    what = "a hand (through its player's click)"  # i18n: code (named in the log)
    webhook = discord.Webhook.partial(click.app_id, click.token, client=bot)
    edit = for_edit(fields)
    try:
        # ``Interaction.edit_original_response`` without the interaction: PATCH
        # /webhooks/{application}/{token}/messages/@original.
        with handle_message_parameters(**edit) as params:
            await async_context.get().edit_original_interaction_response(
                click.app_id,
                click.token,
                session=webhook.session,
                proxy=webhook.proxy,
                proxy_auth=webhook.proxy_auth,
                payload=params.payload,
                multipart=params.multipart,
                files=params.files,
            )
    except discord.HTTPException as e:
        if e.status >= 500 or e.status == 429:
            raise Retry(f"{what}: {e.status}") from e
        # The token lapsed (401), or Discord refuses or no longer knows the interaction:
        # that says nothing about the message itself, which a channel edit still reaches.
        log.info("table %s seat %s: %s refused (%s)", table.id, seat.seat, what, e.status)
        await service.forget_click(table.id, seat.seat, click.token)
        return False
    except (TimeoutError, aiohttp.ClientError, OSError) as e:
        # Its type only: some errors' text carries the URL, and so the token.
        raise Retry(f"{what}: {type(e).__name__}") from e
    return True
