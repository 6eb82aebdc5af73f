"""Early 17th-century French Tarot (Justin du Coeur): 2–6 players, 12 tricks, no auction.

Implements ``shared/rules/french_tarot_17c.md`` (decisions D-1…D-13, clarifications C-1…C-4):
follow suit, else trump; the Fool (``EX``) may be played at any time, never wins and returns
to its player, who hands one won card over — or owes it until they win a trick, and loses the
Fool itself only if they win no trick at all. A hand scores the cards taken above 12 (or every
card, as a table option) plus honours; the game goes to 50 with a unique top.

The cards and their rules live in ``early_french_tarot_cards``, the state and transitions
(legal actions, ``apply``, the simulation path ``apply_trusted``, the result) in
``early_french_tarot_fast``; this module holds the rules' surface: the deal, legality
explanations, observations, worlds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any, ClassVar, cast

from bot.engine.actions import Action
from bot.engine.cards import SUITS, TAROT_PACK
from bot.engine.errors import IllegalAction
from bot.engine.games import worlds
from bot.engine.games.early_french_tarot_cards import (
    FOOL,
    HAND_SIZE,
    HONOUR,
    MAX_PLAYERS,
    MEMBERS,
    RANK_OF,
    SUIT_OF,
    TRUMP,
    TRUMPS,
    card_to_give,
    hand_score,
    honour,
    honour_cards,
    led_suit,
    legal_cards,
    play_restriction,
    rank_of,
    suit_of,
    trick_winner,
)
from bot.engine.games.early_french_tarot_fast import (
    PLAY,
    EarlyFrenchTarotState,
    apply,
    apply_trusted,
    legal_actions,
    result,
)
from bot.engine.games.hot_paths import new_tuple
from bot.engine.restriction import PlayRestriction, with_restriction
from bot.engine.rules import OptionSpec, Rules, leaders
from bot.engine.views import DealResult, PublicView, SeatView, once_per_state

__all__ = [
    "FOOL",
    "HAND_SIZE",
    "HONOUR",
    "MAX_PLAYERS",
    "RANK_OF",
    "RULES",
    "SUIT_OF",
    "TRUMP",
    "EarlyFrenchTarotRules",
    "EarlyFrenchTarotState",
    "card_to_give",
    "hand_score",
    "history",
    "honour",
    "led_suit",
    "legal_cards",
    "play_restriction",
    "rank_of",
    "suit_of",
    "trick_winner",
]

_new = new_tuple


class EarlyFrenchTarotRules(Rules):
    """Rules of Early 17th-century French Tarot. Stateless; all methods are pure."""

    __slots__ = ()

    game_id: ClassVar[str] = "early_french_tarot"
    title: ClassVar[str] = "Early French Tarot"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 2  # french_tarot_17c D-1
    max_players: ClassVar[int] = MAX_PLAYERS
    state_type: ClassVar[type] = EarlyFrenchTarotState
    options_spec: ClassVar[Mapping[str, OptionSpec]] = {
        "target": OptionSpec(50, minimum=1),
        "every_card_scores": OptionSpec(False, kind="bool"),  # D-4 variant
    }
    action_fields: ClassVar[Mapping[str, Mapping[str, str]]] = {"play": {"card": "card"}}

    # ---- cards ---------------------------------------------------------------------
    def pack(self, players: int) -> tuple[str, ...]:
        return TAROT_PACK

    def card_sort_key(self, state: Any, card: str) -> tuple[int, int]:
        suit = suit_of(card)
        if suit == FOOL:
            return (6, 0)
        group = 5 if suit == TRUMP else SUITS.index(suit)
        return (group, -rank_of(card))

    # ---- deal ----------------------------------------------------------------------
    def new_deal(
        self, players: int, options: Mapping[str, Any], deck: Sequence[str], dealer: int
    ) -> EarlyFrenchTarotState:
        """Canonical deal (D-3): one card at a time from the dealer's left; the tail is set
        aside unseen. The dealer's left leads the first trick (§3)."""
        deck = tuple(deck)
        n = players
        dealt = HAND_SIZE * n
        # Card i goes to seat dealer+1+i mod n: seat dealer+1+k holds deck[k:dealt:n].
        hands: list[tuple[str, ...]] = [()] * n
        for k in range(n):
            hands[(dealer + 1 + k) % n] = deck[k:dealt:n]
        return _new(
            EarlyFrenchTarotState,
            (
                n,
                dealer,
                bool(options.get("every_card_scores", False)),
                tuple(hands),
                deck[dealt:],
                (dealer + 1) % n,
                (),
                (),
                (),
                ((),) * n,
                None,
                None,
                (),
            ),
        )

    #: Whose turn it is (the ``turn`` field), an item getter: asked at every step.
    to_act = cast(Any, itemgetter(5))
    # The hot paths, bound as methods straight from ``early_french_tarot_fast`` (no
    # delegating call).
    legal_actions = legal_actions
    apply = apply
    apply_trusted = apply_trusted
    result = result

    def legal_cards(self, s: EarlyFrenchTarotState) -> tuple[str, ...]:
        """Cards the seat to act may play now (empty once the hand is over)."""
        if s.turn is None:
            return ()
        return legal_cards(s.hands[s.turn], s.trick)

    def play_restriction(self, state: EarlyFrenchTarotState, seat: int) -> PlayRestriction | None:
        """Why a card ``seat`` holds is not legal now (``bot.engine.restriction``)."""
        if state.turn != seat:
            return None
        return play_restriction(state.hands[seat], state.trick)

    def checked(self, s: EarlyFrenchTarotState, a: Action) -> Action:
        """The legal action ``a`` stands for, or the ``IllegalAction`` saying why not."""
        t = s.turn
        if t is None:
            raise IllegalAction("deal_over", "this hand is over")
        if a.seat != t:
            raise IllegalAction("not_your_turn", "it is not your turn")
        if a.type != "play":
            raise IllegalAction("illegal_action", "you can only play a card")
        card = a.card or ""
        if card not in self.legal_cards(s):
            raise IllegalAction("illegal_action", self._why_illegal(s, card))
        return PLAY[t][card]

    def _why_illegal(self, s: EarlyFrenchTarotState, card: str) -> str:
        t = s.turn
        assert t is not None
        if card not in s.hands[t]:
            return "that card is not in your hand"
        led = led_suit(s.trick)
        if led is not None and any(suit_of(c) == led for c in s.hands[t]):
            return "you must follow suit (or play the Fool)"
        return "you cannot follow suit, so you must play a trump (or the Fool)"

    def sample_world(self, view: SeatView, rng: Any) -> EarlyFrenchTarotState:
        """A state showing ``view.seat`` exactly ``view``, the cards it cannot see dealt
        uniformly among the deals the play allows: a seat that did not follow is void in the
        suit led, and one that did not trump either is void in trumps too (§4.2; the Fool
        says nothing, D-6). The set-aside cards are unconstrained."""
        pub = view.public
        n, me, dealer = pub.players, view.seat, pub.dealer
        plays = [(a.seat, a.card or "") for a in pub.history]
        played: list[list[str]] = [[] for _ in range(n)]
        for t, c in plays:
            played[t].append(c)
        known = set(view.hand) | {c for _, c in plays}
        unseen = [c for c in TAROT_PACK if c not in known]
        others = [p for p in range(n) if p != me]
        caps = [pub.hand_sizes[p] for p in others] + [len(TAROT_PACK) - HAND_SIZE * n]
        forbidden: list[set[str]] = [set() for _ in caps]
        for i in range(0, len(plays), n):
            led = None
            for t, c in plays[i : i + n]:
                if c == FOOL:
                    continue
                if led is None:
                    led = SUIT_OF[c]
                elif SUIT_OF[c] != led and t != me:
                    void = forbidden[others.index(t)]
                    void |= MEMBERS[led]
                    if SUIT_OF[c] != TRUMP:
                        void |= TRUMPS
        frozen_out = [frozenset(f) for f in forbidden]
        options = {"every_card_scores": bool(pub.info.get("every_card_scores"))}
        mine = worlds.play_order_hand(view.hand, view.legal)

        def attempt(rng: random.Random) -> EarlyFrenchTarotState | None:
            parts = worlds.split_uniformly(unseen, caps, frozen_out, rng)
            dealt = {me: mine + played[me]}
            for i, p in enumerate(others):
                rng.shuffle(parts[i])
                dealt[p] = parts[i] + played[p]
            deck = [""] * len(TAROT_PACK)
            for p, cards in dealt.items():
                k = (p - dealer - 1) % n
                for j, c in enumerate(cards):
                    deck[k + n * j] = c
            deck[HAND_SIZE * n :] = parts[-1]
            state = worlds.replay(self, self.new_deal(n, options, deck, dealer), pub.history)
            return state if state is not None and self.observe(state, me) == view else None

        return worlds.draw(attempt, rng)

    def default_action(self, state: EarlyFrenchTarotState) -> Action:
        """Timeout (rules/README.md): the lowest legal card — least honour, then trumps last,
        then lowest rank, suits ♠♥♦♣; the Fool only when nothing else is legal."""
        t = state.turn
        if t is None:
            raise IllegalAction("deal_over", "this hand is over")
        cards = [c for c in self.legal_cards(state) if c != FOOL]
        if not cards:
            return Action("play", t, card=FOOL)
        order = (*SUITS, TRUMP)
        best = min(cards, key=lambda c: (honour(c), c[0] == TRUMP, rank_of(c), order.index(c[0])))
        return Action("play", t, card=best)

    def match_end(
        self,
        totals: Sequence[int],
        deals_played: int,
        options: Mapping[str, Any],
        last: DealResult,
    ) -> tuple[int, ...] | None:
        """§5.2, D-11, C-3: someone at the target with the unique highest total; no cap."""
        top = leaders(totals)
        if totals[top[0]] >= options["target"] and len(top) == 1:
            return top
        return None

    # ---- observations --------------------------------------------------------------
    @once_per_state
    def observe_public(self, state: EarlyFrenchTarotState) -> PublicView:
        """Everything played is public, so are the piles (the card a Fool's player hands
        over follows from them by D-8); hands and the set-aside cards never are."""
        s = state
        info: dict[str, Any] = {
            "taken": [len(p) for p in s.piles],
            "honours": [honour_cards(p) for p in s.piles],
            "fool_owner": s.fool_owner,
            "fool_creditor": s.fool_creditor,
            "exchanges": [list(x) for x in s.exchanges],
            "led": led_suit(s.trick),
            "set_aside": len(s.set_aside),
            "every_card_scores": s.every_card_scores,
        }
        return PublicView(
            game_id=self.game_id,
            phase="play" if s.turn is not None else "scored",
            players=s.players,
            dealer=s.dealer,
            to_act=s.turn,
            hand_sizes=tuple(len(h) for h in s.hands),
            trick=s.trick,
            tricks_won=tuple(s.trick_winners.count(p) for p in range(s.players)),
            tricks_played=len(s.tricks),
            last_trick=s.tricks[-1] if s.tricks else (),
            last_winner=s.trick_winners[-1] if s.trick_winners else None,
            info=info,
            result=self.result(s),
            history=history(s),
        )

    def observe(self, state: EarlyFrenchTarotState, seat: int) -> SeatView:
        s = state
        hand = tuple(sorted(s.hands[seat], key=lambda c: self.card_sort_key(s, c)))
        legal = self.legal_actions(s) if s.turn == seat else ()
        info = with_restriction({}, self.play_restriction(s, seat))
        return SeatView(seat=seat, hand=hand, legal=legal, public=self.observe_public(s), info=info)


def history(s: EarlyFrenchTarotState) -> tuple[Action, ...]:
    """Every card played in the hand, in order (the only actions; all public)."""
    return tuple([PLAY[t][c] for trick in (*s.tricks, s.trick) for t, c in trick])


RULES = EarlyFrenchTarotRules()
