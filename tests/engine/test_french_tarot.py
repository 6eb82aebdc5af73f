"""French Tarot rules, phase by phase (``shared/rules/french_tarot.md`` §1–§5, D-n, C-n).

Hands are pinned with the inverse of the canonical deal; scoring is checked on the spec's
worked examples through ``french_tarot_scoring.score`` (the full-deal example scenarios live
in ``tests/scenarios/french_tarot_example_*.json``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from bot.engine import match
from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, TAROT_PACK
from bot.engine.errors import IllegalAction
from bot.engine.games.french_tarot import RULES, FrenchTarotState, Phase
from bot.engine.games.french_tarot_cards import (
    callable_cards,
    legal_plays,
    poignee_options,
    trick_winner,
)
from bot.engine.games.french_tarot_scoring import piles, score
from bot.engine.views import DealResult

PARAMS = {3: (24, 6, 4), 4: (18, 6, 3), 5: (15, 3, 3)}  # cards, dog, packet (§2)
TRUMPS = [f"T{i}" for i in range(1, 22)]
KINGS = ["SK", "HK", "DK", "CK"]
BOUTS = {"T1", "T21", EXCUSE}


def hp(card: str) -> int:
    """§1 in half points, written independently of the engine."""
    if card in BOUTS or card in KINGS:
        return 9
    if card[0] != "T" and card != EXCUSE:
        return {"Q": 7, "C": 5, "J": 3}.get(card[1:], 1)
    return 1


LOW = [c for c in TAROT_PACK if hp(c) == 1]  # 0.5-point cards (pips 1–10, trumps 2–20)


def right(seat: int, n: int) -> int:
    return (seat - 1) % n


def deck_for(
    players: int, dealer: int, hands: Sequence[Sequence[str]], dog: Sequence[str]
) -> list[str]:
    """Inverse of §3.1: the deck that deals ``hands`` and ``dog``."""
    cards, dog_size, packet = PARAMS[players]
    left = [list(h) for h in hands]
    rest = list(dog)
    deck: list[str] = []
    order = [(dealer - 1 - k) % players for k in range(players)]
    for r in range(cards // packet):
        for k, seat in enumerate(order):
            deck += left[seat][:packet]
            del left[seat][:packet]
            if k == 0 and r < dog_size:
                deck.append(rest.pop(0))
    return deck


def pinned(
    players: int, wants: dict[int | str, Sequence[str]], seed: int = 0
) -> tuple[list[list[str]], list[str]]:
    """Hands and dog with ``wants`` pinned, the rest of the pack spread at random."""
    cards, dog_size, _ = PARAMS[players]
    fixed = {c for cs in wants.values() for c in cs}
    free = [c for c in TAROT_PACK if c not in fixed]
    random.Random(seed).shuffle(free)
    hands: list[list[str]] = []
    for s in range(players):
        mine = list(wants.get(s, ()))
        hands.append(mine + free[: cards - len(mine)])
        del free[: cards - len(mine)]
    dog = list(wants.get("dog", ())) + free
    assert len(dog) == dog_size
    return hands, dog


def deal(
    players: int,
    wants: dict[int | str, Sequence[str]],
    dealer: int = 0,
    options: dict[str, Any] | None = None,
    seed: int = 0,
) -> FrenchTarotState:
    hands, dog = pinned(players, wants, seed)
    return RULES.new_deal(players, options or {}, deck_for(players, dealer, hands, dog), dealer)


def run(s: FrenchTarotState, *actions: Action) -> FrenchTarotState:
    for a in actions:
        s, _ = RULES.apply(s, a)
    return s


def bid(seat: int, contract: str = "pass") -> Action:
    return Action("bid", seat, contract=contract)


def bids(players: int, dealer: int, said: dict[int, str]) -> list[Action]:
    order = [(dealer - 1 - k) % players for k in range(players)]
    return [bid(s, said.get(s, "pass")) for s in order]


# ---- §3.1 canonical deal ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "dog_positions"),
    [
        (3, [4, 17, 30, 43, 56, 69]),  # rounds of 3×4 + 1 dog card
        (4, [3, 16, 29, 42, 55, 68]),  # rounds of 4×3 + 1 dog card
        (5, [3, 19, 35]),  # rounds of 5×3, + 1 dog card in rounds 0–2
    ],
)
@pytest.mark.parametrize("dealer", [0, 2])
def test_canonical_deal_layout(players: int, dog_positions: list[int], dealer: int) -> None:
    deck = list(TAROT_PACK)
    s = RULES.new_deal(players, {}, deck, dealer)
    cards, dog_size, packet = PARAMS[players]
    assert sorted(s.dog) == sorted(deck[i] for i in dog_positions)
    assert len(s.dog) == dog_size
    assert all(len(h) == cards for h in s.hands)
    first, last = right(dealer, players), dealer
    assert set(deck[:packet]) <= set(s.hands[first])  # first packet to the dealer's right
    assert deck[0] in s.hands[first] and deck[-1] in s.hands[last]
    assert set(deck[-packet:]) <= set(s.hands[dealer])  # the dealer gets the last packet
    # the second packet (after the first dog card) goes to the right of the dealer's right
    second = deck[packet + 1 : 2 * packet + 1]
    assert set(second) <= set(s.hands[right(first, players)])
    assert s.phase is Phase.BIDDING and s.turn == first


# ---- §3.2 petit sec (C-10) -------------------------------------------------------------


def test_petit_sec_cancels_the_deal() -> None:
    plain = [c for c in TAROT_PACK if c[0] != "T" and c != EXCUSE]
    s = deal(3, {1: ["T1", *plain[:23]]})
    assert s.outcome == "redeal" and s.turn is None and s.deltas == (0, 0, 0)
    res = RULES.result(s)
    assert res is not None and res.detail == {"reason": "petit_sec"}
    assert not RULES.counts_toward_end(res)


def test_petit_with_the_excuse_is_not_sec() -> None:
    plain = [c for c in TAROT_PACK if c[0] != "T" and c != EXCUSE]
    s = deal(3, {1: ["T1", EXCUSE, *plain[:22]]})
    assert s.outcome is None and s.phase is Phase.BIDDING


def test_petit_with_another_trump_is_not_sec_and_dog_is_not_checked() -> None:
    plain = [c for c in TAROT_PACK if c[0] != "T" and c != EXCUSE]
    assert deal(3, {1: ["T1", "T2", *plain[:22]]}).outcome is None
    # C-10: only the hands count; the Petit alone in the dog is nothing.
    assert deal(5, {"dog": ["T1", "S1", "S2"]}).outcome is None


def test_petit_sec_redeal_passes_the_deal_to_the_right() -> None:
    plain = [c for c in TAROT_PACK if c[0] != "T" and c != EXCUSE]
    hands, dog = pinned(4, {2: ["T1", *plain[:17]]})
    m = match.new_match("french_tarot", 4, {}, 1)
    m = match.start_deal(m, deck_for(4, 1, hands, dog))
    assert m.results[-1].outcome == "redeal" and m.dealer == 0 and m.totals == (0, 0, 0, 0)


# ---- §3.3 bidding (C-8) ----------------------------------------------------------------


def test_bidding_order_starts_right_of_dealer_and_ends_with_dealer() -> None:
    s = deal(5, {}, dealer=2)
    seen = []
    while s.phase is Phase.BIDDING:
        assert s.turn is not None
        seen.append(s.turn)
        s = run(s, bid(s.turn))
    assert seen == [1, 0, 4, 3, 2]
    assert s.outcome == "thrown_in" and s.deltas == (0,) * 5


def test_bids_must_be_strictly_higher() -> None:
    s = run(deal(4, {}), bid(3, "garde"))
    legal = {a.contract for a in RULES.legal_actions(s)}
    assert legal == {"pass", "garde_sans", "garde_contre"}
    for low in ("prise", "garde"):
        with pytest.raises(IllegalAction):
            RULES.apply(s, bid(2, low))
    with pytest.raises(IllegalAction):
        RULES.apply(s, bid(1, "pass"))  # not seat 1's turn


def test_everyone_speaks_after_garde_contre() -> None:
    s = run(deal(4, {}), bid(3, "garde_contre"))
    for seat in (2, 1, 0):
        assert [a.contract for a in RULES.legal_actions(s)] == ["pass"]
        assert s.turn == seat
        s = run(s, bid(seat))
    assert s.taker == 3 and s.contract == "garde_contre"


def test_highest_bidder_takes() -> None:
    s = run(deal(4, {}), bid(3, "prise"), bid(2, "garde"), bid(1), bid(0))
    assert (s.taker, s.contract, s.phase) == (2, "garde", Phase.DISCARD)
    assert set(s.dog) <= set(s.hands[2]) and len(s.hands[2]) == 24


# ---- §3.4 the 5-player call ------------------------------------------------------------


def test_callable_cards_by_kings_queens_knights_held() -> None:
    assert callable_cards(["S1", "SK"]) == KINGS
    queens = ["SQ", "HQ", "DQ", "CQ"]
    knights = ["SC", "HC", "DC", "CC"]
    jacks = ["SJ", "HJ", "DJ", "CJ"]
    assert callable_cards(KINGS) == KINGS + queens
    assert callable_cards(KINGS + queens[:3]) == KINGS + queens
    assert callable_cards(KINGS + queens) == KINGS + queens + knights
    assert callable_cards(KINGS + queens + knights) == KINGS + queens + knights + jacks


def test_call_is_before_the_dog_and_the_partner_is_the_holder() -> None:
    s = deal(5, {2: ["SK"], 1: ["HK"]})
    s = run(s, *bids(5, 0, {1: "prise"}))
    assert s.phase is Phase.CALL and s.turn == 1
    assert RULES.observe_public(s).info["dog"] is None  # not shown before the call
    assert {a.card for a in RULES.legal_actions(s)} == set(KINGS)
    with pytest.raises(IllegalAction):
        RULES.apply(s, Action("call", 1, card="SQ"))
    s = run(s, Action("call", 1, card="SK"))
    assert s.phase is Phase.DISCARD
    assert RULES.observe_public(s).info["dog"] == sorted(s.dog)
    s = run(s, RULES.default_action(s), Action("chelem", 1, announce=False))
    assert s.partner == 2
    assert RULES.observe_public(s).info["partner"] is None


@pytest.mark.parametrize(("where", "why"), [(1, "self-call"), ("dog", "called card in the dog")])
def test_taker_alone(where: int | str, why: str) -> None:
    wants: dict[int | str, list[str]] = {1: ["T5"]}
    wants.setdefault(where, []).append("SK")
    s = deal(5, dict(wants))
    s = run(s, *bids(5, 0, {1: "garde_sans"}), Action("call", 1, card="SK"))
    s = run(s, Action("chelem", 1, announce=False))
    assert s.partner is None, why


def test_discarding_a_called_queen_makes_the_taker_alone() -> None:
    s = deal(5, {1: [*KINGS, "SQ", "S1", "S2"]})
    s = run(s, *bids(5, 0, {1: "prise"}), Action("call", 1, card="SQ"))
    s = run(s, Action("discard", 1, cards=("SQ", "S1", "S2")), Action("chelem", 1))
    assert s.partner is None and s.discard == tuple(sorted(("SQ", "S1", "S2")))


# ---- §3.5 discard (C-11, D-15) ---------------------------------------------------------


def _taken_4p(hand: list[str], dog: list[str]) -> FrenchTarotState:
    s = deal(4, {1: hand, "dog": dog})
    return run(s, *bids(4, 0, {1: "prise"}))


def test_discard_legal_cards_without_forced_trumps() -> None:
    s = _taken_4p(["S1", "S2", "S3", "S4", "S5", "S6", "SK", "T1", "T5"], [])
    (tmpl,) = RULES.legal_actions(s)
    assert tmpl.type == "discard" and tmpl.amount == 6
    hand = s.hands[1]
    plain = {c for c in hand if c[0] in "SHDC" and c != EXCUSE and c[1:] != "K"}
    assert set(tmpl.cards or ()) == plain
    for bad in (("SK", "S1", "S2", "S3", "S4", "S5"), ("T1", "S1", "S2", "S3", "S4", "S5")):
        with pytest.raises(IllegalAction):
            RULES.apply(s, Action("discard", 1, cards=bad))
    with pytest.raises(IllegalAction):  # a trump when not forced
        RULES.apply(s, Action("discard", 1, cards=("T5", "S1", "S2", "S3", "S4", "S5")))
    with pytest.raises(IllegalAction):  # wrong count
        RULES.apply(s, Action("discard", 1, cards=("S1", "S2", "S3", "S4", "S5")))


def test_discard_forced_trumps_are_exact_and_shown() -> None:
    # 24 cards after the dog: 4 plain non-King suit cards → exactly 2 trumps (C-11).
    trumps = [f"T{i}" for i in range(1, 19)]  # T1 held: never discardable
    hand = ["S1", "S2", "S3", "SK", *trumps[:14]]
    dog = ["H1", "HK", "DK", "CK", *trumps[14:16]]
    s = _taken_4p(hand, dog)
    (tmpl,) = RULES.legal_actions(s)
    held = s.hands[1]
    expected = {"S1", "S2", "S3", "H1"} | {c for c in held if c[0] == "T" and c != "T1"}
    expected.discard("T21")
    assert set(tmpl.cards or ()) == expected
    four = ("S1", "S2", "S3", "H1")
    with pytest.raises(IllegalAction):  # three trumps: more than forced
        RULES.apply(s, Action("discard", 1, cards=("S1", "S2", "S3", "T2", "T3", "T4")))
    with pytest.raises(IllegalAction):  # T1 is a bout
        RULES.apply(s, Action("discard", 1, cards=(*four, "T1", "T2")))
    s2, events = RULES.apply(s, Action("discard", 1, cards=(*four, "T2", "T3")))
    assert RULES.observe_public(s2).info["discarded_trumps"] == ["T2", "T3"]
    assert any(e.type == "discarded" and e.data["trumps"] == ["T2", "T3"] for e in events)
    assert "S1" not in str(RULES.observe_public(s2).to_json())
    assert RULES.observe(s2, 1).info["discard"]  # the taker sees the discard
    assert "discard" not in RULES.observe(s2, 2).info


def test_garde_sans_and_contre_skip_the_discard_and_hide_the_dog() -> None:
    for contract in ("garde_sans", "garde_contre"):
        s = run(deal(4, {}), *bids(4, 0, {1: contract}))
        assert s.phase is Phase.CHELEM and len(s.hands[1]) == 18
        assert RULES.observe_public(s).info["dog"] is None


# ---- §5.3 poignée (C-6, D-17) ----------------------------------------------------------


def test_poignee_levels_per_player_count() -> None:
    assert [o[1] for o in poignee_options(TRUMPS[:12], 3)] == []
    assert [o[1] for o in poignee_options(TRUMPS[:18], 3)] == [13, 15, 18]
    assert [o[1] for o in poignee_options(TRUMPS[:13], 4)] == [10, 13]
    assert [o[1] for o in poignee_options(TRUMPS[:9], 5)] == [8]
    assert [o[1] for o in poignee_options(TRUMPS[:15], 5)] == [8, 10, 13]


def test_poignee_excuse_only_with_every_trump() -> None:
    hand = [*TRUMPS[:9], EXCUSE]
    opts = poignee_options(hand, 4)
    assert [(lv, size) for lv, size, _ in opts] == [(0, 10)]
    assert set(opts[0][2]) == set(hand)
    opts = poignee_options([*TRUMPS[:12], EXCUSE], 4)
    assert [(lv, size, EXCUSE in cards) for lv, size, cards in opts] == [
        (0, 10, False),
        (1, 13, True),
    ]
    assert poignee_options([*TRUMPS[:8], EXCUSE], 4) == []


def _play_phase_4p(wants: dict[int | str, Sequence[str]]) -> FrenchTarotState:
    s = run(deal(4, wants), *bids(4, 0, {1: "garde_sans"}))
    return run(s, Action("chelem", 1, announce=False))


def test_poignee_declared_once_before_the_first_card() -> None:
    plain = ["S1", "S2", "S3", "S4", "S5", "S6"]
    s = _play_phase_4p({3: [*TRUMPS[1:12], EXCUSE, *plain]})  # 11 trumps + Excuse
    assert s.turn == 3
    kinds = {a.type for a in RULES.legal_actions(s)}
    assert kinds == {"play", "poignee"}
    descr = [d for d in RULES.legal_descriptors(s) if d["type"] == "poignee"]
    assert descr[0]["sizes"] == [10] and EXCUSE not in descr[0]["cards"]
    with pytest.raises(IllegalAction):  # 9 + Excuse: the Excuse needs all 11 trumps shown
        RULES.apply(s, Action("poignee", 3, cards=(*TRUMPS[1:10], EXCUSE)))
    with pytest.raises(IllegalAction):  # 11 cards: not a level
        RULES.apply(s, Action("poignee", 3, cards=tuple(TRUMPS[1:12])))
    s2, events = RULES.apply(s, Action("poignee", 3, cards=tuple(TRUMPS[2:12])))
    assert events[0].data["level"] == 0
    assert {a.type for a in RULES.legal_actions(s2)} == {"play"}  # once only
    pub = RULES.observe_public(s2).info["poignees"]
    assert pub == [{"seat": 3, "level": 0, "cards": sorted(TRUMPS[2:12])}]


def test_poignee_not_after_the_first_card() -> None:
    s = _play_phase_4p({2: [*TRUMPS[1:12], "S1", "S2", "S3", "S4", "S5", "S6", "S7"]})
    turns = 0
    while turns < 2:
        if s.turn == 2:
            turns += 1
            offered = any(a.type == "poignee" for a in RULES.legal_actions(s))
            assert offered == (turns == 1)
        s = run(s, RULES.default_action(s))


# ---- §4.2 legal plays, §4.3 winner -----------------------------------------------------


def test_must_follow_suit_without_beating() -> None:
    hand = ["S2", "S9", "H5", "T3", EXCUSE]
    assert set(legal_plays(hand, [(0, "SK")])) == {"S2", "S9", EXCUSE}


def test_must_trump_when_void() -> None:
    hand = ["H5", "T3", "T8", EXCUSE]
    assert set(legal_plays(hand, [(0, "SK")])) == {"T3", "T8", EXCUSE}


def test_must_overtrump_when_able_else_undertrump() -> None:
    hand = ["H5", "T3", "T8", "T15"]
    assert set(legal_plays(hand, [(0, "SK"), (1, "T10")])) == {"T15"}
    assert set(legal_plays(hand, [(0, "SK"), (1, "T16")])) == {"T3", "T8", "T15"}
    assert set(legal_plays(hand, [(0, "T9")])) == {"T15"}
    assert set(legal_plays(hand, [(0, "T20")])) == {"T3", "T8", "T15"}


def test_void_of_suit_and_trumps_plays_anything() -> None:
    hand = ["H5", "D3", EXCUSE]
    assert set(legal_plays(hand, [(0, "SK")])) == set(hand)
    assert set(legal_plays(hand, [(0, "T2")])) == set(hand)


def test_excuse_lead_lets_the_second_card_fix_the_suit() -> None:
    hand = ["S2", "H5", "T3"]
    assert set(legal_plays(hand, [(0, EXCUSE)])) == set(hand)
    assert set(legal_plays(hand, [(0, EXCUSE), (1, "H9")])) == {"H5"}


def test_trick_winner() -> None:
    assert trick_winner([(0, "S2"), (3, "SK"), (2, "HK"), (1, "S10")]) == 3
    assert trick_winner([(0, "S2"), (3, "SK"), (2, "T2"), (1, "T1")]) == 2
    assert trick_winner([(0, "SC"), (3, "SJ"), (2, "SQ")]) == 2  # D-4: Q > C > J
    assert trick_winner([(0, "SJ"), (3, "SC")]) == 3
    assert trick_winner([(0, EXCUSE), (4, "H3"), (3, "H9")]) == 3
    assert trick_winner([(0, "H3"), (1, EXCUSE)]) == 0


# ---- D-14, C-5: trick-1 called-suit ban ------------------------------------------------


def _lead_state(hand: list[str], called: str = "HK", tricks: int = 0) -> FrenchTarotState:
    others = [c for c in TAROT_PACK if c not in hand]
    hands = tuple(tuple(hand) if s == 4 else tuple(others[s * 3 : s * 3 + 3]) for s in range(5))
    done = tuple(((0, "S1"),) for _ in range(tricks))
    return FrenchTarotState(
        players=5,
        dealer=0,
        chelem_option=False,
        phase=Phase.PLAY,
        hands=hands,
        dog=(),
        turn=4,
        bids=("pass",) * 5,
        taker=1,
        contract="garde",
        called=called,
        leader=4,
        tricks=done,
        tricks_won=(0,) * 5,
    )


def test_trick_one_leader_may_not_lead_the_called_suit() -> None:
    s = _lead_state(["H2", "H7", "S3", "D4", "T6"])
    assert set(RULES.legal_cards(s)) == {"S3", "D4", "T6"}


def test_trick_one_leader_may_lead_the_called_card_itself() -> None:
    s = _lead_state(["HK", "H7", "S3"])
    assert set(RULES.legal_cards(s)) == {"HK", "S3"}


def test_trick_one_excuse_counts_as_something_else() -> None:
    s = _lead_state(["H2", "H7", EXCUSE])
    assert RULES.legal_cards(s) == [EXCUSE]


def test_trick_one_ban_lifted_when_nothing_else() -> None:
    s = _lead_state(["H2", "H7", "HQ"])
    assert set(RULES.legal_cards(s)) == {"H2", "H7", "HQ"}


def test_ban_only_at_trick_one_and_only_for_the_leader() -> None:
    assert set(RULES.legal_cards(_lead_state(["H2", "S3"], tricks=1))) == {"H2", "S3"}
    s = _lead_state(["H2", "S3"])._replace(trick=((0, EXCUSE),))
    assert set(RULES.legal_cards(s)) == {"H2", "S3"}  # after an Excuse lead: free


def test_ban_applies_to_the_taker_after_a_chelem_announcement() -> None:
    s = deal(5, {1: [*KINGS[1:], "S1", "S2", "T2", "T3"], 3: ["SK"]})
    s = run(s, *bids(5, 0, {1: "garde_sans"}), Action("call", 1, card="SK"))
    s = run(s, Action("chelem", 1, announce=True))
    assert s.turn == 1 and s.leader == 1  # D-5: the taker leads after announcing
    assert not any(c[0] == "S" for c in RULES.legal_cards(s))


def test_first_leader_is_right_of_dealer_without_chelem() -> None:
    s = run(deal(4, {}, dealer=2), *bids(4, 2, {0: "garde_sans"}))
    s = run(s, Action("chelem", 0, announce=False))
    assert s.turn == 1 and s.phase is Phase.PLAY


def test_chelem_step_absent_when_option_off() -> None:
    s = run(deal(4, {}, options={"chelem": False}), *bids(4, 0, {1: "garde_sans"}))
    assert s.phase is Phase.PLAY and s.turn == 3


# ---- §4.4 the Excuse (C-1, D-10, D-11), piles -------------------------------------------


def test_excuse_returns_to_its_camp_and_a_low_card_is_paid() -> None:
    tricks = [
        ((1, EXCUSE), (0, "SK"), (2, "S3")),  # the defence's Excuse, the attack's trick
        ((2, "H4"), (0, "H2"), (1, "H9")),
        ((0, "D1"), (1, "D2"), (2, "D3")),
    ]
    att, dfc, settled = piles(frozenset({0}), "prise", (), (), tricks, [0, 1, 0])
    assert EXCUSE in dfc and settled["debtor"] == "defence"
    assert settled["paid"] in {"H2", "H4", "H9"} and settled["paid"] in att
    assert sorted(att + dfc) == sorted(c for t in tricks for _, c in t)
    assert sum(map(hp, att)) == 9 + 1 + 3 + 1  # SK, S3, D1-D3, the paid card


def test_excuse_debt_paid_from_the_discard_at_once() -> None:
    """C-1: the attack's discard is in its pile, so its debt is paid immediately."""
    tricks = [((0, EXCUSE), (1, "SK"), (2, "S3")), ((1, "H4"), (2, "H2"), (0, "H9"))]
    att, dfc, settled = piles(frozenset({0}), "garde", (), ("C1",), tricks, [1, 1])
    assert settled == {"debtor": "attack", "paid": "C1"}
    assert EXCUSE in att and "C1" in dfc


