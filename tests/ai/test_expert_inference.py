"""The expert's inference (issue 33): sampled worlds weighed by how likely the other seats'
public choices were, and a search whose means and paired test follow those weights."""

from __future__ import annotations

import importlib
import random

from bot.ai import policy_for
from bot.ai.expert.inference import bid_likelihood, world_weight
from bot.ai.french_tarot import THRESHOLDS
from bot.engine.actions import Action
from bot.engine.deck import deal_seed, shuffle
from bot.engine.registry import get_rules
from bot.engine.views import SeatView

search_module = importlib.import_module("bot.ai.expert.search")
Tally = search_module.Tally

PRISE, GARDE = 0, 1


def test_a_pass_makes_a_strong_hand_unlikely_and_a_bid_a_weak_one() -> None:
    t = THRESHOLDS[4]
    # a pass with nothing bid before: likely on a weak count, unlikely on a Garde count
    assert bid_likelihood(15, -1, -1, t) > 0.95 > 0.1 > bid_likelihood(45, -1, -1, t)
    # a Garde: unlikely below the Prise threshold, likely between Garde and Garde sans
    assert bid_likelihood(20, -1, GARDE, t) < 0.05 < 0.5 < bid_likelihood(42, -1, GARDE, t)
    # after a Garde, a pass only says the hand is not worth a Garde sans
    assert bid_likelihood(40, GARDE, -1, t) > 0.85 > bid_likelihood(40, -1, -1, t)


def _defenders_first_card(seed: int) -> tuple[SeatView, object]:
    """A French Tarot deal (4 players) bid and discarded by the casual policies, up to the
    first card a defender plays: that defender's view and the real deal."""
    rules = get_rules("french_tarot")
    policy = policy_for("french_tarot")
    state = rules.new_deal(4, rules.normalize_options(None), shuffle(rules.pack(4), seed), 0)
    rng = random.Random(seed)
    while (seat := rules.to_act(state)) is not None:
        view = rules.observe(state, seat)
        taker = view.public.info.get("taker")
        if view.public.phase == "play" and seat != taker:
            return view, state
        state, _ = rules.apply(state, policy(view, rng))
    raise AssertionError("no card play in this deal")


def test_the_real_deal_weighs_more_than_the_worlds_drawn_uniformly() -> None:
    # Deal 4 of seed 1: the first to speak bid a Garde, the others passed; seat 2, a defender,
    # sees only its own hand. Uniform worlds mostly give the taker an ordinary hand; the bid
    # says otherwise, so the real deal weighs many times the worlds' average (about 15×).
    rules = get_rules("french_tarot")
    view, real = _defenders_first_card(deal_seed(1, 4))
    bids = [a for a in view.public.history if a.type == "bid"]
    assert [a.contract for a in bids].count("garde") == 1
    weigh = world_weight(rules, view)
    assert weigh is not None
    weights = [weigh(rules.sample_world(view, random.Random(k))) for k in range(60)]
    assert weigh(real) > 5 * sum(weights) / len(weights)


def test_no_weighing_without_a_bid_or_a_model() -> None:
    view, _ = _defenders_first_card(deal_seed(1, 4))
    assert world_weight(get_rules("la_morte"), view) is None


def test_weighted_means_and_paired_test() -> None:
    a, b = Action("play", 0, card="T2"), Action("play", 0, card="T3")
    best, base = Tally(a), Tally(b)
    # four worlds; the candidate gains 10 in the two likely worlds and loses 30 in two
    # unlikely ones: ahead when weighed, behind when counted alike
    weights = {1: 1.0, 2: 1.0, 3: 0.01, 4: 0.01}
    for w, gain in ((1, 10.0), (2, 10.5), (3, -30.0), (4, -30.0)):
        base.values[w] = 0.0
        best.values[w] = gain
        for tally, value in ((best, gain), (base, 0.0)):
            tally.total += weights[w] * value
            tally.weight += weights[w]
            tally.samples += 1
    assert best.mean > base.mean == 0.0
    beats = search_module._beats  # pyright: ignore[reportPrivateUsage]
    assert beats(best, base, 1.0, weights)
    assert not beats(best, base, 1.0, dict.fromkeys(weights, 1.0))
