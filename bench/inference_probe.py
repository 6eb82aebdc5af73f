"""How much a model of the other seats' public choices says about the real deal (issue 33).

Before a duplicate run (an hour of CPU), this asks the cheap question: weighing worlds by a
model's likelihood of what the other seats chose, does the *real* deal weigh more than the
worlds drawn uniformly by ``Rules.sample_world``? For each deal (seeded from ``--seed``, played
by the casual policies up to the first card of the deal), the probe reports the real deal's
weight over the mean weight of ``--worlds`` uniform worlds and the worlds' effective sample
size; over the deals, the geometric mean and the median of that ratio. A model that carries
information puts the ratio above 1 on most deals (French Tarot's bids: 2.6–19×); about 1 means
weighing changes nothing but noise.

    python bench/inference_probe.py --game french_tarot --players 4 --deals 40
    python bench/inference_probe.py --game queen_of_tarot --deals 40 --orders 16 --softness 8

Models: French Tarot is the expert's own (``bot.ai.expert.inference``). Queen of Tarot is a
candidate kept here, not in the expert, because it measured about 1 (see
``bench/results/duplicate_match.md``): each bargaining call of another seat under the casual
bargainer (``bot.ai.queen_of_tarot.bargain``) made soft — a logistic of ``--softness`` points
at each of its thresholds — on the cards the seat held then (10, 15 or 20 of its dealt cards,
in a packet order unknown to the others: averaged over ``--orders`` orders drawn per world).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import queen_of_tarot as qot
from bot.ai.expert.inference import world_weight
from bot.ai.policies import policy_for
from bot.engine.deck import deal_seed, shuffle
from bot.engine.games.queen_of_tarot_bargain import CALLS, CONTINUE, DEMAND, OFFER, PASS, ranges
from bot.engine.registry import get_rules
from bot.engine.rules import Rules
from bot.engine.views import SeatView

Weigh = Callable[[Any], float]


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x > -30 else 0.0


def bargain_likelihood(
    value: float, call: str, amount: int | None, position: int, gap: int, top: int, soft: float
) -> float:
    """Likelihood of a bargaining call by a hand worth ``value`` (``qot.estimate``) from a
    standing ``position`` (0, +demand, −offer) when offers exceeded demands by ``gap``: the
    casual bargainer's decision list, each threshold softened (the call's kind only)."""
    demand_ok, offer_ok = ranges(position, top)

    def legal(r: tuple[int, int] | None, x: int) -> bool:
        return r is not None and r[0] <= x <= r[1]

    odds = dict.fromkeys(CALLS, 0.0)
    rest = 1.0
    if gap > 0 and position == 0 and legal(demand_ok, gap):  # money on the table
        p = _sigmoid((gap - value) / soft)
        if amount == gap:
            odds[DEMAND] += rest * p
        rest *= 1 - p
    p = _sigmoid((value - qot.CONTINUE_AT) / soft)
    odds[CONTINUE] += rest * p
    rest *= 1 - p
    mine = -position if position < 0 else 0
    if -gap > 0 and position <= 0 and legal(offer_ok, mine - gap):  # settle cheaply
        p = _sigmoid((2 * gap - value) / soft)
        odds[OFFER] += rest * p
        rest *= 1 - p
    if position == 0:
        p = _sigmoid((qot.HOPELESS - value) / soft)  # escape a hopeless hand
        odds[OFFER] += rest * p
        rest *= 1 - p
        p = _sigmoid((qot.DEMAND_BELOW - value) / soft)
        odds[DEMAND] += rest * p
        rest *= 1 - p
    odds[PASS] += rest
    return odds[call]


def queen_of_tarot_weight(view: SeatView, orders: int, soft: float) -> Weigh | None:
    """The candidate bargaining model's likelihood of a Queen of Tarot world, or ``None``."""
    pub = view.public
    top: int = pub.info["max_bargain"]
    calls: list[tuple[int, int, str, int | None, int, int]] = []
    session, passes, positions = 1, 0, [0, 0, 0]
    for a in pub.history:  # the sessions replayed (queen_of_tarot §3.1, D-5 to D-7, C-5)
        if a.type not in CALLS:
            continue
        gap = -sum(p for p in positions if p < 0) - sum(p for p in positions if p > 0)
        if a.seat != view.seat:
            calls.append((a.seat, session, a.type, a.amount, positions[a.seat], gap))
        if a.type in (DEMAND, OFFER):
            positions[a.seat] = (a.amount or 0) * (1 if a.type == DEMAND else -1)
            passes = 0
        elif a.type == PASS:
            passes += 1
        if a.type == CONTINUE or passes == 3:
            session, passes, positions = session + 1, 0, [0, 0, 0]
    if not calls:
        return None
    played: dict[int, list[str]] = {}
    for a in pub.history:
        if a.type == "play" and a.card is not None:
            played.setdefault(a.seat, []).append(a.card)
    seats = sorted({c[0] for c in calls})

    def weigh(world: Any) -> float:
        total = 0.0
        for m in range(orders):
            values: dict[tuple[int, int], float] = {}
            for seat in seats:
                dealt = sorted([*world.hands[seat], *played.get(seat, ())])
                if seat == world.dealer:
                    dealt += sorted(world.discard)
                key = zlib.crc32(f"{m}:{','.join(dealt)}".encode())
                order = random.Random(key).sample(dealt, 20)
                for k in (1, 2, 3):
                    values[seat, k] = qot.estimate(order[: 5 * (k + 1)])
            w = 1.0
            for seat, k, call, amount, position, gap in calls:
                w *= bargain_likelihood(values[seat, k], call, amount, position, gap, top, soft)
            total += w
        return total / orders

    return weigh


