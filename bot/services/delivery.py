"""What the Discord layer needs to deliver tables durably: which committed states are not
shown yet (and what showing them takes), and turn notifications' settings.

The table row's ``shown_seq`` is the outbox cursor: the Discord layer marks a ``seq`` shown
once the table message and every DM show it. A crash or a failed request between a commit and
its publishing leaves ``shown_seq < seq``; ``unshown_outcome`` rebuilds everything that
publishing would have said (ended deals, the final result, the commits' notices) by replaying
the log past ``shown_seq``.

In a cluster (issue 29) one process delivers a table at a time: the one holding its lease
(taken by the commit, renewed here while delivering); channel posts and owed turn
notifications are claimed in the database before they are sent (``bot.db.outbox``).
"""

from __future__ import annotations

from dataclasses import replace

from bot.db import ratings, user_settings
from bot.db.outbox import DeliveryState, ExpiringView, HandView, InFlight, Ping, PostClaim
from bot.db.tables import TableCounts
from bot.i18n import LANGUAGES
from bot.services.core import DEFAULT_NOTIFY_DELAY, DELIVERY_LEASE
from bot.services.errors import InvalidRequest
from bot.services.life import TableLife
from bot.services.models import Notice, Outcome
from bot.services.step import PlayStep, first_match, replay_entry, table_info

#: The longest turn-notification delay a player may choose (seconds).
MAX_NOTIFY_DELAY = 3600


_NONE = DeliveryState(0, 0, None, None, None, None)


