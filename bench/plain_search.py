"""A plain determinized Monte-Carlo player: the baseline the expert is measured against.

Issue 33's reference opponent, and deliberately *not* the product's expert: for a card play it
draws ``WORLDS_MIN``–``WORLDS_MAX`` worlds of the unseen cards (``Rules.sample_world``, drawn
uniformly), plays every candidate card out in every world with the casual policies in all seats
(the expert's rollouts, ``bot.ai.expert.rollout``), and plays the card with the best mean
score; ties go to the casual card. Every other decision (bids, calls, discards, poignées,
declarations, bargaining) is the casual policy's. The candidate cards are the expert's
(``card_candidates``: interchangeable cards searched once, at most ten) — without that merge the
first tricks of French Tarot cost 1.5 s a decision (p95) at 16 worlds, over the
issue's 0.5 s. No inference about the other hands, no halving, no margin: "sampled worlds,
rule-policy rollouts" and nothing else.

Deterministic for an ``rng`` state, with a work budget (not a clock): as many worlds as
``BUDGET`` rollout decisions pay for, within the bounds, so a decision stays ≤ 0.5 s on one
core of the development machine (``bench/duplicate_match.py`` reports its CPU time per
decision when it is the hero).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.ai.expert.candidates import card_candidates
from bot.ai.expert.rollout import rollout_policy
from bot.ai.expert.search import Stepper, public_form, rollout
from bot.ai.policies import policy_for
from bot.engine.actions import Action
from bot.engine.errors import IllegalAction
from bot.engine.rules import Rules
from bot.engine.views import SeatView

#: Worlds per card play: the issue's 16–32.
WORLDS_MIN = 16
WORLDS_MAX = 32
#: Rollout decisions a card play may spend (legal cards × cards left to play × worlds).
BUDGET = 4000

Policy = Callable[[SeatView, random.Random], Action]


def worlds_for(legal: int, left: int) -> int:
    """Worlds searched for ``legal`` cards with about ``left`` decisions left in the deal."""
    return max(WORLDS_MIN, min(WORLDS_MAX, BUDGET // max(1, legal * left)))


def plain_policy(rules: Rules) -> Policy:
    """The plain search as a ``(view, rng) -> Action`` policy for ``rules``' game."""
    casual = policy_for(rules.game_id)
    roll = rollout_policy(rules.game_id)
    step = Stepper(rules)

    def choose(view: SeatView, rng: random.Random) -> Action:
        seed = rng.getrandbits(62)
        base = casual(view, random.Random(seed ^ 0x5A5A))
        legal = [a for a in view.legal if a.type == "play"]
        if base.type != "play" or len(legal) < 2:
            return base
        plays = card_candidates(rules.game_id, view, legal, base)
        # every hand holds about as many cards as the seat's: the decisions left in the deal
        n = worlds_for(len(plays), len(view.hand) * view.public.players)
        totals = dict.fromkeys(plays, 0.0)
        counts = dict.fromkeys(plays, 0)
        for w in range(n):
            world_seed = seed * 1_000_003 + w * 7_919
            try:
                world = rules.sample_world(view, random.Random(world_seed))
            except (ValueError, IllegalAction):
                continue
            for action in plays:
                try:
                    state = rules.apply(world, action)[0]
                except IllegalAction:
                    continue
                history = [*view.public.history, public_form(action)]
                value, _ = rollout(
                    rules, step, state, view.seat, roll, random.Random(world_seed + 1), history
                )
                totals[action] += value
                counts[action] += 1
        if not any(counts.values()):
            return base

        def mean(a: Action) -> float:
            return totals[a] / counts[a] if counts[a] else float("-inf")

        best = max(plays, key=mean)
        return base if base in totals and mean(base) >= mean(best) else best

    return choose
