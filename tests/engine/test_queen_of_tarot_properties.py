"""Invariants over many seeded random Queen of Tarot hands (design/TESTING.md, layer 1).

``DEALS`` hands are played by random legal actions — most with a bargaining policy that
passes and continues often enough to reach the card play, one in ``UNIFORM_EVERY`` with
uniformly random calls (long bargaining, mostly thrown in). At every step: card conservation
(hands, stock, trick and piles hold the 78 cards once each), the staged hand sizes, the
bargaining monotonicity of §6 (a demand never rises, an offer never falls, no demand after an
offer), and no hidden card (hands less the declared cards, the undealt stock, the dealer's
discard) in the public view or the events. At the end: 129 card points, zero-sum deltas, the
same piles, exchanges and deltas as an independent reading of the spec
(``queen_of_tarot_model``), and replaying the recorded actions reproduces the state. One hand
in ``HEAVY_EVERY`` also checks at every step the JSON round trip of the state and the match,
every seat's view, the default (timeout) action and illegal probes (rejected, state
unchanged).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.engine import codec, match
from bot.engine.actions import Action
from bot.engine.cards import TAROT_PACK
from bot.engine.deck import shuffle
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games.queen_of_tarot import RULES
from bot.engine.games.queen_of_tarot_cards import POINTS
from bot.engine.games.queen_of_tarot_state import Phase, QueenOfTarotState
from tests.depth import deals
from tests.engine import queen_of_tarot_model as model
from tests.engine.test_early_french_tarot_properties import strings

DEALS = deals(400)
HEAVY_EVERY = 25
UNIFORM_EVERY = 10
PACK = sorted(TAROT_PACK)
#: Longest possible session: each seat moves from no position through every demand down and
#: every offer up (2·MAX + 1 position calls), with at most two passes between them.
SESSION_BOUND = 3 * (2 * 43 + 1) * 3 + 3


def conserved(s: QueenOfTarotState) -> bool:
    cards = [c for h in s.hands for c in h] + list(s.stock) + [c for _, c in s.trick]
    cards += [c for p in s.piles for c in p]
    return sorted(cards) == PACK


def hidden(s: QueenOfTarotState) -> set[str]:
    shown = {c for d in s.declarations for c in d.cards}
    out = {c for h in s.hands for c in h} - shown
    out |= set(s.stock)
    if s.phase is not Phase.DONE:
        out |= set(s.discard)
    return out


def check_sizes(s: QueenOfTarotState) -> None:
    sizes = [len(h) for h in s.hands]
    if s.phase is Phase.BARGAIN:
        assert sizes == [5 * s.rounds] * 3 and s.rounds == s.session + 1
    elif s.phase is Phase.DISCARD:
        assert sorted(sizes) == [25, 25, 28] and sizes[s.dealer] == 28 and not s.stock
    elif s.phase is Phase.DECLARE:
        assert sizes == [25, 25, 25] and len(s.piles[s.dealer]) == 3  # §6
    elif s.phase is Phase.PLAY:
        played = len(s.tricks)
        assert sum(sizes) + len(s.trick) == 3 * (25 - played)


def check_public(s: QueenOfTarotState, events: tuple[Event, ...]) -> None:
    secret = hidden(s)
    info = RULES.observe_public(s).info
    shown = {c for d in info["declarations"] for c in d["cards"]}
    shown |= {e["card"] for e in info["exchanges"]}
    shown |= {c for _, c in s.trick} | ({c for _, c in s.tricks[-1]} if s.tricks else set())
    assert not shown & secret
    for e in events:
        named = set(e.data.get("cards", ())) | {e.data.get("card")}
        assert not named & secret, f"{e} names a hidden card"


def probes(s: QueenOfTarotState, rng: random.Random) -> list[Action]:
    t = s.turn
    assert t is not None
    other = (t + 1) % 3
    return [
        Action("pass", other),
        Action("demand", t, amount=0),
        Action("offer", t, amount=s.max_bargain + 1),
        Action("play", t, card=rng.choice(TAROT_PACK)),
        Action("play", other, card=s.hands[other][0] if s.hands[other] else "S1"),
        Action("discard", t, cards=tuple(s.hands[t][:2])),
        Action("discard", t, cards=("SK", "T20", "EX")),
        Action("declare", t, bonuses=("kings", "mixed_honours")),
        Action("declare", t, bonuses=("kings", "kings")),
        Action("continue", t),
    ]


def check_heavy(m: match.MatchState, rng: random.Random) -> None:
    s = m.deal
    assert isinstance(s, QueenOfTarotState)
    assert codec.decode_state(RULES, json.loads(json.dumps(codec.encode_state(s)))) == s
    assert match.from_json(json.loads(json.dumps(match.to_json(m)))) == m
    pv = RULES.observe_public(s)
    secret = hidden(s)
    assert not strings(json.loads(json.dumps(pv.to_json()))) & secret
    for seat in range(3):
        view = RULES.observe(s, seat)
        assert sorted(view.hand) == sorted(s.hands[seat]) and view.public == pv
        assert bool(view.legal) == (seat == s.turn)
        others = secret - set(s.hands[seat]) - (set(s.discard) if seat == s.dealer else set())
        assert not strings(view.info) & others
    legal = set(RULES.legal_actions(s))
    d = RULES.default_action(s)  # the timeout action always applies
    assert d.type == "discard" or d in legal
    RULES.apply(s, d)
    for bad in probes(s, rng):
        if bad in legal:
            continue
        with pytest.raises(IllegalAction):
            RULES.apply(s, bad)


def choose(s: QueenOfTarotState, rng: random.Random, uniform: bool) -> Action:
    legal = RULES.legal_actions(s)
    t = s.turn
    assert t is not None
    if s.phase is Phase.BARGAIN and not uniform:
        r = rng.random()
        if r < 0.55:
            return Action("pass", t)
        if r < 0.7:
            return Action("continue", t)
    if s.phase is Phase.PLAY and rng.random() < 0.25 and Action("play", t, card="EX") in legal:
        return Action("play", t, card="EX")  # early Fools make debts (C-1, D-13) common
    a = legal[rng.randrange(len(legal))]
    if a.type == "discard":
        return RULES.random_choice(RULES.observe(s, t), a, rng)
    if s.phase is Phase.DECLARE and rng.random() < 0.5:
        return RULES.default_action(s)  # the best set
    return a


def play_deal(seed: int) -> str:
    rng = random.Random(seed)
    deck = shuffle(TAROT_PACK, seed)
    dealer = seed % 3
    options: dict[str, Any] = {"max_bargain": rng.choice([43, 43, 10, 3])}
    m = match.start_deal(match.new_match("queen_of_tarot", 3, options, dealer), deck)
    heavy = seed % HEAVY_EVERY == 0
    uniform = seed % UNIFORM_EVERY == 1
    actions: list[Action] = []
    session_calls = 0
    while not m.deal_over:
        s = m.deal
        assert isinstance(s, QueenOfTarotState) and conserved(s)
        check_sizes(s)
        if heavy:
            check_heavy(m, rng)
        a = choose(s, rng, uniform)
        m, events = match.apply(m, a)
        after = m.deal
        assert isinstance(after, QueenOfTarotState)
        actions.append(a)
        check_public(after, events)
        if s.phase is Phase.BARGAIN:
            session_calls = session_calls + 1 if after.session == s.session else 0
            assert session_calls <= SESSION_BOUND  # bargaining always terminates
            if after.session == s.session and after.phase is Phase.BARGAIN:
                before, now = s.positions[a.seat], after.positions[a.seat]
                if before > 0 and now > 0:
                    assert now <= before  # a demand never increases (§6)
                if before < 0:
                    assert now <= before  # an offer never decreases; no demand after it
    s = m.deal
    assert isinstance(s, QueenOfTarotState) and conserved(s)
    res = RULES.result(s)
    assert res is not None and sum(res.deltas) == 0  # zero-sum
    assert m.totals == res.deltas and m.dealer == (dealer - 1) % 3
    # The model replays the hand from the deck and the actions alone.
    hand = model.replay(deck, dealer, [a.to_json() for a in actions], options["max_bargain"])
    assert res.outcome == hand.outcome and list(res.deltas) == hand.deltas()
    if res.outcome == "played":
        assert len(s.tricks) == 25 and not any(s.hands)
        assert sum(res.detail["card_points"]) == 129  # §6
        assert sum(POINTS[c] for p in s.piles for c in p) == 129
        assert [sorted(p) for p in s.piles] == [sorted(p) for p in hand.piles]
        assert [(e.giver, e.receiver, e.card, e.kind) for e in s.exchanges] == hand.handed
        for d in s.declarations:
            assert (list(d.bonuses), d.value, set(d.cards)) == hand.declared[d.seat]
    else:
        assert res.deltas == s.settlement and s.tricks == ()
    r = match.start_deal(match.new_match("queen_of_tarot", 3, options, dealer), deck)
    for a in actions:
        r, _ = match.apply(r, a)
    assert r == m  # replay == snapshot
    if heavy:
        with pytest.raises(IllegalAction) as e:
            RULES.apply(s, actions[-1])
        assert e.value.code == "deal_over"
    return res.outcome


@pytest.mark.heavy
def test_random_hands_keep_every_invariant() -> None:
    outcomes = [play_deal(seed) for seed in range(DEALS)]
    # Both endings are exercised in numbers.
    assert outcomes.count("played") > DEALS // 2 and outcomes.count("thrown_in") > DEALS // 20


def test_random_matches() -> None:
    """Whole matches: the deal passes right, thrown-in hands count, ties share the win."""
    for k in range(20):
        rng = random.Random(k)
        deals = rng.choice([1, 3, 6])
        first = rng.randrange(3)
        m = match.new_match("queen_of_tarot", 3, {"deals": deals}, first)
        while not m.finished:
            m = match.start_deal(m, shuffle(TAROT_PACK, rng.randrange(2**32)))
            while not m.deal_over:
                s = m.deal
                assert isinstance(s, QueenOfTarotState)
                m, _ = match.apply(m, choose(s, rng, uniform=k % 2 == 0))
            assert m.dealer == (first - m.deals_played) % 3
        assert m.deals_played == deals
        totals = [sum(col) for col in zip(*(r.deltas for r in m.results), strict=True)]
        assert list(m.totals) == totals and sum(totals) == 0
        assert list(m.winners) == model.match_winners(totals)
        with pytest.raises(match.MatchOver):
            match.start_deal(m, TAROT_PACK)
