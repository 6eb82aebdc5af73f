"""Queen of Tarot's fast rollouts (``bot.ai.queen_of_tarot_rollout``): the same deal as
through the views.

The search's rollouts play Queen of Tarot's card play on the bare state rather than through a
``SeatView`` per card. That is only a speed-up if every card is the one the casual policy plays
from a view: here rollouts from real positions of seeded deals (every phase, mid-trick
included, and the cards the public history shows) must give the same score and the same work
units both ways.
"""

from __future__ import annotations

import random

from bot.ai import queen_of_tarot
from bot.ai.expert.search import Stepper, fast_play_out, public_form, rollout
from bot.ai.queen_of_tarot import choose
from bot.ai.queen_of_tarot_rollout import Facts, play_out
from bot.engine.actions import Action
from bot.engine.deck import deal_seed, shuffle
from bot.engine.registry import get_rules
from bot.engine.views import SeatView

RULES = get_rules("queen_of_tarot")


def _through_views(view: SeatView, rng: random.Random) -> Action:
    """The casual policy under another name: ``rollout`` then builds a view for every card."""
    return choose(view, rng)


def test_fast_rollouts_play_the_same_deal_as_through_the_views() -> None:
    step = Stepper(RULES)
    compared = 0
    phases: set[str] = set()
    for index in range(3):
        deal = deal_seed(11, index)
        deck = shuffle(RULES.pack(3), deal)
        state = RULES.new_deal(3, RULES.normalize_options(None), deck, index % 3)
        rng = random.Random(deal)
        k = 0
        while (seat := RULES.to_act(state)) is not None:
            view = RULES.observe(state, seat)
            action = choose(view, rng)
            k += 1
            if k % 5 == 0 or view.public.phase != "play":
                world = RULES.sample_world(view, random.Random(k))
                for candidate in dict.fromkeys([action, *view.legal[:2]]):
                    if candidate.type in RULES.multi_card_types:
                        continue  # a discard template: the casual discard stands for it
                    after = RULES.apply(world, candidate)[0]
                    history = [*view.public.history, public_form(candidate)]
                    fast = rollout(RULES, step, after, seat, choose, random.Random(1), [*history])
                    slow = rollout(
                        RULES, step, after, seat, _through_views, random.Random(1), [*history]
                    )
                    assert fast == slow, (index, k, candidate)
                    compared += 1
                    phases.add(view.public.phase)
            state = RULES.apply(state, action)[0]
    assert compared > 40
    assert {"bargain", "play"} <= phases


def test_facts_read_the_history_as_the_casual_play_does() -> None:
    """Seats without trumps and unbeatable trumps, at every card of seeded deals (some cards
    played at random, so that seats show voids the casual play would not)."""
    checked = voids = 0
    for index in range(12):
        deal = deal_seed(13, index)
        deck = shuffle(RULES.pack(3), deal)
        state = RULES.new_deal(3, RULES.normalize_options(None), deck, index % 3)
        rng = random.Random(deal)
        history: list[Action] = []
        while (seat := RULES.to_act(state)) is not None:
            view = RULES.observe(state, seat)
            action = choose(view, rng)
            if view.public.phase == "play":
                assert list(view.public.history) == history  # the history the rollouts extend
                facts = Facts(history)
                assert facts.void == queen_of_tarot._trumpless(view)  # pyright: ignore[reportPrivateUsage]
                voids += len(facts.void)
                for card in view.hand:
                    fast = facts.unbeatable(seat, state.hands[seat], view.public.trick, card)
                    slow = queen_of_tarot._unbeatable(view, card)  # pyright: ignore[reportPrivateUsage]
                    assert fast == slow, (index, seat, card)
                    checked += 1
                if rng.random() < 0.3:
                    action = view.legal[rng.randrange(len(view.legal))]
            history.append(public_form(action))
            state = RULES.apply(state, action)[0]
    assert checked > 1000 and voids > 20


def test_play_out_only_takes_over_the_card_play() -> None:
    deck = shuffle(RULES.pack(3), deal_seed(11, 5))
    state = RULES.new_deal(3, RULES.normalize_options(None), deck, 0)
    assert play_out(state, []) is None  # bargaining: the views go on
    assert fast_play_out("queen_of_tarot") is play_out
    assert fast_play_out("french_tarot") is None
