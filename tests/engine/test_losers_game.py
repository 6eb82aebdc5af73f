"""Loser's Game rules, one at a time, on small positions and on the spec's worked examples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.engine import match
from bot.engine.actions import Action
from bot.engine.errors import IllegalAction
from bot.engine.games.losers_game import RULES, LosersGameState, Phase
from bot.engine.games.losers_game_scoring import (
    PACK,
    b_max,
    hand_size,
    legal_plays,
    points_taken,
    score_change,
    trick_winner,
    trump_caller,
)
from bot.engine.views import DealResult

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def replay(name: str) -> LosersGameState:
    """The state after the first deal of a scenario file."""
    data = json.loads((SCENARIOS / f"losers_game_{name}.json").read_text())
    deal = data["deals"][0]
    s = RULES.new_deal(data["players"], {}, deal["deck"], deal["dealer"])
    for a in deal["actions"]:
        fields = {k: v for k, v in a.items() if k not in ("seat", "type")}
        s, _ = RULES.apply(s, Action(a["type"], a["seat"], **fields))
    return s


def test_deal_sizes_and_face_up_excess() -> None:
    for n, (each, excess) in {2: (26, 0), 3: (17, 1), 4: (13, 0), 5: (10, 2), 6: (8, 4)}.items():
        s = RULES.new_deal(n, {}, PACK, 0)
        assert hand_size(n) == each and [len(h) for h in s.hands] == [each] * n
        assert len(s.excess) == excess
        assert RULES.observe_public(s).info["excess"] == sorted(s.excess)  # D-3: face up
    s = RULES.new_deal(4, {}, PACK, 3)
    assert s.hands[0][:2] == (PACK[0], PACK[4])  # §2: the dealer's left gets deck[0]


def test_trump_caller_lowest_total_then_clockwise_from_the_dealers_left() -> None:
    assert trump_caller([10, 4, 4, 20], 3) == 1  # §5.4: Ben, not Cal
    assert trump_caller([0, 0, 0, 0], 2) == 3  # first hand: left(dealer)
    assert trump_caller([-5, 3, -5, 0], 0) == 2  # C-3: negatives; Cal is met before Ana
    s = RULES.new_deal(4, {"totals": [10, 4, 4, 20]}, PACK, 3)
    assert s.caller == 1 and s.turn == 1 and s.phase is Phase.TRUMP


def test_b_max_depends_on_trump_and_the_excess() -> None:
    assert b_max("H", []) == 13 + 13 * 9 == 130  # §3.2
    assert b_max("H", ["C7", "HQ"]) == 12 + 11 * 9 + 2 * 3 == 117  # §5.4, 5 players
    assert b_max("S", ["S2", "S3", "H3", "D9"]) == 11 + 10 * 9 + 3 + 3  # three 3s left: 3
    assert b_max("C", ["S2", "S3", "H3", "D9"]) == 13 + 10 * 9 + 3 + 3


def test_bidding_from_the_callers_left_caller_last_then_the_caller_leads() -> None:
    s = RULES.new_deal(4, {"totals": [10, 4, 4, 20]}, PACK, 3)
    assert {a.suit for a in RULES.legal_actions(s)} == {"S", "H", "D", "C"}  # D-5
    s, _ = RULES.apply(s, Action("trump", 1, suit="H"))
    order = []
    while s.phase is Phase.BIDDING:
        assert s.turn is not None
        legal = RULES.legal_actions(s)
        assert [a.amount for a in legal] == list(range(131))
        order.append(s.turn)
        s, _ = RULES.apply(s, Action("bid", s.turn, amount=2))
    assert order == [2, 3, 0, 1]  # §5.4: Cal, Dee, Ana, Ben
    assert s.phase is Phase.PLAY and s.turn == 1 and s.leader == 1


@pytest.mark.parametrize("amount", [-1, 131, None])
def test_bids_outside_zero_to_b_max_are_refused(amount: int | None) -> None:
    s = RULES.new_deal(4, {}, PACK, 3)
    s, _ = RULES.apply(s, Action("trump", 0, suit="S"))
    with pytest.raises(IllegalAction):
        RULES.apply(s, Action("bid", 1, amount=amount))


def test_follow_suit_or_play_anything_and_the_trick_winner() -> None:
    assert legal_plays(("S5", "H2", "C9"), ((0, "S9"),)) == ("S5",)
    assert legal_plays(("H2", "C9"), ((0, "S9"),)) == ("H2", "C9")  # no need to trump
    assert legal_plays(("H2", "C9"), ()) == ("H2", "C9")  # a trump may be led (D-11)
    assert trick_winner(((0, "S9"), (1, "SA"), (2, "C2"), (3, "D10")), "C") == 2
    assert trick_winner(((0, "S9"), (1, "SA"), (2, "H2"), (3, "D10")), "C") == 1
    assert trick_winner(((0, "C3"), (1, "CK"), (2, "SA")), "H") == 1  # off-suit never wins


def test_points_are_additive_and_four_of_a_kind_is_not_also_three() -> None:
    assert points_taken(["SQ", "HQ", "DQ", "CQ", "SK", "DK", "CK"], "H") == (1, 12)  # Ben
    assert points_taken(["H2", "H7", "HK", "S7", "D7", "C9", "D9"], "H") == (3, 3)  # Ana
    assert points_taken(["H7", "S7"], "H") == (1, 0)
    assert score_change(6, 5) == 5 and score_change(13, 15) == -15
    assert score_change(0, 0) == 0 and score_change(9, 6) == 6  # only the bid is scored


def test_the_worked_scoring_table() -> None:
    s = replay("example_scoring_table")
    res = RULES.result(s)
    assert res is not None
    assert res.deltas == (5, -15, 0, 6)
    assert res.detail["trump_points"] == [3, 1, 0, 9]
    assert res.detail["set_points"] == [3, 12, 0, 0]
    assert res.detail["points"] == [6, 13, 0, 9]
    assert res.detail["made"] == [True, False, True, True]
    assert res.detail["sets"] == [[["7", 3]], [["K", 3], ["Q", 4]], [], []]
    assert res.detail["trumps_taken"][0] == ["HK", "H7", "H2"]
    assert len(res.detail["trumps_taken"][3]) == 9


def test_piles_stay_hidden_until_the_hand_ends_and_the_last_trick_until_the_next_lead() -> None:
    s = RULES.new_deal(4, {}, PACK, 3)
    s, _ = RULES.apply(s, Action("trump", 0, suit="S"))
    for seat in (1, 2, 3, 0):
        s, _ = RULES.apply(s, Action("bid", seat, amount=0))
    for _ in range(4):
        assert s.turn is not None
        s, _ = RULES.apply(s, RULES.default_action(s))
    pv = RULES.observe_public(s)
    assert pv.info["piles"] is None and len(pv.last_trick) == 4  # D-9
    assert s.turn is not None
    s, _ = RULES.apply(s, RULES.default_action(s))  # the next lead hides the last trick
    assert RULES.observe_public(s).last_trick == ()
    while s.turn is not None:
        s, _ = RULES.apply(s, RULES.default_action(s))
    piles = RULES.observe_public(s).info["piles"]
    assert piles is not None and sum(len(p) for p in piles) == 52


def test_wrong_turn_wrong_phase_and_unheld_cards_are_refused() -> None:
    s = RULES.new_deal(4, {}, PACK, 3)
    for bad in (
        Action("trump", 1, suit="S"),  # not your turn
        Action("bid", 0, amount=1),  # before the trump
        Action("trump", 0, suit="N"),  # D-5: no no-trump
        Action("play", 0, card=s.hands[0][0]),
    ):
        with pytest.raises(IllegalAction):
            RULES.apply(s, bad)


def test_game_end_unique_top_and_hand_limit() -> None:
    last = DealResult("played", (0, 0, 0, 0), {})
    opts = RULES.normalize_options({})
    assert RULES.match_end([52, 52, 30, 11], 4, opts, last) is None  # §5.4: tied top
    assert RULES.match_end([58, 48, 30, 11], 5, opts, last) == (0,)
    assert RULES.match_end([55, 50, 30, 11], 5, opts, last) == (0,)
    limited = RULES.normalize_options({"hand_limit": 3})
    assert RULES.match_end([20, 20, 5, 1], 3, limited, last) == (0, 1)  # C-4: co-winners
    assert RULES.match_end([20, 20, 5, 1], 2, limited, last) is None


def test_match_passes_the_totals_to_the_next_deal() -> None:
    m = match.new_match("losers_game", 4, {}, 3)
    m = match.start_deal(m, PACK)
    assert m.deal.caller == 0
    m = match.apply(m, Action("trump", 0, suit="S"))[0]
    for seat, bid in ((1, 1), (2, 0), (3, 0), (0, 0)):
        m = match.apply(m, Action("bid", seat, amount=bid))[0]
    while RULES.to_act(m.deal) is not None:
        m = match.apply(m, RULES.default_action(m.deal))[0]
    assert m.totals[1] != 0 and m.dealer == 0  # D-2: the deal rotates left
    m = match.start_deal(m, PACK)
    assert m.deal.totals == tuple(m.totals)
    assert m.deal.caller == trump_caller(m.totals, 0)


def test_default_action_is_always_legal() -> None:
    s = RULES.new_deal(5, {}, PACK[::-1], 1)
    while s.turn is not None:
        action = RULES.default_action(s)
        assert action in RULES.legal_actions(s)
        s, _ = RULES.apply(s, action)
    with pytest.raises(IllegalAction):
        RULES.default_action(s)
