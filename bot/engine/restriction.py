"""Why some held cards may not be played now: a short reason code with its data.

Rule knowledge, so it lives in the engine; ``bot/ui`` words it. Every game's
``Rules.play_restriction(state, seat)`` returns a ``PlayRestriction`` when the seat is to play
a card and at least one card it holds is not legal, and ``None`` otherwise (not its turn, not
a card play, or every held card legal). ``observe`` repeats it in ``SeatView.info`` as
``info["play_restriction"] = {"code": …, **data}`` (only when there is one).

Codes and their data (suits are ``S``/``H``/``D``/``C``, ``T`` for tarot trumps):

* ``follow`` ``{"suit": L}`` — you hold the suit led, so you must play it (a La Morte trump
  lead names the trump suit; the Excuse/Fool and La Morte stay legal where the game says so).
* ``trump`` ``{"led": L}`` — you cannot follow ``L``, so you must play a trump.
* ``overtrump`` ``{"led": L}`` — you must play a trump higher than the best one in the trick
  (French Tarot D-6; ``L`` is ``T`` on a trump lead).
* ``called_suit_first_trick`` ``{"suit": L}`` — the called card's suit may not be led on the
  first trick, except the called card itself (French Tarot 5 players, D-14, C-5).
* ``lowest_lead`` ``{}`` — after accepting you must lead one of your lowest-ranked cards
  (La Morte D-8, C-2).
* ``morte_lead`` ``{}`` — La Morte may be led only as your last card (La Morte §4.4).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

#: Every code a game may return (see the module docstring).
CODES: frozenset[str] = frozenset(
    {"follow", "trump", "overtrump", "called_suit_first_trick", "lowest_lead", "morte_lead"}
)


class PlayRestriction(NamedTuple):
    """A reason code and its data; compares equal to ``(code, data)``."""

    code: str
    data: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """``{"code": code, **data}`` (the ``SeatView.info["play_restriction"]`` form)."""
        return {"code": self.code, **self.data}


def some_forbidden(hand: Iterable[str], legal: Iterable[str]) -> bool:
    """True when the hand holds a card that is not among the ``legal`` ones."""
    allowed = set(legal)
    return any(c not in allowed for c in hand)


def with_restriction(info: dict[str, Any], restriction: PlayRestriction | None) -> dict[str, Any]:
    """``info`` with ``play_restriction`` added when there is one (unchanged otherwise)."""
    if restriction is not None:
        info["play_restriction"] = restriction.to_json()
    return info
