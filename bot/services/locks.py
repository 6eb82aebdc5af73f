"""A table's turn to change: this process's lock on it, then the database's.

Every use case that changes a table runs under ``TableLock``: first the in-process
``asyncio.Lock`` (coroutines of this process queue there, and ``act`` notices a double click
queued behind its twin), then the database's lock on the table (``Database.table_lock``), so
that a concurrent action arriving at another process of a cluster waits its turn instead of
being refused by the ``seq`` check, which stays as the last defence. On SQLite the second lock
is a no-op: one process owns the file.
"""

from __future__ import annotations

import asyncio
import weakref
from types import TracebackType

from bot.db.database import Database, LockTimeout
from bot.db.database import TableLock as DatabaseLock
from bot.db.tables import TableStore
from bot.services.errors import Conflict


class TableLock:
    """``async with`` it for one table's turn; it yields whether the turn was had (always
    True when ``wait``; with ``wait=False``, False if another process is at the table)."""

    def __init__(
        self, local: asyncio.Lock, db: Database, store: TableStore, table_id: int, *, wait: bool
    ) -> None:
        self._local = local
        self._db = db
        self._store = store
        self._table_id = table_id
        self._wait = wait
        self._shared: DatabaseLock | None = None
        #: The table's ``seq`` seen while waiting for another process to finish with it: the
        #: state this call was meant for, had nothing been applied meanwhile (None: no wait).
        self.queued_seq: int | None = None

    def locked(self) -> bool:
        """Another coroutine of this process holds (or waits for) the table."""
        return self._local.locked()

    async def __aenter__(self) -> bool:
        await self._local.acquire()
        shared = self._db.table_lock(self._table_id)
        try:
            if not await shared.try_acquire():
                if not self._wait:
                    await shared.release()
                    self._local.release()
                    return False
                self.queued_seq = await self._store.seq_of(self._table_id)
                await shared.acquire()
        except BaseException as e:
            await shared.release()
            self._local.release()
            if isinstance(e, LockTimeout):
                raise Conflict("table_busy") from e
            raise
        self._shared = shared
        return True

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        shared, self._shared = self._shared, None
        if shared is None:  # the turn was not had (wait=False)
            return
        try:
            await shared.release()
        finally:
            self._local.release()


class TableLocks:
    """This process's table locks, created on first use and forgotten once nobody holds one."""

    def __init__(self, db: Database, store: TableStore) -> None:
        self._db = db
        self._store = store
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, table_id: int, *, wait: bool = True) -> TableLock:
        local = self._locks.get(table_id)
        if local is None:
            local = asyncio.Lock()
            self._locks[table_id] = local
        return TableLock(local, self._db, self._store, table_id, wait=wait)
