"""Writes ``tests/scenarios/early_french_tarot_*.json`` (run it as a module).

``python -m tests.engine.early_french_tarot_scenarios``. Each file records a deck and every
card played. The worked examples of ``rules/french_tarot_17c.md`` §5.3 and the decisions they
exercise are found by a seeded search over legal plays. ``expect`` blocks hold the spec's own
figures where it gives them; otherwise they come from ``early_french_tarot_model``, an
independent reading of the spec. The script replays every file through the scenario runner and
refuses to write one the engine disagrees with.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tests.engine import early_french_tarot_model as model
from tests.engine.french_tarot_examples import render
from tests.engine.scenario_builder import write_checked

PACK = [s + r for s in "SHDC" for r in model.RANKS] + [f"T{i}" for i in range(1, 22)] + ["EX"]
A, B, C, D = 0, 1, 2, 3  # Ana, Ben, Cal, Dee
Plays = list[tuple[int, str]]
TrickCheck = Callable[[int, Plays, int], bool]


def play_json(plays: Plays) -> list[dict[str, Any]]:
    return [{"seat": s, "type": "play", "card": c} for s, c in plays]


def deal_hands(
    players: int, rng: random.Random, holds: Mapping[int, Sequence[str]], aside: Sequence[str]
) -> tuple[list[list[str]], list[str]]:
    """Random hands where seat ``s`` holds ``holds[s]`` and ``aside`` is set aside."""
    fixed = {c for cs in holds.values() for c in cs} | set(aside)
    free = [c for c in PACK if c not in fixed]
    rng.shuffle(free)
    hands: list[list[str]] = []
    for s in range(players):
        mine = list(holds.get(s, ()))
        need = 12 - len(mine)
        hands.append(mine + free[:need])
        del free[:need]
    rest = list(aside) + free
    rng.shuffle(rest)
    return hands, rest


def search_play(
    players: int,
    dealer: int,
    hands: list[list[str]],
    rng: random.Random,
    trick_ok: TrickCheck,
    final_ok: Callable[[Plays], bool] = lambda _: True,
    budget: int = 20000,
) -> Plays | None:
    """Depth-first search (random order) for a legal play of all 12 tricks that passes
    ``trick_ok(number, trick, winner)`` after every trick and ``final_ok`` at the end."""
    nodes = 0
    plays: Plays = []
    left = [list(h) for h in hands]

    def dfs(leader: int, trick: Plays) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return False
        if len(trick) == players:
            number = len(plays) // players
            w = model.winner(trick)
            if not trick_ok(number, trick, w):
                return False
            if number == 12:
                return final_ok(plays)
            return dfs(w, [])
        seat = (leader + len(trick)) % players
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

    return list(plays) if dfs((dealer + 1) % players, []) else None


def find(
    players: int,
    dealer: int,
    holds: Mapping[int, Sequence[str]],
    aside: Sequence[str],
    trick_ok: TrickCheck,
    final_ok: Callable[[Plays], bool] = lambda _: True,
    tries: int = 4000,
    seed: int = 0,
) -> tuple[list[str], Plays]:
    for n in range(seed, seed + tries):
        rng = random.Random(n)
        hands, rest = deal_hands(players, rng, holds, aside)
        plays = search_play(players, dealer, hands, rng, trick_ok, final_ok)
        if plays is not None:
            return model.deck_for(players, dealer, hands, rest), plays
    raise SystemExit(f"no deal found in {tries} tries")


def scenario(
    description: str,
    players: int,
    deals: list[dict[str, Any]],
    expect: dict[str, Any],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "description": description,
        "game": "early_french_tarot",
        "players": players,
    }
    if options is not None:
        out["options"] = options
    return {**out, "deals": deals, "expect": expect}


def counts_ok(target: Sequence[int]) -> TrickCheck:
    """Prune once a seat has won more tricks than ``target`` allows."""
    won = [0] * len(target)
    history: list[int] = []

    def ok(number: int, trick: Plays, w: int) -> bool:
        del history[number - 1 :]
        history.append(w)
        won[:] = [history.count(p) for p in range(len(target))]
        return all(won[p] <= target[p] for p in range(len(target)))

    return ok


def example_a() -> dict[str, dict[str, Any]]:
    """§5.3 A: tricks 5/4/2/1, Cal's Fool in trick 3 won by Ana, Cal hands over 4♦."""
    owners = {A: ["SK", "HK", "DQ", "T21"], B: ["T1", "CC"], C: ["EX", "SJ"], D: ["SQ"]}
    owner_of = {c: p for p, cs in owners.items() for c in cs}
    # Every other honour is set aside, and so are trumps II–XX (fewer trumps make the
    # search for Ben's winning Magician quick; the spec's example says nothing about them).
    aside = [c for c in model.HONOURS if c not in owner_of] + [f"T{i}" for i in range(2, 21)]
    aside.append("S10")
    counts = counts_ok([5, 4, 2, 1])

    def trick_ok(number: int, trick: Plays, w: int) -> bool:
        if not counts(number, trick, w):
            return False
        cards = [c for _, c in trick]
        if any(owner_of[c] != w for c in cards if c in owner_of and c != "EX"):
            return False
        if number == 1:
            plain = [c for c in cards if c not in model.HONOURS]
            return w == C and plain[:1] == ["D4"]
        if number == 3:
            return (C, "EX") in trick and w == A
        return "EX" not in cards

    holds = {A: [*owners[A], "D4"], B: owners[B], C: owners[C], D: owners[D]}
    deck, plays = find(4, D, holds, aside, trick_ok)
    deal = {"dealer": D, "deck": deck, "actions": play_json(plays)}
    spec = [23, 10, 6, 3]  # the example's table, default scoring
    variant = [35, 22, 14, 7]  # its "C + H" column
    assert model.scores(4, plays) == spec and model.scores(4, plays, True) == variant
    return {
        "example_a_fool_exchange": scenario(
            "§5.3 example A: Cal's Fool in trick 3 returns to him and Ana gets his 4♦; "
            "cards 20/16/8/4, scores max(0, C−12) + H",
            4,
            [deal],
            {"deltas": [spec], "totals": spec, "finished": False, "winners": [], "next": None},
        ),
        "example_a_every_card_scores": scenario(
            "§5.3 example A with the 'every card a point' option (D-4): C + H",
            4,
            [deal],
            {"deltas": [variant], "totals": variant, "finished": False, "next": None},
            options={"every_card_scores": True},
        ),
    }


