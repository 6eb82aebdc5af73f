"""Loser's Game (Jonathan Leistiko): 2–6 players, a chosen trump, public bids, hidden piles.

Implements ``shared/rules/losers_game.md`` (decisions D-1…D-12, clarifications C-1…C-4).
Play goes clockwise: the next seat is ``left(s) = (s + 1) mod N``. Card data, trick rules
and scoring live in ``losers_game_scoring``. The player with the lowest cumulative total
names trump, so a deal needs the match's totals: ``deal_options`` hands them to ``new_deal``
as the extra option ``totals`` (absent means all zeros, i.e. the first hand).

Fast core: the state keeps its JSON form; each seat's ``Action`` per card, bid and trump and
its ``card_played`` events are tables built once. The legal actions of the state last asked
about are memoised (``apply`` checks membership in them); ``apply_trusted`` is the
simulation path: no legality check and events only when asked for.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, ClassVar, NamedTuple

from bot.engine.actions import Action
from bot.engine.cards import FRENCH_RANKS
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games import worlds
from bot.engine.games.hot_paths import CARDS_OF, WITHOUT, new_tuple, play_tables
from bot.engine.games.losers_game_scoring import (
    FOUR_OF_A_KIND,
    MEMBERS,
    PACK,
    RANK,
    RANK_CODE,
    SUIT_ORDER,
    THREE_OF_A_KIND,
    WIN_KEY,
    b_max,
    hand_size,
    legal_plays,
    score_change,
    trump_caller,
)
from bot.engine.restriction import PlayRestriction, some_forbidden, with_restriction
from bot.engine.rules import OptionSpec, Rules, leaders
from bot.engine.trick import Play
from bot.engine.views import DealResult, PublicView, SeatView


class Phase(StrEnum):
    TRUMP = "trump"
    BIDDING = "bidding"
    PLAY = "play"
    SCORED = "scored"


class LosersGameState(NamedTuple):
    """One hand of Loser's Game; immutable (a NamedTuple: the JSON form ``bot.engine.codec``
    stores; successors are built positionally).

    ``totals`` are the cumulative scores before this hand (public; they chose the caller).
    Trick piles are ``tricks`` grouped by ``trick_winners``: kept hidden until the hand ends.
    """

    players: int
    dealer: int
    totals: tuple[int, ...]
    caller: int
    hands: tuple[tuple[str, ...], ...]
    excess: tuple[str, ...]
    phase: Phase
    turn: int | None
    trump: str | None = None
    b_max: int = 0
    bids: tuple[int | None, ...] = ()
    leader: int = 0
    trick: tuple[Play, ...] = ()
    tricks: tuple[tuple[Play, ...], ...] = ()
    trick_winners: tuple[int, ...] = ()
    tricks_won: tuple[int, ...] = ()


_PHASE, _TURN, _TRUMP, _B_MAX, _BIDS, _LEADER = 6, 7, 8, 9, 10, 11
_TRICK, _TRICKS, _WINNERS, _WON = 12, 13, 14, 15
MAX_PLAYERS = 6

_new = new_tuple
#: The legal actions of the state last asked about, keyed by identity: ``apply`` right after
#: ``legal_actions`` (every caller's pattern) checks membership instead of recomputing.
#: Holding the state keeps its id from being reused; one tuple, so threads read it whole.
_last_legal: tuple[Any, tuple[Action, ...]] = (None, ())
#: The same for ``result`` (asked by ``apply`` for the deal-over event, then by callers).
_last_result: tuple[Any, DealResult | None] = (None, None)

_PLAY, _PLAYED, _ENTRY = play_tables(PACK, MAX_PLAYERS)
#: D-5: one of the four suits, no no-trump.
_TRUMP_LEGAL = tuple(
    tuple(Action("trump", seat, suit=suit) for suit in SUIT_ORDER) for seat in range(MAX_PLAYERS)
)
#: D-6, C-2: every bid 0..B_max, per seat and B_max (built when first needed).
_BID_LEGAL: dict[tuple[int, int], tuple[Action, ...]] = {}


def _bids(seat: int, top: int) -> tuple[Action, ...]:
    legal = _BID_LEGAL.get((seat, top))
    if legal is None:
        legal = _BID_LEGAL[seat, top] = tuple(Action("bid", seat, amount=x) for x in range(top + 1))
    return legal


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def piles(s: LosersGameState) -> list[list[str]]:
    """Each seat's trick pile (the cards of the tricks it won)."""
    out: list[list[str]] = [[] for _ in range(s.players)]
    for winner, trick in zip(s.trick_winners, s.tricks, strict=True):
        out[winner].extend(c for _, c in trick)
    return out


