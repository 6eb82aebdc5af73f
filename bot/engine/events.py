"""Events returned by ``Rules.apply``: what happened, for renderers and logs to narrate."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """A tagged fact, e.g. ``Event("card_played", seat=2, data={"card": "T13"})``.

    ``data`` holds only JSON values and public information: events are shown in channels.
    """

    type: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict[str, Any])

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{"type": ..., "seat": ..., **data}``."""
        out: dict[str, Any] = {"type": self.type}
        if self.seat is not None:
            out["seat"] = self.seat
        out.update(self.data)
        return out
