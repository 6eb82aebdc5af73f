"""Writes ``tests/scenarios/queen_of_tarot_*.json``; run it as a module.

``python -m tests.engine.queen_of_tarot_scenarios``.

Every worked example of ``rules/queen_of_tarot.md`` §5.3, each clarification C-1…C-8, the key
decisions and one file (or more) per runner error code. The expectations come from the spec's
own figures where it gives them and otherwise from ``queen_of_tarot_model``, an independent
reading of the spec — the engine's answers are never read back. Hands are dealt from decks
arranged so the described events really happen: the needed cards are pinned to seats, then a
seeded depth-first search over legal plays (the model's legality) finds a line meeting every
trick and end condition. Each file is replayed through ``bot.engine.scenario.run`` and
``check``; the script refuses to write a file the engine disagrees with.
"""

from __future__ import annotations

import copy
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

from tests.engine import queen_of_tarot_model as model
from tests.engine.scenario_builder import write_checked

ANN, BO, CY = 0, 1, 2  # §5.3: seats clockwise; with Cy dealing, Bo is Eldest and Ann Middle
FILES: dict[str, dict[str, Any]] = {}
Plays = list[tuple[int, str]]
TrickCheck = Callable[[int, Plays, int], bool]
TRUMPS = [f"T{n}" for n in range(1, 22)]
DEFAULT_NEXT: dict[str, Any] = {"finished": False, "winners": [], "next": None}


# ---- actions -------------------------------------------------------------------------------


def pas(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "pass"}


def cont(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "continue"}


def demand(seat: int, amount: int) -> dict[str, Any]:
    return {"seat": seat, "type": "demand", "amount": amount}


def offer(seat: int, amount: int) -> dict[str, Any]:
    return {"seat": seat, "type": "offer", "amount": amount}


def discard(seat: int, cards: Sequence[str]) -> dict[str, Any]:
    return {"seat": seat, "type": "discard", "cards": list(cards)}


def declare(seat: int, *names: str) -> dict[str, Any]:
    return {"seat": seat, "type": "declare", "bonuses": list(names)}


def play(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "type": "play", "card": card}


def quiet(dealer: int) -> list[dict[str, Any]]:
    """No bargain: Eldest calls Continue in each of the three sessions."""
    return [cont(model.roles(dealer)[0])] * 3


def scenario(
    name: str,
    description: str,
    deals: list[dict[str, Any]],
    expect: dict[str, Any],
    options: dict[str, Any] | None = None,
    players: int = 3,
) -> None:
    out: dict[str, Any] = {"description": description, "game": "queen_of_tarot"}
    out["players"] = players
    if options is not None:
        out["options"] = options
    FILES[name] = {**out, "deals": deals, "expect": expect}


def partial(hand: model.Hand) -> dict[str, Any]:
    """``expect`` of a deal that stops before its end: who acts next and the legal list."""
    assert hand.to_act is not None
    return {
        "deals": [{"outcome": None, "deltas": None}],
        "next": {"seat": hand.to_act, "legal": hand.legal()},
    }


def played(deltas: Sequence[int]) -> dict[str, Any]:
    return {"deltas": [list(deltas)], "totals": list(deltas), **DEFAULT_NEXT}


# ---- decks and play lines ------------------------------------------------------------------


def arrange(
    rng: random.Random,
    dealer: int,
    fixed: dict[int, list[str]],
    allowed: dict[int, Callable[[str], bool]] | None = None,
    ok: Callable[[list[list[str]]], bool] = lambda _: True,
    tries: int = 5000,
) -> list[list[str]]:
    """Random full hands (25, 25 and the dealer's 28) holding ``fixed`` and only cards
    ``allowed`` per seat, for which ``ok`` holds."""
    allowed = allowed or {}
    pinned = {c for cs in fixed.values() for c in cs}
    for _ in range(tries):
        hands = [list(fixed.get(s, [])) for s in range(3)]
        free = [c for c in model.PACK if c not in pinned]
        rng.shuffle(free)
        # The most constrained cards first, so the greedy fill rarely corners itself.
        free.sort(key=lambda c: sum(1 for s in range(3) if allowed.get(s, lambda _: True)(c)))
        failed = False
        for card in free:
            seats = [
                s
                for s in range(3)
                if len(hands[s]) < (28 if s == dealer else 25)
                and allowed.get(s, lambda _: True)(card)
            ]
            if not seats:
                failed = True
                break
            hands[rng.choice(seats)].append(card)
        if not failed and ok(hands):
            for h in hands:
                rng.shuffle(h)
            return hands
    raise SystemExit("no arrangement of the hands found")


def deck_of(dealer: int, hands: list[list[str]]) -> list[str]:
    return model.deck_for(dealer, dict(enumerate(hands)))


def search_play(
    hand: model.Hand,
    rng: random.Random,
    trick_ok: TrickCheck = lambda *_: True,
    final_ok: Callable[[model.Hand], bool] = lambda _: True,
    budget: int = 30000,
) -> list[dict[str, Any]] | None:
    """Depth-first search (random order) for the 25 tricks from a hand ready to play:
    ``trick_ok(number, trick, winner)`` after each trick (1-based) and ``final_ok`` on the
    model's finished hand."""
    assert hand.stage == "play" and hand.to_act is not None
    left = [list(h) for h in hand.hands]
    plays: Plays = []
    nodes = 0

    def dfs(leader: int, trick: Plays) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return False
        if len(trick) == 3:
            number = len(plays) // 3
            w = model.winner(trick)
            if not trick_ok(number, trick, w):
                return False
            if number == 25:
                done = copy.deepcopy(hand)
                for s, c in plays:
                    done.act(play(s, c))
                return final_ok(done)
            return dfs(w, [])
        seat = leader
        for _ in range(len(trick)):
            seat = model.right(seat)
        options = model.legal(left[seat], trick)
        rng.shuffle(options)
        for card in options:
            left[seat].remove(card)
            plays.append((seat, card))
            if dfs(leader, [*trick, (seat, card)]):
                return True
            plays.pop()
            left[seat].append(card)
        return False

    return [play(s, c) for s, c in plays] if dfs(hand.to_act, []) else None


