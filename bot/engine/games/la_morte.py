"""La Morte (Matt Haller): 3–5 players, 9 tricks, bid/accept/drop auction with il Morto.

Implements ``shared/rules/la_morte.md`` (decisions D-1…D-21, clarifications C-1…C-5).

The state and its lookup tables live in ``la_morte_state``, the transitions (legal actions,
``apply``, the simulation path ``apply_trusted``, the result) in ``la_morte_fast``; this
module holds the rules' surface: the deal, legality explanations, observations, worlds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any, ClassVar, cast

from bot.engine.actions import Action
from bot.engine.errors import IllegalAction
from bot.engine.games import worlds
from bot.engine.games.hot_paths import new_tuple
from bot.engine.games.la_morte_fast import (
    apply,
    apply_trusted,
    compute_legal,
    legal_actions,
    result,
)
from bot.engine.games.la_morte_state import (
    ACCEPT,
    BAGATTO,
    BID,
    DROP,
    FOLLOWS,
    LA_MORTE,
    MAX_BID,
    MAX_PLAYERS,
    MUCK,
    PACK_4,
    PACK_5,
    PLAY,
    RANK,
    STATUS_NAMES,
    SUIT,
    SUIT_ORDER,
    TRICKS,
    LaMorteState,
    Phase,
    Status,
)
from bot.engine.restriction import PlayRestriction, some_forbidden, with_restriction
from bot.engine.rules import OptionSpec, Rules, leaders
from bot.engine.trick import Play
from bot.engine.views import DealResult, PublicView, SeatView, once_per_state

__all__ = [
    "BAGATTO",
    "LA_MORTE",
    "MAX_BID",
    "MAX_PLAYERS",
    "RANK",
    "SUIT",
    "TRICKS",
    "LaMorteRules",
    "LaMorteState",
    "Phase",
    "Status",
    "history",
    "trick_winner",
]

_new = new_tuple


def trick_winner(plays: Sequence[Play], trump: str | None) -> tuple[int, bool]:
    """Winner seat of a complete trick and whether it makes that seat il Morto (§4.3)."""
    led_seat, led = plays[0]
    if led == LA_MORTE:
        return led_seat, False  # forced La Morte lead: trump-led, La Morte wins (D-14)
    rank = RANK
    suit = SUIT
    led_suit = suit[led]
    if led_suit == trump:
        best_seat, best = led_seat, -1
        for seat, card in plays:
            if card == LA_MORTE:
                return seat, False
            if suit[card] == trump and rank[card] > best:
                best_seat, best = seat, rank[card]
        return best_seat, False
    morte_played = False
    best_seat, best_trump, best_led = led_seat, -1, -1
    for seat, card in plays:
        if card == LA_MORTE:
            morte_played = True
            continue
        s = suit[card]
        if s == trump:
            if rank[card] > best_trump:
                best_seat, best_trump = seat, rank[card]
        elif s == led_suit and best_trump < 0 and rank[card] > best_led:
            best_seat, best_led = seat, rank[card]
    return best_seat, morte_played


def _legal_cards(s: LaMorteState) -> tuple[str, ...]:
    """Cards the seat to act may play (it is in the play phase and has decided)."""
    return tuple(a.card for a in compute_legal(s))  # type: ignore[misc]


class LaMorteRules(Rules):
    """Rules of La Morte. Stateless; all methods are pure."""

    __slots__ = ()

    game_id: ClassVar[str] = "la_morte"
    title: ClassVar[str] = "La Morte"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = MAX_PLAYERS
    state_type: ClassVar[type] = LaMorteState
    options_spec: ClassVar[Mapping[str, OptionSpec]] = {
        "target": OptionSpec(50, minimum=1),
        "round_limit": OptionSpec(None, nullable=True, minimum=1),
    }
    action_fields: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "bid": {"amount": "amount"},
        "accept": {},
        "drop": {},
        "muck": {},
        "play": {"card": "card"},
    }

    # ---- cards ---------------------------------------------------------------------
    def pack(self, players: int) -> tuple[str, ...]:
        return PACK_5 if players == 5 else PACK_4

    def normalize_card(self, code: str) -> str:
        return _ALIASES.get(code, code)

    def card_sort_key(self, state: Any, card: str) -> tuple[int, int]:
        if card == LA_MORTE:
            return (5, 0)
        suit = SUIT[card]
        trump = state.trump if isinstance(state, LaMorteState) else None
        group = 0 if suit == trump else 1 + SUIT_ORDER.index(suit)
        return (group, -RANK[card])

    # ---- deal ----------------------------------------------------------------------
    def new_deal(
        self, players: int, options: Mapping[str, Any], deck: Sequence[str], dealer: int
    ) -> LaMorteState:
        """Canonical deal (§2.1): one card at a time from the dealer's left; talon next."""
        deck = tuple(deck)
        if not _ALIAS_CODES.isdisjoint(deck):
            deck = tuple(_ALIASES.get(c, c) for c in deck)
        n = players
        dealt = TRICKS * n
        # Card i goes to seat dealer+1+i mod n: seat dealer+1+k holds deck[k::n].
        hands: list[tuple[str, ...]] = [()] * n
        for k in range(n):
            hands[(dealer + 1 + k) % n] = deck[k:dealt:n]
        talon = deck[dealt]
        # la_morte D-9/D-11: La Morte as talon ⇒ no trump; Il Bagatto as talon ⇒ clubs.
        trump = None if talon == LA_MORTE else SUIT[talon]
        return _new(
            LaMorteState,
            (
                n,
                dealer,
                tuple(hands),
                talon,
                deck[dealt + 1 :],  # D-19: 3 players only
                trump,
                Phase.AUCTION,
                (Status.UNDECIDED,) * n,
                dealer,  # D-1/D-2: the dealer starts the auction
                0,
                None,
                None,
                None,
                False,
                False,
                False,
                0,
                (),
                (),
                (),
                (0,) * n,
                None,
                None,
                (),
            ),
        )

    #: Whose turn it is (the ``turn`` field), an item getter: asked at every step.
    to_act = cast(Any, itemgetter(8))
    # The hot paths, bound as methods straight from ``la_morte_fast`` (no delegating call).
    legal_actions = legal_actions
    apply = apply
    apply_trusted = apply_trusted
    result = result

    def legal_cards(self, s: LaMorteState) -> tuple[str, ...]:
        """Cards the seat to act may play now (empty outside its card play)."""
        t = s.turn
        if t is None or s.phase is not Phase.PLAY or s.statuses[t] is Status.UNDECIDED:
            return ()
        return _legal_cards(s)

    def play_restriction(self, state: LaMorteState, seat: int) -> PlayRestriction | None:
        """Why a card ``seat`` holds is not legal now (``bot.engine.restriction``)."""
        s = state
        legal = self.legal_cards(s)
        if s.turn != seat or not legal or not some_forbidden(s.hands[seat], legal):
            return None
        if not s.trick:
            ordinary = [c for c in s.hands[seat] if c != LA_MORTE]
            if s.lowest_lead and some_forbidden(ordinary, legal):
                return PlayRestriction("lowest_lead", {})  # la_morte D-8, C-2
            return PlayRestriction("morte_lead", {})  # §4.4
        led = s.trick[0][1]
        # D-10: on a trump lead (La Morte's forced lead included) the trump suit is followed.
        return PlayRestriction("follow", {"suit": s.trump if led == LA_MORTE else SUIT[led]})

    # ---- transitions ---------------------------------------------------------------
    def checked(self, s: LaMorteState, a: Action) -> Action:
        """The legal action ``a`` stands for (same type and deciding field), or the
        ``IllegalAction`` explaining why it is not legal."""
        t = s.turn
        if t is None:
            raise IllegalAction("deal_over", "this deal is over")
        if a.seat != t:
            raise IllegalAction("not_your_turn", "it is not your turn")
        kind = a.type
        if s.phase is Phase.AUCTION:
            if kind == "bid":
                x = a.amount if a.amount is not None else 0
                if not s.high_bid < x <= MAX_BID:
                    low = s.high_bid + 1
                    why = "9 is the highest bid" if low > MAX_BID else f"bid between {low} and 9"
                    raise IllegalAction("illegal_action", why)
                return BID[t][x]
            if kind == "accept":
                if s.high_bid == 0 or s.high_bidder is None:
                    raise IllegalAction("illegal_action", "there is no bid to accept yet")
                return ACCEPT[t]
            if kind == "drop":
                return DROP[t]
            raise IllegalAction("illegal_action", "during the auction you may bid, accept or drop")
        if s.phase is Phase.DEALER_OPTION:
            if kind == "muck":
                return MUCK[t]
            if kind == "bid":
                x = a.amount if a.amount is not None else 0
                if not 1 <= x <= MAX_BID:
                    raise IllegalAction("illegal_action", "bid between 1 and 9")
                return BID[t][x]
            raise IllegalAction("illegal_action", "everyone dropped: bid or muck the deal")
        if s.statuses[t] is Status.UNDECIDED:
            if kind not in ("accept", "drop"):
                raise IllegalAction(
                    "illegal_action", "first choose to accept the contract or drop out"
                )
            return ACCEPT[t] if kind == "accept" else DROP[t]
        if kind != "play":
            raise IllegalAction("illegal_action", "you can only play a card now")
        card = a.card or ""
        if card not in _legal_cards(s):
            raise IllegalAction("illegal_action", _why_illegal(s, card))
        return PLAY[t][card]

    def sample_world(self, view: SeatView, rng: Any) -> LaMorteState:
        """A state showing ``view.seat`` exactly ``view``, the cards it cannot see (other
        hands, il Morto's dead cards, the set-aside cards with 3 players) dealt uniformly
        among the deals the play allows: a seat that did not follow is void in the suit led
        (D-10: on a trump lead that includes La Morte), and the accepter's trick-1 lead was
        one of its lowest-ranked cards (D-8, C-2)."""
        pub = view.public
        n, me, dealer = pub.players, view.seat, pub.dealer
        talon: str = pub.info["talon"]
        trump: str | None = pub.info["trump"]
        hist = pub.history
        plays = [(a.seat, a.card or "") for a in hist if a.type == "play"]
        played: list[list[str]] = [[] for _ in range(n)]
        for t, c in plays:
            played[t].append(c)
        known = set(view.hand) | {c for _, c in plays} | {talon}
        unseen = [c for c in self.pack(n) if c not in known]
        others = [p for p in range(n) if p != me]
        caps = [TRICKS - len(played[p]) for p in others]
        aside = len(self.pack(n)) - TRICKS * n - 1
        if aside:
            caps.append(aside)
        forbidden: list[set[str]] = [set() for _ in caps]
        accepter = next((a.seat for a in hist if a.type == "accept"), None)
        if accepter is not None and plays and accepter != me and plays[0][1] != LA_MORTE:
            low = RANK[plays[0][1]]  # D-8: nothing lower was held
            forbidden[others.index(accepter)] |= {c for c in RANK if RANK[c] < low}
        morto = None
        i = 0
        while i < len(plays):
            size = n if morto is None else n - 1
            trick = plays[i : i + size]
            led = trick[0][1]
            if led != LA_MORTE or trump is not None:
                follows = FOLLOWS[trump][led]
                for t, c in trick[1:]:
                    if c not in follows and t != me:
                        forbidden[others.index(t)] |= follows
            if len(trick) == size:
                winner, dies = trick_winner(trick, trump)
                if dies:
                    morto = winner
            i += size
        frozen_out = [frozenset(f) for f in forbidden]
        mine = worlds.play_order_hand(view.hand, view.legal)
        options = self.normalize_options(None)

        def attempt(rng: random.Random) -> LaMorteState | None:
            parts = worlds.split_uniformly(unseen, caps, frozen_out, rng)
            dealt = {me: mine + played[me]}
            for k, p in enumerate(others):
                rng.shuffle(parts[k])
                dealt[p] = parts[k] + played[p]
            deck = [""] * (TRICKS * n)
            for p, cards in dealt.items():
                k = (p - dealer - 1) % n
                for j, c in enumerate(cards):
                    deck[k + n * j] = c
            deck.append(talon)
            if aside:
                deck += parts[-1]
            state = worlds.replay(self, self.new_deal(n, options, deck, dealer), hist)
            return state if state is not None and self.observe(state, me) == view else None

        return worlds.draw(attempt, rng)

    def default_action(self, state: LaMorteState) -> Action:
        """la_morte D-15: Drop, Muck, Drop, or the lowest legal card (ties ♠♥♦♣)."""
        s = state
        t = s.turn
        if t is None:
            raise IllegalAction("deal_over", "this deal is over")
        if s.phase is Phase.AUCTION:
            return Action("drop", t)
        if s.phase is Phase.DEALER_OPTION:
            return Action("muck", t)
        if s.statuses[t] is Status.UNDECIDED:
            return Action("drop", t)
        cards = [c for c in self.legal_cards(s) if c != LA_MORTE]
        if not cards:
            return Action("play", t, card=LA_MORTE)
        best = min(cards, key=lambda c: (RANK[c], SUIT_ORDER.index(SUIT[c]), c))
        return Action("play", t, card=best)

    def match_end(
        self,
        totals: Sequence[int],
        deals_played: int,
        options: Mapping[str, Any],
        last: DealResult,
    ) -> tuple[int, ...] | None:
        top = leaders(totals)
        # la_morte D-18, C-5: target first (unique top only), then the round limit.
        if last.outcome == "played" and totals[top[0]] >= options["target"] and len(top) == 1:
            return top
        limit = options.get("round_limit")
        if limit is not None and deals_played >= limit:
            return top
        return None

    # ---- observations --------------------------------------------------------------
    @once_per_state
    def observe_public(self, state: LaMorteState) -> PublicView:
        s = state
        info: dict[str, Any] = {
            "talon": s.talon,
            "trump": s.trump,
            "statuses": [STATUS_NAMES[x] for x in s.statuses],
            "high_bid": s.high_bid,
            "high_bidder": s.high_bidder,
            "contract": s.contract,
            "maker": s.maker,
            "auto_contract": s.auto_contract,
            "restarted": s.restarted,
            "lowest_lead": s.lowest_lead,
            "morto": s.morto,
            "fuori": s.fuori,
            "auction": [list(x) for x in s.auction],
            "set_aside": len(s.set_aside),
        }
        return PublicView(
            game_id=self.game_id,
            phase=str(s.phase),
            players=s.players,
            dealer=s.dealer,
            to_act=s.turn,
            hand_sizes=tuple(0 if p == s.morto else len(h) for p, h in enumerate(s.hands)),
            trick=s.trick,
            tricks_won=s.tricks_won,
            tricks_played=len(s.tricks),
            last_trick=s.tricks[-1] if s.tricks else (),
            last_winner=s.trick_winners[-1] if s.trick_winners else None,
            info=info,
            result=self.result(s),
            history=history(s),
        )

    def observe(self, state: LaMorteState, seat: int) -> SeatView:
        s = state
        hand = tuple(sorted(s.hands[seat], key=lambda c: self.card_sort_key(s, c)))
        legal = self.legal_actions(s) if s.turn == seat else ()
        return SeatView(
            seat=seat,
            hand=hand,
            legal=legal,
            public=self.observe_public(s),
            info=with_restriction({"dead": seat == s.morto}, self.play_restriction(s, seat)),
        )


