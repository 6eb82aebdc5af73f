"""Which renderer draws which game: ``bot/ui/<game_id>.py``, found by name."""

from __future__ import annotations

from functools import cache
from types import ModuleType

from bot.engine.registry import optional_module


@cache
def renderer(game_id: str) -> ModuleType:
    """Module with ``TITLE``, ``GROUP`` (slash group), ``BUTTON_LABELS``, ``option_lines``,
    ``table_embed``, ``turn_content``, ``hand_embed``, ``deal_summary_embed`` and
    ``rules_embed``; optionally ``decision_view(table_id, view)`` to replace the default
    controls and ``confirmation(payload)`` for the reply to a typed command."""
    module = optional_module(f"bot.ui.{game_id}")
    if not isinstance(module, ModuleType):
        raise KeyError(game_id)
    return module
