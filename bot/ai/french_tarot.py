"""French Tarot computer player (FFT rules, 3–5 players): a club player's heuristics.

Pure and stdlib-only: ``choose(view, rng)`` reads only the ``SeatView`` (own hand, legal
actions, public info) and returns a legal action; multi-card templates (discard, poignée) are
completed into concrete choices. The policy is deterministic (``rng`` is accepted for the
dispatcher's signature). Card play lives in ``french_tarot_play``.

Strategy (rule refs are to ``rules/french_tarot.md``):

* Bidding (§3.3): a point count of what takes tricks — trumps, bouts, big trumps and court
  cards (Kings most), with weights fitted to self-play — against per-player-count thresholds,
  and a minimum trump length per contract (no Garde on three trumps; no Garde sans or contre
  without two bouts or a very long trump suit); never above what ``view.legal`` offers.
* Call (§3.4, 5 players): a King it lacks in the suit where it holds the Queen or most cards
  (a Queen etc. when it holds all Kings), from the legal calls only.
* Discard (§3.5): voids the shortest suits without Kings, then banks unguarded court cards,
  then the lowest cards; exactly the forced number of trumps (the lowest), never a bout.
* Chelem (§3.6): only with an overwhelming hand (nearly all trumps incl. the 21, Kings only).
* Poignée (§5.3): the highest level held, showing the lowest trumps (bouts last; the Excuse
  only when the level needs it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.french_tarot_play import play
from bot.engine.actions import Action
from bot.engine.cards import EXCUSE
from bot.engine.games.french_tarot_cards import (
    BOUTS,
    CONTRACTS,
    PETIT,
    TWENTY_ONE,
    half_points,
    is_king,
    is_trump,
    rank,
    suit_of,
)
from bot.engine.views import SeatView

PLAIN_SUITS = ("S", "H", "D", "C")
#: Court cards' weight in the count (Kings more at 5 players, where a King held makes the
#: call work). Fitted, like every weight below, by a logistic regression of "contract made"
#: on hand features over 3,500 forced-taker self-play deals per player count: a trump is
#: worth 2, a bout 9-10, a King about 3, a Queen 1.5; Jacks, long plain suits, marriages and
#: voids add nothing at 3-4 players (they did in the old count, which made a hand of long
#: plain suits look like a Garde sans).
_COURT_POINTS = {"K": 3.0, "Q": 1.5, "C": 1.0, "J": 0.0}
#: Count thresholds for prise / garde / garde sans / garde contre per player count, read off
#: the same forced-taker deals: a Prise from about 55% made, a Garde from about 70-75% (it
#: doubles a sure gain), a Garde sans or contre only where it beats the Garde in expectation.
THRESHOLDS: dict[int, tuple[float, float, float, float]] = {
    3: (35, 39, 47, 54),
    4: (33, 36, 48, 53),
    5: (29, 34, 41, 46),
}
#: Fewest trumps (the Excuse not counted) each contract needs, per player count: real trump
#: length, whatever the rest of the count says.
MIN_TRUMPS: dict[int, tuple[int, int, int, int]] = {
    3: (6, 7, 9, 10),
    4: (5, 5, 7, 8),
    5: (4, 4, 6, 7),
}


def hand_strength(hand: Sequence[str], players: int = 4) -> float:
    """Point count of a hand before the dog: trumps, bouts, big trumps and court cards."""
    trumps = [c for c in hand if is_trump(c)]
    t = len(trumps)
    pts = 2.0 * t
    if TWENTY_ONE in hand:
        pts += 10
    if EXCUSE in hand:
        pts += 10
    if PETIT in hand:
        pts += 9 if t >= 5 else 7  # a short Petit is hard to bring home
    pts += sum(1 for c in trumps if 16 <= rank(c) <= 20)
    kings = 5.0 if players == 5 else _COURT_POINTS["K"]
    for c in hand:
        if c != EXCUSE and not is_trump(c):
            court = c[1:]
            pts += kings if court == "K" else _COURT_POINTS.get(court, 0.0)
    if players == 5 and t >= 4:
        for s in PLAIN_SUITS:  # short suits let a 5-player taker trump early
            if sum(1 for c in hand if suit_of(c) == s) <= 1:
                pts += 3
    return pts


def wanted_contract(hand: Sequence[str], players: int) -> int:
    """Index in ``CONTRACTS`` of the highest contract ``hand`` is worth, or -1 to pass."""
    strength = hand_strength(hand, players)
    trumps = sum(1 for c in hand if is_trump(c))
    bouts = sum(1 for c in hand if c in BOUTS)
    thresholds = THRESHOLDS.get(players, THRESHOLDS[4])
    minimum = MIN_TRUMPS.get(players, MIN_TRUMPS[4])
    wanted = -1
    for i, (threshold, fewest) in enumerate(zip(thresholds, minimum, strict=True)):
        if i >= 2 and bouts < 2 and trumps < fewest + 2:
            break  # no dog: without two bouts only a very long trump suit goes alone
        if strength >= threshold and trumps >= fewest:
            wanted = i
    return wanted


def _bid(view: SeatView) -> Action:
    wanted = wanted_contract(view.hand, view.public.players)
    best: Action | None = None
    for a in view.legal:
        if a.type != "bid" or a.contract == "pass" or a.contract not in CONTRACTS:
            continue
        if CONTRACTS.index(a.contract) <= wanted and (
            best is None or CONTRACTS.index(a.contract) > CONTRACTS.index(best.contract or "")
        ):
            best = a
    if best is not None:
        return best
    for a in view.legal:
        if a.contract == "pass":
            return a
    return view.legal[0]


def _call(view: SeatView) -> Action:
    hand = set(view.hand)

    def key(a: Action) -> tuple[int, int, int]:
        card = a.card or ""
        suit = suit_of(card)
        held = sum(1 for c in hand if suit_of(c) == suit)
        has_queen = int(suit + "Q" in hand)
        # never self-call while another card is possible; then the highest court card
        return (int(card not in hand), rank(card), 3 * has_queen + held)

    calls = [a for a in view.legal if a.type == "call"]
    return max(calls, key=key)


def _discard(
    view: SeatView, template: Action, void_first: str | None = None, plan: str = "club"
) -> Action:
    """The discard: ``plan`` "club" (void short suits, bank unguarded courts, then low cards),
    "bank" (the most points first) or "low" (the lowest cards, keeping every court card);
    ``void_first`` names a suit to void before any other when it fits."""
    size = template.amount or 0
    candidates = list(template.cards or ())
    plain = [c for c in candidates if not is_trump(c)]
    trumps = sorted((c for c in candidates if is_trump(c)), key=rank)
    need = max(0, size - len(plain))
    chosen: list[str] = trumps[:need]
    if need:
        chosen += plain
        return Action("discard", template.seat, cards=tuple(chosen[:size]))
    hand = view.hand
    room = size
    by_suit = {s: [c for c in hand if suit_of(c) == s] for s in PLAIN_SUITS}
    if plan == "bank":
        ranked = sorted(plain, key=lambda c: (-half_points(c), len(by_suit[suit_of(c)]), rank(c)))
        return Action("discard", template.seat, cards=tuple(ranked[:size]))
    if plan == "low":
        ranked = sorted(plain, key=lambda c: (half_points(c), len(by_suit[suit_of(c)]), rank(c)))
        return Action("discard", template.seat, cards=tuple(ranked[:size]))
    # 1. void the shortest suits that hold no King (every card of such a suit is a candidate)
    voidable = sorted(
        (s for s, cards in by_suit.items() if cards and not any(map(is_king, cards))),
        key=lambda s: (s != void_first, len(by_suit[s]), -sum(map(half_points, by_suit[s]))),
    )
    for s in voidable:
        if len(by_suit[s]) <= room:
            chosen += by_suit[s]
            room -= len(by_suit[s])
    # 2. then bank court cards of suits without a King (they would fall to the King),
    #    then the lowest cards of the shortest suits
    rest = [c for c in plain if c not in chosen]

    def order(c: str) -> tuple[int, int, int, int]:
        s = suit_of(c)
        guarded = any(map(is_king, by_suit[s]))
        court = half_points(c) > 1
        if court and not guarded:
            return (0, -half_points(c), len(by_suit[s]), rank(c))
        if court:
            return (2, len(by_suit[s]), rank(c), 0)
        return (1, len(by_suit[s]), rank(c), 0)

    chosen += sorted(rest, key=order)[:room]
    return Action("discard", template.seat, cards=tuple(chosen))


def discard_candidates(view: SeatView, template: Action) -> list[Action]:
    """Sensible discards for the expert to compare: the casual one first, then each suit
    voided first, the most points banked, the lowest cards (distinct choices only)."""
    out = [_discard(view, template)]
    out += [_discard(view, template, void_first=s) for s in PLAIN_SUITS]
    out += [_discard(view, template, plan="bank"), _discard(view, template, plan="low")]
    seen: set[tuple[str, ...]] = set()
    unique: list[Action] = []
    for a in out:
        key = tuple(sorted(a.cards or ()))
        if key not in seen:
            seen.add(key)
            unique.append(a)
    return unique


def poignee_choice(template: Action) -> Action:
    """The poignée of ``template``'s level, showing the lowest trumps (bouts last; the Excuse
    only when the level needs it)."""
    cards = list(template.cards or ())
    size = template.amount or len(cards)
    low_first = sorted(cards, key=lambda c: (c in BOUTS, rank(c)))
    shown = cards if EXCUSE in cards else low_first[:size]
    return Action("poignee", template.seat, cards=tuple(shown))


def _poignee(templates: Sequence[Action]) -> Action:
    return poignee_choice(max(templates, key=lambda a: a.amount or 0))


def _chelem(view: SeatView) -> Action:
    hand = view.hand
    trumps = sum(map(is_trump, hand))
    losers = [c for c in hand if not is_trump(c) and c != EXCUSE and not is_king(c)]
    kings = sum(map(is_king, hand))
    announce = TWENTY_ONE in hand and not losers and kings <= 2 and trumps >= len(hand) - kings - 1
    announce = announce and trumps >= 11
    for a in view.legal:
        if a.type == "chelem" and bool(a.announce) == announce:
            return a
    return view.legal[0]


def choose(view: SeatView, rng: random.Random) -> Action:
    """The computer's action for ``view``: always one of ``view.legal`` (templates completed)."""
    legal = view.legal
    kind = legal[0].type
    if kind == "bid":
        return _bid(view)
    if kind == "call":
        return _call(view)
    if kind == "discard":
        return _discard(view, legal[0])
    if kind == "chelem":
        return _chelem(view)
    shows = [a for a in legal if a.type == "poignee"]
    if shows:
        return _poignee(shows)
    return play(view)
