"""Writes ``tests/scenarios/losers_game_*.json``: ``python -m tests.engine.losers_game_scenarios``.

Every worked example of ``rules/losers_game.md`` §5.4, each clarification C-1…C-4, a few
decisions (D-5, §4 following) and one file per runner error code. The expectations are
computed here by a small model of the spec written independently of the engine (§2 deal,
§3.1 caller, §3.2 ``B_max``, §4 tricks, §5 scoring and end) — the engine's own score is never
read back. The §5.4 scoring table is a hand-made deal whose thirteen tricks are written out
below; other hands come from a seeded search for plays where every bid is made or failed as
required. Each file is replayed through ``bot.engine.scenario.run`` and ``check``; the script
refuses to write a file the engine disagrees with.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from tests.engine.scenario_builder import write_checked

ANA, BEN, CAL, DEE, EVE, FAY = 0, 1, 2, 3, 4, 5

# ---- the spec, modelled independently of bot/engine ----------------------------------------

SUITS = ("S", "H", "D", "C")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")  # §1, high first
PACK = [s + r for s in SUITS for r in RANKS]
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def strength(card: str) -> int:
    """Rank order of §1: Ace high (12) … 2 low (0)."""
    return len(RANKS) - 1 - RANKS.index(card[1:])


def cards_each(players: int) -> int:
    return 52 // players  # §2: h = floor(52 / N)


def deal(deck: Sequence[str], players: int, dealer: int) -> tuple[list[list[str]], list[str]]:
    """§2 canonical deal: deck[i] to seat (dealer + 1 + i mod N) mod N; the rest face up."""
    h = cards_each(players)
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(players * h):
        hands[(dealer + 1 + i % players) % players].append(deck[i])
    return hands, list(deck[players * h :])


def deck_for(hands: Sequence[Sequence[str]], excess: Sequence[str], dealer: int) -> list[str]:
    """The deck whose canonical deal gives exactly ``hands`` and ``excess``."""
    n = len(hands)
    taken = [0] * n
    deck: list[str] = []
    for i in range(n * len(hands[0])):
        seat = (dealer + 1 + i % n) % n
        deck.append(hands[seat][taken[seat]])
        taken[seat] += 1
    return deck + list(excess)


def caller_of(totals: Sequence[int], dealer: int) -> int:
    """§3.1, D-4, C-3: lowest total; among ties, the first met clockwise from left(dealer)."""
    n = len(totals)
    order = [(dealer + 1 + k) % n for k in range(n)]
    return min(order, key=lambda seat: (totals[seat], order.index(seat)))


def bound(trump: str, excess: Sequence[str]) -> int:
    """§3.2 B_max: trumps not among the excess, plus 9 per rank with all four cards in play
    and 3 per rank with exactly three in play."""
    trumps = 13 - sum(1 for c in excess if c[0] == trump)
    out = trumps
    for r in RANKS:
        in_play = 4 - sum(1 for c in excess if c[1:] == r)
        out += 9 if in_play == 4 else 3 if in_play == 3 else 0
    return out


def legal_cards(hand: Sequence[str], trick: Sequence[tuple[int, str]]) -> list[str]:
    """§4: any card of the led suit if held, otherwise any card."""
    if not trick:
        return list(hand)
    same = [c for c in hand if c[0] == trick[0][1][0]]
    return same or list(hand)


def winner_of(trick: Sequence[tuple[int, str]], trump: str) -> int:
    """§4: highest trump if any trump was played, else the highest card of the led suit."""
    trumps = [(strength(c), s) for s, c in trick if c[0] == trump]
    if trumps:
        return max(trumps)[1]
    led = trick[0][1][0]
    return max((strength(c), s) for s, c in trick if c[0] == led)[1]


def points(pile: Sequence[str], trump: str) -> int:
    """§5.1: 1 per trump, 3 per rank held exactly three times, 9 per four (not also 3)."""
    by_rank = Counter(c[1:] for c in pile)
    sets = sum(9 if k == 4 else 3 if k == 3 else 0 for k in by_rank.values())
    return sum(1 for c in pile if c[0] == trump) + sets


def change(taken: int, bid: int) -> int:
    """§5.2: +bid when made, −bid otherwise (a bid of 0 scores 0)."""
    return bid if taken >= bid else -bid


def winners_after(
    totals: Sequence[int], hands_played: int, target: int, limit: int | None
) -> list[int] | None:
    """§5.3, D-8, C-4: a unique top ≥ target ends the game; at the hand limit the highest
    total wins, ties sharing the win."""
    top = max(totals)
    leaders = [p for p, t in enumerate(totals) if t == top]
    if top >= target and len(leaders) == 1:
        return leaders
    if limit is not None and hands_played >= limit:
        return leaders
    return None


def sort_legal(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """SCENARIOS.md: ``legal`` is sorted by ``json.dumps(action, sort_keys=True)``."""
    return sorted(entries, key=lambda a: json.dumps(a, sort_keys=True))


def trump_choices(seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "legal": sort_legal([{"seat": seat, "type": "trump", "suit": s} for s in SUITS]),
    }


def bid_choices(seat: int, top: int) -> dict[str, Any]:
    entries = [{"seat": seat, "type": "bid", "amount": x} for x in range(top + 1)]
    return {"seat": seat, "legal": sort_legal(entries)}


def play_choices(seat: int, cards: Sequence[str]) -> dict[str, Any]:
    entries = [{"seat": seat, "type": "play", "card": c} for c in cards]
    return {"seat": seat, "legal": sort_legal(entries)}


def trump(seat: int, suit: str) -> dict[str, Any]:
    return {"seat": seat, "type": "trump", "suit": suit}


def bid(seat: int, amount: int) -> dict[str, Any]:
    return {"seat": seat, "type": "bid", "amount": amount}


def play(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "type": "play", "card": card}


# ---- hands: a record of one played hand, checked by the model --------------------------------


class Hand:
    """One hand as the model sees it: deck, dealer, totals before, and every action."""

    def __init__(self, players: int, dealer: int, deck: list[str], totals: Sequence[int]) -> None:
        self.players, self.dealer, self.deck = players, dealer, deck
        self.hands, self.excess = deal(deck, players, dealer)
        self.caller = caller_of(totals, dealer)
        self.actions: list[dict[str, Any]] = []
        self.trump = ""
        self.bids: list[int] = [0] * players
        self.piles: list[list[str]] = [[] for _ in range(players)]
        self.trick: list[tuple[int, str]] = []
        self.turn = self.caller
        self.tricks = 0

    def name_trump(self, suit: str) -> None:
        self.trump = suit
        self.actions.append(trump(self.caller, suit))
        self.turn = (self.caller + 1) % self.players  # §3.2: from the caller's left

    def bid_all(self, bids: Sequence[int]) -> None:
        self.bids = list(bids)
        for k in range(1, self.players + 1):
            seat = (self.caller + k) % self.players  # the caller bids last
            assert 0 <= bids[seat] <= bound(self.trump, self.excess)
            self.actions.append(bid(seat, bids[seat]))
        self.turn = self.caller  # §3.3: the caller leads trick 1

    def play(self, card: str) -> None:
        seat = self.turn
        assert card in legal_cards(self.hands[seat], self.trick), (seat, card, self.trick)
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.actions.append(play(seat, card))
        self.turn = (seat + 1) % self.players
        if len(self.trick) == self.players:
            w = winner_of(self.trick, self.trump)
            self.piles[w].extend(c for _, c in self.trick)
            self.trick, self.turn = [], w
            self.tricks += 1

    @property
    def over(self) -> bool:
        return self.tricks == cards_each(self.players)

    def points(self) -> list[int]:
        return [points(p, self.trump) for p in self.piles]

    def deltas(self) -> list[int]:
        return [change(p, b) for p, b in zip(self.points(), self.bids, strict=True)]

    def json(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "deck": self.deck, "actions": self.actions}


def choose(hand: Hand, mood: str, rng: random.Random) -> str:
    """A card for ``hand.turn``: ``win`` tries to take the trick, ``lose`` to duck it."""
    seat = hand.turn
    legal = legal_cards(hand.hands[seat], hand.trick)
    if mood == "any" or rng.random() < 0.15:
        return rng.choice(legal)

    def takes(card: str) -> bool:
        return winner_of([*hand.trick, (seat, card)], hand.trump) == seat

    def power(card: str) -> int:
        return strength(card) + (20 if card[0] == hand.trump else 0)

    if mood == "win":
        if not hand.trick:
            return max(legal, key=power)  # lead high
        winning = [c for c in legal if takes(c)]
        return min(winning, key=power) if winning else min(legal, key=power)
    losing = [c for c in legal if not takes(c)]
    return max(losing, key=power) if losing else min(legal, key=power)


def search_hand(
    players: int,
    dealer: int,
    totals: Sequence[int],
    deltas: Sequence[int],
    seed: int,
    tries: int = 20000,
    suit: str | None = None,
) -> Hand:
    """A full hand where seat s bids |deltas[s]| and makes it (delta > 0) or fails (< 0)."""
    rng = random.Random(seed)
    moods = ["win" if d > 0 else "lose" if d < 0 else "any" for d in deltas]
    bids = [abs(d) for d in deltas]
    for _ in range(tries):
        deck = PACK[:]
        rng.shuffle(deck)
        hand = Hand(players, dealer, deck, totals)
        hand.name_trump(suit or rng.choice(SUITS))
        hand.bid_all(bids)
        while not hand.over:
            hand.play(choose(hand, moods[hand.turn], rng))
        if hand.deltas() == list(deltas):
            return hand
    raise SystemExit(f"no hand found for deltas {list(deltas)}")


class Match:
    """Several hands of one match; totals, rotation and the end follow the model."""

    def __init__(self, players: int, first_dealer: int, target: int = 50, limit: int | None = None):
        self.players, self.dealer, self.target, self.limit = players, first_dealer, target, limit
        self.totals = [0] * players
        self.hands: list[Hand] = []
        self.deltas: list[list[int]] = []
        self.winners: list[int] | None = None

    def add(self, hand: Hand) -> None:
        assert self.winners is None and hand.dealer == self.dealer and hand.over
        self.hands.append(hand)
        d = hand.deltas()
        self.deltas.append(d)
        self.totals = [t + x for t, x in zip(self.totals, d, strict=True)]
        self.winners = winners_after(self.totals, len(self.hands), self.target, self.limit)
        self.dealer = (self.dealer + 1) % self.players  # D-2: the deal rotates left

    def search(self, deltas: Sequence[int], seed: int, suit: str | None = None) -> Hand:
        hand = search_hand(self.players, self.dealer, self.totals, deltas, seed, suit=suit)
        self.add(hand)
        return hand

    def fresh(self, seed: int) -> Hand:
        """The next hand, dealt but not started."""
        deck = PACK[:]
        random.Random(seed).shuffle(deck)
        return Hand(self.players, self.dealer, deck, self.totals)

    def expect(self, **extra: Any) -> dict[str, Any]:
        return {  # copies: the match may go on after this file is recorded
            "deltas": [list(d) for d in self.deltas],
            "totals": list(self.totals),
            "finished": self.winners is not None,
            "winners": list(self.winners or []),
            "next": None,
            **extra,
        }


# ---- files ------------------------------------------------------------------------------

FILES: dict[str, dict[str, Any]] = {}


def scenario(
    name: str,
    description: str,
    players: int,
    deals: list[dict[str, Any]],
    expect: dict[str, Any],
    options: dict[str, Any] | None = None,
) -> None:
    obj: dict[str, Any] = {"description": description, "game": "losers_game", "players": players}
    if options is not None:
        obj["options"] = options
    FILES[name] = {**obj, "deals": deals, "expect": expect}


# §5.4's table as thirteen tricks: (leader's card first, then clockwise). Ana (0) names ♥ as
# the first caller (dealer Dee, all totals 0) and leads trick 1.
TABLE_TRICKS: list[list[str]] = [
    ["SA", "S7", "S6", "S5"],  # Ana ♠A
    ["DA", "D9", "D7", "D3"],  # Ana ♦A
    ["HJ", "H10", "H9", "HA"],  # Dee ♥A
    ["H8", "H6", "H5", "H4"],  # Dee ♥8 (Dee, Ana, Ben, Cal)
    ["SQ", "SJ", "SK", "S10"],  # Ben ♠K
    ["DK", "DQ", "DJ", "D10"],  # Ben ♦K
    ["D6", "D5", "H3", "D4"],  # Dee ruffs with ♥3
    ["S3", "S4", "S8", "S9"],  # Cal ♠9
    ["H2", "C9", "HK", "H7"],  # Ana ♥K; Dee, void in hearts, throws 9♣
    ["C3", "S2", "CA", "CJ"],  # Cal ♣A
    ["C8", "C6", "C5", "D2"],  # Cal ♣8
    ["C2", "C10", "C7", "D8"],  # Dee ♣10
    ["C4", "CK", "HQ", "CQ"],  # Ben ruffs with ♥Q
]


def example_table() -> None:
    """§5.4: Ana +5, Ben −15, Cal 0, Dee +6 from the table's piles."""
    # Replay the tricks once to learn who plays what, then deal exactly those hands.
    held: list[list[str]] = [[] for _ in range(4)]
    leader = ANA
    for cards in TABLE_TRICKS:
        plays = [((leader + k) % 4, c) for k, c in enumerate(cards)]
        for seat, c in plays:
            held[seat].append(c)
        leader = winner_of(plays, "H")
    hand = Hand(4, DEE, deck_for(held, [], DEE), [0, 0, 0, 0])
    assert hand.caller == ANA
    hand.name_trump("H")
    hand.bid_all([5, 15, 0, 6])
    for cards in TABLE_TRICKS:
        for c in cards:
            hand.play(c)
    ana, ben, cal, dee = (sorted(p) for p in hand.piles)
    assert {"H2", "H7", "HK", "S7", "D7", "C9", "D9"} <= set(ana)
    assert sorted(c for c in ana if c[0] == "H") == sorted(["H2", "H7", "HK"])
    assert {"SK", "DK", "CK", "SQ", "HQ", "DQ", "CQ"} <= set(ben)
    assert [c for c in ben if c[0] == "H"] == ["HQ"]
    assert not [c for c in cal if c[0] == "H"]
    assert sorted(c for c in dee if c[0] == "H") == sorted(
        ["HA", "HJ", "H10", "H9", "H8", "H6", "H5", "H4", "H3"]
    )
    # The table's "Points" column (3 + 3, 1 + 3 + 9, 0, 9) and "Change" column.
    assert hand.points() == [6, 13, 0, 9]
    table_change = [5, -15, 0, 6]
    assert hand.deltas() == table_change
    scenario(
        "example_scoring_table",
        "§5.4 table: ♥ trump; Ana bids 5 and takes ♥2 ♥7 ♥K + three 7s (6: +5); Ben bids 15 "
        "and takes ♥Q, three Kings and four Queens (1 + 3 + 9 = 13: −15); Cal bids 0 (0); "
        "Dee bids 6 and takes nine hearts (9: +6, only the bid).",
        4,
        [hand.json()],
        {
            "deltas": [table_change],
            "totals": table_change,
            "finished": False,
            "winners": [],
            "next": None,
        },
    )


