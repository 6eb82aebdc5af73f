"""Computer players: ``choose_action`` dispatches to each game's policy (pure, stdlib only)."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.ai import la_morte
from bot.engine.actions import Action
from bot.engine.rules import Rules
from bot.engine.views import SeatView

Policy = Callable[[SeatView, random.Random], Action]

POLICIES: dict[str, Policy] = {
    "la_morte": la_morte.choose,
}


def random_policy(view: SeatView, rng: random.Random) -> Action:
    """Uniformly random legal action (the fallback, and the baseline in tests)."""
    return view.legal[rng.randrange(len(view.legal))]


def choose_action(rules: Rules, view: SeatView, rng: random.Random) -> Action:
    """The computer's action for ``view`` under ``rules``; always one of ``view.legal``."""
    if not view.legal:
        raise ValueError(f"seat {view.seat} has nothing to decide")
    policy = POLICIES.get(rules.game_id, random_policy)
    return policy(view, rng)
