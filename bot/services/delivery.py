"""What the Discord layer needs to deliver tables durably: which committed states are not
shown yet (and what showing them takes), and turn notifications' settings.

The table row's ``shown_seq`` is the outbox cursor: the Discord layer marks a ``seq`` shown
once the table message and every DM show it. A crash or a failed request between a commit and
its publishing leaves ``shown_seq < seq``; ``unshown_outcome`` rebuilds everything that
publishing would have said (ended deals, the final result) by replaying the log past
``shown_seq``.
"""

from __future__ import annotations

from bot.db import user_settings
from bot.db.tables import TableCounts
from bot.i18n import LANGUAGES
from bot.services.core import DEFAULT_NOTIFY_DELAY
from bot.services.errors import InvalidRequest
from bot.services.life import TableLife
from bot.services.models import Outcome
from bot.services.step import PlayStep, first_match, replay_entry, table_info

#: The longest turn-notification delay a player may choose (seconds).
MAX_NOTIFY_DELAY = 3600
#: How long a process's claim to re-publish a table keeps the others off it, should it never
#: get to show it (a crash, or Discord failing for that long).
REPUBLISH_CLAIM = 60.0


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
            self.instance, now, now + REPUBLISH_CLAIM, updated_before
        )

    async def counts(self) -> TableCounts:
        """Open tables and the delivery backlog, for the operators' metrics."""
        return await self.store.counts()

    async def mark_shown(self, table_id: int, seq: int) -> None:
        await self.store.mark_shown(table_id, seq)

    async def unshown_outcome(self, table_id: int) -> Outcome | None:
        """Everything the table's unshown commits changed, as one ``Outcome`` (events and
        ended deals since ``shown_seq``), or None if it is fully shown."""
        rec = await self._load(table_id)
        if rec.shown_seq >= rec.seq:
            return None
        info = table_info(rec)
        if rec.snapshot_json is None:
            return Outcome(table=info)
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
        return self._outcome(info, step.m, step)

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
