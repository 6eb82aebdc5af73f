"""Rule errors raised by the engine; their messages are safe to show to players."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(EngineError):
    """An action was rejected; the state it was applied to is unchanged.

    Attributes:
        code: one of ``deal_over``, ``bad_action``, ``not_your_turn``, ``illegal_action``
            (the scenario runner's error codes).
        detail: a short human sentence explaining why.
    """

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