def full_hand(
    dealer: int,
    hands: list[list[str]],
    before_play: list[dict[str, Any]],
    rng: random.Random,
    trick_ok: TrickCheck = lambda *_: True,
    final_ok: Callable[[model.Hand], bool] = lambda _: True,
    budget: int = 30000,
) -> tuple[dict[str, Any], model.Hand] | None:
    """The deal (deck and every action) and the model's finished hand, or ``None``."""
    deck = deck_of(dealer, hands)
    hand = model.replay(deck, dealer, before_play)
    plays = search_play(hand, rng, trick_ok, final_ok, budget)
    if plays is None:
        return None
    actions = [*before_play, *plays]
    done = model.replay(deck, dealer, actions)
    return {"dealer": dealer, "deck": deck, "actions": actions}, done


def find(
    seed: int,
    make: Callable[[random.Random], tuple[int, list[list[str]], list[dict[str, Any]]]],
    trick_ok_factory: Callable[[], TrickCheck] = lambda: lambda *_: True,
    final_ok: Callable[[model.Hand], bool] = lambda _: True,
    tries: int = 400,
    budget: int = 30000,
) -> tuple[dict[str, Any], model.Hand]:
    """Deal and play hands from ``make`` until one meets the conditions."""
    for n in range(seed, seed + tries):
        rng = random.Random(n)
        dealer, hands, before = make(rng)
        found = full_hand(dealer, hands, before, rng, trick_ok_factory(), final_ok, budget)
        if found is not None:
            return found
    raise SystemExit(f"no hand found from seed {seed}")


def points_ok(targets: Sequence[int], start: Sequence[int]) -> TrickCheck:
    """Prune a line once a seat's card points pass its target (the Fool's exchange counted
    as made at once: its owner keeps 4 and hands over 1). With targets adding up to 129 the
    finished line then meets them exactly."""
    history: list[list[int]] = []

    def ok(number: int, trick: Plays, w: int) -> bool:
        del history[number - 1 :]
        gain = [0, 0, 0]
        for seat, card in trick:
            if card == "EX":
                gain[seat] += 3
                gain[w] += 1
            else:
                gain[w] += model.value(card)
        history.append(gain)
        return all(start[p] + sum(g[p] for g in history) <= targets[p] for p in range(3))

    return ok


def trumps_of(cards: Sequence[str]) -> int:
    return sum(1 for c in cards if c[0] == "T")


def plain_low(card: str) -> bool:
    """A 1-point suit card (an empty pip)."""
    return card[0] in "SHDC" and model.value(card) == 1


SHUFFLED = list(model.PACK)
random.Random(2024).shuffle(SHUFFLED)


# ---- §5.3 worked examples: bargaining ----------------------------------------------------------


def examples_bargaining() -> None:
    deck = SHUFFLED
    acts = [offer(BO, 2), pas(ANN), demand(CY, 3), offer(BO, 3)]
    h = model.replay(deck, CY, acts)
    assert h.deltas() == [0, -3, 3]
    nxt = model.Hand(deck, BO)  # the deal passes right: Bo deals, Ann (his right) speaks first
    scenario(
        "example_bargaining_1_simple_settlement",
        "§5.3 Bargaining 1: Bo offers 2, Ann passes, Cy demands 3, Bo offers 3 → demands = "
        "offers = 3: settled, Bo −3, Cy +3, Ann 0; the hand is thrown in and Bo deals next "
        "(Ann, Bo's right, speaks first)",
        [{"dealer": CY, "deck": deck, "actions": acts}, {"dealer": BO, "deck": deck}],
        {
            "deals": [
                {"outcome": "thrown_in", "deltas": [0, -3, 3]},
                {"outcome": None, "deltas": None},
            ],
            "totals": [0, -3, 3],
            "finished": False,
            "next": {"seat": ANN, "legal": nxt.legal()},
        },
    )
    acts = [demand(BO, 5), offer(ANN, 2), pas(CY), demand(BO, 4), offer(ANN, 3), offer(CY, 1)]
    assert model.replay(deck, CY, acts).deltas() == [-3, 4, -1]
    scenario(
        "example_bargaining_2_several_parties",
        "§5.3 Bargaining 2: Bo demands 5, Ann offers 2, Cy passes, Bo demands 4, Ann offers 3, "
        "Cy offers 1 → 4 = 4: Bo +4, Ann −3, Cy −1",
        [{"dealer": CY, "deck": deck, "actions": acts}],
        {"deals": [{"outcome": "thrown_in", "deltas": [-3, 4, -1]}], "totals": [-3, 4, -1]},
    )
    for tag, acts, text in (
        (
            "3a_continue",
            [pas(BO), offer(ANN, 1), cont(CY)],
            "Bo passes, Ann offers 1, Cy calls Continue → the session ends, Ann's offer "
            "lapses and session 2 starts with Bo and every position empty",
        ),
        (
            "3b_three_passes",
            [pas(BO), pas(ANN), pas(CY)],
            "Bo, Ann and Cy pass → three passes end the session (D-7); dealing continues",
        ),
        (
            "3c_passes_after_offer",
            [offer(BO, 2), pas(ANN), pas(CY), pas(BO)],
            "Bo offers 2, Ann, Cy and Bo pass → three consecutive passes end the session "
            "(D-7) without a settlement",
        ),
    ):
        h = model.replay(deck, CY, acts)
        assert h.session == 2 and h.to_act == BO and h.outcome is None
        scenario(
            f"example_bargaining_{tag}",
            f"§5.3 Bargaining 3: {text}",
            [{"dealer": CY, "deck": deck, "actions": acts}],
            partial(h),
        )
    illegal = [
        ("offer_then_demand", [offer(BO, 3), pas(ANN), pas(CY), demand(BO, 1)], "a Demand 1"),
        ("offer_not_higher", [offer(BO, 3), pas(ANN), pas(CY), offer(BO, 3)], "an Offer 3"),
        ("demand_not_lower", [demand(BO, 4), pas(ANN), pas(CY), demand(BO, 4)], "a Demand 4"),
        ("demand_higher", [demand(BO, 4), pas(ANN), pas(CY), demand(BO, 6)], "a Demand 6"),
    ]
    for tag, acts, text in illegal:
        first = acts[0]
        scenario(
            f"example_bargaining_3_illegal_{tag}",
            f"§5.3 Bargaining 3: after {first['type'].title()} {first['amount']}, {text} by "
            "the same player in the same session is illegal",
            [{"dealer": CY, "deck": deck, "actions": acts}],
            {"error": {"deal": 0, "action": 3, "code": "illegal_action"}},
        )


