"""Queen of Tarot's casual card play on the bare state: the search rollouts' fast path.

A rollout (``bot.ai.expert.search.rollout``) plays the rest of a deal with the casual card play
in every seat, tens of thousands of cards per decision. Through a ``SeatView`` each card costs
a view (a sorted hand, the public fields, the legal actions, a copy of the public history) and
a scan of the history for the seats that showed no trump — three quarters of a rollout's time
(issue 33: under a fixed work budget, speed is more worlds). ``play_out`` plays the very same
cards (``queen_of_tarot.card_play``, which reads only the trick, the seat, the hand's size, the
legal cards and whether a trump is unbeatable) straight from the state, keeps what the history
tells (cards played, seats without trumps) as it goes, and moves with the engine's own
transition, so the deal and its result are the engine's.

``tests/ai/test_queen_of_tarot_rollout.py`` checks that rollouts through it give the same
values and work units as through the views, and that ``Facts`` reads the history (voids,
unbeatable trumps) exactly as the casual play does.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from bot.ai.queen_of_tarot import card_play
from bot.engine.actions import Action
from bot.engine.cards import TAROT_PACK
from bot.engine.games.queen_of_tarot_cards import (
    FOOL,
    PLAYERS,
    STRENGTH,
    SUIT,
    TRUMP,
    legal_cards,
)
from bot.engine.games.queen_of_tarot_play import PLAY, played
from bot.engine.games.queen_of_tarot_state import Phase
from bot.engine.trick import Play

#: The trumps, strongest first (the Angel, XX, above the World, XXI).
_TRUMPS = sorted((c for c in TAROT_PACK if c[0] == TRUMP), key=lambda c: -STRENGTH[c])


class Facts:
    """What the public history tells the casual card play, kept as cards are played: the cards
    seen played and the seats that showed no trump — read as ``queen_of_tarot._trumpless``
    reads them, in runs of three plays from the history's first play, the suit led being a
    run's first card but the Fool."""

    __slots__ = ("led", "run", "seen", "void")

    def __init__(self, history: list[Action]) -> None:
        self.seen: set[str] = set()
        self.void: set[int] = set()
        self.run = 0  # plays in the current run of three
        self.led: str | None = None
        for a in history:
            if a.type == "play" and a.card is not None:
                self.add(a.seat, a.card)

    def add(self, seat: int, card: str) -> None:
        """``seat`` played ``card``."""
        self.seen.add(card)
        if self.run == PLAYERS:
            self.run, self.led = 0, None
        self.run += 1
        if card == FOOL:
            return
        if self.led is None:
            self.led = SUIT[card]
        elif SUIT[card] != self.led and card[0] != TRUMP:
            self.void.add(seat)

    def unbeatable(self, seat: int, hand: Sequence[str], trick: Sequence[Play], card: str) -> bool:
        """``queen_of_tarot._unbeatable`` for ``seat`` holding ``hand``, ``trick`` on the table:
        whether trump ``card`` can be beaten by none of the players still to play."""
        if card[0] != TRUMP:
            return False
        if all((seat - i) % PLAYERS in self.void for i in range(1, PLAYERS - len(trick))):
            return True
        strength = STRENGTH[card]
        seen = self.seen
        for other in _TRUMPS:
            if STRENGTH[other] <= strength:
                return True
            if other not in seen and other not in hand and all(c != other for _, c in trick):
                return False
        return True


def play_out(state: Any, history: list[Action]) -> tuple[Any, int] | None:
    """Play ``state``'s card play to the end, casual in every seat: (final state, cards
    played), ``history`` (the public history so far) extended in place; ``None`` outside the
    card play (the caller goes on through the views)."""
    if state.phase is not Phase.PLAY:
        return None
    facts = Facts(history)
    units = 0
    while (t := state.turn) is not None:
        hand = state.hands[t]
        trick = state.trick
        legal = legal_cards(hand, trick)
        if len(legal) == 1:
            card = legal[0]
        else:
            card = card_play(trick, t, len(hand), legal, partial(facts.unbeatable, t, hand, trick))
        history.append(PLAY[t][card])
        facts.add(t, card)
        state = played(state, t, card, False)[0]
        units += 1
    return state, units
