"""La Morte (Matt Haller): 3–5 players, 9 tricks, bid/accept/drop auction with il Morto.

Implements ``shared/rules/la_morte.md`` (decisions D-1…D-21, clarifications C-1…C-5).

Fast core: the state keeps its JSON form (card codes, tuples), and everything per card or per
decision that does not depend on the deal is a lookup table built once — the ``Action`` of
each seat's every card and bid, the ``card_played`` events, follow sets per led suit and
trump. A state's legal actions are computed once and cached on it (``apply`` checks
membership in that tuple); ``apply_trusted`` is the simulation path: no legality check and
events only when asked for.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from operator import itemgetter
from typing import Any, ClassVar, NamedTuple, cast

from bot.engine.actions import Action
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games import worlds
from bot.engine.games.hot_paths import CARDS_OF, WITHOUT, frozen, new_tuple
from bot.engine.restriction import PlayRestriction, some_forbidden, with_restriction
from bot.engine.rules import OptionSpec, Rules, leaders
from bot.engine.trick import Play
from bot.engine.views import DealResult, PublicView, SeatView

LA_MORTE = "T13"
BAGATTO = "T1"
TRICKS = 9
MAX_BID = 9
MAX_PLAYERS = 5

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

    A NamedTuple: its fields are the JSON form ``bot.engine.codec`` stores, and successors
    are built positionally (much cheaper than ``_replace`` or a dataclass).
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


# Field positions, for building successor states without ``_replace``.
_HANDS, _PHASE, _STATUSES, _TURN, _HIGH_BID, _HIGH_BIDDER = 2, 6, 7, 8, 9, 10
_CONTRACT, _MAKER, _AUTO, _RESTARTED, _LOWEST, _LEADER = 11, 12, 13, 14, 15, 16
_TRICK, _TRICKS, _WINNERS, _WON, _MORTO, _FUORI, _AUCTION = 17, 18, 19, 20, 21, 22, 23

_new = new_tuple
_frozen = frozen
#: The legal actions of the state last asked about, keyed by identity: ``apply`` right after
#: ``legal_actions`` (every caller's pattern) checks membership instead of recomputing.
#: Holding the state keeps its id from being reused; one tuple, so threads read it whole.
_last_legal: tuple[Any, tuple[Action, ...]] = (None, ())
#: The same for ``result`` (asked by ``apply`` for the deal-over event, then by callers).
_last_result: tuple[Any, DealResult | None] = (None, None)
_ALL_CARDS: tuple[str, ...] = (*RANK, LA_MORTE)
_CODE = {c: c for c in _ALL_CARDS}
# The packs hold the very string objects the tables are keyed by, so lookups of dealt cards
# succeed on identity (Il Bagatto, T1, and 6s and 5s only with 5 players).
_PACK_4: tuple[str, ...] = tuple(_CODE[s + r] for s in _SUIT_ORDER for r in _RANKS_4P) + (LA_MORTE,)
_PACK_5: tuple[str, ...] = tuple(_CODE[s + r] for s in _SUIT_ORDER for r in _RANKS_5P) + (
    LA_MORTE,
    _CODE[BAGATTO],
)


#: ``Action("play", seat, card=c)`` per seat and card, built once.
_PLAY: tuple[dict[str, Action], ...] = tuple(
    {c: Action("play", seat, card=c) for c in _ALL_CARDS} for seat in range(MAX_PLAYERS)
)
#: The events of a card play that does not end its trick, per seat and card.
_PLAYED: tuple[dict[str, tuple[Event, ...]], ...] = tuple(
    {c: (Event("card_played", seat, _frozen({"card": c})),) for c in _ALL_CARDS}
    for seat in range(MAX_PLAYERS)
)
#: ``((seat, card),)``: a trick entry ready to be appended to a trick, built once.
_ENTRY: tuple[dict[str, tuple[Play]], ...] = tuple(
    {c: ((seat, c),) for c in _ALL_CARDS} for seat in range(MAX_PLAYERS)
)
_DROPPED = tuple((Event("drop", seat),) for seat in range(MAX_PLAYERS))
#: Auction entries ``((seat, "bid", x),)`` / ``((seat, "drop", 0),)`` and bid events, built once.
_BID_ENTRY = tuple(
    tuple(((seat, "bid", x),) for x in range(MAX_BID + 1)) for seat in range(MAX_PLAYERS)
)
_DROP_ENTRY = tuple(((seat, "drop", 0),) for seat in range(MAX_PLAYERS))
_BID_EVENT = tuple(
    tuple((Event("bid", seat, _frozen({"amount": x})),) for x in range(MAX_BID + 1))
    for seat in range(MAX_PLAYERS)
)
_BID: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action("bid", seat, amount=x) for x in range(MAX_BID + 1)) for seat in range(MAX_PLAYERS)
)
_ACCEPT = tuple(Action("accept", seat) for seat in range(MAX_PLAYERS))
_DROP = tuple(Action("drop", seat) for seat in range(MAX_PLAYERS))
_MUCK = tuple(Action("muck", seat) for seat in range(MAX_PLAYERS))
#: Auction legal actions per (seat, standing bid) (§3.2).
_AUCTION_LEGAL: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(
        (*_BID[seat][high + 1 :], *((_ACCEPT[seat],) if high > 0 else ()), _DROP[seat])
        for high in range(MAX_BID + 1)
    )
    for seat in range(MAX_PLAYERS)
)
_DEALER_LEGAL = tuple((*_BID[seat][1:], _MUCK[seat]) for seat in range(MAX_PLAYERS))
_DECIDE_LEGAL = tuple((_ACCEPT[seat], _DROP[seat]) for seat in range(MAX_PLAYERS))
#: Cards that follow a lead, per trump and led card: La Morte follows the trump suit (D-10),
#: and a led La Morte asks for trumps.
_FOLLOWS: dict[str | None, dict[str, frozenset[str]]] = {
    trump: {
        led: frozenset(
            c
            for c in _ALL_CARDS
            if (c == LA_MORTE and lead_suit == trump) or (c != LA_MORTE and SUIT[c] == lead_suit)
        )
        for led in _ALL_CARDS
        if (lead_suit := trump if led == LA_MORTE else SUIT[led]) is not None
    }
    for trump in (*_SUIT_ORDER, None)
}
_MORTE_WINS = 1000
_MORTE_LOST = -5
#: Trick-taking strength per trump and led card (§4.3): an ordinary trump above every card of
#: the led suit, La Morte above all on a trump lead and nothing on a plain one, other suits -1.
_WIN_KEY: dict[str | None, dict[str, dict[str, int]]] = {
    trump: {
        led: {
            c: (
                (_MORTE_WINS if lead_suit == trump else _MORTE_LOST)
                if c == LA_MORTE
                else 100 + RANK[c]
                if SUIT[c] == trump
                else RANK[c]
                if SUIT[c] == lead_suit
                else -1
            )
            for c in _ALL_CARDS
        }
        for led in RANK
        if (lead_suit := SUIT[led])
    }
    for trump in (*_SUIT_ORDER, None)
}


_STATUS_NAMES = {s: str(s) for s in Status}


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


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
    return tuple(a.card for a in _compute_legal(s))  # type: ignore[misc]


def _compute_legal(s: LaMorteState) -> tuple[Action, ...]:
    t = s[_TURN]
    if t is None:
        return ()
    phase = s[_PHASE]
    if phase is _PLAYING:
        if s[_STATUSES][t] is _UNDECIDED:  # la_morte C-1: the decision comes alone
            return _DECIDE_LEGAL[t]
        hand = s[_HANDS][t]
        trick = s[_TRICK]
        play = _PLAY[t]
        if trick:  # §4.2: follow the led suit if able, else anything
            follows = _FOLLOWS[s[5]][trick[0][1]]
            out = [play[c] for c in hand if c in follows]
            if out:
                return tuple(out)
            return tuple([play[c] for c in hand])
        if len(hand) == 1:
            return (play[hand[0]],)  # a lone La Morte must be led: Fuori dal Tempo (D-14)
        if s[_LOWEST]:  # la_morte D-8, C-2: accepter's trick-1 lead only
            low = min(RANK[c] for c in hand if c != LA_MORTE)
            return tuple([play[c] for c in hand if c != LA_MORTE and RANK[c] == low])
        if LA_MORTE in hand:  # §4.4 lead ban
            return tuple([play[c] for c in hand if c != LA_MORTE])
        return tuple([play[c] for c in hand])
    if phase is _AUCTIONING:
        return _AUCTION_LEGAL[t][s[_HIGH_BID]]
    return _DEALER_LEGAL[t]


_PLAYING = Phase.PLAY
_DROPPER = Status.DROPPER
_AUCTIONING = Phase.AUCTION
_UNDECIDED = Status.UNDECIDED


class LaMorteRules(Rules):
    """Rules of La Morte. Stateless; all methods are pure."""

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
        return _PACK_5 if players == 5 else _PACK_4

    def normalize_card(self, code: str) -> str:
        return _ALIASES.get(code, code)

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

    def legal_actions(self, state: LaMorteState) -> tuple[Action, ...]:
        global _last_legal
        m = _last_legal
        if m[0] is state:
            return m[1]
        # Card play by a decided seat inline (the common case); _compute_legal does all.
        t = state[8]
        if t is not None and state[6] is _PLAYING and state[7][t] is not _UNDECIDED:
            hand = state[2][t]
            play = _PLAY[t]
            trick = state[17]
            # (Plain loops: cheaper than comprehensions, which are calls in Python 3.11, and
            # than map/filter over bound lookups.)
            out: list[Action] = []
            if trick:  # §4.2: follow the led suit if able, else anything
                follows = _FOLLOWS[state[5]][trick[0][1]]
                for c in hand:
                    if c in follows:
                        out.append(play[c])
                if not out:
                    for c in hand:
                        out.append(play[c])
                legal = tuple(out)
                _last_legal = (state, legal)
                return legal
            if not state[15] and LA_MORTE not in hand:  # a free lead
                for c in hand:
                    out.append(play[c])
                legal = tuple(out)
                _last_legal = (state, legal)
                return legal
        legal = _compute_legal(state)
        _last_legal = (state, legal)
        return legal

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
    def apply(self, state: LaMorteState, action: Action) -> tuple[LaMorteState, tuple[Event, ...]]:
        m = _last_legal
        if action not in (m[1] if m[0] is state else self.legal_actions(state)):
            action = self._checked(state, action)
        if action.type != "play":
            return _step(state, action, True)
        t = action.seat
        card: str = action.card  # type: ignore[assignment]
        out: list[Any] = list(state)
        n: int = out[0]
        hands: list[tuple[str, ...]] = list(out[2])
        hand = hands[t]
        hands[t] = WITHOUT[len(hand)][hand.index(card)](hand)
        out[2] = tuple(hands)
        out[15] = False  # lowest_lead: only the first lead after an Accept
        trick: tuple[Play, ...] = out[17] + _ENTRY[t][card]
        morto = out[21]
        if len(trick) < (n if morto is None else n - 1):
            # The trick goes on: the next seat clockwise, il Morto skipped (§3.5).
            nxt = t + 1 if t + 1 < n else 0
            if nxt == morto:
                nxt = nxt + 1 if nxt + 1 < n else 0
            out[17] = trick
            out[8] = nxt
            return _new(LaMorteState, out), _PLAYED[t][card]
        return _end_trick(out, t, card, trick, True)

    def apply_trusted(
        self, state: LaMorteState, action: Action, events: bool = False
    ) -> tuple[LaMorteState, tuple[Event, ...]]:
        """``apply`` for simulations: ``action`` must be one of ``legal_actions(state)``
        (not checked); events are built only when ``events`` is true."""
        if action[0] != "play" or events:
            if state[6] is _AUCTIONING and not events:
                return _auction(state, action)
            return _step(state, action, events)
        # A card play without events, inline (``_play``): the simulations' every step.
        t: int = action[1]
        card: str = action[2]  # type: ignore[assignment]
        out: list[Any] = list(state)
        n: int = out[0]
        hands: list[tuple[str, ...]] = list(out[2])
        hand = hands[t]
        hands[t] = WITHOUT[len(hand)][hand.index(card)](hand)
        out[2] = tuple(hands)
        out[15] = False
        trick: tuple[Play, ...] = out[17] + _ENTRY[t][card]
        morto = out[21]
        if len(trick) < (n if morto is None else n - 1):
            nxt = t + 1 if t + 1 < n else 0
            if nxt == morto:
                nxt = nxt + 1 if nxt + 1 < n else 0
            out[17] = trick
            out[8] = nxt
            nxt_state: LaMorteState = _new(LaMorteState, out)
            # The next seat's legal actions while the trick's data is at hand (the caller's
            # next ``legal_actions`` finds them): §4.2, as in ``legal_actions``.
            if out[7][nxt] is _UNDECIDED:
                legal = _DECIDE_LEGAL[nxt]
            else:
                play = _PLAY[nxt]
                follows = _FOLLOWS[out[5]][trick[0][1]]
                hand = hands[nxt]
                found: list[Action] = []
                for c in hand:
                    if c in follows:
                        found.append(play[c])
                if not found:
                    for c in hand:
                        found.append(play[c])
                legal = tuple(found)
            global _last_legal
            _last_legal = (nxt_state, legal)
            return nxt_state, ()
        return _end_trick(out, t, card, trick, False)

    def _checked(self, s: LaMorteState, a: Action) -> Action:
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
                return _BID[t][x]
            if kind == "accept":
                if s.high_bid == 0 or s.high_bidder is None:
                    raise IllegalAction("illegal_action", "there is no bid to accept yet")
                return _ACCEPT[t]
            if kind == "drop":
                return _DROP[t]
            raise IllegalAction("illegal_action", "during the auction you may bid, accept or drop")
        if s.phase is Phase.DEALER_OPTION:
            if kind == "muck":
                return _MUCK[t]
            if kind == "bid":
                x = a.amount if a.amount is not None else 0
                if not 1 <= x <= MAX_BID:
                    raise IllegalAction("illegal_action", "bid between 1 and 9")
                return _BID[t][x]
            raise IllegalAction("illegal_action", "everyone dropped: bid or muck the deal")
        if s.statuses[t] is Status.UNDECIDED:
            if kind not in ("accept", "drop"):
                raise IllegalAction(
                    "illegal_action", "first choose to accept the contract or drop out"
                )
            return _ACCEPT[t] if kind == "accept" else _DROP[t]
        if kind != "play":
            raise IllegalAction("illegal_action", "you can only play a card now")
        card = a.card or ""
        if card not in _legal_cards(s):
            raise IllegalAction("illegal_action", _why_illegal(s, card))
        return _PLAY[t][card]

    # ---- results -------------------------------------------------------------------
    def result(self, state: LaMorteState) -> DealResult | None:
        phase = state.phase
        if phase is Phase.SCORED or phase is Phase.MUCKED:
            global _last_result
            last = _last_result
            if last[0] is state:
                return last[1]
            res = _result(state)
            _last_result = (state, res)
            return res
        return None

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
                follows = _FOLLOWS[trump][led]
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
            "statuses": [_STATUS_NAMES[x] for x in s.statuses],
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
        out.append(_PLAY[t][card])
    out += [_AUCTION_ACTION[kind](t, x) for t, kind, x in decisions]
    return tuple(out)


_AUCTION_ACTION: dict[str, Callable[[int, int], Action]] = {
    "bid": lambda t, x: _BID[t][x],
    "accept": lambda t, x: _ACCEPT[t],
    "drop": lambda t, x: _DROP[t],
    "muck": lambda t, x: _MUCK[t],
}


# ---- transitions (the action is legal) ---------------------------------------------------

Step = tuple[LaMorteState, tuple[Event, ...]]


def _step(s: LaMorteState, a: Action, ev: bool) -> Step:
    kind = a.type
    if kind == "play":
        return _play(s, a.seat, a.card, ev)  # type: ignore[arg-type]
    phase = s[_PHASE]
    if phase is _AUCTIONING:
        return _auction(s, a)
    if phase is Phase.DEALER_OPTION:
        return _dealer_option(s, a)
    return _trick_one_decision(s, a.seat, kind)


def _auction(s: LaMorteState, a: Action) -> Step:
    t = a.seat
    kind = a.type
    out: list[Any] = list(s)
    if kind == "bid":
        x: int = a.amount  # type: ignore[assignment]
        out[_HIGH_BID] = x
        out[_HIGH_BIDDER] = t
        out[_AUCTION] = s[_AUCTION] + _BID_ENTRY[t][x]
        return _pass_turn(out, t, _BID_EVENT[t][x])
    if kind == "accept":
        maker = s[_HIGH_BIDDER]
        high = s[_HIGH_BID]
        assert maker is not None
        # la_morte D-3: Accept fixes the contract and the accepter leads at once.
        out[_PHASE] = Phase.PLAY
        out[_STATUSES] = _set(_set(s[_STATUSES], maker, Status.MAKER), t, Status.DEFENDER)
        out[_CONTRACT] = high
        out[_MAKER] = maker
        out[_LOWEST] = True
        out[_LEADER] = t
        out[_TURN] = t
        out[_AUCTION] = s[_AUCTION] + ((t, "accept", high),)
        ev = _new(Event, ("contract_set", maker, {"amount": high, "accepted_by": t}))
        return _new(LaMorteState, out), (_new(Event, ("accept", t, {"amount": high})), ev)
    out[_STATUSES] = _set(s[_STATUSES], t, _DROPPER)
    out[_AUCTION] = s[_AUCTION] + _DROP_ENTRY[t]
    return _pass_turn(out, t, _DROPPED[t])


def _pass_turn(out: list[Any], t: int, events: tuple[Event, ...]) -> Step:
    n: int = out[0]
    statuses: tuple[Status, ...] = out[_STATUSES]
    nxt = t
    for _ in range(n):
        nxt = nxt + 1 if nxt + 1 < n else 0
        if statuses[nxt] is not _DROPPER:
            break
    else:  # everyone dropped with no bid: §3.3
        dealer: int = out[1]
        out[_PHASE] = Phase.DEALER_OPTION
        out[_TURN] = dealer
        return _new(LaMorteState, out), (*events, Event("all_dropped", dealer))
    maker: int | None = out[_HIGH_BIDDER]
    if maker is not None and nxt == maker:
        # la_morte D-4/D-5: a lone standing bid becomes the contract, no defenders.
        lead = (maker + 1) % n
        out[_PHASE] = Phase.PLAY
        out[_STATUSES] = _set(statuses, maker, Status.MAKER)
        out[_CONTRACT] = out[_HIGH_BID]
        out[_MAKER] = maker
        out[_AUTO] = True
        out[_LEADER] = lead
        out[_TURN] = lead
        ev = Event("contract_set", maker, {"amount": out[_HIGH_BID], "auto": True})
        return _new(LaMorteState, out), (*events, ev)
    out[_TURN] = nxt
    s = _new(LaMorteState, out)
    global _last_legal
    _last_legal = (s, _AUCTION_LEGAL[nxt][out[_HIGH_BID]])  # what legal_actions would say
    return s, events


def _dealer_option(s: LaMorteState, a: Action) -> Step:
    t = a.seat
    out: list[Any] = list(s)
    if a.type == "muck":
        out[_PHASE] = Phase.MUCKED
        out[_TURN] = None
        out[_AUCTION] = (*s[_AUCTION], (t, "muck", 0))
        return _new(LaMorteState, out), (Event("muck", t),)
    x: int = a.amount  # type: ignore[assignment]
    # la_morte §3.3, C-3: every status resets; the dealer's bid stands.
    out[_PHASE] = Phase.AUCTION
    out[_STATUSES] = (Status.UNDECIDED,) * s[0]
    out[_HIGH_BID] = x
    out[_HIGH_BIDDER] = t
    out[_RESTARTED] = True
    out[_TURN] = (t + 1) % s[0]
    out[_AUCTION] = (*s[_AUCTION], (t, "bid", x))
    return _new(LaMorteState, out), (Event("bid", t, {"amount": x, "restart": True}),)


def _trick_one_decision(s: LaMorteState, t: int, kind: str) -> Step:
    status = Status.DEFENDER if kind == "accept" else _DROPPER
    contract = s[_CONTRACT]
    out: list[Any] = list(s)
    out[_STATUSES] = _set(s[_STATUSES], t, status)
    out[_AUCTION] = s[_AUCTION] + ((t, kind, contract or 0),)
    return _new(LaMorteState, out), (_new(Event, (kind, t, {"amount": contract})),)


def _play(s: LaMorteState, t: int, card: str, ev: bool) -> Step:
    """The state after seat ``t`` plays ``card`` (legal; not checked); events if ``ev``.
    ``LaMorteRules.apply`` has the same code inline."""
    out: list[Any] = list(s)
    n: int = out[0]
    hands: list[tuple[str, ...]] = list(out[2])
    hand = hands[t]
    hands[t] = WITHOUT[len(hand)][hand.index(card)](hand)
    out[2] = tuple(hands)
    out[15] = False
    trick: tuple[Play, ...] = out[17] + _ENTRY[t][card]
    morto = out[21]
    if len(trick) < (n if morto is None else n - 1):
        nxt = t + 1 if t + 1 < n else 0
        if nxt == morto:  # §3.5: il Morto is skipped
            nxt = nxt + 1 if nxt + 1 < n else 0
        out[17] = trick
        out[8] = nxt
        return _new(LaMorteState, out), (_PLAYED[t][card] if ev else ())
    return _end_trick(out, t, card, trick, ev)


def _end_trick(out: list[Any], t: int, card: str, trick: tuple[Play, ...], ev: bool) -> Step:
    """The state once ``trick`` (ended by seat ``t``'s ``card``) is complete; ``out`` holds
    the fields so far. The winner takes it; il Morto, Fuori dal Tempo (§4.3, §4.4)."""
    n: int = out[0]
    led_seat, led = trick[0]
    morte_lost = False
    if led == LA_MORTE:  # la_morte D-14, C-4: forced lead, trump-led, La Morte wins
        winner = led_seat
        out[_FUORI] = led_seat
    else:
        keys = _WIN_KEY[out[5]][led]
        best = -9
        winner = led_seat
        for seat, c in trick:
            k = keys[c]
            if k > best:
                best = k
                winner = seat
            elif k == _MORTE_LOST:
                morte_lost = True
    won: list[int] = list(out[_WON])
    won[winner] += 1
    out[_WON] = tuple(won)
    leader = winner
    if morte_lost:  # §4.3: the winner becomes il Morto and leaves play; the lead passes left
        out[_MORTO] = winner
        leader = winner + 1 if winner + 1 < n else 0
    tricks: tuple[tuple[Play, ...], ...] = out[_TRICKS] + (trick,)
    out[_TRICKS] = tricks
    out[_TRICK] = ()
    out[_WINNERS] = out[_WINNERS] + (winner,)
    out[_LEADER] = leader
    last = len(tricks) == TRICKS
    if last:
        out[_PHASE] = Phase.SCORED
        out[_TURN] = None
    else:
        out[_TURN] = leader
    s = _new(LaMorteState, out)
    if not ev:
        if not last:
            # A simulation: the leader's legal actions while its hand is at hand (the
            # caller's next ``legal_actions`` finds them): ``_compute_legal``'s lead.
            global _last_legal
            if out[_STATUSES][leader] is _UNDECIDED:  # la_morte C-1: the decision first
                _last_legal = (s, _DECIDE_LEGAL[leader])
            else:
                hand: tuple[str, ...] = out[_HANDS][leader]
                play = _PLAY[leader]
                found: list[Action] = []
                if len(hand) == 1:  # a lone La Morte is led: Fuori dal Tempo (D-14)
                    found.append(play[hand[0]])
                else:  # anything but La Morte (§4.4 lead ban)
                    for c in hand:
                        if c != LA_MORTE:
                            found.append(play[c])
                _last_legal = (s, tuple(found))
        return s, ()
    won_event = _new(Event, ("trick_won", winner, {"cards": CARDS_OF[len(trick)](trick)}))
    if not (last or morte_lost or led == LA_MORTE):
        return s, (_PLAYED[t][card][0], won_event)
    events: list[Event] = [_PLAYED[t][card][0], won_event]
    if led == LA_MORTE:
        events.append(Event("fuori_dal_tempo", led_seat))
    if morte_lost:
        events.append(Event("il_morto", winner))
    if last:
        res = RULES.result(s)
        assert res is not None
        events.append(_new(Event, ("deal_over", None, {"deltas": list(res.deltas)})))
    return s, tuple(events)


def _result(s: LaMorteState) -> DealResult:
    if s[_PHASE] is Phase.MUCKED:
        return DealResult("mucked", (0,) * s[0], {"mucked_by": s[1]})
    c: int = s[_CONTRACT] or 0
    maker: int | None = s[_MAKER]
    won: tuple[int, ...] = s[_WON]
    statuses: tuple[Status, ...] = s[_STATUSES]
    fuori: int | None = s[_FUORI]
    made = maker is not None and won[maker] >= c
    maker_status, defender_status = Status.MAKER, Status.DEFENDER
    deltas: list[int] = []
    for p, status in enumerate(statuses):
        tw = won[p]
        if p == fuori:
            score = 0  # la_morte D-14: Fuori dal Tempo zeroes only this player's score
        elif status is maker_status:
            score = tw + (c if made else 0)  # D-16: a failing maker keeps trick points
        elif status is defender_status:
            score = tw + (0 if made else c)
        else:
            score = c - 1 if tw == 0 else 0
        deltas.append(score)
    detail = {
        "contract": c,
        "maker": maker,
        "made": made,
        "auto_contract": s[_AUTO],
        "roles": [_STATUS_NAMES[x] for x in statuses],
        "tricks": list(won),
        "morto": s[_MORTO],
        "fuori": fuori,
    }
    return DealResult("played", tuple(deltas), detail)


RULES = LaMorteRules()
