"""Player actions: one small tagged dataclass for every game, with a JSON form.

The JSON form is the scenario format of ``design/SCENARIOS.md``:
``{"seat": 2, "type": "play", "card": "T21"}``. Which fields a type carries is declared by
each game's ``action_fields`` (see ``codec.parse_action``).
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Action(NamedTuple):
    """One decision of one seat. Unused fields stay ``None``.

    A NamedTuple: computer players build thousands of these per move, and tuple
    construction is several times cheaper than a frozen dataclass's ``__init__``.
    """

    type: str
    seat: int
    card: str | None = None
    amount: int | None = None
    cards: tuple[str, ...] | None = None
    contract: str | None = None
    suit: str | None = None
    announce: bool | None = None
    bonuses: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON object with ``seat``, ``type`` and the fields this action uses."""
        out: dict[str, Any] = {"seat": self.seat, "type": self.type}
        if self.card is not None:
            out["card"] = self.card
        if self.amount is not None:
            out["amount"] = self.amount
        if self.cards is not None:
            out["cards"] = sorted(self.cards)
        if self.contract is not None:
            out["contract"] = self.contract
        if self.suit is not None:
            out["suit"] = self.suit
        if self.announce is not None:
            out["announce"] = self.announce
        if self.bonuses is not None:
            out["bonuses"] = sorted(self.bonuses)
        return out
