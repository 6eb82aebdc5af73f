"""Writes ``tests/scenarios/la_morte_*.json`` (run: ``python -m tests.engine.build_scenarios``).

Each scenario's ``expect`` block is written from ``rules/la_morte.md`` by hand (the worked
examples' tables, §5.1 formulas below), not read back from the engine; the script then
replays every file through ``bot.engine.scenario.run`` and refuses to write a file whose
result disagrees. Decks come from ``scenario_builder.build`` with fixed seeds.
"""

from __future__ import annotations

import copy
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.engine.games.la_morte import LaMorteState
from bot.engine.scenario import check, run
from tests.engine.scenario_builder import RULES, DealSpec, build, dump_scenario, hands_of

OUT = Path(__file__).resolve().parent.parent / "scenarios"
A, B, C, D, E = 0, 1, 2, 3, 4  # Ana, Ben, Cal, Dee (+ Eve at 5 players)


def bid(seat: int, amount: int) -> dict[str, Any]:
    return {"seat": seat, "type": "bid", "amount": amount}


def act(seat: int, kind: str) -> dict[str, Any]:
    return {"seat": seat, "type": kind}


def play(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "type": "play", "card": card}


def score(
    contract: int, maker: int, defenders: set[int], tricks: list[int], fuori: int | None = None
) -> list[int]:
    """la_morte §5.1, written independently of the engine."""
    made = tricks[maker] >= contract
    out: list[int] = []
    for p, t in enumerate(tricks):
        if p == fuori:
            out.append(0)
        elif p == maker:
            out.append(t + (contract if made else 0))
        elif p in defenders:
            out.append(t + (0 if made else contract))
        else:
            out.append(contract - 1 if t == 0 else 0)
    return out


def plain(s: LaMorteState) -> bool:
    """No il Morto and no Fuori dal Tempo (keeps the simple examples simple)."""
    return s.morto is None and s.fuori is None


def full_deal(spec: DealSpec, seed: int, alias: dict[str, str] | None = None) -> dict[str, Any]:
    deck, actions = build(spec, seed=seed)
    if alias:
        deck = [alias.get(c, c) for c in deck]
    return {"dealer": spec.dealer, "deck": deck, "actions": actions}


def random_deck(players: int, seed: int) -> list[str]:
    cards = list(RULES.pack(players))
    random.Random(seed).shuffle(cards)
    return cards


FILES: dict[str, dict[str, Any]] = {}


def scenario(
    name: str,
    description: str,
    players: int,
    deals: list[dict[str, Any]],
    expect: dict[str, Any],
    options: dict[str, Any] | None = None,
    game: str = "la_morte",
) -> None:
    obj: dict[str, Any] = {"description": description, "game": game, "players": players}
    if options is not None:
        obj["options"] = options
    obj["deals"] = deals
    obj["expect"] = expect
    FILES[name] = obj


def played(deltas: list[list[int]], finished: bool = False, winners: list[int] | None = None):
    totals = [sum(col) for col in zip(*deltas, strict=True)]
    return {
        "deltas": deltas,
        "totals": totals,
        "finished": finished,
        "winners": winners or [],
        "next": None,
    }


def plays_of(seat: int, cards: list[str]) -> list[dict[str, Any]]:
    return sorted((play(seat, c) for c in cards), key=lambda a: a["card"])


# ---- worked examples (la_morte §5.3) -----------------------------------------------------

AUCTION_AB = [bid(A, 2), bid(B, 3), act(C, "accept")]