def _debt_search(dee_wins_trick_7: bool) -> tuple[list[str], Plays]:
    """Dee's Fool in trick 1 (won by Ben) while Dee has nothing; Dee then wins trick 7
    (Ana 3♣, Ben 10♣, Cal Q♥, Dee XIV) and nothing else — or no trick at all."""
    seven = [(A, "C3"), (B, "C10"), (C, "HQ"), (D, "T14")]

    def trick_ok(number: int, trick: Plays, w: int) -> bool:
        cards = [c for _, c in trick]
        if number == 1:
            return (D, "EX") in trick and w == B
        if "EX" in cards:
            return False
        if dee_wins_trick_7:
            if number == 6:
                return w == A
            if number == 7:
                return trick == seven
        return w != D

    holds = {A: ["C3"], B: ["C10"], C: ["HQ"], D: ["EX", "T14"]}
    return find(4, C, holds, [], trick_ok)


def examples_b_c() -> dict[str, dict[str, Any]]:
    deck, plays = _debt_search(True)
    deltas = model.scores(4, plays)
    assert deltas[D] == 8  # §5.3 B: Fool, 10♣, Q♥, XIV → C = 4, H = 5 + 3
    assert "C3" in model.piles(4, plays)[B]
    b = scenario(
        "§5.3 example B: Dee's Fool in trick 1 is owed to Ben; Dee pays 3♣ right after "
        "winning trick 7 (C-2) and keeps the Fool: 8 points",
        4,
        [{"dealer": C, "deck": deck, "actions": play_json(plays)}],
        {"deltas": [deltas], "totals": deltas, "finished": False, "next": None},
    )
    deck, plays = _debt_search(False)
    deltas = model.scores(4, plays)
    assert deltas[D] == 0 and "EX" in model.piles(4, plays)[B]  # §5.3 C
    c = scenario(
        "§5.3 example C: Dee never wins a trick, so the Fool itself goes to Ben at the end "
        "(D-10); Dee scores 0 and Ben's honours include the Fool's 5",
        4,
        [{"dealer": C, "deck": deck, "actions": play_json(plays)}],
        {"deltas": [deltas], "totals": deltas, "finished": False, "next": None},
    )
    return {"example_b_fool_debt_paid": b, "example_c_fool_surrendered": c}