def test_excuse_debt_lapses_without_a_low_card() -> None:
    """D-10: the defence never wins a low card → nothing is paid."""
    tricks = [((1, EXCUSE), (0, "SK"), (2, "HK")), ((0, "DK"), (1, "D2"), (2, "D3"))]
    _att, dfc, settled = piles(frozenset({0}), "prise", (), (), tricks, [0, 0])
    assert dfc == [EXCUSE] and settled == {"debtor": "defence", "paid": None}


def test_excuse_debt_paid_from_the_defences_dog_in_garde_contre() -> None:
    tricks = [((1, EXCUSE), (0, "SK"), (2, "HK")), ((0, "DK"), (1, "D2"), (2, "D3"))]
    att, _dfc, settled = piles(frozenset({0}), "garde_contre", ("C5",), (), tricks, [0, 0])
    assert settled == {"debtor": "defence", "paid": "C5"} and "C5" in att


def test_no_excuse_exchange_within_the_attack() -> None:
    """D-11: the partner's Excuse in a trick the taker won stays with the attack."""
    tricks = [((2, EXCUSE), (1, "SK"), (0, "S3"), (3, "S4"), (4, "S5"))]
    last = [((1, "H1"), (2, "H2"), (0, "H3"), (3, "H4"), (4, "H5"))]
    att, _dfc, settled = piles(frozenset({1, 2}), "prise", (), (), tricks + last, [1, 0])
    assert EXCUSE in att and settled["debtor"] is None