def examples() -> None:
    # A: Cal's lowest rank is 7 (7♠, 7♦), he leads 7♦; Dee accepts, Ana drops.
    spec = DealSpec(
        players=4,
        dealer=A,
        talon="H8",
        hold={C: ["S7", "D7"]},
        avoid={C: ["H7", "C7"]},
        auction=AUCTION_AB,
        decisions={D: "accept", A: "drop"},
        tricks=[0, 4, 3, 2],
        plays={(0, C): "D7"},
        final=plain,
    )
    deltas = score(3, B, {C, D}, [0, 4, 3, 2])
    assert deltas == [2, 7, 3, 2]
    scenario(
        "example_a",
        "la_morte.md §5.3 Example A: made contract, accept flow (Ben 3, Cal accepts).",
        4,
        [full_deal(spec, 1)],
        played([deltas]),
    )

    spec.tricks = [1, 2, 4, 2]
    deltas = score(3, B, {C, D}, [1, 2, 4, 2])
    assert deltas == [0, 2, 7, 5]
    scenario(
        "example_b",
        "la_morte.md §5.3 Example B: same auction, failed contract (Ben 2 < 3).",
        4,
        [full_deal(spec, 2)],
        played([deltas]),
    )

    def c_trick(k: int, trick: tuple[tuple[int, str], ...], s: LaMorteState) -> bool:
        if k == 4:
            return list(trick) == [(C, "D1"), (A, "D9"), (B, "T13")] and s.morto == C
        return s.morto is None if k < 4 else True

    spec = DealSpec(
        players=3,
        dealer=A,
        talon="C10",
        hold={C: ["D1"], A: ["D9"], B: ["T13"]},
        auction=[act(A, "drop"), bid(B, 4), act(C, "accept")],
        tricks=[1, 5, 3],
        checkpoints={4: [0, 2, 2], 5: [0, 2, 3]},
        plays={(4, C): "D1", (4, A): "D9", (4, B): "T13"},
        on_trick=c_trick,
        final=lambda s: s.fuori is None and s.tricks[5][0][0] == A,
    )
    deltas = score(4, B, {C}, [1, 5, 3])
    assert deltas == [0, 9, 3]
    scenario(
        "example_c",
        "la_morte.md §5.3 Example C: il Morto (3 players). Trick 5: Cal leads A♦, Ana 9♦, "
        "Ben La Morte; Cal is il Morto, Ana leads trick 6.",
        3,
        [full_deal(spec, 3)],
        played([deltas]),
    )

    spec = DealSpec(
        players=4,
        dealer=D,
        talon="S10",
        hold={A: ["T13"]},
        auction=[bid(D, 5), act(A, "accept")],
        decisions={B: "accept", C: "drop"},
        tricks=[3, 1, 0, 5],
        checkpoints={8: [2, 1, 0, 5]},
        plays={(8, A): "T13"},
        on_trick=lambda k, t, s: k != 7 or s.trick_winners[-1] == A,
        final=lambda s: s.fuori == A and s.morto is None,
    )
    deltas = score(5, D, {A, B}, [3, 1, 0, 5], fuori=A)
    assert deltas == [0, 1, 4, 10]
    scenario(
        "example_d",
        "la_morte.md §5.3 Example D: Fuori dal Tempo. Ana's last card is La Morte; she "
        "leads it to trick 9, wins it, and scores 0.",
        4,
        [full_deal(spec, 4)],
        played([deltas]),
    )

    spec = DealSpec(
        players=4,
        dealer=A,
        auction=[bid(A, 3), act(B, "drop"), act(C, "drop"), act(D, "drop")],
        tricks=[3, 0, 4, 2],
        on_trick=lambda k, t, s: k != 0 or t[0][0] == B,
        final=plain,
    )
    deltas = score(3, A, set(), [3, 0, 4, 2])
    assert deltas == [6, 2, 0, 0]
    scenario(
        "example_e",
        "la_morte.md §5.3 Example E: auto-contract. Ana bids 3, everyone else drops; Ben "
        "leads trick 1 freely.",
        4,
        [full_deal(spec, 5)],
        played([deltas]),
    )

    all_drop = [act(A, "drop"), act(B, "drop"), act(C, "drop"), act(D, "drop")]
    ben_legal = [bid(B, x) for x in range(2, 10)] + [act(B, "accept"), act(B, "drop")]
    scenario(
        "example_f_bid",
        "la_morte.md §5.3 Example F(a): everyone drops, the dealer bids 1; Ben may bid 2..9, "
        "accept or drop.",
        4,
        [{"dealer": A, "deck": random_deck(4, 6), "actions": [*all_drop, bid(A, 1)]}],
        {
            "deltas": [None],
            "deals": [{"outcome": None, "deltas": None}],
            "totals": [0, 0, 0, 0],
            "finished": False,
            "winners": [],
            "next": {"seat": B, "legal": ben_legal},
        },
    )
    scenario(
        "example_f_muck",
        "la_morte.md §5.3 Example F(b): everyone drops, the dealer mucks; nobody scores.",
        4,
        [{"dealer": A, "deck": random_deck(4, 7), "actions": [*all_drop, act(A, "muck")]}],
        {
            "deals": [{"outcome": "mucked", "deltas": [0, 0, 0, 0]}],
            "totals": [0, 0, 0, 0],
            "finished": False,
            "winners": [],
            "next": None,
        },
    )
    scenario(
        "example_f_muck_next_deal",
        "la_morte.md §5.3 Example F(b): after a muck the deal passes to Ben, who opens the "
        "auction of the next deal.",
        4,
        [
            {"dealer": A, "deck": random_deck(4, 8), "actions": [*all_drop, act(A, "muck")]},
            {"dealer": B, "deck": random_deck(4, 9)},
        ],
        {
            "deals": [
                {"outcome": "mucked", "deltas": [0, 0, 0, 0]},
                {"outcome": None, "deltas": None},
            ],
            "totals": [0, 0, 0, 0],
            "finished": False,
            "next": {"seat": B, "legal": [bid(B, x) for x in range(1, 10)] + [act(B, "drop")]},
        },
    )

    # G: the accepter (Ben, after Ana's bid) must lead one of his lowest-ranked cards.
    def g(name: str, what: str, talon: str, hold: list[str], avoid: list[str], legal: list[str]):
        spec = DealSpec(
            players=4,
            dealer=A,
            talon=talon,
            hold={B: hold},
            avoid={B: avoid},
            auction=[bid(A, 1), act(B, "accept")],
            goal=lambda s: True,
        )
        scenario(
            name,
            f"la_morte.md §5.3 Example G (D-8): {what}",
            4,
            [full_deal(spec, 10 + len(FILES))],
            {"next": {"seat": B, "legal": plays_of(B, legal)}, "deltas": [None]},
        )

    sevens = ["S7", "H7", "D7", "C7"]
    g(
        "example_g_eights",
        "hearts trump, hand {9♥, 8♠, 8♣, K♦, …} → legal leads {8♠, 8♣}.",
        "H8",
        ["H9", "S8", "C8", "DK"],
        [*sevens, "D8"],
        ["C8", "S8"],
    )
    g(
        "example_g_trump_seven",
        "hearts trump, hand {7♥, 8♠, …} → the only legal lead is 7♥ (rank only).",
        "HK",
        ["H7", "S8"],
        ["S7", "D7", "C7"],
        ["H7"],
    )
    g(
        "example_g_la_morte",
        "hand {La Morte, 10♦, J♠, …} → 10♦ (La Morte is never a candidate).",
        "H8",
        ["T13", "D10", "SJ"],
        [*sevens, "S8", "D8", "C8", "S9", "H9", "D9", "C9", "S10", "H10", "C10"],
        ["D10"],
    )


