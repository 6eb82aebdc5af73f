"""Rollout policies: how every seat plays a sampled world out to the end of the deal.

The casual policies, except where a casual decision is itself a search (Loser's Game bids
simulate hands): there a cheap stand-in (``choose_fast``) keeps a rollout to one pass.
"""

from __future__ import annotations

from functools import cache

from bot.ai.expert.search import Policy
from bot.ai.policies import policy_for
from bot.engine.registry import optional_module


@cache
def rollout_policy(game_id: str) -> Policy:
    """The game's fast policy (``choose_fast``), else its casual one."""
    module = optional_module(f"bot.ai.{game_id}")
    fast = getattr(module, "choose_fast", None)
    return fast if callable(fast) else policy_for(game_id)  # type: ignore[return-value]
