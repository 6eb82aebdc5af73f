"""Exact play of the last tricks in a sampled world (issue 33: "exact solving of the last
tricks where it fits the budget").

A rollout plays the end of a deal with the casual policies; once few cards are left, the
search can instead play the rest perfectly for both camps in that world — alpha-beta over
the engine's own moves, each seat playing for its camp. It replaces the rollout's ending
only where the camps are fixed and opposed, so that "the best for my camp" is well defined:
French Tarot, where the taker (and the partner at five) play against the defence and every
seat of a camp scores alike (``shared/rules/french_tarot.md`` §6). Each node costs one work
unit, like a rollout decision, so the budget (and the determinism for a ``rng`` state) holds.

As every determinized search, solving a world with its hidden cards known is optimistic
(strategy fusion); kept to the last ``TRICKS`` tricks, where few hidden cards remain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine.rules import Rules

#: Tricks left (the one in progress included) from which a world's end is played exactly,
#: per game and player count; and the node cap past which a solve gives up (the rollout
#: finishes instead), so one world never eats the decision's budget.
TRICKS: dict[str, dict[int, int]] = {"french_tarot": {3: 2, 4: 3, 5: 3}}
MAX_NODES = 1500

#: ``finish(state, seat)`` -> (the seat's score, or ``None``: not solved; nodes spent)
Finish = Callable[[Any, int], tuple[float | None, int]]


class _TooBig(Exception):
    pass


def exact_finish(rules: Rules) -> Finish | None:
    """``finish(state, seat)``: the seat's score with perfect play of the rest of ``state``
    (``None`` when the end is not near enough, or the solve passed ``MAX_NODES``) and the
    nodes searched; ``None`` instead of a function for a game without exact endings."""
    depth = TRICKS.get(rules.game_id)
    if depth is None:
        return None
    to_act, legal, result = rules.to_act, rules.legal_actions, rules.result
    apply = getattr(rules, "apply_trusted", None)
    step: Callable[[Any, Any], Any] = (
        (lambda s, a: apply(s, a)[0]) if apply is not None else (lambda s, a: rules.apply(s, a)[0])
    )

    def finish(state: Any, seat: int) -> tuple[float | None, int]:
        first = to_act(state)
        if first is None or state.phase != "play":
            return None, 0
        if len(state.hands[first]) > depth.get(state.players, 0):
            return None, 0
        attack = {state.taker, state.partner} - {None}
        mine = seat in attack
        nodes = 0

        def value(s: Any, alpha: float, beta: float) -> float:
            nonlocal nodes
            t = to_act(s)
            if t is None:
                r = result(s)
                assert r is not None
                return float(r.deltas[seat])
            nodes += 1
            if nodes > MAX_NODES:
                raise _TooBig
            maximize = (t in attack) == mine
            best = float("-inf") if maximize else float("inf")
            for action in legal(s):
                v = value(step(s, action), alpha, beta)
                if maximize:
                    best = max(best, v)
                    alpha = max(alpha, v)
                else:
                    best = min(best, v)
                    beta = min(beta, v)
                if alpha >= beta:
                    break
            return best

        try:
            return value(state, float("-inf"), float("inf")), nodes
        except _TooBig:
            return None, nodes

    return finish