# ---- §5.3 worked examples: hands -------------------------------------------------------------


def example_hand_1() -> None:
    """Cy deals and discards 2♠ 3♠ 9♥; Bo: 11 trumps with XX and I, the Fool, no Kings →
    Abundance 11 + Mitigati 15; Ann: K♠ K♣ K♥ only; card points 50 / 41 / 38."""

    def make(rng: random.Random) -> tuple[int, list[list[str]], list[dict[str, Any]]]:
        extra = rng.sample([t for t in TRUMPS if t not in ("T20", "T1")], 9)
        fixed = {
            BO: ["T20", "T1", "EX", *extra],
            ANN: ["SK", "CK", "HK"],
            CY: ["DK", "S2", "S3", "H9"],
        }
        allowed = {
            BO: lambda c: c[0] != "T" and c not in model.KINGS,
            ANN: lambda c: c not in model.KINGS,
        }

        def ok(hands: list[list[str]]) -> bool:
            return trumps_of(hands[ANN]) < 10 and trumps_of(hands[CY]) < 10

        hands = arrange(rng, CY, fixed, allowed, ok)
        before = [
            cont(BO),  # session 1: Bo calls Continue
            pas(BO),  # session 2: three passes
            pas(ANN),
            pas(CY),
            pas(BO),  # session 3: Cy calls Continue
            pas(ANN),
            cont(CY),
            discard(CY, ["S2", "S3", "H9"]),
            declare(BO, "abundance", "mitigati"),
            declare(ANN),
            declare(CY),
        ]
        return CY, hands, before

    def final(h: model.Hand) -> bool:
        return h.card_points() == [41, 50, 38]

    deal, h = find(1, make, lambda: points_ok([41, 50, 38], [0, 0, 3]), final, budget=20000)
    assert h.declared[BO][1] == 26 and h.declaration_deltas() == [-26, 52, -26]
    assert model.best_declaration(_hand_at_declare(deal, ANN))[1] == 0
    deltas = [-28, 59, -31]  # the example's table
    assert h.deltas() == deltas
    scenario(
        "example_hand_1_declarations_and_cards",
        "§5.3 Hand 1: no settlement; Cy discards 2♠ 3♠ 9♥; Bo (11 trumps with XX and I, "
        "the Fool, no King) declares Abundance 11 + Mitigati 15 = 26 (XX and I reused): +52, "
        "Ann −26, Cy −26; Ann's three Kings make nothing; card points Bo 50, Ann 41, Cy 38 → "
        "Bo +59, Ann −28, Cy −31",
        [deal],
        played(deltas),
    )
    acts = deal["actions"]
    for tag, card, text in (("xx", "T20", "XX (an honour)"), ("king", "DK", "a King")):
        bad = [*acts[:7], discard(CY, ["S2", "S3", card])]
        scenario(
            f"example_hand_1_discard_{tag}_rejected",
            f"§5.3 Hand 1 / D-9: Cy's discard containing {text} is rejected",
            [{**deal, "actions": bad}],
            {"error": {"deal": 0, "action": 7, "code": "illegal_action"}},
        )


def _hand_at_declare(deal: dict[str, Any], seat: int) -> list[str]:
    h = model.replay(deal["deck"], deal["dealer"], deal["actions"][:8])
    return list(h.hands[seat])


def kings_and_honours_hand(rng: random.Random) -> tuple[int, list[list[str]], list[dict[str, Any]]]:
    """Cy deals; Ann holds all four Kings, XX, I and the Fool and 8 trumps in all."""
    extra = rng.sample([t for t in TRUMPS if t not in ("T20", "T1")], 6)
    fixed = {ANN: [*model.KINGS, *model.HONOURS, *extra]}
    allowed = {ANN: lambda c: c[0] != "T"}

    def ok(hands: list[list[str]]) -> bool:
        return trumps_of(hands[BO]) < 10 and trumps_of(hands[CY]) < 10

    hands = arrange(rng, CY, fixed, allowed, ok)
    low = [c for c in hands[CY] if plain_low(c)][:3]
    return CY, hands, [*quiet(CY), discard(CY, low), declare(BO)]


def example_hand_2() -> None:
    rng = random.Random(2)
    dealer, hands, before = kings_and_honours_hand(rng)
    deck = deck_of(dealer, hands)
    h = model.replay(deck, dealer, before)
    assert h.to_act == ANN
    names = [n for n, _ in model.declarable(h.hands[ANN])]
    assert names == [
        [],
        ["kings"],
        ["mitigati"],
        ["mixed_honours"],
        ["kings", "mitigati"],
        ["mitigati", "mixed_honours"],
    ]
    assert model.best_declaration(h.hands[ANN]) == (["kings"], 35)
    scenario(
        "c2_four_kings_three_honours_legal_sets",
        "C-2: with all four Kings and all three honours Ann may declare [], [kings], "
        "[mitigati], [kings, mitigati], [mixed_honours] or [mitigati, mixed_honours] "
        "(dominated sets included); kings + mixed_honours can never be made",
        [{"dealer": dealer, "deck": deck, "actions": before}],
        partial(h),
    )
    for tag, names, text in (
        ("kings_mitigati", ["kings", "mitigati"], "Kings 20 + Mitigati 15"),
        ("kings_alone", ["kings"], "Kings with the 3 honours attached (20 + 15)"),
    ):
        found = None
        for seed in range(200):
            found = full_hand(
                dealer, hands, [*before, declare(ANN, *names), declare(CY)], random.Random(seed)
            )
            if found is not None:
                break
        assert found is not None
        deal, done = found
        assert done.declared[ANN][1] == 35 and done.declaration_deltas() == [70, -35, -35]
        scenario(
            f"example_hand_2_{tag}",
            "§5.3 Hand 2: Ann holds all 4 Kings, XX, I and the Fool and 8 trumps (no "
            f"Abundance); declaring {text} is worth the best value 35 → Ann +70, Bo −35, "
            "Cy −35 before the card points",
            [deal],
            played(done.deltas() or []),
        )
    deal, done = find(
        3,
        lambda r: (
            dealer,
            hands,
            [*before, declare(ANN, "mitigati", "mixed_honours"), declare(CY)],
        ),
    )
    assert done.declared[ANN][1] == 25
    scenario(
        "c2_dominated_set_mitigati_mixed",
        "C-2, D-16: the dominated set [mitigati, mixed_honours] is legal and is valued by its "
        "best allocation: Mitigati 15 on the honours + Mixed Honours 10 on the four Kings = 25",
        [deal],
        played(done.deltas() or []),
    )
    for tag, names, code, text in (
        ("kings_mixed_illegal", ["kings", "mixed_honours"], "illegal_action", "can never be made"),
        ("name_twice_bad_action", ["kings", "kings"], "bad_action", "names a bonus twice"),
        ("unknown_name_bad_action", ["kings", "tarocchi"], "bad_action", "names an unknown bonus"),
    ):
        scenario(
            f"c2_{tag}",
            f"C-2: Ann's declaration {names} {text}",
            [{"dealer": dealer, "deck": deck, "actions": [*before, declare(ANN, *names)]}],
            {"error": {"deal": 0, "action": len(before), "code": code}},
        )
    # SCENARIOS.md checks bad_action before not_your_turn: Cy (the dealer, declaring last)
    # naming an unknown bonus out of turn is malformed first.
    scenario(
        "c2_unknown_name_out_of_turn_bad_action",
        "C-2: Cy names an unknown bonus while it is Ann's turn: malformed before out of turn",
        [{"dealer": dealer, "deck": deck, "actions": [*before, declare(CY, "tarocchi")]}],
        {"error": {"deal": 0, "action": len(before), "code": "bad_action"}},
    )