def clarifications() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}

    # C-1: "position within the trick" is play order. Cal (seat 2) won trick 1 with two
    # zero-value cards, the first played by seat 3 and the second by seat 0 (lower seat
    # number, played later); his Fool in trick 2 must hand over seat 3's card.
    def c1(number: int, trick: Plays, w: int) -> bool:
        if number == 1:
            plain = [(s, c) for s, c in trick if c not in model.HONOURS]
            return w == C and len(plain) >= 2 and plain[0][0] == D and plain[1][0] == A
        if number == 2:
            return (C, "EX") in trick and w != C
        return "EX" not in [c for _, c in trick]

    deck, plays = find(4, B, {C: ["EX"]}, [], c1)
    given = next(c for s, c in plays[:4] if s == D and c not in model.HONOURS)
    assert given in model.piles(4, plays)[model.winner(plays[4:8])]
    deltas = model.scores(4, plays)
    out["c1_handover_by_play_order"] = scenario(
        f"C-1: Cal's Fool returns and he hands over {given}, the first zero-value card of "
        "trick 1 in play order (played by seat 3 before seat 0)",
        4,
        [{"dealer": B, "deck": deck, "actions": play_json(plays)}],
        {"deltas": [deltas], "totals": deltas, "next": None},
    )

    # C-4: the Fool led with two players: the other card wins, whatever it is.
    def c4(number: int, trick: Plays, w: int) -> bool:
        if number == 3:
            return trick[0][1] == "EX" and trick[0][0] == A
        return "EX" not in [c for _, c in trick]

    deck, plays = find(2, B, {}, [], c4)
    deltas = model.scores(2, plays)
    out["c4_two_players_fool_led"] = scenario(
        "C-4: with two players Ana leads the Fool in trick 3 and Ben's card wins",
        2,
        [{"dealer": B, "deck": deck, "actions": play_json(plays)}],
        {"deltas": [deltas], "totals": deltas, "next": None},
    )

    # C-3: no table cap option.
    out["c3_no_hand_limit_option"] = scenario(
        "C-3: the game ends only at 50 with a unique top — there is no hand-limit option",
        4,
        [],
        {"error": {"deal": None, "action": None, "code": "bad_scenario"}},
        options={"hand_limit": 5},
    )
    return out


def decisions() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}

    # D-6: a Fool lead lets the next card set the suit (3 players); stop right after it.
    def d6(number: int, trick: Plays, w: int) -> bool:
        if number == 1:
            return trick[0][1] == "EX" and trick[1][1][0] in "SHDC"
        return True

    for seed in range(100):
        deck, plays = find(3, C, {}, [], d6, seed=seed)
        hands = model.hands(3, C, deck)
        for seat, card in plays[:2]:
            hands[seat].remove(card)
        third = model.legal(hands[C], plays[:2])
        if any(model.suit(c) == model.suit(plays[1][1]) for c in hands[C]) and len(third) < len(
            hands[C]
        ):
            break  # Cal holds Ben's suit and other cards: the ruling restricts him
    else:
        raise SystemExit("d6: no deal")
    second = plays[1][1]
    legal = sorted(({"seat": C, "type": "play", "card": c} for c in third), key=lambda a: a["card"])
    out["d6_fool_lead_next_card_sets_suit"] = scenario(
        f"D-6: Ana leads the Fool, Ben's {second} sets the suit Cal must follow",
        3,
        [{"dealer": C, "deck": deck, "actions": play_json(plays[:2])}],
        {"deals": [{"outcome": None, "deltas": None}], "next": {"seat": C, "legal": legal}},
    )

    # D-7: void in the led suit, any trump will do (no obligation to overtrump).
    rng = random.Random(7)
    for _ in range(2000):
        deck = PACK[:]
        rng.shuffle(deck)
        hands = model.hands(4, A, deck)
        lead = next((c for c in hands[B] if c[0] in "SHDC"), None)
        if lead is None:
            continue
        s2 = [c for c in hands[C] if c[0] == lead[0]]
        t2 = sorted((c for c in hands[C] if c[0] == "T"), key=model.strength)
        t3 = [c for c in hands[D] if c[0] == "T"]
        if s2 or len(t2) < 2 or any(c[0] == lead[0] for c in hands[D]) or not t3:
            continue
        # Cal trumps high; Dee, void too, may still play any trump, even a lower one.
        plays = [(B, lead), (C, t2[-1])]
        legal_d = model.legal(hands[D], plays)
        if any(model.strength(t) < model.strength(t2[-1]) for t in t3):
            break
    else:
        raise SystemExit("d7: no deal")
    legal = sorted(
        ({"seat": D, "type": "play", "card": c} for c in legal_d), key=lambda a: a["card"]
    )
    out["d7_any_trump_no_overtrump"] = scenario(
        "D-7: void in the led suit Dee must trump but need not overtrump Cal",
        4,
        [{"dealer": A, "deck": deck, "actions": play_json(plays)}],
        {"next": {"seat": D, "legal": legal}},
    )

    # D-9: the Fool played to the 12th trick still returns to its player (who had won cards).
    def d9(number: int, trick: Plays, w: int) -> bool:
        cards = [c for _, c in trick]
        if number == 12:
            return "EX" in cards
        return "EX" not in cards

    deck, plays = find(4, D, {}, [], d9, final_ok=lambda p: _fool_owner_had_cards(p))
    owner = next(s for s, c in plays if c == "EX")
    assert "EX" in model.piles(4, plays)[owner]
    deltas = model.scores(4, plays)
    out["d9_fool_on_last_trick_returns"] = scenario(
        "D-9: the Fool played to the last trick still returns to its player",
        4,
        [{"dealer": D, "deck": deck, "actions": play_json(plays)}],
        {"deltas": [deltas], "totals": deltas, "next": None},
    )
    return out


