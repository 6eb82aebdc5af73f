"""Delivering the players' DM hands: the next player first, the others concurrently (all of
them finished before a retry), each edited only when what its player sees changed; turn
notifications as new messages, each taken from the outbox once; closed DMs switched to **Show
my hand** with one public notice."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot import lru
from bot.db.outbox import InFlight
from bot.i18n import _
from bot.log import table_fields
from bot.services.models import Outcome, SeatInfo, TableInfo
from bot.services.tables import TableService
from bot.ui.delivery.clicks import edit_by_click
from bot.ui.delivery.failures import (
    Broken,
    DeliveryFailure,
    Gone,
    Lost,
    Refused,
    Retry,
    attempt,
)
from bot.ui.delivery.jobs import Job, fingerprint, mark, nonce, shows, together
from bot.ui.delivery.pictures import for_edit, for_send
from bot.ui.delivery.protocols import Messenger, Screens
from bot.ui.text.life import time_left
from bot.ui.text.locale import for_table
from bot.ui.text.names import pinging

log = logging.getLogger(__name__)


class Hands:
    """The DM side of a ``Publisher`` (``shown``: the publisher's fingerprints, shared)."""

    def __init__(
        self,
        bot: Messenger,
        service: TableService,
        screens: Screens,
        shown: lru.LRU[tuple[int, int], str],
    ) -> None:
        self.bot = bot
        self.service = service
        self.screens = screens
        self._shown = shown

    async def deliver(self, job: Job, table: TableInfo, turn: int | None) -> bool:
        """The next player's hand first, then the others concurrently. False: retry later."""
        outcome = job.outcome
        seats = [
            s
            for s in table.seats
            if s.user_id is not None
            and not s.is_bot
            and (s.resigned or s.seat in outcome.seat_views or outcome.table.status == "abandoned")
        ]
        first = [s for s in seats if s.seat == turn]
        rest = [s for s in seats if s.seat != turn]
        # Hands whose sending a crash cut before it was recorded: sent again with their nonce.
        cut = await self.service.hands_in_flight(table.id)
        ok = [await self._hand(job, table, s, cut.get(s.seat)) for s in first]
        ok += await together(*(self._hand(job, table, s, cut.get(s.seat)) for s in rest))
        return all(ok)

    async def _hand(
        self, job: Job, table: TableInfo, seat: SeatInfo, cut: InFlight | None = None
    ) -> bool:
        if seat.resigned:
            return await self._handed_over(table, seat)
        outcome = job.outcome
        key = (table.id, seat.seat)
        if outcome.table.status == "abandoned":
            fields = self.screens.closed_hand(outcome.table, seat)
        else:
            fields = await self.screens.hand_with_picture(outcome, seat.seat, seat.user_id)
        digest = fingerprint(fields)
        renotify = seat.seat in job.renotify or await self._notify_now(outcome, seat)
        # An owed notification is taken in the database before it is sent (given back if the
        # request fails): another process, or a retry, never sends it twice.
        seq = outcome.table.seq
        renotify = renotify and await self.service.take_owed(table.id, seat.seat, seq)
        job.renotify.discard(seat.seat)
        notified = seq if renotify else None  # recorded sent with the hand that carries it
        try:
            if seat.dm_failed:
                if renotify:
                    await self._ping(table, seat)
                    await self.service.notified(table.id, seat.seat, seq)
                return True
            if cut is not None:
                # Its message may exist (the crash came after Discord accepted it): the same
                # nonce gets it back, or sends it now, and it becomes the seat's hand. The
                # notification it carried goes out with it, so it is recorded sent here even
                # if this delivery could not take it (its taker, the crashed process, still
                # held it): else it stayed owed and went out again (issue 29). One this
                # delivery took is recorded sent with it too.
                carried = cut.notified_seq if cut.notified_seq == seq else None
                return await self._send_hand(
                    table, seat, fields, seq, notified if carried is None else carried, cut.nonce
                )
            if not renotify and seat.dm_message_id is not None:
                drawn = mark(seat.dm_message_id, digest)
                if self._shown.get(key) == drawn:
                    return True
                channel = await self.dm_channel(seat)
                try:
                    await self._edit(job, table, seat, channel, fields)
                    self._shown[key] = drawn
                    return True
                except Gone:
                    if await self._replaced(table.id, seat):
                        # Another delivery (another process) sent this seat a new hand and
                        # deleted this one meanwhile: a retry edits that one, instead of a
                        # third hand going out.
                        return False
                    # deleted: send it anew below
            if outcome.table.status == "abandoned" and seat.dm_message_id is None:
                return True
            return await self._send_hand(table, seat, fields, seq, notified)
        except (Lost, Gone):  # blocked, DMs closed, or an unknown user or DM channel
            if renotify:  # owed still: the next delivery pings the player instead
                await self.service.restore_owed(table.id, seat.seat, seq)
            await self.dm_blocked(table, seat)
            return True
        except Retry as e:
            if renotify:
                await self.service.restore_owed(table.id, seat.seat, seq)
            log.info(
                "table %s seat %s: hand update failed (%s); will retry",
                table.id,
                seat.seat,
                e,
                extra=table_fields(table),
            )
            return False
        except Broken:
            if renotify:  # it will not go out: not owed any more
                await self.service.notified(table.id, seat.seat, seq)
            return True

    async def _edit(
        self,
        job: Job,
        table: TableInfo,
        seat: SeatInfo,
        channel: discord.PartialMessageable | discord.DMChannel,
        fields: dict[str, Any],
    ) -> None:
        """Edit the seat's hand: through its player's latest click on it while that still
        edits this very message (``clicks.edit_by_click``), else by a channel edit."""
        assert seat.dm_message_id is not None
        if await edit_by_click(self.bot, self.service, table, seat, fields):
            return
        await attempt(
            channel.get_partial_message(seat.dm_message_id).edit(**for_edit(fields)), "a hand"
        )

    async def _replaced(self, table_id: int, seat: SeatInfo) -> bool:
        """Whether the seat's recorded hand is no longer ``seat.dm_message_id``."""
        current = await self.service.get_table(table_id)
        now = next((s for s in current.seats if s.seat == seat.seat), None)
        return now is not None and now.dm_message_id != seat.dm_message_id

    async def _handed_over(self, table: TableInfo, seat: SeatInfo) -> bool:
        """A seat a computer now plays: its hand message loses its controls (edited once, never
        sent anew). False: retry later."""
        if seat.dm_message_id is None or seat.dm_failed:
            return True
        key = (table.id, seat.seat)
        fields = self.screens.handed_over(table, seat)
        drawn = mark(seat.dm_message_id, fingerprint(fields))
        if self._shown.get(key) == drawn:
            return True
        try:
            channel = await self.dm_channel(seat)
            await attempt(
                channel.get_partial_message(seat.dm_message_id).edit(**for_edit(fields)),
                "a handed-over hand",
            )
        except (Lost, Gone, Broken):
            pass  # deleted or unreachable: nothing is left to close
        except Retry:
            return False
        self._shown[key] = drawn
        return True

    async def _notify_now(self, outcome: Outcome, seat: SeatInfo) -> bool:
        """A notification due already (a player whose delay is 0) is owed here, so the
        hand goes out as a new message instead of an edit followed by another message."""
        t = outcome.table
        if t.notify_at is None or t.notify_seat != seat.seat or t.notify_at > self.service.now():
            return False
        return await self.service.take_notification(t.id, t.seq) is not None

    async def dm_channel(self, seat: SeatInfo) -> discord.PartialMessageable | discord.DMChannel:
        if seat.dm_channel_id is not None:
            return self.bot.get_partial_messageable(
                seat.dm_channel_id, type=discord.ChannelType.private
            )
        assert seat.user_id is not None
        return await attempt(self.bot.create_dm(discord.Object(seat.user_id)), "opening a DM")

    async def _send_hand(
        self,
        table: TableInfo,
        seat: SeatInfo,
        fields: dict[str, Any],
        seq: int,
        notified: int | None,
        tag: str | None = None,
    ) -> bool:
        """The hand as a new DM (it notifies). The new message, the old one to retire and the
        notification it carried (``notified``: its seq) are recorded in one step; the old one
        is deleted after that, or by the next delivery if a crash comes first (it would show a
        stale hand whose controls are refused).

        False: another delivery (another process) recorded a new hand for this seat after
        ``seat`` was read. This message is then surplus and deleted, the recorded one stays,
        and a retry (which reads the seat again) edits that one."""
        channel = await self.dm_channel(seat)
        # The same nonce for every attempt at replacing this hand at this seq: a repeat after
        # a crash that hid whether the first request arrived gets the message it made.
        if tag is None:
            tag = nonce(table.id, "hand", seat.seat, seat.dm_message_id or 0, seq)
            if not await self.service.sending_hand(table.id, seat.seat, tag, notified):
                # Another hand for this seat is in flight (another process's, or one a crash
                # cut) with another nonce. Sent beside it, one of the two could be left
                # recorded nowhere, with live controls for good, if its process died before
                # recording it: the retry completes that one instead (``hands_in_flight``).
                raise Retry("another hand for this seat is in flight")
        message = await attempt(channel.send(**for_send(fields), nonce=tag), "a hand")
        if not shows(message, fields):
            # Discord answered with the message this nonce made earlier: a request a crash
            # cut, or another process's sent at the same moment (completing a hand it found
            # in flight), drew it, maybe at another state. Drawn again here: else the
            # caller's fingerprint says this hand shows ``fields`` while it does not, and
            # nothing would ever draw it again (the chaos run's "the DM hand is not the
            # engine's view").
            await attempt(message.edit(**for_edit(fields)), "a hand")
        old = None
        if seat.dm_message_id is not None and seat.dm_channel_id is not None:
            old = (seat.dm_channel_id, seat.dm_message_id)
        if not await self.service.replace_dm(
            table.id,
            seat.seat,
            message.channel.id,
            message.id,
            old,
            notified,
            seat.dm_message_id,
            tag,
        ):
            surplus = (message.channel.id, message.id)
            if await self._delete_hand(surplus):
                await self.service.drop_retired(table.id, message.id)
            return False
        if old is not None and old[1] != message.id and await self._delete_hand(old):
            await self.service.drop_retired(table.id, old[1])
        self._shown[(table.id, seat.seat)] = mark(message.id, fingerprint(fields))
        return True

    async def _delete_hand(self, where: tuple[int, int]) -> bool:
        """Delete a DM hand (channel, message). False: to try again later (it stays recorded
        to retire: the next delivery deletes it)."""
        message = self.bot.get_partial_messageable(
            where[0], type=discord.ChannelType.private
        ).get_partial_message(where[1])
        try:
            await attempt(message.delete(), "an old hand")
        except (Retry, Refused):
            return False
        except DeliveryFailure:
            pass  # gone already, or unreachable for good
        return True

    async def dm_blocked(self, table: TableInfo, seat: SeatInfo) -> None:
        """DMs to this player fail (closed or the bot is blocked): one public notice, then
        they play from **Show my hand**."""
        await self.service.set_dm(table.id, seat.seat, None, None, True)
        channel = self.bot.get_partial_messageable(table.channel_id)
        with for_table(table):
            text = _(
                "📪 {mention}, I can't send you direct messages. Press **Show my hand** on the "
                "table message to see your cards and play.",
                mention=f"<@{seat.user_id}>",
            )
        try:
            await attempt(
                channel.send(text, allowed_mentions=pinging(seat.user_id)),
                "a closed-DM notice",
            )
        except DeliveryFailure:
            log.info(
                "table %s: could not post the closed-DM notice", table.id, extra=table_fields(table)
            )

    async def _ping(self, table: TableInfo, seat: SeatInfo) -> None:
        """A turn notification for a player without DMs: a channel message that mentions them
        (removed once the turn is over)."""
        with for_table(table):
            text = _(
                "🔔 {mention}, it's your turn at table #{id}. Press **Show my hand** on the table "
                "message to play.",
                mention=f"<@{seat.user_id}>",
                id=table.id,
            )
        await self._post_ping(table, seat, text, "a turn ping")

    async def remind(self, table: TableInfo, seat: SeatInfo, seconds_left: float) -> None:
        """A half-time turn reminder for a player without DMs: a channel message that mentions
        them (removed with the turn's pings), never a DM bound to fail (issue 28, 8: each
        refused DM counts toward Discord's invalid-request limit)."""
        with for_table(table):
            text = _(
                "⏰ {mention}, it's still your turn at table #{id} — {left} left before the "
                "computer plays for you. Press **Show my hand** on the table message to play.",
                mention=f"<@{seat.user_id}>",
                id=table.id,
                left=time_left(seconds_left),
            )
        await self._post_ping(table, seat, text, "a turn reminder")

    async def _post_ping(self, table: TableInfo, seat: SeatInfo, text: str, what: str) -> None:
        channel = self.bot.get_partial_messageable(table.channel_id)
        try:
            message = await attempt(
                channel.send(text, allowed_mentions=pinging(seat.user_id)), what
            )
        except Refused:
            # The channel refuses the bot (its host is told): the player's DMs are not at
            # fault, and they can still press Show my hand.
            log.info("table %s: could not post %s", table.id, what, extra=table_fields(table))
            return
        # Kept in the database: whichever process delivers the table past this turn cleans it
        # up, even after a restart.
        await self.service.add_ping(table.id, message.id, None, table.seq)

    async def clean_pings(self, table: TableInfo) -> None:
        """Turn pings and reminders go once their turn is over (``table``: as it stands now):
        channel pings of players without DMs, and the half-time reminders of clocked tables,
        DMs included (the bot's own messages: it may delete them). Other tables have none to
        look for, and cost no query."""
        if table.turn_clock is None and not any(s.dm_failed for s in table.seats):
            return
        for ping in await self.service.pings(table.id, table.seq):
            if ping.channel_id is None:
                channel = self.bot.get_partial_messageable(table.channel_id)
            else:
                channel = self.bot.get_partial_messageable(
                    ping.channel_id, type=discord.ChannelType.private
                )
            try:
                await attempt(channel.get_partial_message(ping.message_id).delete(), "a turn ping")
            except (Retry, Refused):  # try again with the next update
                continue
            except (Gone, Lost, Broken):
                pass
            await self.service.drop_ping(table.id, ping.message_id)
