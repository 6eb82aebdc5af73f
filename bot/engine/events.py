"""Events returned by ``Rules.apply``: what happened, for renderers and logs to narrate."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, NamedTuple

_NO_DATA: Any = MappingProxyType[str, Any]({})


class Event(NamedTuple):
    """A tagged fact, e.g. ``Event("card_played", seat=2, data={"card": "T13"})``.

    ``data`` holds only JSON values and public information: events are shown in channels.
    """

    type: str
    seat: int | None = None
    data: dict[str, Any] = _NO_DATA  # read-only default, shared safely

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{"type": ..., "seat": ..., **data}``."""
        out: dict[str, Any] = {"type": self.type}
        if self.seat is not None:
            out["seat"] = self.seat
        out.update(self.data)
        return out
