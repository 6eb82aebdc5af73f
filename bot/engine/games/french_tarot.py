"""French Tarot (FFT rules) for 3, 4 and 5 players, with the called King at 5.

Implements ``shared/rules/french_tarot.md`` (decisions D-1…D-23, clarifications C-1…C-12).
Play goes counter-clockwise: the next seat is ``right(s) = (s - 1) mod N``. Card data and
trick rules live in ``french_tarot_cards``, the state in ``french_tarot_state``, the
transitions in ``french_tarot_flow`` and scoring in ``french_tarot_scoring``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, TAROT_PACK
from bot.engine.errors import IllegalAction
from bot.engine.games import french_tarot_flow as flow
from bot.engine.games.french_tarot_cards import (
    CONTRACTS,
    DOG_TAKEN,
    GROUP,
    PARAMS,
    PETIT,
    callable_cards,
    discard_counts,
    is_trump,
    poignee_options,
    rank,
    right,
    sort_key,
    suit_of,
)
from bot.engine.games.french_tarot_flow import Step
from bot.engine.games.french_tarot_state import (
    FrenchTarotState,
    Phase,
    high_bid,
    legal_cards,
    may_show_poignee,
    play_restriction,
)
from bot.engine.restriction import PlayRestriction, with_restriction
from bot.engine.rules import OptionSpec, Rules, leaders
from bot.engine.views import DealResult, PublicView, SeatView


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
    def legal_cards(self, s: FrenchTarotState) -> list[str]:
        """Cards the seat to act may play now (§4.2 and the trick-1 lead ban)."""
        return legal_cards(s)

    def play_restriction(self, state: FrenchTarotState, seat: int) -> PlayRestriction | None:
        """Why a card ``seat`` holds is not legal now (``bot.engine.restriction``)."""
        return play_restriction(state, seat)

    def legal_actions(self, state: FrenchTarotState) -> tuple[Action, ...]:
        s = state
        t = s.turn
        if t is None:
            return ()
        if s.phase is Phase.BIDDING:
            high = high_bid(s)
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
        if may_show_poignee(s, t):
            shows = tuple(
                Action("poignee", t, cards=cards, amount=size)
                for _, size, cards in poignee_options(s.hands[t], s.players)
            )
            return plays + shows
        return plays

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
    def apply(self, state: FrenchTarotState, action: Action) -> Step:
        return flow.apply(state, action)

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
        best = min(cards, key=lambda c: (c == EXCUSE, is_trump(c), rank(c), GROUP[suit_of(c)]))
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
        return leaders(totals)  # ties → co-winners

    # ---- observations --------------------------------------------------------------
    def _public_info(self, s: FrenchTarotState) -> dict[str, Any]:
        done = s.phase is Phase.DONE
        # The dog is shown after the call (§3.4: the King is called before the dog is seen).
        dog_public = s.contract in DOG_TAKEN and s.phase not in (Phase.BIDDING, Phase.CALL)
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
        if s.phase is Phase.PLAY and may_show_poignee(s, seat):
            info["poignee_levels"] = [o[1] for o in poignee_options(s.hands[seat], s.players)]
        with_restriction(info, self.play_restriction(s, seat))
        return SeatView(
            seat=seat, hand=s.hands[seat], legal=legal, public=self.observe_public(s), info=info
        )


RULES = FrenchTarotRules()
