"""An independent reading of ``rules/queen_of_tarot.md`` used to write test expectations.

Nothing here imports the engine: card values (§1, D-1), the Piedmontese ranking (§1, D-3),
the staged deal (§2.1, D-4), bargaining (§3.1, D-5…D-8, C-4…C-6), the discard (§3.2, C-8),
declarations (§3.3, C-2, C-3 — valued by trying every assignment of Kings and honours to the
declared bonuses), trick play with the Fool (§4, D-12…D-14, C-1) and scoring (§5) are
re-derived from the spec's text, in a plain mutable style, so that scenario expectations and
property checks never read the engine's own answers back.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from typing import Any

SEATS = 3
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")
TRUMPS = [f"T{n}" for n in range(1, 22)]
PACK = [s + r for s in "SHDC" for r in RANKS] + TRUMPS + ["EX"]
KINGS = ["SK", "HK", "DK", "CK"]
HONOURS = ["T20", "T1", "EX"]  # D-2: the Angel, the Bagatto, the Fool
NAMES = ["abundance", "kings", "mitigati", "mixed_honours"]

# §1, high → low in each group.
TRUMP_ORDER = ["T20", "T21", *[f"T{n}" for n in range(19, 0, -1)]]
LONG_ORDER = ["K", "Q", "C", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1"]
ROUND_ORDER = ["K", "Q", "C", "J", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]


def right(seat: int) -> int:
    """Counter-clockwise neighbour: everything moves to the right."""
    return (seat + SEATS - 1) % SEATS


def value(card: str) -> int:
    """§1 card points, counted singly; the Fool is 4 (D-1)."""
    if card in ("T20", "T1"):
        return 5
    if card == "EX":
        return 4
    if card[0] == "T":
        return 1
    return {"K": 5, "Q": 4, "C": 3, "J": 2}.get(card[1:], 1)


def suit(card: str) -> str:
    return "EX" if card == "EX" else card[0]


def place(card: str) -> int:
    """Position in its group's order, 0 = best."""
    if card[0] == "T":
        return TRUMP_ORDER.index(card)
    order = ROUND_ORDER if card[0] in "HD" else LONG_ORDER
    return order.index(card[1:])


def led(trick: Sequence[tuple[int, str]]) -> str | None:
    """D-12: a led Fool lets the next card set the suit."""
    cards = [c for _, c in trick if c != "EX"]
    return suit(cards[0]) if cards else None


def beats(card: str, best: str, led_suit: str) -> bool:
    """Does ``card`` beat the best card so far (§4.3)?"""
    if suit(card) == "T":
        return suit(best) != "T" or place(card) < place(best)
    if suit(best) == "T":
        return False
    return suit(card) == led_suit and (suit(best) != led_suit or place(card) < place(best))


def winner(trick: Sequence[tuple[int, str]]) -> int:
    real = [(s, c) for s, c in trick if c != "EX"]
    led_suit = suit(real[0][1])
    best_seat, best = real[0]
    for s, c in real[1:]:
        if beats(c, best, led_suit):
            best_seat, best = s, c
    return best_seat


def legal(hand: Sequence[str], trick: Sequence[tuple[int, str]]) -> list[str]:
    """§4.2: follow; else trump; else anything; the Fool always allowed."""
    s = led(trick)
    if s is None:
        return list(hand)
    follow = [c for c in hand if suit(c) == s]
    if not follow and s != "T":
        follow = [c for c in hand if suit(c) == "T"]
    if not follow:
        return list(hand)
    return follow + (["EX"] if "EX" in hand else [])


def roles(dealer: int) -> tuple[int, int, int]:
    """(Eldest, Middle, Dealer)."""
    eldest = right(dealer)
    return eldest, right(eldest), dealer


def packets(deck: Sequence[str], dealer: int) -> list[list[tuple[int, list[str]]]]:
    """§2.1: five packet rounds of (seat, cards); the dealer takes 8 in round 5."""
    out: list[list[tuple[int, list[str]]]] = []
    i = 0
    for r in range(5):
        round_: list[tuple[int, list[str]]] = []
        for seat in roles(dealer):
            n = 8 if (r == 4 and seat == dealer) else 5
            round_.append((seat, list(deck[i : i + n])))
            i += n
        out.append(round_)
    return out


