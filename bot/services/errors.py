"""Domain errors of the service layer. Every message is safe to show a user (ephemerally)."""

from __future__ import annotations


class ServiceError(Exception):
    """A request was refused; nothing changed. ``str(err)`` is the user-facing sentence."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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

    Attributes:
        code: the engine's code (``not_your_turn``, ``illegal_action``, ``bad_action``,
            ``deal_over``), or ``already_played`` for a repeat of the seat's own latest
            decision (a double click, or a stale button pressed again).
    """

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class InvalidRequest(ServiceError):
    """The request itself is invalid (unknown game, bad player count or option)."""


class Conflict(ServiceError):
    """The table changed meanwhile (another process, or an out-of-date button); try again."""