def test_excuse_in_the_last_trick_changes_camp() -> None:
    tricks = [((0, "S1"), (1, "S2"), (2, "S3")), ((0, EXCUSE), (1, "H2"), (2, "H3"))]
    _att, dfc, settled = piles(frozenset({0}), "prise", (), (), tricks, [0, 2])
    assert EXCUSE in dfc and settled["debtor"] is None


# ---- §5 scoring: the worked examples through ``score`` ----------------------------------


def _score(
    players: int,
    contract: str,
    attack_cards: list[str],
    *,
    taker: int = 0,
    partner: int | None = None,
    petit: str | None = None,
    poignees: Sequence[tuple[int, int]] = (),
    chelem: bool = False,
    all_tricks: bool = False,
    excuse_won_last: bool = False,
) -> tuple[tuple[int, ...], dict[str, Any]]:
    """Score a deal whose attack pile is ``attack_cards``. The Petit goes in the last trick,
    won by ``petit`` ("attack"/"defence"), or in an earlier one when ``petit`` is None."""
    defender = next(s for s in range(players) if s not in (taker, partner))
    att = [c for c in attack_cards if c != "T1"]
    dfc = [c for c in TAROT_PACK if c not in attack_cards and c != "T1"]
    win_a, win_d = taker, defender
    tricks: list[tuple[tuple[int, str], ...]] = []
    winners: list[int] = []
    if att:
        tricks.append(tuple((win_a, c) for c in att))
        winners.append(win_a)
    if dfc:
        tricks.append(tuple((win_d, c) for c in dfc))
        winners.append(win_d)
    petit_side = petit or ("attack" if "T1" in attack_cards else "defence")
    petit_trick = ((win_a if petit_side == "attack" else win_d, "T1"),)
    if petit is None:
        tricks.insert(0, petit_trick)
        winners.insert(0, petit_trick[0][0])
    else:
        tricks.append(petit_trick)
        winners.append(petit_trick[0][0])
    return score(
        players=players,
        taker=taker,
        partner=partner,
        contract=contract,
        dog=(),
        discard=(),
        tricks=tricks,
        winners=winners,
        excuse_won_last=excuse_won_last,
        poignees=poignees,
        chelem_announced=chelem,
    )