def example_caller() -> None:
    """§5.4 trump-caller selection: Ana 10, Ben 4, Cal 4, Dee 20, dealer Dee → Ben."""
    m = Match(4, BEN)
    m.search([5, 2, 2, 10], seed=1)
    m.search([5, 2, 2, 10], seed=2)
    assert m.totals == [10, 4, 4, 20] and m.dealer == DEE
    hand = m.fresh(3)
    assert hand.caller == BEN
    deals = [h.json() for h in m.hands]
    common = {"deltas": m.deltas, "totals": m.totals, "finished": False}
    scenario(
        "example_caller_tie_break",
        "§5.4: before the hand Ana 10, Ben 4, Cal 4, Dee 20, dealer Dee: the lowest (4) is "
        "tied; from left(Dee) = Ana clockwise, Ben comes first and names trump (D-4).",
        4,
        [*deals, {"dealer": DEE, "deck": hand.deck, "actions": []}],
        {**common, "deltas": [*m.deltas, None], "next": trump_choices(BEN)},
    )
    hand.name_trump("S")
    top = bound("S", [])
    assert top == 130  # §3.2's example: 13 + 13 × 9
    scenario(
        "example_bidding_order",
        "§5.4: Ben names ♠; the bids go Cal, Dee, Ana, and Ben bids last (0..130, §3.2).",
        4,
        [
            *deals,
            {
                "dealer": DEE,
                "deck": hand.deck,
                "actions": [*hand.actions, *[bid(s, 1) for s in (CAL, DEE, ANA)]],
            },
        ],
        {**common, "deltas": [*m.deltas, None], "next": bid_choices(BEN, top)},
    )
    hand.bid_all([1, 1, 1, 1])
    scenario(
        "example_caller_leads",
        "§5.4, §3.3, D-11: after the bids Ben, the caller, leads trick 1 with any card, "
        "trumps included.",
        4,
        [*deals, {"dealer": DEE, "deck": hand.deck, "actions": hand.actions}],
        {**common, "deltas": [*m.deltas, None], "next": play_choices(BEN, hand.hands[BEN])},
    )


