"""Logging set-up: stdlib logging to stderr, one format for the bot and discord.py, with context.

Formats (``LOG_FORMAT``, chosen with `setup_logging`):

- ``text``: ``2024-05-01 12:00:00 WARNING  bot.x: message table=12 game=lamorte`` — the context
  fields are appended as ``key=value`` (values with spaces or quotes are JSON-quoted), a
  traceback follows on the next lines.
- ``json``: one JSON object per line with ``time`` (ISO 8601, UTC), ``level``, ``logger``,
  ``message``, the context fields that are set, and ``exc_info`` (the traceback text) when the
  record has one.

Context fields (`FIELDS`): ``table``, ``game``, ``guild``, ``user``, ``custom_id``,
``command``. A record gets them from

- `log_context` (a context manager) or `bind`: every record logged inside it, by any logger
  (discord.py's included), carries the fields. They live in a `contextvars.ContextVar`, so
  concurrent asyncio tasks never see each other's fields; a task started inside a context
  starts with a copy of it. A field passed as ``None`` is removed for the duration.
- ``extra={"table": 12}`` on one call; it wins over the bound context.

Other keys are refused by `log_context` / `bind` and ignored in ``extra``: only these ids and
names ever reach a log line. ``custom_id`` is printed with its ``=value`` parts redacted
(`redact_custom_id`): a decision button's custom_id may carry cards.

**Never log cards** — not in messages, not in context, not in ``extra``: hands are secret
and log lines are read by operators and shipped to third-party collectors. Log ids (table,
seat, user) and let the database answer what was held.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any, Protocol

TEXT_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
LOG_FORMATS = ("text", "json")
#: The context fields, in the order they are printed.
FIELDS = ("table", "game", "guild", "user", "custom_id", "command")

_EMPTY: Mapping[str, object] = MappingProxyType({})
_context: ContextVar[Mapping[str, object]] = ContextVar("trionfi_log_context", default=_EMPTY)
_BARE = re.compile(r"[^\s\"'=\\]+")
_CUSTOM_ID_VALUE = re.compile(r"=[^:@]*")


# ---- binding context -----------------------------------------------------------------------
def _merged(fields: Mapping[str, object]) -> Mapping[str, object]:
    unknown = set(fields) - set(FIELDS)
    if unknown:
        raise TypeError(
            f"unknown log context field(s): {', '.join(sorted(unknown))}; "
            f"allowed: {', '.join(FIELDS)}"
        )
    merged = dict(_context.get())
    for key, value in fields.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return MappingProxyType(merged)


@contextmanager
def log_context(**fields: object) -> Iterator[None]:
    """Add ``fields`` to every record logged inside the ``with`` block (in this task and
    the tasks it starts); ``None`` removes a field. Restores the previous context on exit."""
    token = _context.set(_merged(fields))
    try:
        yield
    finally:
        _context.reset(token)


def bind(**fields: object) -> None:
    """Add ``fields`` to the current context until it ends: for the rest of the current
    asyncio task (tasks have their own copy), or of the enclosing `log_context` block.
    ``None`` removes a field."""
    _context.set(_merged(fields))


def current_context() -> dict[str, object]:
    """The fields bound right now (a copy)."""
    return dict(_context.get())


class _TableLike(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def game_id(self) -> str: ...
    @property
    def guild_id(self) -> int: ...


def table_fields(table: _TableLike) -> dict[str, object]:
    """``table``, ``game`` and ``guild`` of a table (a ``TableInfo``), for ``extra=`` or
    ``log_context(**table_fields(t))``."""
    return {"table": table.id, "game": table.game_id, "guild": table.guild_id}


# ---- records ---------------------------------------------------------------------------------
class ContextFilter(logging.Filter):
    """Copies the bound context onto each record (fields given with ``extra=`` win). Attach it
    to a handler so records of every logger get it; it never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in _context.get().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


def redact_custom_id(custom_id: str) -> str:
    """``custom_id`` with every ``=value`` part replaced by ``=*``: a decision button carries
    its payload there, and a discard's is the cards (``tb:7:act:discard:cards=S2-S3`` →
    ``tb:7:act:discard:cards=*``)."""
    return _CUSTOM_ID_VALUE.sub("=*", custom_id)


def record_fields(record: logging.LogRecord) -> dict[str, object]:
    """The context fields a record carries, in `FIELDS` order (``custom_id`` redacted)."""
    out: dict[str, object] = {}
    for key in FIELDS:
        value = getattr(record, key, None)
        if value is not None:
            out[key] = redact_custom_id(str(value)) if key == "custom_id" else value
    return out


def _text_value(value: object) -> str:
    text = str(value)
    return text if _BARE.fullmatch(text) else json.dumps(text)


class TextFormatter(logging.Formatter):
    """`TEXT_FORMAT` with the record's context appended as ``key=value``."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT, DATE_FORMAT)

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        fields = record_fields(record)
        if not fields:
            return line
        return line + " " + " ".join(f"{k}={_text_value(v)}" for k, v in fields.items())


class JsonFormatter(logging.Formatter):
    """One JSON object per line (see the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record_fields(record).items():
            out[key] = value if isinstance(value, int | float | str | bool) else str(value)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            out["exc_info"] = record.exc_text
        if record.stack_info:
            out["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(out, default=str)


def make_handler(log_format: str = "text", stream: Any = None) -> logging.Handler:
    """A stream handler (stderr by default) with the formatter of ``log_format`` and the
    `ContextFilter`."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"log_format must be one of {', '.join(LOG_FORMATS)}, got {log_format!r}")
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    handler.addFilter(ContextFilter())
    return handler


def setup_logging(level: str, log_format: str = "text") -> None:
    """Send all records at ``level`` and above to stderr in ``log_format`` (``"text"`` or
    ``"json"``), replacing any earlier set-up.

    ``discord.http`` logs every rate-limit bucket at INFO/DEBUG; it is held at WARNING so real
    problems stay visible without drowning the bot's own messages.
    """
    logging.basicConfig(level=level.upper(), handlers=[make_handler(log_format)], force=True)
    logging.getLogger("discord.http").setLevel(logging.WARNING)
