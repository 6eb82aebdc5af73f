"""A table's turn to change: this process's lock on it, then the database's.

Every use case that changes a table runs under ``TableLock``: first the in-process
``asyncio.Lock`` (coroutines of this process queue there, and ``act`` notices a double click
queued behind its twin), then the database's lock on the table (``Database.table_lock``), so
that a concurrent action arriving at another process of a cluster waits its turn instead of
being refused by the ``seq`` check, which stays as the last defence. On SQLite the second lock
is a no-op: one process owns the file.

The database lock is short (issue 29, defect 5): it is held around the load and the commit,
and let go while computer players think (``TableLock.released``), so that a pooled connection
is never held for a computer's seconds. The table's ``seq`` covers that window: the caller
checks it once the lock is back (``TableCore._advance``) and recomputes if it moved. The
in-process lock stays held meanwhile: it costs no connection, and keeps this process's clicks
at one table in order.

``wait=False`` (the sweeper's) never waits, neither for another process nor for a coroutine
of this one: a busy table is skipped, and found again at the next round.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncGenerator
from contextvars import ContextVar, Token
from types import TracebackType

from bot.db.database import Database, LockTimeout, PoolTimeout
from bot.db.database import TableLock as DatabaseLock
from bot.db.tables import TableStore
from bot.services.errors import Busy, Conflict


class _Turn:
    """One table's in-process lock, and how many coroutines hold or wait for it."""

    __slots__ = ("__weakref__", "lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


#: The table lock the running task holds (``TableCore`` lets its database half go while
#: computers think).
_HELD: ContextVar[TableLock | None] = ContextVar("trionfi_table_lock", default=None)


def held() -> TableLock | None:
    """The table lock the current task holds, if any."""
    return _HELD.get()


class TableLock:
    """``async with`` it for one table's turn; it yields whether the turn was had (always
    True when ``wait``; with ``wait=False``, False if anyone else is at the table)."""

    def __init__(
        self, turn: _Turn, db: Database, store: TableStore, table_id: int, *, wait: bool
    ) -> None:
        self._turn = turn
        self._db = db
        self._store = store
        self.table_id = table_id
        self._wait = wait
        self._had = False
        self._shared: DatabaseLock | None = None
        self._token: Token[TableLock | None] | None = None
        #: The table's ``seq`` seen while waiting for another process to finish with it: the
        #: state this call was meant for, had nothing been applied meanwhile (None: no wait).
        self.queued_seq: int | None = None

    def locked(self) -> bool:
        """Another coroutine of this process holds (or waits for) the table."""
        return self._turn.users > 0

    async def __aenter__(self) -> bool:
        turn = self._turn
        if not self._wait and turn.users:
            return False  # a coroutine of this process is at the table: skipped, not awaited
        turn.users += 1
        try:
            await turn.lock.acquire()
        except BaseException:
            turn.users -= 1
            raise
        try:
            self._shared = await self._take_shared(queue=True)
        except BaseException:
            self._give_back_local()
            raise
        if self._shared is None:
            self._give_back_local()
            return False
        self._had = True
        self._token = _HELD.set(self)
        return True

    async def _take_shared(self, *, queue: bool) -> DatabaseLock | None:
        """The database's lock on the table (None: another process has it and we don't
        wait). ``queue``: remember the ``seq`` seen while waiting (``queued_seq``)."""
        shared = self._db.table_lock(self.table_id)
        try:
            if not await shared.try_acquire():
                if not self._wait:
                    await shared.release()
                    return None
                if queue:
                    self.queued_seq = await self._store.seq_of(self.table_id)
                await shared.acquire()
        except BaseException as e:
            await shared.release()
            if isinstance(e, LockTimeout):
                raise Conflict("table_busy") from e
            if isinstance(e, PoolTimeout):
                raise Busy("database_busy") from e
            raise
        return shared

    @contextlib.asynccontextmanager
    async def released(self) -> AsyncGenerator[None]:
        """Let the database's lock (and its pooled connection) go for the block, then take it
        back: ``Conflict`` if that fails (``wait=False``: another process took the table).
        The in-process lock stays held. Whoever uses this checks the table's ``seq`` after."""
        shared, self._shared = self._shared, None
        if shared is None:
            yield
            return
        await shared.release()
        try:
            yield
        finally:
            taken = await self._take_shared(queue=False)
            if taken is None:
                raise Conflict("changed_while_acting")
            self._shared = taken

    def _give_back_local(self) -> None:
        self._turn.users -= 1
        self._turn.lock.release()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if not self._had:  # the turn was not had (wait=False)
            return
        self._had = False
        if self._token is not None:
            with contextlib.suppress(ValueError):  # reset from another context: leave it
                _HELD.reset(self._token)
            self._token = None
        shared, self._shared = self._shared, None
        try:
            if shared is not None:
                await shared.release()
        finally:
            self._give_back_local()


class TableLocks:
    """This process's table locks, created on first use and forgotten once nobody holds one."""

    def __init__(self, db: Database, store: TableStore) -> None:
        self._db = db
        self._store = store
        self._turns: weakref.WeakValueDictionary[int, _Turn] = weakref.WeakValueDictionary()

    def __call__(self, table_id: int, *, wait: bool = True) -> TableLock:
        turn = self._turns.get(table_id)
        if turn is None:
            turn = _Turn()
            self._turns[table_id] = turn
        return TableLock(turn, self._db, self._store, table_id, wait=wait)
