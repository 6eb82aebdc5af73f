"""``python -m bot db …``: the database commands of an operator.

``db copy --to postgresql://… [--from FILE]`` copies the SQLite database (``DATABASE_PATH`` by
default) into an empty PostgreSQL database, then proves the copy: row counts and row digests
of every table, and every started table's log replayed into its stored snapshot. It prints a
report and exits 0 only when everything matched.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.db.backends import is_postgres_url, open_database
from bot.db.copy import copy_database
from bot.db.database import DatabaseError
from bot.services.audit import replay_all
from bot.settings import ConfigError, load_settings


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot db")
    commands = parser.add_subparsers(dest="command", required=True)
    copy = commands.add_parser("copy", help="copy the SQLite database into PostgreSQL")
    copy.add_argument("--to", required=True, help="postgresql://user:password@host:5432/db")
    copy.add_argument("--from", dest="source", help="the SQLite file (default: DATABASE_PATH)")
    return parser


def _say(line: str) -> None:
    print(line, flush=True)


async def copy(source_path: Path, url: str) -> bool:
    """The copy and its report; True when everything matched."""
    source = await open_database(source_path)
    try:
        before = await source.schema_version()
        version = await source.migrate()
        target = await open_database(url)
        try:
            await target.migrate()
            note = "" if before == version else f", upgraded from {before}"
            _say(f"Copying {source.target} (schema {version}{note}) to {target.target}")
            report = await copy_database(
                source, target, lambda table, rows: _say(f"  {table}: {rows} rows…")
            )
            _say("Rows, source → copy:")
            for t in report.tables:
                verdict = (
                    "ok" if t.ok else "COUNT DIFFERS" if t.source != t.target else "ROWS DIFFER"
                )
                _say(f"  {t.name:<15} {t.source:>10} → {t.target:<10} {verdict}")
            _say(f"New tables are numbered from {report.next_table_id}.")
            replay = await replay_all(
                target, lambda done, total: _say(f"  replayed {done} of {total} tables…")
            )
        finally:
            await target.close()
    finally:
        await source.close()
    _say(
        f"Replay: {replay.replayed} started tables rebuild their stored snapshot from their "
        f"log ({replay.lobbies} lobbies have none)."
    )
    if replay.mismatched:
        _say(f"  MISMATCH at tables {', '.join(map(str, replay.mismatched))}")
    ok = report.ok and replay.ok
    _say("Copy verified." if ok else "The copy does NOT match the source: do not switch to it.")
    return ok


def main(args: list[str]) -> int:
    options = _parser().parse_args(args)
    if not is_postgres_url(options.to):
        print("error: --to must be a postgresql:// URL", file=sys.stderr)
        return 2
    if options.source is not None:
        source = Path(options.source)
    else:
        try:
            source = load_settings(require_token=False).database_path
        except ConfigError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    if not source.is_file():
        print(f"error: no SQLite database at {source}", file=sys.stderr)
        return 2
    try:
        return 0 if asyncio.run(copy(source, options.to)) else 1
    except DatabaseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
