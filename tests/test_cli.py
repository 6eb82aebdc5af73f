"""``python -m bot``'s command line (bot.__main__): the help, unknown commands, and the one-line
errors of a bot that cannot start because Discord refuses its token or cannot be reached.

Discord is never contacted: its API base is pointed at a small HTTP server of this test on
127.0.0.1 (or at a closed port there), or its login call is made to raise.
"""

from __future__ import annotations

import contextlib
import errno
import http.server
import json
import logging
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import aiohttp
import discord
import discord.http
import pytest
from aiohttp.client_reqrep import ConnectionKey

from bot.__main__ import HELP, describe_start_failure, main, network_reason

REPO_ROOT = Path(__file__).resolve().parent.parent
SETTINGS_KEYS = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "DATABASE_URL",
    "LOG_LEVEL",
    "DEV_GUILD_ID",
    "LOG_FORMAT",
    "SHARD_COUNT",
    "SHARD_IDS",
    "COMMAND_SYNC",
    "LOBBY_IDLE_HOURS",
    "TABLE_IDLE_DAYS",
    "DAILY_SALT",
)
COMMANDS = ("run", "sync", "health", "db copy")
TOKEN = "abc.def.ghi"

# ``python -m bot`` with discord.py's API base replaced (argv[1]), then main's arguments.
RUN_AGAINST = (
    "import sys, discord.http; discord.http.Route.BASE = sys.argv[1]; "
    "from bot.__main__ import main; raise SystemExit(main(sys.argv[2:]))"
)


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A bare environment for a child process started in ``tmp_path`` (which has no .env)."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "PYTHONPATH": str(REPO_ROOT),  # the checkout, even where it is not pip-installed
        **extra,
    }


