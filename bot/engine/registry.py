"""Registry of the games the engine knows, by game id."""

from __future__ import annotations

from functools import cache

from bot.engine.rules import Rules

GAME_IDS: tuple[str, ...] = (
    "la_morte",
    "early_french_tarot",
    "french_tarot",
    "losers_game",
    "queen_of_tarot",
)


@cache
def _all() -> dict[str, Rules]:
    # Imported lazily: game modules import the engine core, which imports this module.
    from bot.engine.games.la_morte import LaMorteRules

    rules: list[Rules] = [LaMorteRules()]
    return {r.game_id: r for r in rules}


def get_rules(game_id: str) -> Rules:
    """Rules object for ``game_id``; raises ``KeyError`` for a game not implemented."""
    return _all()[game_id]


def implemented() -> tuple[str, ...]:
    """Ids of the games that can be played today."""
    return tuple(g for g in GAME_IDS if g in _all())
