"""Early 17th-century French Tarot (Justin du Coeur): 2–6 players, 12 tricks, no auction.

Implements ``shared/rules/french_tarot_17c.md`` (decisions D-1…D-13, clarifications C-1…C-4):
follow suit, else trump; the Fool (``EX``) may be played at any time, never wins and returns
to its player, who hands one won card over — or owes it until they win a trick, and loses the
Fool itself only if they win no trick at all. A hand scores the cards taken above 12 (or every
card, as a table option) plus honours; the game goes to 50 with a unique top.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any, ClassVar, NamedTuple, cast

from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, SUITS, TAROT_PACK, TAROT_RANKS
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games import worlds
from bot.engine.games.hot_paths import (
    CARD_TUPLE_OF,
    CARDS_OF,
    WITHOUT,
    frozen,
    new_tuple,
)
from bot.engine.restriction import PlayRestriction, some_forbidden, with_restriction
from bot.engine.rules import OptionSpec, Rules, leaders
from bot.engine.trick import Play
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


MAX_PLAYERS = 6

#: ``S``/``H``/``D``/``C``, ``T`` for trumps, ``EX`` for the Fool, per card code.
SUIT_OF: dict[str, str] = {c: (FOOL if c == FOOL else c[0]) for c in TAROT_PACK}
#: Strength within a suit: Ace low … King high (§1); trumps by number; the Fool 0.
RANK_OF: dict[str, int] = {
    c: (int(c[1:]) if c[0] == TRUMP else TAROT_RANKS.index(c[1:])) for c in TAROT_PACK if c != FOOL
}
_HONOUR: dict[str, int] = {c: HONOUR.get(c, 0) for c in TAROT_PACK}
_PACK_INDEX: dict[str, int] = {c: i for i, c in enumerate(TAROT_PACK)}
#: The cards of each suit (and of the trumps), to test following in one lookup.
_MEMBERS: dict[str, frozenset[str]] = {
    suit: frozenset(c for c in TAROT_PACK if SUIT_OF[c] == suit) for suit in (*SUITS, TRUMP)
}
_TRUMPS = _MEMBERS[TRUMP]
#: Trick-taking strength per led suit: trumps above the led suit, other cards (and the
#: Fool) -1 (§4.3, C-4).
_WIN_KEY: dict[str, dict[str, int]] = {
    led: {
        c: (100 + RANK_OF[c] if SUIT_OF[c] == TRUMP else RANK_OF[c] if SUIT_OF[c] == led else -1)
        for c in TAROT_PACK
    }
    for led in (*SUITS, TRUMP)
}


def suit_of(card: str) -> str:
    """``S``/``H``/``D``/``C``, ``T`` for trumps, ``EX`` for the Fool (no suit, D-6)."""
    return FOOL if card == FOOL else card[0]


def rank_of(card: str) -> int:
    """Strength within a suit: Ace low … King high (§1); trumps by number."""
    return RANK_OF[card]


def honour(card: str) -> int:
    return _HONOUR.get(card, 0)


def led_suit(trick: Sequence[Play]) -> str | None:
    """The suit to follow: the first card's, or the next card's after a Fool lead (D-6)."""
    for _, c in trick:
        if c != FOOL:
            return SUIT_OF[c]
    return None


def trick_winner(trick: Sequence[Play]) -> int:
    """Highest trump, else highest card of the led suit; the Fool never wins (§4.3, C-4)."""
    led = led_suit(trick)
    if led is None:
        return -1
    keys = _WIN_KEY[led]
    best_seat, best = -1, -1
    for seat, card in trick:
        k = keys[card]
        if k > best:
            best_seat, best = seat, k
    return best_seat


def legal_cards(hand: Sequence[str], trick: Sequence[Play]) -> tuple[str, ...]:
    """Cards ``hand`` may play to ``trick`` (§4.2): follow, else trump, else anything.

    The Fool is always an extra option (D-6); there is no obligation to overtrump (D-7).
    """
    led = led_suit(trick)
    if led is None:
        return tuple(hand)
    members = _MEMBERS[led]
    follow = [c for c in hand if c in members]
    if not follow:
        follow = [c for c in hand if c in _TRUMPS]
        if not follow:
            return tuple(hand)
    if FOOL in hand:
        follow.append(FOOL)
    return tuple(follow)


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
    candidates = [(HONOUR.get(c, 0), i, c) for i, c in enumerate(pile) if c != FOOL]
    return min(candidates)[2]


#: Sort key of the honours, most valuable first, suits in pack order (ties impossible).
_HONOUR_ORDER: dict[str, int] = {
    c: -_HONOUR[c] * len(TAROT_PACK) + _PACK_INDEX[c] for c in TAROT_PACK if _HONOUR[c]
}


def _honours(pile: Sequence[str]) -> list[str]:
    """The honours in a pile, most valuable first (suits in pack order)."""
    return sorted(filter(_HONOUR_ORDER.__contains__, pile), key=_HONOUR_ORDER.__getitem__)


def hand_score(pile: Sequence[str], every_card_scores: bool) -> tuple[int, int, int]:
    """``(card points, honour points, hand score)`` of a final pile (§5.1, D-4, D-5)."""
    count = len(pile)
    card_points = count if every_card_scores else max(0, count - HAND_SIZE)
    honours = sum(map(_HONOUR.__getitem__, pile))
    return card_points, honours, card_points + honours


class EarlyFrenchTarotState(NamedTuple):
    """One hand. Immutable; ``apply`` returns a new one (a NamedTuple: the JSON form
    ``bot.engine.codec`` stores; successors are built positionally, not by ``_replace``).

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


