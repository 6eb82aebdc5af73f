"""Loser's Game (Jonathan Leistiko): 2–6 players, a chosen trump, public bids, hidden piles.

Implements ``shared/rules/losers_game.md`` (decisions D-1…D-12, clarifications C-1…C-4).
Play goes clockwise: the next seat is ``left(s) = (s + 1) mod N``. Card data, trick rules
and scoring live in ``losers_game_scoring``. The player with the lowest cumulative total
names trump, so a deal needs the match's totals: ``deal_options`` hands them to ``new_deal``
as the extra option ``totals`` (absent means all zeros, i.e. the first hand).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, ClassVar, NamedTuple

from bot.engine.actions import Action
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games.losers_game_scoring import (
    PACK,
    RANK,
    SUIT_ORDER,
    b_max,
    hand_size,
    legal_plays,
    points_taken,
    score_change,
    sets_in,
    trick_winner,
    trump_caller,
)
from bot.engine.restriction import PlayRestriction, some_forbidden, with_restriction
from bot.engine.rules import OptionSpec, Rules, leaders
from bot.engine.trick import Play, remove_card
from bot.engine.views import DealResult, PublicView, SeatView


class Phase(StrEnum):
    TRUMP = "trump"
    BIDDING = "bidding"
    PLAY = "play"
    SCORED = "scored"


class LosersGameState(NamedTuple):
    """One hand of Loser's Game; immutable (``_replace`` is cheap, see La Morte's state).

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
        h = hand_size(players)
        hands: list[list[str]] = [[] for _ in range(players)]
        for i in range(players * h):
            hands[(dealer + 1 + i % players) % players].append(deck[i])
        totals = tuple(options.get("totals") or (0,) * players)
        if len(totals) != players:
            raise ValueError("one cumulative total per seat is needed to pick the trump caller")
        caller = trump_caller(totals, dealer)  # §3.1, D-4, C-3
        return LosersGameState(
            players=players,
            dealer=dealer,
            totals=totals,
            caller=caller,
            hands=tuple(tuple(hand) for hand in hands),
            excess=tuple(deck[players * h :]),  # D-3: out of play, face up, never scored
            phase=Phase.TRUMP,
            turn=caller,
            bids=(None,) * players,
            leader=caller,
            tricks_won=(0,) * players,
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
        s = state
        t = s.turn
        if t is None:
            return ()
        if s.phase is Phase.TRUMP:  # D-5: one of the four suits, no no-trump
            return tuple(Action("trump", t, suit=suit) for suit in SUIT_ORDER)
        if s.phase is Phase.BIDDING:  # D-6, C-2: every integer 0..B_max
            return tuple(Action("bid", t, amount=x) for x in range(s.b_max + 1))
        return tuple(Action("play", t, card=c) for c in self.legal_cards(s))

    # ---- transitions ---------------------------------------------------------------
    def apply(
        self, state: LosersGameState, action: Action
    ) -> tuple[LosersGameState, tuple[Event, ...]]:
        s = state
        t = s.turn
        if t is None:
            raise IllegalAction("deal_over", "this hand is over")
        if action.seat != t:
            raise IllegalAction("not_your_turn", f"it is seat {t}'s turn")
        expected = {Phase.TRUMP: "trump", Phase.BIDDING: "bid", Phase.PLAY: "play"}[s.phase]
        if action.type != expected:
            raise IllegalAction("illegal_action", f"a {action.type} is not possible now")
        if s.phase is Phase.TRUMP:
            return self._trump(s, t, action.suit)
        if s.phase is Phase.BIDDING:
            return self._bid(s, t, action.amount)
        return self._play(s, t, action.card)

    def _trump(
        self, s: LosersGameState, t: int, suit: str | None
    ) -> tuple[LosersGameState, tuple[Event, ...]]:
        if suit not in SUIT_ORDER:
            raise IllegalAction("illegal_action", "name one of the suits S, H, D or C")
        bound = b_max(suit, s.excess)  # C-2: B_max depends on the trump suit
        # §3.2: bidding starts at the caller's left; the caller bids last.
        s = s._replace(trump=suit, b_max=bound, phase=Phase.BIDDING, turn=(t + 1) % s.players)
        return s, (Event("trump_chosen", t, {"suit": suit, "b_max": bound}),)

    def _bid(
        self, s: LosersGameState, t: int, amount: int | None
    ) -> tuple[LosersGameState, tuple[Event, ...]]:
        if amount is None or not 0 <= amount <= s.b_max:
            raise IllegalAction("illegal_action", f"bid a whole number from 0 to {s.b_max}")
        s = s._replace(bids=_set(s.bids, t, amount))
        events = (Event("bid", t, {"amount": amount}),)
        if t != s.caller:
            return s._replace(turn=(t + 1) % s.players), events
        # §3.3: the trump caller leads trick 1.
        return s._replace(phase=Phase.PLAY, leader=t, turn=t), events

    def _play(
        self, s: LosersGameState, t: int, card: str | None
    ) -> tuple[LosersGameState, tuple[Event, ...]]:
        if card is None or card not in self.legal_cards(s):
            if card not in s.hands[t]:
                raise IllegalAction("illegal_action", f"you do not hold {card}")
            raise IllegalAction("illegal_action", "you must follow the suit led")
        hands = _set(s.hands, t, remove_card(s.hands[t], card))
        trick = (*s.trick, (t, card))
        events: list[Event] = [Event("card_played", t, {"card": card})]
        if len(trick) < s.players:
            return s._replace(hands=hands, trick=trick, turn=(t + 1) % s.players), tuple(events)
        assert s.trump is not None
        winner = trick_winner(trick, s.trump)
        events.append(Event("trick_won", winner, {"cards": [c for _, c in trick]}))
        s = s._replace(
            hands=hands,
            trick=(),
            tricks=(*s.tricks, trick),
            trick_winners=(*s.trick_winners, winner),
            tricks_won=_set(s.tricks_won, winner, s.tricks_won[winner] + 1),
            leader=winner,  # §3.3: the winner leads the next trick
            turn=winner,
        )
        if len(s.tricks) < hand_size(s.players):
            return s, tuple(events)
        s = s._replace(phase=Phase.SCORED, turn=None)
        res = self.result(s)
        assert res is not None
        events.append(Event("deal_over", data={"deltas": list(res.deltas), **res.detail}))
        return s, tuple(events)

    # ---- results -------------------------------------------------------------------
    def result(self, state: LosersGameState) -> DealResult | None:
        s = state
        if s.phase is not Phase.SCORED or s.trump is None:
            return None
        trump_pts: list[int] = []
        set_pts: list[int] = []
        all_piles = piles(s)
        for pile in all_piles:
            tp, sp = points_taken(pile, s.trump)
            trump_pts.append(tp)
            set_pts.append(sp)
        points = [tp + sp for tp, sp in zip(trump_pts, set_pts, strict=True)]
        bids = [b or 0 for b in s.bids]
        deltas = tuple(score_change(p, b) for p, b in zip(points, bids, strict=True))
        detail: dict[str, Any] = {
            "trump": s.trump,
            "caller": s.caller,
            "bids": bids,
            "trump_points": trump_pts,
            "set_points": set_pts,
            "points": points,
            # What the points came from, for the end-of-hand sheet.
            "trumps_taken": [
                sorted((c for c in p if c[0] == s.trump), key=lambda c: -RANK[c]) for p in all_piles
            ],
            "sets": [[list(rk) for rk in sets_in(p)] for p in all_piles],
            "made": [p >= b for p, b in zip(points, bids, strict=True)],
            "tricks": list(s.tricks_won),
        }
        return DealResult("played", deltas, detail)

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
        )

    def observe(self, state: LosersGameState, seat: int) -> SeatView:
        s = state
        hand = tuple(sorted(s.hands[seat], key=lambda c: self.card_sort_key(s, c)))
        legal = self.legal_actions(s) if s.turn == seat else ()
        # D-9: not even the owner may review its pile, so the seat's info holds nothing more
        # than why a held card may not be played.
        info = with_restriction({}, self.play_restriction(s, seat))
        return SeatView(seat=seat, hand=hand, legal=legal, public=self.observe_public(s), info=info)


RULES = LosersGameRules()
