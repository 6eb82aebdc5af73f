"""Invariants over many seeded random French Tarot deals (design/TESTING.md, layer 1).

For 3, 4 and 5 players, ``DEALS`` deals are played by uniformly random legal actions (every
other deal by the computer policy, which reaches poignées, chelems and solos more often).
Cheap checks run at every step; the JSON round trip and the illegal-action probes run at
every step of one deal in ``HEAVY_EVERY``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from bot.ai import french_tarot as policy
from bot.ai import random_policy
from bot.engine import codec
from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, TAROT_PACK
from bot.engine.deck import shuffle
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games.french_tarot import RULES, FrenchTarotState, Phase
from bot.engine.games.french_tarot_cards import DOG_TAKEN, TOTAL_HP, half_points, is_trump
from bot.engine.games.french_tarot_scoring import piles
from tests.depth import deals

DEALS = deals(400)
HEAVY_EVERY = 20


def strings(obj: Any) -> set[str]:
    """Every string inside a JSON value."""
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(strings(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list | tuple):
        return set().union(*(strings(v) for v in obj)) if obj else set()
    return set()


def dog_taken(s: FrenchTarotState) -> bool:
    return s.contract in DOG_TAKEN and s.phase not in (Phase.BIDDING, Phase.CALL)


PACK = frozenset(TAROT_PACK)


def conserved(s: FrenchTarotState) -> bool:
    """Every card is in exactly one place: hands, trick, tricks, discard, or an untaken dog
    (78 places holding 78 distinct cards)."""
    cards = [c for h in s.hands for c in h]
    cards += [c for _, c in s.trick] + [c for t in s.tricks for _, c in t]
    cards += s.discard
    if not dog_taken(s):
        cards += s.dog
    return len(cards) == len(PACK) and set(cards) == PACK


def hidden(s: FrenchTarotState) -> set[str]:
    """Cards nobody but their holder may know: hands and the discard's non-trumps (less
    what was shown: poignées, a revealed dog), and an unrevealed dog."""
    shown = {c for _, _, cards in s.poignees for c in cards}
    if dog_taken(s):
        shown |= set(s.dog)
    out = {c for h in s.hands for c in h}
    if s.phase is not Phase.DONE:  # the score sheet shows the discard once the deal is over
        out |= {c for c in s.discard if not is_trump(c)}
    out -= shown  # the revealed dog stays public knowledge, wherever its cards go
    if s.phase is not Phase.DONE and not dog_taken(s):
        out |= set(s.dog)
    return out - {s.called}  # the call is public; where the card lies is not


def secret_partner(s: FrenchTarotState) -> bool:
    """The partnership is still secret: called card not played, deal not over, not in a
    revealed dog."""
    in_revealed_dog = dog_taken(s) and s.called in s.dog
    return (
        s.called is not None
        and s.called_by is None
        and s.phase is not Phase.DONE
        and not in_revealed_dog
    )


def probes(s: FrenchTarotState, rng: random.Random) -> list[Action]:
    """Actions that must be rejected in ``s`` (or are legal by chance: then skipped)."""
    t = s.turn
    assert t is not None
    other = (t + 1) % s.players
    hand = s.hands[t]
    out = [
        Action("bid", other, contract="garde_contre"),
        Action("play", other, card=s.hands[other][0] if s.hands[other] else "S1"),
        Action("bid", t, contract="grand"),
        Action("call", t, card="T21"),
        Action("discard", t, cards=tuple(hand[:2])),
        Action("discard", t, cards=tuple(rng.sample(list(hand), min(len(hand), 6)))),
        Action("poignee", t, cards=tuple(c for c in hand if is_trump(c))[:3]),
        Action("chelem", other, announce=True),
        Action("play", t, card=rng.choice(TAROT_PACK)),
    ]
    if hand:
        out.append(Action("play", t, card=rng.choice(hand)))
    return out


def check_public(s: FrenchTarotState, events: tuple[Event, ...]) -> None:
    """The public view and the events name no hidden card, nor the secret partner."""
    pv = RULES.observe_public(s)
    secret = hidden(s)
    info = pv.info
    shown = {c for _, c in pv.trick + pv.last_trick}
    shown.update(info["dog"] or (), info["discarded_trumps"], info.get("discard", ()))
    shown.update(c for p in info["poignees"] for c in p["cards"])
    assert not shown & secret, f"public view shows hidden cards {shown & secret}"
    for e in events:
        named = set(e.data.get("cards", ())) | {e.data.get("card")}
        assert not named & secret, f"{e} names a hidden card"
    if secret_partner(s):
        assert pv.info["partner"] is None and pv.info["alone"] is None
        assert all(e.type != "partner_revealed" for e in events)


def check_views(s: FrenchTarotState) -> None:
    """Every seat's view: its own hand only, the public view, legal actions on its turn."""
    pv = RULES.observe_public(s)
    assert not strings(json.loads(json.dumps(pv.to_json()))) & hidden(s)
    for seat in range(s.players):
        view = RULES.observe(s, seat)
        assert view.hand == s.hands[seat]
        assert view.public == pv
        others = hidden(s) - set(s.hands[seat])
        if seat == s.taker:
            others -= set(s.discard)
        assert not strings(json.loads(json.dumps(view.info))) & others
        assert bool(view.legal) == (seat == s.turn)


