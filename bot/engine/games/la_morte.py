"""La Morte (Matt Haller): 3–5 players, 9 tricks, bid/accept/drop auction with il Morto.

Implements ``shared/rules/la_morte.md`` (decisions D-1…D-21, clarifications C-1…C-5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, ClassVar, NamedTuple

from bot.engine.actions import Action
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.restriction import PlayRestriction, some_forbidden, with_restriction
from bot.engine.rules import OptionSpec, Rules, leaders
from bot.engine.trick import Play, remove_card
from bot.engine.views import DealResult, PublicView, SeatView

LA_MORTE = "T13"
BAGATTO = "T1"
TRICKS = 9
MAX_BID = 9

_SUIT_ORDER = ("S", "H", "D", "C")  # la_morte D-15: timeout ties broken ♠♥♦♣
_RANKS_4P = ("1", "K", "Q", "C", "J", "10", "9", "8", "7")
_RANKS_5P = (*_RANKS_4P, "6", "5")
_RANK_VALUE = {
    "1": 11,
    "K": 10,
    "Q": 9,
    "C": 8,
    "J": 7,
    "10": 6,
    "9": 5,
    "8": 4,
    "7": 3,
    "6": 2,
    "5": 1,
}

#: Rank index per card code (§1.2); Il Bagatto is the highest club (D-11). No entry for La Morte.
RANK: dict[str, int] = {s + r: v for s in _SUIT_ORDER for r, v in _RANK_VALUE.items()}
RANK[BAGATTO] = 12
#: Suit per card code for following and trumping; Il Bagatto is a club (D-11).
SUIT: dict[str, str] = {c: c[0] for c in RANK}
SUIT[BAGATTO] = "C"


class Phase(StrEnum):
    AUCTION = "auction"
    DEALER_OPTION = "dealer_option"
    PLAY = "play"
    SCORED = "scored"
    MUCKED = "mucked"


class Status(StrEnum):
    UNDECIDED = "undecided"
    MAKER = "maker"
    DEFENDER = "defender"
    DROPPER = "dropper"


class LaMorteState(NamedTuple):
    """One La Morte deal. Immutable; ``LaMorteRules.apply`` returns a new one.

    A NamedTuple rather than a frozen dataclass: ``_replace`` is about 5x cheaper than
    ``dataclasses.replace``, which matters for computer players' playouts.
    """

    players: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    talon: str
    set_aside: tuple[str, ...]
    trump: str | None
    phase: Phase
    statuses: tuple[Status, ...]
    turn: int | None
    high_bid: int = 0
    high_bidder: int | None = None
    contract: int | None = None
    maker: int | None = None
    auto_contract: bool = False
    restarted: bool = False
    lowest_lead: bool = False
    leader: int = 0
    trick: tuple[Play, ...] = ()
    tricks: tuple[tuple[Play, ...], ...] = ()
    trick_winners: tuple[int, ...] = ()
    tricks_won: tuple[int, ...] = ()
    morto: int | None = None
    fuori: int | None = None
    auction: tuple[tuple[int, str, int], ...] = ()


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def trick_winner(plays: Sequence[Play], trump: str | None) -> tuple[int, bool]:
    """Winner seat of a complete trick and whether it makes that seat il Morto (§4.3)."""
    led_seat, led = plays[0]
    if led == LA_MORTE:
        return led_seat, False  # forced La Morte lead: trump-led, La Morte wins (D-14)
    led_suit = SUIT[led]
    if trump is not None and led_suit == trump:
        best_seat, best = led_seat, -1
        for seat, card in plays:
            if card == LA_MORTE:
                return seat, False
            if SUIT[card] == trump and RANK[card] > best:
                best_seat, best = seat, RANK[card]
        return best_seat, False
    morte_played = False
    best_seat, best_trump, best_led = led_seat, -1, -1
    for seat, card in plays:
        if card == LA_MORTE:
            morte_played = True
            continue
        suit = SUIT[card]
        if suit == trump:
            if RANK[card] > best_trump:
                best_seat, best_trump = seat, RANK[card]
        elif suit == led_suit and best_trump < 0 and RANK[card] > best_led:
            best_seat, best_led = seat, RANK[card]
    return best_seat, morte_played


class LaMorteRules(Rules):
    """Rules of La Morte. Stateless; all methods are pure."""

    game_id: ClassVar[str] = "la_morte"
    title: ClassVar[str] = "La Morte"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
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
        ranks = _RANKS_5P if players == 5 else _RANKS_4P
        extra = (LA_MORTE, BAGATTO) if players == 5 else (LA_MORTE,)
        return tuple(s + r for s in _SUIT_ORDER for r in ranks) + extra

    def normalize_card(self, code: str) -> str:
        return {"LM": LA_MORTE, "BAG": BAGATTO}.get(code, code)

    def card_sort_key(self, state: Any, card: str) -> tuple[int, int]:
        if card == LA_MORTE:
            return (5, 0)
        suit = SUIT[card]
        trump = state.trump if isinstance(state, LaMorteState) else None
        group = 0 if suit == trump else 1 + _SUIT_ORDER.index(suit)
        return (group, -RANK[card])

    # ---- deal ----------------------------------------------------------------------
    def new_deal(
        self, players: int, options: Mapping[str, Any], deck: Sequence[str], dealer: int
    ) -> LaMorteState:
        """Canonical deal (§2.1): one card at a time from the dealer's left; talon next."""
        deck = [self.normalize_card(c) for c in deck]
        hands: list[list[str]] = [[] for _ in range(players)]
        for i in range(TRICKS * players):
            hands[(dealer + 1 + i % players) % players].append(deck[i])
        talon = deck[TRICKS * players]
        # la_morte D-9/D-11: La Morte as talon ⇒ no trump; Il Bagatto as talon ⇒ clubs.
        trump = None if talon == LA_MORTE else SUIT[talon]
        return LaMorteState(
            players=players,
            dealer=dealer,
            hands=tuple(tuple(h) for h in hands),
            talon=talon,
            set_aside=tuple(deck[TRICKS * players + 1 :]),  # D-19: 3 players only
            trump=trump,
            phase=Phase.AUCTION,
            statuses=(Status.UNDECIDED,) * players,
            turn=dealer,  # D-1/D-2: the dealer starts the auction
            tricks_won=(0,) * players,
        )

    def to_act(self, state: LaMorteState) -> int | None:
        return state.turn

    def legal_actions(self, state: LaMorteState) -> tuple[Action, ...]:
        s = state
        t = s.turn
        if t is None:
            return ()
        if s.phase is Phase.AUCTION:
            out = [Action("bid", t, amount=x) for x in range(s.high_bid + 1, MAX_BID + 1)]
            if s.high_bid > 0:
                out.append(Action("accept", t))
            out.append(Action("drop", t))
            return tuple(out)
        if s.phase is Phase.DEALER_OPTION:
            bids = tuple(Action("bid", t, amount=x) for x in range(1, MAX_BID + 1))
            return (*bids, Action("muck", t))
        if s.statuses[t] is Status.UNDECIDED:  # la_morte C-1: the decision comes alone
            return (Action("accept", t), Action("drop", t))
        return tuple(Action("play", t, card=c) for c in self.legal_cards(s))

    def legal_cards(self, s: LaMorteState) -> tuple[str, ...]:
        """Cards the seat to act may play now (empty outside its card play)."""
        t = s.turn
        if t is None or s.phase is not Phase.PLAY or s.statuses[t] is Status.UNDECIDED:
            return ()
        hand = s.hands[t]
        if not s.trick:
            if len(hand) == 1:
                return hand  # a lone La Morte must be led: Fuori dal Tempo (D-14)
            playable = tuple(c for c in hand if c != LA_MORTE)  # §4.4 lead ban
            if s.lowest_lead:  # la_morte D-8, C-2: accepter's trick-1 lead only
                low = min(RANK[c] for c in playable)
                return tuple(c for c in playable if RANK[c] == low)
            return playable
        led = s.trick[0][1]
        led_suit = s.trump if led == LA_MORTE else SUIT[led]
        if led_suit == s.trump:  # D-10: La Morte follows as a trump
            follow = tuple(c for c in hand if c == LA_MORTE or SUIT[c] == led_suit)
        else:
            follow = tuple(c for c in hand if c != LA_MORTE and SUIT[c] == led_suit)
        return follow or hand

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

    def apply(self, state: LaMorteState, action: Action) -> tuple[LaMorteState, tuple[Event, ...]]:
        s = state
        if s.turn is None:
            raise IllegalAction("deal_over", "this deal is over")
        if action.seat != s.turn:
            raise IllegalAction("not_your_turn", "it is not your turn")
        kind = action.type
        if s.phase is Phase.AUCTION:
            return self._auction(s, action)
        if s.phase is Phase.DEALER_OPTION:
            return self._dealer_option(s, action)
        if s.statuses[s.turn] is Status.UNDECIDED:
            if kind not in ("accept", "drop"):
                raise IllegalAction(
                    "illegal_action", "first choose to accept the contract or drop out"
                )
            return self._trick_one_decision(s, kind)
        if kind != "play":
            raise IllegalAction("illegal_action", "you can only play a card now")
        return self._play(s, action.card or "")

    # ---- auction -------------------------------------------------------------------
    def _auction(self, s: LaMorteState, a: Action) -> tuple[LaMorteState, tuple[Event, ...]]:
        t = a.seat
        if a.type == "bid":
            x = a.amount if a.amount is not None else 0
            if not s.high_bid < x <= MAX_BID:
                low = s.high_bid + 1
                why = "9 is the highest bid" if low > MAX_BID else f"bid between {low} and 9"
                raise IllegalAction("illegal_action", why)
            s = s._replace(high_bid=x, high_bidder=t, auction=(*s.auction, (t, "bid", x)))
            return self._pass_turn(s, t, (Event("bid", t, {"amount": x}),))
        if a.type == "accept":
            if s.high_bid == 0 or s.high_bidder is None:
                raise IllegalAction("illegal_action", "there is no bid to accept yet")
            maker = s.high_bidder
            statuses = _set(_set(s.statuses, maker, Status.MAKER), t, Status.DEFENDER)
            # la_morte D-3: Accept fixes the contract and the accepter leads at once.
            s = s._replace(
                phase=Phase.PLAY,
                statuses=statuses,
                contract=s.high_bid,
                maker=maker,
                lowest_lead=True,
                leader=t,
                turn=t,
                auction=(*s.auction, (t, "accept", s.high_bid)),
            )
            ev = Event("contract_set", maker, {"amount": s.high_bid, "accepted_by": t})
            return s, (Event("accept", t, {"amount": s.high_bid}), ev)
        if a.type == "drop":
            s = s._replace(
                statuses=_set(s.statuses, t, Status.DROPPER),
                auction=(*s.auction, (t, "drop", 0)),
            )
            return self._pass_turn(s, t, (Event("drop", t),))
        raise IllegalAction("illegal_action", "during the auction you may bid, accept or drop")

    def _pass_turn(
        self, s: LaMorteState, t: int, events: tuple[Event, ...]
    ) -> tuple[LaMorteState, tuple[Event, ...]]:
        n = s.players
        nxt = next(
            ((t + k) % n for k in range(1, n + 1) if s.statuses[(t + k) % n] is not Status.DROPPER),
            None,
        )
        if nxt is None:  # everyone dropped with no bid: §3.3
            s = s._replace(phase=Phase.DEALER_OPTION, turn=s.dealer)
            return s, (*events, Event("all_dropped", s.dealer))
        if s.high_bidder is not None and nxt == s.high_bidder:
            # la_morte D-4/D-5: a lone standing bid becomes the contract, no defenders.
            maker = s.high_bidder
            lead = (maker + 1) % n
            s = s._replace(
                phase=Phase.PLAY,
                statuses=_set(s.statuses, maker, Status.MAKER),
                contract=s.high_bid,
                maker=maker,
                auto_contract=True,
                leader=lead,
                turn=lead,
            )
            ev = Event("contract_set", maker, {"amount": s.high_bid, "auto": True})
            return s, (*events, ev)
        return s._replace(turn=nxt), events

    def _dealer_option(self, s: LaMorteState, a: Action) -> tuple[LaMorteState, tuple[Event, ...]]:
        t = a.seat
        if a.type == "muck":
            s = s._replace(phase=Phase.MUCKED, turn=None, auction=(*s.auction, (t, "muck", 0)))
            return s, (Event("muck", t),)
        if a.type == "bid":
            x = a.amount if a.amount is not None else 0
            if not 1 <= x <= MAX_BID:
                raise IllegalAction("illegal_action", "bid between 1 and 9")
            # la_morte §3.3, C-3: every status resets; the dealer's bid stands.
            s = s._replace(
                phase=Phase.AUCTION,
                statuses=(Status.UNDECIDED,) * s.players,
                high_bid=x,
                high_bidder=t,
                restarted=True,
                turn=(t + 1) % s.players,
                auction=(*s.auction, (t, "bid", x)),
            )
            return s, (Event("bid", t, {"amount": x, "restart": True}),)
        raise IllegalAction("illegal_action", "everyone dropped: bid or muck the deal")

    # ---- play ----------------------------------------------------------------------
    def _trick_one_decision(
        self, s: LaMorteState, kind: str
    ) -> tuple[LaMorteState, tuple[Event, ...]]:
        t = s.turn
        assert t is not None
        status = Status.DEFENDER if kind == "accept" else Status.DROPPER
        s = s._replace(
            statuses=_set(s.statuses, t, status),
            auction=(*s.auction, (t, kind, s.contract or 0)),
        )
        return s, (Event(kind, t, {"amount": s.contract}),)

    def _play(self, s: LaMorteState, card: str) -> tuple[LaMorteState, tuple[Event, ...]]:
        t = s.turn
        assert t is not None
        if card not in self.legal_cards(s):
            raise IllegalAction("illegal_action", self._why_illegal(s, card))
        hands = _set(s.hands, t, remove_card(s.hands[t], card))
        trick = (*s.trick, (t, card))
        events: list[Event] = [Event("card_played", t, {"card": card})]
        n = s.players
        active = n - (s.morto is not None)
        if len(trick) < active:
            nxt = (t + 1) % n
            if nxt == s.morto:  # §3.5: il Morto is skipped
                nxt = (nxt + 1) % n
            return s._replace(hands=hands, trick=trick, turn=nxt, lowest_lead=False), tuple(events)

        winner, becomes_morto = trick_winner(trick, s.trump)
        tricks_won = _set(s.tricks_won, winner, s.tricks_won[winner] + 1)
        tricks = (*s.tricks, trick)
        morto, fuori = s.morto, s.fuori
        events.append(Event("trick_won", winner, {"cards": [c for _, c in trick]}))
        leader = winner
        if trick[0][1] == LA_MORTE:  # la_morte D-14, C-4
            fuori = trick[0][0]
            events.append(Event("fuori_dal_tempo", fuori))
        if becomes_morto:  # §4.3: the winner leaves play; the lead passes left
            morto = winner
            leader = (winner + 1) % n
            events.append(Event("il_morto", winner))
        s = s._replace(
            hands=hands,
            trick=(),
            tricks=tricks,
            trick_winners=(*s.trick_winners, winner),
            tricks_won=tricks_won,
            morto=morto,
            fuori=fuori,
            lowest_lead=False,
            leader=leader,
            turn=leader,
        )
        if len(tricks) == TRICKS:
            s = s._replace(phase=Phase.SCORED, turn=None)
            res = self.result(s)
            assert res is not None
            events.append(Event("deal_over", data={"deltas": list(res.deltas)}))
        return s, tuple(events)

    def _why_illegal(self, s: LaMorteState, card: str) -> str:
        t = s.turn
        assert t is not None
        if card not in s.hands[t]:
            return "that card is not in your hand"
        if not s.trick:
            if card == LA_MORTE:
                return "La Morte may only be led as your last card"
            return "after accepting you must lead one of your lowest-ranked cards"
        return "you must follow suit"

    # ---- results -------------------------------------------------------------------
    def result(self, state: LaMorteState) -> DealResult | None:
        s = state
        if s.phase is Phase.MUCKED:
            return DealResult("mucked", (0,) * s.players, {"mucked_by": s.dealer})
        if s.phase is not Phase.SCORED:
            return None
        c = s.contract or 0
        maker = s.maker
        made = maker is not None and s.tricks_won[maker] >= c
        deltas: list[int] = []
        for p in range(s.players):
            tw = s.tricks_won[p]
            status = s.statuses[p]
            if p == s.fuori:
                score = 0  # la_morte D-14: Fuori dal Tempo zeroes only this player's score
            elif status is Status.MAKER:
                score = tw + (c if made else 0)  # D-16: a failing maker keeps trick points
            elif status is Status.DEFENDER:
                score = tw + (0 if made else c)
            else:
                score = c - 1 if tw == 0 else 0
            deltas.append(score)
        detail = {
            "contract": c,
            "maker": maker,
            "made": made,
            "auto_contract": s.auto_contract,
            "roles": [str(x) for x in s.statuses],
            "tricks": list(s.tricks_won),
            "morto": s.morto,
            "fuori": s.fuori,
        }
        return DealResult("played", tuple(deltas), detail)

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
        best = min(cards, key=lambda c: (RANK[c], _SUIT_ORDER.index(SUIT[c]), c))
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
    def observe_public(self, state: LaMorteState) -> PublicView:
        s = state
        info: dict[str, Any] = {
            "talon": s.talon,
            "trump": s.trump,
            "statuses": [str(x) for x in s.statuses],
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


RULES = LaMorteRules()