# ---- Example H: a whole match ------------------------------------------------------------

# (dealer, auction, trick-1 decisions, tricks, contract, defenders) giving 49/53/53/30, then
# Ben +2 and Cal +0. Found by a small search over contract outcomes (see the module doc).
H_DEALS: list[tuple[int, list[dict[str, Any]], dict[int, str], list[int], int, set[int]]] = [
    (A, [bid(A, 9), act(B, "accept")], {C: "accept", D: "accept"}, [2, 2, 3, 2], 9, {B, C, D}),
    (B, [bid(B, 9), act(C, "accept")], {D: "drop", A: "accept"}, [5, 1, 3, 0], 9, {C, A}),
    (C, [bid(C, 9), act(D, "accept")], {A: "accept", B: "accept"}, [2, 6, 0, 1], 9, {D, A, B}),
    (D, [bid(D, 9), act(A, "accept")], {B: "accept", C: "accept"}, [2, 5, 1, 1], 9, {A, B, C}),
    (A, [bid(A, 4), act(B, "accept")], {C: "accept", D: "drop"}, [0, 2, 6, 1], 4, {B, C}),
    (B, [bid(B, 9), act(C, "accept")], {D: "drop", A: "accept"}, [2, 6, 0, 1], 9, {C, A}),
]
H_LAST = (C, [bid(C, 3), act(D, "drop"), act(A, "drop"), act(B, "drop")], [5, 0, 0, 4], 3)