def _fool_owner_had_cards(plays: Plays) -> bool:
    owner = next(s for s, c in plays if c == "EX")
    return any(model.winner(plays[k * 4 : k * 4 + 4]) == owner for k in range(11))


def random_deal(players: int, dealer: int, rng: random.Random) -> tuple[list[str], Plays]:
    """A shuffled deck played out by uniformly random legal cards (the model's legality)."""
    deck = PACK[:]
    rng.shuffle(deck)
    plays = search_play(players, dealer, model.hands(players, dealer, deck), rng, lambda *_: True)
    assert plays is not None
    return deck, plays


def play_match(
    players: int,
    rng: random.Random,
    stop: Callable[[list[list[int]]], bool],
    most: int = 30,
    dealer: int = 0,
) -> tuple[list[dict[str, Any]], list[list[int]]]:
    """Random deals from ``dealer`` on, the deal rotating left (§2), until ``stop(per-deal
    deltas)`` holds; ``SystemExit`` after ``most`` deals."""
    deals: list[dict[str, Any]] = []
    deltas: list[list[int]] = []
    while len(deals) < most:
        deck, plays = random_deal(players, dealer, rng)
        deals.append({"dealer": dealer, "deck": deck, "actions": play_json(plays)})
        deltas.append(model.scores(players, plays))
        if stop(deltas):
            return deals, deltas
        dealer = (dealer + 1) % players
    raise SystemExit("match did not stop")


def totals_of(deltas: list[list[int]]) -> list[int]:
    return [sum(col) for col in zip(*deltas, strict=True)]


def unique_top(totals: Sequence[int], target: int = 50) -> list[int] | None:
    """§5.2, D-11: someone at the target and the highest total held by one player."""
    top = max(totals)
    leaders = [p for p, v in enumerate(totals) if v == top]
    return leaders if top >= target and len(leaders) == 1 else None


def game_end() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    rng = random.Random(50)
    deals, deltas = play_match(4, rng, lambda d: unique_top(totals_of(d)) is not None)
    totals = totals_of(deltas)
    out["d11_game_to_50"] = scenario(
        "§5.2 / example D: hands are played until someone has 50 or more with the unique "
        "highest total; that player wins",
        4,
        deals,
        {
            "deltas": deltas,
            "totals": totals,
            "finished": True,
            "winners": unique_top(totals),
            "next": None,
        },
    )
    extra = {"dealer": (deals[-1]["dealer"] + 1) % 4, "deck": PACK, "actions": []}
    out["error_match_over"] = scenario(
        "A deal after the game ended is refused (match_over)",
        4,
        [*deals, extra],
        {"error": {"deal": len(deals), "action": None, "code": "match_over"}},
    )

    def tied(d: list[list[int]]) -> bool:
        t = totals_of(d)
        return max(t) >= 50 and t.count(max(t)) > 1

    for seed in range(20000):
        rng = random.Random(seed)
        try:
            deals, deltas = play_match(
                4, rng, lambda d: tied(d) or unique_top(totals_of(d)) is not None, most=12
            )
        except SystemExit:
            continue
        if tied(deltas):
            break
    else:
        raise SystemExit("no tie at the top found")
    tie_at = len(deals)
    more, more_deltas = play_match(
        4,
        rng,
        lambda d: unique_top(totals_of(deltas + d)) is not None,
        dealer=(deals[-1]["dealer"] + 1) % 4,
    )
    all_deltas = deltas + more_deltas
    totals = totals_of(all_deltas)
    out["d11_tied_top_plays_on"] = scenario(
        f"D-11: after hand {tie_at} the highest total (>= 50) is shared, so another hand is "
        "played; the game ends once the top is unique",
        4,
        deals + more,
        {
            "deltas": all_deltas,
            "totals": totals,
            "finished": True,
            "winners": unique_top(totals),
        },
    )
    return out