def _cards(named: list[str], low: int) -> list[str]:
    rest = [c for c in LOW if c not in named and c != "T1"]
    out = named + rest[:low]
    return out


def test_example_1_5p_garde_partner_poignee() -> None:
    cards = _cards(["T21", EXCUSE, "SK", "HK", "DK", "SQ", "CQ", "DC", "HJ"], 29)
    assert len(cards) == 38 and sum(map(hp, cards)) == 96
    deltas, d = _score(5, "garde", cards, taker=0, partner=2, poignees=[(0, 0)])
    assert (d["points_hp"], d["target_hp"], d["difference"], d["unit"]) == (96, 82, 7, 84)
    assert deltas == (168, -84, 84, -84, -84)


def test_example_2_5p_prise_failed_petit_au_bout_defence() -> None:
    cards = _cards(["T21", "SK", "HK", "DK", "SQ", "HQ", "SC", "HC", "SJ", "HJ"], 23)
    assert sum(map(hp, cards)) == 89
    deltas, d = _score(5, "prise", cards, taker=1, partner=3, petit="defence")
    assert (d["made"], d["difference"], d["petit_au_bout"], d["unit"]) == (False, 7, -10, -42)
    assert deltas == (42, -84, 42, -42, 42)


def test_example_3_5p_garde_sans_solo_petit_au_bout() -> None:
    cards = _cards(["T1", "T21", EXCUSE, *KINGS, "SQ", "HQ"], 3)
    assert sum(map(hp, cards)) == 80
    deltas, d = _score(5, "garde_sans", cards, taker=4, partner=None, petit="attack")
    assert (d["difference"], d["petit_au_bout"], d["unit"], d["solo"]) == (4, 40, 156, True)
    assert deltas == (-156, -156, -156, -156, 624)


