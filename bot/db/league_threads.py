"""A league table's private thread, made once (issue 34).

The host's **Start** claims the table's thread in one statement before the Discord call
(``claim``), with a lease, as a tournament's posts are (``bot.db.tournament_claims``); the
thread Discord made is recorded at once (``made``). A Start after a crash finds the thread
recorded and reuses it, instead of leaving it empty and making another; a claim whose process
died lapses with its lease. When the table started the claim is let go, the thread kept
(``release``); when the start failed while the table is still a lobby, the claim and its
thread are forgotten (``drop``: the Discord layer deletes the thread).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.db.database import Database


@dataclass(frozen=True, slots=True)
class ThreadClaim:
    """What ``claim`` found: ``mine`` (the caller starts the table now; ``thread_id``: the
    thread an earlier attempt made, to reuse), or not (another start holds a running lease)."""

    mine: bool
    thread_id: int | None = None


async def claim(db: Database, table_id: int, owner: str, now: float, until: float) -> ThreadClaim:
    """Claim the start of league table ``table_id`` for ``owner`` until ``until``: taken if
    nobody holds it, or if its holder's lease lapsed."""
    async with db.transaction() as conn:
        row = await conn.fetchone(
            "INSERT INTO league_threads (table_id, owner, lease_until) VALUES (:id, :me, :until) "
            "ON CONFLICT (table_id) DO UPDATE SET owner = :me, lease_until = :until "
            "WHERE league_threads.lease_until IS NULL OR league_threads.lease_until <= :now "
            "RETURNING thread_id",
            {"id": table_id, "me": owner, "until": until, "now": now},
        )
    if row is None:
        return ThreadClaim(False)
    return ThreadClaim(True, None if row[0] is None else int(row[0]))


async def made(db: Database, table_id: int, owner: str, thread_id: int) -> None:
    """``owner`` has the table's thread (made, or found again): recorded for any retry."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE league_threads SET thread_id = ? WHERE table_id = ? AND owner = ?",
            (thread_id, table_id, owner),
        )


async def release(db: Database, table_id: int, owner: str) -> None:
    """The table started: nobody holds its start any more (the thread stays recorded)."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE league_threads SET owner = NULL, lease_until = NULL "
            "WHERE table_id = ? AND owner = ?",
            (table_id, owner),
        )


async def drop(db: Database, table_id: int, owner: str) -> int | None:
    """The start failed and the table is still a lobby: forget ``owner``'s claim and its
    thread. Returns the thread to delete (None: none was made, or the claim is not
    ``owner``'s any more, or the table started meanwhile)."""
    async with db.transaction() as conn:
        row = await conn.fetchone(
            "DELETE FROM league_threads WHERE table_id = :id AND owner = :me AND EXISTS "
            "(SELECT 1 FROM tables WHERE id = :id AND status = 'lobby') RETURNING thread_id",
            {"id": table_id, "me": owner},
        )
    return None if row is None or row[0] is None else int(row[0])