_ALIASES = {"LM": LA_MORTE, "BAG": BAGATTO}
_ALIAS_CODES = frozenset(_ALIASES)


def _why_illegal(s: LaMorteState, card: str) -> str:
    t = s.turn
    assert t is not None
    if card not in s.hands[t]:
        return "that card is not in your hand"
    if not s.trick:
        if card == LA_MORTE:
            return "La Morte may only be led as your last card"
        return "after accepting you must lead one of your lowest-ranked cards"
    return "you must follow suit"


def history(s: LaMorteState) -> tuple[Action, ...]:
    """Every action of the deal in order (all public in La Morte): the auction (``auction``
    up to the Accept that fixed the contract), then the card play, each undecided player's
    trick-1 decision right before its first card (C-1)."""
    entries = s.auction
    cut = next((i + 1 for i, e in enumerate(entries) if e[1] == "accept"), len(entries))
    out: list[Action] = [_AUCTION_ACTION[kind](t, x) for t, kind, x in entries[:cut]]
    decisions = list(entries[cut:])
    plays = [p for trick in (*s.tricks, s.trick) for p in trick]
    for i, (t, card) in enumerate(plays):
        if decisions and i < s.players and decisions[0][0] == t:
            d = decisions.pop(0)
            out.append(_AUCTION_ACTION[d[1]](t, d[2]))
        out.append(PLAY[t][card])
    out += [_AUCTION_ACTION[kind](t, x) for t, kind, x in decisions]
    return tuple(out)


_AUCTION_ACTION: dict[str, Callable[[int, int], Action]] = {
    "bid": lambda t, x: BID[t][x],
    "accept": lambda t, x: ACCEPT[t],
    "drop": lambda t, x: DROP[t],
    "muck": lambda t, x: MUCK[t],
}


RULES = LaMorteRules()
