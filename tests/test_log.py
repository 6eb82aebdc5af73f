"""Structured logging (bot.log): the text and JSON formats, context fields, task isolation."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.log import (
    ContextFilter,
    JsonFormatter,
    TextFormatter,
    bind,
    current_context,
    log_context,
    make_handler,
    redact_custom_id,
    setup_logging,
    table_fields,
)


class Capture:
    """A logger whose records go through a ``make_handler`` handler into a string."""

    def __init__(self, log_format: str, name: str) -> None:
        self.stream = io.StringIO()
        self.handler = make_handler(log_format, self.stream)
        self.logger = logging.getLogger(name)
        self.logger.addHandler(self.handler)
        self.logger.setLevel(logging.DEBUG)
        self.logger.propagate = False

    def close(self) -> None:
        self.logger.removeHandler(self.handler)
        self.logger.propagate = True
        self.logger.setLevel(logging.NOTSET)

    @property
    def text(self) -> str:
        return self.stream.getvalue()

    def records(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.text.splitlines()]


@pytest.fixture
def as_json() -> Iterator[Capture]:
    capture = Capture("json", "trionfi.test.json")
    yield capture
    capture.close()


@pytest.fixture
def as_text() -> Iterator[Capture]:
    capture = Capture("text", "trionfi.test.text")
    yield capture
    capture.close()


# ---- JSON ------------------------------------------------------------------------------------
def test_json_line_carries_context_and_exception(as_json: Capture) -> None:
    with log_context(table=12, game="lamorte", guild=900, user=77, command="lamorte new"):
        try:
            1 / 0  # noqa: B018
        except ZeroDivisionError:
            as_json.logger.exception("interaction failed (%s)", "table state unchanged")

    lines = as_json.text.splitlines()
    assert len(lines) == 1  # the traceback stays inside the one JSON line
    record = json.loads(lines[0])
    assert record["level"] == "ERROR"
    assert record["logger"] == "trionfi.test.json"
    assert record["message"] == "interaction failed (table state unchanged)"
    assert record["table"] == 12
    assert record["game"] == "lamorte"
    assert record["guild"] == 900
    assert record["user"] == 77
    assert record["command"] == "lamorte new"
    assert "custom_id" not in record  # unset fields are left out
    assert "Traceback (most recent call last)" in record["exc_info"]
    assert "ZeroDivisionError: division by zero" in record["exc_info"]
    assert datetime.fromisoformat(record["time"]).utcoffset() is not None


def test_json_without_context_has_only_the_base_keys(as_json: Capture) -> None:
    as_json.logger.info("plain")
    (record,) = as_json.records()
    assert set(record) == {"time", "level", "logger", "message"}
    assert record["level"] == "INFO"


def test_extra_fields_and_extra_wins_over_context(as_json: Capture) -> None:
    with log_context(table=1, guild=5):
        as_json.logger.warning("delivery failed", extra={"table": 2, "game": "tarot", "seat": 3})
    (record,) = as_json.records()
    assert record["table"] == 2
    assert record["game"] == "tarot"
    assert record["guild"] == 5
    assert "seat" not in record  # only the context fields are emitted


def test_table_fields() -> None:
    table = SimpleNamespace(id=4, game_id="la_morte", guild_id=42, seats=("secret",))
    assert table_fields(cast(Any, table)) == {"table": 4, "game": "la_morte", "guild": 42}


def test_custom_id_values_are_redacted(as_json: Capture) -> None:
    # A discard's Confirm button carries the (secret) cards: they never reach a log line.
    with log_context(custom_id="tb:7:act:discard:cards=S2-S3-H4@3"):
        as_json.logger.info("x")
    (record,) = as_json.records()
    assert record["custom_id"] == "tb:7:act:discard:cards=*@3"
    assert redact_custom_id("tb:7:join") == "tb:7:join"
    assert redact_custom_id("tb:7:act:bid:amount=3") == "tb:7:act:bid:amount=*"


# ---- text ------------------------------------------------------------------------------------
def test_text_appends_key_value(as_text: Capture) -> None:
    with log_context(guild=9, user=5, custom_id="tb:3:hand", command="lamorte new"):
        as_text.logger.warning("interaction failed", extra={"table": 3})
    (line,) = as_text.text.splitlines()
    assert line.endswith(
        "trionfi.test.text: interaction failed table=3 guild=9 user=5 custom_id=tb:3:hand "
        'command="lamorte new"'
    )
    assert " WARNING  " in line


def test_text_without_context_is_unchanged(as_text: Capture) -> None:
    as_text.logger.info("hello")
    assert as_text.text.rstrip("\n").endswith("INFO     trionfi.test.text: hello")


def test_text_context_stays_on_the_first_line_before_the_traceback(as_text: Capture) -> None:
    with log_context(table=8):
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            as_text.logger.exception("publishing failed")
    lines = as_text.text.splitlines()
    assert lines[0].endswith("publishing failed table=8")
    assert lines[1] == "Traceback (most recent call last):"
    assert lines[-1] == "RuntimeError: boom"


# ---- the context API -------------------------------------------------------------------------
def test_context_nests_overrides_removes_and_restores() -> None:
    assert current_context() == {}
    with log_context(table=1, user=2):
        with log_context(table=3, user=None):
            assert current_context() == {"table": 3}
        assert current_context() == {"table": 1, "user": 2}
    assert current_context() == {}


def test_unknown_field_is_refused() -> None:
    with pytest.raises(TypeError, match="cards"), log_context(cards="S2"):
        pass
    with pytest.raises(TypeError, match="hand"):
        bind(hand="S2")
    assert current_context() == {}


async def test_context_does_not_leak_between_tasks(as_json: Capture) -> None:
    both_inside = asyncio.Event()
    arrived = 0

    async def handle(table: int, user: int) -> None:
        nonlocal arrived
        with log_context(table=table, guild=100 + table):
            bind(user=user)  # the rest of this task only
            arrived += 1
            if arrived == 2:
                both_inside.set()
            await both_inside.wait()  # both contexts are live at the same time
            for step in range(3):
                as_json.logger.info("step %s", step)
                await asyncio.sleep(0)  # interleave the two tasks' lines

    with log_context(command="outer"):
        await asyncio.gather(handle(1, 11), handle(2, 22))
        assert current_context() == {"command": "outer"}  # the tasks changed only their copies
    assert current_context() == {}

    records = as_json.records()
    assert len(records) == 6
    tables = [r["table"] for r in records]
    assert tables != [1, 1, 1, 2, 2, 2] and tables != [2, 2, 2, 1, 1, 1]  # really interleaved
    for record in records:
        assert record["guild"] == 100 + record["table"]
        assert record["user"] == record["table"] * 11
        assert record["command"] == "outer"  # inherited from where the tasks were started


def test_filter_reads_context_for_any_logger() -> None:
    # discord.py's records get the context too: the filter sits on the handler.
    record = logging.LogRecord("discord.gateway", logging.INFO, __file__, 1, "hi", None, None)
    with log_context(guild=3):
        assert ContextFilter().filter(record)
    assert record.__dict__["guild"] == 3


# ---- set-up ----------------------------------------------------------------------------------
@pytest.fixture
def restore_root() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    http = logging.getLogger("discord.http")
    http_level = http.level
    yield
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
    for handler in handlers:
        if handler not in root.handlers:
            root.addHandler(handler)
    root.setLevel(level)
    http.setLevel(http_level)


@pytest.mark.parametrize(
    ("log_format", "formatter"), [("text", TextFormatter), ("json", JsonFormatter)]
)
def test_setup_logging_selects_the_format(
    restore_root: None, log_format: str, formatter: type[logging.Formatter]
) -> None:
    setup_logging("warning", log_format)
    root = logging.getLogger()
    (handler,) = root.handlers
    assert isinstance(handler.formatter, formatter)
    assert any(isinstance(f, ContextFilter) for f in handler.filters)
    assert root.level == logging.WARNING
    assert logging.getLogger("discord.http").level == logging.WARNING


def test_setup_logging_defaults_to_text(restore_root: None) -> None:
    setup_logging("INFO")
    assert isinstance(logging.getLogger().handlers[0].formatter, TextFormatter)


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="yaml"):
        make_handler("yaml")


# ---- wired context ---------------------------------------------------------------------------
async def test_guarded_failure_line_names_guild_user_component_and_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.ui.handlers import desk as desk_module

    capture = Capture("json", desk_module.log.name)
    replies: list[str] = []

    async def fake_reply_error(interaction: object, text: str) -> None:
        replies.append(text)

    monkeypatch.setattr(desk_module, "reply_error", fake_reply_error)
    interaction = SimpleNamespace(
        guild_id=900,
        app_permissions=SimpleNamespace(use_external_emojis=True),
        user=SimpleNamespace(id=77),
        data={"custom_id": "tb:12:act:play:card=S2"},
        command=SimpleNamespace(qualified_name="lamorte play"),
    )

    async def work() -> None:
        raise RuntimeError("boom")

    @contextlib.asynccontextmanager
    async def working() -> AsyncIterator[None]:
        yield

    fake_self = SimpleNamespace(bot=SimpleNamespace(accepting=True, working=working))
    try:
        await desk_module.Desk.guarded(cast(Any, fake_self), cast(Any, interaction), work, None)
    finally:
        capture.close()

    (record,) = capture.records()
    assert record["message"] == "interaction failed (table state unchanged)"
    assert record["guild"] == 900
    assert record["user"] == 77
    assert record["custom_id"] == "tb:12:act:play:card=*"
    assert record["command"] == "lamorte play"
    assert "RuntimeError: boom" in record["exc_info"]
    assert replies == [desk_module.GENERIC]
    assert current_context() == {}  # nothing stays bound after the interaction