def example_hand_3() -> None:
    """Cy holds K♠ K♣ K♥, XX and the Fool (k = 3, h = 2) → Mixed Honours of 5 = 15."""

    def make(rng: random.Random) -> tuple[int, list[list[str]], list[dict[str, Any]]]:
        fixed = {CY: ["SK", "CK", "HK", "T20", "EX"], BO: ["DK", "T1"]}

        def ok(hands: list[list[str]]) -> bool:
            return all(trumps_of(h) < 10 for h in hands)

        hands = arrange(rng, CY, fixed, None, ok)
        low = [c for c in hands[CY] if plain_low(c)][:3]
        before = [*quiet(CY), discard(CY, low), declare(BO), declare(ANN)]
        return CY, hands, [*before, declare(CY, "mixed_honours")]

    deal, h = find(30, make)
    assert h.declared[CY][1] == 15 and h.declaration_deltas() == [-15, -15, 30]
    scenario(
        "example_hand_3_mixed_honours",
        "§5.3 Hand 3: Cy holds K♠ K♣ K♥, XX and the Fool (3 Kings, 2 honours) → Mixed "
        "Honours of 5 cards = 15: Cy +30, Ann −15, Bo −15 before the card points",
        [deal],
        played(h.deltas() or []),
    )


def example_fool_exchange() -> None:
    """Ann's Fool in trick 4, won by Bo with XIX; Ann's pile holds trick 2 and she gives 7♥.

    The spec's trick 2 (7♥, V♠, 3♦ won by Ann) cannot happen: whoever wins a trick without
    trumps played its led-suit card, so both others were void in that suit and in trumps, yet
    Bo holds XIX. Trick 2 here is Bo 7♥, Ann V♥, Cy 3♦ (Cy holds neither Cups nor trumps):
    Ann wins with the Valet and 7♥ is still the first empty card she won.
    """

    def make(rng: random.Random) -> tuple[int, list[list[str]], list[dict[str, Any]]]:
        fixed = {BO: ["T20", "T19", "H7"], ANN: ["HJ", "EX"], CY: ["D3"]}
        allowed = {CY: lambda c: c[0] in "SDC" and c not in ("SK", "DK", "CK")}

        def ok(hands: list[list[str]]) -> bool:
            return sum(1 for c in hands[CY] if plain_low(c) and c != "D3") >= 3

        hands = arrange(rng, CY, fixed, allowed, ok)
        low = [c for c in hands[CY] if plain_low(c) and c != "D3"][:3]
        return CY, hands, [*quiet(CY), discard(CY, low), declare(BO), declare(ANN), declare(CY)]

    two = [(BO, "H7"), (ANN, "HJ"), (CY, "D3")]

    def trick_ok(number: int, trick: Plays, w: int) -> bool:
        fool = any(c == "EX" for _, c in trick)
        if number == 1:
            return w == BO and not fool
        if number == 2:
            return trick == two
        if number == 3:
            return w in (BO, CY) and not fool
        if number == 4:
            return (ANN, "EX") in trick and (BO, "T19") in trick and w == BO
        return True

    def final(h: model.Hand) -> bool:
        return h.handed[0] == (ANN, BO, "H7", "exchange")

    deal, h = find(40, make, lambda: trick_ok, final)
    scenario(
        "example_fool_exchange",
        "§5.3 Fool exchange: Ann plays the Fool in trick 4, which Bo wins with XIX; Ann's pile "
        "holds trick 2 (Bo 7♥, Ann V♥, Cy 3♦ — the spec's V♠ cannot be played there, see "
        "the generator), so the Fool returns to Ann and she gives Bo 7♥, the first empty "
        "card she won",
        [deal],
        played(h.deltas() or []),
    )


