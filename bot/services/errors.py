"""Domain errors of the service layer: a refusal's *code* and its data, never words.

The services say what was refused (``ServiceError("table_full")``,
``WrongState("channel_busy", table=12, game="la_morte", status="lobby")``) and the Discord
layer words it in the reader's language (``bot.ui.text.refusals.refusal``). Params carry data
only: ids, display names, game ids, status codes, counts, card codes, option names.
"""

from __future__ import annotations

from typing import Any

from bot.db.database import PoolTimeout


class ServiceError(Exception):
    """A request was refused; nothing changed.

    Attributes:
        code: what was refused (``str(err)`` is the code too). The Discord layer's own
            refusals pass a sentence already written in the reader's language instead
            (``ServiceError(_("…"))``); ``bot.ui.text.refusals`` shows any unknown code as is.
        params: the refusal's data, for the words (see ``bot.ui.text.refusals``).
    """

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params: dict[str, Any] = params


class NotFound(ServiceError):
    """No such table (or it was closed)."""


class NotSeated(ServiceError):
    """The user has no seat at this table."""


class WrongState(ServiceError):
    """The table is not in a state that allows this (lobby vs playing vs finished)."""


class Forbidden(ServiceError):
    """The user may not do this (e.g. only the table's host may start it)."""


class IllegalMove(ServiceError):
    """The engine rejected the action (wrong turn, illegal card, malformed choice).

    ``code`` is the engine's (``not_your_turn``, ``illegal_action``, ``bad_action``,
    ``deal_over``), or ``already_played`` for a repeat of the seat's own latest decision (a
    double click, or a stale button pressed again). ``params["reason"]`` says why an
    ``illegal_action`` or a ``bad_action`` was refused (``bot.services.step.illegal_move``),
    with its data (``card``, ``kind``, ``contract``…) and the table's ``game``.
    """


class InvalidRequest(ServiceError):
    """The request itself is invalid (unknown game, bad player count or option)."""


class Conflict(ServiceError):
    """The table changed meanwhile (another process, or an out-of-date button); try again."""


class Busy(ServiceError):
    """The bot is too busy to do this now (no database connection came free in time, or the
    expert's queue is full); nothing changed, and trying again shortly works."""


def as_refusal(exc: BaseException) -> ServiceError | None:
    """``exc`` as the refusal a user should read, or None for an unexpected failure: a
    ``ServiceError`` itself, or a database too busy to answer in time (``Busy``), raised from
    wherever the wait happened (a read, an autocomplete, a table's lock)."""
    if isinstance(exc, ServiceError):
        return exc
    if isinstance(exc, PoolTimeout):
        return Busy("database_busy")
    return None
