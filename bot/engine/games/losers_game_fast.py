"""Loser's Game's transitions (``shared/rules/losers_game.md``): legal actions, ``apply``, the
simulation path ``apply_trusted`` and the deal result, over ``losers_game_state``'s tables.

The legal actions of the state last asked about are memoised (``apply`` checks membership in
them); ``apply_trusted`` is the simulation path: no legality check and events only when asked
for. ``LosersGameRules`` binds these functions as its methods, so a call costs nothing more
than a method defined in the class. ``apply`` types its ``self`` as the engine's ``Rules``
contract (``legal_actions``, ``checked``): ``losers_game`` imports this module, so this one
never imports it back, not even for a type (ARCHITECTURE §5, no import circles).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.engine.actions import Action
from bot.engine.cards import FRENCH_RANKS
from bot.engine.events import Event
from bot.engine.games.hot_paths import (
    CARDS_OF,
    NO_LEGAL,
    WITHOUT,
    LegalMemo,
    last_result,
    new_tuple,
    suit_follow,
)
from bot.engine.games.losers_game_scoring import (
    FOUR_OF_A_KIND,
    MEMBERS,
    RANK,
    RANK_CODE,
    THREE_OF_A_KIND,
    WIN_KEY,
    b_max,
    hand_size,
    score_change,
)
from bot.engine.games.losers_game_state import (
    B_MAX,
    BIDS,
    ENTRY,
    LEADER,
    PHASE,
    PLAY,
    PLAYED,
    TRICK,
    TRICKS,
    TRUMP,
    TRUMP_LEGAL,
    TURN,
    WINNERS,
    WON,
    LosersGameState,
    Phase,
    bid_actions,
    piles,
)
from bot.engine.rules import Rules
from bot.engine.trick import Play
from bot.engine.views import DealResult

_new = new_tuple
#: The memo of ``legal_actions`` (see ``hot_paths.LegalMemo``).
_last_legal: LegalMemo = NO_LEGAL
_PLAYING = Phase.PLAY


def legal_actions(self: object, state: LosersGameState) -> tuple[Action, ...]:
    global _last_legal
    last = _last_legal
    if last[0] is state:
        return last[1]
    t = state[TURN]
    phase = state[PHASE]
    if t is None:
        legal: tuple[Action, ...] = ()
    elif phase is _PLAYING:
        trick = state[TRICK]
        # §4: follow the led suit if able, else anything (a free lead: anything)
        members = MEMBERS[trick[0][1][0]] if trick else ()
        legal = suit_follow(state[4][t], PLAY[t], members)
    elif phase is Phase.TRUMP:
        legal = TRUMP_LEGAL[t]
    else:
        legal = bid_actions(t, state[B_MAX])
    _last_legal = (state, legal)
    return legal


def apply(
    self: Rules, state: LosersGameState, action: Action
) -> tuple[LosersGameState, tuple[Event, ...]]:
    last = _last_legal
    legal = last[1] if last[0] is state else self.legal_actions(state)
    amount = action.amount
    # A bid is legal[amount] (0..B_max): one identity test instead of a scan.
    if not (amount is not None and 0 <= amount < len(legal) and legal[amount] is action) and (
        action not in legal
    ):
        action = self.checked(state, action)
    if action.type == "play":
        return _play(state, action.seat, action.card, True)  # type: ignore[arg-type]
    return _step(state, action, True)


def apply_trusted(
    self: object, state: LosersGameState, action: Action, events: bool = False
) -> tuple[LosersGameState, tuple[Event, ...]]:
    """``apply`` for simulations: ``action`` must be one of ``legal_actions(state)``
    (not checked); events are built only when ``events`` is true."""
    if action.type == "play":
        return _play(state, action.seat, action.card, events)  # type: ignore[arg-type]
    return _step(state, action, events)


# ---- results -------------------------------------------------------------------
def result(self: object, state: LosersGameState) -> DealResult | None:
    if state.phase is not Phase.SCORED or state.trump is None:
        return None
    return _result_of(state)


# ---- transitions (the action is legal) ---------------------------------------------------

Step = tuple[LosersGameState, tuple[Event, ...]]


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def _step(s: LosersGameState, a: Action, ev: bool) -> Step:
    t = a.seat
    n = s.players
    out: list[Any] = list(s)
    if s.phase is Phase.TRUMP:
        suit: str = a.suit  # type: ignore[assignment]
        bound = b_max(suit, s.excess)  # C-2: B_max depends on the trump suit
        # §3.2: bidding starts at the caller's left; the caller bids last.
        out[TRUMP] = suit
        out[B_MAX] = bound
        out[PHASE] = Phase.BIDDING
        out[TURN] = (t + 1) % n
        return _new(LosersGameState, out), (
            Event("trump_chosen", t, {"suit": suit, "b_max": bound}),
        )
    amount: int = a.amount  # type: ignore[assignment]
    out[BIDS] = _set(s.bids, t, amount)
    events = (Event("bid", t, {"amount": amount}),)
    if t != s.caller:
        out[TURN] = (t + 1) % n
    else:  # §3.3: the trump caller leads trick 1.
        out[PHASE] = Phase.PLAY
        out[LEADER] = t
        out[TURN] = t
    return _new(LosersGameState, out), events


def _play(s: LosersGameState, t: int, card: str, ev: bool) -> Step:
    out: list[Any] = list(s)
    hands: list[tuple[str, ...]] = list(out[4])
    hand = hands[t]
    hands[t] = WITHOUT[len(hand)][hand.index(card)](hand)
    out[4] = tuple(hands)
    trick: tuple[Play, ...] = out[TRICK] + ENTRY[t][card]
    n: int = out[0]
    if len(trick) < n:
        out[TRICK] = trick
        out[TURN] = t + 1 if t + 1 < n else 0
        return _new(LosersGameState, out), (PLAYED[t][card] if ev else ())
    keys = WIN_KEY[out[TRUMP]][trick[0][1][0]]
    winner, best = -1, -1
    for seat, c in trick:
        k = keys[c]
        if k > best:
            winner, best = seat, k
    won = list(out[WON])
    won[winner] += 1
    tricks: tuple[tuple[Play, ...], ...] = out[TRICKS] + (trick,)
    out[TRICKS] = tricks
    out[TRICK] = ()
    out[WINNERS] = out[WINNERS] + (winner,)
    out[WON] = tuple(won)
    out[LEADER] = winner  # §3.3: the winner leads the next trick
    if len(tricks) < hand_size(n):
        out[TURN] = winner
        s = _new(LosersGameState, out)
        if not ev:
            return s, ()
        cards = CARDS_OF[n](trick)
        return s, (PLAYED[t][card][0], _new(Event, ("trick_won", winner, {"cards": cards})))
    out[PHASE] = Phase.SCORED
    out[TURN] = None
    s = _new(LosersGameState, out)
    if not ev:
        return s, ()
    res = result(None, s)
    assert res is not None
    cards = CARDS_OF[n](trick)
    return s, (
        PLAYED[t][card][0],
        _new(Event, ("trick_won", winner, {"cards": cards})),
        Event("deal_over", data={"deltas": list(res.deltas), **res.detail}),
    )


def _result(s: LosersGameState) -> DealResult:
    trump = s.trump
    assert trump is not None
    all_piles = piles(s)
    counts = [Counter([RANK_CODE[c] for c in p]) for p in all_piles]
    trump_pts = [sum(1 for c in p if c[0] == trump) for p in all_piles]
    set_pts = [
        sum(FOUR_OF_A_KIND if k == 4 else THREE_OF_A_KIND if k == 3 else 0 for k in cnt.values())
        for cnt in counts
    ]
    points = [tp + sp for tp, sp in zip(trump_pts, set_pts, strict=True)]
    bids = [b or 0 for b in s.bids]
    deltas = tuple([score_change(p, b) for p, b in zip(points, bids, strict=True)])
    detail: dict[str, Any] = {
        "trump": trump,
        "caller": s.caller,
        "bids": bids,
        "trump_points": trump_pts,
        "set_points": set_pts,
        "points": points,
        # What the points came from, for the end-of-hand sheet.
        "trumps_taken": [
            sorted((c for c in p if c[0] == trump), key=lambda c: -RANK[c]) for p in all_piles
        ],
        "sets": [
            [[r, k] for r, k in sorted(cnt.items(), key=lambda rk: -_RANK_INDEX[rk[0]]) if k >= 3]
            for cnt in counts
        ],
        "made": [p >= b for p, b in zip(points, bids, strict=True)],
        "tricks": list(s.tricks_won),
    }
    return DealResult("played", deltas, detail)


_RANK_INDEX = {r: i for i, r in enumerate(FRENCH_RANKS)}


#: ``_result`` remembered for the state last asked about (``hot_paths.last_result``).
_result_of = last_result(_result)