def deck_for(dealer: int, hands: dict[int, Sequence[str]]) -> list[str]:
    """The deck whose canonical deal gives each seat ``hands[seat]`` (25, 25 and the
    dealer's 28), cards taken in list order."""
    taken = {s: 0 for s in range(SEATS)}
    deck: list[str] = []
    for r in range(5):
        for seat in roles(dealer):
            n = 8 if (r == 4 and seat == dealer) else 5
            deck += list(hands[seat][taken[seat] : taken[seat] + n])
            taken[seat] += n
    assert sorted(deck) == sorted(PACK), "hands must hold the whole pack"
    return deck


# ---- declarations ------------------------------------------------------------------------


def _allocation_value(assign: dict[str, str | None], names: set[str]) -> int | None:
    """Value of one assignment of Kings/honours to the declared non-Abundance bonuses."""
    total = 0
    for name in names:
        mine = [c for c, n in assign.items() if n == name]
        kings = [c for c in mine if c in KINGS]
        honours = [c for c in mine if c in HONOURS]
        if name == "kings":
            if len(kings) != 4:
                return None
            total += 20 + 5 * len(honours)
        elif name == "mitigati":
            if len(honours) != 3:
                return None
            total += 15 + 5 * len(kings)
        else:
            if len(mine) < 4:
                return None
            total += 10 + 5 * (len(mine) - 4)
    return total


def best_allocation(hand: Sequence[str], names: Sequence[str]) -> tuple[int, set[str]] | None:
    """(value, cards shown) of the best way to make ``names`` with ``hand``, else ``None``.

    Tries every assignment of each King and honour held to one declared bonus or to none.
    """
    wanted = set(names)
    total = 0
    shown: set[str] = set()
    if "abundance" in wanted:
        trumps = [c for c in hand if c[0] == "T"]  # I–XXI only: the Fool is "EX" (D-11)
        if len(trumps) < 10:
            return None
        total += len(trumps)  # 10 + (T − 10)
        shown |= set(trumps)
    others = wanted - {"abundance"}
    cards = [c for c in hand if c in KINGS or c in HONOURS]
    best: tuple[int, set[str]] | None = None
    for combo in itertools.product([None, *sorted(others)], repeat=len(cards)):
        assign = dict(zip(cards, combo, strict=True))
        v = _allocation_value(assign, others)
        if v is None:
            continue
        used = {c for c, n in assign.items() if n is not None}
        if best is None or (v, len(used)) > (best[0], len(best[1])):
            best = (v, used)
    if best is None:
        return None
    return total + best[0], shown | best[1]


def declarable(hand: Sequence[str]) -> list[tuple[list[str], int]]:
    """Every set of names the hand can make (C-2) with its value."""
    out: list[tuple[list[str], int]] = []
    for k in range(5):
        for names in itertools.combinations(NAMES, k):
            made = best_allocation(hand, names)
            if made is not None:
                out.append((sorted(names), made[0]))
    return out


def best_declaration(hand: Sequence[str]) -> tuple[list[str], int]:
    """The highest-valued set (ties: fewest names, then alphabetical)."""
    return min(declarable(hand), key=lambda x: (-x[1], len(x[0]), x[0]))


