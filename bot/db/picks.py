"""A seat's multi-card choice in progress (``seats.picks``, issue 31): the cards its player has
toggled so far for one decision (a discard), kept until the decision is made.

Picks belong to one deal and one kind of choice; the service reads them back only for the
seat's current decision, so picks left from an earlier one are simply ignored (and replaced by
the next toggle).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.db.database import Database


@dataclass(frozen=True, slots=True)
class Picks:
    """The cards picked so far for the ``kind`` choice of deal ``deal``."""

    deal: int
    kind: str
    cards: tuple[str, ...]


async def get(db: Database, table_id: int, seat: int) -> Picks | None:
    """The seat's stored picks (None: none, or unreadable)."""
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT picks FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat)
        )
    if row is None or row[0] is None:
        return None
    try:
        data = json.loads(str(row[0]))
        return Picks(int(data["deal"]), str(data["type"]), tuple(str(c) for c in data["cards"]))
    except (ValueError, KeyError, TypeError):
        return None  # written by no version of ours: as if none


async def put(db: Database, table_id: int, seat: int, user_id: int, picks: Picks) -> None:
    """Store ``picks`` as the seat's, if ``user_id`` still sits there."""
    value = json.dumps(
        {"deal": picks.deal, "type": picks.kind, "cards": list(picks.cards)}, separators=(",", ":")
    )
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE seats SET picks = ? WHERE table_id = ? AND seat = ? AND user_id = ?",
            (value, table_id, seat, user_id),
        )
