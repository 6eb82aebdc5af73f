"""The public notices a commit owes its channel, decided with the commit and kept in the
outbox with it (``bot.db.outbox``), so a restart posts exactly what was due; the Discord layer
words them (``bot.ui.text.life``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.db.tables import TableRecord
from bot.engine.events import Event
from bot.services.models import Notice

NoticeData = tuple[str, dict[str, Any]]  # a notice's kind and data, before its commit's seq

#: Events of a commit its channel is told about (each a notice of that kind, for its seat).
LIFE_EVENTS = ("timed_out", "taken_over", "back", "replaced")


def life_notices(rec: TableRecord, events: Sequence[tuple[int, Event]]) -> list[NoticeData]:
    """The notices a commit's events owe the channel: timeouts, takeovers, returns, seats
    handed over, a table closed for being idle or for having no human left. None for a
    daily deal, a league entry or a replay (played in their player's DMs)."""
    if rec.daily_date is not None or rec.league_session is not None or rec.replay_of is not None:
        return []
    found: list[NoticeData] = []
    for _deal, e in events:
        if e.type == "abandoned" and "idle" in e.data:
            found.append(("idle", {}))
        elif e.type == "abandoned" and not e.data:
            found.append(("nobody", {}))
        elif e.type in LIFE_EVENTS and e.seat is not None:
            found.append((e.type, {"seat": e.seat}))
    return found


def numbered(seq: int, notices: Sequence[NoticeData]) -> tuple[Notice, ...]:
    """The notices of the commit at ``seq``, in order."""
    return tuple(Notice(seq, part, kind, data) for part, (kind, data) in enumerate(notices))