def examples_ranking() -> None:
    """§5.3 Irrational ranking, each as trick 1 of a hand: the winner leads trick 2."""
    cases = [
        ("cups_1_beats_10", [(BO, "H10"), (ANN, "H1"), (CY, "H8")], ANN, "Cups led: 1♥ beats 10♥"),
        ("cups_valet_beats_1", [(BO, "H1"), (ANN, "H2"), (CY, "HJ")], CY, "Cups led: V♥ beats 1♥"),
        (
            "swords_10_beats_1",
            [(BO, "S1"), (ANN, "S10"), (CY, "S9")],
            ANN,
            "Swords led: 10♠ beats 1♠",
        ),
        ("xx_beats_xxi", [(BO, "T21"), (ANN, "T20"), (CY, "T2")], ANN, "Trumps: XX beats XXI"),
    ]
    for i, (tag, trick, w, text) in enumerate(cases):
        rng = random.Random(100 + i)
        suit_of = trick[0][1][0]
        fixed = {s: [c] for s, c in trick}
        hands = arrange(
            rng,
            CY,
            fixed,
            None,
            lambda hs, so=suit_of: (
                all(trumps_of(h) < 10 for h in hs)
                and sum(1 for c in hs[CY] if plain_low(c) and c[0] != so) >= 3
            ),
        )
        low = [c for c in hands[CY] if plain_low(c) and c[0] != suit_of][:3]
        before = [*quiet(CY), discard(CY, low), declare(BO), declare(ANN), declare(CY)]
        acts = [*before, *(play(s, c) for s, c in trick)]
        deck = deck_of(CY, hands)
        h = model.replay(deck, CY, acts)
        assert h.to_act == w and model.winner(trick) == w
        scenario(
            f"example_ranking_{tag}",
            f"§5.3 Irrational ranking (D-3): {text} — the winner leads trick 2",
            [{"dealer": CY, "deck": deck, "actions": acts}],
            partial(h),
        )


# ---- clarifications ----------------------------------------------------------------------


def clarifications_fool() -> None:
    # C-1 (a): Ann's debt survives a won trick of courts only and is paid by the next won
    # trick holding an empty card.
    def make_a(rng: random.Random) -> tuple[int, list[list[str]], list[dict[str, Any]]]:
        fixed = {ANN: ["SK", "EX"], BO: ["SQ"], CY: ["SC"]}
        allowed = {BO: lambda c: c[0] != "S", CY: lambda c: c[0] != "S"}

        def ok(hands: list[list[str]]) -> bool:
            return all(trumps_of(h) < 10 for h in hands)

        hands = arrange(rng, CY, fixed, allowed, ok)
        low = [c for c in hands[CY] if plain_low(c)][:3]
        return CY, hands, [*quiet(CY), discard(CY, low), declare(BO), declare(ANN), declare(CY)]

    def trick_ok_a(number: int, trick: Plays, w: int) -> bool:
        if number == 1:
            return (ANN, "EX") in trick and w == BO
        if number == 2:
            return trick == [(BO, "SQ"), (ANN, "SK"), (CY, "SC")]
        return True

    def final_a(h: model.Hand) -> bool:
        return [x[3] for x in h.handed] == ["debt_paid"] and h.handed[0][:2] == (ANN, BO)

    deal, h = find(50, make_a, lambda: trick_ok_a, final_a)
    paid = h.handed[0][2]
    scenario(
        "c1_debt_open_until_empty_card",
        "C-1: Ann plays the Fool in trick 1 before winning anything, so she owes Bo an empty "
        "card; her trick 2 (Q♠ K♠ C♠, courts only) leaves the debt open; the next trick she "
        f"wins holds an empty card, {paid}, handed to Bo at once",
        [deal],
        played(h.deltas() or []),
    )

    # C-1 (b), D-13: a dealer whose discard holds no empty card owes a debt; never winning
    # an empty card, he pays the lowest-valued card of his pile at the end — a court card.
    def make_b(rng: random.Random) -> tuple[int, list[list[str]], list[dict[str, Any]]]:
        fixed = {CY: ["EX", "DQ", "CC", "HJ"]}
        allowed = {CY: lambda c: (c[0] != "T" and model.value(c) <= 2) or c in ("DQ", "CC", "HJ")}
        hands = arrange(rng, CY, fixed, allowed)
        before = [*quiet(CY), discard(CY, ["DQ", "CC", "HJ"]), declare(BO), declare(ANN)]
        return CY, hands, [*before, declare(CY)]

    def trick_ok_b(number: int, trick: Plays, w: int) -> bool:
        if number == 1:
            return (CY, "EX") in trick
        return w != CY

    def final_b(h: model.Hand) -> bool:
        return len(h.handed) == 1 and h.handed[0][2:] == ("HJ", "debt_end")

    deal, h = find(60, make_b, lambda: trick_ok_b, final_b, budget=60000)
    to = h.handed[0][1]
    scenario(
        "c1_dealer_debt_paid_with_court_card",
        "C-1, D-13: Cy discards Q♦ C♣ V♥ (no empty card) and plays the Fool in trick 1, so "
        "he owes the winner an empty card; he never wins a trick, so at the end he pays the "
        f"lowest-valued card of his pile, V♥ (2 points), to seat {to}",
        [deal],
        played(h.deltas() or []),
    )

    # C-1 (c): the discard counts as won before any trick.
    def make_c(rng: random.Random) -> tuple[int, list[list[str]], list[dict[str, Any]]]:
        fixed = {CY: ["EX", "DQ", "CC", "S4"]}
        allowed = {CY: lambda c: (c[0] != "T" and model.value(c) <= 2) or c in ("DQ", "CC")}
        hands = arrange(rng, CY, fixed, allowed)
        before = [*quiet(CY), discard(CY, ["DQ", "CC", "S4"]), declare(BO), declare(ANN)]
        return CY, hands, [*before, declare(CY)]

    def final_c(h: model.Hand) -> bool:
        return len(h.handed) == 1 and h.handed[0][2:] == ("S4", "exchange")

    deal, h = find(70, make_c, lambda: trick_ok_b, final_c, budget=60000)
    scenario(
        "c1_discard_counts_as_won",
        "C-1: Cy's discard (Q♦ C♣ 4♠) counts as won before any trick, so when he plays the "
        "Fool in trick 1 he hands over 4♠ at once (no debt; the Fool stays his)",
        [deal],
        played(h.deltas() or []),
    )

    # D-13: nothing but the Fool in the pile at the end → the Fool itself goes.
    def make_d(rng: random.Random) -> tuple[int, list[list[str]], list[dict[str, Any]]]:
        fixed = {ANN: ["EX"]}
        allowed = {ANN: lambda c: c[0] != "T" and model.value(c) == 1}
        hands = arrange(rng, CY, fixed, allowed)
        low = [c for c in hands[CY] if plain_low(c)][:3]
        return CY, hands, [*quiet(CY), discard(CY, low), declare(BO), declare(ANN), declare(CY)]

    def trick_ok_d(number: int, trick: Plays, w: int) -> bool:
        if number == 1 and (ANN, "EX") not in trick:
            return False
        return w != ANN

    deal, h = find(80, make_d, lambda: trick_ok_d, budget=60000)
    assert h.handed[-1][2:] == ("EX", "surrender") and h.card_points()[ANN] == 0
    scenario(
        "d13_fool_surrendered",
        "D-13: Ann plays the Fool in trick 1 and wins no trick at all; at the end her pile "
        "holds nothing but the Fool, so the Fool itself goes to the creditor (Ann −43)",
        [deal],
        played(h.deltas() or []),
    )

    # D-14: the Fool played to the 25th trick still returns to its player.
    def make_e(rng: random.Random) -> tuple[int, list[list[str]], list[dict[str, Any]]]:
        hands = arrange(rng, CY, {BO: ["EX"]}, None, lambda hs: all(trumps_of(h) < 10 for h in hs))
        low = [c for c in hands[CY] if plain_low(c)][:3]
        return CY, hands, [*quiet(CY), discard(CY, low), declare(BO), declare(ANN), declare(CY)]

    def trick_ok_e(number: int, trick: Plays, w: int) -> bool:
        return (number == 25) == any(c == "EX" for _, c in trick)

    def final_e(h: model.Hand) -> bool:
        return [x[3] for x in h.handed] == ["exchange"] and "EX" in h.piles[BO]

    deal, h = find(90, make_e, lambda: trick_ok_e, final_e)
    scenario(
        "d14_fool_on_last_trick_returns",
        "D-14: Bo plays the Fool to the last trick; it still returns to him and he gives the "
        "winner an empty card",
        [deal],
        played(h.deltas() or []),
    )


