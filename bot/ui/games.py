"""Which renderer draws which game (one module per game under ``bot/ui``)."""

from __future__ import annotations

from types import ModuleType

from bot.ui import la_morte

_RENDERERS: dict[str, ModuleType] = {"la_morte": la_morte}


def renderer(game_id: str) -> ModuleType:
    """Module with ``TITLE``, ``BUTTON_LABELS``, ``option_lines``, ``table_embed``,
    ``turn_content``, ``hand_embed``, ``deal_summary_embed`` and ``rules_embed``."""
    return _RENDERERS[game_id]
