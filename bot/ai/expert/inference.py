"""Inference: how likely a sampled world is, given what the other players did in public.

``Rules.sample_world`` deals the unseen cards uniformly among the deals the rules allow (voids
shown, cards declared, the discard's rules). What the others *chose* says more: in French
Tarot a seat that passed rarely holds many trumps and bouts, and a Garde is not bid on a thin
hand. A world's weight is the likelihood of every other seat's bid under a model of bidding —
the casual bidder's point count (``bot.ai.french_tarot.hand_strength``) against its thresholds,
softened (``SOFTNESS``) so that a human who bids a little above or below the count, or a hand
the count misjudges, is made less likely rather than impossible. The search weighs each world's
rollout values by it (importance weighting over the same worlds: no extra draws).

``world_weight(rules, view)`` returns the weighing function for a decision, or ``None`` when
there is nothing to infer (no model for the game, or no other seat has bid).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from bot.ai.french_tarot import THRESHOLDS, hand_strength
from bot.engine.games.french_tarot_cards import CONTRACTS, DOG_TAKEN
from bot.engine.rules import Rules
from bot.engine.views import SeatView

Weigh = Callable[[Any], float]

#: Points of the bidding count over which a bid goes from unlikely to likely (the logistic's
#: scale): a trump is 2 points, a bout 9–10, the gap between Prise and Garde 3–5.
SOFTNESS = 4.0


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x > -30 else 0.0


def bid_likelihood(
    strength: float, level: int, contract: int, thresholds: Sequence[float]
) -> float:
    """Likelihood of a bid (``contract``: index in ``CONTRACTS``, -1 for a pass) made when the
    highest bid so far was ``level`` (-1: none), by a hand with this count.

    The casual bidder bids the highest contract its count reaches, and passes when that is
    not above the bid to beat: a pass says the count is under the next contract's threshold;
    a bid says it reached that contract's threshold and not the one above."""
    top = len(thresholds)
    if contract < 0:
        nxt = level + 1
        return _sigmoid((thresholds[nxt] - strength) / SOFTNESS) if nxt < top else 1.0
    p = _sigmoid((strength - thresholds[contract]) / SOFTNESS)
    if contract + 1 < top:
        p *= _sigmoid((thresholds[contract + 1] - strength) / SOFTNESS)
    return p


def _french_tarot(view: SeatView) -> Weigh | None:
    pub = view.public
    players = pub.players
    thresholds = THRESHOLDS.get(players, THRESHOLDS[4])
    bids: list[tuple[int, int, int]] = []  # (seat, level before, contract index or -1)
    level = -1
    for a in pub.history:
        if a.type != "bid":
            continue
        c = CONTRACTS.index(a.contract) if a.contract in CONTRACTS else -1
        if a.seat != view.seat:
            bids.append((a.seat, level, c))
        level = max(level, c)
    if not bids:
        return None
    played: dict[int, list[str]] = {}
    for a in pub.history:
        if a.type == "play" and a.card is not None:
            played.setdefault(a.seat, []).append(a.card)

    def weigh(world: Any) -> float:
        r = world.record()
        w = 1.0
        for seat, before, contract in bids:
            hand = [*r.hands[seat], *played.get(seat, ())]
            if seat == r.taker and r.contract in DOG_TAKEN and r.phase.value not in _BEFORE:
                hand += r.discard  # the dealt hand: the discard back, the dog out
                for c in r.dog:
                    if c in hand:
                        hand.remove(c)
            w *= bid_likelihood(hand_strength(hand, players), before, contract, thresholds)
        return w

    return weigh


_BEFORE = frozenset({"bidding", "call"})

_MODELS: dict[str, Callable[[SeatView], Weigh | None]] = {"french_tarot": _french_tarot}


def world_weight(rules: Rules, view: SeatView) -> Weigh | None:
    """The likelihood of a sampled world under the model of ``rules``' game, or ``None``."""
    model = _MODELS.get(rules.game_id)
    return model(view) if model is not None else None


__all__ = ["SOFTNESS", "bid_likelihood", "world_weight"]
