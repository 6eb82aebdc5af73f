"""Liveness for containers: the running bot writes a small JSON status file, and
``python -m bot health`` reads it and exits 0 (healthy) or 1 (unhealthy) with a one-line reason.

The status file sits next to the database by default (``<DATABASE_PATH dir>/trionfi.status.json``)
and looks like::

    {"pid": 7, "gateway_connected": true, "database_ok": true, "updated_at": 1767225600.0,
     "version": "0.1.0", "tasks": {"clocks": {"period": 5.0, "beat": 1767225598.2,
     "stale_after": 60.0, "running_since": null, "last_seconds": 0.012, "failures": 0}, …}}

The bot rewrites it every few seconds (atomically: a temporary file in the same folder, then
``os.replace``), so a reader never sees half a file. The check fails when the file is missing,
unreadable or older than ``max_age`` seconds (the bot is gone or its event loop is stuck), when
the gateway is not connected, when the database check failed, or when one of the bot's
background tasks (``tasks``: turn clocks, notifications, deliveries, upkeep, daily, boards;
``bot.ui.handlers.sweeper``) has not finished a round for longer than its ``stale_after``
(the reason names it).

Standard library only at import time, and no discord.py: the check runs every half minute in a
fresh interpreter and must stay cheap.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, cast

STATUS_FILE_NAME = "trionfi.status.json"
DEFAULT_MAX_AGE = 60.0
#: The database path the bot uses when ``DATABASE_PATH`` is not set (``bot.settings``' default).
_FALLBACK_DATABASE_PATH = Path("data/trionfi.sqlite3")

HEALTHY = 0
UNHEALTHY = 1  # Docker reads 0 as healthy and 1 as unhealthy; 2 is reserved, never returned.

StrPath = str | os.PathLike[str]


def status_path_for(database_path: StrPath) -> Path:
    """The default status file for a database: ``trionfi.status.json`` in the same folder."""
    return Path(database_path).expanduser().parent / STATUS_FILE_NAME


@cache
def package_version() -> str:
    """The installed trionfi version, or ``"unknown"`` when running from an uninstalled tree."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("trionfi")
    except PackageNotFoundError:
        return "unknown"


def write_status(
    path: StrPath,
    *,
    gateway_connected: bool,
    database_ok: bool,
    now: float,
    tasks: dict[str, dict[str, Any]] | None = None,
) -> None:
    """Atomically replace the status file at ``path`` (its folder is created if needed).

    ``now`` is the Unix time to record (``time.time()``); ``tasks`` the background tasks'
    liveness (``Sweeper.liveness``). Raises ``OSError`` if the file cannot be written; the
    caller logs it and carries on (a missing update shows as a stale file).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "pid": os.getpid(),
        "gateway_connected": bool(gateway_connected),
        "database_ok": bool(database_ok),
        "updated_at": float(now),
        "version": package_version(),
    }
    if tasks:
        payload["tasks"] = tasks
    data = (json.dumps(payload, separators=(",", ":")) + "\n").encode()
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as tmp:
            tmp.write(data)
        os.chmod(tmp_name, 0o644)  # mkstemp makes 0600; let another user (a sidecar) read it
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise


def check(path: StrPath, *, now: float, max_age: float = DEFAULT_MAX_AGE) -> tuple[int, str]:
    """``(0, reason)`` if the status at ``path`` is fresh, connected and the database is OK;
    otherwise ``(1, reason)``. ``now`` is the current Unix time."""
    target = Path(path)
    try:
        raw = target.read_bytes()
    except FileNotFoundError:
        return UNHEALTHY, (
            f"unhealthy: no status file at {target} (the bot has not started yet, or it writes "
            "its status elsewhere: pass --status)"
        )
    except OSError as exc:
        return UNHEALTHY, f"unhealthy: cannot read {target}: {exc.strerror or exc}"

    try:
        status = _parse(raw)
    except ValueError as exc:
        return UNHEALTHY, f"unhealthy: status file {target} is corrupt: {exc}"

    age = now - status["updated_at"]
    if age > max_age:
        return UNHEALTHY, (
            f"unhealthy: status is {age:.0f} s old (max {max_age:g} s): the bot is not running "
            "or its event loop is stuck"
        )
    if age < -max_age:
        return UNHEALTHY, f"unhealthy: status is dated {-age:.0f} s in the future (clock change?)"

    problems = []
    if not status["gateway_connected"]:
        problems.append("not connected to the Discord gateway")
    if not status["database_ok"]:
        problems.append("the database check failed")
    problems.extend(_stale_tasks(status, now))
    if problems:
        return UNHEALTHY, f"unhealthy: {' and '.join(problems)} (updated {max(age, 0.0):.0f} s ago)"
    return HEALTHY, (
        f"healthy: gateway connected, database OK, updated {max(age, 0.0):.0f} s ago "
        f"(pid {status['pid']}, version {status['version']})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot health [--status PATH] [--max-age S]``: print the reason, return 0 or 1.

    ``argv`` is the arguments after ``health`` (``None``: ``sys.argv[2:]``). Without
    ``--status`` the file is looked for next to ``DATABASE_PATH`` (the environment, then
    ``.env``, as the bot reads it).
    """
    parser = argparse.ArgumentParser(
        prog="python -m bot health",
        description="Exit 0 if the running bot's status file is fresh, connected and its "
        "database OK; otherwise print why and exit 1.",
    )
    parser.add_argument(
        "--status",
        metavar="PATH",
        help=f"the status file (default: {STATUS_FILE_NAME} next to DATABASE_PATH)",
    )
    parser.add_argument(
        "--max-age",
        metavar="S",
        type=_positive_seconds,
        default=DEFAULT_MAX_AGE,
        help=f"the oldest status accepted, in seconds (default: {DEFAULT_MAX_AGE:g})",
    )
    try:
        args = parser.parse_args(sys.argv[2:] if argv is None else list(argv))
    except SystemExit as exc:  # --help (0) or a usage error (argparse's 2, reserved by Docker)
        return HEALTHY if exc.code in (0, None) else UNHEALTHY

    path = Path(args.status) if args.status else status_path_for(_database_path())
    code, reason = check(path, now=time.time(), max_age=args.max_age)
    print(reason)
    return code