def example_b_max() -> None:
    """§5.4 (5 players, excess 7♣ and ♥Q, ♥ trump) → 117; §3.2 (4 players) → 130."""
    rng = random.Random(5)
    rest = [c for c in PACK if c not in ("C7", "HQ")]
    rng.shuffle(rest)
    deck = [*rest, "C7", "HQ"]
    hand = Hand(5, ANA, deck, [0] * 5)
    assert hand.excess == ["C7", "HQ"] and hand.caller == BEN
    hand.name_trump("H")
    top = bound("H", hand.excess)
    assert top == 12 + 11 * 9 + 2 * 3 == 117
    scenario(
        "example_5p_b_max",
        "§5.4: 5 players, 10 cards each, 7♣ and ♥Q face up; Ben names ♥: B_max = 12 trumps "
        "+ 11 ranks × 9 + 2 ranks × 3 = 117; Cal bids first.",
        5,
        [hand.json()],
        {"deals": [{"outcome": None, "deltas": None}], "next": bid_choices(CAL, top)},
    )


def example_game_end() -> None:
    """§5.4 game end: 52/52/30/11 plays on; then Ana +6, Ben −4 → Ana wins; 55/50 → Ana."""
    # Hands where at most three seats must make their bids (a seeded search finds those
    # quickly); after them Ana 39, Ben 38, Cal 30, Dee 11, and nobody is near the target yet.
    prefix = [
        [13, 0, 10, 0],
        [0, 12, 10, 0],
        [13, 14, 0, 0],
        [13, 0, 10, 11],
        [0, 12, 0, 0],
    ]
    m = Match(4, ANA)
    for i, d in enumerate([*prefix, [13, 14, 0, 0]]):
        m.search(d, seed=100 + i)
    assert m.totals == [52, 52, 30, 11] and m.winners is None
    scenario(
        "example_game_end_tie_plays_on",
        "§5.4, D-8: after a hand Ana 52, Ben 52, Cal 30, Dee 11: the top is tied, play on.",
        4,
        [h.json() for h in m.hands],
        m.expect(),
    )
    m.search([6, -4, 0, 0], seed=200)
    assert m.totals[:2] == [58, 48] and m.winners == [ANA]
    scenario(
        "example_game_end_ana_wins",
        "§5.4: the next hand Ana +6 (58) and Ben −4 (48): Ana's unique top ends the game.",
        4,
        [h.json() for h in m.hands],
        m.expect(),
    )
    after = m.fresh(300)
    scenario(
        "error_match_over",
        "A hand dealt after Ana won (§5.4's game end).",
        4,
        [*[h.json() for h in m.hands], {"dealer": after.dealer, "deck": after.deck}],
        {"error": {"deal": len(m.hands), "action": None, "code": "match_over"}},
    )
    m2 = Match(4, ANA)
    for i, d in enumerate(prefix):
        m2.search(d, seed=100 + i)
    m2.search([16, 12, 0, 0], seed=400)
    assert m2.totals[:2] == [55, 50] and m2.winners == [ANA]
    scenario(
        "example_game_end_55_50",
        "§5.4: Ana 55 and Ben 50 are both at the target; Ana's top is unique, Ana wins.",
        4,
        [h.json() for h in m2.hands],
        m2.expect(),
    )


