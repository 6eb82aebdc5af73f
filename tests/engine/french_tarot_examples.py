"""Writes ``tests/scenarios/french_tarot_example_*.json`` from the spec's worked examples.

Run: ``python -m tests.engine.french_tarot_examples``. Each example of
``rules/french_tarot.md`` §5.5 gives figures (contract, bouts, attack points, Petit au bout,
poignées, chelem) and a unit score ``U``. A seeded search deals constrained decks and plays
them out until the finished deal shows exactly those figures; the file then records the deck
and every action, and its ``expect`` holds the deltas derived from the spec's ``U`` and the
§2 weights — never read back from the engine's own score.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, TAROT_PACK
from bot.engine.games.french_tarot import RULES, FrenchTarotState, Phase
from bot.engine.games.french_tarot_cards import PARAMS, half_points, is_trump, rank
from bot.engine.games.french_tarot_scoring import piles
from bot.engine.scenario import check, run

OUT = Path(__file__).resolve().parent.parent / "scenarios"
_ONLY = ""  # run only the examples whose name contains this (searching is slow)


def deck_from_hands(
    players: int, dealer: int, hands: Sequence[Sequence[str]], dog: Sequence[str]
) -> list[str]:
    """Inverse of the canonical deal (§3.1): the deck that deals exactly ``hands`` and ``dog``."""
    p = PARAMS[players]
    left = [list(h) for h in hands]
    rest = list(dog)
    deck: list[str] = []
    order = [(dealer - 1 - k) % players for k in range(players)]
    for r in range(p.cards // p.packet):
        for k, seat in enumerate(order):
            deck.extend(left[seat][: p.packet])
            del left[seat][: p.packet]
            if k == 0 and r < p.dog:
                deck.append(rest.pop(0))
    return deck


def constrained_deck(
    players: int, dealer: int, rng: random.Random, wants: dict[int | str, Sequence[str]]
) -> list[str]:
    """A random deal where seat ``s`` holds ``wants[s]`` and the dog holds ``wants["dog"]``."""
    p = PARAMS[players]
    fixed = {c for cards in wants.values() for c in cards}
    free = [c for c in TAROT_PACK if c not in fixed]
    rng.shuffle(free)
    hands: list[list[str]] = []
    for s in range(players):
        mine = list(wants.get(s, ()))
        need = p.cards - len(mine)
        hands.append(mine + free[:need])
        del free[:need]
    dog = list(wants.get("dog", ()))
    dog += free[: p.dog - len(dog)]
    return deck_from_hands(players, dealer, hands, dog)


Policy = Callable[[FrenchTarotState, random.Random], str]


def random_play(s: FrenchTarotState, rng: random.Random) -> str:
    return rng.choice(RULES.legal_cards(s))


def greedy_attack(s: FrenchTarotState, rng: random.Random) -> str:
    """The taker plays its highest card, everyone else at random (biases tricks to the taker)."""
    cards = RULES.legal_cards(s)
    if s.turn != s.taker:
        return rng.choice(cards)
    return max(cards, key=lambda c: (is_trump(c), rank(c), c != EXCUSE))


def play_deal(
    players: int,
    dealer: int,
    deck: list[str],
    rng: random.Random,
    *,
    bids: dict[int, str],
    call: str | None = None,
    chelem: bool = False,
    poignees: dict[int, int] | None = None,
    policy: Policy = random_play,
) -> tuple[FrenchTarotState, list[dict[str, Any]]] | None:
    """Play one deal; ``None`` if the scripted choices are not legal for this deck."""
    s = RULES.new_deal(players, {}, deck, dealer)
    actions: list[dict[str, Any]] = []
    poignees = poignees or {}
    while s.turn is not None:
        t = s.turn
        if s.phase is Phase.BIDDING:
            a = Action("bid", t, contract=bids.get(t, "pass"))
        elif s.phase is Phase.CALL:
            if call is None:
                return None
            a = Action("call", t, card=call)
        elif s.phase is Phase.DISCARD:
            view = RULES.observe(s, t)
            a = RULES.random_choice(view, view.legal[0], rng)
        elif s.phase is Phase.CHELEM:
            a = Action("chelem", t, announce=chelem)
        else:
            shows = [x for x in RULES.legal_actions(s) if x.type == "poignee"]
            level = poignees.get(t)
            size = None if level is None else PARAMS[players].poignees[level]
            show = [x for x in shows if x.amount == size and EXCUSE not in (x.cards or ())]
            if show:
                cards = tuple(sorted(show[0].cards or (), key=rank)[: size or 0])
                a = Action("poignee", t, cards=cards)
                poignees = {k: v for k, v in poignees.items() if k != t}
            elif level is not None:
                return None  # this seat cannot show that level
            else:
                a = Action("play", t, card=policy(s, rng))
        try:
            s, _ = RULES.apply(s, a)
        except Exception:
            return None
        actions.append(a.to_json())
    return s, actions


def attack_figures(s: FrenchTarotState) -> tuple[int, frozenset[str]]:
    """(attack half-points, bouts in the attack's pile) of a played deal."""
    assert s.taker is not None and s.contract is not None
    attack = frozenset({s.taker} if s.partner is None else {s.taker, s.partner})
    att, _, _ = piles(attack, s.contract, s.dog, s.discard, s.tricks, s.winners)
    return sum(map(half_points, att)), frozenset(c for c in att if c in ("T1", "T21", EXCUSE))


def petit_trick(s: FrenchTarotState) -> int:
    return next(i for i, t in enumerate(s.tricks) if any(c == "T1" for _, c in t))


def weights(players: int, taker: int, partner: int | None, u: int) -> list[int]:
    """§2: the spec's weights, written out per player count."""
    if players == 5 and partner is None:
        return [4 * u if p == taker else -u for p in range(players)]
    if players == 5:
        return [2 * u if p == taker else u if p == partner else -u for p in range(players)]
    k = {3: 2, 4: 3}[players]
    return [k * u if p == taker else -u for p in range(players)]


def search(
    name: str,
    description: str,
    players: int,
    unit: int,
    make: Callable[[random.Random], tuple[list[str], dict[str, Any]] | None],
    ok: Callable[[FrenchTarotState], bool],
    tries: int = 40000,
) -> dict[str, Any]:
    if _ONLY not in name:
        return {}
    dealer = 0
    for seed in range(tries):
        rng = random.Random(seed)
        made = make(rng)
        if made is None:
            continue
        deck, kwargs = made
        out = play_deal(players, dealer, deck, rng, **kwargs)
        if out is None:
            continue
        s, actions = out
        if s.outcome != "played" or not ok(s):
            continue
        assert s.taker is not None
        deltas = weights(players, s.taker, s.partner, unit)
        return {
            "description": description,
            "game": "french_tarot",
            "players": players,
            "deals": [{"dealer": dealer, "deck": deck, "actions": actions}],
            "expect": {"deltas": [deltas], "totals": deltas, "finished": False, "next": None},
        }
    raise SystemExit(f"{name}: no deal found in {tries} tries")


TRUMPS_DOWN = [f"T{i}" for i in range(21, 0, -1)]


def chelem_policy(s: FrenchTarotState, rng: random.Random) -> str:
    """Example 5's taker: pull trumps from the top, then the Petit, the Excuse last."""
    cards = RULES.legal_cards(s)
    if s.turn != s.taker:
        return rng.choice(cards)
    high = [c for c in TRUMPS_DOWN if c in cards and c != "T1"]
    return high[0] if high else ("T1" if "T1" in cards else cards[0])


def examples(only: str = "") -> dict[str, dict[str, Any]]:
    """The examples whose name contains ``only``, each found by ``search``."""
    t, ptn = 1, 3  # taker seat; holder of the called card
    out: dict[str, dict[str, Any]] = {}
    global _ONLY
    _ONLY = only

    def ex1(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
        wants: dict[int | str, Sequence[str]] = {
            t: ["T21", EXCUSE, *[f"T{i}" for i in range(2, 9)]],
            ptn: ["HK"],
        }
        return constrained_deck(5, 0, rng, wants), {
            "bids": {t: "garde"},
            "call": "HK",
            "poignees": {t: 0},
        }

    out["example_1_5p_garde_partner_poignee"] = search(
        "example_1_5p_garde_partner_poignee",
        "§5.5 Example 1: 5p Garde with a partner, made by 7 (48 points, 21 and Excuse), "
        "taker's simple poignée: U = (25+7)×2 + 20 = 84.",
        5,
        84,
        ex1,
        lambda s: (
            s.partner is not None
            and attack_figures(s) == (96, frozenset({"T21", EXCUSE}))
            and petit_trick(s) != 14
        ),
    )

    def ex2(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
        return constrained_deck(5, 0, rng, {ptn: ["HK"]}), {"bids": {t: "prise"}, "call": "HK"}

    out["example_2_5p_prise_failed_petit_au_bout"] = search(
        "example_2_5p_prise_failed_petit_au_bout",
        "§5.5 Example 2: 5p Prise failed (44.5 points, one bout, needs 51 → by 7), "
        "the defence takes the Petit in the last trick: U = −(25+7)×1 − 10 = −42.",
        5,
        -42,
        ex2,
        lambda s: (
            s.partner is not None
            and attack_figures(s)[0] == 89
            and len(attack_figures(s)[1]) == 1
            and petit_trick(s) == 14
            and s.winners[14] not in (s.taker, s.partner)
        ),
    )

    def ex3(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
        wants: dict[int | str, Sequence[str]] = {t: ["T21", "T1", EXCUSE], "dog": ["HK"]}
        return constrained_deck(5, 0, rng, wants), {"bids": {t: "garde_sans"}, "call": "HK"}

    out["example_3_5p_garde_sans_king_in_dog"] = search(
        "example_3_5p_garde_sans_king_in_dog",
        "§5.5 Example 3: 5p Garde sans, the called King lies in the dog so the taker is "
        "alone; 3 bouts, 40 points (+4) and the Petit au bout: U = (25+4)×4 + 40 = 156.",
        5,
        156,
        ex3,
        lambda s: (
            s.partner is None
            and attack_figures(s) == (80, frozenset({"T1", "T21", EXCUSE}))
            and petit_trick(s) == 14
            and s.winners[14] == s.taker
        ),
        tries=200000,
    )

    def ex4(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
        wants: dict[int | str, Sequence[str]] = {2: [f"T{i}" for i in range(2, 12)], ptn: ["HK"]}
        return constrained_deck(5, 0, rng, wants), {
            "bids": {t: "garde_contre"},
            "call": "HK",
            "poignees": {2: 1},
        }

    out["example_4_5p_garde_contre_defender_double_poignee"] = search(
        "example_4_5p_garde_contre_defender_double_poignee",
        "§5.5 Example 4: 5p Garde contre failed (2 bouts, 35 points → by 6), a defender's "
        "double poignée goes to the defence: U = −(25+6)×6 − 30 = −216.",
        5,
        -216,
        ex4,
        lambda s: (
            s.partner is not None
            and attack_figures(s)[0] == 70
            and len(attack_figures(s)[1]) == 2
            and petit_trick(s) != 14
        ),
    )

    def ex5(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
        taker = [f"T{i}" for i in range(9, 22)] + ["T1", EXCUSE]
        wants: dict[int | str, Sequence[str]] = {t: taker, ptn: ["HK"], "dog": ["S2", "S3", "S4"]}
        return constrained_deck(5, 0, rng, wants), {
            "bids": {t: "garde"},
            "call": "HK",
            "chelem": True,
            "policy": chelem_policy,
        }

    out["example_5_5p_chelem_announced_made"] = search(
        "example_5_5p_chelem_announced_made",
        "§5.5 Example 5: 5p Garde, chelem announced and made; the taker leads the Excuse "
        "to the last trick and wins it (C-2); the Petit in trick 14 counts as au bout (C-3): "
        "U = (25+55)×2 + 20 + 400 = 580.",
        5,
        580,
        ex5,
        lambda s: attack_figures(s)[0] == 182 and petit_trick(s) == 13 and s.excuse_won_last,
    )

    def ex6(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
        wants: dict[int | str, Sequence[str]] = {2: [f"T{i}" for i in range(2, 15)]}
        return constrained_deck(4, 0, rng, wants), {"bids": {t: "garde"}, "poignees": {2: 1}}

    out["example_6_4p_garde_failed_defender_poignee"] = search(
        "example_6_4p_garde_failed_defender_poignee",
        "§5.5 Example 6: 4p Garde failed (2 bouts, 38 points → by 3), a defender's "
        "double poignée of 13 trumps: U = −(25+3)×2 − 30 = −86.",
        4,
        -86,
        ex6,
        lambda s: (
            attack_figures(s)[0] == 76 and len(attack_figures(s)[1]) == 2 and petit_trick(s) != 17
        ),
    )

    def ex7(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
        return constrained_deck(4, 0, rng, {}), {"bids": {t: "prise"}}

    out["example_7_4p_prise_juste_fait"] = search(
        "example_7_4p_prise_juste_fait",
        "§5.5 Example 7: 4p Prise made exactly (one bout, 51 points): U = 25.",
        4,
        25,
        ex7,
        lambda s: (
            attack_figures(s)[0] == 102 and len(attack_figures(s)[1]) == 1 and petit_trick(s) != 17
        ),
    )

    def ex8(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
        wants: dict[int | str, Sequence[str]] = {
            t: ["SK", "HK", "DK", "CK", "SQ", "HQ", "DQ", "CQ", "T20", "T19", "T18", "T17"],
            2: ["T21", "T1", EXCUSE],
        }
        return constrained_deck(3, 0, rng, wants), {"bids": {t: "prise"}, "policy": greedy_attack}

    out["example_8_3p_prise_half_point"] = search(
        "example_8_3p_prise_half_point",
        "§5.5 Example 8: 3p Prise with no bout, 60.5 points against 56 → made by 5 "
        "(the odd half point to the winning camp): U = 30.",
        3,
        30,
        ex8,
        lambda s: attack_figures(s) == (121, frozenset()) and petit_trick(s) != 23,
    )
    return {k: v for k, v in out.items() if v}


def render(scenario: dict[str, Any]) -> str:
    """Scenario JSON with one action per line (readable diffs)."""
    head = {k: v for k, v in scenario.items() if k not in ("deals", "expect")}
    text = json.dumps(head, indent=2, ensure_ascii=False)[:-2]
    deals = ",\n".join(
        "    {"
        + f'"dealer": {d["dealer"]},\n     "deck": {json.dumps(d["deck"])},\n'
        + '     "actions": [\n'
        + ",\n".join("       " + json.dumps(a) for a in d.get("actions", []))
        + "\n     ]}"
        for d in scenario["deals"]
    )
    expect = json.dumps(scenario["expect"])
    return f'{text},\n  "deals": [\n{deals}\n  ],\n  "expect": {expect}\n}}\n'


def write(only: str = "") -> None:
    for name, scenario in examples(only).items():
        mismatch = check(run(scenario), scenario["expect"])
        if mismatch:
            raise SystemExit(f"{name}: engine disagrees with the spec: {mismatch}")
        path = OUT / f"french_tarot_{name}.json"
        path.write_text(render(scenario), encoding="utf-8")
        print(f"wrote {path.name}", file=sys.stderr)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else "")