def clarifications_declarations() -> None:
    # C-3, D-11: the Fool is not a trump for Abundance; Abundance is worth T.
    rng = random.Random(7)
    nine = rng.sample(TRUMPS, 9)
    fixed = {BO: [*nine, "EX"], ANN: [t for t in TRUMPS if t not in nine][:12]}
    allowed = {BO: lambda c: c[0] != "T", ANN: lambda c: c[0] != "T" and c != "EX"}
    hands = arrange(rng, CY, fixed, allowed)
    low = [c for c in hands[CY] if plain_low(c)][:3]
    before = [*quiet(CY), discard(CY, low)]
    deck = deck_of(CY, hands)
    h = model.replay(deck, CY, before)
    assert all("abundance" not in n for n, _ in model.declarable(h.hands[BO]))
    scenario(
        "c3_fool_not_counted_for_abundance",
        "C-3, D-11: Bo holds 9 trumps and the Fool — no Abundance among his legal declarations",
        [{"dealer": CY, "deck": deck, "actions": before}],
        partial(h),
    )
    found = None
    for seed in range(200):
        found = full_hand(
            CY,
            hands,
            [*before, declare(BO), declare(ANN, "abundance"), declare(CY)],
            random.Random(seed),
        )
        if found is not None:
            break
    assert found is not None
    deal, done = found
    assert done.declared[ANN][1] == 12
    scenario(
        "c3_abundance_worth_t",
        "C-3: Ann holds 12 trumps and declares Abundance, worth T = 12 (10 + 2): Ann +24, "
        "Bo −12, Cy −12 before the card points",
        [deal],
        played(done.deltas() or []),
    )
    # D-16: four Kings and no honour: Kings, or the dominated Mixed Honours of 4.
    rng = random.Random(8)
    hands = arrange(
        rng,
        CY,
        {BO: list(model.KINGS), ANN: list(model.HONOURS)},
        None,
        lambda hs: trumps_of(hs[BO]) < 10,
    )
    low = [c for c in hands[CY] if plain_low(c)][:3]
    before = [*quiet(CY), discard(CY, low)]
    deck = deck_of(CY, hands)
    h = model.replay(deck, CY, before)
    assert [n for n, _ in model.declarable(h.hands[BO])] == [[], ["kings"], ["mixed_honours"]]
    scenario(
        "d16_four_kings_alone",
        "D-16, C-2: four Kings and no honour may be declared as Kings (20) or as the "
        "dominated Mixed Honours of 4 (10)",
        [{"dealer": CY, "deck": deck, "actions": before}],
        partial(h),
    )


def clarifications_bargaining() -> None:
    deck = SHUFFLED
    # C-4: only demands (or only offers) never settle.
    acts = [demand(BO, 2), demand(ANN, 3), pas(CY), pas(BO), pas(ANN)]
    h = model.replay(deck, CY, acts)
    assert h.session == 2 and h.outcome is None
    scenario(
        "c4_demands_alone_never_settle",
        "C-4: Bo demands 2 and Ann 3 with no offer; three passes then end the session — a "
        "settlement needs both a demand and an offer",
        [{"dealer": CY, "deck": deck, "actions": acts}],
        partial(h),
    )
    # C-5: a new session starts with empty positions, no passes counted and Eldest to speak.
    acts = [offer(BO, 5), pas(ANN), offer(CY, 1), pas(BO), cont(ANN), pas(BO), pas(ANN)]
    acts.append(demand(CY, 5))
    h = model.replay(deck, CY, acts)
    assert h.session == 2 and h.to_act == BO and h.outcome is None
    scenario(
        "c5_fresh_session",
        "C-5: in session 1 Bo offers 5, Cy offers 1, Bo passes and Ann calls Continue; "
        "session 2 starts with Bo (Eldest) to speak and the pass count at 0 (Bo and Ann pass "
        "and the session goes on); Cy's demand of 5 does not settle against Bo's lapsed offer, "
        "and Bo may now demand",
        [{"dealer": CY, "deck": deck, "actions": acts}],
        partial(h),
    )
    # D-5: a pass keeps the standing demand.
    acts = [demand(BO, 5), offer(ANN, 2), pas(CY), pas(BO), offer(ANN, 3), offer(CY, 2)]
    assert model.replay(deck, CY, acts).deltas() == [-3, 5, -2]
    scenario(
        "d5_pass_keeps_demand",
        "D-5: Bo demands 5 and later passes — his demand still stands, so Ann's 3 and Cy's 2 "
        "settle against it: Bo +5, Ann −3, Cy −2",
        [{"dealer": CY, "deck": deck, "actions": acts}],
        {"deals": [{"outcome": "thrown_in", "deltas": [-3, 5, -2]}], "totals": [-3, 5, -2]},
    )
    # D-8, C-6: amounts 1..43 by default, 1..max_bargain with the option.
    h = model.Hand(deck, CY)
    scenario(
        "d8_amounts_1_to_43",
        "D-8, C-6: Eldest may pass, continue, demand or offer any whole amount from 1 to 43",
        [{"dealer": CY, "deck": deck, "actions": []}],
        partial(h),
    )
    h = model.replay(deck, CY, [demand(BO, 3)], top=5)
    scenario(
        "c6_max_bargain_option",
        "C-6: with max_bargain 5 Ann may demand or offer 1..5",
        [{"dealer": CY, "deck": deck, "actions": [demand(BO, 3)]}],
        partial(h),
        options={"max_bargain": 5},
    )
    for tag, acts, opts, text in (
        ("zero", [demand(BO, 0)], None, "a demand of 0"),
        ("above_43", [offer(BO, 44)], None, "an offer of 44"),
        ("above_option", [demand(BO, 3), offer(ANN, 6)], {"max_bargain": 5}, "an offer of 6"),
    ):
        scenario(
            f"c6_amount_{tag}_illegal",
            f"C-6: {text} is outside 1..max_bargain",
            [{"dealer": CY, "deck": deck, "actions": acts}],
            {"error": {"deal": 0, "action": len(acts) - 1, "code": "illegal_action"}},
            options=opts,
        )


