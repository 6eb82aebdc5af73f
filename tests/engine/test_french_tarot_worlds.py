"""French Tarot for search: the public history, and worlds sampled from a seat's view.

Over seeded deals (uniformly random play and the computer player's), at every decision point
and for every seat: the history is the public form of the actions applied; a sampled world
shows that seat exactly the same view (history included); the true deal fits every
constraint the sampler uses; and a sampled world is a deal that could have happened — dealt
from a deck, every action of the public history (with the world's own discard) is legal and
leads to that very state, so voids, failures to overtrump, the discard's rules, poignées,
the called card and the bare Petit all hold. Targeted deals check each constraint directly,
and a small late-deal case checks the draw is uniform.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import permutations
from typing import Any

import pytest

from bot.ai import french_tarot as policy
from bot.ai import random_policy
from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, TAROT_PACK
from bot.engine.deck import shuffle
from bot.engine.games import french_tarot_worlds as worlds
from bot.engine.games.french_tarot import _LAYOUT, RULES, FrenchTarotState, Phase
from bot.engine.games.french_tarot_cards import DOG_TAKEN, KINGS, PLAIN_DISCARDABLE, SUIT

DEALS = 6  # per player count


def public_form(a: Action) -> Action:
    """What everyone sees of an action: a discard's cards are hidden."""
    if a.type == "discard":
        return Action("discard", a.seat, amount=len(a.cards or ()))
    if a.type == "poignee":
        return Action("poignee", a.seat, cards=tuple(sorted(a.cards or (), key=_order)))
    return a


def _order(card: str) -> Any:
    from bot.engine.games.french_tarot_cards import sort_key

    return sort_key(card)


def deck_for(s: FrenchTarotState, dealt: Sequence[Sequence[str]], dog: Sequence[str]) -> list[str]:
    seats, dog_at = _LAYOUT[s.players, s.dealer]
    positions = list(range(len(TAROT_PACK)))
    deck = [""] * len(TAROT_PACK)
    for seat, at in enumerate(seats):
        for i, c in zip(at(positions), dealt[seat], strict=True):
            deck[i] = c
    for i, c in zip(dog_at(positions), dog, strict=True):
        deck[i] = c
    return deck


def replay(world: FrenchTarotState, history: Sequence[Action]) -> None:
    """The world is reachable: dealt from a deck, its public history replays legally into it."""
    r = world.record()
    dealt = [list(h) for h in r.hands]
    for a in history:
        if a.type == "play" and a.card is not None:
            dealt[a.seat].append(a.card)
    if (
        r.taker is not None
        and r.contract in DOG_TAKEN
        and r.phase not in (Phase.BIDDING, Phase.CALL)
    ):
        hand = dealt[r.taker] + list(r.discard)
        for c in r.dog:
            hand.remove(c)
        dealt[r.taker] = hand
    s = RULES.new_deal(
        r.players, {"chelem": r.chelem_option}, deck_for(world, dealt, r.dog), r.dealer
    )
    for a in history:
        if a.type == "discard":
            a = Action("discard", a.seat, cards=tuple(r.discard))
        s, _ = RULES.apply(s, a)
    assert s == world


def check_seat(s: FrenchTarotState, seat: int, rng: random.Random, samples: int = 2) -> None:
    view = RULES.observe(s, seat)
    draw = worlds._Draw(view)  # pyright: ignore[reportPrivateUsage]
    assert draw.admits(s), "the true deal breaks a constraint"
    for _ in range(samples):
        world = RULES.sample_world(view, rng)
        assert RULES.observe(world, seat) == view
        assert draw.admits(world)
        replay(world, view.public.history)


def play_and_check(players: int, seed: int) -> None:
    rng = random.Random(seed)
    deck = shuffle(TAROT_PACK, seed)
    s = RULES.new_deal(players, {"chelem": seed % 3 != 0}, deck, seed % players)
    applied: list[Action] = []
    smart = seed % 2 == 0
    while (t := RULES.to_act(s)) is not None:
        assert RULES.observe_public(s).history == tuple(public_form(a) for a in applied)
        for seat in range(players):
            if seat == t or rng.random() < 0.25:
                check_seat(s, seat, rng)
        view = RULES.observe(s, t)
        action = policy.choose(view, rng) if smart else random_policy(view, rng)
        s, _ = RULES.apply(s, action)
        applied.append(action)
    assert RULES.observe_public(s).history == tuple(public_form(a) for a in applied)
    for seat in range(players):
        check_seat(s, seat, rng, samples=1)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_sampled_worlds_show_the_same_view_and_could_have_happened(players: int) -> None:
    for seed in range(DEALS):
        play_and_check(players, 100 * players + seed)


