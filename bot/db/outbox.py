"""The delivery outbox of tables (issue 29): who delivers a table, what it still owes.

- **The lease.** ``tables.republish_by``/``republish_until`` name the one process that
  delivers a table: the one whose service committed its last change (taken in the commit's
  own transaction, ``take_lease``), renewed while it delivers or holds a retry (``renew``).
  Another process re-publishes the table only once the lease has lapsed
  (``TableStore.claim_unshown``).
- **Posts, once.** A channel post (a deal summary, the result, a notice) is claimed in
  ``table_posts`` before it is sent (``claim_post``): whichever process sends it, and however
  often a delivery is retried or rebuilt, it goes out once. A request Discord refused releases
  the claim (``release_post``).
- **Notices** are written with the commit that caused them (``table_notices``) and read back by
  a delivery rebuilt from the log; once shown they are deleted.
- **Turn notifications** the sweeper found due are owed (``tables.notify_owed``) until the
  delivery that sends them takes them (``take_owed``).
- **Hands in flight** (``seat_sending``): a hand about to be sent as a new DM, with its nonce
  and the notification it carries, until it is recorded (``replace_dm``); a crash in between
  leaves it for the next delivery to complete, that notification included (``InFlight``).
  One per seat at a time: no other nonce is sent for the seat meanwhile (``sending_hand``).
- **Turn pings** (channel messages for players without DMs) and DM turn reminders are kept
  until a delivery of the table past their turn deletes them.
- **"Show my hand" answers** (ephemeral, editable through their interaction token for 15
  minutes) are remembered on their seat (``seats.view_*``): deliveries redraw them, and they are
  stamped out of date before the token lapses (``take_expiring_views``) or when the game ends.
- **Clicks on DM hands** (``seats.click_*``): the latest interaction token of each seat's DM
  hand, through which deliveries edit that hand (outside the global rate limit) while it is
  young enough; forgotten when refused, too old, or the table ends.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bot.db.database import Connection, Database


@dataclass(frozen=True, slots=True)
class Ping:
    """A turn ping or reminder to delete: its message, and the DM channel it is in (None:
    the table's channel)."""

    message_id: int
    channel_id: int | None = None


@dataclass(frozen=True, slots=True)
class HandView:
    """An ephemeral "Show my hand" answer, editable through its interaction's token for 15
    minutes (``at``: when it was answered, by the service's clock); also a click on a DM hand
    (``message_id``: that hand), whose token edits it for as long."""

    app_id: int
    token: str = field(repr=False)  # a secret while it is valid
    message_id: int
    at: float


@dataclass(frozen=True, slots=True)
class ExpiringView:
    """A seat's remembered answer (``Outbox.take_expiring_views``)."""

    table_id: int
    seat: int
    view: HandView


@dataclass(frozen=True, slots=True)
class NoticeRecord:
    """A public notice of the commit at ``seq`` (``part``: its place among that commit's)."""

    seq: int
    part: int
    kind: str
    data: dict[str, Any] = field(default_factory=dict[str, Any])

    @property
    def key(self) -> str:
        return f"notice:{self.seq}:{self.part}"


@dataclass(frozen=True, slots=True)
class PostClaim:
    """What ``Outbox.claim_post`` found: the post is this caller's to send (``MINE``, with
    the table message it replaces), was posted already (``POSTED``), or another process's
    claim on it has not lapsed yet (``HELD``: its delivery must not be marked shown)."""

    MINE: ClassVar[str] = "mine"
    POSTED: ClassVar[str] = "posted"
    HELD: ClassVar[str] = "held"

    status: str
    replaces: int | None = None


@dataclass(frozen=True, slots=True)
class InFlight:
    """A hand whose sending a crash may have cut (``Outbox.sending_hand``): the nonce it was
    sent with, and the ``seq`` of the turn notification it carried (None: a plain hand)."""

    nonce: str
    notified_seq: int | None = None


@dataclass(frozen=True, slots=True)
class DeliveryState:
    """What a delivery checks before it draws: the table's newest ``seq``, its message, who
    holds its lease until when, and the seat owed a turn notification."""

    seq: int
    shown_seq: int
    message_id: int | None
    owner: str | None
    until: float | None
    notify_owed: int | None

    def leased_to_other(self, me: str, now: float) -> bool:
        """Another process holds the table's lease (it committed last and delivers)."""
        return self.owner is not None and self.owner != me and (self.until or 0.0) > now


async def take_lease(
    conn: Connection,
    table_id: int,
    seq: int,
    owner: str,
    until: float,
    notices: Sequence[tuple[str, dict[str, Any]]],
) -> None:
    """In a commit's transaction: the committing process delivers the table, and the commit's
    notices are recorded for it."""
    await conn.execute(
        "UPDATE tables SET republish_by = ?, republish_until = ? WHERE id = ?",
        (owner, until, table_id),
    )
    if notices:
        await conn.executemany(
            "INSERT INTO table_notices (table_id, seq, part, kind, data_json) "
            "VALUES (?, ?, ?, ?, ?)",
            [
                (table_id, seq, part, kind, json.dumps(data, separators=(",", ":")))
                for part, (kind, data) in enumerate(notices)
            ],
        )


class Outbox:
    """The outbox's reads and writes over a ``Database`` (see the module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def state(self, table_id: int) -> DeliveryState | None:
        async with self.db.read() as conn:
            row = await conn.fetchone(
                "SELECT seq, shown_seq, message_id, republish_by, republish_until, notify_owed "
                "FROM tables WHERE id = ?",
                (table_id,),
            )
        return None if row is None else DeliveryState(*row)

    async def renew(self, table_ids: Iterable[int], owner: str, until: float) -> None:
        """Keep the lease on tables this process still delivers (or holds a retry of)."""
        ids = sorted(set(table_ids))
        if not ids:
            return
        async with self.db.transaction() as conn:
            await conn.executemany(
                "UPDATE tables SET republish_until = ? WHERE id = ? AND republish_by = ?",
                [(until, i, owner) for i in ids],
            )

    async def release(self, owner: str) -> None:
        """A process that stops lets others deliver its tables at once."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE tables SET republish_until = NULL WHERE republish_by = ?", (owner,)
            )

    async def mark_shown(self, table_id: int, seq: int, owner: str | None) -> None:
        """Everything up to ``seq`` is shown (``shown_seq`` never moves back). ``owner``'s
        lease ends if nothing newer is left; notices shown are dropped, and an ended table
        fully shown keeps no post claims."""
        async with self.db.transaction() as conn:
            greatest = conn.dialect.greatest
            await conn.execute(
                f"UPDATE tables SET shown_seq = {greatest}(shown_seq, :seq), "
                "republish_by = CASE WHEN :seq >= seq AND (republish_by = :me OR :me IS NULL) "
                "THEN NULL ELSE republish_by END, "
                "republish_until = CASE WHEN :seq >= seq AND (republish_by = :me OR :me IS NULL) "
                "THEN NULL ELSE republish_until END WHERE id = :id",
                {"seq": seq, "me": owner, "id": table_id},
            )
            await conn.execute(
                "DELETE FROM table_notices WHERE table_id = ? AND seq <= ?", (table_id, seq)
            )
            await conn.execute(
                "DELETE FROM table_posts WHERE table_id = :id AND EXISTS (SELECT 1 FROM tables "
                "WHERE id = :id AND status IN ('finished', 'abandoned') AND shown_seq >= seq)",
                {"id": table_id},
            )

    # ---- channel posts -------------------------------------------------------------------
    async def claim_post(
        self,
        table_id: int,
        key: str,
        owner: str,
        now: float,
        until: float,
        replaces: int | None = None,
    ) -> PostClaim:
        """Claim the post ``key`` for ``owner`` until ``until`` (see ``PostClaim``). A claim
        whose owner's lease lapsed before it was marked posted is taken again: the crash may
        have come before its request left. ``replaces``: the post replaces that table message
        (deleted once the post is sent), which stops being the table message at once (so no
        other process draws the table in it any more); a re-claim gets the first claim's."""
        async with self.db.transaction() as conn:
            row = await conn.fetchone(
                "INSERT INTO table_posts (table_id, post, owner, lease_until, replaces, posted) "
                "VALUES (:id, :key, :me, :until, :replaces, 0) "
                "ON CONFLICT (table_id, post) DO UPDATE SET owner = :me, lease_until = :until "
                "WHERE table_posts.posted = 0 AND (table_posts.lease_until IS NULL "
                "OR table_posts.lease_until <= :now OR table_posts.owner = :me) "
                "RETURNING replaces",
                {
                    "id": table_id,
                    "key": key,
                    "me": owner,
                    "until": until,
                    "now": now,
                    "replaces": replaces,
                },
            )
            if row is None:
                posted = await conn.fetchone(
                    "SELECT posted FROM table_posts WHERE table_id = ? AND post = ?",
                    (table_id, key),
                )
                held = posted is not None and not posted[0]
                return PostClaim(PostClaim.HELD if held else PostClaim.POSTED)
            target = None if row[0] is None else int(row[0])
            if target is not None:
                await conn.execute(
                    "UPDATE tables SET message_id = NULL WHERE id = ? AND message_id = ?",
                    (table_id, target),
                )
        return PostClaim(PostClaim.MINE, target)

    async def mark_posted(
        self, table_id: int, key: str, retire: tuple[int, int] | None = None
    ) -> None:
        """Discord accepted the post: it is never sent again. ``retire``: (channel, message)
        it left behind (the table message it replaces), to delete."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE table_posts SET posted = 1, owner = NULL, lease_until = NULL "
                "WHERE table_id = ? AND post = ?",
                (table_id, key),
            )
            if retire is not None:
                await _retire(conn, table_id, *retire)

    async def release_post(self, table_id: int, key: str, replaces: int | None = None) -> None:
        """Discord refused the post: another delivery sends it (and the table message it was
        to replace is the table message again, unless a new one was posted meanwhile)."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "DELETE FROM table_posts WHERE table_id = ? AND post = ? AND posted = 0",
                (table_id, key),
            )
            if replaces is not None:
                await conn.execute(
                    "UPDATE tables SET message_id = ? WHERE id = ? AND message_id IS NULL",
                    (replaces, table_id),
                )

    async def swap_message(
        self, table_id: int, old: int | None, new: int, retire: tuple[int, int] | None = None
    ) -> bool:
        """``new`` is the table message if ``old`` still was (False: another process posted
        one meanwhile; the caller's is then surplus). ``retire``: (channel, message) the new
        one replaces, recorded in the same step, to delete."""
        async with self.db.transaction() as conn:
            if old is None:
                changed = await conn.execute(
                    "UPDATE tables SET message_id = ? WHERE id = ? AND message_id IS NULL",
                    (new, table_id),
                )
            else:
                changed = await conn.execute(
                    "UPDATE tables SET message_id = ? WHERE id = ? AND message_id = ?",
                    (new, table_id, old),
                )
            if changed == 1 and retire is not None:
                await _retire(conn, table_id, *retire)
        return changed == 1

    # ---- replaced messages ---------------------------------------------------------------
    async def retire(self, table_id: int, channel_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await _retire(conn, table_id, channel_id, message_id)

    async def retired(self, table_id: int) -> list[tuple[int, int]]:
        """(channel, message) of replaced messages still to delete."""
        async with self.db.read() as conn:
            rows = await conn.fetchall(
                "SELECT channel_id, message_id FROM table_retired WHERE table_id = ? "
                "ORDER BY message_id",
                (table_id,),
            )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def leftover_retired(self, now: float, limit: int = 50) -> list[tuple[int, int, int]]:
        """(table, channel, message) of replaced messages still to delete whose table nobody
        holds a live lease on (no delivery of it is under way), the newest first."""
        async with self.db.read() as conn:
            rows = await conn.fetchall(
                "SELECT r.table_id, r.channel_id, r.message_id FROM table_retired r "
                "JOIN tables t ON t.id = r.table_id "
                "WHERE t.republish_until IS NULL OR t.republish_until <= ? "
                "ORDER BY r.message_id DESC LIMIT ?",
                (now, limit),
            )
        return [(int(r[0]), int(r[1]), int(r[2])) for r in rows]

    async def drop_retired(self, table_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "DELETE FROM table_retired WHERE table_id = ? AND message_id = ?",
                (table_id, message_id),
            )

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
        """A hand sent as a new DM, in one step: it is the seat's hand, the one it replaces is
        to retire, and the turn notification it carried (``notified_seq``) is sent.

        A compare-and-swap on the hand it replaces (``replaces``: the seat's hand as the caller
        read it, None: none):
        False if another delivery recorded a different hand meanwhile. The caller's message is
        then surplus (its caller deletes it), and the recorded one is left alone: recorded
        unconditionally, a delivery that read the seat before another's replacement put a
        message back over the newer one and retired that one, so the seat's recorded hand
        could be a deleted message (issue 29). A lost swap retires the caller's message (the
        next delivery deletes it if the caller cannot) and drops the in-flight record of its
        ``nonce`` (a winner drops whichever there is). The notification counts as sent either
        way: the message that carried it reached the player."""
        async with self.db.transaction() as conn:
            if replaces is None:
                changed = await conn.execute(
                    "UPDATE seats SET dm_channel_id = ?, dm_message_id = ?, dm_failed = 0 "
                    "WHERE table_id = ? AND seat = ? AND dm_message_id IS NULL",
                    (channel_id, message_id, table_id, seat),
                )
            else:
                changed = await conn.execute(
                    "UPDATE seats SET dm_channel_id = ?, dm_message_id = ?, dm_failed = 0 "
                    "WHERE table_id = ? AND seat = ? AND dm_message_id IN (?, ?)",
                    (channel_id, message_id, table_id, seat, replaces, message_id),
                )
            won = changed == 1
            if won:
                await conn.execute(
                    "DELETE FROM seat_sending WHERE table_id = ? AND seat = ?", (table_id, seat)
                )
                if retire is not None and retire[1] != message_id:
                    await _retire(conn, table_id, *retire)
            else:
                await _retire(conn, table_id, channel_id, message_id)
                if nonce is not None:
                    await conn.execute(
                        "DELETE FROM seat_sending WHERE table_id = ? AND seat = ? AND nonce = ?",
                        (table_id, seat, nonce),
                    )
            if notified_seq is not None:
                await _notified(conn, table_id, seat, notified_seq)
        return won

    async def notices(self, table_id: int, after_seq: int) -> list[NoticeRecord]:
        """Notices of the commits after ``after_seq``, in order."""
        async with self.db.read() as conn:
            rows = await conn.fetchall(
                "SELECT seq, part, kind, data_json FROM table_notices "
                "WHERE table_id = ? AND seq > ? ORDER BY seq, part",
                (table_id, after_seq),
            )
        return [NoticeRecord(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    async def sending_hand(
        self, table_id: int, seat: int, nonce: str, notified_seq: int | None = None
    ) -> bool:
        """A hand is about to be sent with ``nonce`` (until ``replace_dm`` records it),
        carrying the turn notification owed at ``notified_seq`` (None: none). One hand per
        seat is in flight at a time: False if another nonce is (the caller must not send;
        whoever completes that one records it)."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO seat_sending (table_id, seat, nonce, notified_seq) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (table_id, seat) DO NOTHING",
                (table_id, seat, nonce, notified_seq),
            )
            row = await conn.fetchone(
                "SELECT nonce FROM seat_sending WHERE table_id = ? AND seat = ?",
                (table_id, seat),
            )
        return row is not None and row[0] == nonce

    async def hands_in_flight(self, table_id: int) -> dict[int, InFlight]:
        """seat -> hands whose sending was cut before it was recorded."""
        async with self.db.read() as conn:
            rows = await conn.fetchall(
                "SELECT seat, nonce, notified_seq FROM seat_sending WHERE table_id = ?",
                (table_id,),
            )
        return {int(r[0]): InFlight(str(r[1]), None if r[2] is None else int(r[2])) for r in rows}

    # ---- turn notifications --------------------------------------------------------------
    async def owe_notification(self, table_id: int, seq: int) -> int | None:
        """The sweeper's claim of a due turn notification at ``seq``: it becomes owed to its
        seat (returned; None: not due, or claimed already)."""
        async with self.db.transaction() as conn:
            row = await conn.fetchone(
                "UPDATE tables SET notify_at = NULL, notify_owed = notify_seat, "
                "notify_by = NULL, notify_until = NULL "
                "WHERE id = ? AND seq = ? AND notify_at IS NOT NULL RETURNING notify_owed",
                (table_id, seq),
            )
        return None if row is None else row[0]

    async def take_owed(
        self, table_id: int, seat: int, seq: int, owner: str, now: float, until: float
    ) -> bool:
        """Take the notification owed to ``seat`` at ``seq`` for ``owner`` until ``until``
        (True: this caller sends it). It stays owed until ``notified`` (or ``replace_dm``)
        records it sent: a taker that crashed before that lets it lapse to another."""
        async with self.db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE tables SET notify_by = :me, notify_until = :until "
                "WHERE id = :id AND seq = :seq AND notify_owed = :seat AND (notify_until IS NULL "
                "OR notify_until <= :now OR notify_by = :me)",
                {"me": owner, "until": until, "id": table_id, "seq": seq, "seat": seat, "now": now},
            )
        return changed == 1

    async def notified(self, table_id: int, seat: int, seq: int) -> None:
        """The notification owed to ``seat`` at ``seq`` was sent (a channel ping)."""
        async with self.db.transaction() as conn:
            await _notified(conn, table_id, seat, seq)

    async def restore_owed(self, table_id: int, seat: int, seq: int, owner: str) -> None:
        """Sending it failed: anyone may take it again (unless the turn moved on)."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE tables SET notify_by = NULL, notify_until = NULL "
                "WHERE id = ? AND seq = ? AND notify_owed = ? AND notify_by = ?",
                (table_id, seq, seat, owner),
            )

    # ---- turn pings and reminders ----------------------------------------------------------
    async def add_ping(
        self, table_id: int, message_id: int, channel_id: int | None = None, seq: int | None = None
    ) -> None:
        """A turn ping or reminder to delete once the table moves past ``seq`` (None: at its
        next delivery); ``channel_id``: the DM channel it is in (None: the table's channel)."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO table_pings (table_id, message_id, channel_id, seq) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (table_id, message_id) DO NOTHING",
                (table_id, message_id, channel_id, seq),
            )

    async def pings(self, table_id: int, before_seq: int) -> list[Ping]:
        """The table's pings and reminders sent before ``before_seq`` (their turn is over)."""
        async with self.db.read() as conn:
            rows = await conn.fetchall(
                "SELECT message_id, channel_id FROM table_pings "
                "WHERE table_id = ? AND (seq IS NULL OR seq < ?) ORDER BY message_id",
                (table_id, before_seq),
            )
        return [Ping(int(r[0]), None if r[1] is None else int(r[1])) for r in rows]

    async def drop_ping(self, table_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "DELETE FROM table_pings WHERE table_id = ? AND message_id = ?",
                (table_id, message_id),
            )

    # ---- "Show my hand" answers (``seats.view_*``) -------------------------------------------
    async def remember_view(
        self, table_id: int, seat: int, user_id: int, view: HandView
    ) -> HandView | None:
        """``view`` is now the seat's latest "Show my hand" answer (if ``user_id`` still sits
        there); returns the one it replaces, to stamp out of date."""
        async with self.db.transaction() as conn:
            row = await conn.fetchone(
                "SELECT view_app_id, view_token, view_message_id, view_at FROM seats "
                "WHERE table_id = ? AND seat = ? AND user_id = ?",
                (table_id, seat, user_id),
            )
            if row is None:
                return None
            await conn.execute(
                "UPDATE seats SET view_app_id = ?, view_token = ?, view_message_id = ?, "
                "view_at = ? WHERE table_id = ? AND seat = ?",
                (view.app_id, view.token, view.message_id, view.at, table_id, seat),
            )
        return _view(row)

    async def forget_view(self, table_id: int, seat: int, token: str) -> bool:
        """The seat's answer with ``token`` is no longer refreshed (a newer one may have
        replaced it meanwhile: that one stays). True if this call forgot it."""
        async with self.db.transaction() as conn:
            rows = await conn.fetchall(
                "UPDATE seats SET view_app_id = NULL, view_token = NULL, "
                "view_message_id = NULL, view_at = NULL "
                "WHERE table_id = ? AND seat = ? AND view_token = ? RETURNING seat",
                (table_id, seat, token),
            )
        return bool(rows)

    async def take_expiring_views(
        self, answered_before: float, limit: int = 100
    ) -> list[ExpiringView]:
        """Forget the answers older than ``answered_before`` (their tokens lapse soon) and
        return them, to stamp out of date: each is taken by one process only."""
        async with self.db.transaction() as conn:
            rows = await conn.fetchall(
                "SELECT table_id, seat, view_app_id, view_token, view_message_id, view_at "
                "FROM seats WHERE view_at IS NOT NULL AND view_at < ? "
                f"ORDER BY view_at LIMIT ?{conn.dialect.skip_locked}",
                (answered_before, limit),
            )
            taken: list[ExpiringView] = []
            for r in rows:
                done = await conn.fetchall(
                    "UPDATE seats SET view_app_id = NULL, view_token = NULL, "
                    "view_message_id = NULL, view_at = NULL "
                    "WHERE table_id = ? AND seat = ? AND view_token = ? RETURNING seat",
                    (r[0], r[1], r[3]),
                )
                view = _view(r[2:])
                if done and view is not None:
                    taken.append(ExpiringView(int(r[0]), int(r[1]), view))
        return taken

    # ---- clicks on DM hands (``seats.click_*``) ----------------------------------------------
    async def remember_click(self, table_id: int, seat: int, user_id: int, click: HandView) -> None:
        """``click`` (an interaction on the seat's DM hand ``click.message_id``) is the seat's
        latest, if ``user_id`` still sits there: it replaces any older one."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE seats SET click_app_id = ?, click_token = ?, click_message_id = ?, "
                "click_at = ? WHERE table_id = ? AND seat = ? AND user_id = ?",
                (click.app_id, click.token, click.message_id, click.at, table_id, seat, user_id),
            )

    async def forget_click(self, table_id: int, seat: int, token: str) -> None:
        """The seat's click with ``token`` is no longer used (a newer one stays)."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE seats SET click_app_id = NULL, click_token = NULL, "
                "click_message_id = NULL, click_at = NULL "
                "WHERE table_id = ? AND seat = ? AND click_token = ?",
                (table_id, seat, token),
            )

    async def forget_clicks(self, table_id: int) -> None:
        """The table ended: none of its seats' tokens is kept."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE seats SET click_app_id = NULL, click_token = NULL, "
                "click_message_id = NULL, click_at = NULL "
                "WHERE table_id = ? AND click_token IS NOT NULL",
                (table_id,),
            )


async def _retire(conn: Connection, table_id: int, channel_id: int, message_id: int) -> None:
    await conn.execute(
        "INSERT INTO table_retired (table_id, channel_id, message_id) VALUES (?, ?, ?) "
        "ON CONFLICT (table_id, message_id) DO NOTHING",
        (table_id, channel_id, message_id),
    )


async def _notified(conn: Connection, table_id: int, seat: int, seq: int) -> None:
    await conn.execute(
        "UPDATE tables SET notify_owed = NULL, notify_by = NULL, notify_until = NULL "
        "WHERE id = ? AND seq = ? AND notify_owed = ?",
        (table_id, seq, seat),
    )


def _view(row: Sequence[Any]) -> HandView | None:
    """A remembered answer from its columns (app id, token, message id, when)."""
    if row[1] is None or row[0] is None or row[2] is None:
        return None
    return HandView(int(row[0]), str(row[1]), int(row[2]), float(row[3] or 0.0))
