"""What a failed Discord request means for a recipient, so one failure never stops the others.

- ``Gone``: the message is deleted (404 Unknown Message): send a fresh one.
- ``Stale``: a ``Gone`` that still exists: Discord refuses more edits to a message older than
  an hour (400, code 30046). Send a fresh one and delete the old (issue 29).
- ``Lost``: the channel is deleted (404 Unknown Channel), or a DM the player closed (403 code
  50007): for a table's channel the table closes; for a DM, the player plays from **Show my
  hand**.
- ``Refused``: a ``Lost`` that may pass (403 Missing Access or Missing Permissions: a
  moderator locked the channel, or took a permission from the bot). A table's channel is
  retried with back-off and degraded meanwhile (``bot.ui.delivery.access``); whoever cannot
  wait treats it as lost.
- ``Retry``: Discord is failing or rate-limiting (5xx, 429, a network error): try again later.
- anything else (a 400: our request is wrong) is logged as an error for the operator and the
  recipient is skipped, since retrying cannot help.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TypeVar

import aiohttp
import discord

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
CANNOT_DM = 50007  # "Cannot send messages to this user": their DMs are closed to the bot
#: "Maximum number of edits to messages older than 1 hour reached. Try again later."
OLD_MESSAGE_EDITS = 30046

_T = TypeVar("_T")


class DeliveryFailure(Exception):
    """A request for one recipient failed (see the subclasses)."""


class Gone(DeliveryFailure):
    """The message no longer exists."""


class Stale(Gone):
    """The message exists but may no longer be edited (an old message, code 30046)."""


class Lost(DeliveryFailure):
    """The channel no longer exists or the bot may not use it."""


class Refused(Lost):
    """The bot may not use the channel now (403): a permission is missing, maybe for a while."""


class Retry(DeliveryFailure):
    """A transient failure: the same request may succeed later."""


class Broken(DeliveryFailure):
    """A request Discord refuses as malformed: an operator must look (logged as an error)."""


async def attempt(request: Awaitable[_T], what: str) -> _T:
    """Await one Discord request, turning its failure into a ``DeliveryFailure``."""
    try:
        return await request
    except discord.NotFound as e:
        if e.code == UNKNOWN_MESSAGE:
            raise Gone(what) from e
        raise Lost(what) from e
    except discord.Forbidden as e:
        if e.code == CANNOT_DM:
            raise Lost(what) from e
        raise Refused(f"{what}: {e.code} {e.text}") from e
    except discord.HTTPException as e:
        if e.code == OLD_MESSAGE_EDITS:
            raise Stale(what) from e
        if e.status >= 500 or e.status == 429:
            raise Retry(f"{what}: {e.status}") from e
        log.error("Discord refused %s: %s %s", what, e.status, e.text)
        raise Broken(what) from e
    except (TimeoutError, aiohttp.ClientError, OSError) as e:
        raise Retry(f"{what}: {e!r}") from e