def example_h() -> None:
    deals: list[dict[str, Any]] = []
    deltas: list[list[int]] = []
    for k, (dealer, auction, decisions, tricks, c, defenders) in enumerate(H_DEALS):
        spec = DealSpec(
            players=4,
            dealer=dealer,
            auction=auction,
            decisions=decisions,
            tricks=tricks,
            final=plain,
        )
        deals.append(full_deal(spec, 100 + k))
        deltas.append(score(c, dealer, defenders, tricks))
    totals = [sum(col) for col in zip(*deltas, strict=True)]
    assert totals == [49, 53, 53, 30], totals
    scenario(
        "example_h_tie",
        "la_morte.md §5.3 Example H (D-18): after six deals the totals are 49/53/53/30; the "
        "top is tied above the target, so the match goes on.",
        4,
        copy.deepcopy(deals),
        played(copy.deepcopy(deltas)),
        options={"target": 50},
    )
    dealer, auction, tricks, c = H_LAST
    spec = DealSpec(players=4, dealer=dealer, auction=auction, tricks=tricks, final=plain)
    deals.append(full_deal(spec, 106))
    deltas.append(score(c, dealer, set(), tricks))
    assert deltas[-1] == [0, 2, 0, 0]
    scenario(
        "example_h",
        "la_morte.md §5.3 Example H: from 49/53/53/30 Ben scores 2 and Cal 0; Ben's 55 is "
        "the unique top and wins.",
        4,
        copy.deepcopy(deals),
        played(deltas, finished=True, winners=[B]),
        options={"target": 50},
    )
    extra = {"dealer": D, "deck": random_deck(4, 107), "actions": []}
    scenario(
        "error_match_over",
        "match_over: a deal after Example H's match ended.",
        4,
        [*copy.deepcopy(deals), extra],
        {"error": {"deal": 7, "action": None, "code": "match_over"}},
        options={"target": 50},
    )


# ---- clarifications and decisions ----------------------------------------------------------