def test_example_4_5p_garde_contre_defender_double_poignee() -> None:
    cards = _cards(["T21", EXCUSE, *KINGS, "SQ", "HQ"], 2)
    assert sum(map(hp, cards)) == 70
    deltas, d = _score(5, "garde_contre", cards, taker=0, partner=1, poignees=[(3, 1)])
    assert (d["difference"], d["poignee_total"], d["unit"]) == (6, -30, -216)
    assert deltas == (-432, -216, 216, 216, 216)


def test_example_5_5p_chelem_announced_made() -> None:
    tricks = [((0, c),) for c in TAROT_PACK if c not in ("T1", EXCUSE)]
    tricks += [((0, "T1"),), ((0, EXCUSE),)]
    winners = [0] * len(tricks)
    deltas, d = score(
        players=5,
        taker=0,
        partner=2,
        contract="garde",
        dog=(),
        discard=(),
        tricks=tricks,
        winners=winners,
        excuse_won_last=True,
        poignees=[],
        chelem_announced=True,
    )
    assert (d["difference"], d["petit_au_bout"], d["chelem"], d["unit"]) == (55, 20, 400, 580)
    assert deltas == (1160, -580, 580, -580, -580)


def test_example_6_4p_garde_failed_defender_poignee() -> None:
    cards = _cards(["T21", EXCUSE, *KINGS, "SQ", "HQ", "DQ"], 1)
    assert sum(map(hp, cards)) == 76
    deltas, d = _score(4, "garde", cards, taker=2, poignees=[(1, 1)])
    assert (d["difference"], d["unit"]) == (3, -86)
    assert deltas == (86, 86, -258, 86)