def _child(tmp_path: Path, args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=tmp_path,
        env=_env(tmp_path, **env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def _error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error:")]


def _closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ---- help and unknown commands -------------------------------------------------------------
@pytest.mark.parametrize("flag", ["--help", "-h", "help"])
def test_help_in_a_fresh_process_needs_no_token_nor_discord(tmp_path: Path, flag: str) -> None:
    # -X importtime lists every module imported: discord.py (slow, and a sign the help
    # went past the command line) must not be among them.
    proc = _child(tmp_path, ["-X", "importtime", "-m", "bot", flag])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == HELP
    imported = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()]
    assert "bot.__main__" in imported or "bot" in imported
    assert not [name for name in imported if name.split(".")[0] in ("discord", "aiohttp")]
    assert not [line for line in proc.stderr.splitlines() if not line.startswith("import time:")]
    assert not (tmp_path / "data").exists()  # help creates nothing


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["help"], ["run", "--help"], ["sync", "-h"]])
def test_help_lists_every_command_and_where_settings_come_from(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith("usage: python -m bot ")
    listed = {
        m.group(1): m.group(2)
        for m in re.finditer(r"^  ((?:db )?[a-z]+)\s{2,}(\S.*)$", out, flags=re.MULTILINE)
    }
    assert set(COMMANDS) <= set(listed), listed
    assert "default" in listed["run"]
    assert "slash commands" in listed["sync"]
    assert "healthy" in listed["health"]
    assert "PostgreSQL" in listed["db copy"]
    for where in ("DISCORD_TOKEN", ".env", "environment", "config.example.env"):
        assert where in out
    assert all(len(line) <= 79 for line in out.splitlines())  # an 80-column terminal


@pytest.mark.parametrize(("command", "option"), [("health", "--max-age"), ("db", "copy")])
def test_help_of_a_command_shows_its_options(
    command: str, option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["help", command]) == 0
    assert option in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "named"), [(["frobnicate"], "'frobnicate'"), (["run", "now"], "'now'")]
)
def test_unknown_command_or_argument_is_a_usage_error(
    args: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[0].startswith("usage: python -m bot [run | sync | health | db")
    (error,) = _error_lines(err)
    assert named in error
    assert "--help" in error
    assert len(err.splitlines()) == 2


def test_unknown_command_in_a_fresh_process_exits_2(tmp_path: Path) -> None:
    proc = _child(tmp_path, ["-m", "bot", "frobnicate"])
    assert proc.returncode == 2
    assert _error_lines(proc.stderr) == [
        "error: unknown command 'frobnicate'; python -m bot --help lists the commands"
    ]
    assert "Traceback" not in proc.stderr


# ---- a bot that cannot start ---------------------------------------------------------------
class FakeDiscord(http.server.ThreadingHTTPServer):
    """Discord's HTTP API as far as a login goes: every request is answered with ``status``
    and a JSON error body; the requests are recorded."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _FakeDiscordHandler)
        self.status = 401
        self.requests: list[tuple[str, str | None]] = []
        self.on_request: Callable[[], None] | None = None  # called before answering
        self.delay = 0.0  # seconds to wait before answering

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/api/v10"


class _FakeDiscordHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        server = cast(FakeDiscord, self.server)
        server.requests.append((self.path, self.headers.get("Authorization")))
        if server.on_request is not None:
            server.on_request()
        time.sleep(server.delay)
        body = json.dumps({"message": f"{server.status}: refused", "code": 0}).encode()
        with contextlib.suppress(OSError):  # the client may be gone (stopped meanwhile)
            self.send_response(server.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet


@pytest.fixture
def fake_discord() -> Iterator[FakeDiscord]:
    server = FakeDiscord()
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def configured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The in-process `main` set up for ``run``: a token, a database in ``tmp_path``, pytest's
    own logging kept (main's `setup_logging` is skipped). Returns the database path."""
    monkeypatch.chdir(tmp_path)
    for key in SETTINGS_KEYS:
        monkeypatch.delenv(key, raising=False)
    database = tmp_path / "data" / "t.sqlite3"
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.setattr("bot.log.setup_logging", lambda *args, **kwargs: None)
    return database


def _assert_one_error_no_traceback(err: str, caplog: pytest.LogCaptureFixture | None = None) -> str:
    """The single ``error:`` line of ``err``; nothing printed or logged carries a traceback."""
    assert "Traceback" not in err
    lines = _error_lines(err)
    assert len(lines) == 1, err
    if caplog is not None:
        assert not [r for r in caplog.records if r.exc_info], caplog.text
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    return lines[0]


def test_refused_token_in_a_fresh_process_is_one_line(
    tmp_path: Path, fake_discord: FakeDiscord
) -> None:
    fake_discord.status = 401
    proc = _child(
        tmp_path,
        ["-c", RUN_AGAINST, fake_discord.base],
        DISCORD_TOKEN=TOKEN,
        DATABASE_PATH=str(tmp_path / "data" / "t.sqlite3"),
    )
    assert proc.returncode == 2, proc.stderr
    line = _assert_one_error_no_traceback(proc.stderr)
    assert line.startswith("error: Discord rejected DISCORD_TOKEN (Improper token")
    assert "Reset Token" in line
    assert fake_discord.requests == [("/api/v10/users/@me", f"Bot {TOKEN}")]
    assert proc.stdout == ""


def test_unreachable_discord_in_a_fresh_process_is_one_line(tmp_path: Path) -> None:
    port = _closed_port()
    proc = _child(
        tmp_path,
        ["-c", RUN_AGAINST, f"http://127.0.0.1:{port}/api/v10"],
        DISCORD_TOKEN=TOKEN,
        DATABASE_PATH=str(tmp_path / "data" / "t.sqlite3"),
    )
    assert proc.returncode == 2, proc.stderr
    line = _assert_one_error_no_traceback(proc.stderr)
    assert line == (
        f"error: cannot reach Discord (connection refused by 127.0.0.1:{port}); "
        "check the network or proxy."
    )
    assert "logging in" in proc.stderr  # the bot's logging was on (and printed no traceback)


@pytest.mark.parametrize("command", ["run", "sync"])
@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (401, "error: Discord rejected DISCORD_TOKEN (Improper token has been passed.)"),
        (503, "error: Discord answered HTTP 503 (Service Unavailable) to the login; Discord is"),
        (429, "error: Discord refused the login with HTTP 429 (Too Many Requests): too many"),
        (403, "error: Discord refused the login with HTTP 403 (Forbidden)."),
    ],
    ids=["401", "503", "429", "403"],
)
def test_discord_refusing_the_login_is_one_line(
    configured: Path,
    fake_discord: FakeDiscord,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    command: str,
    status: int,
    expected: str,
) -> None:
    fake_discord.status = status
    monkeypatch.setattr(discord.http.Route, "BASE", fake_discord.base)
    caplog.set_level(logging.DEBUG)
    assert main([command]) == 2
    out, err = capsys.readouterr()
    line = _assert_one_error_no_traceback(err, caplog)
    assert line.startswith(expected)
    assert "<" not in line and 'refused"' not in line  # no response body in the line
    assert [path for path, _ in fake_discord.requests] == ["/api/v10/users/@me"]
    assert out == ""
    assert not configured.exists()  # the database is opened only after a login


