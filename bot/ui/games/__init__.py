"""Each game's look (``bot/ui/games/<game_id>.py``), and which module draws which game.

A game's module is found by name (``renderer``), never imported here, so every room of
``bot/ui`` may ask for a game's title or words without importing any game's module.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType

from bot.engine.registry import get_rules, optional_module
from bot.i18n import _


@cache
def renderer(game_id: str) -> ModuleType:
    """Module with ``TITLE``, ``GROUP`` (slash group), ``BUTTON_LABELS``, ``option_lines``,
    ``table_embed``, ``turn_content``, ``hand_embed``, ``deal_summary_embed`` and
    ``rules_embed``; optionally ``decision_view(table_id, view)`` to replace the default
    controls and ``confirmation(payload)`` for the reply to a typed command."""
    module = optional_module(f"bot.ui.games.{game_id}")
    if not isinstance(module, ModuleType):
        raise KeyError(game_id)
    return module


def game_title(game_id: str) -> str:
    """The game's name in the current language (its renderer's ``TITLE``, a catalog message;
    the engine's own title for a game without a renderer)."""
    try:
        return _(renderer(game_id).TITLE)
    except KeyError:
        return _(get_rules(game_id).title)