def errors() -> dict[str, dict[str, Any]]:
    rng = random.Random(404)
    deck, plays = random_deal(4, D, rng)
    acts = play_json(plays)
    hands = model.hands(4, D, deck)
    out: dict[str, dict[str, Any]] = {}

    def one(name: str, text: str, sc: dict[str, Any], error: tuple[Any, Any, str]) -> None:
        d, a, code = error
        sc.setdefault("deals", [])
        out[f"error_{name}"] = scenario(
            text,
            sc.get("players", 4),
            sc["deals"],
            {"error": {"deal": d, "action": a, "code": code}},
            options=sc.get("options"),
        )

    one(
        "seven_players",
        "D-1: 2–6 players; 7 is refused",
        {"players": 7},
        (None, None, "bad_scenario"),
    )
    one(
        "bad_option",
        "every_card_scores must be true or false",
        {"options": {"every_card_scores": 1}},
        (None, None, "bad_scenario"),
    )
    one(
        "bad_deck",
        "The deck must be the whole 78-card pack",
        {"deals": [{"dealer": D, "deck": deck[:-1], "actions": []}]},
        (0, None, "bad_deck"),
    )
    second = {"dealer": B, "deck": deck, "actions": []}  # the rotation gives A after D
    one(
        "wrong_dealer",
        "The deal passes to the dealer's left (§2): after Dee deals, Ana deals",
        {"deals": [{"dealer": D, "deck": deck, "actions": acts}, second]},
        (1, None, "wrong_dealer"),
    )
    one(
        "deal_unfinished",
        "A deal cannot start before the previous one is finished",
        {"deals": [{"dealer": D, "deck": deck, "actions": acts[:5]}, {**second, "dealer": A}]},
        (1, None, "deal_unfinished"),
    )
    one(
        "deal_over",
        "No card after the 12th trick",
        {"deals": [{"dealer": D, "deck": deck, "actions": [*acts, acts[-1]]}]},
        (0, 48, "deal_over"),
    )
    one(
        "bad_action_type",
        "Early French Tarot has no bidding: only play",
        {
            "deals": [
                {"dealer": D, "deck": deck, "actions": [{"seat": A, "type": "bid", "amount": 1}]}
            ]
        },
        (0, 0, "bad_action"),
    )
    one(
        "not_your_turn",
        "The dealer's left (Ana) leads the first trick",
        {
            "deals": [
                {
                    "dealer": D,
                    "deck": deck,
                    "actions": [{"seat": B, "type": "play", "card": hands[B][0]}],
                }
            ]
        },
        (0, 0, "not_your_turn"),
    )
    # A revoke: Ben plays off-suit while holding the led suit (§4.2).
    for k in range(0, 48, 4):
        lead = plays[k][1]
        follower = plays[k + 1][0]
        remaining = [c for s, c in plays[k:] if s == follower]
        suited = [c for c in remaining if lead != "EX" and model.suit(c) == model.suit(lead)]
        other = [c for c in remaining if c != "EX" and model.suit(c) != model.suit(lead)]
        if suited and other:
            one(
                "illegal_revoke",
                "You must follow suit when you can (§4.2): this card is refused",
                {
                    "deals": [
                        {
                            "dealer": D,
                            "deck": deck,
                            "actions": [
                                *acts[: k + 1],
                                {"seat": follower, "type": "play", "card": other[0]},
                            ],
                        }
                    ]
                },
                (0, k + 1, "illegal_action"),
            )
            break
    return out


def everything() -> dict[str, dict[str, Any]]:
    return {
        **example_a(),
        **examples_b_c(),
        **clarifications(),
        **decisions(),
        **game_end(),
        **errors(),
    }


def write() -> None:
    write_checked("early_french_tarot", everything(), render=render)


if __name__ == "__main__":
    write()