# ---- helpers --------------------------------------------------------------------------------


def _parse(raw: bytes) -> dict[str, Any]:
    """The validated status object; ``ValueError`` with a short reason if it is not one."""
    try:
        status = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not JSON ({exc})") from None
    if not isinstance(status, dict):
        raise ValueError("not a JSON object")
    for key in ("gateway_connected", "database_ok"):
        if not isinstance(status.get(key), bool):
            raise ValueError(f"{key!r} is missing or not true/false")
    updated_at = status.get("updated_at")
    if (
        isinstance(updated_at, bool)
        or not isinstance(updated_at, int | float)
        or not math.isfinite(updated_at)
    ):
        raise ValueError("'updated_at' is missing or not a number")
    status["updated_at"] = float(updated_at)
    status.setdefault("pid", "?")
    status.setdefault("version", "unknown")
    return status


def _stale_tasks(status: dict[str, Any], now: float) -> list[str]:
    """A sentence for each background task that has not finished a round for longer than
    its ``stale_after`` (a malformed entry is skipped: the file's own age still vouches for
    the bot)."""
    tasks: object = status.get("tasks")
    if not isinstance(tasks, dict):
        return []
    found: list[str] = []
    for name, entry in sorted(cast(dict[str, object], tasks).items()):
        if not isinstance(entry, dict):
            continue
        fields = cast(dict[str, object], entry)
        beat, limit = fields.get("beat"), fields.get("stale_after")
        if not (_is_number(beat) and _is_number(limit)):
            continue
        age = now - cast(float, beat)
        if age > cast(float, limit):
            found.append(
                f"background task {name!r} has not finished a round for {age:.0f} s "
                f"(stale after {cast(float, limit):g} s)"
            )
    return found


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {text!r}")
    return value


def _database_path() -> Path:
    """``DATABASE_PATH`` exactly as the bot resolves it (environment over ``./.env``).

    ``bot.settings`` is imported lazily (it brings python-dotenv, nothing heavier); if it cannot
    be used, the environment variable alone decides.
    """
    try:
        from bot.settings import load_settings

        return load_settings(require_token=False).database_path
    except Exception:  # a malformed unrelated key must not hide the status file
        raw = os.environ.get("DATABASE_PATH", "").strip()
        return Path(raw).expanduser() if raw else _FALLBACK_DATABASE_PATH
