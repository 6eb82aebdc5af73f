"""The outbox's claims lapse (issue 29): a process that crashes between claiming something
and recording it sent leaves it to the next one, never lost and never sent by two at once."""

from __future__ import annotations

from bot.db.database import Database
from bot.db.outbox import InFlight, Outbox, PostClaim
from bot.db.tables import TableStore
from tests.db.test_tables import _lobby, _start


async def test_a_post_claim_lapses_until_it_is_marked_posted(db: Database) -> None:
    store = TableStore(db)
    table = await _lobby(store)
    await _start(store, table)
    outbox = Outbox(db)
    first = await outbox.claim_post(table, "deal:1", "a", now=10.0, until=70.0, replaces=555)
    assert first == PostClaim(PostClaim.MINE, 555)
    # Another process while the claim is live: held (its delivery must not be marked shown).
    held = await outbox.claim_post(table, "deal:1", "b", now=20.0, until=80.0)
    assert held.status == PostClaim.HELD
    # "a" crashed before marking it posted: once its lease lapsed, "b" takes it, with the
    # table message it replaces.
    again = await outbox.claim_post(table, "deal:1", "b", now=71.0, until=131.0)
    assert again == PostClaim(PostClaim.MINE, 555)
    await outbox.mark_posted(table, "deal:1")
    later = await outbox.claim_post(table, "deal:1", "c", now=500.0, until=560.0)
    assert later.status == PostClaim.POSTED


async def test_an_owed_notification_lapses_until_it_is_recorded_sent(db: Database) -> None:
    store = TableStore(db)
    table = await _lobby(store)
    await _start(store, table)
    outbox = Outbox(db)
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tables SET notify_at = 5.0, notify_seat = 1 WHERE id = ?", (table,)
        )
        await conn.execute(
            "UPDATE seats SET dm_channel_id = 900, dm_message_id = 800 "
            "WHERE table_id = ? AND seat = 1",
            (table,),
        )
    state = await outbox.state(table)
    assert state is not None
    assert await outbox.owe_notification(table, state.seq) == 1
    assert await outbox.take_owed(table, 1, state.seq, "a", now=10.0, until=70.0)
    assert not await outbox.take_owed(table, 1, state.seq, "b", now=20.0, until=80.0)
    # "a" crashed before sending it: "b" takes it once the lease lapsed, and records it sent
    # with the hand that carried it (the old hand to retire in the same step).
    assert await outbox.take_owed(table, 1, state.seq, "b", now=71.0, until=131.0)
    assert await outbox.replace_dm(table, 1, 900, 901, (900, 800), state.seq, 800)
    assert not await outbox.take_owed(table, 1, state.seq, "c", now=999.0, until=1059.0)
    assert await outbox.retired(table) == [(900, 800)]
    await outbox.drop_retired(table, 800)
    assert await outbox.retired(table) == []


async def _dm(db: Database, table: int, seat: int) -> int | None:
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT dm_message_id FROM seats WHERE table_id = ? AND seat = ?", (table, seat)
        )
    assert row is not None
    return None if row[0] is None else int(row[0])


async def test_a_hand_recorded_over_a_newer_one_loses_and_is_retired(db: Database) -> None:
    """Two deliveries read the seat's hand 800 and each sent a new one: the first recorded
    wins; the second (recorded unconditionally, it used to put its hand back over the first's
    and retire 800 only, so a third delivery could delete the recorded hand) loses, its own
    message is retired and its in-flight record dropped. A nonce that gave the winner's own
    message back counts as the same hand, and a delivery that read no hand at all loses too."""
    store = TableStore(db)
    table = await _lobby(store)
    await _start(store, table)
    outbox = Outbox(db)
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE seats SET dm_channel_id = 900, dm_message_id = 800 "
            "WHERE table_id = ? AND seat = 0",
            (table,),
        )
    await outbox.sending_hand(table, 0, "nonce-b")
    assert await outbox.replace_dm(table, 0, 900, 901, (900, 800), None, 800, "nonce-a")
    assert await outbox.hands_in_flight(table) == {}  # the winner drops whichever there is
    await outbox.sending_hand(table, 0, "nonce-b")
    assert not await outbox.replace_dm(table, 0, 900, 902, (900, 800), None, 800, "nonce-b")
    assert await _dm(db, table, 0) == 901
    assert await outbox.retired(table) == [(900, 800), (900, 902)]
    assert await outbox.hands_in_flight(table) == {}
    # The same nonce answered with the winner's message: already the seat's hand.
    assert await outbox.replace_dm(table, 0, 900, 901, (900, 800), None, 800, "nonce-a")
    assert await _dm(db, table, 0) == 901
    # A delivery that read the seat before it had any hand.
    assert not await outbox.replace_dm(table, 0, 900, 903, None, None, None)
    assert await _dm(db, table, 0) == 901
    assert (900, 903) in await outbox.retired(table)


async def test_one_hand_per_seat_is_in_flight_at_a_time(db: Database) -> None:
    """A hand in flight (its process may have died after Discord made it) keeps another
    nonce from being sent for that seat until it is recorded: sent beside it, one of the two
    could be recorded nowhere, a live hand for good. The same nonce may be sent again (it
    makes one message), and the other seats are not held up."""
    store = TableStore(db)
    table = await _lobby(store)
    await _start(store, table)
    outbox = Outbox(db)
    assert await outbox.sending_hand(table, 0, "nonce-a", 3)
    assert await outbox.sending_hand(table, 0, "nonce-a")
    assert not await outbox.sending_hand(table, 0, "nonce-b")
    assert await outbox.sending_hand(table, 1, "nonce-c")
    assert await outbox.hands_in_flight(table) == {
        0: InFlight("nonce-a", 3),
        1: InFlight("nonce-c"),
    }
    assert await outbox.replace_dm(table, 0, 900, 901, None, 3, None, "nonce-a")
    assert await outbox.sending_hand(table, 0, "nonce-b")