def clarifications() -> None:
    # C-1: 2 to 6 players.
    two = Match(2, BEN)
    two.search([8, 6], seed=21)
    assert cards_each(2) == 26 and not two.hands[0].excess
    scenario(
        "c1_two_players",
        "C-1: a 2-player hand (table option): 26 cards each, no excess, 26 tricks.",
        2,
        [h.json() for h in two.hands],
        two.expect(),
    )
    six = Match(6, FAY)
    six.search([3, 2, 0, -4, 2, 1], seed=61)
    assert len(six.hands[0].excess) == 4 and cards_each(6) == 8
    scenario(
        "c1_six_players",
        "C-1, §2: 6 players get 8 cards each; the 4 excess cards stay face up, out of play.",
        6,
        [h.json() for h in six.hands],
        six.expect(),
    )
    hand = Match(6, ANA).fresh(62)
    hand.name_trump("C")
    hand.bid_all([0] * 6)
    scenario(
        "c1_excess_card_not_playable",
        "D-3: an excess card is out of play; leading it is illegal.",
        6,
        [{**hand.json(), "actions": [*hand.actions, play(hand.caller, hand.excess[0])]}],
        {"error": {"deal": 0, "action": 7, "code": "illegal_action"}},
    )
    for n in (1, 7):
        scenario(
            f"error_bad_scenario_{n}_players",
            f"C-1: {n} player(s) is not a Loser's Game table (2 to 6).",
            n,
            [],
            {"error": {"deal": None, "action": None, "code": "bad_scenario"}},
        )

    # C-2: B_max depends on the trump suit, computed after the choice.
    rng = random.Random(7)
    excess = ["S2", "S3", "H3", "D9"]
    rest = [c for c in PACK if c not in excess]
    rng.shuffle(rest)
    deck = [*rest, *excess]
    for suit in ("S", "H", "C"):
        hand = Hand(6, ANA, deck, [0] * 6)
        hand.name_trump(suit)
        top = bound(suit, excess)
        scenario(
            f"c2_b_max_with_{SUIT_NAMES[suit]}_trump",
            f"C-2: excess 2♠ 3♠ 3♥ 9♦ (6 players); naming {suit} gives B_max = {top} "
            "(trumps in play + 9 per complete rank + 3 per rank with three in play).",
            6,
            [hand.json()],
            {"next": bid_choices(CAL, top)},  # Ben (dealer's left) calls; Cal bids first
        )
    hand = Hand(6, ANA, deck, [0] * 6)
    hand.name_trump("S")
    top = bound("S", excess)
    scenario(
        "c2_bid_above_b_max",
        f"C-2, D-6: with ♠ trump B_max is {top}; a bid of {top} is legal, {top + 1} is not.",
        6,
        [{**hand.json(), "actions": [*hand.actions, bid(CAL, top), bid(DEE, top + 1)]}],
        {"error": {"deal": 0, "action": 2, "code": "illegal_action"}},
    )

    # C-3: negative totals, ties by D-4.
    m = Match(4, ANA)
    m.search([-5, 3, -5, 0], seed=31)
    hand = m.fresh(32)
    assert m.dealer == BEN and hand.caller == CAL
    scenario(
        "c3_negative_totals_tie",
        "C-3: after Ana −5, Ben 3, Cal −5, Dee 0 and dealer Ben, the lowest (−5) is tied; "
        "clockwise from left(Ben) = Cal, Cal names trump before Ana.",
        4,
        [h.json() for h in m.hands] + [{"dealer": BEN, "deck": hand.deck}],
        {
            "deltas": [*m.deltas, None],
            "totals": m.totals,
            "finished": False,
            "next": trump_choices(CAL),
        },
    )
    m = Match(3, CAL)
    m.search([-6, -2, 4], seed=33)
    hand = m.fresh(34)
    assert hand.caller == ANA and m.dealer == ANA
    scenario(
        "c3_unique_lowest_is_the_dealer",
        "C-3: Ana −6, Ben −2, Cal 4: Ana, the dealer herself, is lowest and names trump.",
        3,
        [h.json() for h in m.hands] + [{"dealer": ANA, "deck": hand.deck}],
        {"totals": m.totals, "next": trump_choices(ANA)},
    )

    # C-4: hand limit.
    m = Match(4, ANA, limit=1)
    m.search([4, 4, 0, -3], seed=41)
    assert m.winners == [ANA, BEN]
    scenario(
        "c4_hand_limit_tie_co_winners",
        "C-4, D-12: with a 1-hand limit Ana and Ben tie on 4: co-winners.",
        4,
        [h.json() for h in m.hands],
        m.expect(),
        options={"hand_limit": 1},
    )
    m = Match(4, ANA, limit=2)
    m.search([3, 2, 0, 0], seed=42)
    m.search([2, 1, 0, -2], seed=43)
    assert m.winners == [ANA]
    scenario(
        "c4_hand_limit_unique_top_below_target",
        "C-4: at the 2-hand limit Ana leads with 5 (below 50) and wins alone.",
        4,
        [h.json() for h in m.hands],
        m.expect(),
        options={"hand_limit": 2},
    )
    m = Match(4, ANA, target=6, limit=3)
    m.search([6, 3, 0, 0], seed=44)
    assert m.winners == [ANA]
    scenario(
        "c4_target_checked_before_the_limit",
        "C-4: target 6, limit 3: Ana reaches 6 with a unique top after hand 1 and wins.",
        4,
        [h.json() for h in m.hands],
        m.expect(),
        options={"target": 6, "hand_limit": 3},
    )
    m = Match(4, ANA, target=6, limit=2)
    m.search([6, 6, 0, 0], seed=45)
    assert m.winners is None
    m.search([0, 0, 0, 0], seed=46)
    assert m.winners == [ANA, BEN]
    scenario(
        "c4_tie_above_target_then_limit",
        "D-8, C-4: target 6: Ana and Ben tie on 6 (play on), then the 2-hand limit makes "
        "them co-winners.",
        4,
        [h.json() for h in m.hands],
        m.expect(),
        options={"target": 6, "hand_limit": 2},
    )


