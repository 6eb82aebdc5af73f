"""Queen of Tarot ("Mitigati"): three-player Piedmontese tarocchi with bargaining.

Implements ``shared/rules/queen_of_tarot.md`` (decisions D-1…D-20, clarifications C-1…C-8).
Play goes counter-clockwise: the next seat is ``right(s) = (s − 1) mod 3``; Eldest is the
dealer's right. Card data and trick rules live in ``queen_of_tarot_cards``, the state and the
staged deal in ``queen_of_tarot_state``, bargaining in ``queen_of_tarot_bargain``, the
declarations in ``queen_of_tarot_declare`` and the discard and play in ``queen_of_tarot_play``;
the deal result in ``queen_of_tarot_results``, the observations in ``queen_of_tarot_views`` and
``sample_world`` in ``queen_of_tarot_worlds``.

A hand, phase by phase (``PublicView.phase``):

* ``bargain`` — packets of five are dealt from Eldest (the dealer gets 8 in round 5); after
  rounds 2, 3 and 4 a session is held. Actions: ``{"type": "pass"}``, ``{"type": "demand",
  "amount": n}``, ``{"type": "offer", "amount": n}``, ``{"type": "continue"}`` (amounts
  1..``max_bargain``). A settlement ends the hand (outcome ``thrown_in``).
* ``discard`` — the dealer: ``{"type": "discard", "cards": [3 codes]}``; ``legal_actions``
  gives one template ``Action("discard", dealer, cards=<discardable cards>, amount=3)``.
* ``declare`` — Eldest, Middle, Dealer, once each: ``{"type": "declare", "bonuses": [...]}``
  with names from ``abundance``, ``kings``, ``mitigati``, ``mixed_honours`` (``[]`` =
  nothing); ``legal_actions`` lists every set the hand can make, ``default_action`` the best.
* ``play`` — 25 tricks: ``{"type": "play", "card": C}``. Then ``done``.

``observe_public(s).info`` (JSON) carries what a table needs:
``roles`` (eldest/middle/dealer), ``packets`` (rounds dealt), ``max_bargain``;
``bargain`` — ``session`` (1–3, ``null`` once bargaining is over), ``positions`` (per seat
``{"position": "none"|"demand"|"offer", "amount", "last"}``, ``last`` being the seat's last
call this session as ``{"call", "amount"}`` or ``null``), ``demanded`` and ``offered``
(standing totals), ``passes`` (consecutive), ``to_speak``, ``ranges`` (the legal ``demand``
and ``offer`` amounts of the seat to speak as ``[low, high]`` or ``null``), ``calls`` (every
call of the hand: ``{"session", "seat", "call", "amount"}``) and ``sessions`` (``{"session",
"ended": "continue"|"passes"|"settled", "seat"}``); ``settlement`` (``null`` or
``{"session", "deltas", "paid": [[seat, amount]…], "received": [[seat, amount]…]}``);
``discarded`` (bool); ``declarations`` (``{"seat", "bonuses", "value", "cards", "parts":
[{"name", "value", "cards"}]}`` in declaring order) and ``declaration_deltas``; ``fool``
(``{"played_by", "debtor", "creditor"}``); ``exchanges`` (``{"giver", "receiver", "card",
"trick", "kind"}``, ``card`` ``null`` while it is one of the dealer's hidden discards);
``taken`` (cards in each pile, the dealer's discard included) and ``led``.

``result(s).detail`` — ``ended``: ``settlement`` or ``played``; ``roles``; ``sessions``;
``settlement`` (as above, or ``null``); for a played hand also ``discard``, ``declarations``,
``declaration_deltas``, ``card_points``, ``card_deltas`` (points − 43), ``tricks``, ``taken``
and ``exchanges``. ``observe(s, seat).info`` adds the seat's own ``discard`` (dealer) and, in
the declare phase, ``declarable``: every legal set with its ``value`` and shown ``cards``,
plus ``best`` (the pre-filled set).

Fast core: the state keeps its JSON form; each seat's ``Action`` per card and its bargaining
lists (per standing position and cap) are built once and shared. The legal actions of the
state last asked about are memoised (``apply`` checks membership in them);
``apply_trusted`` is the simulation path: no legality check and events only when asked for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.engine.actions import Action
from bot.engine.cards import TAROT_PACK
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games import queen_of_tarot_bargain as bargain
from bot.engine.games import queen_of_tarot_play as flow
from bot.engine.games import queen_of_tarot_state as st
from bot.engine.games.hot_paths import NO_LEGAL, LegalMemo
from bot.engine.games.queen_of_tarot_cards import (
    DISCARD_SIZE,
    DISPLAY_ORDER,
    FAIR_SHARE,
    FIRST_SESSION_AFTER,
    FOOL,
    PLAYERS,
    POINTS,
    STRENGTH,
    TRUMP,
    legal_cards,
    play_restriction,
    right,
    roles,
    sort_key,
)
from bot.engine.games.queen_of_tarot_declare import best_set, declaration, legal_sets
from bot.engine.games.queen_of_tarot_results import result
from bot.engine.games.queen_of_tarot_state import (
    PHASE,
    TURN,
    Phase,
    QueenOfTarotState,
    deal_round,
    empty_hands,
)
from bot.engine.games.queen_of_tarot_views import observe, observe_public
from bot.engine.games.queen_of_tarot_worlds import sample_world
from bot.engine.restriction import PlayRestriction
from bot.engine.rules import OptionSpec, Rules, leaders
from bot.engine.views import DealResult, SeatView

#: The memo of ``legal_actions`` (see ``hot_paths.LegalMemo``).
_last_legal: LegalMemo = NO_LEGAL
#: Bargaining legal actions per (seat, standing position, cap), built when first needed
#: (§3.1, C-6): pass, continue, every legal demand, every legal offer.
_BARGAIN_LEGAL: dict[tuple[int, int, int], tuple[Action, ...]] = {}
_PASS = tuple(Action(bargain.PASS, seat) for seat in range(PLAYERS))
_CONTINUE = tuple(Action(bargain.CONTINUE, seat) for seat in range(PLAYERS))


def _bargain_legal(seat: int, position: int, top: int) -> tuple[Action, ...]:
    key = (seat, position, top)
    legal = _BARGAIN_LEGAL.get(key)
    if legal is None:
        demand, offer = bargain.ranges(position, top)
        out = [_PASS[seat], _CONTINUE[seat]]
        if demand is not None:
            out += [Action(bargain.DEMAND, seat, amount=x) for x in range(demand[0], demand[1] + 1)]
        if offer is not None:
            out += [Action(bargain.OFFER, seat, amount=x) for x in range(offer[0], offer[1] + 1)]
        if len(_BARGAIN_LEGAL) > 4096:  # bounded: a table has one cap, so this is rare
            _BARGAIN_LEGAL.clear()
        legal = _BARGAIN_LEGAL[key] = tuple(out)
    return legal


_AMOUNT_CALLS = frozenset({bargain.DEMAND, bargain.OFFER})
_BARGAINING = Phase.BARGAIN
#: Declaration legal actions per (seat, legal sets of names), built when first needed.
_DECLARE_LEGAL: dict[tuple[int, tuple[tuple[str, ...], ...]], tuple[Action, ...]] = {}


def _declare_legal(seat: int, sets: tuple[tuple[str, ...], ...]) -> tuple[Action, ...]:
    legal = _DECLARE_LEGAL.get((seat, sets))
    if legal is None:  # bounded: a few dozen possible lists of sets per seat
        legal = tuple(Action("declare", seat, bonuses=names) for names in sets)
        _DECLARE_LEGAL[seat, sets] = legal
    return legal


_PHASE_ACTIONS: dict[Phase, tuple[str, ...]] = {
    Phase.BARGAIN: bargain.CALLS,
    Phase.DISCARD: ("discard",),
    Phase.DECLARE: ("declare",),
    Phase.PLAY: ("play",),
}


class QueenOfTarotRules(Rules):
    """Rules of Queen of Tarot (Mitigati). Stateless; all methods are pure."""

    __slots__ = ()

    game_id: ClassVar[str] = "queen_of_tarot"
    title: ClassVar[str] = "Queen of Tarot"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = PLAYERS
    max_players: ClassVar[int] = PLAYERS
    state_type: ClassVar[type] = QueenOfTarotState
    options_spec: ClassVar[Mapping[str, OptionSpec]] = {
        # D-15, C-7: a fixed number of deals (thrown-in hands count); a multiple of 3 is
        # recommended so everyone deals equally, but any positive number is accepted.
        "deals": OptionSpec(6, minimum=1),
        # D-8, C-6: bargaining amounts 1..max_bargain. Capped at the pack's 129 card points:
        # every amount is listed as a legal action, so the cap bounds that list.
        "max_bargain": OptionSpec(FAIR_SHARE, minimum=1, maximum=129),
    }
    action_fields: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "pass": {},
        "demand": {"amount": "amount"},
        "offer": {"amount": "amount"},
        "continue": {},
        "discard": {"cards": "cards"},
        "declare": {"bonuses": "bonuses"},
        "play": {"card": "card"},
    }
    multi_card_types: ClassVar[frozenset[str]] = frozenset({"discard"})

    # ---- cards ---------------------------------------------------------------------
    def pack(self, players: int) -> tuple[str, ...]:
        return TAROT_PACK

    def card_sort_key(self, state: Any, card: str) -> tuple[int, int]:
        return sort_key(card)

    # ---- deal ----------------------------------------------------------------------
    def new_deal(
        self, players: int, options: Mapping[str, Any], deck: Sequence[str], dealer: int
    ) -> QueenOfTarotState:
        """Canonical deal (§2.1, D-4) up to bargaining session 1, after packet round 2."""
        if players != PLAYERS:
            raise ValueError("Queen of Tarot is for exactly 3 players")
        hands, stock = empty_hands(), tuple(deck)
        for r in range(1, FIRST_SESSION_AFTER + 1):
            hands, stock = deal_round(hands, stock, dealer, r)
        return QueenOfTarotState(
            dealer=dealer,
            max_bargain=int(options.get("max_bargain", FAIR_SHARE)),
            phase=Phase.BARGAIN,
            turn=roles(dealer)[0],  # Eldest speaks first
            hands=hands,
            stock=stock,
            rounds=FIRST_SESSION_AFTER,
        )

    def to_act(self, state: QueenOfTarotState) -> int | None:
        return state.turn

    # ---- legality ------------------------------------------------------------------
    def legal_cards(self, s: QueenOfTarotState) -> tuple[str, ...]:
        """Cards the seat to act may play now (empty outside the card play)."""
        if s.turn is None or s.phase is not Phase.PLAY:
            return ()
        return legal_cards(s.hands[s.turn], s.trick)

    def play_restriction(self, state: QueenOfTarotState, seat: int) -> PlayRestriction | None:
        """Why a card ``seat`` holds is not legal now (``bot.engine.restriction``)."""
        s = state
        if s.turn != seat or s.phase is not Phase.PLAY:
            return None
        return play_restriction(s.hands[seat], s.trick)

    def legal_actions(self, state: QueenOfTarotState) -> tuple[Action, ...]:
        global _last_legal
        last = _last_legal
        if last[0] is state:
            return last[1]
        t = state[TURN]
        phase = state[PHASE]
        if t is None:
            legal: tuple[Action, ...] = ()
        elif phase is _PLAYING:
            legal = flow.legal_plays(state, t)
        elif phase is Phase.BARGAIN:
            legal = _bargain_legal(t, state.positions[t], state.max_bargain)
        elif phase is Phase.DISCARD:
            cards = tuple(sorted(flow.discardable(state.hands[t]), key=DISPLAY_ORDER.__getitem__))
            legal = (Action("discard", t, cards=cards, amount=DISCARD_SIZE),)
        else:
            legal = _declare_legal(t, legal_sets(state.hands[t]))
        _last_legal = (state, legal)
        return legal

    def check_shape(self, action: Action) -> None:
        if action.type == "declare":
            flow.check_bonus_names(action.bonuses)  # C-2: unknown or repeated → bad_action

    def random_choice(self, view: SeatView, template: Action, rng: Any) -> Action:
        chosen = rng.sample(list(template.cards or ()), template.amount or DISCARD_SIZE)
        return Action(template.type, template.seat, cards=tuple(chosen))

    # ---- transitions ---------------------------------------------------------------
    def apply(
        self, state: QueenOfTarotState, action: Action
    ) -> tuple[QueenOfTarotState, tuple[Event, ...]]:
        kind = action.type
        if kind in _AMOUNT_CALLS:
            # A demand or offer is legal by its amount's range: cheaper than a scan of the
            # ~90 calls listed (and, as ever, any other field of the action is ignored).
            t = state.turn
            amount = action.amount
            if (
                t is not None
                and state[PHASE] is _BARGAINING
                and action.seat == t
                and type(amount) is int
            ):
                demand, offer = bargain.ranges(state[st.POSITIONS][t], state[st.MAX_BARGAIN])
                allowed = demand if kind == bargain.DEMAND else offer
                if allowed is not None and allowed[0] <= amount <= allowed[1]:
                    return bargain.call_made(state, t, kind, amount, True)
            return self._checked(state, action)
        if kind == "discard":  # its legal entry is a template
            return self._checked(state, action)
        last = _last_legal
        if action in (last[1] if last[0] is state else self.legal_actions(state)):
            return _step(state, action, True)
        return self._checked(state, action)

    def apply_trusted(
        self, state: QueenOfTarotState, action: Action, events: bool = False
    ) -> tuple[QueenOfTarotState, tuple[Event, ...]]:
        """``apply`` for simulations: ``action`` must be legal in ``state`` (a discard: a
        legal choice of cards; not checked); events are built only when ``events`` is true."""
        if action.type == "discard":
            return flow.discard(state, action.seat, action.cards)
        return _step(state, action, events)

    def _checked(
        self, s: QueenOfTarotState, action: Action
    ) -> tuple[QueenOfTarotState, tuple[Event, ...]]:
        """``apply`` for an action not found among the legal ones as such: a discard, or an
        action with extra fields, or one to refuse with the reason."""
        t = s.turn
        if t is None:
            raise IllegalAction("deal_over", "this hand is over")
        names = flow.check_bonus_names(action.bonuses) if action.type == "declare" else ()
        if action.seat != t:
            raise IllegalAction("not_your_turn", f"it is seat {t}'s turn")
        if action.type not in _PHASE_ACTIONS[s.phase]:
            raise IllegalAction(
                "illegal_action", f"a {action.type} is not possible now ({s.phase})"
            )
        if s.phase is Phase.BARGAIN:
            return bargain.apply_call(s, t, action.type, action.amount)
        if s.phase is Phase.DISCARD:
            return flow.discard(s, t, action.cards)
        if s.phase is Phase.DECLARE:
            return flow.declare(s, t, names)
        return flow.play(s, t, action.card)

    # ---- results -------------------------------------------------------------------
    # ``result`` and, below, ``sample_world`` and the observations are bound as methods
    # straight from ``queen_of_tarot_results``, ``_worlds`` and ``_views`` (no delegating call).
    result = result

    def default_action(self, state: QueenOfTarotState) -> Action:
        """Timeouts (rules README): pass; the three cheapest discardable cards (plain
        suits before trumps); the best declaration, which the engine pre-fills (§3.3,
        D-19); the lowest legal card (least points, then plain suits, then weakest), the
        Fool only when nothing else is legal."""
        s = state
        t = s.turn
        if t is None:
            raise IllegalAction("deal_over", "this hand is over")
        if s.phase is Phase.BARGAIN:
            return Action(bargain.PASS, t)
        if s.phase is Phase.DISCARD:
            cards = sorted(flow.discardable(s.hands[t]), key=_cheap)
            return Action("discard", t, cards=tuple(cards[:DISCARD_SIZE]))
        if s.phase is Phase.DECLARE:
            return Action("declare", t, bonuses=best_set(s.hands[t]))
        cards = [c for c in self.legal_cards(s) if c != FOOL]
        if not cards:
            return Action("play", t, card=FOOL)
        return Action("play", t, card=min(cards, key=_cheap))

    # ---- search --------------------------------------------------------------------
    sample_world = sample_world

    # ---- match ---------------------------------------------------------------------
    def next_dealer(self, dealer: int, players: int) -> int:
        return right(dealer)  # §2: after every hand, played or thrown in, the deal passes right

    def match_end(
        self,
        totals: Sequence[int],
        deals_played: int,
        options: Mapping[str, Any],
        last: DealResult,
    ) -> tuple[int, ...] | None:
        """D-15, C-7: after ``deals`` deals (thrown-in ones included) the highest total
        wins; ties are co-winners."""
        if deals_played < options["deals"]:
            return None
        return leaders(totals)

    # ---- observations --------------------------------------------------------------
    observe_public = observe_public
    observe = observe


def _cheap(card: str) -> tuple[int, bool, int, str]:
    """Cheapest first: fewest points, plain suits before trumps, weakest, then by code."""
    return (POINTS[card], card[0] == TRUMP, STRENGTH[card], card)


_PLAYING = Phase.PLAY


Step = tuple[QueenOfTarotState, tuple[Event, ...]]


def _step(s: QueenOfTarotState, a: Action, ev: bool) -> Step:
    """The state after the legal (non-discard) action ``a``; events only when ``ev``."""
    kind = a.type
    if kind == "play":
        return flow.played(s, a.seat, a.card, ev)  # type: ignore[arg-type]
    if kind == "declare":
        made = declaration(a.seat, s.hands[a.seat], a.bonuses or ())
        assert made is not None
        return flow.declared(s, a.seat, made, ev)
    return bargain.call_made(s, a.seat, kind, a.amount, ev)


RULES = QueenOfTarotRules()