def clarifications_discard() -> None:
    rng = random.Random(11)
    hands = arrange(rng, CY, {CY: ["T5", "T21", "S2", "DK", "T1"]}, None)
    before = quiet(CY)
    deck = deck_of(CY, hands)
    h = model.replay(deck, CY, before)
    scenario(
        "d4_canonical_deal",
        "D-4: packets of 5 from Eldest (Bo), Middle (Ann), then the Dealer, who takes 8 in "
        "round 5 — after three Continues Cy holds deck[10..14], [25..29], [40..44], "
        "[55..59] and [70..77]; the discard list shows them, less Kings and honours",
        [{"dealer": CY, "deck": deck, "actions": before}],
        partial(h),
    )
    for tag, cards, text in (
        ("two_cards", ["S2", "T5"], "two cards"),
        (
            "four_cards",
            ["S2", "T5", "T21", *[c for c in hands[CY] if plain_low(c) and c != "S2"][:1]],
            "four cards",
        ),
        ("same_card_twice", ["S2", "S2", "T5"], "the same card twice"),
        (
            "card_not_held",
            ["S2", "T5", next(c for c in hands[BO] if plain_low(c))],
            "a card Cy does not hold",
        ),
        ("bagatto", ["S2", "T5", "T1"], "I (the Bagatto, an honour)"),
    ):
        scenario(
            f"c8_discard_{tag}_illegal",
            f"C-8: the discard must be exactly three distinct cards of the dealer's hand, no "
            f"King, XX, I or Fool — {text} is refused",
            [{"dealer": CY, "deck": deck, "actions": [*before, discard(CY, cards)]}],
            {"error": {"deal": 0, "action": 3, "code": "illegal_action"}},
        )
    found = None
    for seed in range(200):
        found = full_hand(
            CY,
            hands,
            [*before, discard(CY, ["T5", "T21", "S2"]), declare(BO), declare(ANN), declare(CY)],
            random.Random(seed),
        )
        if found is not None:
            break
    assert found is not None
    deal, done = found
    scenario(
        "d9_trumps_may_be_discarded",
        "D-9, C-8: Cy discards V, XXI and 2♠ — trumps are allowed (and not shown); the "
        "discard counts for Cy at the end",
        [deal],
        played(done.deltas() or []),
    )


def rules_play() -> None:
    """§4.2 and D-12 as ``next.legal`` lists in trick 1."""
    # D-12: Bo leads the Fool, Ann's card sets the suit Cy must follow.
    for seed in range(500):
        rng = random.Random(seed)
        hands = arrange(rng, CY, {BO: ["EX"]}, None, lambda hs: all(trumps_of(h) < 10 for h in hs))
        lead_suit = next((c[0] for c in hands[ANN] if c[0] in "SHDC"), None)
        low = [c for c in hands[CY] if plain_low(c) and c[0] != lead_suit][:3]
        if lead_suit is None or len(low) < 3:
            continue
        before = [*quiet(CY), discard(CY, low), declare(BO), declare(ANN), declare(CY)]
        ann = next(c for c in hands[ANN] if c[0] == lead_suit)
        acts = [*before, play(BO, "EX"), play(ANN, ann)]
        deck = deck_of(CY, hands)
        h = model.replay(deck, CY, acts)
        legal_cy = model.legal(h.hands[CY], h.trick)
        if any(c[0] == lead_suit for c in h.hands[CY]) and len(legal_cy) < len(h.hands[CY]):
            scenario(
                "d12_fool_led_next_card_sets_suit",
                f"D-12: Bo leads the Fool; Ann's {ann} sets the suit Cy must follow",
                [{"dealer": CY, "deck": deck, "actions": acts}],
                partial(h),
            )
            break
    else:
        raise SystemExit("d12: no deal")
    # §4.2: void in the led suit, any trump (no overtrump duty); a trump lead needs a trump.
    for seed in range(200):
        rng = random.Random(seed)
        no_swords = {ANN: lambda c: c[0] != "S", CY: lambda c: c[0] != "S"}
        hands = arrange(rng, CY, {}, no_swords)
        lead = "S7"
        ann_trumps = sorted((c for c in hands[ANN] if c[0] == "T"), key=model.place)
        cy_trumps = [c for c in hands[CY] if c[0] == "T"]
        low = [c for c in hands[CY] if plain_low(c) and c[0] != lead[0]][:3]
        if (
            any(c[0] == lead[0] for c in hands[ANN] + hands[CY])
            or not ann_trumps
            or len(low) < 3
            or not any(model.place(t) > model.place(ann_trumps[0]) for t in cy_trumps)
        ):
            continue
        before = [*quiet(CY), discard(CY, low), declare(BO), declare(ANN), declare(CY)]
        acts = [*before, play(BO, lead), play(ANN, ann_trumps[0])]
        deck = deck_of(CY, hands)
        h = model.replay(deck, CY, acts)
        scenario(
            "rule_void_must_trump_any_trump",
            f"§4.2: Bo leads {lead}; Ann and Cy hold none — Ann trumps with her highest "
            "trump and Cy must trump too, but any trump will do (no duty to overtrump); the "
            "Fool is always allowed",
            [{"dealer": CY, "deck": deck, "actions": acts}],
            partial(h),
        )
        break
    else:
        raise SystemExit("rule_void_must_trump: no deal")


