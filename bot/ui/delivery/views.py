"""The players' "Show my hand" answers kept true (issue 30): an ephemeral hand only its
interaction's token can edit, for 15 minutes.

Each seat's latest answer is remembered in the database (``seats.view_*``), so whichever
process delivers the table, even after a restart, redraws it with the seat's current hand (only
when what it shows changed). Before its token lapses (``REFRESH_FOR``, a sweeper round), when
the game is over or the seat is no longer the player's, and when a newer **Show my hand**
replaces it, it is drawn a last time without controls ("out of date") and forgotten. These
requests answer an interaction: they do not count toward Discord's global rate limit.

Nothing here may fail a delivery: an answer Discord no longer knows (deleted, token lapsed) is
forgotten, one it could not take now (5xx) is redrawn by the next delivery.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

import aiohttp
import discord

from bot import lru
from bot.db.outbox import HandView
from bot.services.errors import ServiceError
from bot.services.models import Outcome, SeatInfo, TableInfo
from bot.services.tables import TableService
from bot.ui.delivery.failures import DeliveryFailure, Gone, Retry, attempt
from bot.ui.delivery.jobs import fingerprint
from bot.ui.delivery.pictures import for_edit
from bot.ui.delivery.protocols import Messenger, Screens

log = logging.getLogger(__name__)

#: An answer is redrawn for this long (seconds), then stamped out of date: its token is valid
#: for 15 minutes, and the last edit must land before that.
REFRESH_FOR = 14 * 60.0


class HandViews:
    """Redraws, stamps and forgets the remembered "Show my hand" answers."""

    def __init__(self, bot: Messenger, service: TableService, screens: Screens) -> None:
        self.bot = bot
        self.service = service
        self.screens = screens
        # token -> fingerprint of what its answer shows (evicted: one more edit)
        self._shown: lru.LRU[str, str] = lru.LRU(lru.SEATS)
        # Tokens whose answer got its last look: a redraw that read the seat before it was
        # forgotten must not put live controls back over it. Each token's requests take its
        # lock, so a stamp and a redraw never cross in this process.
        self._stamped: lru.LRUSet[str] = lru.LRUSet(lru.SEATS)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    async def remember(
        self,
        table: TableInfo,
        seat: int,
        user_id: int,
        interaction: discord.Interaction[Any],
        message_id: int,
        fields: dict[str, Any],
    ) -> None:
        """A **Show my hand** answer was just sent with ``fields``: it becomes the seat's
        remembered one, and the one it replaces is stamped out of date at once."""
        view, older = await self.service.remember_view(
            table.id, seat, user_id, interaction.application_id, interaction.token, message_id
        )
        self._shown[view.token] = fingerprint(fields)
        if older is not None and older.message_id != message_id:
            self._shown.pop(older.token, None)
            await self._stamp(table, _seat(table, seat), older)

    async def refresh(self, outcome: Outcome, table: TableInfo) -> None:
        """Redraw every remembered answer of ``table`` (``table``: its current seats) with
        what ``outcome`` shows its seat; a game over, or a seat the player left, gets its
        last, out-of-date look."""
        over = outcome.table.status in ("finished", "abandoned") or outcome.finished
        for seat in table.seats:
            view = seat.view
            if view is None:
                continue
            if over or seat.resigned or seat.user_id is None:
                if await self.service.forget_view(table.id, seat.seat, view.token):
                    await self._stamp(table, seat, view)
                continue
            if seat.seat not in outcome.seat_views:
                continue  # what this seat sees did not change
            fields = await self.screens.hand_with_picture(outcome, seat.seat, seat.user_id)
            digest = fingerprint(fields)
            async with self._lock(view.token):
                if view.token in self._stamped or self._shown.get(view.token) == digest:
                    continue
                try:
                    await self._edit(view, fields)
                except Retry as e:
                    log.info("table %s seat %s: hand view not redrawn (%s)", table.id, seat.seat, e)
                    continue  # the next delivery tries again
                except DeliveryFailure:
                    # Deleted, or its token lapsed: nothing left to redraw.
                    await self.service.forget_view(table.id, seat.seat, view.token)
                    self._shown.pop(view.token, None)
                    continue
                self._shown[view.token] = digest

    async def expire(self, now: float) -> None:
        """A sweeper round: answers whose token lapses soon get their out-of-date look (each
        taken in the database by one process) and are forgotten."""
        for taken in await self.service.take_expiring_views(now - REFRESH_FOR):
            try:
                table = await self.service.get_table(taken.table_id)
            except ServiceError:  # the table is gone: the words alone
                log.info("table %s: gone before its hand view expired", taken.table_id)
                table = None
            await self._stamp(
                table, None if table is None else _seat(table, taken.seat), taken.view
            )

    async def _stamp(self, table: TableInfo | None, seat: SeatInfo | None, view: HandView) -> None:
        """Draw ``view`` out of date (best effort: a lapsed or deleted one needs nothing)."""
        fields = self.screens.out_of_date_hand(table, seat)
        async with self._lock(view.token):
            self._stamped.add(view.token)
            self._shown.pop(view.token, None)
            try:
                await self._edit(view, fields)
            except DeliveryFailure as e:
                log.info("could not stamp a hand view out of date (%s)", e)

    def _lock(self, token: str) -> asyncio.Lock:
        lock = self._locks.get(token)
        if lock is None:
            lock = self._locks[token] = asyncio.Lock()
        return lock

    async def _edit(self, view: HandView, fields: dict[str, Any]) -> None:
        """Edit the answer through its interaction's token."""
        if not isinstance(self.bot, discord.Client):
            raise Retry("no client to reach Discord with")
        webhook = discord.Webhook.partial(view.app_id, view.token, client=self.bot)
        request = webhook.edit_message(view.message_id, **for_edit(fields))
        what = "a hand view"  # i18n: code (named in the log, never shown)
        try:
            await request
        except discord.HTTPException as e:
            if e.status in (401, 403, 404):
                # Its token lapsed (401, 50027), or the message or the interaction is unknown:
                # an ephemeral answer that is gone for good, not a channel to worry about.
                raise Gone(f"{what}: {e.status} {e.code}") from e
            await attempt(_failed(e), what)  # 5xx: Retry; a 400: Broken, logged
        except (TimeoutError, aiohttp.ClientError, OSError) as e:
            raise Retry(f"{what}: {e!r}") from e


def _seat(table: TableInfo, seat: int) -> SeatInfo | None:
    return next((s for s in table.seats if s.seat == seat), None)


async def _failed(e: Exception) -> None:
    raise e
