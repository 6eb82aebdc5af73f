"""Checks of stored tables against the engine: a started table's action log, replayed from its
seed, must rebuild exactly the snapshot stored with it (``python -m bot db copy`` runs this on
the copy)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.db.database import Database
from bot.engine import match
from bot.services.tables import TableService


@dataclass(frozen=True, slots=True)
class ReplayReport:
    replayed: int  # started tables whose log rebuilt their snapshot
    lobbies: int  # tables never started: no snapshot, nothing to replay
    mismatched: tuple[int, ...]  # ids of tables whose replay differs from their snapshot

    @property
    def ok(self) -> bool:
        return not self.mismatched


async def replay_all(
    db: Database, progress: Callable[[int, int], None] | None = None
) -> ReplayReport:
    """Replay every stored table (``progress(done, total)`` now and then)."""
    service = TableService(db)
    async with db.read() as conn:
        sql = "SELECT id, snapshot_json IS NULL FROM tables ORDER BY id"  # i18n: code (SQL)
        rows = await conn.fetchall(sql)
    replayed = 0
    lobbies = 0
    mismatched: list[int] = []
    for done, (table_id, lobby) in enumerate(rows, start=1):
        if lobby:
            lobbies += 1
            continue
        record = await service.store.get(table_id)
        assert record is not None and record.snapshot is not None
        try:
            same = await service.replay(table_id) == match.from_json(record.snapshot)
        except Exception:  # a log the engine cannot replay is a mismatch too, not a crash
            same = False
        if same:
            replayed += 1
        else:
            mismatched.append(table_id)
        if progress is not None and (done % 500 == 0 or done == len(rows)):
            progress(done, len(rows))
    return ReplayReport(replayed, lobbies, tuple(mismatched))
