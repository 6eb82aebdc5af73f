"""Discord side of table life: the turn clocks, notifications and delivery retries of the
sweeper's tasks (``bot.ui.handlers.sweeper``), I'm back, rematch, host/admin replace and end,
tables whose server or channel is gone, and a player leaving every seat.

Thin like the rest of ``bot/ui``: every decision is the service's (``TableLife``); this module
only turns its results into messages.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.i18n import _
from bot.services.models import TableInfo
from bot.services.upkeep import Ended
from bot.ui.delivery.answer import reply
from bot.ui.delivery.failures import DeliveryFailure
from bot.ui.delivery.publisher import Publisher
from bot.ui.handlers.desk import Desk, where_of
from bot.ui.handlers.lobby import LobbyController
from bot.ui.text.life import time_left
from bot.ui.text.locale import for_seat
from bot.ui.text.names import escape_name
from bot.ui.text.render import table_link

log = logging.getLogger(__name__)

CANNOT_DM = 50007  # Discord's "Cannot send messages to this user": DMs closed, or blocked

#: Tables whose overdue turn the computer plays at once, each in a task of its own (each takes
#: an engine thread and a worker process while it thinks; interactions need some too).
EXPIRING_AT_ONCE = 4


class LifeController:
    """Handlers for the table-life buttons and commands, and the sweeper's table work."""

    def __init__(self, desk: Desk, lobby: LobbyController, publisher: Publisher) -> None:
        self.desk = desk
        self.bot = desk.bot
        self.service = desk.service
        self.lobby = lobby
        self.publisher = publisher
        self._expiring: dict[int, asyncio.Task[None]] = {}  # table id -> its expiry

    # ---- the sweeper's tasks ---------------------------------------------------------
    async def sweep(self, now: float | None = None) -> None:
        """One round of every table task (clocks, notifications, deliveries), then a wait for
        the expiries and deliveries they started: everything due at ``now`` is done and shown
        when it returns (tests sweep by hand; the bot runs the tasks independently)."""
        await self.clocks(now)
        await self.notifications(now)
        await self.deliveries(now)
        while self._expiring:
            await asyncio.gather(*self._expiring.values(), return_exceptions=True)
        await self.publisher.drain()

    async def clocks(self, now: float | None = None) -> None:
        """The clocks task: every overdue turn gets the computer's decision, each table in a
        task of its own (a table whose computers think long delays no other table's clock;
        one still at it from an earlier round, or busy, is skipped), then half-time
        reminders."""
        when = self.service.now() if now is None else now
        for table_id in await self.service.overdue(when):
            if table_id in self._expiring or len(self._expiring) >= EXPIRING_AT_ONCE:
                continue
            task = asyncio.create_task(self._expire(table_id, when))
            self._expiring[table_id] = task
            task.add_done_callback(lambda _, t=table_id: self._expiring.pop(t, None))
        for r in await self.service.reminders_due(when):
            try:
                await self._remind(r.table, r.user_id, r.seconds_left)
            except Exception:
                log.exception("could not remind a turn at table %s", r.table.id)

    async def _expire(self, table_id: int, when: float) -> None:
        outcome = await self.service.expire_turn(table_id, when)
        if outcome is not None:
            self.publisher.publish(outcome)

    async def notifications(self, now: float | None = None) -> None:
        """The notifications task: turn notifications due now, each on its own."""
        for n in await self.service.notifications_due(now):
            try:
                await self.publisher.notify(n)
            except Exception:
                log.exception("could not notify a turn at table %s", n.table.id)

    async def deliveries(self, now: float | None = None) -> None:
        """The deliveries task: parked deliveries due again, and tables whose shown ``seq``
        lags. It queues them and returns: nothing here waits for Discord (but for the last
        edit of the "Show my hand" answers whose token lapses soon)."""
        await self.publisher.republish(now=now)
        await self.publisher.views.expire(self.service.now() if now is None else now)

    async def _remind(self, table: TableInfo, user_id: int, seconds_left: float) -> None:
        bot = self.bot
        seat = next((s for s in table.seats if s.user_id == user_id), None)
        if seat is not None and seat.dm_failed:
            # Their DMs are known closed: a DM would only be refused (a 403 counts toward
            # Discord's invalid-request limit), so the reminder pings them in the channel.
            try:
                await self.publisher.hands.remind(table, seat, seconds_left)
            except DeliveryFailure:
                log.info("could not post a turn reminder at table %s", table.id)
            return
        link = table_link(table)  # a masked link below: never a raw address
        with for_seat(table, seat):
            text = _(
                "⏰ It's still your turn at [table #{id}]({link}) — {left} left before the "
                "computer plays for you.",
                id=table.id,
                link=link,
                left=time_left(seconds_left),
            )
        try:
            if seat is not None and seat.dm_channel_id is not None:
                channel: discord.abc.Messageable = bot.get_partial_messageable(
                    seat.dm_channel_id, type=discord.ChannelType.private
                )
            else:
                channel = await bot.create_dm(discord.Object(user_id))
            message = await channel.send(text)
            # Withdrawn once the turn is over, by whichever process delivers the table next
            # (issue 30): a reminder left above a hand that says "not your turn" misleads.
            await self.service.add_ping(table.id, message.id, message.channel.id, table.seq)
        except discord.Forbidden as e:
            log.info("could not DM a turn reminder to %s (%s)", user_id, e.code)
            if e.code == CANNOT_DM and seat is not None:
                # Remembered on the seat, as a failed hand DM is (with its one public
                # notice): later reminders and notifications go to the channel instead.
                await self.publisher.hands.dm_blocked(table, seat)
        except (discord.HTTPException, OSError):
            log.info("could not DM a turn reminder to %s", user_id)

    async def expire_idle(self, lobby_idle: float, table_idle: float) -> None:
        """Close idle lobbies and end idle games (see ``TableUpkeep.expire_idle``)."""
        for ended in await self.service.expire_idle(
            None, lobby_idle=lobby_idle, table_idle=table_idle
        ):
            self.publisher.publish(ended.outcome)

    async def close_gone(self, ended: list[Ended]) -> None:
        """Tables whose server or channel went away: tell their players by DM."""
        for e in ended:
            await self.publisher.channel_gone(e.outcome.table)

    async def leave_everything(self, user_id: int) -> None:
        """The user gives up every open seat (before being forgotten): lobbies are redrawn,
        games go on with a computer in the seat (or close if no human is left)."""
        for outcome in await self.service.leave_all(user_id):
            table = outcome.table
            if outcome.public is None:  # a lobby
                await self.lobby.refresh(table)
                continue
            # Its notices ("a player left", a table closed) came with the commit.
            self.publisher.publish(outcome, fresh_message=True)

    # ---- buttons and commands ----------------------------------------------------------
    async def back(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        outcome = await self.service.im_back(
            table_id, interaction.user.id, where=where_of(interaction)
        )
        await reply(interaction, _("Welcome back — you play your own seat again."))
        self.publisher.publish(outcome)

    async def rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        table = await self.service.rematch(
            table_id, interaction.user.id, where=where_of(interaction)
        )
        await self.lobby.post_lobby(interaction, table)

    async def end(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        # The button's table id comes from a custom_id anyone can craft: Manage Server counts
        # only for a table of the server the button is pressed in (checked by the service).
        outcome = await self.service.end_table(
            table_id,
            interaction.user.id,
            admin=is_admin(interaction),
            guild_id=interaction.guild_id,
            by_name=interaction.user.display_name,  # the channel's notice names them
        )
        table = outcome.table
        # Rated: the ender still had a game at stake, and ending it was their resignation.
        if outcome.rated:
            mine = _(
                "Table #{id} is closed. Other players were still playing, so it counts as your "
                "resignation: you are ranked last, the others by their scores so far.",
                id=table.id,
            )
        else:
            mine = _("Table #{id} is closed. It won't count in any ranking.", id=table.id)
        await reply(interaction, mine)
        self.publisher.publish(outcome)

    async def replace(
        self, interaction: discord.Interaction[Any], game_id: str, member: discord.abc.User
    ) -> None:
        table = await self.desk.channel_table(interaction, game_id)
        outcome = await self.service.replace_player(
            table.id,
            interaction.user.id,
            member.id,
            admin=is_admin(interaction),
            where=where_of(interaction),
        )
        await reply(
            interaction,
            _("A computer player now plays {name}'s seat.", name=escape_name(member.display_name)),
        )
        self.publisher.publish(outcome, fresh_message=outcome.table.status == "playing")


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server in the interaction's server (never outside a server)."""
    if interaction.guild_id is None:
        return False
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild)