def test_a_stop_during_the_login_is_a_clean_stop_not_an_error(
    configured: Path,
    fake_discord: FakeDiscord,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    # docker stop while Discord is slow to answer the login: the stop closes the HTTP session
    # under the login call, whose error must not read "cannot reach Discord".
    fake_discord.on_request = lambda: os.kill(os.getpid(), signal.SIGTERM)
    fake_discord.delay = 0.5
    monkeypatch.setattr(discord.http.Route, "BASE", fake_discord.base)
    caplog.set_level(logging.DEBUG)
    assert main([]) == 0
    err = capsys.readouterr().err
    assert _error_lines(err) == []
    assert "Traceback" not in err
    assert "SIGTERM received; stopping" in caplog.text
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


@pytest.mark.parametrize("command", ["run", "sync"])
def test_closed_port_is_cannot_reach_discord(
    configured: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    command: str,
) -> None:
    port = _closed_port()
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    caplog.set_level(logging.DEBUG)
    assert main([command]) == 2
    line = _assert_one_error_no_traceback(capsys.readouterr().err, caplog)
    assert line == (
        f"error: cannot reach Discord (connection refused by 127.0.0.1:{port}); "
        "check the network or proxy."
    )


_DISCORD_KEY = ConnectionKey("discord.com", 443, True, True, None, None, None, None)
_PROXY_KEY = ConnectionKey("proxy.lan", 3128, False, True, None, None, None, None)


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (
            aiohttp.ClientConnectorDNSError(
                _DISCORD_KEY, socket.gaierror(socket.EAI_NONAME, "Name or service not known")
            ),
            "DNS failure: cannot resolve discord.com",
        ),
        (
            aiohttp.ClientConnectorError(
                _DISCORD_KEY, socket.gaierror(socket.EAI_AGAIN, "Temporary failure")
            ),
            "DNS failure: cannot resolve discord.com",
        ),
        (
            aiohttp.ConnectionTimeoutError("Connection timeout to host https://discord.com"),
            "timeout",
        ),
        (TimeoutError(), "timeout"),
        (
            aiohttp.ClientConnectorError(_DISCORD_KEY, TimeoutError(errno.ETIMEDOUT, "timed out")),
            "timeout connecting to discord.com:443",
        ),
        (
            aiohttp.ClientProxyConnectionError(
                _PROXY_KEY, ConnectionRefusedError(errno.ECONNREFUSED, "Connect call failed")
            ),
            "the proxy proxy.lan:3128 failed: [Errno 111] Connect call failed",
        ),
        (OSError(errno.ENETUNREACH, "Network is unreachable"), "network unreachable"),
        (
            aiohttp.ClientConnectorError(
                _DISCORD_KEY, OSError(errno.EHOSTUNREACH, "No route to host")
            ),
            "no route to host discord.com:443",
        ),
        (
            aiohttp.ClientConnectorCertificateError(
                _DISCORD_KEY, ssl.SSLCertVerificationError("certificate verify failed")
            ),
            "TLS failure with discord.com:443",
        ),
    ],
    ids=[
        "dns",
        "dns-again",
        "connect-timeout",
        "timeout",
        "os-timeout",
        "proxy",
        "net",
        "host",
        "tls",
    ],
)
def test_a_failed_login_call_says_why_discord_is_unreachable(
    configured: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    error: OSError,
    reason: str,
) -> None:
    calls: list[str] = []

    async def unreachable(self: discord.http.HTTPClient, route: discord.http.Route, **_: Any):
        calls.append(route.path)
        raise error

    monkeypatch.setattr(discord.http.HTTPClient, "request", unreachable)
    caplog.set_level(logging.DEBUG)
    assert main([]) == 2
    line = _assert_one_error_no_traceback(capsys.readouterr().err, caplog)
    assert line.startswith(f"error: cannot reach Discord ({reason}")
    assert line.endswith("); check the network or proxy.")
    assert calls == ["/users/@me"]  # the login call, made once: no retry at start-up


