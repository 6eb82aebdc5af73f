"""Early 17th-century French Tarot (Justin du Coeur): 2–6 players, 12 tricks, no auction.

Implements ``shared/rules/french_tarot_17c.md`` (decisions D-1…D-13, clarifications C-1…C-4):
follow suit, else trump; the Fool (``EX``) may be played at any time, never wins and returns
to its player, who hands one won card over — or owes it until they win a trick, and loses the
Fool itself only if they win no trick at all. A hand scores the cards taken above 12 (or every
card, as a table option) plus honours; the game goes to 50 with a unique top.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, SUITS, TAROT_PACK, TAROT_RANKS
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.restriction import PlayRestriction, some_forbidden, with_restriction
from bot.engine.rules import OptionSpec, Rules, leaders
from bot.engine.trick import Play, remove_card
from bot.engine.views import DealResult, PublicView, SeatView

FOOL = EXCUSE
HAND_SIZE = 12  # french_tarot_17c §2: 12 cards each, 12 tricks
TRUMP = "T"

#: Honour points of the cards that score (§1); every other card is worth 0 (D-5, D-13).
HONOUR: dict[str, int] = {
    FOOL: 5,
    "T21": 4,  # the World
    "T1": 4,  # the Magician
    **{s + r: v for s in SUITS for r, v in (("K", 4), ("Q", 3), ("C", 2), ("J", 1))},
}


def suit_of(card: str) -> str:
    """``S``/``H``/``D``/``C``, ``T`` for trumps, ``EX`` for the Fool (no suit, D-6)."""
    return FOOL if card == FOOL else card[0]


def rank_of(card: str) -> int:
    """Strength within a suit: Ace low … King high (§1); trumps by number."""
    if card[0] == TRUMP:
        return int(card[1:])
    return TAROT_RANKS.index(card[1:])


def honour(card: str) -> int:
    return HONOUR.get(card, 0)


def led_suit(trick: Sequence[Play]) -> str | None:
    """The suit to follow: the first card's, or the next card's after a Fool lead (D-6)."""
    return next((suit_of(c) for _, c in trick if c != FOOL), None)


def trick_winner(trick: Sequence[Play]) -> int:
    """Highest trump, else highest card of the led suit; the Fool never wins (§4.3, C-4)."""
    led = led_suit(trick)
    best_seat, best = -1, (-1, -1)
    for seat, card in trick:
        suit = suit_of(card)
        if suit == TRUMP:
            key = (1, rank_of(card))
        elif suit == led:
            key = (0, rank_of(card))
        else:
            continue
        if key > best:
            best_seat, best = seat, key
    return best_seat


def legal_cards(hand: Sequence[str], trick: Sequence[Play]) -> tuple[str, ...]:
    """Cards ``hand`` may play to ``trick`` (§4.2): follow, else trump, else anything.

    The Fool is always an extra option (D-6); there is no obligation to overtrump (D-7).
    """
    led = led_suit(trick)
    if led is None:
        return tuple(hand)
    fool = (FOOL,) if FOOL in hand else ()
    follow = tuple(c for c in hand if suit_of(c) == led)
    if follow:
        return follow + fool
    trumps = tuple(c for c in hand if suit_of(c) == TRUMP)
    if trumps:
        return trumps + fool
    return tuple(hand)


def play_restriction(hand: Sequence[str], trick: Sequence[Play]) -> PlayRestriction | None:
    """Why some card of ``hand`` may not be played to ``trick`` (§4.2), or ``None``."""
    legal = legal_cards(hand, trick)
    led = led_suit(trick)
    if led is None or not some_forbidden(hand, legal):
        return None
    if any(suit_of(c) == led for c in hand):
        return PlayRestriction("follow", {"suit": led})
    return PlayRestriction("trump", {"led": led})


def card_to_give(pile: Sequence[str]) -> str:
    """The card the Fool's player hands over (D-8, C-1, C-2): lowest honour value, then the
    earliest won (piles are kept in the order won, each trick in play order); never the Fool.
    """
    candidates = [(honour(c), i, c) for i, c in enumerate(pile) if c != FOOL]
    return min(candidates)[2]


def _honours(pile: Sequence[str]) -> list[str]:
    """The honours in a pile, most valuable first (suits in pack order)."""
    return sorted((c for c in pile if honour(c)), key=lambda c: (-honour(c), TAROT_PACK.index(c)))


def hand_score(pile: Sequence[str], every_card_scores: bool) -> tuple[int, int, int]:
    """``(card points, honour points, hand score)`` of a final pile (§5.1, D-4, D-5)."""
    count = len(pile)
    card_points = count if every_card_scores else max(0, count - HAND_SIZE)
    honours = sum(honour(c) for c in pile)
    return card_points, honours, card_points + honours


class EarlyFrenchTarotState(NamedTuple):
    """One hand. Immutable; ``apply`` returns a new one (a NamedTuple, cheap to ``_replace``).

    ``piles`` holds the cards each seat owns, in the order won (the order D-8 needs); the
    Fool sits in its player's pile from the end of its trick. ``fool_owner`` is whoever played
    it and ``fool_creditor`` the seat still owed a card (D-10), if any. ``exchanges`` lists
    every card handed over as ``(giver, receiver, card, trick number, kind)``.
    """

    players: int
    dealer: int
    every_card_scores: bool
    hands: tuple[tuple[str, ...], ...]
    set_aside: tuple[str, ...]
    turn: int | None
    trick: tuple[Play, ...] = ()
    tricks: tuple[tuple[Play, ...], ...] = ()
    trick_winners: tuple[int, ...] = ()
    piles: tuple[tuple[str, ...], ...] = ()
    fool_owner: int | None = None
    fool_creditor: int | None = None
    exchanges: tuple[tuple[int, int, str, int, str], ...] = ()


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def _move(
    piles: tuple[tuple[str, ...], ...], giver: int, receiver: int, card: str
) -> tuple[tuple[str, ...], ...]:
    piles = _set(piles, giver, remove_card(piles[giver], card))
    return _set(piles, receiver, (*piles[receiver], card))


class EarlyFrenchTarotRules(Rules):
    """Rules of Early 17th-century French Tarot. Stateless; all methods are pure."""

    game_id: ClassVar[str] = "early_french_tarot"
    title: ClassVar[str] = "Early French Tarot"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 2  # french_tarot_17c D-1
    max_players: ClassVar[int] = 6
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
        hands: list[list[str]] = [[] for _ in range(players)]
        dealt = HAND_SIZE * players
        for i in range(dealt):
            hands[(dealer + 1 + i % players) % players].append(deck[i])
        return EarlyFrenchTarotState(
            players=players,
            dealer=dealer,
            every_card_scores=bool(options.get("every_card_scores", False)),
            hands=tuple(tuple(h) for h in hands),
            set_aside=tuple(deck[dealt:]),
            turn=(dealer + 1) % players,
            piles=((),) * players,
        )

    def to_act(self, state: EarlyFrenchTarotState) -> int | None:
        return state.turn

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

    def legal_actions(self, state: EarlyFrenchTarotState) -> tuple[Action, ...]:
        t = state.turn
        if t is None:
            return ()
        return tuple(Action("play", t, card=c) for c in self.legal_cards(state))

    def apply(
        self, state: EarlyFrenchTarotState, action: Action
    ) -> tuple[EarlyFrenchTarotState, tuple[Event, ...]]:
        s = state
        t = s.turn
        if t is None:
            raise IllegalAction("deal_over", "this hand is over")
        if action.seat != t:
            raise IllegalAction("not_your_turn", "it is not your turn")
        if action.type != "play":
            raise IllegalAction("illegal_action", "you can only play a card")
        card = action.card or ""
        if card not in self.legal_cards(s):
            raise IllegalAction("illegal_action", self._why_illegal(s, card))
        hands = _set(s.hands, t, remove_card(s.hands[t], card))
        trick = (*s.trick, (t, card))
        events: list[Event] = [Event("card_played", t, {"card": card})]
        if len(trick) < s.players:
            s = s._replace(hands=hands, trick=trick, turn=(t + 1) % s.players)
            return s, tuple(events)
        return self._collect(s._replace(hands=hands, trick=trick), events)

    def _collect(
        self, s: EarlyFrenchTarotState, events: list[Event]
    ) -> tuple[EarlyFrenchTarotState, tuple[Event, ...]]:
        """Resolve a complete trick: the winner takes it, then the Fool is settled (§4.4)."""
        trick = s.trick
        number = len(s.tricks) + 1
        winner = trick_winner(trick)
        piles = s.piles
        won = tuple(c for _, c in trick if c != FOOL)
        piles = _set(piles, winner, piles[winner] + won)
        events.append(Event("trick_won", winner, {"cards": [c for _, c in trick], "trick": number}))
        owner, creditor, exchanges = s.fool_owner, s.fool_creditor, s.exchanges
        fool_seat = next((p for p, c in trick if c == FOOL), None)
        if fool_seat is not None:
            owner = fool_seat
            had_cards = bool(piles[owner])
            piles = _set(piles, owner, (*piles[owner], FOOL))  # the Fool returns (D-9)
            if had_cards:
                give = card_to_give(piles[owner])
                piles = _move(piles, owner, winner, give)
                exchanges = (*exchanges, (owner, winner, give, number, "exchange"))
                events.append(Event("fool_exchange", owner, {"to": winner, "card": give}))
            else:  # D-10: nothing won yet, so the card is owed to this trick's winner
                creditor = winner
                events.append(Event("fool_debt", owner, {"to": winner}))
        elif creditor is not None and winner == owner:
            assert owner is not None
            give = card_to_give(piles[owner])  # C-2: right after the debtor's first trick
            piles = _move(piles, owner, creditor, give)
            exchanges = (*exchanges, (owner, creditor, give, number, "debt_paid"))
            events.append(Event("fool_debt_paid", owner, {"to": creditor, "card": give}))
            creditor = None
        s = s._replace(
            trick=(),
            tricks=(*s.tricks, trick),
            trick_winners=(*s.trick_winners, winner),
            piles=piles,
            fool_owner=owner,
            fool_creditor=creditor,
            exchanges=exchanges,
            turn=winner,
        )
        if any(s.hands):  # 12 tricks in a real deal
            return s, tuple(events)
        if s.fool_creditor is not None and s.fool_owner is not None:
            # D-10, C-2: the debtor won no trick at all, so the Fool itself is surrendered.
            debtor, creditor = s.fool_owner, s.fool_creditor
            s = s._replace(
                piles=_move(s.piles, debtor, creditor, FOOL),
                fool_creditor=None,
                exchanges=(*s.exchanges, (debtor, creditor, FOOL, len(s.tricks), "surrender")),
            )
            events.append(Event("fool_surrendered", debtor, {"to": creditor, "card": FOOL}))
        s = s._replace(turn=None)
        res = self.result(s)
        assert res is not None
        events.append(Event("deal_over", data={"deltas": list(res.deltas)}))
        return s, tuple(events)

    def _why_illegal(self, s: EarlyFrenchTarotState, card: str) -> str:
        t = s.turn
        assert t is not None
        if card not in s.hands[t]:
            return "that card is not in your hand"
        led = led_suit(s.trick)
        if led is not None and any(suit_of(c) == led for c in s.hands[t]):
            return "you must follow suit (or play the Fool)"
        return "you cannot follow suit, so you must play a trump (or the Fool)"

    # ---- results -------------------------------------------------------------------
    def result(self, state: EarlyFrenchTarotState) -> DealResult | None:
        s = state
        if s.turn is not None:
            return None
        sheet = [hand_score(p, s.every_card_scores) for p in s.piles]
        detail = {
            "cards": [len(p) for p in s.piles],
            "card_points": [x[0] for x in sheet],
            "honour_points": [x[1] for x in sheet],
            "honours": [_honours(p) for p in s.piles],
            "tricks": [s.trick_winners.count(p) for p in range(s.players)],
            "every_card_scores": s.every_card_scores,
            "exchanges": [list(x) for x in s.exchanges],
        }
        return DealResult("played", tuple(x[2] for x in sheet), detail)

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
    def observe_public(self, state: EarlyFrenchTarotState) -> PublicView:
        """Everything played is public, so are the piles (the card a Fool's player hands
        over follows from them by D-8); hands and the set-aside cards never are."""
        s = state
        info: dict[str, Any] = {
            "taken": [len(p) for p in s.piles],
            "honours": [_honours(p) for p in s.piles],
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
        )

    def observe(self, state: EarlyFrenchTarotState, seat: int) -> SeatView:
        s = state
        hand = tuple(sorted(s.hands[seat], key=lambda c: self.card_sort_key(s, c)))
        legal = self.legal_actions(s) if s.turn == seat else ()
        info = with_restriction({}, self.play_restriction(s, seat))
        return SeatView(seat=seat, hand=hand, legal=legal, public=self.observe_public(s), info=info)


RULES = EarlyFrenchTarotRules()
