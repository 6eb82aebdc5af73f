"""The channel side of a ``Publisher``: a table's posts (deal summaries, notices, the result),
then its table message, edited only when what it shows changed (as ``Hands`` is its DM side,
sharing its fingerprints); all within what the bot may do in the channel (``access``)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import enum
import logging
from typing import Any

import discord

from bot import lru
from bot.db.outbox import PostClaim
from bot.i18n import _
from bot.log import table_fields
from bot.services.models import TableInfo
from bot.services.tables import TableService
from bot.ui.components.layout import from_embed
from bot.ui.delivery import access
from bot.ui.delivery.failures import (
    Broken,
    DeliveryFailure,
    Gone,
    Lost,
    Refused,
    Retry,
    Stale,
    attempt,
)
from bot.ui.delivery.hands import Hands
from bot.ui.delivery.host_notice import HostNotices
from bot.ui.delivery.jobs import Job, Post, fingerprint, mark, nonce
from bot.ui.delivery.pictures import add_table_picture, for_edit, for_send
from bot.ui.delivery.protocols import Messenger, Screens
from bot.ui.games import renderer
from bot.ui.text.cards import plain_suits
from bot.ui.text.locale import for_table
from bot.ui.text.render import final_embed

log = logging.getLogger(__name__)

#: While the gateway says the bot may not post in a table's channel, or Discord refused it
#: there, a request is still tried this often (seconds, the service's clock), in case that
#: news is stale; otherwise none is made: each 403 counts toward Discord's limit of invalid
#: requests (10,000 per 10 minutes), and a locked channel's players go on moving meanwhile.
PROBE_EVERY = 60.0
#: Discord limits edits to messages older than an hour (code 30046): a table message this old
#: (seconds) is posted anew instead of edited, and the old one deleted (issue 29).
REPOST_AFTER = 50 * 60.0


def too_old(message_id: int) -> bool:
    """Whether a message is too old to be edited safely (by Discord's clock: its id)."""
    age = discord.utils.utcnow() - discord.utils.snowflake_time(message_id)
    return age >= datetime.timedelta(seconds=REPOST_AFTER)


class Shown(enum.Enum):
    """How a channel delivery ended."""

    DONE = "done"  # the channel shows the job (or nothing can be done about it: logged)
    RETRY = "retry"  # Discord failed: retry later
    REFUSED = "refused"  # the bot may not post there now: retry with back-off, for a while
    LOST = "lost"  # the channel is gone: the table closes


class Channel:
    """Brings a table's channel up to date for one ``Job``."""

    def __init__(
        self,
        bot: Messenger,
        service: TableService,
        screens: Screens,
        hands: Hands,
        shown: lru.LRU[tuple[int, int], str],
    ) -> None:
        self.bot = bot
        self.service = service
        self.screens = screens
        self.hands = hands  # its turn pings are cleaned up once the turn is over
        self.shown = shown
        self.notices = HostNotices(bot, hands)
        # table -> when a blocked channel was last tried; tables whose channel Discord itself
        # refused (403). Evicted entries cost one probe request sooner than ``PROBE_EVERY``.
        self._probed: lru.LRU[int, float] = lru.LRU(lru.TABLES)
        self._refusing: lru.LRUSet[int] = lru.LRUSet(lru.TABLES)
        # Tables whose delivery left a replaced message undeleted (Discord failed): it is not
        # done until a retry deletes it (a table that just ended has no later delivery).
        self._undeleted: lru.LRUSet[int] = lru.LRUSet(lru.TABLES)
        # Replaced messages the sweeper tried to delete (``retire_leftovers``): once each, so
        # one Discord refuses costs no request per sweep (the table's next delivery retries).
        self._swept: lru.LRUSet[int] = lru.LRUSet(lru.TABLES)

    def forget(self, table_id: int) -> None:
        """The table is over: nothing of it stays here."""
        self._probed.pop(table_id, None)
        self._refusing.discard(table_id)
        self._undeleted.discard(table_id)
        self.notices.forget(table_id)

    def lacking(self, table: TableInfo) -> frozenset[str]:
        """What the bot lacks in the table's channel (a daily deal's DM lacks nothing)."""
        if table.in_dms:
            return frozenset()
        return access.missing(access.channel_permissions(self.bot, table.channel_id))

    async def deliver(self, job: Job, table: TableInfo) -> Shown:
        """Posts, then the table message, as far as the bot's permissions allow."""
        lacking = self.lacking(table)
        if "attach_files" in lacking and not await self.service.pictures_on(table.guild_id, None):
            lacking -= {"attach_files"}  # no pictures anyway: nothing is lost
        if lacking and job.outcome.table.status == "playing":
            await self.notices.trouble(table, access.to_tell(lacking))
        tried = lacking  # what ``_steps`` takes as missing (requests it does not make)
        refusing = table.id in self._refusing
        if access.blocks(lacking) or refusing:
            now = self.service.now()
            if now - self._probed.get(table.id, float("-inf")) >= PROBE_EVERY:
                self._probed[table.id] = now
                tried = lacking - {"view_channel", "send_messages"}  # Discord decides
            elif refusing or not access.can_edit(lacking):
                return Shown.REFUSED
        try:
            # Everything the channel shows is in the table's language, with the suit signs
            # the bot may use there.
            with for_table(table), plain_suits("use_external_emojis" in lacking):
                await self._steps(job, table, tried)
        except Refused as e:
            if e.__cause__ is not None and not access.blocks(lacking):
                # Discord's own 403, which the gateway did not explain: it will not say when
                # it is over either.
                self._refusing.add(table.id)
            log.info(
                "table %s: its channel refuses me (%s); will retry",
                table.id,
                e,
                extra=table_fields(table),
            )
            return Shown.REFUSED
        except Lost:
            return Shown.LOST
        except Retry as e:
            log.info(
                "table %s: channel update failed (%s); will retry",
                table.id,
                e,
                extra=table_fields(table),
            )
            return Shown.RETRY
        except Broken:
            pass  # logged; retrying cannot help
        if table.id in self._undeleted:
            # A table message this delivery replaced still has its controls (issue 29): the
            # retry deletes it first (``retire_replaced``).
            log.info("table %s: a replaced message is still to delete; will retry", table.id)
            return Shown.RETRY
        self._probed.pop(table.id, None)
        self._refusing.discard(table.id)
        if job.outcome.table.status not in ("finished", "abandoned"):
            self.notices.shown(table.id, access.to_tell(lacking))  # else the publisher forgets
        return Shown.DONE

    async def _steps(self, job: Job, table: TableInfo, lacking: frozenset[str]) -> None:
        outcome = job.outcome
        message_id = table.message_id
        await self.hands.clean_pings(table)
        if job.posts:
            while job.posts:
                post = job.posts[0]
                mine = post.replaces and message_id is not None and not job.fresh
                # Claimed in the database first, with a lease, and marked posted once Discord
                # accepted it: a post goes out once, whoever sends it, and one whose sender
                # crashed before marking it is claimed again by the next re-publisher (the
                # nonce makes the repeat harmless if the first request did arrive).
                claim = await self.service.claim_post(
                    table.id, post.key, message_id if mine else None
                )
                if claim.status == PostClaim.HELD:
                    # Another process claimed it and its lease has not lapsed: this delivery
                    # must not mark shown what may never have been posted.
                    raise Retry(f"{post.key} claimed elsewhere")
                if claim.status == PostClaim.MINE:
                    # The request runs to its end even if this task is cancelled (a stopping
                    # bot), so a claimed post is usually marked sent or released at once.
                    await asyncio.shield(self._post(table, post, claim.replaces, lacking))
                job.posts.pop(0)
            # The posts may have replaced the table message (here, or in another process).
            state = await self.service.delivery_state(table.id)
            message_id = None if state is None else state.message_id
        if outcome.table.status == "abandoned":
            if message_id is not None:
                fields = self.screens.lobby_message(outcome.table)
                await self._last_edit(table, message_id, fields, lacking)
            return
        if outcome.finished:
            if message_id is not None:
                fields = self.screens.finished_table(outcome)
                await self._last_edit(table, message_id, fields, lacking)
            return
        if outcome.public is None:
            return
        fields = self.screens.table_message(outcome)
        if "attach_files" not in lacking and await self.service.pictures_on(table.guild_id, None):
            fields = await add_table_picture(fields, outcome)
        fields = access.within(fields, lacking)
        key = (table.id, -1)
        digest = fingerprint(fields)
        stale: int | None = None  # a table message that may no longer be edited
        if message_id is not None and not job.fresh:
            if self.shown.get(key) == mark(message_id, digest):
                return
            try:
                if too_old(message_id):
                    raise Stale(message_id)
                await self._edit(table, message_id, fields, lacking)
                self.shown[key] = mark(message_id, digest)
                return
            except Stale:
                log.info("table %s: its message is too old to edit; posting it again", table.id)
                stale = message_id
            except Gone:
                log.info(
                    "table %s: its message was deleted; posting it again",
                    table.id,
                    extra=table_fields(table),
                )
        # The same nonce for every attempt at replacing this message at this seq: a repeat
        # after a crash gets the message the first attempt made.
        tag = nonce(table.id, "table", message_id or 0, outcome.table.seq)
        sent = await self._send(table, fields, lacking, tag)
        retire = None if stale is None else (table.channel_id, stale)
        if not await self.service.swap_message(table.id, message_id, sent.id, retire):
            state = await self.service.delivery_state(table.id)
            if state is None or state.message_id != sent.id:
                # Another process posted the table message meanwhile: this one would be an
                # orphan whose state never updates. Theirs shows the table. Recorded first,
                # so a crash before the delete leaves it to the next delivery.
                await self.service.retire(table.id, table.channel_id, sent.id)
                await self._retire(table.id, table.channel_id, sent.id)
            job.fresh = False
            return
        if stale is not None:
            await self._retire(table.id, table.channel_id, stale)  # its buttons act on nothing
        job.fresh = False
        self.shown[key] = mark(sent.id, digest)

    async def retire_replaced(self, table: TableInfo) -> None:
        """Delete the messages the table's deliveries replaced (old hands, table messages)
        and recorded, that a crash or a failed request left behind (the first step of a
        delivery)."""
        self._undeleted.discard(table.id)
        for channel_id, message_id in await self.service.retired(table.id):
            await self._retire(table.id, channel_id, message_id)

    async def retire_leftovers(self, held: set[int]) -> None:
        """Delete the replaced messages of tables no delivery is running or due for
        (``held``: this process's; a live lease: another's), which would delete them first.
        A crash between recording a replacement and deleting what it replaced leaves the
        old message live, and a table fully shown may see no delivery for long: a turn
        notification's new hand, cut that way, left the old hand's controls beside it (the
        chaos run's "other DM(s) with live controls")."""
        for table_id, channel_id, message_id in await self.service.leftover_retired():
            if table_id not in held and message_id not in self._swept:
                self._swept.add(message_id)
                await self._retire(table_id, channel_id, message_id)

    async def _retire(self, table_id: int, channel_id: int, message_id: int) -> None:
        """Delete a replaced message recorded in the outbox (``table_retired``), and drop it
        from there unless the request may succeed later (then a retry, or the next delivery,
        does it)."""
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await attempt(channel.get_partial_message(message_id).delete(), "a replaced message")
        except Retry:
            self._undeleted.add(table_id)
            return
        except Refused:
            return  # the channel refuses the bot: its other requests say so
        except (Gone, Lost, Broken):
            pass
        await self.service.drop_retired(table_id, message_id)

    async def _post(
        self, table: TableInfo, post: Post, replaces: int | None, lacking: frozenset[str]
    ) -> None:
        """Send a claimed post (released if Discord refuses it, for a later attempt) and
        mark it posted."""
        tag = nonce(table.id, post.key)
        try:
            if replaces is not None:
                # Posted anew, and the table message it replaces deleted (recorded with the
                # mark), never edited into the post: another process may have read that message
                # as the table message just before this claim, and its edit, landing later,
                # would draw the table over the summary (the summary gone, the old table live
                # beside the new one; issue 29). Such an edit of a deleted message fails, and
                # that delivery leaves the table to the new table message.
                await self._send(table, post.fields, lacking, tag)
                retire = (table.channel_id, replaces)
                await self.service.mark_posted(table.id, post.key, retire)
                await self._retire(table.id, table.channel_id, replaces)
                return
            if post.final is not None and table.daily is not None:
                post.fields = await self.screens.daily_result(table)  # rank, compare
            elif post.final is not None:  # the result, with the game's deal-by-deal table
                history = await self.service.deal_history(table.id)
                title = _(renderer(table.game_id).TITLE)
                controls = self.screens.rematch_view(table)
                post.fields["view"] = from_embed(final_embed(post.final, title, history), controls)
            await self._send(table, post.fields, lacking, tag)
        except (Retry, Refused, Lost):
            await self.service.release_post(table.id, post.key, replaces)
            raise
        await self.service.mark_posted(table.id, post.key)

    async def _last_edit(
        self,
        table: TableInfo,
        message_id: int,
        fields: dict[str, Any],
        lacking: frozenset[str] = frozenset(),
    ) -> None:
        """The table message's last look (the table is over): an old one that may no longer
        be edited is deleted instead (its controls would act on nothing)."""
        try:
            if too_old(message_id):
                raise Stale(message_id)
            await self._edit(table, message_id, fields, lacking)
        except Stale:
            await self._delete(table, message_id)
        except Gone:
            pass

    async def _delete(self, table: TableInfo, message_id: int) -> None:
        channel = self.bot.get_partial_messageable(table.channel_id)
        with contextlib.suppress(DeliveryFailure):
            await attempt(channel.get_partial_message(message_id).delete(), "a surplus message")

    async def _send(
        self,
        table: TableInfo,
        fields: dict[str, Any],
        lacking: frozenset[str],
        tag: str | None = None,
    ) -> discord.Message:
        """A new message in the table's channel (refused at once where the bot may not post:
        a request Discord would refuse counts toward its limit of invalid requests). ``tag``:
        its nonce (``jobs.nonce``)."""
        if not access.can_post(lacking):
            raise Refused(", ".join(sorted(lacking)))
        channel = self.bot.get_partial_messageable(table.channel_id)
        extra: dict[str, Any] = {} if tag is None else {"nonce": tag}
        return await attempt(
            channel.send(**for_send(access.within(fields, lacking)), **extra), "a post"
        )

    async def _edit(
        self, table: TableInfo, message_id: int, fields: dict[str, Any], lacking: frozenset[str]
    ) -> None:
        if not access.can_edit(lacking):
            raise Refused(", ".join(sorted(lacking)))
        channel = self.bot.get_partial_messageable(table.channel_id)
        message = channel.get_partial_message(message_id)
        await attempt(message.edit(**for_edit(access.within(fields, lacking))), "the table message")
