"""Loser's Game (Jonathan Leistiko): 2–6 players, a chosen trump, public bids, hidden piles.

Implements ``shared/rules/losers_game.md`` (decisions D-1…D-12, clarifications C-1…C-4).
Play goes clockwise: the next seat is ``left(s) = (s + 1) mod N``. Card data, trick rules
and scoring live in ``losers_game_scoring``, the state and its tables in ``losers_game_state``,
the transitions and the deal result in ``losers_game_fast``. The player with the lowest
cumulative total names trump, so a deal needs the match's totals: ``deal_options`` hands them
to ``new_deal`` as the extra option ``totals`` (absent means all zeros, i.e. the first hand).

Fast core: the state keeps its JSON form; each seat's ``Action`` per card, bid and trump and
its ``card_played`` events are tables built once. The legal actions of the state last asked
about are memoised (``apply`` checks membership in them); ``apply_trusted`` is the
simulation path: no legality check and events only when asked for. ``legal_actions``,
``apply``, ``apply_trusted`` and ``result`` are bound from ``losers_game_fast``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.engine.actions import Action
from bot.engine.errors import IllegalAction
from bot.engine.games import worlds
from bot.engine.games.hot_paths import new_tuple
from bot.engine.games.losers_game_fast import apply, apply_trusted, legal_actions, result
from bot.engine.games.losers_game_scoring import (
    MEMBERS,
    PACK,
    RANK,
    SUIT_ORDER,
    hand_size,
    legal_plays,
    trump_caller,
)
from bot.engine.games.losers_game_state import (
    PLAY,
    TRUMP_LEGAL,
    LosersGameState,
    Phase,
    bid_actions,
    piles,
)
from bot.engine.restriction import PlayRestriction, some_forbidden, with_restriction
from bot.engine.rules import OptionSpec, Rules, leaders
from bot.engine.views import DealResult, PublicView, SeatView, once_per_state

_new = new_tuple


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

    # The hot paths, bound as methods straight from ``losers_game_fast`` (no delegating call).
    legal_actions = legal_actions
    apply = apply
    apply_trusted = apply_trusted
    result = result

    # ---- transitions ---------------------------------------------------------------
    def checked(self, s: LosersGameState, a: Action) -> Action:
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
            return TRUMP_LEGAL[t][SUIT_ORDER.index(a.suit)]
        if s.phase is Phase.BIDDING:
            amount = a.amount
            if amount is None or not 0 <= amount <= s.b_max:
                raise IllegalAction("illegal_action", f"bid a whole number from 0 to {s.b_max}")
            return bid_actions(t, s.b_max)[amount]
        card = a.card
        if card is None or card not in self.legal_cards(s):
            if card not in s.hands[t]:
                raise IllegalAction("illegal_action", f"you do not hold {card}")
            raise IllegalAction("illegal_action", "you must follow the suit led")
        return PLAY[t][card]

    # ---- search --------------------------------------------------------------------
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
    @once_per_state
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


def history(s: LosersGameState) -> tuple[Action, ...]:
    """Every action of the hand in order: the trump named, the bids from the caller's left
    (public, §3.2), then every card played (seen as played; D-9 hides the piles, not the
    play)."""
    out: list[Action] = []
    if s.trump is not None:
        out.append(TRUMP_LEGAL[s.caller][SUIT_ORDER.index(s.trump)])
    n = s.players
    for k in range(1, n + 1):
        seat = (s.caller + k) % n
        bid = s.bids[seat]
        if bid is not None:
            out.append(bid_actions(seat, bid)[bid])
    out += [PLAY[t][c] for trick in (*s.tricks, s.trick) for t, c in trick]
    return tuple(out)


RULES = LosersGameRules()
