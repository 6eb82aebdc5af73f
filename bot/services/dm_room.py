"""One table at a time in a player's DMs (issue 33): making room there for a new one.

A DM channel holds one open table (the database's ``tables_open_channel`` index): a daily
deal, a solo league entry or a "Try another way" replay. A replay is a practice table the
player may walk away from, so asking for another replay, or for a daily deal or a league set,
**replaces** an unfinished replay of the player's own there: it ends, abandoned with the
reason ``replaced`` (its messages say so, its old buttons are refused with that reason), and
touches no rating, statistic nor luck row (a practice table keeps none). Any other table there
(a daily deal or league set under way, or anyone else's) still refuses the new one.

In one step that another click cannot half-apply: the whole of it (the old table ended, the
new one made and dealt) runs under the DM channel's lock in this process, and the old table
is ended under its own table lock after checking, there, that it is still open. Between two
processes, the database's one-open-table-per-channel index makes the second maker fail
(``ChannelBusy``, refused), and a maker finds its new table still a lobby before dealing it
(``DmRoom._still_lobby``), so a replay ended meanwhile is never dealt into again.
"""

from __future__ import annotations

from typing import Any

from bot.db.tables import ChannelBusy, TableRecord
from bot.engine.events import Event
from bot.services.core import TableCore
from bot.services.errors import WrongState
from bot.services.models import Outcome

REPLACED = "replaced"


class DmRoom(TableCore):
    """Room for a new table in a player's DM channel (see the module docstring)."""

    async def _make_dm_room(
        self, channel_id: int, user_id: int, busy: WrongState
    ) -> tuple[Outcome, ...]:
        """End ``user_id``'s unfinished replay in their DM channel ``channel_id``, if any; the
        caller holds ``_channel_lock(channel_id)`` and makes its table next. Raises ``busy``
        when another table holds the channel. Returns the ended replays' outcomes (for the
        publisher, ``Outcome.others``)."""
        ended: list[Outcome] = []
        for rec in await self.store.all_open_in_channel(channel_id):
            if not _own_replay(rec, user_id):
                raise busy
            async with self._lock(rec.id):
                rec = await self._load(rec.id)
                if rec.status in ("lobby", "playing"):  # else ended meanwhile (elsewhere)
                    why = Event("abandoned", data={REPLACED: True})
                    ended.append(await self._end_open(rec, why, end_reason=REPLACED))
        return tuple(ended)

    async def _create_in_dm(
        self,
        channel_id: int,
        user_id: int,
        message_id: int | None,
        busy: WrongState,
        **table: Any,
    ) -> int:
        """Make the player's new table in their DM channel ``channel_id`` (the caller holds its
        lock and made room there) and record its message ``message_id``, if any: the table's
        id. A table another process made there meanwhile is refused with ``busy``; the
        store's other refusals reach the caller."""
        try:
            table_id = await self.store.create(
                guild_id=0,  # the DMs: no server lists, closes or settles it
                channel_id=channel_id,
                owner_id=user_id,
                **table,
            )
        except ChannelBusy:
            raise busy from None
        if message_id is not None:
            await self.store.set_message(table_id, message_id)
        return table_id

    async def _still_lobby(self, table_id: int) -> TableRecord:
        """The new table, loaded under its lock, if it is still the lobby its maker made:
        another process may have replaced it (``_make_dm_room``) before it was dealt."""
        rec = await self._load(table_id)
        if rec.status != "lobby":
            raise WrongState("replay_replaced")
        return rec


def _own_replay(rec: TableRecord, user_id: int) -> bool:
    """``rec`` is a replay whose player is ``user_id`` (never anyone else's table)."""
    return rec.replay_of is not None and any(
        s.user_id == user_id and not s.is_bot for s in rec.seats
    )