def play_deal(
    players: int, seed: int, heavy: bool
) -> tuple[FrenchTarotState, list[Action], tuple[str, ...]]:
    rng = random.Random(seed)
    deck = shuffle(TAROT_PACK, seed)
    dealer = seed % players
    s = RULES.new_deal(players, {"chelem": seed % 3 != 0}, deck, dealer)
    actions: list[Action] = []
    smart = seed % 2 == 0
    while s.turn is not None:
        assert conserved(s)
        view = RULES.observe(s, s.turn)
        if heavy:
            assert codec.decode_state(RULES, json.loads(json.dumps(codec.encode_state(s)))) == s
            for bad in probes(s, rng):
                if bad in view.legal:
                    continue
                try:
                    RULES.apply(s, bad)
                except IllegalAction:
                    continue
                # A well-formed multi-card choice may be legal by chance.
                assert bad.type in RULES.multi_card_types, f"accepted illegal {bad}"
        action = policy.choose(view, rng) if smart else random_policy(view, rng)
        s, events = RULES.apply(s, action)
        actions.append(action)
        check_public(s, events)
        if heavy:
            check_views(s)
    assert conserved(s)
    return s, actions, deck


@pytest.mark.heavy
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_deals_keep_every_invariant(players: int) -> None:
    outcomes: Counter[str] = Counter()
    for seed in range(DEALS):
        s, actions, deck = play_deal(players, seed, heavy=seed % HEAVY_EVERY == 0)
        res = RULES.result(s)
        assert res is not None
        outcomes[res.outcome] += 1
        assert sum(res.deltas) == 0
        if res.outcome != "played":
            assert set(res.deltas) == {0}
        else:
            assert s.taker is not None and s.contract is not None
            attack = frozenset({s.taker} if s.partner is None else {s.taker, s.partner})
            att, dfc, _ = piles(attack, s.contract, s.dog, s.discard, s.tricks, s.winners)
            assert Counter(att + dfc) == Counter(TAROT_PACK)
            assert sum(map(half_points, att + dfc)) == TOTAL_HP
            assert res.detail["points_hp"] == sum(map(half_points, att))
            assert EXCUSE in att + dfc
        # Replay from the deck and the recorded actions reaches the same state.
        r = RULES.new_deal(players, {"chelem": seed % 3 != 0}, deck, seed % players)
        for a in actions:
            r, _ = RULES.apply(r, a)
        assert r == s
    # Every other deal is bid by the computer player, whose fitted count passes weak hands
    # (more deals thrown in than uniformly random bids); most deals are still played out.
    assert outcomes["played"] > DEALS * 0.6, outcomes


def test_secret_partner_is_invisible_until_the_called_card_falls() -> None:
    """Two deals differing only in who holds the called King look the same in public."""
    seen = 0
    for seed in range(600):  # the computer player passes weak hands: many deals thrown in
        deck = shuffle(TAROT_PACK, seed)
        s = RULES.new_deal(5, {"chelem": False}, deck, 0)
        if s.outcome is not None:
            continue
        rng = random.Random(seed)
        while s.turn is not None and not secret_partner(s):
            s, _ = RULES.apply(s, policy.choose(RULES.observe(s, s.turn), rng))
        if s.turn is None or s.partner is None:
            continue
        seen += 1
        # Swap the partner's hand with another defender's: the public view must not change.
        other = next(p for p in range(5) if p not in (s.taker, s.partner))
        hands = list(s.hands)
        hands[s.partner], hands[other] = hands[other], hands[s.partner]
        swapped = s._replace(hands=tuple(hands), partner=other)
        a, b = RULES.observe_public(s).to_json(), RULES.observe_public(swapped).to_json()
        assert a == b
    assert seen > 50