def first_card(rules: Rules, players: int, index: int, seed: int) -> tuple[SeatView, Any] | None:
    """The deal played by the casual policies up to its first card: that seat's view and
    the real state (``None`` when the deal ends before, e.g. a settled bargain)."""
    policy = policy_for(rules.game_id)
    deal = deal_seed(seed, index)
    state = rules.new_deal(
        players, rules.normalize_options(None), shuffle(rules.pack(players), deal), 0
    )
    rng = random.Random(deal)
    while (seat := rules.to_act(state)) is not None:
        view = rules.observe(state, seat)
        if view.public.phase == "play":
            return view, state
        state, _ = rules.apply(state, policy(view, rng))
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description="Real deal against uniform worlds.")
    parser.add_argument("--game", default="queen_of_tarot")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--orders", type=int, default=16)
    parser.add_argument("--softness", type=float, default=8.0)
    args = parser.parse_args()
    rules = get_rules(args.game)
    ratios: list[float] = []
    for index in range(args.deals):
        found = first_card(rules, args.players, index, args.seed)
        if found is None:
            continue
        view, real = found
        if args.game == "queen_of_tarot":
            weigh = queen_of_tarot_weight(view, args.orders, args.softness)
        else:
            weigh = world_weight(rules, view)
        if weigh is None:
            continue
        weights = [weigh(rules.sample_world(view, random.Random(k))) for k in range(args.worlds)]
        mean = statistics.fmean(weights)
        if mean <= 0:
            continue
        ratio = weigh(real) / mean
        ess = sum(weights) ** 2 / sum(w * w for w in weights)
        ratios.append(ratio)
        print(f"deal {index}: real / uniform {ratio:.2f}, effective worlds {ess:.1f}", flush=True)
    logs = [math.log(max(r, 1e-9)) for r in ratios]
    print(
        f"{args.game} {args.players}p, {len(ratios)} deals: real deal / uniform worlds,"
        f" geometric mean {math.exp(statistics.fmean(logs)):.2f},"
        f" median {statistics.median(ratios):.2f}, above 1 on {sum(r > 1 for r in ratios)}"
    )


if __name__ == "__main__":
    main()
