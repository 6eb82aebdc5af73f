"""Which backend a database target names, and opening it: ``open_database(target)``.

A ``postgresql://`` (or ``postgres://``) URL opens a PostgreSQL connection pool
(``bot.db.postgres``); anything else is a SQLite file (``bot.db.sqlite``; ``":memory:"`` too).

The choice lives here, beside the backends, rather than in ``bot.db.database``: both backends
import that storage API, so a factory there would import them back and close a circle
(ARCHITECTURE §5). Callers that only use an open database import ``Database`` from
``bot.db.database``; whoever opens one calls ``open_database``.
"""

from __future__ import annotations

from os import PathLike

from bot.db.database import Database

_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str) -> bool:
    return target.startswith(_POSTGRES_SCHEMES)


async def open_database(
    target: str | PathLike[str],
    *,
    pool_size: int | None = None,
    acquire_timeout: float | None = None,
) -> Database:
    """Open ``target``: a ``postgresql://`` URL, or a SQLite file (``":memory:"`` too).

    ``pool_size`` and ``acquire_timeout`` (seconds) size PostgreSQL's connection pool and
    bound the wait for one of its connections (None: the backend's defaults); SQLite, with
    its one connection, ignores them."""
    # Each backend is imported only when chosen, so a SQLite deployment never loads asyncpg
    # (nor a PostgreSQL one aiosqlite).
    if is_postgres_url(str(target)):
        from bot.db import postgres
        from bot.db.postgres import PostgresDatabase

        return await PostgresDatabase.connect(
            str(target),
            pool_size=postgres.POOL_SIZE if pool_size is None else pool_size,
            acquire_timeout=(
                postgres.ACQUIRE_TIMEOUT if acquire_timeout is None else acquire_timeout
            ),
        )
    from bot.db.sqlite import SqliteDatabase

    return await SqliteDatabase.connect(target)
