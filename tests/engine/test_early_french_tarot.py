"""Early French Tarot rules, one ruling at a time (``shared/rules/french_tarot_17c.md``).

Full hands from the spec's worked examples live in ``tests/scenarios/early_french_tarot_*``;
these tests pin the individual decisions with small hand-made positions.
"""

from __future__ import annotations

import pytest

from bot.engine import match
from bot.engine.actions import Action
from bot.engine.cards import TAROT_PACK
from bot.engine.errors import IllegalAction
from bot.engine.games.early_french_tarot import (
    HONOUR,
    RULES,
    EarlyFrenchTarotState,
    card_to_give,
    hand_score,
    legal_cards,
    trick_winner,
)
from bot.engine.views import DealResult
from tests.engine import early_french_tarot_model as model


def state(hands: list[list[str]], **kw: object) -> EarlyFrenchTarotState:
    n = len(hands)
    base = EarlyFrenchTarotState(
        players=n,
        dealer=n - 1,
        every_card_scores=False,
        hands=tuple(tuple(h) for h in hands),
        set_aside=(),
        turn=0,
        piles=((),) * n,
    )
    return base._replace(**kw)


def play(s: EarlyFrenchTarotState, *cards: str) -> EarlyFrenchTarotState:
    for c in cards:
        assert s.turn is not None
        s, _ = RULES.apply(s, Action("play", s.turn, card=c))
    return s


def test_pack_honours_and_deal() -> None:
    assert sum(HONOUR.values()) == 53  # §1
    deck = list(reversed(TAROT_PACK))
    for n in range(2, 7):
        s = RULES.new_deal(n, {}, deck, dealer=n - 1)
        assert [len(h) for h in s.hands] == [12] * n
        assert len(s.set_aside) == 78 - 12 * n  # §2 table
        assert s.hands[0][0] == deck[0] and s.hands[1 % n][0] == deck[1]  # D-3
        assert s.turn == 0  # the dealer's left leads


def test_ace_is_low_and_trumps_beat_suits() -> None:
    assert trick_winner([(0, "S1"), (1, "S2"), (2, "SK")]) == 2
    assert trick_winner([(0, "SK"), (1, "S1")]) == 0
    assert trick_winner([(0, "SK"), (1, "T2"), (2, "T1")]) == 1
    assert trick_winner([(0, "SC"), (1, "SJ")]) == 0  # D-13: the Knight above the Page
    assert trick_winner([(0, "S2"), (1, "HK")]) == 0  # off-suit never wins (D-12)


def test_fool_never_wins_and_a_fool_lead_lets_the_next_card_set_the_suit() -> None:
    assert trick_winner([(0, "EX"), (1, "H3"), (2, "HK"), (3, "S9")]) == 2  # D-6
    assert trick_winner([(0, "EX"), (1, "S2")]) == 1  # C-4
    assert legal_cards(["S2", "H4", "EX"], [(0, "EX")]) == ("S2", "H4", "EX")
    assert legal_cards(["S2", "H4"], [(0, "EX"), (1, "H9")]) == ("H4",)


@pytest.mark.parametrize(
    ("hand", "trick", "allowed"),
    [
        (["S2", "S9", "T4", "EX"], [(0, "S5")], {"S2", "S9", "EX"}),  # follow, or the Fool
        (["H2", "T4", "T20"], [(0, "S5"), (1, "T21")], {"T4", "T20"}),  # D-7: no overtrump
        (["H2", "D4"], [(0, "S5")], {"H2", "D4"}),  # void in both: anything
        (["S2", "T3"], [(0, "T9")], {"T3"}),  # trump led
        (["S2", "H3"], [(0, "T9")], {"S2", "H3"}),
    ],
)
def test_must_follow_else_trump(
    hand: list[str], trick: list[tuple[int, str]], allowed: set[str]
) -> None:
    assert set(legal_cards(hand, trick)) == allowed
    assert set(legal_cards(hand, trick)) == set(model.legal(hand, trick))


def test_handover_picks_lowest_honour_then_earliest_won() -> None:
    assert card_to_give(["SK", "H5", "D3"]) == "H5"  # D-8
    assert card_to_give(["SK", "HJ", "DQ"]) == "HJ"
    assert card_to_give(["EX", "SK", "SQ"]) == "SQ"  # C-2: never the Fool itself


