"""The SQL that differs between SQLite and PostgreSQL, as small named fragments.

Everything else in ``bot/db`` is written once, in the SQL both accept, with SQLite's ``?`` and
``:name`` parameters (the PostgreSQL connection rewrites them to ``$n``). Where the two
disagree, a module asks its connection's ``dialect`` for the fragment instead of spelling it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Dialect:
    name: str  # "sqlite" | "postgres"; also the folder of its migrations
    greatest: str  # the larger of two values (SQLite's two-argument MAX is a scalar)
    least: str
    # Appended to a SELECT that reads rows the transaction is about to change. Empty on SQLite:
    # a write transaction there already holds the whole database (BEGIN IMMEDIATE).
    for_update: str
    # Appended to a SELECT of a row that must not change until the transaction ends, while
    # other transactions may hold the same (e.g. many finishing games, one rolling window).
    # Empty on SQLite, as ``for_update``.
    for_share: str
    # Appended to a SELECT that claims due work: rows another process is claiming right now
    # are skipped rather than waited for (each item is done once, by whoever got it first).
    skip_locked: str
    # Several processes can share this database: work must be claimed in it, not in memory.
    shared: bool

    def json_rows(self, items: str) -> str:
        """An aggregate: the rows' ``items`` (comma-separated expressions) as a JSON array of
        arrays, ``[]`` when there are no rows."""
        if self.name == "sqlite":
            return f"json_group_array(json_array({items}))"
        return f"COALESCE(json_agg(json_build_array({items})), '[]')"


SQLITE = Dialect(
    name="sqlite",
    greatest="MAX",
    least="MIN",
    for_update="",
    for_share="",
    skip_locked="",
    shared=False,
)

POSTGRES = Dialect(
    name="postgres",
    greatest="GREATEST",
    least="LEAST",
    for_update=" FOR UPDATE",
    for_share=" FOR KEY SHARE",
    skip_locked=" FOR UPDATE SKIP LOCKED",
    shared=True,
)