class LosersGameRules(Rules):
    """Rules of Loser's Game. Stateless; all methods are pure."""

    __slots__ = ()

    game_id: ClassVar[str] = "losers_game"
    title: ClassVar[str] = "Loser's Game"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 2  # losers_game D-1, C-1: 3–6, and 2 as a table option
    max_players: ClassVar[int] = 6
    state_type: ClassVar[type] = LosersGameState
    options_spec: ClassVar[Mapping[str, OptionSpec]] = {
        "target": OptionSpec(50, minimum=1),  # §5.3
        "hand_limit": OptionSpec(None, nullable=True, minimum=1),  # D-12, C-4: default off
    }
    action_fields: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "trump": {"suit": "suit"},
        "bid": {"amount": "amount"},
        "play": {"card": "card"},
    }

    # ---- cards ---------------------------------------------------------------------
    def pack(self, players: int) -> tuple[str, ...]:
        return PACK  # §1, §2: every hand uses the full 52-card pack

    def card_sort_key(self, state: Any, card: str) -> tuple[int, int]:
        trump = state.trump if isinstance(state, LosersGameState) else None
        group = 0 if card[0] == trump else 1 + SUIT_ORDER.index(card[0])
        return (group, -RANK[card])

    # ---- deal ----------------------------------------------------------------------
    def deal_options(self, options: Mapping[str, Any], totals: Sequence[int]) -> dict[str, Any]:
        return {**options, "totals": list(totals)}

    def new_deal(
        self, players: int, options: Mapping[str, Any], deck: Sequence[str], dealer: int
    ) -> LosersGameState:
        """Canonical deal (§2): ``deck[i]`` to ``left(dealer) + i mod N``; the rest face up."""
        deck = tuple(deck)
        n = players
        dealt = n * hand_size(n)
        hands: list[tuple[str, ...]] = [()] * n
        for k in range(n):  # seat dealer+1+k holds deck[k:dealt:n]
            hands[(dealer + 1 + k) % n] = deck[k:dealt:n]
        totals = tuple(options.get("totals") or (0,) * n)
        if len(totals) != n:
            raise ValueError("one cumulative total per seat is needed to pick the trump caller")
        caller = trump_caller(totals, dealer)  # §3.1, D-4, C-3
        return _new(
            LosersGameState,
            (
                n,
                dealer,
                totals,
                caller,
                tuple(hands),
                deck[dealt:],  # D-3: out of play, face up, never scored
                Phase.TRUMP,
                caller,
                None,
                0,
                (None,) * n,
                caller,
                (),
                (),
                (),
                (0,) * n,
            ),
        )

    def to_act(self, state: LosersGameState) -> int | None:
        return state.turn

    def legal_cards(self, s: LosersGameState) -> tuple[str, ...]:
        """Cards the seat to act may play now (empty outside the card play)."""
        if s.turn is None or s.phase is not Phase.PLAY:
            return ()
        return legal_plays(s.hands[s.turn], s.trick)

    def play_restriction(self, state: LosersGameState, seat: int) -> PlayRestriction | None:
        """Why a card ``seat`` holds is not legal now (``bot.engine.restriction``): only
        following suit ever forbids a card (§4)."""
        s = state
        if s.turn != seat or not s.trick:
            return None
        if not some_forbidden(s.hands[seat], self.legal_cards(s)):
            return None
        return PlayRestriction("follow", {"suit": s.trick[0][1][0]})

    def legal_actions(self, state: LosersGameState) -> tuple[Action, ...]:
        global _last_legal
        last = _last_legal
        if last[0] is state:
            return last[1]
        t = state[_TURN]
        phase = state[_PHASE]
        if t is None:
            legal: tuple[Action, ...] = ()
        elif phase is _PLAYING:
            # (Plain loops: cheaper than comprehensions, which are calls in Python 3.11.)
            hand = state[4][t]
            play = _PLAY[t]
            trick = state[_TRICK]
            out: list[Action] = []
            if trick:  # §4: follow the led suit if able, else anything
                members = MEMBERS[trick[0][1][0]]
                for c in hand:
                    if c in members:
                        out.append(play[c])
            if not out:
                for c in hand:
                    out.append(play[c])
            legal = tuple(out)
        elif phase is Phase.TRUMP:
            legal = _TRUMP_LEGAL[t]
        else:
            legal = _bids(t, state[_B_MAX])
        _last_legal = (state, legal)
        return legal

    # ---- transitions ---------------------------------------------------------------
    def apply(
        self, state: LosersGameState, action: Action
    ) -> tuple[LosersGameState, tuple[Event, ...]]:
        last = _last_legal
        legal = last[1] if last[0] is state else self.legal_actions(state)
        amount = action.amount
        # A bid is legal[amount] (0..B_max): one identity test instead of a scan.
        if not (amount is not None and 0 <= amount < len(legal) and legal[amount] is action) and (
            action not in legal
        ):
            action = self._checked(state, action)
        if action.type == "play":
            return _play(state, action.seat, action.card, True)  # type: ignore[arg-type]
        return _step(state, action, True)

    def apply_trusted(
        self, state: LosersGameState, action: Action, events: bool = False
    ) -> tuple[LosersGameState, tuple[Event, ...]]:
        """``apply`` for simulations: ``action`` must be one of ``legal_actions(state)``
        (not checked); events are built only when ``events`` is true."""
        if action.type == "play":
            return _play(state, action.seat, action.card, events)  # type: ignore[arg-type]
        return _step(state, action, events)

    def _checked(self, s: LosersGameState, a: Action) -> Action:
        """The legal action ``a`` stands for, or the ``IllegalAction`` saying why not."""
        t = s.turn
        if t is None:
            raise IllegalAction("deal_over", "this hand is over")
        if a.seat != t:
            raise IllegalAction("not_your_turn", f"it is seat {t}'s turn")
        expected = {Phase.TRUMP: "trump", Phase.BIDDING: "bid", Phase.PLAY: "play"}[s.phase]
        if a.type != expected:
            raise IllegalAction("illegal_action", f"a {a.type} is not possible now")
        if s.phase is Phase.TRUMP:
            if a.suit not in SUIT_ORDER:
                raise IllegalAction("illegal_action", "name one of the suits S, H, D or C")
            return _TRUMP_LEGAL[t][SUIT_ORDER.index(a.suit)]
        if s.phase is Phase.BIDDING:
            amount = a.amount
            if amount is None or not 0 <= amount <= s.b_max:
                raise IllegalAction("illegal_action", f"bid a whole number from 0 to {s.b_max}")
            return _bids(t, s.b_max)[amount]
        card = a.card
        if card is None or card not in self.legal_cards(s):
            if card not in s.hands[t]:
                raise IllegalAction("illegal_action", f"you do not hold {card}")
            raise IllegalAction("illegal_action", "you must follow the suit led")
        return _PLAY[t][card]

    # ---- results -------------------------------------------------------------------
    def result(self, state: LosersGameState) -> DealResult | None:
        if state.phase is not Phase.SCORED or state.trump is None:
            return None
        global _last_result
        last = _last_result
        if last[0] is state:
            return last[1]
        res = _result(state)
        _last_result = (state, res)
        return res

    def sample_world(self, view: SeatView, rng: Any) -> LosersGameState:
        """A state showing ``view.seat`` exactly ``view``, the other hands dealt uniformly
        among the deals the play allows: a seat that did not follow is void in the suit led
        (§4; nothing else is forced). The excess is face up (D-3)."""
        pub = view.public
        n, me, dealer = pub.players, view.seat, pub.dealer
        info = pub.info
        plays = [(a.seat, a.card or "") for a in pub.history if a.type == "play"]
        played: list[list[str]] = [[] for _ in range(n)]
        for t, c in plays:
            played[t].append(c)
        excess = list(info["excess"])
        known = set(view.hand) | {c for _, c in plays} | set(excess)
        unseen = [c for c in PACK if c not in known]
        others = [p for p in range(n) if p != me]
        caps = [pub.hand_sizes[p] for p in others]
        forbidden: list[set[str]] = [set() for _ in caps]
        for i in range(0, len(plays), n):
            trick = plays[i : i + n]
            led = trick[0][1][0]
            for t, c in trick[1:]:
                if c[0] != led and t != me:
                    forbidden[others.index(t)] |= MEMBERS[led]
        frozen_out = [frozenset(f) for f in forbidden]
        options = {"totals": list(info["totals"])}
        mine = worlds.play_order_hand(view.hand, view.legal)
        h = hand_size(n)

        def attempt(rng: random.Random) -> LosersGameState | None:
            parts = worlds.split_uniformly(unseen, caps, frozen_out, rng)
            dealt = {me: mine + played[me]}
            for i, p in enumerate(others):
                rng.shuffle(parts[i])
                dealt[p] = parts[i] + played[p]
            deck = [""] * (n * h)
            for p, cards in dealt.items():
                k = (p - dealer - 1) % n
                for j, c in enumerate(cards):
                    deck[k + n * j] = c
            state = worlds.replay(
                self, self.new_deal(n, options, deck + excess, dealer), pub.history
            )
            return state if state is not None and self.observe(state, me) == view else None

        return worlds.draw(attempt, rng)

    def default_action(self, state: LosersGameState) -> Action:
        """Timeouts (rules README): ♠ as trump, a bid of 0, the lowest legal card (♠♥♦♣)."""
        s = state
        t = s.turn
        if t is None:
            raise IllegalAction("deal_over", "this hand is over")
        if s.phase is Phase.TRUMP:
            return Action("trump", t, suit=SUIT_ORDER[0])
        if s.phase is Phase.BIDDING:
            return Action("bid", t, amount=0)
        best = min(self.legal_cards(s), key=lambda c: (RANK[c], SUIT_ORDER.index(c[0])))
        return Action("play", t, card=best)

    # ---- match ---------------------------------------------------------------------
    def match_end(
        self,
        totals: Sequence[int],
        deals_played: int,
        options: Mapping[str, Any],
        last: DealResult,
    ) -> tuple[int, ...] | None:
        top = leaders(totals)
        # §5.3, D-8, C-4: a unique top at or above the target first, then the hand limit.
        if totals[top[0]] >= options["target"] and len(top) == 1:
            return top
        limit = options.get("hand_limit")
        if limit is not None and deals_played >= limit:
            return top  # ties at the limit are co-winners
        return None

    # ---- observations --------------------------------------------------------------
    def observe_public(self, state: LosersGameState) -> PublicView:
        s = state
        done = s.phase is Phase.SCORED
        info: dict[str, Any] = {
            "totals": list(s.totals),
            "hand_size": hand_size(s.players),  # cards each = tricks per hand (§2)
            "caller": s.caller,
            "excess": sorted(s.excess),  # D-3: face up
            "trump": s.trump,
            "b_max": s.b_max if s.trump is not None else None,
            # §3.2: bids are public as they are made, from the caller's left.
            "bids": [
                [p, s.bids[p]]
                for p in ((s.caller + k) % s.players for k in range(1, s.players + 1))
                if s.bids[p] is not None
            ],
            "leader": s.leader if s.phase is Phase.PLAY else None,
            # D-9: piles stay face down (only trick counts show) until the hand ends.
            "piles": [sorted(p) for p in piles(s)] if done else None,
        }
        # §3.3: the just-completed trick may be shown until the next lead.
        shown = s.tricks[-1] if s.tricks and not s.trick else ()
        return PublicView(
            game_id=self.game_id,
            phase=str(s.phase),
            players=s.players,
            dealer=s.dealer,
            to_act=s.turn,
            hand_sizes=tuple(len(h) for h in s.hands),
            trick=s.trick,
            tricks_won=s.tricks_won,
            tricks_played=len(s.tricks),
            last_trick=shown,
            last_winner=s.trick_winners[-1] if shown else None,
            info=info,
            result=self.result(s),
            history=history(s),
        )

    def observe(self, state: LosersGameState, seat: int) -> SeatView:
        s = state
        hand = tuple(sorted(s.hands[seat], key=lambda c: self.card_sort_key(s, c)))
        legal = self.legal_actions(s) if s.turn == seat else ()
        # D-9: not even the owner may review its pile, so the seat's info holds nothing more
        # than why a held card may not be played.
        info = with_restriction({}, self.play_restriction(s, seat))
        return SeatView(seat=seat, hand=hand, legal=legal, public=self.observe_public(s), info=info)