def decisions() -> None:
    """D-5 (no no-trump), §4 following (void: any card; holding the suit: that suit)."""
    m = Match(4, ANA)
    hand = m.fresh(51)
    scenario(
        "d5_no_trump_is_not_a_choice",
        "D-5: the caller must name one of the four suits; 'N' (no-trump) is refused.",
        4,
        [{**hand.json(), "actions": [trump(hand.caller, "N")]}],
        {"error": {"deal": 0, "action": 0, "code": "illegal_action"}},
    )
    # Find a deal where the second player is void in the suit the caller leads.
    for seed in range(1000):
        hand = Match(4, ANA).fresh(1000 + seed)
        caller, nxt = hand.caller, (hand.caller + 1) % 4
        suits = {c[0] for c in hand.hands[nxt]}
        lead = next((c for c in hand.hands[caller] if c[0] not in suits and c[0] != "H"), None)
        if lead is None:
            continue
        hand.name_trump("H")
        hand.bid_all([0] * 4)
        hand.play(lead)
        scenario(
            "rule_void_may_play_any_card",
            "§4: void in the suit led, the next player may play any card — a trump or not; "
            "there is no obligation to trump.",
            4,
            [hand.json()],
            {"next": play_choices(nxt, hand.hands[nxt])},
        )
        break
    for seed in range(1000):
        hand = Match(4, ANA).fresh(2000 + seed)
        caller, nxt = hand.caller, (hand.caller + 1) % 4
        lead = next(
            (
                c
                for c in hand.hands[caller]
                if any(x[0] == c[0] for x in hand.hands[nxt])
                and any(x[0] != c[0] for x in hand.hands[nxt])
            ),
            None,
        )
        if lead is None:
            continue
        hand.name_trump("H")
        hand.bid_all([0] * 4)
        hand.play(lead)
        follow = [c for c in hand.hands[nxt] if c[0] == lead[0]]
        other = next(c for c in hand.hands[nxt] if c[0] != lead[0])
        scenario(
            "rule_must_follow_suit",
            "§4: holding the suit led, the next player must play one of those cards (any).",
            4,
            [hand.json()],
            {"next": play_choices(nxt, follow)},
        )
        scenario(
            "error_illegal_action_revoke",
            "§4: playing another suit while holding the suit led is illegal.",
            4,
            [{**hand.json(), "actions": [*hand.actions, play(nxt, other)]}],
            {"error": {"deal": 0, "action": len(hand.actions), "code": "illegal_action"}},
        )
        break