def test_example_7_4p_prise_juste_fait() -> None:
    cards = _cards(["T21", *KINGS, "SQ", "HQ", "DQ", "CQ", "SC", "HC", "DC", "CC"], 9)
    assert sum(map(hp, cards)) == 102
    deltas, d = _score(4, "prise", cards, taker=3)
    assert (d["made"], d["diff_hp"], d["difference"], d["unit"]) == (True, 0, 0, 25)
    assert deltas == (-25, -25, -25, 75)


def test_example_8_3p_half_point_goes_to_the_winning_camp() -> None:
    cards = _cards([*KINGS, "SQ", "HQ", "DQ", "CQ", "SC", "HC", "DC", "CC", "SJ"], 34)
    assert sum(map(hp, cards)) == 121 and not BOUTS & set(cards)
    deltas, d = _score(3, "prise", cards, taker=1)
    assert (d["diff_hp"], d["difference"], d["unit"]) == (9, 5, 30)
    assert deltas == (-30, 60, -30)


@pytest.mark.parametrize(("points_hp", "made", "g"), [(83, True, 1), (81, False, 1), (82, True, 0)])
def test_half_point_rounding(points_hp: int, made: bool, g: int) -> None:
    """D-8: 41.5 vs 41 → made by 1; 40.5 vs 41 → failed by 1."""
    named = ["T21", EXCUSE, *KINGS, "SQ", "HQ", "DQ", "CQ"]  # 18 + 36 + 28 = 82
    cards = {
        83: _cards(named, 1),
        81: _cards([*named[:-1], "CC"], 1),  # 82 - 7 + 5 + 1
        82: named,
    }[points_hp]
    assert sum(map(hp, cards)) == points_hp
    _, d = _score(4, "prise", cards)
    assert (d["made"], d["difference"]) == (made, g)