_HANDS, _TURN, _TRICK, _TRICKS, _WINNERS, _PILES = 3, 5, 6, 7, 8, 9
_OWNER, _CREDITOR, _EXCHANGES = 10, 11, 12

_new = new_tuple
_frozen = frozen
#: The legal actions of the state last asked about, keyed by identity: ``apply`` right after
#: ``legal_actions`` (every caller's pattern) checks membership instead of recomputing.
#: Holding the state keeps its id from being reused; one tuple, so threads read it whole.
_last_legal: tuple[Any, tuple[Action, ...]] = (None, ())
#: The same for ``result`` (asked by ``apply`` for the deal-over event, then by callers).
_last_result: tuple[Any, DealResult | None] = (None, None)

#: ``Action("play", seat, card=c)``, the ``card_played`` events (read-only data) and the
#: ``(seat, card)`` trick entries, per seat and card, built once.
_PLAY: tuple[dict[str, Action], ...] = tuple(
    {c: Action("play", seat, card=c) for c in TAROT_PACK} for seat in range(MAX_PLAYERS)
)
_PLAYED: tuple[dict[str, tuple[Event, ...]], ...] = tuple(
    {c: (Event("card_played", seat, _frozen({"card": c})),) for c in TAROT_PACK}
    for seat in range(MAX_PLAYERS)
)
#: ``((seat, card),)``: a trick entry ready to be appended to a trick.
_ENTRY: tuple[dict[str, tuple[Play]], ...] = tuple(
    {c: ((seat, c),) for c in TAROT_PACK} for seat in range(MAX_PLAYERS)
)


