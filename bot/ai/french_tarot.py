"""French Tarot computer player (FFT rules, 3–5 players): a club player's heuristics.

Pure and stdlib-only: ``choose(view, rng)`` reads only the ``SeatView`` (own hand, legal
actions, public info) and returns a legal action; multi-card templates (discard, poignée) are
completed into concrete choices. The policy is deterministic (``rng`` is accepted for the
dispatcher's signature). Card play lives in ``french_tarot_play``.

Strategy (rule refs are to ``rules/french_tarot.md``):

* Bidding (§3.3): the classic club point count — bouts (the Petit only when protected by
  trumps), trumps with a bonus for the big ones, Kings and court cards, long suits, voids and
  singletons — against per-player-count thresholds for prise, garde, garde sans and garde
  contre; never above what ``view.legal`` offers, otherwise pass.
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
_COURT_POINTS = {"K": 6, "Q": 3, "C": 2, "J": 1}
#: Point-count thresholds for prise / garde / garde sans / garde contre per player count
#: (15/18/24-card hands; the 5-player taker also gets a called partner). Measured with this
#: policy in every seat: the taker's expected score turns positive near the prise threshold,
#: and a garde doubles it, so the garde comes soon after.
THRESHOLDS: dict[int, tuple[int, int, int, int]] = {
    3: (61, 66, 80, 90),
    4: (47, 52, 63, 72),
    5: (33, 38, 48, 56),
}


def hand_strength(hand: Sequence[str]) -> float:
    """Club point count of a hand (before the dog): higher is stronger."""
    trumps = [c for c in hand if is_trump(c)]
    t = len(trumps)
    pts = 0.0
    if TWENTY_ONE in hand:
        pts += 10
    if EXCUSE in hand:
        pts += 8
    if PETIT in hand:
        pts += 8 if t >= 6 else 6 if t == 5 else 3 if t == 4 else 0
    for c in trumps:
        pts += 2 + (2 if 16 <= rank(c) <= 20 else 0)
    if t >= 5:
        pts += 2 * (t - 4)  # long trumps: control of the deal
    for s in PLAIN_SUITS:
        cards = [c for c in hand if suit_of(c) == s]
        n = len(cards)
        courts = {c[1:] for c in cards}
        for court, value in _COURT_POINTS.items():
            if court in courts:
                pts += value
        if "K" in courts and "Q" in courts:
            pts += 1  # the marriage: the Queen is guarded
        if n >= 5:
            pts += 5 + 2 * (n - 5)
        if t >= 4:
            pts += 6 if n == 0 else 3 if n == 1 else 0
    return pts


def _bid(view: SeatView) -> Action:
    players = view.public.players
    strength = hand_strength(view.hand)
    wanted = -1
    for i, threshold in enumerate(THRESHOLDS.get(players, THRESHOLDS[4])):
        if strength >= threshold:
            wanted = i
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


def _discard(view: SeatView, template: Action) -> Action:
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
    # 1. void the shortest suits that hold no King (every card of such a suit is a candidate)
    by_suit = {s: [c for c in hand if suit_of(c) == s] for s in PLAIN_SUITS}
    voidable = sorted(
        (s for s, cards in by_suit.items() if cards and not any(map(is_king, cards))),
        key=lambda s: (len(by_suit[s]), -sum(map(half_points, by_suit[s]))),
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


def _poignee(templates: Sequence[Action]) -> Action:
    best = max(templates, key=lambda a: a.amount or 0)
    cards = list(best.cards or ())
    size = best.amount or len(cards)
    # the Excuse is only showable with every trump held; otherwise the lowest, bouts last
    low_first = sorted(cards, key=lambda c: (c in BOUTS, rank(c)))
    shown = cards if EXCUSE in cards else low_first[:size]
    return Action("poignee", best.seat, cards=tuple(shown))


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
