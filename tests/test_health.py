"""bot.health: the status file the running bot writes and ``python -m bot health`` checks."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from bot import health

NOW = 1_767_225_600.0


def _write(path: Path, **overrides: object) -> None:
    status: dict[str, object] = {
        "pid": 7,
        "gateway_connected": True,
        "database_ok": True,
        "updated_at": NOW,
        "version": "0.1.0",
    }
    status.update(overrides)
    path.write_text(json.dumps(status))


def test_write_status_writes_the_documented_fields(tmp_path: Path) -> None:
    path = tmp_path / "sub" / health.STATUS_FILE_NAME  # the folder is created
    health.write_status(path, gateway_connected=True, database_ok=False, now=NOW)
    status = json.loads(path.read_text())
    assert status == {
        "pid": os.getpid(),
        "gateway_connected": True,
        "database_ok": False,
        "updated_at": NOW,
        "version": health.package_version(),
    }
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left


def test_write_status_replaces_the_previous_file(tmp_path: Path) -> None:
    path = tmp_path / health.STATUS_FILE_NAME
    health.write_status(path, gateway_connected=False, database_ok=False, now=NOW)
    health.write_status(path, gateway_connected=True, database_ok=True, now=NOW + 5)
    assert json.loads(path.read_text())["updated_at"] == NOW + 5
    assert health.check(path, now=NOW + 6)[0] == 0
    assert len(list(tmp_path.iterdir())) == 1


def test_write_status_leaves_no_temporary_file_when_the_replace_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(health.os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        health.write_status(
            tmp_path / health.STATUS_FILE_NAME, gateway_connected=True, database_ok=True, now=NOW
        )
    assert list(tmp_path.iterdir()) == []


def test_fresh_connected_and_database_ok_is_healthy(tmp_path: Path) -> None:
    path = tmp_path / health.STATUS_FILE_NAME
    _write(path)
    code, reason = health.check(path, now=NOW + 12)
    assert code == 0
    assert reason.startswith("healthy:")
    assert "12 s ago" in reason and "pid 7" in reason


def test_written_status_checks_healthy(tmp_path: Path) -> None:
    path = tmp_path / health.STATUS_FILE_NAME
    health.write_status(path, gateway_connected=True, database_ok=True, now=NOW)
    assert health.check(path, now=NOW)[0] == 0


@pytest.mark.parametrize("age", [60.0, 59.9])
def test_exactly_max_age_is_still_fresh(tmp_path: Path, age: float) -> None:
    path = tmp_path / health.STATUS_FILE_NAME
    _write(path)
    assert health.check(path, now=NOW + age, max_age=60.0)[0] == 0


def test_stale_status_is_unhealthy(tmp_path: Path) -> None:
    path = tmp_path / health.STATUS_FILE_NAME
    _write(path)
    code, reason = health.check(path, now=NOW + 61, max_age=60.0)
    assert code == 1
    assert "61 s old" in reason and "max 60 s" in reason


def test_stale_wins_over_the_flags_it_no_longer_vouches_for(tmp_path: Path) -> None:
    path = tmp_path / health.STATUS_FILE_NAME
    _write(path, gateway_connected=False)
    code, reason = health.check(path, now=NOW + 300)
    assert code == 1 and "old" in reason and "gateway" not in reason


def test_custom_max_age(tmp_path: Path) -> None:
    path = tmp_path / health.STATUS_FILE_NAME
    _write(path)
    assert health.check(path, now=NOW + 20, max_age=10)[0] == 1
    assert health.check(path, now=NOW + 20, max_age=30)[0] == 0


def test_status_from_the_future_is_unhealthy(tmp_path: Path) -> None:
    path = tmp_path / health.STATUS_FILE_NAME
    _write(path, updated_at=NOW + 3600)
    code, reason = health.check(path, now=NOW)
    assert code == 1 and "future" in reason
    # A little clock skew between writer and reader is fine.
    assert health.check(path, now=NOW + 3595)[0] == 0


def test_disconnected_gateway_is_unhealthy(tmp_path: Path) -> None:
    path = tmp_path / health.STATUS_FILE_NAME
    _write(path, gateway_connected=False)
    code, reason = health.check(path, now=NOW + 1)
    assert code == 1
    assert "not connected to the Discord gateway" in reason
    assert "database" not in reason


def test_database_not_ok_is_unhealthy(tmp_path: Path) -> None:
    path = tmp_path / health.STATUS_FILE_NAME
    _write(path, database_ok=False)
    code, reason = health.check(path, now=NOW + 1)
    assert code == 1 and "database check failed" in reason and "gateway" not in reason


def test_both_problems_are_named(tmp_path: Path) -> None:
    path = tmp_path / health.STATUS_FILE_NAME
    _write(path, gateway_connected=False, database_ok=False)
    code, reason = health.check(path, now=NOW)
    assert code == 1 and "gateway" in reason and "database" in reason


def test_missing_file_is_unhealthy(tmp_path: Path) -> None:
    path = tmp_path / health.STATUS_FILE_NAME
    code, reason = health.check(path, now=NOW)
    assert code == 1
    assert "no status file" in reason and str(path) in reason


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"", "not JSON"),
        (b'{"pid": 7, "gateway_connected": tr', "not JSON"),
        (b"\xff\xfe\x00", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"gateway_connected": true, "database_ok": true}', "updated_at"),
        (
            b'{"gateway_connected": "yes", "database_ok": true, "updated_at": 1767225600}',
            "gateway_connected",
        ),
        (b'{"gateway_connected": true, "updated_at": 1767225600}', "database_ok"),
        (
            b'{"gateway_connected": true, "database_ok": true, "updated_at": "now"}',
            "updated_at",
        ),
        (
            b'{"gateway_connected": true, "database_ok": true, "updated_at": true}',
            "updated_at",
        ),
        (
            b'{"gateway_connected": true, "database_ok": true, "updated_at": NaN}',
            "updated_at",
        ),
    ],
)
def test_corrupt_file_is_unhealthy(tmp_path: Path, content: bytes, why: str) -> None:
    path = tmp_path / health.STATUS_FILE_NAME
    path.write_bytes(content)
    code, reason = health.check(path, now=NOW)
    assert code == 1
    assert "corrupt" in reason and why in reason


def test_minimal_valid_file_without_pid_or_version(tmp_path: Path) -> None:
    path = tmp_path / health.STATUS_FILE_NAME
    path.write_text('{"gateway_connected": true, "database_ok": true, "updated_at": 1767225600}')
    assert health.check(path, now=NOW)[0] == 0


def test_status_path_for_is_next_to_the_database() -> None:
    assert health.status_path_for("/data/trionfi.sqlite3") == Path("/data/trionfi.status.json")
    assert health.status_path_for(Path("data/x.db")) == Path("data/trionfi.status.json")


# ---- main: python -m bot health ----------------------------------------------------------------


def test_main_healthy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "status.json"
    health.write_status(path, gateway_connected=True, database_ok=True, now=time.time())
    assert health.main(["--status", str(path)]) == 0
    assert capsys.readouterr().out.startswith("healthy:")


def test_main_stale_with_max_age(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "status.json"
    health.write_status(path, gateway_connected=True, database_ok=True, now=time.time() - 30)
    assert health.main(["--status", str(path), "--max-age", "10"]) == 1
    assert "old" in capsys.readouterr().out
    assert health.main(["--status", str(path), "--max-age", "300"]) == 0


def test_main_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert health.main(["--status", str(tmp_path / "nope.json")]) == 1
    assert "no status file" in capsys.readouterr().out


def test_main_defaults_to_next_to_database_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "db" / "trionfi.sqlite3"))
    health.write_status(
        tmp_path / "db" / health.STATUS_FILE_NAME,
        gateway_connected=True,
        database_ok=True,
        now=time.time(),
    )
    assert health.main([]) == 0
    assert capsys.readouterr().out.startswith("healthy:")


def test_main_default_path_reads_database_path_from_dotenv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    (tmp_path / ".env").write_text("DATABASE_PATH=elsewhere/bot.sqlite3\n")
    assert health.main([]) == 1
    assert str(Path("elsewhere") / health.STATUS_FILE_NAME) in capsys.readouterr().out


@pytest.mark.parametrize("bad", [["--max-age", "0"], ["--max-age", "soon"], ["--bogus"]])
def test_main_usage_error_is_unhealthy_not_2(
    bad: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert health.main(bad) == 1  # Docker reserves exit code 2
    assert "usage:" in capsys.readouterr().err


def test_main_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert health.main(["--help"]) == 0
    assert "--max-age" in capsys.readouterr().out
