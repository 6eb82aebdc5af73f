"""Queen of Tarot rules, one ruling at a time (``shared/rules/queen_of_tarot.md``).

Whole hands from the spec's worked examples live in ``tests/scenarios/queen_of_tarot_*``;
these tests pin the individual rules with small hand-made positions, checked against the
spec's own tables or the independent model (``queen_of_tarot_model``).
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
from bot.engine.games.queen_of_tarot import RULES
from bot.engine.games.queen_of_tarot_cards import (
    POINTS,
    legal_cards,
    right,
    roles,
    trick_winner,
)
from bot.engine.games.queen_of_tarot_declare import best_set, declaration, legal_sets
from bot.engine.games.queen_of_tarot_state import Phase, QueenOfTarotState
from tests.engine import queen_of_tarot_model as model

ANN, BO, CY = 0, 1, 2
DECK = shuffle(TAROT_PACK, 4)


def fresh(dealer: int = CY, **options: Any) -> QueenOfTarotState:
    return RULES.new_deal(3, options, DECK, dealer)


def act(s: QueenOfTarotState, kind: str, **kw: Any) -> QueenOfTarotState:
    assert s.turn is not None
    return RULES.apply(s, Action(kind, s.turn, **kw))[0]


def calls(s: QueenOfTarotState, *script: tuple[str, int | None]) -> QueenOfTarotState:
    for kind, amount in script:
        s = act(s, kind, amount=amount)
    return s


def to_discard(dealer: int = CY) -> QueenOfTarotState:
    s = fresh(dealer)
    for _ in range(3):
        s = act(s, "continue")
    assert s.phase is Phase.DISCARD
    return s


def playing(hands: list[list[str]], turn: int | None = BO, **kw: Any) -> QueenOfTarotState:
    """A hand in the card play with the given hands (Cy deals, so Bo leads)."""
    base = QueenOfTarotState(
        dealer=CY,
        max_bargain=43,
        phase=Phase.PLAY,
        turn=turn,
        hands=tuple(tuple(h) for h in hands),
        stock=(),
        rounds=5,
        session=3,
    )
    return base._replace(**kw)


def play(s: QueenOfTarotState, *cards: str) -> QueenOfTarotState:
    for c in cards:
        s = act(s, "play", card=c)
    return s


# ---- cards and ranking (§1, D-1, D-3) --------------------------------------------------------


def test_pack_counts_129_with_the_fool_at_4() -> None:
    assert sum(POINTS.values()) == 129
    assert POINTS["EX"] == 4 and POINTS["T20"] == POINTS["T1"] == 5 and POINTS["T21"] == 1
    assert all(POINTS[c] == model.value(c) for c in TAROT_PACK)
    assert sum(1 for c in TAROT_PACK if POINTS[c] == 1) == 59  # the empty cards


@pytest.mark.parametrize(
    ("trick", "winner"),
    [
        ([(BO, "T21"), (ANN, "T20"), (CY, "T2")], ANN),  # XX beats XXI
        ([(BO, "H10"), (ANN, "H1"), (CY, "H8")], ANN),  # Cups: 1 best pip
        ([(BO, "H1"), (ANN, "H2"), (CY, "HJ")], CY),  # a Valet beats the 1
        ([(BO, "D9"), (ANN, "D10"), (CY, "D2")], CY),  # Coins inverted too
        ([(BO, "S1"), (ANN, "S10"), (CY, "S9")], ANN),  # Swords: 10 beats 1
        ([(BO, "C2"), (ANN, "C1"), (CY, "CK")], CY),  # Batons: King highest
        ([(BO, "S2"), (ANN, "T1"), (CY, "SK")], ANN),  # any trump beats the suit
        ([(BO, "S2"), (ANN, "HK"), (CY, "S3")], CY),  # off-suit never wins
        ([(BO, "EX"), (ANN, "D10"), (CY, "D9")], CY),  # led Fool: the next card sets suit
        ([(BO, "D5"), (ANN, "EX"), (CY, "C1")], BO),  # the Fool never wins
    ],
)
def test_trick_winner(trick: list[tuple[int, str]], winner: int) -> None:
    assert trick_winner(trick) == winner == model.winner(trick)


def test_winner_agrees_with_the_model_on_random_tricks() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        cards = rng.sample(TAROT_PACK, 3)
        trick = list(zip((BO, ANN, CY), cards, strict=True))
        if [c for c in cards if c != "EX"]:
            assert trick_winner(trick) == model.winner(trick)


def test_follow_else_trump_else_anything_fool_always() -> None:
    hand = ["S3", "SK", "T4", "T19", "EX", "H2"]
    assert set(legal_cards(hand, [(BO, "S9")])) == {"S3", "SK", "EX"}
    assert set(legal_cards(hand, [(BO, "D9")])) == {"T4", "T19", "EX"}  # any trump
    assert set(legal_cards(hand, [(BO, "T21")])) == {"T4", "T19", "EX"}
    no_trump = ["S3", "H2", "EX"]
    assert set(legal_cards(no_trump, [(BO, "D9")])) == set(no_trump)
    assert set(legal_cards(no_trump, [(BO, "T21")])) == set(no_trump)
    assert set(legal_cards(hand, [(BO, "EX")])) == set(hand)  # D-12
    assert set(legal_cards(hand, [(BO, "EX"), (ANN, "H5")])) == {"H2", "EX"}


# ---- deal (§2, D-4) ------------------------------------------------------------------------


def test_roles_and_direction() -> None:
    assert roles(CY) == (BO, ANN, CY)  # §5.3: Cy deals, Bo is Eldest, Ann Middle
    assert right(ANN) == CY and RULES.next_dealer(CY, 3) == BO


def test_staged_deal_in_packets_of_five() -> None:
    s = fresh()
    assert [len(h) for h in s.hands] == [10, 10, 10] and s.turn == BO
    assert s.hands[BO][:5] == DECK[0:5] and s.hands[ANN][:5] == DECK[5:10]
    assert s.hands[CY][:5] == DECK[10:15] and s.hands[BO][5:] == DECK[15:20]
    s = act(s, "continue")
    assert [len(h) for h in s.hands] == [15, 15, 15] and s.session == 2
    s = act(s, "continue")
    assert [len(h) for h in s.hands] == [20, 20, 20] and s.session == 3
    s = act(s, "continue")
    assert [len(h) for h in s.hands] == [25, 25, 28]
    assert s.hands[CY][-8:] == DECK[70:78] and s.stock == ()
    assert s.phase is Phase.DISCARD and s.turn == CY


# ---- bargaining (§3.1, D-5…D-8, C-4…C-6) ---------------------------------------------------------


def kinds(s: QueenOfTarotState) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {"pass": [], "continue": [], "demand": [], "offer": []}
    for a in RULES.legal_actions(s):
        out[a.type].append(a.amount or 0)
    return out


def test_legal_calls_by_position() -> None:
    s = fresh()
    k = kinds(s)
    assert k["pass"] == [0] and k["continue"] == [0]
    assert k["demand"] == list(range(1, 44)) and k["offer"] == list(range(1, 44))
    s = calls(s, ("demand", 4), ("pass", None), ("pass", None))  # back to Bo
    k = kinds(s)
    assert k["demand"] == [1, 2, 3] and k["offer"] == list(range(1, 44))
    s = calls(s, ("offer", 3), ("pass", None), ("pass", None))
    k = kinds(s)
    assert k["demand"] == [] and k["offer"] == list(range(4, 44))
    s = calls(s, ("offer", 43), ("pass", None), ("pass", None))
    assert kinds(s)["offer"] == []  # the most allowed already stands
    with pytest.raises(IllegalAction) as e:
        act(s, "demand", amount=1)
    assert e.value.code == "illegal_action" and "offered" in e.value.detail


def test_demand_of_one_cannot_go_lower() -> None:
    s = calls(fresh(), ("demand", 1), ("pass", None), ("pass", None))
    assert kinds(s)["demand"] == []


def test_settlement_pays_every_standing_position() -> None:
    s = calls(
        fresh(),
        ("demand", 5),
        ("offer", 2),
        ("pass", None),
        ("demand", 4),
        ("offer", 3),
        ("offer", 1),
    )
    res = RULES.result(s)
    assert res is not None and res.outcome == "thrown_in"
    assert res.deltas == (-3, 4, -1)  # §5.3 Bargaining 2
    assert res.detail["settlement"]["paid"] == [[ANN, 3], [CY, 1]]
    assert res.detail["settlement"]["received"] == [[BO, 4]]
    assert s.turn is None and RULES.legal_actions(s) == ()


def test_pass_keeps_the_standing_position() -> None:  # D-5
    s = calls(fresh(), ("demand", 5), ("offer", 2), ("pass", None), ("pass", None))
    assert s.positions[BO] == 5 and s.passes == 2
    s = calls(s, ("offer", 3), ("offer", 2))
    assert RULES.result(s) is not None and s.settlement == (-3, 5, -2)


def test_three_passes_or_continue_end_the_session() -> None:
    s = calls(fresh(), ("offer", 2), ("pass", None), ("pass", None))
    assert s.session == 1 and s.turn == BO
    s = act(s, "pass")
    assert s.session == 2 and s.positions == (0, 0, 0) and s.passes == 0 and s.turn == BO
    s = calls(s, ("pass", None), ("offer", 1), ("continue", None))  # Cy continues
    assert s.session == 3 and s.turn == BO and s.positions == (0, 0, 0)


def test_no_settlement_without_both_sides() -> None:  # C-4
    s = calls(fresh(), ("demand", 2), ("demand", 3))
    assert s.settlement is None and s.turn == CY
    s = calls(fresh(), ("offer", 2), ("offer", 3))
    assert s.settlement is None


def test_amounts_and_option() -> None:  # D-8, C-6
    for amount in (0, 44, -1):
        with pytest.raises(IllegalAction) as e:
            act(fresh(), "offer", amount=amount)
        assert e.value.code == "illegal_action"
    s = fresh(max_bargain=5)
    assert kinds(s)["demand"] == [1, 2, 3, 4, 5]
    with pytest.raises(IllegalAction):
        RULES.apply(s, Action("demand", BO))  # no amount at all


def test_bargaining_always_terminates() -> None:
    """Demands only fall and offers only rise within 1..MAX: the longest session is bounded."""
    rng = random.Random(5)
    bound = 3 * (2 * 43 + 1) * 3 + 3
    for _ in range(200):
        s = fresh(max_bargain=43)
        n = 0
        while s.phase is Phase.BARGAIN and s.session == 1:
            legal = [a for a in RULES.legal_actions(s) if a.type != "continue"]
            a = rng.choice(legal)
            before = s.positions[a.seat]
            s = RULES.apply(s, a)[0]
            after = s.positions[a.seat] if s.session == 1 else before
            if before > 0 and after > 0:
                assert after <= before  # a demand never increases
            if before < 0:
                assert after <= before  # an offer never decreases, and never turns into a demand
            n += 1
            assert n <= bound


# ---- discard (§3.2, D-9, C-8) ------------------------------------------------------------------


def test_discard_template_and_legality() -> None:
    s = to_discard()
    (template,) = RULES.legal_actions(s)
    hand = s.hands[CY]
    assert template.amount == 3
    assert set(template.cards or ()) == {
        c for c in hand if c not in ("SK", "HK", "DK", "CK", "T20", "T1", "EX")
    }
    pick = sorted(template.cards or (), key=lambda c: (c[0] != "T", c))[:3]
    s2, events = RULES.apply(s, Action("discard", CY, cards=tuple(pick)))
    assert s2.piles[CY] == tuple(sorted(pick)) and len(s2.hands[CY]) == 25
    assert s2.phase is Phase.DECLARE and s2.turn == BO
    assert events[0].data == {"count": 3}  # not shown (D-9)
    pv = RULES.observe_public(s2).to_json()
    assert not set(pick) & _strings(pv) and pv["info"]["taken"] == [0, 0, 3]
    assert RULES.observe(s2, CY).info["discard"] == list(s2.discard)
    assert "discard" not in RULES.observe(s2, BO).info


@pytest.mark.parametrize("bad", [2, 4, "dup", "king", "honour", "foreign"])
def test_discard_refusals(bad: int | str) -> None:
    s = to_discard()
    hand = s.hands[CY]
    plain = [c for c in hand if POINTS[c] == 1]
    cards: list[str]
    if isinstance(bad, int):
        cards = plain[:bad]
    elif bad == "dup":
        cards = [plain[0], plain[0], plain[1]]
    elif bad in ("king", "honour"):
        banned = "DK" if bad == "king" else "T20"
        others = [c for c in hand if c not in plain[:2] and c != banned]
        s = s._replace(hands=(s.hands[0], s.hands[1], (*plain[:2], *others[:-1], banned)))
        cards = [*plain[:2], banned]
    else:
        cards = [*plain[:2], next(c for c in s.hands[BO])]
    with pytest.raises(IllegalAction) as e:
        RULES.apply(s, Action("discard", CY, cards=tuple(cards)))
    assert e.value.code == "illegal_action"


# ---- declarations (§3.3, C-2, C-3, D-11, D-16, D-17) -------------------------------------------

#: §3.3's table of the best non-Abundance value by Kings k (rows) and honours h (columns).
TABLE = [
    [0, 0, 0, 15],
    [0, 0, 0, 20],
    [0, 0, 10, 25],
    [0, 10, 15, 30],
    [20, 25, 30, 35],
]


@pytest.mark.parametrize("k", range(5))
@pytest.mark.parametrize("h", range(4))
def test_best_value_table(k: int, h: int) -> None:
    hand = ["SK", "HK", "DK", "CK"][:k] + ["T20", "T1", "EX"][:h] + ["S2", "T5"]
    best = best_set(hand)
    made = declaration(0, hand, best)
    assert made is not None and made.value == TABLE[k][h]
    assert model.best_declaration(hand) == (list(best), TABLE[k][h])
    assert [list(n) for n in legal_sets(hand)] == [n for n, _ in model.declarable(hand)]


def test_four_kings_three_honours_sets() -> None:  # C-2, §5.3 Hand 2
    hand = [*model.KINGS, *model.HONOURS, "T2", "T3"]
    sets = {n: declaration(0, hand, n) for n in legal_sets(hand)}
    values = {n: d.value for n, d in sets.items() if d is not None}
    assert values == {
        (): 0,
        ("kings",): 35,
        ("mitigati",): 35,
        ("mixed_honours",): 25,
        ("kings", "mitigati"): 35,
        ("mitigati", "mixed_honours"): 25,
    }
    assert best_set(hand) == ("kings",)
    assert declaration(0, hand, ("kings", "mixed_honours")) is None


def test_abundance_is_t_and_reuses_its_trumps() -> None:  # C-3, §5.3 Hand 1
    trumps = ["T20", "T1", *[f"T{n}" for n in range(2, 11)]]  # 11 trumps with XX and I
    made = declaration(BO, [*trumps, "EX", "S2"], ("abundance", "mitigati"))
    assert made is not None and made.value == 26
    assert {p.name: p.value for p in made.parts} == {"abundance": 11, "mitigati": 15}
    assert set(made.cards) == {*trumps, "EX"}
    nine = [f"T{n}" for n in range(2, 11)]
    assert all("abundance" not in n for n in legal_sets([*nine, "EX"]))  # D-11
    assert declaration(0, [*nine, "T11", "EX"], ("abundance",)) is not None


def test_mixed_honours_and_kings_alone() -> None:
    made = declaration(CY, ["SK", "CK", "HK", "T20", "EX"], ("mixed_honours",))  # Hand 3
    assert made is not None and made.value == 15 and len(made.cards) == 5
    assert legal_sets(model.KINGS) == ((), ("kings",), ("mixed_honours",))  # D-16


def declared_state() -> QueenOfTarotState:
    """A hand in the declarations, after a discard."""
    s = to_discard()
    pick = sorted(RULES.legal_actions(s)[0].cards or ())[:3]
    return RULES.apply(s, Action("discard", CY, cards=tuple(pick)))[0]


def test_declare_order_payments_and_views() -> None:
    bo = [*model.KINGS, *model.HONOURS]
    rest = [c for c in TAROT_PACK if c not in bo]
    bo += [c for c in rest if c[0] == "S"][:18]  # 7 + 18 cards, no other trump
    rest = [c for c in rest if c not in bo]
    s = playing([rest[:25], bo, rest[25:50]], phase=Phase.DECLARE, piles=((), (), tuple(rest[50:])))
    view = RULES.observe(s, BO)
    assert view.info["best"] == ["kings"]
    assert {tuple(d["bonuses"]): d["value"] for d in view.info["declarable"]}[("kings",)] == 35
    assert RULES.default_action(s) == Action("declare", BO, bonuses=("kings",))
    s = act(s, "declare", bonuses=("mitigati", "kings"))  # any order of names
    s = act(s, "declare", bonuses=())
    assert s.turn == CY
    s = act(s, "declare", bonuses=())
    assert s.phase is Phase.PLAY and s.turn == BO
    info = RULES.observe_public(s).info
    assert info["declarations"][0]["bonuses"] == ["kings", "mitigati"]
    assert info["declarations"][0]["value"] == 35
    assert info["declaration_deltas"] == [-35, 70, -35]  # D-17


def test_bad_bonus_names_are_malformed() -> None:  # C-2
    s = declared_state()
    for names in (("kings", "kings"), ("tarocchi",)):
        for seat in (BO, ANN):  # checked before the turn
            with pytest.raises(IllegalAction) as e:
                RULES.apply(s, Action("declare", seat, bonuses=names))
            assert e.value.code == "bad_action"
    with pytest.raises(IllegalAction) as e:
        RULES.apply(s, Action("declare", BO, bonuses=("kings",)))
    assert e.value.code == "illegal_action"


# ---- the Fool (§4.4, D-13, D-14, C-1) -----------------------------------------------------------


def test_fool_exchange_gives_the_earliest_empty_card() -> None:  # §5.3 Fool exchange
    s = playing(
        [["HJ", "EX", "D4"], ["H7", "T19", "S5"], ["D3", "S9", "C6"]],
        piles=((), (), ()),
    )
    s = play(s, "H7", "HJ", "D3")  # Ann wins trick 1 with the Valet
    assert s.turn == ANN and s.piles[ANN] == ("H7", "HJ", "D3")
    s = s._replace(turn=BO, hands=(("EX",), ("T19",), ("C1",)))
    s = play(s, "T19", "EX", "C1")  # Bo wins with XIX; Ann's Fool comes back
    assert s.piles[ANN] == ("HJ", "D3", "EX") and s.piles[BO] == ("T19", "C1", "H7")
    assert s.exchanges[0] == (ANN, BO, "H7", 2, "exchange")


def test_fool_debt_paid_only_by_an_empty_card() -> None:  # C-1
    s = playing(
        [["EX", "SK", "S2"], ["D2", "SQ", "T3"], ["D5", "SC", "T4"]],
    )
    s = play(s, "D2", "EX", "D5")  # Bo's 2 of Coins beats the 5; Ann has nothing to give
    assert s.creditor == BO and s.fool_owner == ANN
    s = play(s, "SQ", "SK", "SC")  # Ann wins courts only: still owed
    assert s.creditor == BO and s.piles[ANN] == ("EX", "SQ", "SK", "SC")
    s = play(s, "S2", "T4", "T3")  # Cy wins; Ann still owes
    assert s.creditor == BO
    info = RULES.observe_public(s).info["fool"]
    assert info == {"played_by": ANN, "debtor": ANN, "creditor": BO}


def test_debt_paid_at_once_after_winning_an_empty_card() -> None:
    s = playing([["EX", "T9"], ["D2", "T3"], ["D5", "T4"]])
    s = play(s, "D2", "EX", "D5")
    s = play(s, "T3", "T9", "T4")
    assert s.creditor is None and s.exchanges[-1][:3] == (ANN, BO, "T3")
    assert s.exchanges[-1][4] == "debt_paid"


def test_end_of_hand_debt_and_surrender() -> None:  # D-13
    # Cy's discard holds no empty card; his debt is paid at the end with the lowest card.
    s = playing([["D2"], ["D5"], ["EX"]], piles=((), (), ("CC", "DQ", "HJ")))
    s = s._replace(tricks=((),) * 24, winners=(BO,) * 24)
    s = play(s, "D5", "D2", "EX")
    assert s.phase is Phase.DONE and s.exchanges[-1][2:] == ("HJ", 25, "debt_end")
    # Nothing but the Fool: the Fool itself goes.
    s = playing([["EX"], ["D5"], ["D2"]])
    s = s._replace(tricks=((),) * 24, winners=(BO,) * 24)
    s = play(s, "D5", "EX", "D2")
    assert s.exchanges[-1][2:] == ("EX", 25, "surrender") and "EX" in s.piles[CY]


def test_discard_counts_first_and_stays_hidden() -> None:  # C-1, D-9
    s = playing(
        [["D2", "S3"], ["D5", "S4"], ["EX", "S5"]],
        piles=((), (), ("H9", "S2", "SQ")),
        discard=("H9", "S2", "SQ"),
    )
    s, events = RULES.apply(play(s, "D5", "D2"), Action("play", CY, card="EX"))
    assert s.exchanges[0][:3] == (CY, ANN, "H9")  # sorted code order: H9 before S2
    assert next(e for e in events if e.type == "fool_exchange").data["card"] is None
    pv = RULES.observe_public(s).to_json()
    assert pv["info"]["exchanges"][0]["card"] is None and "H9" not in _strings(pv)


def test_fool_on_the_last_trick_returns() -> None:  # D-14
    s = playing([["D2"], ["D5"], ["EX"]], piles=((), (), ("S2", "S3", "S4")))
    s = s._replace(tricks=((),) * 24, winners=(BO,) * 24)
    s = play(s, "D5", "D2", "EX")
    assert "EX" in s.piles[CY] and s.exchanges[-1][:4] == (CY, ANN, "S2", 25)


# ---- scoring, match, defaults -----------------------------------------------------------------


def test_scoring_is_card_points_minus_43_plus_declarations() -> None:
    s = playing([[], [], []], phase=Phase.DONE, turn=None)
    piles = [list(TAROT_PACK[:40]), list(TAROT_PACK[40:60]), list(TAROT_PACK[60:])]
    s = s._replace(piles=tuple(tuple(p) for p in piles))
    res = RULES.result(s)
    assert res is not None and sum(res.detail["card_points"]) == 129
    assert list(res.deltas) == [sum(POINTS[c] for c in p) - 43 for p in piles]
    assert sum(res.deltas) == 0


def test_match_length_counts_thrown_in_hands() -> None:
    m = match.new_match("queen_of_tarot", 3, {"deals": 3}, CY)
    dealers = []
    while not m.finished:
        dealers.append(m.dealer)
        m = match.start_deal(m, DECK)
        e, mid, _ = roles(m.dealer)
        m = match.apply(m, Action("offer", e, amount=1))[0]
        m = match.apply(m, Action("demand", mid, amount=1))[0]
    assert dealers == [CY, BO, ANN] and m.deals_played == 3
    assert m.totals == (0, 0, 0) and m.winners == (0, 1, 2)  # ties share


def test_default_action_is_always_legal() -> None:
    """Timeouts: the default applies in every position met (random and default play mixed)."""
    rng = random.Random(9)
    for seed in range(40):
        s = RULES.new_deal(3, {}, shuffle(TAROT_PACK, seed), seed % 3)
        while s.turn is not None:
            d = RULES.default_action(s)
            legal = RULES.legal_actions(s)
            if d.type == "discard":
                assert set(d.cards or ()) <= set(legal[0].cards or ()) and len(d.cards or ()) == 3
            else:
                assert d in legal
            RULES.apply(s, d)  # never raises
            if rng.random() < 0.5 or s.phase is not Phase.BARGAIN:
                s = RULES.apply(s, d)[0]
            else:
                s = RULES.apply(s, rng.choice([a for a in legal if a.type != "continue"]))[0]
        assert RULES.result(s) is not None
        with pytest.raises(IllegalAction):
            RULES.default_action(s)


def test_errors_and_phases() -> None:
    s = fresh()
    with pytest.raises(IllegalAction) as e:
        RULES.apply(s, Action("pass", ANN))
    assert e.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as e:
        RULES.apply(s, Action("play", BO, card=s.hands[BO][0]))
    assert e.value.code == "illegal_action"
    s = calls(s, ("offer", 1), ("demand", 1))
    with pytest.raises(IllegalAction) as e:
        RULES.apply(s, Action("pass", CY))
    assert e.value.code == "deal_over"


def test_public_bargaining_console() -> None:
    s = calls(fresh(), ("demand", 5), ("offer", 2), ("pass", None))
    info = RULES.observe_public(s).info
    b = info["bargain"]
    assert b["session"] == 1 and b["to_speak"] == BO and b["passes"] == 1
    assert b["positions"][BO] == {
        "position": "demand",
        "amount": 5,
        "last": {"call": "demand", "amount": 5},
    }
    assert b["positions"][ANN]["position"] == "offer" and b["positions"][CY]["last"] == {
        "call": "pass",
        "amount": None,
    }
    assert (b["demanded"], b["offered"]) == (5, 2)
    assert b["ranges"] == {"demand": [1, 4], "offer": [1, 43]}
    assert info["roles"] == {"dealer": CY, "eldest": BO, "middle": ANN}
    json.dumps(RULES.observe_public(s).to_json())
    assert codec.decode_state(RULES, json.loads(json.dumps(codec.encode_state(s)))) == s


def _strings(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(_strings(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list | tuple):
        return set().union(*(_strings(v) for v in obj)) if obj else set()
    return set()
