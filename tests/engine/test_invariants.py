"""Invariants over many seeded random La Morte deals (design/TESTING.md, layer 1).

Every player count plays ``DEALS`` random deals choosing uniformly among legal actions.
Cheap checks run at every step of every deal; the expensive ones (JSON round trip, every
legal action applies, illegal actions rejected, privacy of views and events) run at every
step of one deal in ``HEAVY_EVERY``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from bot.engine import match
from bot.engine.actions import Action
from bot.engine.deck import shuffle
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games.la_morte import LA_MORTE, MAX_BID, LaMorteRules, LaMorteState, Phase
from bot.engine.match import MatchState
from tests.depth import deals

R = LaMorteRules()
DEALS = deals(400)
HEAVY_EVERY = 10


def _state(m: MatchState) -> LaMorteState:
    assert isinstance(m.deal, LaMorteState)
    return m.deal


def _cards_accounted(s: LaMorteState) -> list[str]:
    out = [c for h in s.hands for c in h]
    out += [c for _, c in s.trick]
    out += [c for t in s.tricks for _, c in t]
    out.append(s.talon)
    out += s.set_aside
    return out


def _strings(obj: Any) -> set[str]:
    """Every string value inside a JSON value."""
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(_strings(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list | tuple):
        return set().union(*(_strings(v) for v in obj)) if obj else set()
    return set()


def _hidden(s: LaMorteState) -> set[str]:
    return {c for h in s.hands for c in h} | set(s.set_aside)


def _illegal_samples(s: LaMorteState, rng: random.Random) -> list[Action]:
    """A few actions that must be rejected in state ``s``."""
    t = s.turn
    assert t is not None
    n = s.players
    legal = set(R.legal_actions(s))
    out: list[Action] = [
        Action("bid", (t + 1) % n, amount=MAX_BID),  # wrong seat
        Action("play", (t + 1) % n, card=s.hands[(t + 1) % n][0] if s.hands[(t + 1) % n] else "S1"),
        Action("bid", t, amount=0),
        Action("bid", t, amount=MAX_BID + 1),
        Action("bid", t, amount=-3),
        Action("muck", t),
        Action("play", t, card=s.talon),
    ]
    if s.set_aside:
        out.append(Action("play", t, card=rng.choice(s.set_aside)))
    for seat, hand in enumerate(s.hands):
        if hand:
            out.append(Action("play", t, card=rng.choice(hand)))  # often not legal
            if seat != t:
                out.append(Action("play", t, card=hand[0]))
    out += [Action("accept", t), Action("drop", t), Action("bid", t, amount=s.high_bid)]
    return [a for a in out if a not in legal]


def _check_result(s: LaMorteState, deltas: tuple[int, ...], detail: dict[str, Any]) -> None:
    """§5.1 from the result detail (La Morte is not zero-sum)."""
    assert sum(detail["tricks"]) == 9
    assert list(s.tricks_won) == detail["tricks"]
    assert Counter(s.trick_winners) == Counter({p: t for p, t in enumerate(detail["tricks"]) if t})
    c, maker = detail["contract"], detail["maker"]
    assert 1 <= c <= 9
    made = detail["tricks"][maker] >= c
    assert detail["made"] == made
    roles = detail["roles"]
    assert roles[maker] == "maker" and roles.count("maker") == 1
    assert "undecided" not in roles
    if detail["auto_contract"]:
        assert "defender" not in roles
    for p, (d, t, role) in enumerate(zip(deltas, detail["tricks"], roles, strict=True)):
        if p == detail["fuori"]:
            assert d == 0
        elif role == "maker":
            assert d == t + (c if made else 0)
        elif role == "defender":
            assert d == t + (0 if made else c)
        else:
            assert d == (c - 1 if t == 0 else 0)
    if detail["fuori"] is not None:
        assert s.tricks[-1][0] == (detail["fuori"], LA_MORTE)


def _heavy_step(m: MatchState, rng: random.Random) -> None:
    s = _state(m)
    # JSON round trip of the whole match
    text = json.dumps(match.to_json(m))
    copy = match.from_json(json.loads(text))
    assert copy == m
    # privacy: nothing hidden in the public view; a seat view shows only its own hand
    hidden = _hidden(s)
    pub = R.observe_public(s)
    assert not (_strings(pub.to_json()) & hidden)
    for seat in range(s.players):
        sv = R.observe(s, seat)
        assert sorted(sv.hand) == sorted(s.hands[seat])
        others = hidden - set(s.hands[seat])
        assert not (_strings(sv.public.to_json()) & others)
        assert not (_strings(sv.info) & others)
        assert not (_strings([a.to_json() for a in sv.legal]) & others)
    # every legal action applies; events reveal nothing hidden afterwards
    legal = match.legal_actions(m)
    assert legal and len(set(legal)) == len(legal)
    for a in legal:
        m2, events = match.apply(m, a)
        assert not (_strings([e.to_json() for e in events]) & _hidden(_state(m2)))
    # illegal actions raise and leave the state as it was
    for a in _illegal_samples(s, rng):
        with pytest.raises(IllegalAction) as e:
            match.apply(m, a)
        assert e.value.code in ("not_your_turn", "illegal_action")
        assert m == copy
    assert json.dumps(match.to_json(m)) == text


def _play_deal(n: int, seed: int, heavy: bool) -> None:
    rng = random.Random(seed)
    deck = shuffle(R.pack(n), seed)
    dealer = rng.randrange(n)
    m = match.start_deal(match.new_match("la_morte", n, None, dealer), deck)
    pack = sorted(R.pack(n))
    log: list[Action] = []
    events: list[Event] = []
    morto_hand: tuple[str, ...] | None = None
    while not m.deal_over:
        s = _state(m)
        assert sorted(_cards_accounted(s)) == pack  # card conservation
        assert match.to_act(m) == s.turn
        if s.morto is not None:
            if morto_hand is None:
                morto_hand = s.hands[s.morto]
            assert s.hands[s.morto] == morto_hand  # dead cards stay in hand
            assert s.turn != s.morto
        if heavy:
            _heavy_step(m, rng)
        legal = match.legal_actions(m)
        assert legal and all(a.seat == s.turn for a in legal)
        a = rng.choice(legal)
        m, ev = match.apply(m, a)
        log.append(a)
        events.extend(ev)
    s = _state(m)
    assert sorted(_cards_accounted(s)) == pack
    assert len(m.results) == 1 and m.deals_played == 1
    res = m.results[0]
    assert m.totals == res.deltas
    assert m.dealer == (dealer + 1) % n
    if res.outcome == "mucked":
        assert s.phase is Phase.MUCKED and res.deltas == (0,) * n
        assert s.tricks == ()
    else:
        assert res.outcome == "played" and s.phase is Phase.SCORED
        assert len(s.tricks) == 9 and all(h == () for p, h in enumerate(s.hands) if p != s.morto)
        _check_result(s, res.deltas, res.detail)
    # replay of the action log from the deck gives the same state
    r = match.start_deal(match.new_match("la_morte", n, None, dealer), deck)
    for a in log:
        r, _ = match.apply(r, a)
    assert r == m
    if heavy:
        assert not (_strings([e.to_json() for e in events]) & set(s.set_aside))
        with pytest.raises(IllegalAction) as e:
            match.apply(m, log[-1])
        assert e.value.code == "deal_over"


@pytest.mark.heavy
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_deals(players: int) -> None:
    for i in range(DEALS):
        _play_deal(players, seed=players * 100_000 + i, heavy=i % HEAVY_EVERY == 0)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_matches(players: int) -> None:
    """Whole matches: totals, dealer rotation and the end rule (D-18, C-5)."""
    for k in range(20):
        rng = random.Random(players * 1000 + k)
        opts: dict[str, Any] = {"target": rng.choice([10, 25, 50])}
        if k % 3 == 0:
            opts["round_limit"] = rng.randint(1, 6)
        m = match.new_match("la_morte", players, opts, rng.randrange(players))
        first = m.dealer
        while not m.finished:
            assert m.needs_deal
            m = match.start_deal(m, shuffle(R.pack(players), rng.randrange(2**32)))
            while not m.deal_over:
                m, _ = match.apply(m, rng.choice(match.legal_actions(m)))
            assert m.dealer == (first + m.deals_played) % players
            assert m.deals_played < 200
        totals = [sum(col) for col in zip(*(r.deltas for r in m.results), strict=True)]
        assert list(m.totals) == totals
        top = max(totals)
        assert m.winners == tuple(p for p, t in enumerate(totals) if t == top)
        limit = opts.get("round_limit")
        if limit is None or m.deals_played < limit:
            assert len(m.winners) == 1 and top >= opts["target"]
        else:
            assert m.deals_played == limit
        # before the end no played deal left a unique top at or above the target
        running = [0] * players
        for r in m.results[:-1]:
            running = [a + b for a, b in zip(running, r.deltas, strict=True)]
            best = max(running)
            assert not (best >= opts["target"] and running.count(best) == 1)
        assert match.legal_actions(m) == () and match.to_act(m) is None
        with pytest.raises(match.MatchOver):
            match.start_deal(m, R.pack(players))
