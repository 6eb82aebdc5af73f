"""The words of the one error path: what an unexpected failure and a server-only command say.

Refusals (``ServiceError``) are worded by ``refusals``; ``bot.ui.delivery.answer.reply_error``
sends either, ephemerally.
"""

from __future__ import annotations

from bot.i18n import N_

GENERIC = N_("Something went wrong; the game is unchanged. Please try again.")
SERVER_ONLY = N_("This command only works in a server channel.")
