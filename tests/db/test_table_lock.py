"""The database's table lock on PostgreSQL: another process's hold makes a taker wait (or, when
it may not wait, skip), on one pooled connection, and a hold that never ends times out."""

from __future__ import annotations

import asyncio

import pytest

from bot.db import postgres
from bot.db.backends import open_database
from bot.db.database import LockTimeout
from bot.db.postgres import PostgresDatabase
from bot.db.tables import SeatRecord, TableStore
from bot.services.errors import Conflict
from bot.services.locks import TableLocks
from tests.backends import PostgresServer


async def _table(store: TableStore) -> int:
    return await store.create(
        guild_id=1,
        channel_id=2,
        game_id="la_morte",
        owner_id=3,
        players=4,
        options={},
        seed=5,
        rules_version=1,
        seats=[SeatRecord(0, 3, "Ana")],
        now=0.0,
    )


async def test_postgres_table_lock_waits_for_another_process(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = await postgres_server.create()
    mine = await PostgresDatabase.connect(url, pool_size=1)  # no second connection to lean on
    other = await open_database(url)
    try:
        store = TableStore(mine)
        table_id = await _table(store)
        theirs = other.table_lock(table_id)
        assert await theirs.try_acquire()

        # A sweeper that may not wait skips the table.
        async with TableLocks(mine, store)(table_id, wait=False) as ours:
            assert not ours

        # An action waits: it reads the seq it queued at, then waits for the other process.
        lock = mine.table_lock(table_id)
        assert not await lock.try_acquire()
        assert await store.seq_of(table_id) == 0  # on the pinned connection: the only one
        waiting = asyncio.create_task(lock.acquire())
        await asyncio.sleep(0.2)
        assert not waiting.done()
        await theirs.release()
        await asyncio.wait_for(waiting, 5)
        assert (await store.get(table_id)) is not None  # reads run on the held connection
        await lock.release()

        # A hold that never ends: the waiter gives up, and the service says "try again".
        monkeypatch.setattr(postgres, "LOCK_WAIT", 0.3)
        assert await theirs.try_acquire()
        lock = mine.table_lock(table_id)
        assert not await lock.try_acquire()
        with pytest.raises(LockTimeout):
            await lock.acquire()
        await lock.release()
        with pytest.raises(Conflict, match="busy"):
            async with TableLocks(mine, store)(table_id):
                pass
        await theirs.release()
        async with TableLocks(mine, store)(table_id) as ours:  # the pool is whole again
            assert ours
    finally:
        await mine.close()
        await other.close()
        await postgres_server.drop(url)
