"""The channel side of a ``Publisher``: a table's posts (deal summaries, notices, the result),
then its table message, edited only when what it shows changed (as ``Hands`` is its DM side,
sharing its fingerprints)."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from bot.i18n import _
from bot.log import table_fields
from bot.services.models import TableInfo
from bot.services.tables import TableService
from bot.ui.delivery.failures import Broken, Gone, Lost, Retry, attempt
from bot.ui.delivery.hands import Hands
from bot.ui.delivery.jobs import Job, fingerprint
from bot.ui.delivery.pictures import add_table_picture, for_edit, for_send
from bot.ui.delivery.protocols import Messenger, Screens
from bot.ui.games import renderer
from bot.ui.text.locale import for_table
from bot.ui.text.render import final_embed

log = logging.getLogger(__name__)


class Channel:
    """Brings a table's channel up to date for one ``Job``."""

    def __init__(
        self,
        bot: Messenger,
        service: TableService,
        screens: Screens,
        hands: Hands,
        shown: dict[tuple[int, int], str],
    ) -> None:
        self.bot = bot
        self.service = service
        self.screens = screens
        self.hands = hands  # its turn pings are cleaned up once the turn is over
        self.shown = shown

    async def deliver(self, job: Job, table: TableInfo) -> bool | None:
        """Posts, then the table message. False: retry later; None: the channel is lost (the
        publisher closes the table)."""
        try:
            with for_table(table):  # everything the channel shows is in the table's language
                await self._steps(job, table)
        except Lost:
            return None
        except Retry as e:
            log.info(
                "table %s: channel update failed (%s); will retry",
                table.id,
                e,
                extra=table_fields(table),
            )
            return False
        except Broken:
            return True  # logged; retrying cannot help
        return True

    async def _steps(self, job: Job, table: TableInfo) -> None:
        outcome = job.outcome
        channel = self.bot.get_partial_messageable(table.channel_id)
        message_id = table.message_id
        await self.hands.clean_pings(table, outcome)
        while job.posts:
            post = job.posts[0]
            if post.replaces and message_id is not None and not job.fresh:
                try:
                    await self._edit(table, message_id, post.fields)
                except Gone:
                    await attempt(channel.send(**for_send(post.fields)), "a channel post")
                message_id = None
                await self.service.set_message(table.id, None)
            else:
                if post.final is not None and table.daily is not None:
                    post.fields = await self.screens.daily_result(table)  # rank, compare
                elif post.final is not None:  # the result, with the game's deal-by-deal table
                    history = await self.service.deal_history(table.id)
                    title = _(renderer(table.game_id).TITLE)
                    post.fields["embed"] = final_embed(post.final, title, history)
                await attempt(channel.send(**for_send(post.fields)), "a channel post")
            job.posts.pop(0)
        if outcome.table.status == "abandoned":
            if message_id is not None:
                fields = self.screens.lobby_message(outcome.table)
                with contextlib.suppress(Gone):
                    await self._edit(table, message_id, fields)
            return
        r = renderer(table.game_id)
        if outcome.finished:
            if message_id is not None:
                fields = {"content": None, "embed": r.table_embed(outcome), "view": None}
                with contextlib.suppress(Gone):
                    await self._edit(table, message_id, fields)
            return
        if outcome.public is None:
            return
        fields = self.screens.table_message(outcome)
        if await self.service.pictures_on(table.guild_id, None):
            fields = await add_table_picture(fields, outcome)
        key = (table.id, -1)
        digest = fingerprint(fields)
        if message_id is not None and not job.fresh:
            if self.shown.get(key) == digest:
                return
            try:
                await self._edit(table, message_id, fields)
                self.shown[key] = digest
                return
            except Gone:
                log.info(
                    "table %s: its message was deleted; posting it again",
                    table.id,
                    extra=table_fields(table),
                )
        sent = await attempt(channel.send(**for_send(fields)), "the table message")
        await self.service.set_message(table.id, sent.id)
        job.fresh = False
        self.shown[key] = digest

    async def _edit(self, table: TableInfo, message_id: int, fields: dict[str, Any]) -> None:
        channel = self.bot.get_partial_messageable(table.channel_id)
        await attempt(
            channel.get_partial_message(message_id).edit(**for_edit(fields)), "the table message"
        )
