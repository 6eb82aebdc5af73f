"""Computer players: ``choose_action`` dispatches by level (pure, stdlib only).

Two levels (``bot.ai.expert.LEVELS``): ``casual`` is a game's rule policy,
``bot/ai/<game_id>.py``'s ``choose(view, rng)``, found by name (games without one fall back to
``random_policy``); ``expert`` is the determinized search of ``bot.ai.expert``. The casual
policies live in ``bot.ai.policies``, which the search uses too, so that ``bot.ai.expert``
never imports this package back (no import circles); their names are exported here as well.
"""

from __future__ import annotations

import random

from bot.ai.policies import Policy, policy_for, random_policy
from bot.engine.actions import Action
from bot.engine.rules import Rules
from bot.engine.views import SeatView

__all__ = ["Policy", "choose_action", "policy_for", "random_policy"]


def choose_action(
    rules: Rules, view: SeatView, rng: random.Random, level: str = "casual"
) -> Action:
    """The computer's action for ``view`` under ``rules`` at ``level``; always legal.

    Deterministic for a given ``rng`` state at every level.
    """
    if not view.legal:
        raise ValueError(f"seat {view.seat} has nothing to decide")
    if level == "expert":
        from bot.ai.expert import choose_expert

        return choose_expert(rules, view, rng)
    if level != "casual":
        raise ValueError(f"unknown level {level!r}")
    return policy_for(rules.game_id)(view, rng)
