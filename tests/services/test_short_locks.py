"""Short locks and a busy database (issue 29, defects 3 and 5): the sweeper's ``wait=False``
never waits, not even for a coroutine of its own process; the database's lock (and its pooled
connection) is let go while computers think; and a full connection pool is a polite "busy, try
again", never a hang."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from bot.db.backends import open_database
from bot.db.database import Database, PoolTimeout
from bot.services import compute
from bot.services.errors import Busy, as_refusal
from bot.services.models import Outcome
from bot.services.tables import TableService
from bot.ui.text.refusals import refusal
from tests.services import jobs
from tests.services.conftest import (
    ANA,
    BEN,
    CAL,
    CHANNEL,
    DEE,
    GUILD,
    Clock,
    passive_payload,
    user_to_act,
)

#: Guards against a hang (the defects these tests are about): never reached when all is well.
HANG_GUARD = 60.0


async def _until(done: Callable[[], bool] | Callable[[], Awaitable[bool]]) -> None:
    async with asyncio.timeout(HANG_GUARD):
        while True:
            found = done()
            if found if isinstance(found, bool) else await found:
                return
            await asyncio.sleep(0.01)


async def test_wait_false_returns_at_once_when_this_process_holds_the_table(
    svc: TableService,
) -> None:
    locks = svc._locks  # pyright: ignore[reportPrivateUsage]
    async with locks(7) as mine:
        assert mine
        skip = asyncio.create_task(locks(7, wait=False).__aenter__())
        for _ in range(3):  # a few turns of the loop: never enough for a lock to come free
            await asyncio.sleep(0)
        assert skip.done(), "the sweeper's wait=False waited for the held table"
        assert skip.result() is False
    async with locks(7, wait=False) as free:  # and once nobody holds it, it is had
        assert free


def _postgres_only(db_target: str) -> None:
    if not db_target.startswith("postgres"):
        pytest.skip("a connection pool is PostgreSQL's (SQLite has one connection)")


@pytest.fixture
async def one_connection(db_target: str) -> AsyncIterator[Database]:
    """The test's PostgreSQL database through a pool of ONE connection."""
    _postgres_only(db_target)
    db = await open_database(db_target, pool_size=1, acquire_timeout=0.3)
    try:
        yield db
    finally:
        await db.close()


async def _table(svc: TableService, channel: int, user: int, seed: int) -> Outcome:
    t = await svc.open_lobby(GUILD, channel, user, "P", "la_morte", 3, {}, computers=2)
    return await svc.start(t.id, user, seed=seed)


async def test_a_full_pool_is_refused_politely(one_connection: Database, clock: Clock) -> None:
    svc = TableService(one_connection, clock=clock, seed_source=lambda: 3)
    out = await _table(svc, CHANNEL, ANA, 11)
    view = out.seat_views[out.public.to_act]  # type: ignore[union-attr]
    async with asyncio.timeout(HANG_GUARD), one_connection.transaction():  # the one connection
        with pytest.raises(Busy) as acting:
            await svc.act(out.table.id, user_to_act(out), passive_payload(view))
        with pytest.raises(PoolTimeout) as reading:
            await svc.get_table(out.table.id)
    assert acting.value.code == "database_busy"
    for error in (acting.value, reading.value):
        refused = as_refusal(error)
        assert refused is not None and refused.code == "database_busy"
        assert "try again" in refusal(refused)
    # Nothing was applied, and with the connection free the same click goes through.
    assert (await svc.get_table(out.table.id)).seq == out.table.seq
    await svc.act(out.table.id, user_to_act(out), passive_payload(view))


async def test_the_database_lock_is_not_held_while_computers_think(
    one_connection: Database, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = TableService(one_connection, clock=clock, seed_source=lambda: 3)
    slow, other = await _table(svc, CHANNEL, ANA, 41), await _table(svc, CHANNEL + 1, BEN, 42)
    monkeypatch.setattr(compute, "advance", jobs.advance)
    gate = jobs.Gate(41)  # table ``slow``'s computers think until the test opens it
    try:
        acting: asyncio.Task[Outcome] | None = None
        for _ in range(20):  # Ana's moves until one hands the turn to the computers
            view = slow.seat_views[slow.public.to_act]  # type: ignore[union-attr]
            task = asyncio.create_task(svc.act(slow.table.id, ANA, passive_payload(view)))
            acting = task
            await _until(lambda task=task: task.done() or gate.started())
            if gate.started():
                break
            slow = acting.result()
        assert acting is not None and gate.started() and not acting.done()
        # With one pooled connection, all of this needs the one the thinking table let go:
        # a read, another table's lock and commit, a lobby opened and joined.
        async with asyncio.timeout(HANG_GUARD):
            assert (await svc.get_table(slow.table.id)).seq == slow.table.seq
            await svc.resign(other.table.id, BEN)  # its last human: it ends, no computing
            lobby = await svc.open_lobby(GUILD, CHANNEL + 2, CAL, "Cal", "la_morte", 3, {})
            joined = await svc.join(lobby.id, DEE, "Dee")
        assert (await svc.get_table(other.table.id)).status == "abandoned"
        assert len(joined.seats) == 2
        assert not acting.done()  # all that while the computers were still thinking
        gate.open()
        done = await acting
        assert done.table.seq > slow.table.seq
    finally:
        gate.remove()  # lets a held job go, whatever happened