_PLAYING = Phase.PLAY


def history(s: LosersGameState) -> tuple[Action, ...]:
    """Every action of the hand in order: the trump named, the bids from the caller's left
    (public, §3.2), then every card played (seen as played; D-9 hides the piles, not the
    play)."""
    out: list[Action] = []
    if s.trump is not None:
        out.append(_TRUMP_LEGAL[s.caller][SUIT_ORDER.index(s.trump)])
    n = s.players
    for k in range(1, n + 1):
        seat = (s.caller + k) % n
        bid = s.bids[seat]
        if bid is not None:
            out.append(_bids(seat, bid)[bid])
    out += [_PLAY[t][c] for trick in (*s.tricks, s.trick) for t, c in trick]
    return tuple(out)


# ---- transitions (the action is legal) ---------------------------------------------------

Step = tuple[LosersGameState, tuple[Event, ...]]


def _step(s: LosersGameState, a: Action, ev: bool) -> Step:
    t = a.seat
    n = s.players
    out: list[Any] = list(s)
    if s.phase is Phase.TRUMP:
        suit: str = a.suit  # type: ignore[assignment]
        bound = b_max(suit, s.excess)  # C-2: B_max depends on the trump suit
        # §3.2: bidding starts at the caller's left; the caller bids last.
        out[_TRUMP] = suit
        out[_B_MAX] = bound
        out[_PHASE] = Phase.BIDDING
        out[_TURN] = (t + 1) % n
        return _new(LosersGameState, out), (
            Event("trump_chosen", t, {"suit": suit, "b_max": bound}),
        )
    amount: int = a.amount  # type: ignore[assignment]
    out[_BIDS] = _set(s.bids, t, amount)
    events = (Event("bid", t, {"amount": amount}),)
    if t != s.caller:
        out[_TURN] = (t + 1) % n
    else:  # §3.3: the trump caller leads trick 1.
        out[_PHASE] = Phase.PLAY
        out[_LEADER] = t
        out[_TURN] = t
    return _new(LosersGameState, out), events