def clarifications() -> None:
    spec = DealSpec(
        players=4,
        dealer=A,
        talon="H8",
        hold={C: ["S7", "D7"]},
        avoid={C: ["H7", "C7"]},
        auction=[*AUCTION_AB, play(C, "D7")],
        goal=lambda s: True,
    )
    deal = full_deal(spec, 20)
    scenario(
        "c1_decision_alone",
        "C-1: after Cal's lead, undecided Dee is offered accept/drop alone.",
        4,
        [deal],
        {"next": {"seat": D, "legal": [act(D, "accept"), act(D, "drop")]}},
    )
    deal2 = copy.deepcopy(deal)
    deal2["actions"].append(act(D, "drop"))
    dee = hands_of(4, A, deal2["deck"])[D]
    diamonds = [c for c in dee if c.startswith("D")]
    scenario(
        "c1_then_play",
        "C-1: once Dee has dropped, her card play is her next decision (follow 7♦ if she can).",
        4,
        [deal2],
        {"next": {"seat": D, "legal": plays_of(D, diamonds or dee)}},
    )

    # C-2 / D-4: after an auto-contract trick 1 is led freely (La Morte ban only).
    spec = DealSpec(
        players=4,
        dealer=A,
        hold={B: ["T13", "S7", "HK"]},
        auction=[bid(A, 3), act(B, "drop"), act(C, "drop"), act(D, "drop")],
        goal=lambda s: True,
    )
    deal = full_deal(spec, 21)
    ben = hands_of(4, A, deal["deck"])[B]
    scenario(
        "c2_free_lead_after_auto_contract",
        "C-2, D-4: auto-contract; Ben leads trick 1 with any card but La Morte.",
        4,
        [deal],
        {"next": {"seat": B, "legal": plays_of(B, [c for c in ben if c != "T13"])}},
    )

    # C-3: after a dealer restart the dealer's bid stands and left(dealer) may accept it.
    all_drop = [act(A, "drop"), act(B, "drop"), act(C, "drop"), act(D, "drop")]
    spec = DealSpec(
        players=4,
        dealer=A,
        talon="C9",
        hold={B: ["S7", "D7", "SK"]},
        avoid={B: ["H7", "C7"]},
        auction=[*all_drop, bid(A, 2), act(B, "accept")],
        goal=lambda s: True,
    )
    scenario(
        "c3_restart_accept",
        "C-3: everyone drops, Ana restarts with a bid of 2, Ben accepts it and must lead a "
        "lowest-ranked card (7♠ or 7♦).",
        4,
        [full_deal(spec, 22)],
        {"next": {"seat": B, "legal": plays_of(B, ["D7", "S7"])}},
    )

    # D-5: after a restart, if everyone else drops, the dealer's bid becomes an auto-contract.
    spec = DealSpec(
        players=4,
        dealer=C,
        hold={D: ["T13"]},
        auction=[
            act(C, "drop"),
            act(D, "drop"),
            act(A, "drop"),
            act(B, "drop"),
            bid(C, 4),
            act(D, "drop"),
            act(A, "drop"),
            act(B, "drop"),
        ],
        goal=lambda s: True,
    )
    deal = full_deal(spec, 23)
    dee = hands_of(4, C, deal["deck"])[D]
    scenario(
        "d5_restart_auto_contract",
        "D-5, C-3: everyone drops, Cal restarts with 4, everyone drops again: auto-contract "
        "for Cal, Dee leads trick 1 freely (not La Morte).",
        4,
        [deal],
        {"next": {"seat": D, "legal": plays_of(D, [c for c in dee if c != "T13"])}},
    )

    # C-4: a Fuori dal Tempo maker still makes the contract with the La Morte trick.
    spec = DealSpec(
        players=4,
        dealer=D,
        talon="D9",
        hold={D: ["T13"]},
        auction=[bid(D, 5), act(A, "accept")],
        decisions={B: "accept", C: "drop"},
        tricks=[2, 2, 0, 5],
        checkpoints={8: [2, 2, 0, 4]},
        plays={(8, D): "T13"},
        final=lambda s: s.fuori == D and s.morto is None,
    )
    deltas = score(5, D, {A, B}, [2, 2, 0, 5], fuori=D)
    assert deltas == [2, 2, 4, 0]
    scenario(
        "c4_fuori_maker_makes_contract",
        "C-4: Dee (maker, 5) has 4 tricks after 8 and must lead La Morte; it wins trick 9, "
        "so the contract is made (defenders get no bonus) but Dee scores 0.",
        4,
        [full_deal(spec, 24)],
        played([deltas]),
    )

    # C-5: round limit with the top tied above the target → co-winners.
    spec = DealSpec(
        players=4,
        dealer=A,
        auction=[bid(A, 3), act(B, "accept")],
        decisions={C: "drop", D: "drop"},
        tricks=[3, 6, 0, 0],
        final=plain,
    )
    deltas = score(3, A, {B}, [3, 6, 0, 0])
    assert deltas == [6, 6, 2, 2]
    scenario(
        "c5_round_limit_tie_above_target",
        "C-5, D-18: target 5, round limit 1; Ana and Ben tie on 6 (above the target): the "
        "match ends at the limit with both as winners.",
        4,
        [full_deal(spec, 25)],
        played([deltas], finished=True, winners=[A, B]),
        options={"target": 5, "round_limit": 1},
    )
    scenario(
        "c5_round_limit_counts_muck",
        "C-5, D-18: a mucked deal counts for the round limit; everyone tied on 0 wins.",
        4,
        [{"dealer": B, "deck": random_deck(4, 26), "actions": [*rotate_drops(B), act(B, "muck")]}],
        {
            "deals": [{"outcome": "mucked", "deltas": [0, 0, 0, 0]}],
            "totals": [0, 0, 0, 0],
            "finished": True,
            "winners": [0, 1, 2, 3],
            "next": None,
        },
        options={"round_limit": 1},
    )
    scenario(
        "c5_muck_no_target_check",
        "C-5: a muck is no scored round; without a round limit the match goes on.",
        4,
        [{"dealer": B, "deck": random_deck(4, 27), "actions": [*rotate_drops(B), act(B, "muck")]}],
        {"totals": [0, 0, 0, 0], "finished": False, "winners": [], "next": None},
    )

    # D-10: on a trump lead, a player whose only trump is La Morte must play it.
    def forced_morte(s: LaMorteState) -> bool:
        t = s.turn
        if t is None or not s.trick or s.phase != "play" or s.statuses[t] == "undecided":
            return False
        led = s.trick[0][1]
        if led[0] != s.trump:
            return False
        hand = s.hands[t]
        return "T13" in hand and not any(c[0] == s.trump for c in hand) and len(hand) > 1

    spec = DealSpec(
        players=4,
        dealer=A,
        talon="S8",
        auction=[bid(A, 2), act(B, "drop"), act(C, "drop"), act(D, "drop")],
        goal=forced_morte,
    )
    scenario(
        "d10_forced_la_morte_on_trump_lead",
        "D-10: spades are trump and led; the follower's only 'trump' is La Morte, so it is "
        "the only legal card.",
        4,
        [full_deal(spec, 28)],
        {"next": {"seat": None, "legal": [play(0, "T13")]}},
    )

    # D-13: il Morto on the last trick scores normally.
    spec = DealSpec(
        players=4,
        dealer=B,
        talon="H9",
        auction=[bid(B, 2), act(C, "accept")],
        decisions={D: "accept", A: "drop"},
        tricks=[0, 3, 3, 3],
        on_trick=lambda k, t, s: (s.morto is None) if k < 8 else s.morto is not None,
        final=lambda s: s.fuori is None and s.morto is not None,
    )
    deltas = score(2, B, {C, D}, [0, 3, 3, 3])
    scenario(
        "d13_il_morto_last_trick",
        "D-13: La Morte is discarded on a plain lead in trick 9; the winner is il Morto and "
        "scores normally.",
        4,
        [full_deal(spec, 29)],
        played([deltas]),
    )