# ---- targeted constraints ----------------------------------------------------------------


def _deal(players: int, hands: Sequence[Sequence[str]], dog: Sequence[str], dealer: int = 0) -> Any:
    probe = RULES.new_deal(players, {"chelem": False}, list(TAROT_PACK), dealer)
    return RULES.new_deal(players, {"chelem": False}, deck_for(probe, hands, dog), dealer)


def _fill(
    players: int, wants: dict[int | str, Sequence[str]], seed: int
) -> tuple[list[list[str]], list[str]]:
    from bot.engine.games.french_tarot_cards import PARAMS

    p = PARAMS[players]
    fixed = {c for cs in wants.values() for c in cs}
    free = [c for c in TAROT_PACK if c not in fixed]
    random.Random(seed).shuffle(free)
    hands: list[list[str]] = []
    for seat in range(players):
        mine = list(wants.get(seat, ()))
        hands.append(mine + free[: p.cards - len(mine)])
        del free[: p.cards - len(mine)]
    return hands, list(wants.get("dog", ())) + free


def _samples(s: Any, seat: int, n: int = 40) -> list[FrenchTarotState]:
    view = RULES.observe(s, seat)
    rng = random.Random(seat)
    out = [RULES.sample_world(view, rng) for _ in range(n)]
    for w in out:
        assert RULES.observe(w, seat) == view
        replay(w, view.public.history)
    return out


def test_a_called_queen_puts_the_four_kings_in_the_takers_hand() -> None:
    kings = sorted(KINGS)
    hands, dog = _fill(5, {1: [*kings, "T21", "T20", "T19", "T18", "T17"]}, seed=3)
    s = _deal(5, hands, dog)
    for seat in (4, 3, 2, 1, 0):  # the dealer's right speaks first: seat 4
        s, _ = RULES.apply(s, Action("bid", seat, contract="garde" if seat == 1 else "pass"))
    s, _ = RULES.apply(s, Action("call", 1, card="HQ"))
    for w in _samples(s, 3):
        assert set(KINGS) <= set(w.hands[1])


def test_an_excuse_poignee_says_no_other_trump() -> None:
    # seat 2: nine trumps and the Excuse, a 4-player poignée (10) only with the Excuse
    trumps = [f"T{i}" for i in range(2, 11)]
    plain = ["S2", "S3", "H2", "H3", "D2", "D3", "C2", "C3"]
    hands, dog = _fill(4, {2: [*trumps, EXCUSE, *plain], 0: ["T21"]}, seed=5)
    s = _deal(4, hands, dog, dealer=0)
    for seat in (3, 2, 1, 0):
        s, _ = RULES.apply(s, Action("bid", seat, contract="garde_sans" if seat == 3 else "pass"))
    while s.turn != 2:
        s, _ = RULES.apply(s, RULES.legal_actions(s)[0])
    shows = [a for a in RULES.legal_actions(s) if a.type == "poignee"]
    assert shows and EXCUSE in (shows[0].cards or ())
    s, _ = RULES.apply(s, Action("poignee", 2, cards=tuple(shows[0].cards or ())))
    shown = set(s.poignees[0][2])
    for w in _samples(s, 0):
        assert {c for c in w.hands[2] if c[0] == "T"} <= shown