class TableDelivery(TableLife):
    """Bookkeeping of publishing: shown states, notifications, unreachable channels."""

    def now(self) -> float:
        """The service's clock (Unix seconds)."""
        return self._clock()

    async def unshown_tables(self, updated_before: float | None = None) -> list[int]:
        """Tables whose last committed state is not fully shown (optionally only those
        unchanged since ``updated_before``), now this service's to re-publish: another
        process's sweeper skips them (see ``TableStore.claim_unshown``)."""
        now = self._clock()
        return await self.store.claim_unshown(
            self.instance, now, now + DELIVERY_LEASE, updated_before
        )

    async def counts(self) -> TableCounts:
        """Open tables and the delivery backlog, for the operators' metrics."""
        return await self.store.counts()

    async def mark_shown(self, table_id: int, seq: int) -> None:
        """Everything up to ``seq`` is shown; this process's lease ends if nothing is newer."""
        await self.outbox.mark_shown(table_id, seq, self.instance)

    # ---- the delivery lease and the outbox (``bot.db.outbox``) ---------------------------
    async def renew_leases(self, table_ids: list[int]) -> None:
        """This process still delivers these tables (or holds a retry of them)."""
        await self.outbox.renew(table_ids, self.instance, self._clock() + DELIVERY_LEASE)

    async def release_leases(self) -> None:
        """This process stops: other processes may deliver its tables at once."""
        await self.outbox.release(self.instance)

    async def delivery_state(self, table_id: int) -> DeliveryState | None:
        return await self.outbox.state(table_id)

    def leased_elsewhere(self, state: DeliveryState) -> bool:
        """Another live process holds the table's lease (it committed last, and delivers)."""
        return state.leased_to_other(self.instance, self._clock())

    async def claim_post(self, table_id: int, key: str, replaces: int | None = None) -> PostClaim:
        """Claim a channel post for this process, with a lease: unless ``mark_posted`` records
        it sent before the lease lapses, the next re-publisher claims and sends it again (with
        the same nonce, so Discord does not post it twice)."""
        now = self._clock()
        return await self.outbox.claim_post(
            table_id, key, self.instance, now, now + DELIVERY_LEASE, replaces
        )

    async def mark_posted(
        self, table_id: int, key: str, retire: tuple[int, int] | None = None
    ) -> None:
        await self.outbox.mark_posted(table_id, key, retire)

    async def release_post(self, table_id: int, key: str, replaces: int | None = None) -> None:
        await self.outbox.release_post(table_id, key, replaces)

    async def swap_message(
        self, table_id: int, old: int | None, new: int, retire: tuple[int, int] | None = None
    ) -> bool:
        return await self.outbox.swap_message(table_id, old, new, retire)

    async def take_owed(self, table_id: int, seat: int, seq: int) -> bool:
        """Take the turn notification owed to ``seat`` at ``seq`` to send it now (leased: a
        crash before it is recorded sent lets it lapse to the next re-publisher)."""
        now = self._clock()
        return await self.outbox.take_owed(
            table_id, seat, seq, self.instance, now, now + DELIVERY_LEASE
        )

    async def restore_owed(self, table_id: int, seat: int, seq: int) -> None:
        await self.outbox.restore_owed(table_id, seat, seq, self.instance)

    async def notified(self, table_id: int, seat: int, seq: int) -> None:
        await self.outbox.notified(table_id, seat, seq)

    async def replace_dm(
        self,
        table_id: int,
        seat: int,
        channel_id: int,
        message_id: int,
        retire: tuple[int, int] | None,
        notified_seq: int | None,
        replaces: int | None,
        nonce: str | None = None,
    ) -> bool:
        """A seat's hand sent as a new DM; False: another hand was recorded meanwhile (see
        ``Outbox.replace_dm``)."""
        return await self.outbox.replace_dm(
            table_id, seat, channel_id, message_id, retire, notified_seq, replaces, nonce
        )

    async def sending_hand(
        self, table_id: int, seat: int, nonce: str, notified_seq: int | None = None
    ) -> bool:
        """A hand is about to be sent as a new DM with ``nonce``, carrying the turn
        notification owed at ``notified_seq``; False: another hand for the seat is in flight,
        not to be sent beside (see ``Outbox.sending_hand``)."""
        return await self.outbox.sending_hand(table_id, seat, nonce, notified_seq)

    async def hands_in_flight(self, table_id: int) -> dict[int, InFlight]:
        return await self.outbox.hands_in_flight(table_id)

    async def retire(self, table_id: int, channel_id: int, message_id: int) -> None:
        await self.outbox.retire(table_id, channel_id, message_id)

    async def retired(self, table_id: int) -> list[tuple[int, int]]:
        return await self.outbox.retired(table_id)

    async def leftover_retired(self) -> list[tuple[int, int, int]]:
        """(table, channel, message) of replaced messages to delete, of tables no delivery
        holds (see ``Outbox.leftover_retired``)."""
        return await self.outbox.leftover_retired(self._clock())

    async def drop_retired(self, table_id: int, message_id: int) -> None:
        await self.outbox.drop_retired(table_id, message_id)

    async def add_ping(
        self, table_id: int, message_id: int, channel_id: int | None = None, seq: int | None = None
    ) -> None:
        """A turn ping or reminder (``channel_id``: in that DM channel; None: the table's), to
        delete once the table moves past ``seq`` (None: at its next delivery)."""
        await self.outbox.add_ping(table_id, message_id, channel_id, seq)

    async def pings(self, table_id: int, before_seq: int) -> list[Ping]:
        return await self.outbox.pings(table_id, before_seq)

    async def drop_ping(self, table_id: int, message_id: int) -> None:
        await self.outbox.drop_ping(table_id, message_id)

    # ---- "Show my hand" answers (issue 30) -----------------------------------------------
    async def remember_view(
        self, table_id: int, seat: int, user_id: int, app_id: int, token: str, message_id: int
    ) -> tuple[HandView, HandView | None]:
        """The seat's latest "Show my hand" answer, answered now; returns it and the one it
        replaces (to stamp out of date)."""
        view = HandView(app_id, token, message_id, self._clock())
        return view, await self.outbox.remember_view(table_id, seat, user_id, view)

    async def forget_view(self, table_id: int, seat: int, token: str) -> bool:
        return await self.outbox.forget_view(table_id, seat, token)

    async def take_expiring_views(self, answered_before: float) -> list[ExpiringView]:
        return await self.outbox.take_expiring_views(answered_before)

    # ---- clicks on DM hands (issue 30's REST budget) -------------------------------------
    async def remember_click(
        self, table_id: int, seat: int, user_id: int, app_id: int, token: str, message_id: int
    ) -> None:
        """The player just clicked their DM hand ``message_id``: deliveries may edit it through
        that interaction's token while it is young enough (``bot.ui.delivery.hands``)."""
        click = HandView(app_id, token, message_id, self._clock())
        await self.outbox.remember_click(table_id, seat, user_id, click)

    async def forget_click(self, table_id: int, seat: int, token: str) -> None:
        await self.outbox.forget_click(table_id, seat, token)

    async def forget_clicks(self, table_id: int) -> None:
        await self.outbox.forget_clicks(table_id)

    async def unshown_outcome(self, table_id: int) -> Outcome | None:
        """Everything the table's unshown commits changed, as one ``Outcome`` (events, ended
        deals and notices since ``shown_seq``), or None if it is fully shown and owes no turn
        notification."""
        rec = await self._load(table_id)
        if rec.shown_seq >= rec.seq:
            if (await self.outbox.state(table_id) or _NONE).notify_owed is None:
                return None
            # A turn notification is owed: the state as it stands, to send it with.
            info = table_info(rec)
            m = None if rec.snapshot_json is None else self._match(rec)
            return replace(await self._outcome(info, m, None), prior_seq=rec.seq)
        info = table_info(rec)
        notices = tuple(
            Notice(n.seq, n.part, n.kind, n.data)
            for n in await self.outbox.notices(table_id, rec.shown_seq)
        )
        if rec.snapshot_json is None:
            return Outcome(table=info, notices=notices, prior_seq=rec.shown_seq)
        entries = await self.store.log(table_id)

        def rebuild() -> PlayStep:
            m = first_match(rec, entries)
            step: PlayStep | None = None
            for e in entries:
                if e.seq <= rec.shown_seq:
                    m, _ = replay_entry(m, e)
                    continue
                if step is None:
                    step = PlayStep(rec, m, rec.seed)
                step.replay(e)
            return step or PlayStep(rec, m, rec.seed)

        step = await self._off_loop(rebuild)
        return replace(
            await self._outcome(info, step.m, step), notices=notices, prior_seq=rec.shown_seq
        )

    # ---- a player's turn notifications ---------------------------------------------------
    async def notify_delay(self, user_id: int) -> int | None:
        """Seconds before the user's waiting turn is notified; None: never."""
        stored = await user_settings.notify_delay(self.db, user_id)
        if stored is None:
            return DEFAULT_NOTIFY_DELAY
        return None if stored == user_settings.NEVER else stored

    async def set_notify_delay(self, user_id: int, delay: int | None) -> int | None:
        """Store the user's delay (None: never); returns it as ``notify_delay`` would."""
        if delay is not None and not 0 <= delay <= MAX_NOTIFY_DELAY:
            raise InvalidRequest("bad_delay", most=MAX_NOTIFY_DELAY)
        stored = user_settings.NEVER if delay is None else delay
        await user_settings.set_notify_delay(self.db, user_id, stored, self._clock())
        return delay

    async def deal_history(self, table_id: int) -> list[tuple[int, tuple[int, ...]]]:
        """Each finished deal's number and score changes, in order (for the final result)."""
        return [(r.deal_no, r.deltas) for r in await self.store.deal_results(table_id)]

    async def rating_change(self, table_id: int, user_id: int) -> ratings.GameRating | None:
        """The player's rating after the finished game ``table_id`` and its change there, for
        their result card. Read from the database, where the commit that ended the game stored
        it with the results: whichever process draws the card finds it. None when the game
        rated nobody (practice, daily deal) or predates ratings."""
        return await ratings.game_rating(self.db, table_id, user_id)

    # ---- pictures --------------------------------------------------------------------------
    async def pictures_setting(self, user_id: int) -> bool | None:
        """The user's own choice about pictures (None: their server's default)."""
        return await user_settings.pictures(self.db, user_id)

    async def set_pictures(self, user_id: int, on: bool | None) -> None:
        await user_settings.set_pictures(self.db, user_id, on, self._clock())

    async def language_setting(self, user_id: int) -> str | None:
        """The language the user chose for their DMs (None: the one they join tables in)."""
        return await user_settings.language(self.db, user_id)

    async def set_language(self, user_id: int, language: str | None) -> list[int]:
        """Store the user's DM language (None: as they join) and apply it to their seats at
        open tables at once; returns those tables' ids (their hands are redrawn)."""
        if language is not None and language not in LANGUAGES:
            raise InvalidRequest("bad_language")
        await user_settings.set_language(self.db, user_id, language, self._clock())
        return await self.store.set_languages(user_id, language)

    async def pictures_on(self, guild_id: int, user_id: int | None) -> bool:
        """Whether ``user_id`` (None: the channel) sees pictures at a table of ``guild_id``."""
        mine = None if user_id is None else await user_settings.pictures(self.db, user_id)
        if mine is not None:
            return mine
        return (await self.guild_settings(guild_id)).pictures
