"""Invariants over many seeded random Loser's Game hands (design/TESTING.md, layer 1).

For every player count 2–6, ``DEALS`` hands are played from random totals (so every seat gets
to name trump), alternately by uniformly random legal actions and by the computer's card play
with random bids. At every step: card conservation (hands, the trick, the played tricks and
the face-up excess hold the 52 cards once each), no card still in a hand in the public view or
the events, and no trick pile shown before the hand ends (D-9). At the end: the points taken
and each seat's change equal an independent reading of the spec (the model in
``losers_game_scenarios``), and replaying the recorded actions reproduces the state. One hand
in ``HEAVY_EVERY`` also checks, at every step, the JSON round trip, illegal probes (rejected,
state unchanged) and every seat's view.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.ai import losers_game as policy
from bot.ai import random_policy
from bot.engine import codec
from bot.engine.actions import Action
from bot.engine.deck import shuffle
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games.losers_game import RULES, LosersGameState, Phase
from bot.engine.games.losers_game_scoring import PACK
from bot.engine.views import SeatView
from tests.depth import deals
from tests.engine import losers_game_scenarios as model
from tests.engine.test_early_french_tarot_properties import strings

DEALS = deals(400)
HEAVY_EVERY = 25
SORTED_PACK = sorted(PACK)


def conserved(s: LosersGameState) -> bool:
    cards = [c for h in s.hands for c in h] + [c for _, c in s.trick]
    cards += [c for t in s.tricks for _, c in t] + list(s.excess)
    return sorted(cards) == SORTED_PACK


def hidden(s: LosersGameState) -> set[str]:
    return {c for h in s.hands for c in h}


def check_public(s: LosersGameState, events: tuple[Event, ...]) -> None:
    secret = hidden(s)
    pv = RULES.observe_public(s)
    shown = {c for _, c in pv.trick + pv.last_trick} | set(pv.info["excess"])
    assert not shown & secret
    assert (pv.info["piles"] is None) == (s.phase is not Phase.SCORED)  # D-9
    for e in events:
        named = set(e.data.get("cards", ())) | {e.data.get("card")}
        assert not named & secret, f"{e} names a hidden card"


def check_heavy(s: LosersGameState, rng: random.Random) -> None:
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
        Action("play", t, card=rng.choice(PACK)),
        Action("play", t, card=rng.choice(s.hands[t])),
        Action("bid", t, amount=s.b_max + 1),
        Action("bid", t, amount=-1),
        Action("trump", t, suit="N"),
        Action("play", other, card=s.hands[other][0] if s.hands[other] else "S2"),
    ]
    for bad in probes:
        if bad in legal:
            continue
        with pytest.raises(IllegalAction):
            RULES.apply(s, bad)


def smart_play(view: SeatView, rng: random.Random) -> Action:
    """The computer's trump choice and card play, with a random bid (rollouts are slow)."""
    if view.legal[0].type == "bid":
        return random_policy(view, rng)
    return policy.choose(view, rng)


def play_deal(players: int, seed: int) -> None:
    rng = random.Random(seed)
    deck = shuffle(PACK, seed)
    dealer = seed % players
    totals = [rng.randrange(-30, 50) for _ in range(players)]
    s = RULES.new_deal(players, {"totals": totals}, deck, dealer)
    assert s.caller == model.caller_of(totals, dealer)
    heavy = seed % HEAVY_EVERY == 0
    choose = smart_play if seed % 2 == 0 else random_policy
    actions: list[Action] = []
    while s.turn is not None:
        assert conserved(s)
        if heavy:
            check_heavy(s, rng)
        view = RULES.observe(s, s.turn)
        action = choose(view, rng)
        s, events = RULES.apply(s, action)
        actions.append(action)
        check_public(s, events)
    assert conserved(s)
    res = RULES.result(s)
    assert res is not None and res.outcome == "played"
    # The model replays the hand from the deck and the actions alone.
    hand = model.Hand(players, dealer, list(deck), totals)
    assert hand.caller == s.caller and hand.excess == list(s.excess)
    hand.name_trump(actions[0].suit or "")
    hand.bid_all([a.amount or 0 for a in sorted(actions[1 : players + 1], key=lambda a: a.seat)])
    assert s.b_max == model.bound(hand.trump, hand.excess)
    for a in actions[players + 1 :]:
        hand.play(a.card or "")
    assert hand.over and len(s.tricks) == model.cards_each(players)
    assert res.detail["points"] == hand.points()
    assert list(res.deltas) == hand.deltas()
    assert all(abs(d) == b for d, b in zip(res.deltas, res.detail["bids"], strict=True))
    r = RULES.new_deal(players, {"totals": totals}, deck, dealer)
    for a in actions:
        r, _ = RULES.apply(r, a)
    assert r == s


@pytest.mark.heavy
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_hands_keep_every_invariant(players: int) -> None:
    for seed in range(DEALS):
        play_deal(players, seed)
