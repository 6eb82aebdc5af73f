"""Computer players: ``choose_action`` dispatches by level (pure, stdlib only).

Two levels (``bot.ai.expert.LEVELS``): ``casual`` is a game's rule policy,
``bot/ai/<game_id>.py``'s ``choose(view, rng)``, found by name (games without one fall back to
``random_policy``); ``expert`` is the determinized search of ``bot.ai.expert``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from bot.engine.actions import Action
from bot.engine.registry import get_rules, optional_module
from bot.engine.rules import Rules
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
