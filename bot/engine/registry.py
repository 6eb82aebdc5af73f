"""Registry of the games the engine knows, by game id.

A game is implemented when ``bot/engine/games/<game_id>.py`` exists and defines ``RULES``
(its ``Rules`` instance). Nothing else needs editing to add a game: the bot's cogs, renderers
and computer players are found the same way under their own packages.
"""

from __future__ import annotations

import importlib
from functools import cache

from bot.engine.rules import Rules

GAME_IDS: tuple[str, ...] = (
    "la_morte",
    "early_french_tarot",
    "french_tarot",
    "losers_game",
    "queen_of_tarot",
)


def optional_module(name: str) -> object | None:
    """Import ``name`` if that module exists; errors inside an existing module propagate."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name == name:
            return None
        raise


@cache
def _all() -> dict[str, Rules]:
    # Imported lazily: game modules import the engine core, which imports this module.
    found: dict[str, Rules] = {}
    for game_id in GAME_IDS:
        module = optional_module(f"bot.engine.games.{game_id}")
        rules = getattr(module, "RULES", None)
        if isinstance(rules, Rules):
            found[game_id] = rules
    return found


def get_rules(game_id: str) -> Rules:
    """Rules object for ``game_id``; raises ``KeyError`` for a game not implemented."""
    return _all()[game_id]


def implemented() -> tuple[str, ...]:
    """Ids of the games that can be played today."""
    return tuple(g for g in GAME_IDS if g in _all())