def rotate_drops(dealer: int) -> list[dict[str, Any]]:
    return [act((dealer + k) % 4, "drop") for k in range(4)]


# ---- talons and player counts ------------------------------------------------------------


def talons() -> None:
    def club_ruff(k: int, t: tuple[tuple[int, str], ...], s: LaMorteState) -> bool:
        if k != 0:
            return s.morto is None
        winner = s.trick_winners[-1]
        card = dict(t)[winner]
        return t[0][1][0] != "C" and card[0] == "C"

    spec = DealSpec(
        players=5,
        dealer=A,
        talon="T1",
        auction=[bid(A, 2), act(B, "accept")],
        decisions={C: "accept", D: "drop", E: "accept"},
        tricks=[1, 2, 2, 0, 4],
        on_trick=club_ruff,
        final=plain,
    )
    deltas = score(2, A, {B, C, E}, [1, 2, 2, 0, 4])
    scenario(
        "5p_bagatto_talon",
        "D-11, 5 players: the talon is Il Bagatto (given as BAG), so clubs are trump; trick "
        "1 (plain lead) is won by a club.",
        5,
        [full_deal(spec, 30, alias={"T1": "BAG"})],
        played([deltas]),
    )

    def bagatto_tops(k: int, t: tuple[tuple[int, str], ...], s: LaMorteState) -> bool:
        cards = dict(t)
        if "T1" in cards.values() and "C1" in cards.values():
            return cards.get(s.trick_winners[-1]) == "T1"
        return True

    spec = DealSpec(
        players=5,
        dealer=C,
        talon="C5",
        auction=[bid(C, 3), act(D, "drop"), act(E, "drop"), act(A, "drop"), act(B, "drop")],
        tricks=[2, 1, 3, 0, 3],
        on_trick=bagatto_tops,
        final=lambda s: (
            plain(s)
            and any("T1" in dict(t).values() and "C1" in dict(t).values() for t in s.tricks)
        ),
    )
    deltas = score(3, C, set(), [2, 1, 3, 0, 3])
    scenario(
        "5p_bagatto_highest_club",
        "D-11, 5 players: clubs trump; Il Bagatto beats the ace of clubs in the same trick.",
        5,
        [full_deal(spec, 31)],
        played([deltas]),
    )

    def no_trump(k: int, t: tuple[tuple[int, str], ...], s: LaMorteState) -> bool:
        if k != 0:
            return True
        led = t[0][1][0]
        win = dict(t)[s.trick_winners[-1]]
        return win[0] == led and any(c[0] != led for _, c in t)

    spec = DealSpec(
        players=4,
        dealer=B,
        talon="T13",
        auction=[bid(B, 3), act(C, "accept")],
        decisions={D: "drop", A: "accept"},
        tricks=[3, 4, 2, 0],
        on_trick=no_trump,
        final=plain,
    )
    deltas = score(3, B, {C, A}, [3, 4, 2, 0])
    scenario(
        "no_trump_la_morte_talon",
        "D-9: the talon is La Morte (given as LM): no trump this round; in trick 1 a player "
        "void in the led suit discards and the led suit's highest card wins.",
        4,
        [full_deal(spec, 32, alias={"T13": "LM"})],
        played([deltas]),
    )

    spec = DealSpec(
        players=3,
        dealer=B,
        talon="S9",
        set_aside=["T13"],
        auction=[bid(B, 3), act(C, "drop"), act(A, "accept")],
        tricks=[4, 3, 2],
        final=plain,
    )
    deltas = score(3, B, {A}, [4, 3, 2])
    scenario(
        "3p_set_aside",
        "D-19, 3 players: La Morte is among the 9 set-aside cards; spades are trump and the "
        "round is played without La Morte.",
        3,
        [full_deal(spec, 33)],
        played([deltas]),
    )