def sort_legal(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(entries, key=lambda a: json.dumps(a, sort_keys=True))


# ---- a whole hand ------------------------------------------------------------------------


class Illegal(Exception):
    """An action the spec does not allow."""


class Hand:
    """One hand replayed from its deck and its actions (JSON, as in scenario files)."""

    def __init__(self, deck: Sequence[str], dealer: int, max_bargain: int = 43) -> None:
        self.deck = list(deck)
        self.dealer = dealer
        self.top = max_bargain
        self.eldest, self.middle, _ = roles(dealer)
        self.rounds = packets(deck, dealer)
        self.hands: list[list[str]] = [[] for _ in range(SEATS)]
        self.dealt = 0
        for _ in range(2):
            self._deal()
        self.stage = "bargain"
        self.session = 1
        self.demand = [0] * SEATS
        self.offer = [0] * SEATS
        self.passes = 0
        self.to_act: int | None = self.eldest
        self.outcome: str | None = None
        self.settlement: list[int] | None = None
        self.discard: list[str] = []
        self.declared: dict[int, tuple[list[str], int, set[str]]] = {}
        self.piles: list[list[str]] = [[] for _ in range(SEATS)]
        self.trick: list[tuple[int, str]] = []
        self.tricks: list[list[tuple[int, str]]] = []
        self.debt: tuple[int, int] | None = None  # (debtor, creditor)
        self.handed: list[tuple[int, int, str, str]] = []  # (giver, receiver, card, kind)
        self.calls = 0

    def _deal(self) -> None:
        for seat, cards in self.rounds[self.dealt]:
            self.hands[seat] += cards
        self.dealt += 1

    # -- legal actions, as scenario ``next.legal`` entries
    def legal(self) -> list[dict[str, Any]]:
        t = self.to_act
        assert t is not None
        out: list[dict[str, Any]] = []
        if self.stage == "bargain":
            out += [{"seat": t, "type": "pass"}, {"seat": t, "type": "continue"}]
            d, o = self.demand[t], self.offer[t]
            if not o:
                hi = d - 1 if d else self.top
                out += [{"seat": t, "type": "demand", "amount": x} for x in range(1, hi + 1)]
            lo = o + 1 if o else 1
            out += [{"seat": t, "type": "offer", "amount": x} for x in range(lo, self.top + 1)]
        elif self.stage == "discard":
            ok = sorted(c for c in self.hands[t] if c not in KINGS and c not in HONOURS)
            out.append({"seat": t, "type": "discard", "count": 3, "cards": ok})
        elif self.stage == "declare":
            out += [
                {"seat": t, "type": "declare", "bonuses": n} for n, _ in declarable(self.hands[t])
            ]
        else:
            out += [
                {"seat": t, "type": "play", "card": c} for c in legal(self.hands[t], self.trick)
            ]
        return sort_legal(out)

    # -- applying actions
    def act(self, a: dict[str, Any]) -> None:
        if self.to_act is None or a["seat"] != self.to_act:
            raise Illegal("not this seat's turn")
        kind = a["type"]
        if self.stage == "bargain" and kind in ("pass", "continue", "demand", "offer"):
            self._bargain(a["seat"], kind, a.get("amount"))
        elif self.stage == "discard" and kind == "discard":
            self._discard(a["seat"], list(a["cards"]))
        elif self.stage == "declare" and kind == "declare":
            self._declare(a["seat"], list(a["bonuses"]))
        elif self.stage == "play" and kind == "play":
            self._play(a["seat"], a["card"])
        else:
            raise Illegal(f"no {kind} now")

    def _bargain(self, seat: int, kind: str, amount: int | None) -> None:
        self.calls += 1
        if kind == "continue":
            self._next_session()
            return
        if kind == "pass":
            self.passes += 1
            if self.passes == 3:
                self._next_session()
            else:
                self.to_act = right(seat)
            return
        assert amount is not None
        if not 1 <= amount <= self.top:
            raise Illegal("amount out of range")
        if kind == "demand":
            if self.offer[seat] or (self.demand[seat] and amount >= self.demand[seat]):
                raise Illegal("a demand may only come down, and never after an offer")
            self.demand[seat] = amount
        else:
            if self.offer[seat] and amount <= self.offer[seat]:
                raise Illegal("an offer may only go up")
            self.demand[seat] = 0
            self.offer[seat] = amount
        self.passes = 0
        if sum(self.demand) == sum(self.offer) > 0:
            self.settlement = [self.demand[p] - self.offer[p] for p in range(SEATS)]
            self.outcome = "thrown_in"
            self.stage = "over"
            self.to_act = None
            return
        self.to_act = right(seat)

    def _next_session(self) -> None:
        self.demand = [0] * SEATS
        self.offer = [0] * SEATS
        self.passes = 0
        self._deal()
        if self.dealt < 5:
            self.session += 1
            self.to_act = self.eldest
        else:
            self.stage = "discard"
            self.to_act = self.dealer

    def _discard(self, seat: int, cards: list[str]) -> None:
        hand = self.hands[seat]
        if len(cards) != 3 or len(set(cards)) != 3 or any(c not in hand for c in cards):
            raise Illegal("three different cards of the hand")
        if any(c in KINGS or c in HONOURS for c in cards):
            raise Illegal("no King or honour")
        for c in cards:
            hand.remove(c)
        self.discard = sorted(cards)
        self.piles[seat] = sorted(cards)  # C-1: won before any trick, in code order
        self.stage = "declare"
        self.to_act = self.eldest

    def _declare(self, seat: int, names: list[str]) -> None:
        made = best_allocation(self.hands[seat], names)
        if made is None or len(set(names)) != len(names) or any(n not in NAMES for n in names):
            raise Illegal("cannot make that set")
        self.declared[seat] = (sorted(names), made[0], made[1])
        if seat == self.dealer:
            self.stage = "play"
            self.to_act = self.eldest
        else:
            self.to_act = right(seat)

    def _play(self, seat: int, card: str) -> None:
        if card not in legal(self.hands[seat], self.trick):
            raise Illegal("revoke or card not held")
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < SEATS:
            self.to_act = right(seat)
            return
        trick, self.trick = self.trick, []
        self.tricks.append(trick)
        w = winner(trick)
        self.piles[w] += [c for _, c in trick if c != "EX"]
        fool = [s for s, c in trick if c == "EX"]
        if fool:
            f = fool[0]
            self.piles[f].append("EX")
            if not self._hand_over(f, w, "exchange"):
                self.debt = (f, w)
        elif (
            self.debt is not None and w == self.debt[0] and self._hand_over(*self.debt, "debt_paid")
        ):
            self.debt = None
        self.to_act = w
        if len(self.tricks) == 25:
            self._finish()

    def _hand_over(self, giver: int, receiver: int, kind: str) -> bool:
        """Give the earliest-won empty card, if there is one."""
        for card in self.piles[giver]:
            if value(card) == 1:
                self.piles[giver].remove(card)
                self.piles[receiver].append(card)
                self.handed.append((giver, receiver, card, kind))
                return True
        return False

    def _finish(self) -> None:
        if self.debt is not None:  # D-13
            debtor, creditor = self.debt
            pile = self.piles[debtor]
            rest = [c for c in pile if c != "EX"]
            card = min(rest, key=lambda c: (value(c), pile.index(c))) if rest else "EX"
            pile.remove(card)
            self.piles[creditor].append(card)
            self.handed.append((debtor, creditor, card, "debt_end" if rest else "surrender"))
            self.debt = None
        self.outcome = "played"
        self.stage = "over"
        self.to_act = None

    # -- results
    def card_points(self) -> list[int]:
        return [sum(value(c) for c in p) for p in self.piles]

    def declaration_deltas(self) -> list[int]:
        out = [0] * SEATS
        for seat, (_, x, _) in self.declared.items():
            for p in range(SEATS):
                out[p] += 2 * x if p == seat else -x  # D-17: each opponent pays X
        return out

    def deltas(self) -> list[int] | None:
        if self.outcome == "thrown_in":
            assert self.settlement is not None
            return list(self.settlement)
        if self.outcome != "played":
            return None
        cards = [p - 43 for p in self.card_points()]
        return [a + b for a, b in zip(self.declaration_deltas(), cards, strict=True)]


def replay(deck: Sequence[str], dealer: int, actions: Sequence[dict[str, Any]], top: int = 43):
    """A ``Hand`` after ``actions`` (raises ``Illegal`` at the first one not allowed)."""
    hand = Hand(deck, dealer, top)
    for a in actions:
        hand.act(a)
    return hand


def match_winners(totals: Sequence[int]) -> list[int]:
    top = max(totals)
    return [p for p, t in enumerate(totals) if t == top]
