"""French Tarot (FFT rules) for 3, 4 and 5 players, with the called King at 5.

Implements ``shared/rules/french_tarot.md`` (decisions D-1…D-23, clarifications C-1…C-12).
Play goes counter-clockwise: the next seat is ``right(s) = (s - 1) mod N``. Card data and
trick rules live in ``french_tarot_cards``, the state in ``french_tarot_state``, the
transitions in ``french_tarot_flow`` and scoring in ``french_tarot_scoring``.

Fast core: states keep hands as bit masks and carry their legal actions, computed once when
built (``french_tarot_state``), so ``legal_actions`` and ``to_act`` are item getters; every
action a seat can be offered is built once, so a legal set is a few table lookups; ``apply``
checks membership in the state's legal set instead of recomputing legality, and does a
mid-trick card play inline; ``apply_trusted`` is the simulation path (no check, events only
when asked for); both live in ``french_tarot_fast``. Search: ``PublicView.history`` and
``sample_world`` (``french_tarot_worlds``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any, ClassVar, cast

from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, TAROT_PACK
from bot.engine.errors import IllegalAction
from bot.engine.games import french_tarot_worlds as worlds
from bot.engine.games.french_tarot_cards import (
    BIT,
    DOG_TAKEN,
    EXCUSE_BIT,
    FULL,
    GROUP,
    PARAMS,
    PETIT,
    TRUMP_MASK,
    callable_cards,
    discard_counts,
    is_trump,
    poignee_options,
    rank,
    right,
    sort_key,
    suit_of,
)
from bot.engine.games.french_tarot_fast import apply, apply_trusted
from bot.engine.games.french_tarot_state import (
    BASE,
    BID_ACTIONS,
    CALLED_BY,
    H_LEADER,
    H_TRICKS,
    H_WINNERS,
    HANDS,
    HIST,
    LEGAL,
    SHIFT,
    TRICK,
    TURN,
    FrenchTarotRecord,
    FrenchTarotState,
    Phase,
    hand_of,
    legal_cards,
    make,
    may_show_poignee,
    new_state,
    play_restriction,
    won_of,
    working,
)
from bot.engine.restriction import PlayRestriction, with_restriction
from bot.engine.rules import OptionSpec, Rules, leaders
from bot.engine.views import DealResult, PublicView, SeatView, once_per_state

AnyState = FrenchTarotState | FrenchTarotRecord

# ---- the fast core's tables: every action a seat can be offered, built once ----------------

_new = cast("Callable[[type[Any], Iterable[Any]], Any]", tuple.__new__)  # pyright: ignore[reportUnknownMemberType]
_PLAY, _BIDDING, _CALL, _DISCARD, _CHELEM, _DONE = (
    Phase.PLAY,
    Phase.BIDDING,
    Phase.CALL,
    Phase.DISCARD,
    Phase.CHELEM,
    Phase.DONE,
)
_PETIT_BIT = BIT[PETIT]


def _deal_layout(players: int, dealer: int) -> tuple[tuple[Any, ...], Any]:
    """Deck positions of each seat's cards and of the dog (§3.1, D-21), as item getters."""
    p = PARAMS[players]
    seats: list[list[int]] = [[] for _ in range(players)]
    dog: list[int] = []
    order = [(dealer - 1 - k) % players for k in range(players)]
    i = 0
    for r in range(p.cards // p.packet):
        for k, seat in enumerate(order):
            seats[seat].extend(range(i, i + p.packet))
            i += p.packet
            if k == 0 and r < p.dog:
                dog.append(i)
                i += 1
    return tuple(itemgetter(*ix) for ix in seats), itemgetter(*dog)


_LAYOUT = {(n, d): _deal_layout(n, d) for n in PARAMS for d in range(n)}
#: A new deal's history item (no trick played) and first speaker's bids, built once.
_NEW_HIST = {n: ((), (), None, 0, False) for n in PARAMS}
_OPEN_BIDS = tuple(BID_ACTIONS[seat][-1] for seat in range(5))
#: A new deal's base record from its turn field on (turn, bids, the defaults).
_BASE_REST = {n: (None, (None,) * n, *FrenchTarotRecord._field_defaults.values()) for n in PARAMS}


class FrenchTarotRules(Rules):
    """French Tarot, FFT rules (3–5 players)."""

    __slots__ = ()

    game_id: ClassVar[str] = "french_tarot"
    title: ClassVar[str] = "French Tarot"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
    state_type: ClassVar[type] = FrenchTarotState  # decodes the record's JSON (see its __new__)
    options_spec: ClassVar[Mapping[str, OptionSpec]] = {
        # french_tarot D-20: a fixed number of played deals; null means 2 × players.
        "deals": OptionSpec(None, nullable=True, minimum=1, maximum=100),
        "chelem": OptionSpec(True, kind="bool"),  # D-19
    }
    action_fields: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "bid": {"contract": "contract"},
        "call": {"card": "card"},
        "discard": {"cards": "cards"},
        "chelem": {"announce": "announce"},
        "poignee": {"cards": "cards"},
        "play": {"card": "card"},
    }
    multi_card_types: ClassVar[frozenset[str]] = frozenset({"discard", "poignee"})

    # ---- cards ---------------------------------------------------------------------
    def pack(self, players: int) -> tuple[str, ...]:
        return TAROT_PACK

    def card_sort_key(self, state: Any, card: str) -> tuple[int, int]:
        return sort_key(card)

    # ---- deal ----------------------------------------------------------------------
    def new_deal(
        self, players: int, options: Mapping[str, Any], deck: Sequence[str], dealer: int
    ) -> FrenchTarotState:
        """Canonical deal (§3.1, D-21): packets from the dealer's right, dog cards between."""
        seats, dog_of = _LAYOUT[players, dealer]
        hands = 0
        petit_sec = False
        bit = BIT.__getitem__
        for p, cards_of_seat in enumerate(seats):
            h = sum(map(bit, cards_of_seat(deck)))
            # french_tarot §3.2, C-10, D-16: a petit sec cancels the deal before bidding.
            if h & TRUMP_MASK == _PETIT_BIT and not h & EXCUSE_BIT:
                petit_sec = True
            hands |= h << SHIFT[p]
        base = _new(
            FrenchTarotRecord,
            (players, dealer, bool(options.get("chelem", True)), _BIDDING, (), tuple(dog_of(deck)))
            + _BASE_REST[players],
        )
        hist = _NEW_HIST[players]
        if petit_sec:
            base = base._replace(phase=_DONE, outcome="redeal", deltas=(0,) * players)
            return make(base, hands, (), 0, hist, None, None)
        turn = (dealer - 1) % players
        # Nobody has spoken: every bid is open to the first speaker (``legal_for``).
        return new_state((base, hands, (), 0, hist, None, turn, _OPEN_BIDS[turn]))

    #: Whose turn it is: item 6 of the working form and of the record alike.
    to_act = cast(Any, itemgetter(TURN))

    # ---- legality ------------------------------------------------------------------
    def legal_cards(self, s: AnyState) -> list[str]:
        """Cards the seat to act may play now (§4.2 and the trick-1 lead ban)."""
        return legal_cards(s)

    def play_restriction(self, state: AnyState, seat: int) -> PlayRestriction | None:
        """Why a card ``seat`` holds is not legal now (``bot.engine.restriction``)."""
        return play_restriction(state, seat)

    #: The legal actions, computed once when the state was built (its item 7).
    legal_actions = cast(Any, itemgetter(LEGAL))
    # The transitions, bound as methods straight from ``french_tarot_fast`` (no delegating
    # call).
    apply = apply
    apply_trusted = apply_trusted

    def random_choice(self, view: SeatView, template: Action, rng: Any) -> Action:
        hand = view.hand
        k = template.amount or 0
        if template.type == "discard":
            plain, trumps, need = discard_counts(hand, k)
            chosen = rng.sample(plain, k - need) + rng.sample(trumps, need)
        else:
            cards = list(template.cards or ())
            chosen = cards if EXCUSE in cards else rng.sample(cards, k)
        return Action(template.type, template.seat, cards=tuple(chosen))

    # ---- transitions ---------------------------------------------------------------
    # ---- results -------------------------------------------------------------------
    def result(self, state: AnyState) -> DealResult | None:
        b = state[BASE] if type(state) is FrenchTarotState else state
        outcome, deltas = b[22], b[23]
        if outcome is None or deltas is None:
            return None
        if outcome != "played":
            reason = "petit_sec" if outcome == "redeal" else "all_passed"
            return DealResult(outcome, deltas, {"reason": reason})
        return DealResult(outcome, deltas, dict(b[24] or {}))

    def default_action(self, state: AnyState) -> Action:
        """Timeouts (rules README): pass, the first callable card, the lowest legal discard,
        no chelem, the lowest legal card (the Excuse last)."""
        s = working(state)
        t = s[TURN]
        if t is None:
            raise IllegalAction("deal_over", "this deal is over")
        phase = s[BASE][3]
        if phase is _BIDDING:
            return Action("bid", t, contract="pass")
        if phase is _CALL:
            return Action("call", t, card=callable_cards(hand_of(s, t))[0])
        if phase is _DISCARD:
            dog = PARAMS[s[BASE][0]].dog
            plain, trumps, need = discard_counts(hand_of(s, t), dog)
            low = sorted(plain, key=rank)[: len(plain) if need else dog]
            chosen = low + sorted(trumps, key=rank)[:need]
            return Action("discard", t, cards=tuple(chosen))
        if phase is _CHELEM:
            return Action("chelem", t, announce=False)
        cards = legal_cards(s)
        best = min(cards, key=lambda c: (c == EXCUSE, is_trump(c), rank(c), GROUP[suit_of(c)]))
        return Action("play", t, card=best)

    # ---- search --------------------------------------------------------------------
    def sample_world(self, view: SeatView, rng: Any) -> FrenchTarotState:
        """A full deal consistent with everything ``view``'s seat knows, the cards it cannot
        see dealt uniformly under every constraint the public history implies
        (``french_tarot_worlds``)."""
        return worlds.sample_world(view, rng)

    # ---- match ---------------------------------------------------------------------
    def next_dealer(self, dealer: int, players: int) -> int:
        return right(dealer, players)  # C-12: every deal passes the deal to the right

    def counts_toward_end(self, result: DealResult) -> bool:
        return result.outcome == "played"  # D-20, C-12: only played deals count

    def match_end(
        self,
        totals: Sequence[int],
        deals_played: int,
        options: Mapping[str, Any],
        last: DealResult,
    ) -> tuple[int, ...] | None:
        limit = options.get("deals") or 2 * len(totals)
        if deals_played < limit:
            return None
        return leaders(totals)  # ties → co-winners

    # ---- observations --------------------------------------------------------------
    def _public_info(self, s: FrenchTarotState) -> dict[str, Any]:
        b: FrenchTarotRecord = s[BASE]
        phase, dog, called, taker = b[3], b[5], b[10], b[8]
        called_by = s[CALLED_BY]
        done = phase is _DONE
        # The dog is shown after the call (§3.4: the King is called before the dog is seen).
        dog_public = b[9] in DOG_TAKEN and phase is not _BIDDING and phase is not _CALL
        # A called card seen in the revealed dog tells everyone the taker is alone (C-9).
        in_dog = dog_public and called is not None and called in dog
        shown_partner = called_by is not None or done or in_dog
        info: dict[str, Any] = {
            "bids": [[p, x] for p, x in enumerate(b[7]) if x is not None],
            "taker": taker,
            "contract": b[9],
            "called": called,
            # D-13: the partner (or a solo) is public only once the called card is played.
            "partner": (called_by if called_by != taker else None)
            if called_by is not None
            else (b[11] if done else None),
            "alone": (called_by == taker if called_by is not None else b[11] is None)
            if shown_partner and called is not None
            else None,
            "dog": sorted(dog) if dog_public or done else None,
            "dog_size": len(dog),
            "discarded_trumps": sorted(c for c in b[12] if is_trump(c)),
            "chelem": b[13],
            "poignees": [
                {"seat": seat, "level": level, "cards": sorted(cards)}
                for seat, level, cards in b[14]
            ],
            "leader": s[HIST][H_LEADER] if phase is _PLAY else None,
        }
        if done and b[22] == "played":
            info["discard"] = sorted(b[12])
        return info

    @once_per_state
    def observe_public(self, state: AnyState) -> PublicView:
        s = working(state)
        b: FrenchTarotRecord = s[BASE]
        hands = s[HANDS]
        hist = s[HIST]
        tricks = hist[H_TRICKS]
        return PublicView(
            game_id=self.game_id,
            phase=str(b[3]),
            players=b[0],
            dealer=b[1],
            to_act=s[TURN],
            hand_sizes=tuple([(hands >> SHIFT[p] & FULL).bit_count() for p in range(b[0])]),
            trick=s[TRICK],
            tricks_won=won_of(hist, b[0]),
            tricks_played=len(tricks),
            last_trick=tricks[-1] if tricks else (),
            last_winner=hist[H_WINNERS][-1] if hist[H_WINNERS] else None,
            info=self._public_info(s),
            result=self.result(s),
            history=worlds.history(s),
        )

    def observe(self, state: AnyState, seat: int) -> SeatView:
        s = working(state)
        b: FrenchTarotRecord = s[BASE]
        legal: tuple[Action, ...] = s[LEGAL] if s[TURN] == seat else ()
        info: dict[str, Any] = {}
        if seat == b[8] and b[12]:
            info["discard"] = list(b[12])
        hand = hand_of(s, seat)
        called = b[10]
        if seat == b[8] and called is not None and (called in hand or called in b[12]):
            # C-9: a taker who called a card of their own (or discarded it) knows they play
            # alone, though the table learns it only when the card is played (D-13).
            info["alone"] = True
        if b[3] is _PLAY and may_show_poignee(s, seat):
            info["poignee_levels"] = [o[1] for o in poignee_options(hand, b[0])]
        if s[TURN] == seat and b[3] is _PLAY:
            with_restriction(info, play_restriction(s, seat))
        return SeatView(seat=seat, hand=hand, legal=legal, public=self.observe_public(s), info=info)


RULES = FrenchTarotRules()
