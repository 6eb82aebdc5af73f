"""The casual level of the computer players: each game's rule policy, found by name.

``policy_for(game_id)`` is ``bot/ai/<game_id>.py``'s ``choose(view, rng)``, or
``random_policy`` for a game without one. ``bot.ai.choose_action`` uses it for the casual level
and the expert search (``bot.ai.expert``) for its rollouts; it lives in this module rather than
in ``bot/ai/__init__.py`` because ``bot.ai`` imports ``bot.ai.expert``, which would otherwise
import ``bot.ai`` back (ARCHITECTURE §5, no import circles).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from bot.engine.actions import Action
from bot.engine.registry import get_rules, optional_module
from bot.engine.views import SeatView

Policy = Callable[[SeatView, random.Random], Action]


def random_policy(view: SeatView, rng: random.Random) -> Action:
    """Uniformly random legal action (the fallback, and the baseline in tests).

    Multi-card choices (discards, poignées) are listed as one template each; a random
    template is completed by the game's ``Rules.random_choice``.
    """
    action = view.legal[rng.randrange(len(view.legal))]
    rules = get_rules(view.public.game_id)
    if action.type in rules.multi_card_types:
        return rules.random_choice(view, action, rng)
    return action


@cache
def policy_for(game_id: str) -> Policy:
    """The game's own policy, or ``random_policy``."""
    module = optional_module(f"bot.ai.{game_id}")
    choose = getattr(module, "choose", None)
    return choose if callable(choose) else random_policy  # type: ignore[return-value]
