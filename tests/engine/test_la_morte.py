"""La Morte rules, phase by phase (``rules/la_morte.md`` §2–§5, D-n, C-n)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine import codec
from bot.engine.actions import Action
from bot.engine.errors import IllegalAction
from bot.engine.games.la_morte import (
    LA_MORTE,
    LaMorteRules,
    LaMorteState,
    Phase,
    Status,
    trick_winner,
)
from bot.engine.views import DealResult
from tests.engine.scenario_builder import deck_from_hands

R = LaMorteRules()
A, B, C, D, E = 0, 1, 2, 3, 4
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

# Four 9-card hands + talon H8 (hearts trump) covering the whole 4-player pack.
HANDS_4 = [
    ["S1", "SK", "H1", "HK", "D1", "DK", "C1", "CK", "SQ"],  # Ana
    ["T13", "SC", "SJ", "HQ", "HC", "DQ", "DC", "CQ", "CC"],  # Ben
    ["S7", "D7", "S10", "H10", "D10", "C10", "S9", "H9", "D9"],  # Cal (lowest: 7♠ 7♦)
    ["S8", "C8", "D8", "H7", "C7", "HJ", "DJ", "CJ", "C9"],  # Dee
]
TALON_4 = "H8"


def new(
    hands: list[list[str]] | None = None,
    talon: str = TALON_4,
    dealer: int = A,
    set_aside: list[str] | None = None,
) -> LaMorteState:
    hands = hands or HANDS_4
    deck = deck_from_hands(len(hands), dealer, hands, talon, set_aside or [])
    assert sorted(deck) == sorted(R.pack(len(hands)))
    return R.new_deal(len(hands), {}, deck, dealer)


def step(s: LaMorteState, *actions: dict[str, Any]) -> LaMorteState:
    for obj in actions:
        s, _ = R.apply(s, codec.parse_action(R, obj, s.players))
    return s


def bid(seat: int, x: int) -> dict[str, Any]:
    return {"seat": seat, "type": "bid", "amount": x}


def act(seat: int, kind: str) -> dict[str, Any]:
    return {"seat": seat, "type": kind}


def play(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "type": "play", "card": card}


def legal(s: LaMorteState) -> set[tuple[Any, ...]]:
    return {(a.type, a.amount, a.card) for a in R.legal_actions(s)}


def cards(s: LaMorteState) -> set[str]:
    return {a.card for a in R.legal_actions(s) if a.card is not None}


def replay(name: str) -> tuple[LaMorteState, list[LaMorteState]]:
    data = json.loads((SCENARIOS / f"la_morte_{name}.json").read_text())
    deal = data["deals"][0]
    s = R.new_deal(data["players"], {}, deal["deck"], deal["dealer"])
    states = [s]
    for obj in deal["actions"]:
        s = step(s, obj)
        states.append(s)
    return s, states


# ---- §1–§2: deck and canonical deal ----------------------------------------------------


def test_packs() -> None:
    assert len(R.pack(3)) == len(R.pack(4)) == 37
    assert len(R.pack(5)) == 46
    assert "T1" in R.pack(5) and "T1" not in R.pack(4)
    assert {"S5", "S6"} <= set(R.pack(5)) and "S6" not in R.pack(4)
    assert R.normalize_card("LM") == "T13" and R.normalize_card("BAG") == "T1"


def test_canonical_deal_4p() -> None:
    deck = list(R.pack(4))
    s = R.new_deal(4, {}, deck, dealer=2)
    # deck[i] -> seat (dealer + 1 + i mod N) mod N: deck[0] to the dealer's left
    assert s.hands[3][0] == deck[0] and s.hands[0][0] == deck[1] and s.hands[2][0] == deck[3]
    assert all(len(h) == 9 for h in s.hands)
    assert s.talon == deck[36] and s.set_aside == ()
    assert s.turn == 2 and s.phase is Phase.AUCTION  # D-1/D-2: the dealer opens


def test_canonical_deal_3p_and_5p() -> None:
    deck = list(R.pack(3))
    s = R.new_deal(3, {}, deck, dealer=0)
    assert s.talon == deck[27] and s.set_aside == tuple(deck[28:])
    deck5 = list(R.pack(5))
    s5 = R.new_deal(5, {}, deck5, dealer=4)
    assert s5.talon == deck5[45] and s5.hands[0][0] == deck5[0]


@pytest.mark.parametrize(
    ("talon", "trump"), [("H8", "H"), ("SK", "S"), ("T1", "C"), ("C5", "C"), ("T13", None)]
)
def test_trump_from_talon(talon: str, trump: str | None) -> None:
    pack = [c for c in R.pack(5) if c != talon]
    hands = [pack[i * 9 : i * 9 + 9] for i in range(5)]
    assert new(hands, talon=talon).trump == trump  # D-9, D-11


# ---- §3.2 auction ------------------------------------------------------------------------


def test_auction_table() -> None:
    s = new()
    bids = {("bid", x, None) for x in range(1, 10)}
    assert legal(s) == bids | {("drop", None, None)}  # h = 0: no accept (D-2)
    s = step(s, bid(A, 4))
    assert s.turn == B
    assert legal(s) == {("bid", x, None) for x in range(5, 10)} | {
        ("accept", None, None),
        ("drop", None, None),
    }
    s = step(s, bid(B, 9))
    assert legal(s) == {("accept", None, None), ("drop", None, None)}  # h = 9
    with pytest.raises(IllegalAction) as e:
        step(s, bid(C, 9))
    assert e.value.code == "illegal_action"


def test_droppers_skipped_and_outbid_may_bid_again() -> None:
    s = step(new(), bid(A, 2), act(B, "drop"), bid(C, 3), act(D, "drop"))
    assert s.turn == A  # Ben and Dee skipped
    s = step(s, bid(A, 5))  # D-6: outbid Ana bids again
    assert s.turn == C and s.high_bid == 5 and s.high_bidder == A


def test_accept_fixes_contract_and_accepter_leads_lowest() -> None:
    s = step(new(), bid(A, 2), bid(B, 3), act(C, "accept"))
    assert s.phase is Phase.PLAY and s.contract == 3 and s.maker == B
    assert s.statuses == (Status.UNDECIDED, Status.MAKER, Status.DEFENDER, Status.UNDECIDED)
    assert s.turn == C and cards(s) == {"S7", "D7"}  # D-8
    with pytest.raises(IllegalAction):
        step(s, play(C, "S10"))
    s = step(s, play(C, "D7"))
    # C-1: the undecided player's decision comes alone, then the card
    assert s.turn == D and legal(s) == {("accept", None, None), ("drop", None, None)}
    with pytest.raises(IllegalAction):
        step(s, play(D, "D8"))
    s = step(s, act(D, "accept"))
    assert s.turn == D and cards(s) == {"D8", "DJ"}  # follow diamonds
    s = step(s, play(D, "DJ"), act(A, "drop"), play(A, "DK"), play(B, "DQ"))
    assert Status.UNDECIDED not in s.statuses  # §3.4.3
    assert s.statuses[A] is Status.DROPPER and s.tricks_won[A] == 1 and s.turn == A


def test_auto_contract_free_lead() -> None:
    # D-4, C-2: Ana's 3 stands; Ben leads freely, anything but La Morte.
    s = step(new(), bid(A, 3), act(B, "drop"), act(C, "drop"), act(D, "drop"))
    assert s.phase is Phase.PLAY and s.auto_contract and s.maker == A and s.contract == 3
    assert s.turn == B and not s.lowest_lead
    assert cards(s) == set(HANDS_4[B]) - {LA_MORTE}


def test_lone_bid_after_others_dropped_is_auto_contract() -> None:
    s = step(new(), act(A, "drop"), act(B, "drop"), act(C, "drop"), bid(D, 2))
    assert s.phase is Phase.PLAY and s.maker == D and s.auto_contract and s.turn == A


def test_dealer_option_restart_and_muck() -> None:
    s = step(new(), act(A, "drop"), act(B, "drop"), act(C, "drop"), act(D, "drop"))
    assert s.phase is Phase.DEALER_OPTION and s.turn == A
    assert legal(s) == {("bid", x, None) for x in range(1, 10)} | {("muck", None, None)}
    with pytest.raises(IllegalAction):
        step(s, act(A, "drop"))
    mucked = step(s, act(A, "muck"))
    assert mucked.turn is None
    assert R.result(mucked) == DealResult("mucked", (0, 0, 0, 0), {"mucked_by": A})
    # Example F(a): a bid restarts the auction, everyone undecided, Ben to act with h = 1
    r = step(s, bid(A, 1))
    assert r.phase is Phase.AUCTION and r.statuses == (Status.UNDECIDED,) * 4
    assert r.turn == B and r.high_bid == 1 and r.high_bidder == A
    assert legal(r) == {("bid", x, None) for x in range(2, 10)} | {
        ("accept", None, None),
        ("drop", None, None),
    }
    # C-3: Ben may accept the dealer's bid
    acc = step(r, act(B, "accept"))
    assert acc.maker == A and acc.contract == 1 and acc.turn == B and acc.lowest_lead
    # D-5: everyone else drops again -> auto-contract with the dealer as maker
    auto = step(r, act(B, "drop"), act(C, "drop"), act(D, "drop"))
    assert auto.phase is Phase.PLAY and auto.maker == A and auto.auto_contract
    assert auto.turn == B and cards(auto) == set(HANDS_4[B]) - {LA_MORTE}


# ---- §3.4 lowest-ranked lead (Example G) --------------------------------------------------


def _hand_with(first: list[str], talon: str) -> list[list[str]]:
    rest = [c for c in R.pack(4) if c not in first and c != talon]
    # fill Ben's hand with high cards so that ``first`` holds the lowest ranks
    high = [c for c in rest if c[1:] in ("1", "K", "Q", "C")]
    ben = first + high[: 9 - len(first)]
    others = [c for c in rest if c not in ben]
    return [others[0:9], ben, others[9:18], others[18:27]]


@pytest.mark.parametrize(
    ("first", "talon", "expected"),
    [
        (["H9", "S8", "C8", "DK"], "H8", {"S8", "C8"}),
        (["H7", "S8"], "HK", {"H7"}),
        (["T13", "D10", "SJ"], "H8", {"D10"}),
    ],
)
def test_example_g(first: list[str], talon: str, expected: set[str]) -> None:
    s = step(new(_hand_with(first, talon), talon=talon), bid(A, 1), act(B, "accept"))
    assert cards(s) == expected


def test_lowest_lead_only_for_the_accepter_trick_one() -> None:
    _, states = replay("example_a")
    led = [st for st in states if st.phase is Phase.PLAY and not st.trick and st.turn is not None]
    assert led[0].lowest_lead and not any(st.lowest_lead for st in led[1:])


# ---- §4 trick rules ------------------------------------------------------------------------


def _playing(hands: list[list[str]], talon: str, leader: int) -> LaMorteState:
    """A PLAY state (auto-contract by the seat before ``leader``) with the given hands."""
    n = len(hands)
    maker = (leader - 1) % n
    s = new(hands, talon=talon, dealer=maker)
    seq = [bid(maker, 1)] + [act((maker + k) % n, "drop") for k in range(1, n)]
    s = step(s, *seq)
    assert s.turn == leader
    return s


def test_la_morte_lead_ban_and_following() -> None:
    s = _playing(HANDS_4, "H8", leader=B)
    with pytest.raises(IllegalAction) as e:
        step(s, play(B, "T13"))  # §4.4: not while other cards remain
    assert e.value.code == "illegal_action"
    # plain lead, Cal holds spades: only spades
    s1 = step(s, play(B, "SJ"))
    assert cards(s1) == {"S7", "S10", "S9"}
    with pytest.raises(IllegalAction):
        step(s1, play(C, "D7"))
    # trump (hearts) lead: Cal must follow with hearts
    s2 = step(s, play(B, "HQ"))
    assert cards(s2) == {"H10", "H9"}


def test_void_player_may_discard_la_morte_on_plain_lead() -> None:
    hands = [list(h) for h in HANDS_4]
    s = _playing(hands, "H8", leader=A)
    s = step(s, play(A, "S1"))  # Ana leads spades; Ben holds SC, SJ -> must follow
    assert cards(s) == {"SC", "SJ"}
    s = _playing(hands, "H8", leader=D)
    s = step(s, play(D, "D8"), play(A, "D1"))
    assert cards(s) == {"DQ", "DC"}
    # Ben void in spades: any card, La Morte included
    hands2 = [
        ["S1", "SK", "SQ", "S10", "H1", "D1", "C1", "CK", "DK"],
        ["T13", "HQ", "HC", "DQ", "DC", "CQ", "CC", "HK", "CJ"],  # Ben: no spades
        ["S7", "D7", "SC", "H10", "D10", "C10", "S9", "H9", "D9"],
        ["S8", "C8", "D8", "H7", "C7", "HJ", "DJ", "SJ", "C9"],
    ]
    s = _playing(hands2, "H8", leader=A)
    s = step(s, play(A, "S1"))
    assert cards(s) == set(hands2[B])  # void: any card including La Morte


def test_forced_la_morte_on_trump_lead() -> None:
    hands = [
        ["S1", "SK", "H1", "HK", "D1", "DK", "C1", "CK", "SQ"],
        ["T13", "SC", "SJ", "D9", "HC", "DQ", "DC", "CQ", "CC"],  # HC is Ben's only heart
        ["S7", "D7", "S10", "H10", "D10", "C10", "S9", "H9", "HQ"],
        ["S8", "C8", "D8", "H7", "C7", "HJ", "DJ", "CJ", "C9"],
    ]
    s = _playing(hands, "H8", leader=A)
    s = step(s, play(A, "H1"))
    assert cards(s) == {"HC", "T13"}  # La Morte follows as a trump
    hands[B][hands[B].index("HC")], hands[C][hands[C].index("D10")] = "D10", "HC"
    s = _playing(hands, "H8", leader=A)
    s = step(s, play(A, "HK"))
    assert cards(s) == {"T13"}  # D-10: its only "trump" must be played
    s = step(s, play(B, "T13"), play(C, "H10"), play(D, "HJ"))
    assert s.trick_winners == (B,) and s.morto is None and s.turn == B


@pytest.mark.parametrize(
    ("plays", "trump", "winner", "morto"),
    [
        # trump-led with La Morte: La Morte's player
        ([(0, "H1"), (1, "T13"), (2, "HK"), (3, "H9")], "H", 1, False),
        # trump-led, no La Morte: highest trump
        ([(0, "H7"), (1, "HQ"), (2, "H1"), (3, "S1")], "H", 2, False),
        # plain lead, a trump played: highest ordinary trump, La Morte ignored -> il Morto
        ([(0, "S1"), (1, "H7"), (2, "T13"), (3, "SK")], "H", 1, True),
        ([(0, "S1"), (1, "H7"), (2, "H9"), (3, "SK")], "H", 2, False),
        # plain lead, no trump: highest of the led suit (La Morte ignored) -> il Morto
        ([(0, "D7"), (1, "D1"), (2, "T13"), (3, "S1")], "H", 1, True),
        ([(0, "D7"), (1, "C1"), (2, "S1"), (3, "D8")], "H", 3, False),
        # no-trump round: highest of the led suit
        ([(0, "D7"), (1, "H1"), (2, "D9"), (3, "S1")], None, 2, False),
        # forced La Morte lead (Fuori dal Tempo): trump-led, La Morte wins
        ([(0, "T13"), (1, "H1"), (2, "HK"), (3, "S1")], "H", 0, False),
        # 5 players: Il Bagatto is the highest club
        ([(0, "C1"), (1, "T1"), (2, "CK"), (3, "C5"), (4, "S1")], "C", 1, False),
        ([(0, "S1"), (1, "T1"), (2, "C5"), (3, "SK"), (4, "S5")], "C", 1, False),
    ],
)
def test_trick_winner_table(
    plays: list[tuple[int, str]], trump: str | None, winner: int, morto: bool
) -> None:
    assert trick_winner(plays, trump) == (winner, morto)


def test_il_morto_example_c() -> None:
    final, states = replay("example_c")
    after5 = next(st for st in states if len(st.tricks) == 5)
    assert after5.morto == C and after5.turn == A  # trick 6 led by left(Cal)
    assert len(after5.hands[C]) == 4  # dead cards stay in hand, unplayed
    for st in states:
        if st.morto is not None and st.turn is not None:
            assert st.turn != C
            assert all(a.seat != C for a in R.legal_actions(st))
    assert all(len(t) == 2 for t in final.tricks[5:])
    assert final.hands[C] == after5.hands[C]
    assert R.observe_public(after5).hand_sizes[C] == 0
    res = R.result(final)
    assert res is not None and res.deltas == (0, 9, 3)
    assert res.detail["morto"] == C


def test_fuori_dal_tempo_example_d() -> None:
    final, states = replay("example_d")
    before9 = next(st for st in states if len(st.tricks) == 8)
    assert before9.turn == A and before9.hands[A] == (LA_MORTE,)
    assert cards(before9) == {LA_MORTE}
    assert final.fuori == A and final.trick_winners[-1] == A
    res = R.result(final)
    assert res is not None and res.deltas == (0, 1, 4, 10)


def test_apply_errors() -> None:
    s = new()
    with pytest.raises(IllegalAction) as e:
        R.apply(s, Action("bid", B, amount=2))
    assert e.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as e:
        R.apply(s, Action("play", A, card="S1"))
    assert e.value.code == "illegal_action"
    final, _ = replay("example_a")
    with pytest.raises(IllegalAction) as e:
        R.apply(final, Action("play", A, card="S1"))
    assert e.value.code == "deal_over"
    assert R.legal_actions(final) == ()


# ---- §5 scoring and match end ----------------------------------------------------------------


def _scored(
    statuses: list[Status], tricks: list[int], c: int, maker: int, fuori: int | None = None
) -> tuple[int, ...]:
    s = new()._replace(
        phase=Phase.SCORED,
        turn=None,
        statuses=tuple(statuses),
        tricks_won=tuple(tricks),
        contract=c,
        maker=maker,
        fuori=fuori,
    )
    res = R.result(s)
    assert res is not None and res.outcome == "played"
    return res.deltas


M, DF, DR = Status.MAKER, Status.DEFENDER, Status.DROPPER


@pytest.mark.parametrize(
    ("statuses", "tricks", "c", "maker", "fuori", "deltas"),
    [
        ([DR, M, DF, DF], [0, 4, 3, 2], 3, B, None, (2, 7, 3, 2)),  # Example A
        ([DR, M, DF, DF], [1, 2, 4, 2], 3, B, None, (0, 2, 7, 5)),  # Example B
        ([DF, DF, DR, M], [3, 1, 0, 5], 5, D, A, (0, 1, 4, 10)),  # Example D
        ([M, DR, DR, DR], [3, 0, 4, 2], 3, A, None, (6, 2, 0, 0)),  # Example E
        ([M, DR, DR, DR], [2, 0, 4, 3], 3, A, None, (2, 2, 0, 0)),  # failed auto: no one paid
        ([M, DR, DF, DR], [5, 0, 4, 0], 1, A, None, (6, 0, 4, 0)),  # dropper with c = 1
        ([M, DF, DR, DR], [9, 0, 0, 0], 9, A, None, (18, 0, 8, 8)),  # all tricks
        ([DF, DF, DR, M], [2, 2, 0, 5], 5, D, D, (2, 2, 4, 0)),  # C-4: Fuori maker made it
    ],
)
def test_scoring_table(
    statuses: list[Status],
    tricks: list[int],
    c: int,
    maker: int,
    fuori: int | None,
    deltas: tuple[int, ...],
) -> None:
    assert _scored(statuses, tricks, c, maker, fuori) == deltas


def _end(totals: list[int], deals: int, outcome: str = "played", **opts: Any) -> Any:
    options = R.normalize_options(opts)
    return R.match_end(totals, deals, options, DealResult(outcome, (0,) * len(totals)))


def test_match_end() -> None:
    assert _end([49, 53, 53, 30], 6) is None  # Example H: tie at the top -> play on
    assert _end([49, 55, 53, 30], 7) == (1,)
    assert _end([10, 20, 30, 40], 3) is None
    assert _end([50, 20, 30, 40], 3) == (0,)  # target reached: >= 50
    assert _end([50, 50, 30, 40], 3, round_limit=3) == (0, 1)  # C-5: tie at the limit
    assert _end([10, 20, 30, 40], 2, round_limit=3) is None
    assert _end([10, 20, 40, 40], 3, round_limit=3) == (2, 3)
    assert _end([0, 0, 0, 0], 1, outcome="mucked", round_limit=1) == (0, 1, 2, 3)
    assert _end([60, 20, 10, 0], 2, target=100) is None


# ---- D-15 timeouts -----------------------------------------------------------------------------


def test_default_action() -> None:
    s = new()
    assert R.default_action(s) == Action("drop", A)
    s = step(s, act(A, "drop"), act(B, "drop"), act(C, "drop"), act(D, "drop"))
    assert R.default_action(s) == Action("muck", A)
    s = step(new(), bid(A, 2), bid(B, 3), act(C, "accept"), play(C, "D7"))
    assert R.default_action(s) == Action("drop", D)  # trick-1 decision
    s = step(s, act(D, "accept"))
    assert R.default_action(s) == Action("play", D, card="D8")
    # lowest rank, ties broken ♠♥♦♣: Cal's free lead holds 7♠ and 7♦ -> 7♠
    s = step(new(dealer=B), bid(B, 1), act(C, "drop"), act(D, "drop"), act(A, "drop"))
    assert s.turn == C and R.default_action(s) == Action("play", C, card="S7")
    # La Morte only when it is the sole legal card
    _, states = replay("example_d")
    before9 = next(st for st in states if len(st.tricks) == 8)
    assert R.default_action(before9) == Action("play", A, card=LA_MORTE)
    for st in states:
        if st.turn is not None:
            assert R.default_action(st) in R.legal_actions(st)