# ---- what the bot may raise after the login ------------------------------------------------
class _StartFails:
    """A stand-in bot whose ``start`` raises ``error``, logged in (``user`` set) or not."""

    def __init__(self, error: BaseException, *, logged_in: bool) -> None:
        self.error = error
        self.user = object() if logged_in else None

    async def __aenter__(self) -> _StartFails:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def start(self, token: str) -> None:
        raise self.error

    async def shutdown(self) -> None:
        return None


def _install(monkeypatch: pytest.MonkeyPatch, bot: _StartFails) -> None:
    module = types.ModuleType("bot.client")
    module.create_bot = lambda settings: bot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.client", module)


def _closed(code: int) -> discord.ConnectionClosed:
    return discord.ConnectionClosed(types.SimpleNamespace(close_code=code), shard_id=0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (
            discord.PrivilegedIntentsRequired(0),
            "error: Discord refused the privileged gateway intents the bot asks for (shard 0).",
        ),
        (_closed(4004), "error: Discord rejected DISCORD_TOKEN (the gateway answered 4004"),
        (_closed(4011), "error: Discord closed the gateway connection with code 4011: this bot"),
        (discord.GatewayNotFound(), "error: Discord did not give a gateway to connect to;"),
        (
            aiohttp.ClientConnectorError(
                _DISCORD_KEY, ConnectionRefusedError(errno.ECONNREFUSED, "refused")
            ),
            "error: cannot reach Discord (connection refused by discord.com:443);",
        ),
    ],
    ids=["privileged-intents", "gateway-4004", "gateway-4011", "no-gateway", "aiohttp"],
)
def test_gateway_refusals_after_the_login_are_one_line(
    configured: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: BaseException,
    expected: str,
) -> None:
    _install(monkeypatch, _StartFails(error, logged_in=True))
    assert main([]) == 2
    assert _assert_one_error_no_traceback(capsys.readouterr().err).startswith(expected)


@pytest.mark.parametrize(
    "error",
    [
        ConnectionRefusedError(errno.ECONNREFUSED, "PostgreSQL refused"),  # the database's
        _closed(4000),  # discord.py gave up on an unknown close: a crash
        RuntimeError("a bug in setup_hook"),
    ],
)
def test_other_failures_after_the_login_keep_their_traceback(
    configured: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    # Once logged in, a plain OSError is not Discord's (a PostgreSQL server that refuses
    # the connection must not read "cannot reach Discord").
    _install(monkeypatch, _StartFails(error, logged_in=True))
    with pytest.raises(type(error)):
        main([])


def test_a_plain_os_error_is_discords_only_before_the_login() -> None:
    refused = ConnectionRefusedError(errno.ECONNREFUSED, "refused")
    assert describe_start_failure(refused, logged_in=True) is None
    assert describe_start_failure(refused, logged_in=False) == (
        "error: cannot reach Discord (connection refused by the server); "
        "check the network or proxy."
    )
    assert network_reason(OSError("odd\nfailure")) == "odd failure"  # one line, always
