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
values and work units as through the views, and the same cards as the casual policy.
"""

from __future__ import annotations

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

#: The trumps, strongest first (the Angel, XX, above the World, XXI).
_TRUMPS = sorted((c for c in TAROT_PACK if c[0] == TRUMP), key=lambda c: -STRENGTH[c])


def play_out(state: Any, history: list[Action]) -> tuple[Any, int] | None:
    """Play ``state``'s card play to the end, casual in every seat: (final state, cards
    played), ``history`` (the public history so far) extended in place; ``None`` outside the
    card play (the caller goes on through the views).

    The seats without trumps are read from the history as ``_trumpless`` reads it: in runs of
    three plays from its first play, the suit led being a run's first card but the Fool."""
    if state.phase is not Phase.PLAY:
        return None
    plays = [(a.seat, a.card) for a in history if a.type == "play" and a.card is not None]
    seen = {c for _, c in plays}
    void: set[int] = set()
    run = 0  # plays in the current run of three
    led: str | None = None
    for seat, card in plays:
        if run == PLAYERS:
            run, led = 0, None
        run += 1
        if card == FOOL:
            continue
        if led is None:
            led = SUIT[card]
        elif SUIT[card] != led and card[0] != TRUMP:
            void.add(seat)
    units = 0
    while (t := state.turn) is not None:
        hand = state.hands[t]
        trick = state.trick
        legal = legal_cards(hand, trick)
        if len(legal) == 1:
            card = legal[0]
        else:

            def unbeatable(trump: str, t: int = t, hand: Any = hand, trick: Any = trick) -> bool:
                # ``queen_of_tarot._unbeatable`` on the same facts
                if trump[0] != TRUMP:
                    return False
                if all((t - i) % PLAYERS in void for i in range(1, PLAYERS - len(trick))):
                    return True
                strength = STRENGTH[trump]
                for other in _TRUMPS:
                    if STRENGTH[other] <= strength:
                        return True
                    if (
                        other not in seen
                        and other not in hand
                        and all(c != other for _, c in trick)
                    ):
                        return False
                return True

            card = card_play(trick, t, len(hand), legal, unbeatable)
        history.append(PLAY[t][card])
        seen.add(card)
        if run == PLAYERS:
            run, led = 0, None
        run += 1
        if card != FOOL:
            if led is None:
                led = SUIT[card]
            elif SUIT[card] != led and card[0] != TRUMP:
                void.add(t)
        state = played(state, t, card, False)[0]
        units += 1
    return state, units
