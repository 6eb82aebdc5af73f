"""Configuration loading (bot.settings) and the `python -m bot` missing-token path."""

from __future__ import annotations

import os
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
    )


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
        }
    )
    assert settings.token == "abc"
    assert settings.database_path == Path("/srv/trionfi/db.sqlite3")
    assert settings.log_level == "DEBUG"
    assert settings.dev_guild_id == 123456789012345678


def test_empty_optional_values_use_defaults() -> None:
    settings = load_settings({"DISCORD_TOKEN": "abc", **{key: "" for key in KEYS[1:]}})
    assert settings == load_settings({"DISCORD_TOKEN": "abc"})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("DEV_GUILD_ID", "my-server"),
        ("DEV_GUILD_ID", "0"),
        ("LOG_LEVEL", "LOUD"),
    ],
)
def test_bad_value_names_key(key: str, value: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings({"DISCORD_TOKEN": "abc", key: value})
    assert key in str(info.value)
    assert "\n" not in str(info.value)


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


def test_python_m_bot_without_token_exits_2_with_one_line(tmp_path: Path) -> None:
    # An empty environment and a working directory without .env: the operator's first run.
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        # Lets `bot` be imported from the checkout even if it is not pip-installed.
        "PYTHONPATH": str(REPO_ROOT),
    }
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")
    assert "DISCORD_TOKEN" in lines[0]
    assert proc.stdout == ""
    assert not (tmp_path / "data").exists()  # nothing is created before the config is valid


class _FakeBot:
    def __init__(self, error: BaseException | None) -> None:
        self.error = error
        self.ran_with: tuple[str, object] | None = None

    def run(self, token: str, *, log_handler: object = "default") -> None:
        self.ran_with = (token, log_handler)
        if self.error is not None:
            raise self.error


def _install_fake_client(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, error: BaseException | None
) -> _FakeBot:
    """Run `bot.__main__.main` in-process against a stand-in `bot.client.create_bot`."""
    fake = _FakeBot(error)
    module = types.ModuleType("bot.client")
    module.create_bot = lambda settings: fake  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.client", module)
    monkeypatch.setattr("bot.log.setup_logging", lambda level: None)  # keep pytest's logging
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
    assert main() == 0
    assert fake.ran_with == ("tok", None)
    assert (tmp_path / "nested" / "dir").is_dir()


def test_main_login_failure_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import discord

    _install_fake_client(
        monkeypatch, tmp_path, discord.LoginFailure("Improper token has been passed.")
    )
    assert main() == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("error: Discord rejected DISCORD_TOKEN (Improper token has been passed.)")


def test_main_keyboard_interrupt_exits_0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install_fake_client(monkeypatch, tmp_path, KeyboardInterrupt())
    assert main() == 0
