"""Invariants over many seeded random Early French Tarot hands (design/TESTING.md, layer 1).

For every player count 2–6, ``DEALS`` hands are played, alternately by uniformly random legal
cards and by the computer policy. At every step: card conservation (hands, trick, piles and
set-aside cards hold the 78 cards once each) and no hidden card (hands, set-aside) in the
public view or the events. At the end: the cards taken add up to 12N, piles and scores equal
an independent reading of the spec (``early_french_tarot_model``), and replaying the recorded
actions reproduces the state. One hand in ``HEAVY_EVERY`` also checks, at every step, the JSON
round trip, illegal probes (rejected, state unchanged) and every seat's view.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.ai import early_french_tarot as policy
from bot.ai import random_policy
from bot.engine import codec
from bot.engine.actions import Action
from bot.engine.cards import TAROT_PACK
from bot.engine.deck import shuffle
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games.early_french_tarot import RULES, EarlyFrenchTarotState
from tests.depth import deals
from tests.engine import early_french_tarot_model as model

DEALS = deals(400)
HEAVY_EVERY = 25
PACK = sorted(TAROT_PACK)


def strings(obj: Any) -> set[str]:
    """Every string inside a JSON value."""
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(strings(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list | tuple):
        return set().union(*(strings(v) for v in obj)) if obj else set()
    return set()


def conserved(s: EarlyFrenchTarotState) -> bool:
    cards = [c for h in s.hands for c in h] + [c for _, c in s.trick]
    cards += [c for p in s.piles for c in p] + list(s.set_aside)
    return sorted(cards) == PACK


def hidden(s: EarlyFrenchTarotState) -> set[str]:
    return {c for h in s.hands for c in h} | set(s.set_aside)


def check_public(s: EarlyFrenchTarotState, events: tuple[Event, ...]) -> None:
    secret = hidden(s)
    pv = RULES.observe_public(s)
    shown = {c for _, c in pv.trick + pv.last_trick}
    shown |= {c for cards in pv.info["honours"] for c in cards}
    shown |= {x[2] for x in pv.info["exchanges"]}
    assert not shown & secret
    for e in events:
        named = set(e.data.get("cards", ())) | {e.data.get("card")}
        assert not named & secret, f"{e} names a hidden card"


def check_heavy(s: EarlyFrenchTarotState, rng: random.Random) -> None:
    assert codec.decode_state(RULES, json.loads(json.dumps(codec.encode_state(s)))) == s
    pv = RULES.observe_public(s)
    assert not strings(json.loads(json.dumps(pv.to_json()))) & hidden(s)
    for seat in range(s.players):
        view = RULES.observe(s, seat)
        assert sorted(view.hand) == sorted(s.hands[seat]) and view.public == pv
        assert bool(view.legal) == (seat == s.turn)
    t = s.turn
    assert t is not None
    legal = set(RULES.legal_actions(s))
    other = (t + 1) % s.players
    probes = [
        Action("play", t, card=rng.choice(TAROT_PACK)),
        Action("play", t, card=rng.choice(s.hands[t])),
        Action("bid", t, amount=1),
        Action("play", other, card=s.hands[other][0] if s.hands[other] else "S1"),
    ]
    for bad in probes:
        if bad in legal:
            continue
        with pytest.raises(IllegalAction):
            RULES.apply(s, bad)


def play_deal(players: int, seed: int) -> None:
    rng = random.Random(seed)
    deck = shuffle(TAROT_PACK, seed)
    dealer = seed % players
    options = {"every_card_scores": seed % 4 == 1}
    s = RULES.new_deal(players, options, deck, dealer)
    heavy = seed % HEAVY_EVERY == 0
    smart = seed % 2 == 0
    actions: list[Action] = []
    while s.turn is not None:
        assert conserved(s)
        if heavy:
            check_heavy(s, rng)
        view = RULES.observe(s, s.turn)
        action = policy.choose(view, rng) if smart else random_policy(view, rng)
        s, events = RULES.apply(s, action)
        actions.append(action)
        check_public(s, events)
    assert conserved(s)
    res = RULES.result(s)
    assert res is not None and res.outcome == "played"
    plays = [(a.seat, a.card or "") for a in actions]
    assert len(plays) == 12 * players
    assert sum(res.detail["cards"]) == 12 * players  # §5.1 check
    assert [sorted(p) for p in s.piles] == [sorted(p) for p in model.piles(players, plays)]
    assert list(res.deltas) == model.scores(players, plays, options["every_card_scores"])
    assert min(res.deltas) >= 0
    r = RULES.new_deal(players, options, deck, dealer)
    for a in actions:
        r, _ = RULES.apply(r, a)
    assert r == s


@pytest.mark.heavy
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_hands_keep_every_invariant(players: int) -> None:
    for seed in range(DEALS):
        play_deal(players, seed)