def test_fool_exchange_when_its_player_has_won_cards() -> None:
    hands = [["SK", "EX"], ["S3", "H2"], ["S4", "H3"]]
    s = play(state(hands), "SK", "S3", "S4")  # Ana wins S3, S4 with her King
    s = play(s, "EX", "H2", "H3")
    # Cal takes H2 H3 and gets S3, Ana's earliest zero-value card (D-8); counts unchanged.
    assert s.piles[0] == ("SK", "S4", "EX") and s.piles[2] == ("H2", "H3", "S3")
    assert s.exchanges == ((0, 2, "S3", 2, "exchange"),)
    res = RULES.result(s)
    assert res is not None and res.detail["cards"] == [3, 0, 3]


def test_debt_is_paid_after_the_next_won_trick_and_the_fool_kept() -> None:
    hands = [["EX", "SK"], ["S3", "S4"], ["S5", "S6"]]
    s = play(state(hands), "EX", "S3", "S5")  # Cal wins; Ana owes him a card
    assert s.fool_creditor == 2 and s.piles[0] == ("EX",)
    s = play(s, "S6", "SK", "S4")  # Cal leads, Ana wins
    assert s.fool_creditor is None and "EX" in s.piles[0]
    assert s.exchanges[-1] == (0, 2, "S6", 2, "debt_paid")


def test_unpaid_debt_surrenders_the_fool_at_the_end() -> None:
    hands = [["EX", "S2"], ["S3", "S4"], ["S5", "S6"]]
    s = play(state(hands), "EX", "S3", "S5", "S6", "S2", "S4")
    assert s.turn is None
    assert "EX" in s.piles[2] and s.piles[0] == ()
    assert s.exchanges[-1][-1] == "surrender"


def test_fool_on_the_last_trick_still_returns() -> None:
    hands = [["SK", "EX"], ["S3", "H2"], ["S4", "H3"]]
    s = play(state(hands), "SK", "S3", "S4")
    s = play(s, "EX", "H2", "H3")  # the second trick is the last one of this position
    assert s.turn is None and "EX" in s.piles[0]


def test_scores_default_and_every_card() -> None:
    pile = ["SK"] * 1 + ["S2"] * 15
    assert hand_score(pile, False) == (4, 4, 8)
    assert hand_score(pile, True) == (16, 4, 20)
    assert hand_score(["EX", "C10", "HQ", "T14"], False) == (0, 8, 8)  # §5.3 B


def test_illegal_plays_are_refused_without_change() -> None:
    s = state([["S2", "H4"], ["S3", "H5"]])
    with pytest.raises(IllegalAction) as e:
        RULES.apply(s, Action("play", 1, card="S3"))
    assert e.value.code == "not_your_turn"
    s = play(s, "S2")
    with pytest.raises(IllegalAction) as e:
        RULES.apply(s, Action("play", 1, card="H5"))
    assert e.value.code == "illegal_action" and "follow suit" in e.value.detail
    with pytest.raises(IllegalAction):
        RULES.apply(s, Action("play", 1, card="T21"))


def test_game_end_example_d() -> None:
    last = DealResult("played", (0, 0, 0, 0))
    opts = RULES.normalize_options({})
    assert RULES.match_end((52, 47, 50, 20), 5, opts, last) == (0,)  # Ana wins
    assert RULES.match_end((52, 47, 52, 20), 5, opts, last) is None  # D-11: play on
    assert RULES.match_end((49, 47, 30, 20), 5, opts, last) is None


def test_options() -> None:
    assert RULES.normalize_options({}) == {"target": 50, "every_card_scores": False}
    with pytest.raises(ValueError):
        RULES.normalize_options({"hand_limit": 3})  # C-3
    with pytest.raises(ValueError):
        match.new_match("early_french_tarot", 7, {}, 0)  # D-1


def test_default_action_is_the_lowest_card_and_keeps_the_fool() -> None:
    s = state([["SK", "S2", "EX", "T1"], ["S3"]])
    assert RULES.default_action(s) == Action("play", 0, card="S2")
    s = state([["EX"], ["S3"]])
    assert RULES.default_action(s) == Action("play", 0, card="EX")