# ---- game length and rotation ------------------------------------------------------------


def settle(dealer: int, a: int = 2) -> list[dict[str, Any]]:
    """A quick settlement: Eldest offers ``a``, Middle demands ``a``."""
    e, m, _ = model.roles(dealer)
    return [offer(e, a), demand(m, a)]


def game_length() -> None:
    deck = SHUFFLED
    deals: list[dict[str, Any]] = []
    deltas: list[list[int]] = []
    dealer = CY
    for k in range(6):
        acts = settle(dealer, k + 1)
        h = model.replay(deck, dealer, acts)
        deals.append({"dealer": dealer, "deck": deck, "actions": acts})
        deltas.append(h.deltas() or [])
        dealer = model.right(dealer)
    totals = [sum(col) for col in zip(*deltas, strict=True)]
    scenario(
        "d15_six_deals_thrown_in_count",
        "D-15, C-7: the default game is 6 deals; thrown-in hands count and the deal passes "
        "right each time (Cy, Bo, Ann, Cy, Bo, Ann); the highest total wins",
        deals,
        {
            "deltas": deltas,
            "totals": totals,
            "finished": True,
            "winners": model.match_winners(totals),
            "next": None,
        },
    )
    scenario(
        "error_match_over",
        "A seventh deal after the six-deal game ended is refused (match_over)",
        [*deals, {"dealer": dealer, "deck": deck}],
        {"error": {"deal": 6, "action": None, "code": "match_over"}},
    )
    acts = [offer(BO, 4), demand(ANN, 2), demand(CY, 2)]
    assert model.replay(deck, CY, acts).deltas() == [2, -4, 2]
    scenario(
        "c7_one_deal_tie_co_winners",
        "C-7: option deals 1 — after one (thrown-in) deal Ann and Cy share the top with +2 "
        "and are co-winners",
        [{"dealer": CY, "deck": deck, "actions": acts}],
        {
            "deltas": [[2, -4, 2]],
            "totals": [2, -4, 2],
            "finished": True,
            "winners": [ANN, CY],
            "next": None,
        },
        options={"deals": 1},
    )
    scenario(
        "c7_deals_zero_bad_scenario",
        "C-7: the deals option must be a positive integer",
        [],
        {"error": {"deal": None, "action": None, "code": "bad_scenario"}},
        options={"deals": 0},
    )


def errors() -> None:
    deck = SHUFFLED
    first = {"dealer": CY, "deck": deck, "actions": settle(CY)}
    scenario(
        "error_bad_scenario_four_players",
        "Queen of Tarot is for exactly three players",
        [],
        {"error": {"deal": None, "action": None, "code": "bad_scenario"}},
        players=4,
    )
    scenario(
        "error_bad_scenario_unknown_option",
        "Options are deals and max_bargain only",
        [],
        {"error": {"deal": None, "action": None, "code": "bad_scenario"}},
        options={"target": 50},
    )
    scenario(
        "error_bad_deck",
        "The deck must be the whole 78-card pack",
        [{"dealer": CY, "deck": deck[:-1]}],
        {"error": {"deal": 0, "action": None, "code": "bad_deck"}},
    )
    scenario(
        "error_wrong_dealer",
        "§2: the deal passes right, so after Cy (seat 2) comes Bo (seat 1), not Ann",
        [first, {"dealer": ANN, "deck": deck}],
        {"error": {"deal": 1, "action": None, "code": "wrong_dealer"}},
    )
    scenario(
        "error_deal_unfinished",
        "A deal cannot start while the previous one is still in its bargaining",
        [{"dealer": CY, "deck": deck, "actions": [pas(BO)]}, {"dealer": BO, "deck": deck}],
        {"error": {"deal": 1, "action": None, "code": "deal_unfinished"}},
    )
    scenario(
        "error_deal_over",
        "No call after a settlement threw the hand in",
        [{**first, "actions": [*settle(CY), pas(CY)]}],
        {"error": {"deal": 0, "action": 2, "code": "deal_over"}},
    )
    scenario(
        "error_bad_action_type",
        "Queen of Tarot has no bid action: bargaining is pass, demand, offer or continue",
        [{"dealer": CY, "deck": deck, "actions": [{"seat": BO, "type": "bid", "amount": 2}]}],
        {"error": {"deal": 0, "action": 0, "code": "bad_action"}},
    )
    scenario(
        "error_bad_action_amount_not_integer",
        "Amounts must be JSON integers",
        [{"dealer": CY, "deck": deck, "actions": [{"seat": BO, "type": "offer", "amount": "3"}]}],
        {"error": {"deal": 0, "action": 0, "code": "bad_action"}},
    )
    scenario(
        "error_not_your_turn",
        "Eldest (Bo, the dealer's right) speaks first, not Ann",
        [{"dealer": CY, "deck": deck, "actions": [pas(ANN)]}],
        {"error": {"deal": 0, "action": 0, "code": "not_your_turn"}},
    )
    scenario(
        "error_illegal_action_play_during_bargaining",
        "No card is played before the deal is complete",
        [{"dealer": CY, "deck": deck, "actions": [play(BO, deck[0])]}],
        {"error": {"deal": 0, "action": 0, "code": "illegal_action"}},
    )


def build() -> dict[str, dict[str, Any]]:
    examples_bargaining()
    example_hand_1()
    example_hand_2()
    example_hand_3()
    example_fool_exchange()
    examples_ranking()
    clarifications_fool()
    clarifications_declarations()
    clarifications_bargaining()
    clarifications_discard()
    rules_play()
    game_length()
    errors()
    return FILES


def write(only: str = "") -> None:
    write_checked("queen_of_tarot", build(), only)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else "")