@pytest.mark.parametrize(
    ("announced", "made", "bonus"), [(True, True, 400), (False, True, 200), (True, False, -200)]
)
def test_chelem_bonuses(announced: bool, made: bool, bonus: int) -> None:
    tricks = [((0, c),) for c in TAROT_PACK]
    winners = [0] * len(tricks)
    if not made:
        winners[5] = 1
    _, d = score(
        players=3,
        taker=0,
        partner=None,
        contract="prise",
        dog=(),
        discard=(),
        tricks=tricks,
        winners=winners,
        excuse_won_last=False,
        poignees=[],
        chelem_announced=announced,
    )
    assert d["chelem"] == bonus and d["chelem_made"] == made


def test_defender_excuse_does_not_break_a_chelem() -> None:
    """C-4: the attack won every trick although a defender played the Excuse."""
    tricks = [((1, EXCUSE), (0, "SK"), (2, "S3"))]
    tricks += [((0, c),) for c in TAROT_PACK if c not in (EXCUSE, "SK", "S3")]
    _, d = score(
        players=3,
        taker=0,
        partner=None,
        contract="prise",
        dog=(),
        discard=(),
        tricks=tricks,
        winners=[0] * len(tricks),
        excuse_won_last=False,
        poignees=[],
        chelem_announced=False,
    )
    assert d["chelem_made"] and d["chelem"] == 200


def test_weights_per_player_count() -> None:
    """D-3: 3p ×2, 4p ×3, 5p 2/1/−1 with a partner and 4/−1 alone."""
    cards = _cards(["T21", "T1", EXCUSE, *KINGS], 36)
    for players, partner, expect_taker in [(3, None, 2), (4, None, 3), (5, 1, 2), (5, None, 4)]:
        deltas, d = _score(players, "prise", cards, taker=0, partner=partner)
        u = d["unit"]
        assert deltas[0] == expect_taker * u and sum(deltas) == 0
        if partner is not None:
            assert deltas[partner] == u


# ---- §4.5 / C-2 / C-3: the Excuse wins the last trick ----------------------------------


