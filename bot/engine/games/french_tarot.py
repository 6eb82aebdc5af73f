"""French Tarot (FFT rules) for 3, 4 and 5 players, with the called King at 5.

Implements ``shared/rules/french_tarot.md`` (decisions D-1…D-23, clarifications C-1…C-12).
Play goes counter-clockwise: the next seat is ``right(s) = (s - 1) mod N``. Card data and
trick rules live in ``french_tarot_cards``, scoring in ``french_tarot_scoring``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from itertools import combinations
from typing import Any, ClassVar, NamedTuple

from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, TAROT_PACK
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games.french_tarot_cards import (
    BOUTS,
    CONTRACTS,
    DOG_TAKEN,
    PARAMS,
    PETIT,
    callable_cards,
    is_king,
    is_trump,
    legal_plays,
    rank,
    suit_of,
    trick_winner,
)
from bot.engine.games.french_tarot_scoring import score
from bot.engine.rules import OptionSpec, Rules
from bot.engine.trick import Play, remove_card
from bot.engine.views import DealResult, PublicView, SeatView

_GROUP = {"S": 0, "H": 1, "C": 2, "D": 3, "T": 4, "EX": 5}  # alternate colours in a hand


class Phase(StrEnum):
    BIDDING = "bidding"
    CALL = "call"
    DISCARD = "discard"
    CHELEM = "chelem"
    PLAY = "play"
    DONE = "done"


class FrenchTarotState(NamedTuple):
    """One French Tarot deal; immutable (``_replace`` is cheap, see La Morte's state)."""

    players: int
    dealer: int
    chelem_option: bool
    phase: Phase
    hands: tuple[tuple[str, ...], ...]
    dog: tuple[str, ...]
    turn: int | None
    bids: tuple[str | None, ...]
    taker: int | None = None
    contract: str | None = None
    called: str | None = None
    #: Holder of the called card when play starts (5 players); secret until it is played.
    partner: int | None = None
    discard: tuple[str, ...] = ()
    chelem: bool = False
    poignees: tuple[tuple[int, int, tuple[str, ...]], ...] = ()
    leader: int = 0
    trick: tuple[Play, ...] = ()
    tricks: tuple[tuple[Play, ...], ...] = ()
    winners: tuple[int, ...] = ()
    tricks_won: tuple[int, ...] = ()
    excuse_won_last: bool = False
    called_by: int | None = None
    outcome: str | None = None
    deltas: tuple[int, ...] | None = None
    detail: dict[str, Any] | None = None


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def right(seat: int, players: int) -> int:
    """The next seat in play order (counter-clockwise)."""
    return (seat - 1) % players


def sort_key(card: str) -> tuple[int, int]:
    """Display order: ♠ ♥ ♣ ♦ (alternating colours), trumps, the Excuse; high cards first."""
    return (_GROUP[suit_of(card)], -rank(card))


def discard_counts(hand: Sequence[str], size: int) -> tuple[list[str], list[str], int]:
    """Discard candidates and how many trumps the discard must hold (§3.5, C-11).

    Returns (suit cards other than Kings, trumps 2–20, trumps required).
    """
    plain = [c for c in hand if c != EXCUSE and not is_trump(c) and not is_king(c)]
    trumps = [c for c in hand if is_trump(c) and c not in BOUTS]
    return plain, trumps, max(0, size - len(plain))


def poignee_options(hand: Sequence[str], players: int) -> list[tuple[int, int, tuple[str, ...]]]:
    """``(level, size, showable cards)`` for each poignée level the hand reaches (C-6, D-17).

    The Excuse may be shown only when every trump held is shown with it, i.e. when the
    level's size is exactly trumps + 1.
    """
    trumps = tuple(c for c in hand if is_trump(c))
    has_excuse = EXCUSE in hand
    out: list[tuple[int, int, tuple[str, ...]]] = []
    for level, size in enumerate(PARAMS[players].poignees):
        if has_excuse and size == len(trumps) + 1:
            out.append((level, size, (*trumps, EXCUSE)))
        elif size <= len(trumps):
            out.append((level, size, trumps))
    return out


class FrenchTarotRules(Rules):
    """French Tarot, FFT rules (3–5 players)."""

    game_id: ClassVar[str] = "french_tarot"
    title: ClassVar[str] = "French Tarot"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
    state_type: ClassVar[type] = FrenchTarotState
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
        p = PARAMS[players]
        hands: list[list[str]] = [[] for _ in range(players)]
        dog: list[str] = []
        order = [(dealer - 1 - k) % players for k in range(players)]
        i = 0
        for r in range(p.cards // p.packet):
            for k, seat in enumerate(order):
                hands[seat].extend(deck[i : i + p.packet])
                i += p.packet
                if k == 0 and r < p.dog:
                    dog.append(deck[i])
                    i += 1
        state = FrenchTarotState(
            players=players,
            dealer=dealer,
            chelem_option=bool(options.get("chelem", True)),
            phase=Phase.BIDDING,
            hands=tuple(tuple(sorted(h, key=sort_key)) for h in hands),
            dog=tuple(dog),
            turn=order[0],
            bids=(None,) * players,
            tricks_won=(0,) * players,
        )
        # french_tarot §3.2, C-10, D-16: a petit sec cancels the deal before bidding.
        for hand in state.hands:
            if PETIT in hand and EXCUSE not in hand and sum(map(is_trump, hand)) == 1:
                return state._replace(
                    phase=Phase.DONE, turn=None, outcome="redeal", deltas=(0,) * players
                )
        return state

    def to_act(self, state: FrenchTarotState) -> int | None:
        return state.turn

    # ---- legality ------------------------------------------------------------------
    def _high_bid(self, s: FrenchTarotState) -> int:
        return max((CONTRACTS.index(b) for b in s.bids if b not in (None, "pass")), default=-1)

    def legal_cards(self, s: FrenchTarotState) -> list[str]:
        """Cards the seat to act may play now (§4.2 and the trick-1 lead ban)."""
        t = s.turn
        if t is None or s.phase is not Phase.PLAY:
            return []
        hand = s.hands[t]
        cards = legal_plays(hand, s.trick)
        if not s.tricks and not s.trick and s.players == 5 and s.called is not None:
            # french_tarot D-14, C-5: the first leader may not lead the called suit except
            # with the called card itself, unless nothing else can be led.
            banned = suit_of(s.called)
            allowed = [c for c in cards if suit_of(c) != banned or c == s.called]
            if allowed:
                cards = allowed
        return cards

    def legal_actions(self, state: FrenchTarotState) -> tuple[Action, ...]:
        s = state
        t = s.turn
        if t is None:
            return ()
        if s.phase is Phase.BIDDING:
            high = self._high_bid(s)
            return (
                Action("bid", t, contract="pass"),
                *(Action("bid", t, contract=c) for c in CONTRACTS[high + 1 :]),
            )
        if s.phase is Phase.CALL:
            return tuple(Action("call", t, card=c) for c in callable_cards(s.hands[t]))
        if s.phase is Phase.DISCARD:
            size = PARAMS[s.players].dog
            plain, trumps, need = discard_counts(s.hands[t], size)
            cards = tuple(sorted(plain + (trumps if need else []), key=sort_key))
            return (Action("discard", t, cards=cards, amount=size),)
        if s.phase is Phase.CHELEM:
            return (Action("chelem", t, announce=False), Action("chelem", t, announce=True))
        plays = tuple(Action("play", t, card=c) for c in self.legal_cards(s))
        if self._may_show_poignee(s, t):
            shows = tuple(
                Action("poignee", t, cards=cards, amount=size)
                for _, size, cards in poignee_options(s.hands[t], s.players)
            )
            return plays + shows
        return plays

    def _may_show_poignee(self, s: FrenchTarotState, seat: int) -> bool:
        """Before the seat's first card and only once (C-6)."""
        return len(s.hands[seat]) == PARAMS[s.players].cards and all(
            p[0] != seat for p in s.poignees
        )

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
    def apply(
        self, state: FrenchTarotState, action: Action
    ) -> tuple[FrenchTarotState, tuple[Event, ...]]:
        s = state
        if s.turn is None:
            raise IllegalAction("deal_over", "this deal is over")
        if action.seat != s.turn:
            raise IllegalAction("not_your_turn", f"it is seat {s.turn}'s turn")
        kind = action.type
        expected = {
            Phase.BIDDING: ("bid",),
            Phase.CALL: ("call",),
            Phase.DISCARD: ("discard",),
            Phase.CHELEM: ("chelem",),
            Phase.PLAY: ("play", "poignee"),
        }[s.phase]
        if kind not in expected:
            raise IllegalAction("illegal_action", f"a {kind} is not possible now ({s.phase})")
        if kind == "bid":
            return self._bid(s, action)
        if kind == "call":
            return self._call(s, action)
        if kind == "discard":
            return self._discard(s, action)
        if kind == "chelem":
            return self._announce(s, action)
        if kind == "poignee":
            return self._poignee(s, action)
        return self._play(s, action)

    def _bid(self, s: FrenchTarotState, a: Action) -> tuple[FrenchTarotState, tuple[Event, ...]]:
        t = a.seat
        if a.contract not in ("pass", *CONTRACTS[self._high_bid(s) + 1 :]):
            raise IllegalAction("illegal_action", f"you cannot bid {a.contract!r} now")
        s = s._replace(bids=_set(s.bids, t, a.contract))
        events: list[Event] = [Event("bid", t, {"contract": a.contract})]
        if t != s.dealer:  # C-8: everyone speaks once; the dealer speaks last
            return s._replace(turn=right(t, s.players)), tuple(events)
        high = self._high_bid(s)
        if high < 0:
            events.append(Event("thrown_in"))
            return s._replace(
                phase=Phase.DONE, turn=None, outcome="thrown_in", deltas=(0,) * s.players
            ), tuple(events)
        contract = CONTRACTS[high]
        taker = s.bids.index(contract)
        s = s._replace(taker=taker, contract=contract)
        events.append(Event("taker", taker, {"contract": contract}))
        if s.players == 5:
            return s._replace(phase=Phase.CALL, turn=taker), tuple(events)
        return self._after_call(s, events)

    def _call(self, s: FrenchTarotState, a: Action) -> tuple[FrenchTarotState, tuple[Event, ...]]:
        if a.card not in callable_cards(s.hands[a.seat]):
            raise IllegalAction("illegal_action", f"you cannot call {a.card}")
        s = s._replace(called=a.card)
        return self._after_call(s, [Event("called", a.seat, {"card": a.card})])

    def _after_call(
        self, s: FrenchTarotState, events: list[Event]
    ) -> tuple[FrenchTarotState, tuple[Event, ...]]:
        taker = s.taker
        assert taker is not None and s.contract is not None
        if s.contract in DOG_TAKEN:
            # §3.5: the dog is shown to everyone and joins the taker's hand.
            events.append(Event("dog_revealed", taker, {"cards": sorted(s.dog)}))
            hand = tuple(sorted(s.hands[taker] + s.dog, key=sort_key))
            s = s._replace(hands=_set(s.hands, taker, hand), phase=Phase.DISCARD, turn=taker)
            return s, tuple(events)
        events.append(
            Event("dog_aside", taker, {"to": "attack" if s.contract == "garde_sans" else "defence"})
        )
        return self._after_discard(s, events)

    def _discard(
        self, s: FrenchTarotState, a: Action
    ) -> tuple[FrenchTarotState, tuple[Event, ...]]:
        t = a.seat
        cards = a.cards or ()
        size = PARAMS[s.players].dog
        hand = s.hands[t]
        if len(cards) != size or len(set(cards)) != size:
            raise IllegalAction("illegal_action", f"discard exactly {size} different cards")
        if any(c not in hand for c in cards):
            raise IllegalAction("illegal_action", "you can only discard cards you hold")
        plain, trumps, need = discard_counts(hand, size)
        bad = [c for c in cards if c not in plain and c not in trumps]
        if bad:
            raise IllegalAction(
                "illegal_action", f"{bad[0]} cannot be discarded (no Kings, no bouts)"
            )
        shown = sorted(c for c in cards if is_trump(c))
        if len(shown) != need:  # C-11: exactly as many trumps as forced
            raise IllegalAction(
                "illegal_action",
                "trumps may be discarded only when nothing else can be"
                if len(shown) > need
                else f"the discard must include {need} trump(s)",
            )
        for c in cards:
            hand = remove_card(hand, c)
        s = s._replace(hands=_set(s.hands, t, hand), discard=tuple(sorted(cards)))
        return self._after_discard(s, [Event("discarded", t, {"count": size, "trumps": shown})])

    def _after_discard(
        self, s: FrenchTarotState, events: list[Event]
    ) -> tuple[FrenchTarotState, tuple[Event, ...]]:
        if s.chelem_option:  # C-7
            return s._replace(phase=Phase.CHELEM, turn=s.taker), tuple(events)
        return self._start_play(s, events)

    def _announce(
        self, s: FrenchTarotState, a: Action
    ) -> tuple[FrenchTarotState, tuple[Event, ...]]:
        s = s._replace(chelem=bool(a.announce))
        return self._start_play(s, [Event("chelem", a.seat, {"announce": bool(a.announce)})])

    def _start_play(
        self, s: FrenchTarotState, events: list[Event]
    ) -> tuple[FrenchTarotState, tuple[Event, ...]]:
        partner: int | None = None
        if s.called is not None:
            # C-9: the holder of the called card once play starts; none after a self-call,
            # with the card in the dog (picked up or not) or discarded.
            holders = [p for p, h in enumerate(s.hands) if s.called in h]
            partner = holders[0] if holders and holders[0] != s.taker else None
        leader = s.taker if s.chelem and s.taker is not None else right(s.dealer, s.players)
        s = s._replace(phase=Phase.PLAY, partner=partner, leader=leader, turn=leader)
        return s, tuple(events)

    def _poignee(
        self, s: FrenchTarotState, a: Action
    ) -> tuple[FrenchTarotState, tuple[Event, ...]]:
        t = a.seat
        if not self._may_show_poignee(s, t):
            raise IllegalAction("illegal_action", "a poignée is shown once, before your first card")
        cards = tuple(sorted(set(a.cards or ()), key=sort_key))
        if len(cards) != len(a.cards or ()):
            raise IllegalAction("illegal_action", "show each card once")
        for level, size, showable in poignee_options(s.hands[t], s.players):
            if len(cards) != size or not set(cards) <= set(showable):
                continue
            if EXCUSE in showable and set(cards) != set(showable):
                continue
            s = s._replace(poignees=(*s.poignees, (t, level, cards)))
            return s, (Event("poignee", t, {"level": level, "cards": sorted(cards)}),)
        sizes = [o[1] for o in poignee_options(s.hands[t], s.players)]
        raise IllegalAction(
            "illegal_action",
            f"a poignée shows exactly {' or '.join(map(str, sizes)) or 'enough'} trumps you hold"
            " (the Excuse only with all your trumps)",
        )

    def _play(self, s: FrenchTarotState, a: Action) -> tuple[FrenchTarotState, tuple[Event, ...]]:
        t = a.seat
        card = a.card
        if card is None or card not in self.legal_cards(s):
            if card not in s.hands[t]:
                raise IllegalAction("illegal_action", f"you do not hold {card}")
            raise IllegalAction("illegal_action", f"{card} cannot be played now")
        trick = (*s.trick, (t, card))
        events: list[Event] = [Event("card_played", t, {"card": card})]
        s = s._replace(hands=_set(s.hands, t, remove_card(s.hands[t], card)), trick=trick)
        if card == s.called:
            s = s._replace(called_by=t)  # D-13: the partnership becomes public now
            events.append(Event("partner_revealed", t, {"card": card, "alone": t == s.taker}))
        if len(trick) < s.players:
            return s._replace(turn=right(t, s.players)), tuple(events)
        last = len(s.tricks) == PARAMS[s.players].cards - 1
        winner = trick_winner(trick)
        excuse_won = False
        if last and trick[0][1] == EXCUSE:
            # §4.5, C-2: a camp that took every trick wins the last with a led Excuse.
            camp = self._camp(s, trick[0][0])
            if all(self._camp(s, w) == camp for w in s.winners):
                winner, excuse_won = trick[0][0], True
        s = s._replace(
            trick=(),
            tricks=(*s.tricks, trick),
            winners=(*s.winners, winner),
            tricks_won=_set(s.tricks_won, winner, s.tricks_won[winner] + 1),
            leader=winner,
            turn=winner,
            excuse_won_last=excuse_won,
        )
        events.append(Event("trick_won", winner, {"cards": [c for _, c in trick]}))
        if not last:
            return s, tuple(events)
        return self._finish(s, events)

    def _camp(self, s: FrenchTarotState, seat: int) -> bool:
        """True for the attack (taker and hidden partner)."""
        return seat == s.taker or seat == s.partner

    def _finish(
        self, s: FrenchTarotState, events: list[Event]
    ) -> tuple[FrenchTarotState, tuple[Event, ...]]:
        assert s.taker is not None and s.contract is not None
        deltas, detail = score(
            players=s.players,
            taker=s.taker,
            partner=s.partner,
            contract=s.contract,
            dog=s.dog,
            discard=s.discard,
            tricks=s.tricks,
            winners=s.winners,
            excuse_won_last=s.excuse_won_last,
            poignees=[(seat, level) for seat, level, _ in s.poignees],
            chelem_announced=s.chelem,
        )
        detail["called"] = s.called
        detail["dog"] = sorted(s.dog)
        detail["discard"] = sorted(s.discard)
        s = s._replace(phase=Phase.DONE, turn=None, outcome="played", deltas=deltas, detail=detail)
        events.append(Event("deal_over", data={"deltas": list(deltas)}))
        return s, tuple(events)

    # ---- results -------------------------------------------------------------------
    def result(self, state: FrenchTarotState) -> DealResult | None:
        s = state
        if s.outcome is None or s.deltas is None:
            return None
        detail = dict(s.detail or {})
        if s.outcome != "played":
            detail = {"reason": "petit_sec" if s.outcome == "redeal" else "all_passed"}
        return DealResult(s.outcome, s.deltas, detail)

    def default_action(self, state: FrenchTarotState) -> Action:
        """Timeouts (rules README): pass, the first callable card, the lowest legal discard,
        no chelem, the lowest legal card (the Excuse last)."""
        s = state
        t = s.turn
        if t is None:
            raise IllegalAction("deal_over", "this deal is over")
        if s.phase is Phase.BIDDING:
            return Action("bid", t, contract="pass")
        if s.phase is Phase.CALL:
            return Action("call", t, card=callable_cards(s.hands[t])[0])
        if s.phase is Phase.DISCARD:
            plain, trumps, need = discard_counts(s.hands[t], PARAMS[s.players].dog)
            low = sorted(plain, key=rank)[: len(plain) if need else PARAMS[s.players].dog]
            chosen = low + sorted(trumps, key=rank)[:need]
            return Action("discard", t, cards=tuple(chosen))
        if s.phase is Phase.CHELEM:
            return Action("chelem", t, announce=False)
        cards = self.legal_cards(s)
        best = min(cards, key=lambda c: (c == EXCUSE, is_trump(c), rank(c), _GROUP[suit_of(c)]))
        return Action("play", t, card=best)

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
        top = max(totals)
        return tuple(p for p, v in enumerate(totals) if v == top)  # ties → co-winners

    # ---- observations --------------------------------------------------------------
    def _public_info(self, s: FrenchTarotState) -> dict[str, Any]:
        done = s.phase is Phase.DONE
        dog_public = s.contract in DOG_TAKEN and s.phase is not Phase.BIDDING
        # A called card seen in the revealed dog tells everyone the taker is alone (C-9).
        in_dog = dog_public and s.called is not None and s.called in s.dog
        shown_partner = s.called_by is not None or done or in_dog
        info: dict[str, Any] = {
            "bids": [[p, b] for p, b in enumerate(s.bids) if b is not None],
            "taker": s.taker,
            "contract": s.contract,
            "called": s.called,
            # D-13: the partner (or a solo) is public only once the called card is played.
            "partner": (s.called_by if s.called_by != s.taker else None)
            if s.called_by is not None
            else (s.partner if done else None),
            "alone": (s.called_by == s.taker if s.called_by is not None else s.partner is None)
            if shown_partner and s.called is not None
            else None,
            "dog": sorted(s.dog) if dog_public or done else None,
            "dog_size": len(s.dog),
            "discarded_trumps": sorted(c for c in s.discard if is_trump(c)),
            "chelem": s.chelem,
            "poignees": [
                {"seat": seat, "level": level, "cards": sorted(cards)}
                for seat, level, cards in s.poignees
            ],
            "leader": s.leader if s.phase is Phase.PLAY else None,
        }
        if done and s.outcome == "played":
            info["discard"] = sorted(s.discard)
        return info

    def observe_public(self, state: FrenchTarotState) -> PublicView:
        s = state
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
            last_trick=s.tricks[-1] if s.tricks else (),
            last_winner=s.winners[-1] if s.winners else None,
            info=self._public_info(s),
            result=self.result(s),
        )

    def observe(self, state: FrenchTarotState, seat: int) -> SeatView:
        s = state
        legal = self.legal_actions(s) if s.turn == seat else ()
        info: dict[str, Any] = {}
        if seat == s.taker and s.discard:
            info["discard"] = list(s.discard)
        if s.phase is Phase.PLAY and self._may_show_poignee(s, seat):
            info["poignee_levels"] = [o[1] for o in poignee_options(s.hands[seat], s.players)]
        return SeatView(
            seat=seat, hand=s.hands[seat], legal=legal, public=self.observe_public(s), info=info
        )


def all_discards(hand: Sequence[str], size: int) -> list[tuple[str, ...]]:
    """Every legal discard of ``size`` cards (tests and small searches only: combinatorial)."""
    plain, trumps, need = discard_counts(hand, size)
    return [p + t for p in combinations(plain, size - need) for t in combinations(trumps, need)]


RULES = FrenchTarotRules()
