"""Observations: the engine's privacy boundary.

Channel renderers receive only a ``PublicView``; a seat's DM or ephemeral renderer receives
only that seat's ``SeatView``. Neither ever holds a card from a hidden hand.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from bot.engine.actions import Action
from bot.engine.trick import Play

_Observe = TypeVar("_Observe", bound=Callable[[Any, Any], "PublicView"])


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a finished deal ended.

    Attributes:
        outcome: ``played``, ``mucked``, ``thrown_in`` or ``redeal`` (scenario outcomes).
        deltas: score change per seat.
        detail: game-specific public summary (roles, tricks, contract made...).
    """

    outcome: str
    deltas: tuple[int, ...]
    detail: dict[str, Any] = field(default_factory=dict[str, Any])

    def to_json(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "deltas": list(self.deltas), "detail": self.detail}


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything the table channel may show about a deal."""

    game_id: str
    phase: str
    players: int
    dealer: int
    to_act: int | None
    hand_sizes: tuple[int, ...]
    trick: tuple[Play, ...]
    tricks_won: tuple[int, ...]
    tricks_played: int
    last_trick: tuple[Play, ...] = ()
    last_winner: int | None = None
    info: dict[str, Any] = field(default_factory=dict[str, Any])
    result: DealResult | None = None
    #: The public form of every action taken in this deal, in order (card memory for players
    #: and computers). What others may not see is masked: a discard keeps its seat and
    #: ``amount`` (how many cards) with ``cards=None``; played cards, bids, calls, shown
    #: poignées and declarations are public and kept whole.
    history: tuple[Action, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "phase": self.phase,
            "players": self.players,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "hand_sizes": list(self.hand_sizes),
            "trick": [list(p) for p in self.trick],
            "tricks_won": list(self.tricks_won),
            "tricks_played": self.tricks_played,
            "last_trick": [list(p) for p in self.last_trick],
            "last_winner": self.last_winner,
            "info": self.info,
            "result": None if self.result is None else self.result.to_json(),
            "history": [a.to_json() for a in self.history],
        }


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's private view: its hand (display order), its legal actions, public info."""

    seat: int
    hand: tuple[str, ...]
    legal: tuple[Action, ...]
    public: PublicView
    info: dict[str, Any] = field(default_factory=dict[str, Any])


def once_per_state(observe_public: _Observe) -> _Observe:
    """``Rules.observe_public`` remembering the last state it was given (by identity).

    A seat's view embeds the public view, so building every seat's view of one state (an
    ``Outcome`` after each action, the renderers, the invariant tests) computed the same public
    view once per seat, and that was the costliest part of observing. States are immutable and
    so are public views (their ``info`` is read, never written), so the last one is handed out
    again. The cache holds its state, whose identity therefore cannot be reused, and is replaced
    in one assignment: threads sharing a rules object see the old pair or the new one.
    """
    last: list[tuple[Any, Any, PublicView | None]] = [(None, None, None)]

    @functools.wraps(observe_public)
    def observe(rules: Any, state: Any) -> PublicView:
        hit_rules, hit_state, view = last[0]
        if hit_state is state and hit_rules is rules and view is not None:
            return view
        view = observe_public(rules, state)
        last[0] = (rules, state, view)
        return view

    return cast(_Observe, observe)