class EarlyFrenchTarotRules(Rules):
    """Rules of Early 17th-century French Tarot. Stateless; all methods are pure."""

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
        global _last_legal
        last = _last_legal
        if last[0] is state:
            return last[1]
        # §4.2 as actions, in the order of ``legal_cards`` (plain loops: comprehensions are
        # calls in Python 3.11).
        t = state[5]
        if t is None:
            legal = ()
        else:
            hand = state[3][t]
            play = _PLAY[t]
            led = None
            for _, c in state[6]:
                if c != FOOL:
                    led = SUIT_OF[c]
                    break
            out: list[Action] = []
            if led is not None:
                members = _MEMBERS[led]
                for c in hand:
                    if c in members:
                        out.append(play[c])
                if not out:
                    for c in hand:
                        if c in _TRUMPS:
                            out.append(play[c])
                if out and FOOL in hand:
                    out.append(play[FOOL])
            if not out:
                for c in hand:
                    out.append(play[c])
            legal = tuple(out)
        _last_legal = (state, legal)
        return legal

    def apply(
        self, state: EarlyFrenchTarotState, action: Action
    ) -> tuple[EarlyFrenchTarotState, tuple[Event, ...]]:
        last = _last_legal
        if action not in (last[1] if last[0] is state else self.legal_actions(state)):
            action = self._checked(state, action)
        # A card that does not end its trick, inline (as in apply_trusted).
        t = action.seat
        card: str = action.card  # type: ignore[assignment]
        out: list[Any] = list(state)
        hands: list[tuple[str, ...]] = list(out[_HANDS])
        hand = hands[t]
        hands[t] = WITHOUT[len(hand)][hand.index(card)](hand)
        out[_HANDS] = tuple(hands)
        trick: tuple[Play, ...] = out[_TRICK] + _ENTRY[t][card]
        n: int = out[0]
        if len(trick) < n:
            out[_TRICK] = trick
            out[_TURN] = t + 1 if t + 1 < n else 0
            return _new(EarlyFrenchTarotState, out), _PLAYED[t][card]
        return _collect(out, trick, _PLAYED[t][card][0], True)

    def apply_trusted(
        self, state: EarlyFrenchTarotState, action: Action, events: bool = False
    ) -> tuple[EarlyFrenchTarotState, tuple[Event, ...]]:
        """``apply`` for simulations: ``action`` must be one of ``legal_actions(state)``
        (not checked); events are built only when ``events`` is true."""
        # _play inline: a simulation's every step.
        t: int = action[1]
        card: str = action[2]  # type: ignore[assignment]
        out: list[Any] = list(state)
        hands: list[tuple[str, ...]] = list(out[3])
        hand = hands[t]
        hands[t] = WITHOUT[len(hand)][hand.index(card)](hand)
        out[3] = tuple(hands)
        trick: tuple[Play, ...] = out[6] + _ENTRY[t][card]
        n: int = out[0]
        if len(trick) < n:
            nxt = t + 1 if t + 1 < n else 0
            out[6] = trick
            out[5] = nxt
            nxt_state: EarlyFrenchTarotState = _new(EarlyFrenchTarotState, out)
            lead = trick[0][1]
            if lead != FOOL:  # (after a Fool lead, ``legal_actions`` finds the suit led)
                # The next seat's legal actions while the trick is at hand (the caller's next
                # ``legal_actions`` finds them): §4.2, as in ``legal_actions``.
                follower = hands[nxt]
                play = _PLAY[nxt]
                members = _MEMBERS[SUIT_OF[lead]]
                found: list[Action] = []
                for c in follower:
                    if c in members:
                        found.append(play[c])
                if not found:
                    for c in follower:
                        if c in _TRUMPS:
                            found.append(play[c])
                if found and FOOL in follower:
                    found.append(play[FOOL])
                if not found:
                    for c in follower:
                        found.append(play[c])
                global _last_legal
                _last_legal = (nxt_state, tuple(found))
            return nxt_state, (_PLAYED[t][card] if events else ())
        return _collect(out, trick, _PLAYED[t][card][0], events)

    def _checked(self, s: EarlyFrenchTarotState, a: Action) -> Action:
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
        return _PLAY[t][card]

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
        if state.turn is not None:
            return None
        global _last_result
        last = _last_result
        if last[0] is state:
            return last[1]
        res = _result(state)
        _last_result = (state, res)
        return res

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
                    void |= _MEMBERS[led]
                    if SUIT_OF[c] != TRUMP:
                        void |= _TRUMPS
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
    return tuple([_PLAY[t][c] for trick in (*s.tricks, s.trick) for t, c in trick])


# ---- transitions (the action is legal) ---------------------------------------------------

Step = tuple[EarlyFrenchTarotState, tuple[Event, ...]]