# ---- error codes -------------------------------------------------------------------------


def errors() -> None:
    deck4 = random_deck(4, 40)

    def err(
        name: str,
        what: str,
        deals: list[dict[str, Any]],
        deal: Any,
        action: Any,
        code: str,
        players: Any = 4,
        game: str = "la_morte",
        options: Any = None,
    ) -> None:
        scenario(
            f"error_{name}",
            f"{code}: {what}",
            players,
            deals,
            {"error": {"deal": deal, "action": action, "code": code}},
            options=options,
            game=game,
        )

    one = [{"dealer": 0, "deck": deck4, "actions": [bid(0, 2)]}]
    err("bad_scenario_game", "unknown game id.", one, None, None, "bad_scenario", game="bridge")
    err(
        "bad_scenario_players",
        "La Morte has no 6-player game.",
        one,
        None,
        None,
        "bad_scenario",
        players=6,
    )
    err(
        "bad_scenario_option",
        "target must be an integer.",
        one,
        None,
        None,
        "bad_scenario",
        options={"target": "50"},
    )
    err(
        "bad_scenario_unknown_option",
        "unknown option.",
        one,
        None,
        None,
        "bad_scenario",
        options={"chelem": True},
    )
    err(
        "bad_scenario_dealer",
        "dealer 4 is not a seat.",
        [{"dealer": 4, "deck": deck4}],
        None,
        None,
        "bad_scenario",
    )
    bad = [*deck4[:-1], deck4[0]]
    err(
        "bad_deck",
        "a card twice and one missing.",
        [{"dealer": 0, "deck": bad}],
        0,
        None,
        "bad_deck",
    )
    err(
        "bad_deck_5p_card",
        "Il Bagatto is not in the 4-player pack.",
        [{"dealer": 0, "deck": [*deck4[:-1], "BAG"]}],
        0,
        None,
        "bad_deck",
    )
    muck = [*rotate_drops(0), act(0, "muck")]
    err(
        "wrong_dealer",
        "the deal after Ana's must be Ben's.",
        [{"dealer": 0, "deck": deck4, "actions": muck}, {"dealer": 2, "deck": deck4}],
        1,
        None,
        "wrong_dealer",
    )
    err(
        "deal_unfinished",
        "deal 0 stops mid-auction and deal 1 starts.",
        [{"dealer": 0, "deck": deck4, "actions": [bid(0, 2)]}, {"dealer": 1, "deck": deck4}],
        1,
        None,
        "deal_unfinished",
    )
    err(
        "deal_over",
        "an action after the muck.",
        [{"dealer": 0, "deck": deck4, "actions": [*muck, bid(1, 1)]}],
        0,
        5,
        "deal_over",
    )
    err(
        "bad_action",
        "amounts must be JSON integers.",
        [
            {
                "dealer": 0,
                "deck": deck4,
                "actions": [bid(0, 2), {"seat": 1, "type": "bid", "amount": 3.0}],
            }
        ],
        0,
        1,
        "bad_action",
    )
    err(
        "bad_action_card",
        "unknown card code.",
        [{"dealer": 0, "deck": deck4, "actions": [bid(0, 2), act(1, "accept"), play(1, "ZZ")]}],
        0,
        2,
        "bad_action",
    )
    err(
        "not_your_turn",
        "Cal bids while Ben is to act.",
        [{"dealer": 0, "deck": deck4, "actions": [bid(0, 2), bid(2, 3)]}],
        0,
        1,
        "not_your_turn",
    )
    err(
        "illegal_action",
        "a bid must be higher than the standing bid.",
        [{"dealer": 0, "deck": deck4, "actions": [bid(0, 4), bid(1, 3)]}],
        0,
        1,
        "illegal_action",
    )
    err(
        "illegal_action_dealer_accept",
        "the dealer cannot accept with no bid (D-2).",
        [{"dealer": 0, "deck": deck4, "actions": [act(0, "accept")]}],
        0,
        0,
        "illegal_action",
    )
    deck3 = random_deck(3, 41)
    aside = deck3[28]
    err(
        "illegal_action_set_aside",
        "3 players: a set-aside card cannot be played.",
        [
            {
                "dealer": 0,
                "deck": deck3,
                "actions": [bid(0, 2), act(1, "drop"), act(2, "drop"), play(1, aside)],
            }
        ],
        0,
        3,
        "illegal_action",
        players=3,
    )


def write(only: Callable[[str], bool] = lambda n: True) -> None:
    examples()
    example_h()
    clarifications()
    talons()
    errors()
    OUT.mkdir(parents=True, exist_ok=True)
    failed = False
    for name, obj in FILES.items():
        if not only(name):
            continue
        result = run(obj)
        expect = obj["expect"]
        nxt = expect.get("next")
        if isinstance(nxt, dict) and nxt.get("seat") is None:
            # the seat is whoever the search stopped at: fill it in from the legal list
            seat = result.get("next", {}).get("seat") if "error" not in result else None
            nxt["seat"] = seat
            nxt["legal"] = [{**a, "seat": seat} for a in nxt["legal"]]
        bad = check(result, expect)
        if bad:
            print(name, bad, file=sys.stderr)
            failed = True
            continue
        (OUT / f"la_morte_{name}.json").write_text(dump_scenario(obj), encoding="utf-8")
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    write()