def _play(s: LosersGameState, t: int, card: str, ev: bool) -> Step:
    out: list[Any] = list(s)
    hands: list[tuple[str, ...]] = list(out[4])
    hand = hands[t]
    hands[t] = WITHOUT[len(hand)][hand.index(card)](hand)
    out[4] = tuple(hands)
    trick: tuple[Play, ...] = out[_TRICK] + _ENTRY[t][card]
    n: int = out[0]
    if len(trick) < n:
        out[_TRICK] = trick
        out[_TURN] = t + 1 if t + 1 < n else 0
        return _new(LosersGameState, out), (_PLAYED[t][card] if ev else ())
    keys = WIN_KEY[out[_TRUMP]][trick[0][1][0]]
    winner, best = -1, -1
    for seat, c in trick:
        k = keys[c]
        if k > best:
            winner, best = seat, k
    won = list(out[_WON])
    won[winner] += 1
    tricks: tuple[tuple[Play, ...], ...] = out[_TRICKS] + (trick,)
    out[_TRICKS] = tricks
    out[_TRICK] = ()
    out[_WINNERS] = out[_WINNERS] + (winner,)
    out[_WON] = tuple(won)
    out[_LEADER] = winner  # §3.3: the winner leads the next trick
    if len(tricks) < hand_size(n):
        out[_TURN] = winner
        s = _new(LosersGameState, out)
        if not ev:
            return s, ()
        cards = CARDS_OF[n](trick)
        return s, (_PLAYED[t][card][0], _new(Event, ("trick_won", winner, {"cards": cards})))
    out[_PHASE] = Phase.SCORED
    out[_TURN] = None
    s = _new(LosersGameState, out)
    if not ev:
        return s, ()
    res = RULES.result(s)
    assert res is not None
    cards = CARDS_OF[n](trick)
    return s, (
        _PLAYED[t][card][0],
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

RULES = LosersGameRules()
