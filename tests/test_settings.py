"""Configuration loading (bot.settings) and the `python -m bot` missing-token path."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import types
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.settings import ConfigError, Settings, load_settings

REPO_ROOT = Path(__file__).resolve().parent.parent
KEYS = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "LOG_LEVEL",
    "DEV_GUILD_ID",
    "LOG_FORMAT",
    "SHARD_COUNT",
    "SHARD_IDS",
    "LOBBY_IDLE_HOURS",
    "TABLE_IDLE_DAYS",
)


def test_missing_token_names_key_and_portal() -> None:
    with pytest.raises(ConfigError) as info:
        load_settings({})
    message = str(info.value)
    assert "DISCORD_TOKEN" in message
    assert "https://discord.com/developers/applications" in message
    assert "Reset Token" in message
    assert ".env" in message
    assert "\n" not in message


@pytest.mark.parametrize("token", ["", "   "])
def test_blank_token_counts_as_missing(token: str) -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        load_settings({"DISCORD_TOKEN": token})


def test_token_not_required() -> None:
    assert load_settings({}, require_token=False).token == ""


def test_defaults() -> None:
    settings = load_settings({"DISCORD_TOKEN": "abc"})
    assert settings == Settings(
        token="abc",
        database_path=Path("data/trionfi.sqlite3"),
        log_level="INFO",
        dev_guild_id=None,
        log_format="text",
        shard_count=None,
        shard_ids=None,
        lobby_idle_hours=24.0,
        table_idle_days=7.0,
    )
    assert settings.database_url is None and settings.owns_command_sync
    assert settings.lobby_idle_seconds == 24 * 3600
    assert settings.table_idle_seconds == 7 * 86400


def test_token_is_not_in_repr() -> None:
    assert "s3cret" not in repr(load_settings({"DISCORD_TOKEN": "s3cret"}))


def test_settings_are_frozen() -> None:
    settings = load_settings({"DISCORD_TOKEN": "abc"})
    with pytest.raises(AttributeError):
        settings.token = "other"  # type: ignore[misc]


def test_all_keys() -> None:
    settings = load_settings(
        {
            "DISCORD_TOKEN": " abc ",
            "DATABASE_PATH": "/srv/trionfi/db.sqlite3",
            "LOG_LEVEL": "debug",
            "DEV_GUILD_ID": "123456789012345678",
            "LOG_FORMAT": "JSON",
            "SHARD_COUNT": "4",
            "SHARD_IDS": " 2, 3 ",
            "LOBBY_IDLE_HOURS": "1.5",
            "TABLE_IDLE_DAYS": "14",
        }
    )
    assert settings.token == "abc"
    assert settings.database_path == Path("/srv/trionfi/db.sqlite3")
    assert settings.log_level == "DEBUG"
    assert settings.dev_guild_id == 123456789012345678
    assert settings.log_format == "json"
    assert settings.shard_count == 4
    assert settings.shard_ids == (2, 3)
    assert settings.lobby_idle_hours == 1.5
    assert settings.lobby_idle_seconds == 5400
    assert settings.table_idle_days == 14
    assert settings.table_idle_seconds == 14 * 86400


def test_the_league_night() -> None:
    default = load_settings({"DISCORD_TOKEN": "abc"})
    assert (default.league_weekday, default.league_hour, default.league_hours) == (4, 18, 6)
    assert default.league_deals == 8
    chosen = load_settings(
        {
            "DISCORD_TOKEN": "abc",
            "LEAGUE_DAY": "Tuesday",
            "LEAGUE_HOUR": "20",
            "LEAGUE_HOURS": "3",
            "LEAGUE_DEALS": "12",
        }
    )
    assert (chosen.league_weekday, chosen.league_hour, chosen.league_hours) == (1, 20, 3)
    assert chosen.league_deals == 12


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("LEAGUE_DAY", "vendredi", "LEAGUE_DAY must be a day of the week in English"),
        ("LEAGUE_HOUR", "24", r"LEAGUE_HOUR must be an hour \(UTC\) from 0 to 23, got 24"),
        ("LEAGUE_HOURS", "0", "LEAGUE_HOURS must be hours from 1 to 24, got 0"),
        ("LEAGUE_DEALS", "5", "LEAGUE_DEALS must be deals from 6 to 12, got 5"),
        ("LEAGUE_DEALS", "eight", "LEAGUE_DEALS must be a whole number"),
    ],
)
def test_a_league_night_out_of_range_says_which_key(key: str, value: str, says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        load_settings({"DISCORD_TOKEN": "abc", key: value})


def test_shard_count_alone_runs_every_shard() -> None:
    settings = load_settings({"DISCORD_TOKEN": "abc", "SHARD_COUNT": "2"})
    assert settings.shard_count == 2
    assert settings.shard_ids is None


@pytest.mark.parametrize("value", ["0", "1", "0,1,2"])
def test_shard_ids_in_range(value: str) -> None:
    settings = load_settings({"DISCORD_TOKEN": "abc", "SHARD_COUNT": "3", "SHARD_IDS": value})
    assert settings.shard_ids == tuple(int(v) for v in value.split(","))


@pytest.mark.parametrize("value", ["text", "Text", "json"])
def test_log_format_values(value: str) -> None:
    assert load_settings({"DISCORD_TOKEN": "abc", "LOG_FORMAT": value}).log_format == value.lower()


def test_empty_optional_values_use_defaults() -> None:
    settings = load_settings({"DISCORD_TOKEN": "abc", **{key: "" for key in KEYS[1:]}})
    assert settings == load_settings({"DISCORD_TOKEN": "abc"})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("DEV_GUILD_ID", "my-server"),
        ("DEV_GUILD_ID", "0"),
        ("LOG_LEVEL", "LOUD"),
        ("LOG_FORMAT", "xml"),
        ("LOG_FORMAT", "logfmt"),
        ("SHARD_COUNT", "two"),
        ("SHARD_COUNT", "1.5"),
        ("SHARD_COUNT", "0"),
        ("SHARD_COUNT", "-2"),
        ("LOBBY_IDLE_HOURS", "a day"),
        ("LOBBY_IDLE_HOURS", "0"),
        ("LOBBY_IDLE_HOURS", "-1"),
        ("LOBBY_IDLE_HOURS", "nan"),
        ("LOBBY_IDLE_HOURS", "inf"),
        ("TABLE_IDLE_DAYS", "1w"),
        ("TABLE_IDLE_DAYS", "0"),
        ("TABLE_IDLE_DAYS", "-7"),
        ("TABLE_IDLE_DAYS", "nan"),
    ],
)
def test_bad_value_names_key(key: str, value: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings({"DISCORD_TOKEN": "abc", key: value})
    assert key in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "value",
    ["4", "-1", "1,4", "a", "0,,1", "0,1,", "0;1", "1,1", "0.5"],
)
def test_bad_shard_ids_name_key(value: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings({"DISCORD_TOKEN": "abc", "SHARD_COUNT": "4", "SHARD_IDS": value})
    assert "SHARD_IDS" in str(info.value)
    assert "\n" not in str(info.value)


def test_shard_ids_need_shard_count() -> None:
    with pytest.raises(ConfigError) as info:
        load_settings({"DISCORD_TOKEN": "abc", "SHARD_IDS": "0"})
    message = str(info.value)
    assert "SHARD_IDS" in message
    assert "SHARD_COUNT" in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("LOG_FORMAT", "yaml"),
        ("SHARD_COUNT", "0"),
        ("SHARD_IDS", "0"),  # without SHARD_COUNT
        ("LOBBY_IDLE_HOURS", "soon"),
        ("TABLE_IDLE_DAYS", "-1"),
    ],
)
def test_python_m_bot_bad_value_exits_2_with_one_line(tmp_path: Path, key: str, value: str) -> None:
    proc = _run_module(tmp_path, {"DISCORD_TOKEN": "tok", key: value})
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")
    assert key in lines[0]
    assert proc.stdout == ""
    assert not (tmp_path / "data").exists()


def test_dotenv_in_working_directory_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=from-file\nLOG_LEVEL=WARNING\nDEV_GUILD_ID=42\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LOG_LEVEL", "ERROR")  # the real environment wins over .env

    settings = load_settings()

    assert settings.token == "from-file"
    assert settings.log_level == "ERROR"
    assert settings.dev_guild_id == 42
    assert "DISCORD_TOKEN" not in os.environ  # .env values do not leak into os.environ


def _run_module(tmp_path: Path, extra_env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` in ``tmp_path`` (no .env) with only ``extra_env`` configured."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        # Lets `bot` be imported from the checkout even if it is not pip-installed.
        "PYTHONPATH": str(REPO_ROOT),
        **extra_env,
    }
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_python_m_bot_without_token_exits_2_with_one_line(tmp_path: Path) -> None:
    # An empty environment and a working directory without .env: the operator's first run.
    proc = _run_module(tmp_path, {})
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")
    assert "DISCORD_TOKEN" in lines[0]
    assert proc.stdout == ""
    assert not (tmp_path / "data").exists()  # nothing is created before the config is valid


class _FakeBot:
    """What ``bot.__main__.serve`` uses of the bot: an async context, ``start`` and
    ``shutdown`` (``start`` returns at once, or raises ``error``)."""

    def __init__(self, error: BaseException | None) -> None:
        self.error = error
        self.ran_with: tuple[str, object] | None = None
        self.wait_for_signal: int | None = None
        self.stopped: asyncio.Event | None = None
        self.shut_down = False

    async def __aenter__(self) -> _FakeBot:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def start(self, token: str) -> None:
        self.ran_with = (token, None)
        if self.error is not None:
            raise self.error
        if self.wait_for_signal is not None:
            # Ctrl-C (or docker stop) while running: the handler of ``python -m bot`` stops us.
            asyncio.get_running_loop().call_later(0.05, signal.raise_signal, self.wait_for_signal)
            self.stopped = asyncio.Event()
            await self.stopped.wait()

    async def shutdown(self) -> None:
        self.shut_down = True
        if self.stopped is not None:
            self.stopped.set()


def _install_fake_client(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, error: BaseException | None
) -> _FakeBot:
    """Run `bot.__main__.main` in-process against a stand-in `bot.client.create_bot`."""
    fake = _FakeBot(error)
    module = types.ModuleType("bot.client")
    module.create_bot = lambda settings: fake  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.client", module)
    # Keep pytest's logging (whatever arguments main passes: the level, the format).
    monkeypatch.setattr("bot.log.setup_logging", lambda *args, **kwargs: None)
    monkeypatch.chdir(tmp_path)
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "tok")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "nested" / "dir" / "t.sqlite3"))
    return fake


def test_main_runs_bot_with_token_and_creates_db_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = _install_fake_client(monkeypatch, tmp_path, None)
    assert main([]) == 0
    assert fake.ran_with == ("tok", None)
    assert (tmp_path / "nested" / "dir").is_dir()


def test_main_login_failure_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import discord

    _install_fake_client(
        monkeypatch, tmp_path, discord.LoginFailure("Improper token has been passed.")
    )
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("error: Discord rejected DISCORD_TOKEN (Improper token has been passed.)")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_main_stops_cleanly_on_sigint_and_sigterm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signum: int
) -> None:
    fake = _install_fake_client(monkeypatch, tmp_path, None)
    fake.wait_for_signal = signum
    assert main([]) == 0
    assert fake.shut_down


def test_database_url_is_checked_and_kept_out_of_repr() -> None:
    url = "postgresql://trionfi:s3cret@db:5432/trionfi"
    settings = load_settings({"DISCORD_TOKEN": "abc", "DATABASE_URL": url})
    assert settings.database_url == url
    assert "s3cret" not in repr(settings)
    with pytest.raises(ConfigError, match="DATABASE_URL must be a PostgreSQL URL"):
        load_settings({"DISCORD_TOKEN": "abc", "DATABASE_URL": "mysql://db/trionfi"})


@pytest.mark.parametrize(
    ("env", "owns"),
    [
        ({}, True),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,1"}, True),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2,3"}, False),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2,3", "COMMAND_SYNC": "on"}, True),
        ({"COMMAND_SYNC": "OFF"}, False),
    ],
)
def test_one_process_of_a_cluster_syncs_commands(env: dict[str, str], owns: bool) -> None:
    assert load_settings({"DISCORD_TOKEN": "abc", **env}).owns_command_sync is owns


def test_command_sync_is_checked() -> None:
    with pytest.raises(ConfigError, match="COMMAND_SYNC must be one of auto, on, off"):
        load_settings({"DISCORD_TOKEN": "abc", "COMMAND_SYNC": "sometimes"})
