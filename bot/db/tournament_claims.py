"""Claims on a tournament's Discord posts (issue 34): each post, thread and game table of a
tournament is made by one process of a cluster, once.

A claim is taken in one statement before the Discord call (``claim``), with a lease, as a
table's channel posts are (``bot.db.outbox.Outbox.claim_post``): a process killed between its
claim and its call leaves a claim that lapses, and the next sweep takes it over. The process
whose call succeeded records it done, with what it made (``done``); one whose call Discord
refused lets it go at once (``release``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.db.database import Database


@dataclass(frozen=True, slots=True)
class Claim:
    """What ``claim`` found: the claim is the caller's (``MINE``), was done already (``DONE``,
    with what was made), or another process holds it and its lease has not lapsed (``HELD``:
    leave it to that process)."""

    MINE: ClassVar[str] = "mine"
    DONE: ClassVar[str] = "done"
    HELD: ClassVar[str] = "held"

    status: str
    made_id: int | None = None

    @property
    def mine(self) -> bool:
        return self.status == Claim.MINE


async def claim(
    db: Database, tournament_id: int, key: str, owner: str, now: float, until: float
) -> Claim:
    """Claim ``key`` of a tournament for ``owner`` until ``until``: taken if nobody holds it,
    or if its holder's lease lapsed before it was done."""
    async with db.transaction() as conn:
        row = await conn.fetchone(
            "INSERT INTO tournament_claims (tournament_id, claim, owner, lease_until, done) "
            "VALUES (:id, :key, :me, :until, 0) "
            "ON CONFLICT (tournament_id, claim) DO UPDATE SET owner = :me, lease_until = :until "
            "WHERE tournament_claims.done = 0 AND (tournament_claims.lease_until IS NULL "
            "OR tournament_claims.lease_until <= :now) RETURNING done",
            {"id": tournament_id, "key": key, "me": owner, "until": until, "now": now},
        )
        if row is not None:
            return Claim(Claim.MINE)
        found = await conn.fetchone(
            "SELECT done, made_id FROM tournament_claims WHERE tournament_id = ? AND claim = ?",
            (tournament_id, key),
        )
    if found is not None and found[0]:
        return Claim(Claim.DONE, None if found[1] is None else int(found[1]))
    return Claim(Claim.HELD)


async def done(
    db: Database,
    tournament_id: int,
    key: str,
    made_id: int | None = None,
    *,
    posted: tuple[str, int] | None = None,
    thread: tuple[int, int] | None = None,
) -> None:
    """Record ``key`` done (``made_id``: what it made), in the same transaction as what the
    tournament remembers of it: ``posted`` (``pairings_posted`` or ``standings_posted``, and
    the round) or ``thread`` (the round and board whose thread ``made_id`` is)."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tournament_claims SET done = 1, made_id = ?, owner = NULL, lease_until = NULL "
            "WHERE tournament_id = ? AND claim = ?",
            (made_id, tournament_id, key),
        )
        if posted is not None:
            column, round_no = posted
            assert column in ("pairings_posted", "standings_posted"), column  # i18n: code
            greatest = conn.dialect.greatest
            await conn.execute(
                f"UPDATE tournaments SET {column} = {greatest}({column}, ?) WHERE id = ?",
                (round_no, tournament_id),
            )
        if thread is not None:
            await conn.execute(
                "UPDATE tournament_boards SET thread_id = ? "
                "WHERE tournament_id = ? AND round = ? AND board = ? AND thread_id IS NULL",
                (made_id, tournament_id, *thread),
            )


async def release(db: Database, tournament_id: int, key: str, owner: str) -> None:
    """``owner``'s call was refused: the claim is free again (unless it was done)."""
    async with db.transaction() as conn:
        await conn.execute(
            "DELETE FROM tournament_claims "
            "WHERE tournament_id = ? AND claim = ? AND owner = ? AND done = 0",
            (tournament_id, key, owner),
        )
