"""Writes ``tests/scenarios/french_tarot_{c,error}_*.json``: the spec's clarifications C-n
and the runner's error codes for French Tarot.

Run: ``python -m tests.engine.french_tarot_clarifications``. Hands are pinned with
``constrained_deck`` (the inverse of the canonical deal), and every ``expect`` block is
computed here from the clarification's own wording — the legal leads, the poignée sizes, the
forced trumps — never read back from the engine. A file is written only if the engine agrees.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import Any

from bot.engine.cards import EXCUSE, TAROT_PACK
from bot.engine.games.french_tarot import RULES
from bot.engine.scenario import check, run
from tests.engine.french_tarot_examples import OUT, constrained_deck, render

TRUMPS = [f"T{i}" for i in range(1, 22)]


def dealable(
    players: int, dealer: int, rng: random.Random, wants: dict[int | str, Sequence[str]]
) -> list[str]:
    """``constrained_deck`` retried until no petit sec cancels the deal."""
    while True:
        deck = constrained_deck(players, dealer, rng, wants)
        if RULES.new_deal(players, {}, deck, dealer).outcome is None:
            return deck


def hands_of(players: int, dealer: int, deck: list[str]) -> list[list[str]]:
    return [list(h) for h in RULES.new_deal(players, {}, deck, dealer).hands]


def bids(order: Sequence[int], said: dict[int, str]) -> list[dict[str, Any]]:
    return [{"seat": s, "type": "bid", "contract": said.get(s, "pass")} for s in order]


def card_list(cards: Sequence[str]) -> list[str]:
    return sorted(cards)  # SCENARIOS.md: card lists in outputs sort in plain string order


def legal(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    import json

    return sorted(entries, key=lambda a: json.dumps(a, sort_keys=True))


def scenario(
    description: str,
    players: int,
    deals: list[dict[str, Any]],
    expect: dict[str, Any],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description, "game": "french_tarot", "players": players}
    if options:
        out["options"] = options
    return {**out, "deals": deals, "expect": expect}


def c5_lead_ban() -> dict[str, dict[str, Any]]:
    """C-5/D-14: at trick 1 the leader may not lead the called suit except the called card."""
    out: dict[str, dict[str, Any]] = {}
    rng = random.Random(5)
    leader, taker = 4, 1  # dealer 0: seat 4 speaks and leads first
    hearts = ["H1", "H2", "H3", "H4"]
    cases = {
        "c5_called_suit_banned_at_trick_1": ({leader: [*hearts, "S1", "S2", "D5"]}, "HK"),
        "c5_excuse_counts_as_another_lead": (
            {leader: [*[f"H{i}" for i in range(1, 11)], "HJ", "HC", "HQ", "T2", EXCUSE]},
            "HK",
        ),
    }
    for name, (wants, call) in cases.items():
        deck = dealable(5, 0, rng, {**wants, 3: ["HK"], taker: ["S3", "S4", "S5", "S6"]})
        hand = hands_of(5, 0, deck)[leader]
        actions = [
            *bids([4, 3, 2, 1, 0], {taker: "garde_sans"}),
            {"seat": taker, "type": "call", "card": call},
            {"seat": taker, "type": "chelem", "announce": False},
        ]
        allowed = [c for c in hand if not c.startswith(call[0]) or c == call]
        expect_legal = [{"seat": leader, "type": "play", "card": c} for c in allowed]
        out[name] = scenario(
            f"C-5/D-14: trick 1's leader (seat 4) may not lead the called suit ({call[0]}) "
            "except with the called card; the Excuse counts as something else to lead.",
            5,
            [{"dealer": 0, "deck": deck, "actions": actions}],
            {"next": {"seat": leader, "legal": legal(expect_legal)}},
        )
    # Escape clause: nothing but Hearts → any Heart may lead.
    deck = dealable(
        5,
        0,
        rng,
        {leader: [f"H{i}" for i in range(1, 11)] + ["HJ", "HC", "HQ"] + ["S7", "S8"], 3: ["HK"]},
    )
    hand = hands_of(5, 0, deck)[leader]
    actions = [
        *bids([4, 3, 2, 1, 0], {taker: "garde_contre"}),
        {"seat": taker, "type": "call", "card": "HK"},
        {"seat": taker, "type": "chelem", "announce": False},
    ]
    out["c5_lead_ban_other_suit_left"] = scenario(
        "C-5: with Spades left, seat 4 must lead them (no Heart but the called King).",
        5,
        [{"dealer": 0, "deck": deck, "actions": actions}],
        {
            "next": {
                "seat": leader,
                "legal": legal(
                    [{"seat": leader, "type": "play", "card": c} for c in hand if c[0] == "S"]
                ),
            }
        },
    )
    return out


def c6_poignee() -> dict[str, dict[str, Any]]:
    """C-6: every level reached; the Excuse only with all trumps."""
    rng = random.Random(6)
    leader = 3  # 4 players, dealer 0: seat 3 speaks and leads first
    twelve = [f"T{i}" for i in range(2, 14)]
    deck = dealable(4, 0, rng, {leader: [*twelve, EXCUSE, "S1", "S2", "S3"]})
    hand = hands_of(4, 0, deck)[leader]
    held = [c for c in hand if c in TRUMPS]
    actions = [
        *bids([3, 2, 1, 0], {1: "garde_sans"}),
        {"seat": 1, "type": "chelem", "announce": False},
    ]
    sizes = [n for n in (10, 13, 15) if n <= len(held) or n == len(held) + 1]
    show = [*held, EXCUSE] if len(held) + 1 in sizes else held
    plays = [{"seat": leader, "type": "play", "card": c} for c in hand]
    descriptor = {"seat": leader, "type": "poignee", "sizes": sizes, "cards": card_list(show)}
    first = sorted(held)[:10]
    return {
        "c6_poignee_levels_and_excuse": scenario(
            f"C-6: seat 3 holds {len(held)} trumps and the Excuse: simple (10) and double (13, "
            "only by showing every trump and the Excuse) are offered before the first card.",
            4,
            [{"dealer": 0, "deck": deck, "actions": actions}],
            {"next": {"seat": leader, "legal": legal([*plays, descriptor])}},
        ),
        "c6_poignee_excuse_needs_all_trumps": scenario(
            "C-6: showing the Excuse with only some trumps is refused.",
            4,
            [
                {
                    "dealer": 0,
                    "deck": deck,
                    "actions": [
                        *actions,
                        {"seat": leader, "type": "poignee", "cards": [*first[:9], EXCUSE]},
                    ],
                }
            ],
            {"error": {"deal": 0, "action": 5, "code": "illegal_action"}},
        ),
        "c6_poignee_once_then_play": scenario(
            "C-6: after showing 10 trumps the same player may only play.",
            4,
            [
                {
                    "dealer": 0,
                    "deck": deck,
                    "actions": [*actions, {"seat": leader, "type": "poignee", "cards": first}],
                }
            ],
            {"next": {"seat": leader, "legal": legal(plays)}},
        ),
    }


def c7_c8_c11() -> dict[str, dict[str, Any]]:
    rng = random.Random(7)
    # 4 players, dealer 0, seat 1 takes a Garde holding only three non-King suit cards.
    wants = {1: ["SK", "HK", "S2", "S3", "H4", *[f"T{i}" for i in range(2, 15)]]}
    deck = dealable(4, 0, rng, {**wants, "dog": ["DK", "CK", "T15", "T16", "T17", "T18"]})
    hand = hands_of(4, 0, deck)[1] + ["DK", "CK", "T15", "T16", "T17", "T18"]
    plain = [c for c in hand if c[0] != "T" and c != EXCUSE and not c.endswith("K")]
    forced = [c for c in hand if c[0] == "T" and c not in ("T1", "T21")]
    need = 6 - len(plain)
    bidding = bids([3, 2, 1, 0], {1: "garde"})
    discard = {"seat": 1, "type": "discard", "cards": [*plain, *sorted(forced)[:need]]}
    out = {
        "c11_discard_forced_trumps": scenario(
            f"C-11: the taker has {len(plain)} non-King suit cards after the dog, so the discard "
            f"must hold {need} trumps from 2–20.",
            4,
            [{"dealer": 0, "deck": deck, "actions": bidding}],
            {
                "next": {
                    "seat": 1,
                    "legal": [
                        {
                            "seat": 1,
                            "type": "discard",
                            "count": 6,
                            "cards": card_list(plain + forced),
                        }
                    ],
                }
            },
        ),
        "c11_discard_too_many_trumps": scenario(
            "C-11: a discard with more trumps than forced is illegal.",
            4,
            [
                {
                    "dealer": 0,
                    "deck": deck,
                    "actions": [
                        *bidding,
                        {
                            "seat": 1,
                            "type": "discard",
                            "cards": [*plain[:-1], *sorted(forced)[: need + 1]],
                        },
                    ],
                }
            ],
            {"error": {"deal": 0, "action": 4, "code": "illegal_action"}},
        ),
        "c7_chelem_step_after_discard": scenario(
            "C-7: with the chelem option on, the taker decides after the discard.",
            4,
            [{"dealer": 0, "deck": deck, "actions": [*bidding, discard]}],
            {
                "next": {
                    "seat": 1,
                    "legal": [
                        {"seat": 1, "type": "chelem", "announce": False},
                        {"seat": 1, "type": "chelem", "announce": True},
                    ],
                }
            },
        ),
        "c7_no_chelem_step_when_off": scenario(
            "C-7: with the option off, play starts at the dealer's right.",
            4,
            [{"dealer": 0, "deck": deck, "actions": [*bidding, discard]}],
            {
                "next": {
                    "seat": 3,
                    "legal": legal(
                        [{"seat": 3, "type": "play", "card": c} for c in hands_of(4, 0, deck)[3]]
                    ),
                }
            },
            options={"chelem": False},
        ),
        "c8_everyone_speaks_after_garde_contre": scenario(
            "C-8: after a Garde contre the others still speak, and can only pass.",
            4,
            [
                {
                    "dealer": 0,
                    "deck": deck,
                    "actions": [{"seat": 3, "type": "bid", "contract": "garde_contre"}],
                }
            ],
            {"next": {"seat": 2, "legal": [{"seat": 2, "type": "bid", "contract": "pass"}]}},
        ),
    }
    return out


def c10_c12() -> dict[str, dict[str, Any]]:
    rng = random.Random(10)
    plain = [c for c in TAROT_PACK if c[0] != "T" and c != EXCUSE]
    sec = constrained_deck(3, 0, rng, {1: ["T1", *plain[:23]]})
    not_sec = constrained_deck(3, 0, rng, {1: ["T1", EXCUSE, *plain[:22]]})
    normal = dealable(3, 0, rng, {})
    all_pass = bids([2, 1, 0], {})
    return {
        "c10_petit_sec_redeal": scenario(
            "§3.2/C-10: seat 1 holds the Petit as its only trump and no Excuse: the deal is "
            "cancelled (redeal) and the next dealer is seat 2 (right of 0).",
            3,
            [
                {"dealer": 0, "deck": sec, "actions": []},
                {"dealer": 2, "deck": normal, "actions": []},
            ],
            {
                "deals": [
                    {"outcome": "redeal", "deltas": [0, 0, 0]},
                    {"outcome": None, "deltas": None},
                ],
                "totals": [0, 0, 0],
                "next": {
                    "seat": 1,
                    "legal": [
                        {"seat": 1, "type": "bid", "contract": c}
                        for c in ("garde", "garde_contre", "garde_sans", "pass", "prise")
                    ],
                },
            },
        ),
        "c10_petit_with_excuse_is_not_sec": scenario(
            "C-10: the Petit with the Excuse and no other trump is not petit sec.",
            3,
            [{"dealer": 0, "deck": not_sec, "actions": []}],
            {"deals": [{"outcome": None, "deltas": None}]},
        ),
        "c12_all_pass_thrown_in_and_rotation": scenario(
            "C-12: an all-pass deal is thrown in and the deal passes right; thrown-in and "
            "redealt deals do not count toward option deals.",
            3,
            [
                {"dealer": 0, "deck": normal, "actions": all_pass},
                {"dealer": 2, "deck": sec, "actions": []},
            ],
            {
                "deals": [
                    {"outcome": "thrown_in", "deltas": [0, 0, 0]},
                    {"outcome": "redeal", "deltas": [0, 0, 0]},
                ],
                "finished": False,
                "next": None,
            },
            options={"deals": 1},
        ),
        "error_wrong_dealer_clockwise": scenario(
            "C-12: the deal passes to the right; seat 1 (the left) is the wrong dealer.",
            3,
            [
                {"dealer": 0, "deck": normal, "actions": all_pass},
                {"dealer": 1, "deck": normal, "actions": []},
            ],
            {"error": {"deal": 1, "action": None, "code": "wrong_dealer"}},
        ),
    }


def errors() -> dict[str, dict[str, Any]]:
    rng = random.Random(11)
    deck = dealable(4, 0, rng, {})
    bad_deck = [*deck[:-1], deck[0]]
    bidding = bids([3, 2, 1, 0], {})
    return {
        "error_six_players": scenario(
            "6 players are not supported (D-23).",
            6,
            [],
            {"error": {"deal": None, "action": None, "code": "bad_scenario"}},
        ),
        "error_unknown_option": scenario(
            "An unknown option.",
            4,
            [{"dealer": 0, "deck": deck}],
            {"error": {"deal": None, "action": None, "code": "bad_scenario"}},
            options={"target": 50},
        ),
        "error_bad_deck": scenario(
            "A card twice and one missing.",
            4,
            [{"dealer": 0, "deck": bad_deck}],
            {"error": {"deal": 0, "action": None, "code": "bad_deck"}},
        ),
        "error_deal_over": scenario(
            "An action after an all-pass deal ended.",
            4,
            [{"dealer": 0, "deck": deck, "actions": [*bidding, bidding[0]]}],
            {"error": {"deal": 0, "action": 4, "code": "deal_over"}},
        ),
        "error_bad_action": scenario(
            "A bid without a contract.",
            4,
            [{"dealer": 0, "deck": deck, "actions": [{"seat": 3, "type": "bid"}]}],
            {"error": {"deal": 0, "action": 0, "code": "bad_action"}},
        ),
        "error_not_your_turn": scenario(
            "The dealer (seat 0) speaks first, but seat 3 (its right) must.",
            4,
            [{"dealer": 0, "deck": deck, "actions": [bidding[-1]]}],
            {"error": {"deal": 0, "action": 0, "code": "not_your_turn"}},
        ),
        "error_illegal_bid": scenario(
            "A Prise after a Garde is not higher.",
            4,
            [
                {
                    "dealer": 0,
                    "deck": deck,
                    "actions": [
                        {"seat": 3, "type": "bid", "contract": "garde"},
                        {"seat": 2, "type": "bid", "contract": "prise"},
                    ],
                }
            ],
            {"error": {"deal": 0, "action": 1, "code": "illegal_action"}},
        ),
    }


def write() -> None:
    found = {**c5_lead_ban(), **c6_poignee(), **c7_c8_c11(), **c10_c12(), **errors()}
    for name, data in found.items():
        mismatch = check(run(data), data["expect"])
        if mismatch:
            raise SystemExit(f"{name}: engine disagrees: {mismatch}")
        (OUT / f"french_tarot_{name}.json").write_text(render(data), encoding="utf-8")
        print(f"wrote french_tarot_{name}.json", file=sys.stderr)


if __name__ == "__main__":
    write()
