"""Telling a table's host, once, what the bot lacks in the table's channel (issue 28, defect 1).

A table whose channel denies the bot a permission runs degraded or waits for the channel
(``bot.ui.delivery.access``); its host, who can ask an admin, learns which permission is
missing and what it costs — by DM, or in the channel if their DMs are closed. One notice per
trouble, not one per update: the host hears again only of a permission newly missing, or of
one lost again after the table showed without it missing.
"""

from __future__ import annotations

import logging

import discord

from bot import lru
from bot.i18n import _, n_
from bot.log import table_fields
from bot.services.models import TableInfo
from bot.ui.delivery import access
from bot.ui.delivery.failures import DeliveryFailure, attempt
from bot.ui.delivery.hands import Hands
from bot.ui.delivery.protocols import Messenger
from bot.ui.games import renderer
from bot.ui.text.locale import for_seat
from bot.ui.text.names import pinging

log = logging.getLogger(__name__)


class HostNotices:
    """What each table's host was told is missing (in memory: after a restart a trouble that
    lasts is told once more)."""

    def __init__(self, bot: Messenger, hands: Hands) -> None:
        self.bot = bot
        self.hands = hands
        # Evicted (or after a restart): a trouble that lasts is told once more.
        self._told: lru.LRU[int, frozenset[str]] = lru.LRU(lru.TABLES)

    async def trouble(self, table: TableInfo, lacking: frozenset[str]) -> None:
        """``lacking`` is missing now (``access.REFUSED``: Discord refuses the bot although
        nothing looks missing); tell the host if any of it is news."""
        told = self._told.get(table.id, frozenset())
        if lacking <= told:
            return
        self._told[table.id] = told | lacking
        await self._tell(table, lacking)

    def told(self, table_id: int, lacking: frozenset[str]) -> None:
        """The host was told of ``lacking`` another way (when opening the table)."""
        self._told[table_id] = self._told.get(table_id, frozenset()) | lacking

    def shown(self, table_id: int, lacking: frozenset[str]) -> None:
        """The table showed with ``lacking`` missing: whatever is back is told again if it
        goes again."""
        if lacking:
            self._told[table_id] = lacking
        else:
            self._told.pop(table_id, None)

    def forget(self, table_id: int) -> None:
        self._told.pop(table_id, None)

    async def _tell(self, table: TableInfo, lacking: frozenset[str]) -> None:
        host = next((s for s in table.seats if s.user_id == table.owner_id), None)
        with for_seat(table, host):
            text = notice_text(table, lacking)
        if host is None or not host.dm_failed:
            try:
                if host is not None:
                    channel = await self.hands.dm_channel(host)
                else:
                    channel = await attempt(
                        self.bot.create_dm(discord.Object(table.owner_id)), "opening a DM"
                    )
                await attempt(channel.send(text), "a permission notice")
                return
            except DeliveryFailure:
                pass  # their DMs are closed, or Discord failed: try the channel
        if access.REFUSED in lacking or not access.can_post(lacking):
            log.info(
                "table %s: could not tell its host what is missing (%s)",
                table.id,
                ", ".join(sorted(lacking)),
                extra=table_fields(table),
            )
            return
        try:  # their DMs are closed, and the channel takes text: tell them there
            channel = self.bot.get_partial_messageable(table.channel_id)
            await attempt(
                channel.send(
                    f"<@{table.owner_id}> {text}", allowed_mentions=pinging(table.owner_id)
                ),
                "a permission notice",
            )
        except DeliveryFailure:
            log.info("table %s: could not post a permission notice", table.id)


def notice_text(table: TableInfo, lacking: frozenset[str]) -> str:
    """The host's notice: which permissions the bot lacks in the table's channel, what each
    costs, and when a table that cannot be shown is closed."""
    game = _(renderer(table.game_id).TITLE)
    where = f"<#{table.channel_id}>"
    if access.REFUSED in lacking:
        lines = [
            _(
                "⚠️ Table #{id} ({game}): Discord refuses my messages in {channel}, so I can't "
                "show the table there; you can all go on playing from your hands. Please check "
                "my permissions in that channel.",
                id=table.id,
                game=game,
                channel=where,
            )
        ]
    else:
        found = access.names(lacking)
        lines = [
            n_(
                "⚠️ Table #{id} ({game}): I'm missing a permission in {channel}. The game goes on:",
                "⚠️ Table #{id} ({game}): I'm missing permissions in {channel}. The game goes on:",
                len(found),
                id=table.id,
                game=game,
                channel=where,
            ),
            *(f"- {line}" for line in access.effects(lacking)),
            n_(
                "Ask a server admin to grant it in that channel.",
                "Ask a server admin to grant them in that channel.",
                len(found),
            ),
        ]
    if access.REFUSED in lacking or access.blocks(lacking):
        hours = access.UNREACHABLE_HOURS
        lines.append(
            n_(
                "If I still can't post there in {hours} hour, I'll close the table, unrated.",
                "If I still can't post there in {hours} hours, I'll close the table, unrated.",
                hours,
                hours=hours,
            )
        )
    return "\n".join(lines)
