"""Keeping a long-running bot tidy: downtime forgiven on start-up, idle tables ended, tables of
a removed server or a deleted channel closed, a forgetting player's seats given up, the recent
leaderboards' rolling totals aged, and the hash of the last command sync.

Every table that ends here ends unrated (abandoned) through the same commit as the rest, so
the publisher shows it like any other change.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from bot.db import bot_state, rolling
from bot.engine.events import Event
from bot.services.delivery import TableDelivery
from bot.services.models import Outcome
from bot.services.stats import DAY, RECENT_DAYS

log = logging.getLogger(__name__)

ALIVE_KEY = "alive_at"
#: Downtime shorter than this is not worth forgiving (a quick restart, a slow sweep).
FORGIVE_AFTER = 30.0
#: The recent boards' window, and how far it moves at least each time the sweeper rolls it:
#: a board reads at most this much (plus a sweep) of raw results beyond its rolling totals.
ROLLING_WINDOW = RECENT_DAYS * DAY
ROLL_STEP = 60.0

#: The ``bot_state`` key of the synced commands' ids (a JSON object, name → id).
COMMAND_IDS = "command_ids"


@dataclass(frozen=True, slots=True)
class Ended:
    """A table that upkeep ended, and why: ``idle`` or ``gone`` (server or channel)."""

    outcome: Outcome
    why: str


class TableUpkeep(TableDelivery):
    """Upkeep use cases (see the module docstring)."""

    # ---- downtime ----------------------------------------------------------------------
    async def heartbeat(self, now: float | None = None) -> None:
        """Record that the bot is alive (the sweeper calls this every sweep)."""
        when = self._clock() if now is None else now
        await bot_state.put(self.db, ALIVE_KEY, repr(when), when)

    async def forgive_downtime(self, now: float | None = None) -> float:
        """On start-up: move every pending turn deadline later by the time the bot was down,
        so nobody is marked away for turns they could not play. Returns the downtime
        forgiven (0 when too short to matter, or on the very first start).

        Atomic in the database: in a cluster, processes starting together (or one starting
        while others run and keep the heartbeat fresh) never forgive the same downtime twice.
        """
        when = self._clock() if now is None else now
        down, moved = await bot_state.forgive(self.db, ALIVE_KEY, when, FORGIVE_AFTER)
        if down:
            log.info("forgave %.0f s of downtime: %s turn clocks moved", down, moved)
        return down

    # ---- recent boards -------------------------------------------------------------------
    async def roll_boards(self, now: float | None = None) -> bool:
        """Age the recent boards' rolling totals to the window starting 30 days before
        ``now`` (rounded down to ``ROLL_STEP``); the sweeper calls this every sweep. True if
        this call moved them: once per step across a cluster, whichever process is first
        (the others find the window there already). Boards are exact either way
        (``bot.db.rolling``); rolling keeps them to rolling rows plus a minute of results."""
        when = self._clock() if now is None else now
        until = (when - ROLLING_WINDOW) // ROLL_STEP * ROLL_STEP
        return await rolling.roll(self.db, until)

    # ---- ending tables ---------------------------------------------------------------------
    async def expire_idle(
        self, now: float | None, *, lobby_idle: float, table_idle: float
    ) -> list[Ended]:
        """Lobbies unchanged for ``lobby_idle`` seconds close; running games with no action
        for ``table_idle`` seconds end unrated."""
        when = self._clock() if now is None else now
        ended: list[Ended] = []
        for status, idle in (("lobby", lobby_idle), ("playing", table_idle)):
            for table_id in await bot_state.idle(self.db, status, when - idle):
                outcome = await self._abandon(table_id, "idle", status, idle_before=when - idle)
                if outcome is not None:
                    ended.append(Ended(outcome, "idle"))
        return ended

    async def close_guild(self, guild_id: int) -> list[Ended]:
        """The bot left (or was removed from) a server: its open tables end unrated."""
        return await self._close_all(await bot_state.open_in(self.db, guild_id=guild_id))

    async def close_channel(self, channel_id: int) -> list[Ended]:
        """A channel was deleted: its open table ends unrated."""
        return await self._close_all(await bot_state.open_in(self.db, channel_id=channel_id))

    async def close_unreachable(self, table_id: int) -> Outcome | None:
        """The table's channel is deleted or the bot lost access to it: the table ends,
        unrated. None if it had ended already."""
        return await self._abandon(table_id, "unreachable")

    async def _close_all(self, table_ids: list[int]) -> list[Ended]:
        ended: list[Ended] = []
        for table_id in table_ids:
            outcome = await self._abandon(table_id, "unreachable")
            if outcome is not None:
                ended.append(Ended(outcome, "gone"))
        return ended

    async def _abandon(
        self,
        table_id: int,
        reason: str,
        status: str | None = None,
        *,
        idle_before: float | None = None,
    ) -> Outcome | None:
        """End one open table unrated (``status``: only if it still has that status;
        ``idle_before``: only if still unchanged since then). Both are checked again under
        the table's lock: a move made meanwhile, here or by another process, keeps it open."""
        async with self._lock(table_id):
            rec = await self.store.get(table_id)
            if rec is None or rec.status not in ("lobby", "playing"):
                return None
            if status is not None and rec.status != status:
                return None
            if idle_before is not None and rec.updated_at >= idle_before:
                return None
            return await self._end_open(rec, Event("abandoned", data={reason: True}))

    async def open_table_count(self) -> int:
        """How many tables are open (lobbies and games), for ``/help``."""
        return await bot_state.count_open(self.db)

    # ---- command sync ------------------------------------------------------------------------
    async def synced_commands(self, scope: str) -> str | None:
        """The hash of the command tree last synced to ``scope`` (``global`` or a guild)."""
        return await bot_state.get(self.db, f"commands:{scope}")

    async def commands_synced(self, scope: str, digest: str) -> None:
        await bot_state.put(self.db, f"commands:{scope}", digest, self._clock())

    async def command_ids(self) -> dict[str, int]:
        """The ids Discord gave the top-level commands at the last sync (name → id), for the
        command mentions every process writes; empty before the first sync."""
        stored = await bot_state.get(self.db, COMMAND_IDS)
        return {} if stored is None else {str(k): int(v) for k, v in json.loads(stored).items()}

    async def command_ids_synced(self, ids: dict[str, int]) -> None:
        await bot_state.put(self.db, COMMAND_IDS, json.dumps(ids, sort_keys=True), self._clock())