def _collect(out: list[Any], trick: tuple[Play, ...], played: Event, ev: bool) -> Step:
    """Resolve a complete trick: the winner takes it, then the Fool is settled (§4.4)."""
    tricks: tuple[tuple[Play, ...], ...] = out[_TRICKS]
    if not ev and out[_CREDITOR] is None:
        # A simulation's trick without the Fool and no debt: take it, nothing to settle.
        lead = trick[0][1]
        if lead != FOOL:
            keys = _WIN_KEY[SUIT_OF[lead]]
            winner, best = -1, -1
            for seat, c in trick:
                if c == FOOL:
                    break
                k = keys[c]
                if k > best:
                    best, winner = k, seat
            else:
                piles = list(out[_PILES])
                piles[winner] += CARD_TUPLE_OF[len(trick)](trick)
                out[_PILES] = tuple(piles)
                out[_TRICK] = ()
                out[_TRICKS] = tricks + (trick,)
                out[_WINNERS] = out[_WINNERS] + (winner,)
                out[_TURN] = winner if any(out[_HANDS]) else None
                return _new(EarlyFrenchTarotState, out), ()
    number = len(tricks) + 1
    led = None
    fool_seat = None
    for seat, c in trick:
        if c == FOOL:
            fool_seat = seat
        elif led is None:
            led = SUIT_OF[c]
    winner = -1
    if led is not None:
        keys = _WIN_KEY[led]
        best = -1
        for seat, c in trick:
            k = keys[c]
            if k > best:
                best, winner = k, seat
    piles: list[tuple[str, ...]] = list(out[_PILES])
    if fool_seat is None:
        piles[winner] += CARD_TUPLE_OF[len(trick)](trick)
    else:
        piles[winner] += tuple([c for _, c in trick if c != FOOL])
    events: list[Event] = []
    if ev:
        events.append(played)
        cards = CARDS_OF[len(trick)](trick)
        events.append(_new(Event, ("trick_won", winner, {"cards": cards, "trick": number})))
    owner: int | None = out[_OWNER]
    creditor: int | None = out[_CREDITOR]
    exchanges: tuple[tuple[int, int, str, int, str], ...] = out[_EXCHANGES]
    if fool_seat is not None:
        owner = fool_seat
        had_cards = bool(piles[owner])
        piles[owner] += (FOOL,)  # the Fool returns (D-9)
        if had_cards:
            give = card_to_give(piles[owner])
            _hand_over(piles, owner, winner, give)
            exchanges = (*exchanges, (owner, winner, give, number, "exchange"))
            if ev:
                events.append(Event("fool_exchange", owner, {"to": winner, "card": give}))
        else:  # D-10: nothing won yet, so the card is owed to this trick's winner
            creditor = winner
            if ev:
                events.append(Event("fool_debt", owner, {"to": winner}))
    elif creditor is not None and owner is not None and winner == owner:
        give = card_to_give(piles[owner])  # C-2: right after the debtor's first trick
        _hand_over(piles, owner, creditor, give)
        exchanges = (*exchanges, (owner, creditor, give, number, "debt_paid"))
        if ev:
            events.append(Event("fool_debt_paid", owner, {"to": creditor, "card": give}))
        creditor = None
    out[_TRICK] = ()
    out[_TRICKS] = tricks + (trick,)
    out[_WINNERS] = out[_WINNERS] + (winner,)
    out[_OWNER] = owner
    out[_TURN] = winner
    if any(out[_HANDS]):  # 12 tricks in a real deal
        out[_PILES] = tuple(piles)
        out[_CREDITOR] = creditor
        out[_EXCHANGES] = exchanges
        return _new(EarlyFrenchTarotState, out), tuple(events)
    if creditor is not None and owner is not None:
        # D-10, C-2: the debtor won no trick at all, so the Fool itself is surrendered.
        _hand_over(piles, owner, creditor, FOOL)
        exchanges = (*exchanges, (owner, creditor, FOOL, number, "surrender"))
        if ev:
            events.append(Event("fool_surrendered", owner, {"to": creditor, "card": FOOL}))
        creditor = None
    out[_PILES] = tuple(piles)
    out[_CREDITOR] = creditor
    out[_EXCHANGES] = exchanges
    out[_TURN] = None
    s = _new(EarlyFrenchTarotState, out)
    if not ev:
        return s, ()
    res = RULES.result(s)
    assert res is not None
    events.append(_new(Event, ("deal_over", None, {"deltas": list(res.deltas)})))
    return s, tuple(events)


def _hand_over(piles: list[tuple[str, ...]], giver: int, receiver: int, card: str) -> None:
    """Move ``card`` from the giver's pile to the end of the receiver's."""
    pile = piles[giver]
    i = pile.index(card)
    piles[giver] = pile[:i] + pile[i + 1 :]
    piles[receiver] += (card,)


def _result(s: EarlyFrenchTarotState) -> DealResult:
    """The score sheet (``hand_score`` per pile, inline: simulations ask it every deal)."""
    every: bool = s[2]
    piles: tuple[tuple[str, ...], ...] = s[_PILES]
    winners: tuple[int, ...] = s[_WINNERS]
    cards: list[int] = []
    card_points: list[int] = []
    honour_points: list[int] = []
    honours: list[list[str]] = []
    tricks: list[int] = []
    deltas: list[int] = []
    honour = _HONOUR.__getitem__
    for p, pile in enumerate(piles):
        count = len(pile)
        points = count if every else (count - HAND_SIZE if count > HAND_SIZE else 0)
        honour_total = sum(map(honour, pile))
        cards.append(count)
        card_points.append(points)
        honour_points.append(honour_total)
        honours.append(_honours(pile))
        tricks.append(winners.count(p))
        deltas.append(points + honour_total)
    detail = {
        "cards": cards,
        "card_points": card_points,
        "honour_points": honour_points,
        "honours": honours,
        "tricks": tricks,
        "every_card_scores": every,
        "exchanges": [list(x) for x in s[_EXCHANGES]],
    }
    return DealResult("played", tuple(deltas), detail)


RULES = EarlyFrenchTarotRules()