def errors() -> None:
    m = Match(4, ANA)
    hand = m.fresh(71)
    c = hand.caller
    scenario(
        "error_bad_scenario_unknown_option",
        "Loser's Game has no 'round_limit' option (its cap is 'hand_limit').",
        4,
        [hand.json()],
        {"error": {"deal": None, "action": None, "code": "bad_scenario"}},
        options={"round_limit": 3},
    )
    scenario(
        "error_bad_scenario_hand_limit",
        "'hand_limit' must be a positive integer or null.",
        4,
        [hand.json()],
        {"error": {"deal": None, "action": None, "code": "bad_scenario"}},
        options={"hand_limit": 0},
    )
    scenario(
        "error_bad_deck",
        "A tarot card (S1) instead of the Ace of spades.",
        4,
        [{"dealer": ANA, "deck": ["S1" if x == "SA" else x for x in hand.deck]}],
        {"error": {"deal": 0, "action": None, "code": "bad_deck"}},
    )
    scenario(
        "error_bad_action",
        "A trump choice without its suit.",
        4,
        [{"dealer": ANA, "deck": hand.deck, "actions": [{"seat": c, "type": "trump"}]}],
        {"error": {"deal": 0, "action": 0, "code": "bad_action"}},
    )
    scenario(
        "error_bad_action_amount",
        "A bid amount written as a string.",
        4,
        [
            {
                "dealer": ANA,
                "deck": hand.deck,
                "actions": [trump(c, "S"), {"seat": (c + 1) % 4, "type": "bid", "amount": "3"}],
            }
        ],
        {"error": {"deal": 0, "action": 1, "code": "bad_action"}},
    )
    scenario(
        "error_not_your_turn",
        "§3.2: the caller bids last, so the caller may not bid first.",
        4,
        [{"dealer": ANA, "deck": hand.deck, "actions": [trump(c, "S"), bid(c, 0)]}],
        {"error": {"deal": 0, "action": 1, "code": "not_your_turn"}},
    )
    scenario(
        "error_illegal_action_bid_before_trump",
        "§3: trump is named before any bid.",
        4,
        [{"dealer": ANA, "deck": hand.deck, "actions": [bid(c, 0)]}],
        {"error": {"deal": 0, "action": 0, "code": "illegal_action"}},
    )
    m.search([2, 0, 0, 0], seed=72)
    done = m.hands[0]
    scenario(
        "error_deal_over",
        "An action after the hand's last trick.",
        4,
        [{**done.json(), "actions": [*done.actions, play(done.caller, "SA")]}],
        {"error": {"deal": 0, "action": len(done.actions), "code": "deal_over"}},
    )
    scenario(
        "error_wrong_dealer",
        "D-2: the deal passes left, so after dealer Ana comes Ben, not Dee.",
        4,
        [done.json(), {"dealer": DEE, "deck": hand.deck}],
        {"error": {"deal": 1, "action": None, "code": "wrong_dealer"}},
    )
    scenario(
        "error_deal_unfinished",
        "A second hand while the first is still being bid.",
        4,
        [
            {"dealer": ANA, "deck": hand.deck, "actions": [trump(c, "S")]},
            {"dealer": BEN, "deck": hand.deck},
        ],
        {"error": {"deal": 1, "action": None, "code": "deal_unfinished"}},
    )


def build() -> dict[str, dict[str, Any]]:
    for part in (example_table, example_caller, example_b_max, example_game_end):
        part()
    clarifications()
    decisions()
    errors()
    return FILES


def write(only: str = "") -> None:
    write_checked("losers_game", build(), only)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else "")
