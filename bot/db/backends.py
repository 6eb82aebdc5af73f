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


async def open_database(target: str | PathLike[str]) -> Database:
    """Open ``target``: a ``postgresql://`` URL, or a SQLite file (``":memory:"`` too)."""
    # Each backend is imported only when chosen, so a SQLite deployment never loads asyncpg
    # (nor a PostgreSQL one aiosqlite).
    if is_postgres_url(str(target)):
        from bot.db.postgres import PostgresDatabase

        return await PostgresDatabase.connect(str(target))
    from bot.db.sqlite import SqliteDatabase

    return await SqliteDatabase.connect(target)