def _last_trick_state(
    attack_won_all: bool, petit_in_penultimate: bool
) -> tuple[FrenchTarotState, list[Action]]:
    """3 players, taker 0, Prise; 23 tricks played; seat 0 leads the last trick."""
    last = {0: EXCUSE, 1: "H2", 2: "H3"}
    if not petit_in_penultimate:
        last[1] = "T1"
    rest = [c for c in TAROT_PACK if c not in last.values()]
    discard = [c for c in rest if c[0] == "S" and hp(c) == 1][:6]
    rest = [c for c in rest if c not in discard]
    if petit_in_penultimate:
        rest.remove("T1")
        rest.insert(66, "T1")  # trick 22 = cards 66–68
    tricks = tuple(
        tuple((i % 3, c) for i, c in enumerate(rest[k : k + 3])) for k in range(0, 69, 3)
    )
    winner = 0 if attack_won_all else 1
    s = FrenchTarotState(
        players=3,
        dealer=1,
        chelem_option=True,
        phase=Phase.PLAY,
        hands=((EXCUSE,), (last[1],), (last[2],)),
        dog=tuple(discard),
        turn=0 if attack_won_all else 1,
        bids=("prise", "pass", "pass"),
        taker=0,
        contract="prise",
        discard=tuple(discard),
        leader=0,
        tricks=tricks,
        winners=(winner,) * 23,
        tricks_won=(23, 0, 0) if attack_won_all else (0, 23, 0),
    )
    return s, []


def test_excuse_led_to_the_last_trick_wins_for_a_chelem_attack() -> None:
    s, _ = _last_trick_state(attack_won_all=True, petit_in_penultimate=True)
    s = run(s, Action("play", 0, card=EXCUSE), Action("play", 2, card="H3"))
    s = run(s, Action("play", 1, card="H2"))
    assert s.winners[-1] == 0 and s.outcome == "played"
    d = s.detail or {}
    assert d["chelem_made"] and d["chelem"] == 200  # not announced
    assert d["petit_au_bout"] == 10 and d["points_hp"] == 182  # C-3: penultimate Petit


def test_excuse_last_trick_petit_played_in_it_goes_to_the_winner() -> None:
    """C-3: the Petit in the last trick itself, the Excuse winning: the attack's bonus."""
    s, _ = _last_trick_state(attack_won_all=True, petit_in_penultimate=False)
    s = run(s, Action("play", 0, card=EXCUSE), Action("play", 2, card="H3"))
    s = run(s, Action("play", 1, card="T1"))
    d = s.detail or {}
    assert s.winners[-1] == 0 and d["petit_au_bout"] == 10 and d["chelem_made"]


def test_excuse_led_last_by_a_defence_that_won_everything() -> None:
    """C-2: either camp; the defender leading the Excuse wins; no chelem for anyone."""
    s, _ = _last_trick_state(attack_won_all=False, petit_in_penultimate=True)
    hands = (("H2",), (EXCUSE,), ("H3",))
    s = s._replace(hands=hands)
    s = run(s, Action("play", 1, card=EXCUSE), Action("play", 0, card="H2"))
    s = run(s, Action("play", 2, card="H3"))
    d = s.detail or {}
    assert s.winners[-1] == 1 and not d["chelem_made"] and d["chelem"] == 0
    assert d["petit_au_bout"] == -10  # defence's Petit in the penultimate trick


# ---- C-12 rotation, D-20 match end -----------------------------------------------------


def test_dealer_rotation_is_to_the_right() -> None:
    assert [RULES.next_dealer(d, 5) for d in range(5)] == [4, 0, 1, 2, 3]
    assert RULES.next_dealer(0, 3) == 2


def test_match_end_counts_only_played_deals() -> None:
    played = DealResult("played", (2, -1, -1), {})
    for outcome in ("thrown_in", "redeal"):
        assert not RULES.counts_toward_end(DealResult(outcome, (0, 0, 0), {}))
    assert RULES.counts_toward_end(played)
    opts = RULES.normalize_options({})
    assert opts == {"deals": None, "chelem": True}
    assert RULES.match_end((2, -1, -1), 5, opts, played) is None  # default 2 × 3
    assert RULES.match_end((2, -1, -1), 6, opts, played) == (0,)
    assert RULES.match_end((4, 4, -8), 1, {**opts, "deals": 1}, played) == (0, 1)


def test_match_with_thrown_in_deal_plays_on() -> None:
    m = match.new_match("french_tarot", 3, {"deals": 1}, 0)
    deck = list(TAROT_PACK)
    m = match.start_deal(m, deck)
    if m.deal_over:  # the reference order might be a petit sec: not here
        pytest.fail("reference pack dealt a petit sec")
    for seat in (2, 1, 0):
        m, _ = match.apply(m, bid(seat))
    assert m.deal_over and not m.finished and m.dealer == 2 and m.deals_played == 1
    m = match.start_deal(m, deck)
    m, _ = match.apply(m, bid(1, "prise"))  # the new dealer is 2: seat 1 speaks first
    while not m.deal_over:
        m, _ = match.apply(m, RULES.default_action(m.deal))
    if m.results[-1].outcome == "played":
        assert m.finished and m.winners
    else:
        assert not m.finished


@pytest.mark.parametrize("bad", [{"deals": 0}, {"chelem": "yes"}, {"target": 50}])
def test_bad_options(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        RULES.normalize_options(bad)