def test_a_discard_with_trumps_left_the_taker_no_plain_card() -> None:
    # the taker (seat 3) holds Kings, trumps and the Excuse, and only two plain cards
    taker = ["SK", "HK", "DK", "CK", EXCUSE, *[f"T{i}" for i in range(2, 13)], "S5", "H5"]
    hands, dog = _fill(4, {3: taker, "dog": ["S9", "D9", "C9", "T13", "T14", "T15"]}, seed=7)
    s = _deal(4, hands, dog, dealer=0)
    for seat in (3, 2, 1, 0):
        s, _ = RULES.apply(s, Action("bid", seat, contract="prise" if seat == 3 else "pass"))
    template = RULES.legal_actions(s)[0]
    chosen = RULES.random_choice(RULES.observe(s, 3), template, random.Random(1))
    s, _ = RULES.apply(s, chosen)
    assert s.discard and any(c[0] == "T" for c in s.discard)
    for w in _samples(s, 1):
        assert not [c for c in w.hands[3] if c in PLAIN_DISCARDABLE]
        assert all(c in PLAIN_DISCARDABLE or c[0] == "T" for c in w.discard)


def test_voids_and_failures_to_overtrump_hold_in_every_world() -> None:
    rng = random.Random(11)
    for seed in range(40):
        s = RULES.new_deal(4, {"chelem": False}, shuffle(TAROT_PACK, seed), 0)
        while s.turn is not None and len(s.tricks) < 6:
            s, _ = RULES.apply(s, random_policy(RULES.observe(s, s.turn), rng))
        if s.turn is None or s.outcome is not None:
            continue
        view = RULES.observe(s, 0)
        k = worlds._read_tricks([*s.tricks, s.trick], 4, s.called)  # pyright: ignore[reportPrivateUsage]
        for w in (RULES.sample_world(view, rng) for _ in range(10)):
            for seat in (1, 2, 3):
                for c in w.hands[seat]:
                    assert SUIT[c] not in k.void[seat]
                    if c[0] == "T":
                        assert int(c[1:]) <= k.trump_cap[seat]


def test_nobody_is_dealt_a_bare_petit() -> None:
    rng = random.Random(2)
    seen = 0
    for seed in range(30):
        s = RULES.new_deal(3, {}, shuffle(TAROT_PACK, seed), 0)
        if s.outcome is not None:
            continue
        view = RULES.observe(s, 0)
        for _ in range(20):
            w = RULES.sample_world(view, rng)
            for h in w.hands:
                trumps = [c for c in h if c[0] == "T"]
                assert trumps != ["T1"] or EXCUSE in h
            seen += 1
    assert seen > 300


# ---- uniformity ------------------------------------------------------------------------


def test_the_draw_is_uniform_over_the_possible_deals() -> None:
    """Late in a 4-player deal: every arrangement of the hidden cards the view allows is
    drawn about equally often, and none it forbids."""
    rng = random.Random(4)
    for seed in range(200):
        s = RULES.new_deal(4, {"chelem": False}, shuffle(TAROT_PACK, seed), 0)
        while s.turn is not None and len(s.tricks) < 16:
            s, _ = RULES.apply(s, random_policy(RULES.observe(s, s.turn), rng))
        if s.turn is not None and s.outcome is None and s.contract in ("garde", "prise"):
            break
    else:
        pytest.fail("no late deal found")
    seat = s.turn
    assert seat is not None
    view = RULES.observe(s, seat)
    draw = worlds._Draw(view)  # pyright: ignore[reportPrivateUsage]
    others = [p for p in range(4) if p != seat]
    hidden = [c for p in others for c in s.hands[p]]
    possible: set[tuple[tuple[str, ...], ...]] = set()
    for order in set(permutations(hidden)):
        at = 0
        hands = list(s.hands)
        for p in others:
            hands[p] = tuple(sorted(order[at : at + len(s.hands[p])], key=_order))
            at += len(s.hands[p])
        candidate = s._replace(hands=tuple(hands))
        plays = [(a.seat, a.card) for a in view.public.history if a.type == "play"]
        if draw.admits(candidate) and worlds._consistent_deal(candidate, plays):  # pyright: ignore[reportPrivateUsage]
            possible.add(tuple(hands[p] for p in others))
    assert len(possible) >= 2
    n = 300 * len(possible)
    counts = Counter(
        tuple(w.hands[p] for p in others) for w in (RULES.sample_world(view, rng) for _ in range(n))
    )
    assert set(counts) <= possible
    assert set(counts) == possible
    expected = n / len(possible)
    assert all(abs(c - expected) < 5 * expected**0.5 for c in counts.values()), counts
