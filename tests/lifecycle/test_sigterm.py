"""SIGTERM mid-action (``docker stop``): the bot process lets the decision in flight commit,
closes the database cleanly (checkpointed, intact) and exits 0."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

from bot.db.backends import open_database
from bot.engine import match
from bot.services.tables import TableService

ROOT = Path(__file__).resolve().parents[2]
#: Seconds the child may take to start acting, and then to stop (generous: a loaded machine).
DEADLINE = 120.0


async def test_sigterm_mid_action_keeps_the_action_and_the_database(tmp_path: Path) -> None:
    db_path = tmp_path / "trionfi.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.lifecycle.sigterm_child", str(db_path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert child.stdout is not None
    acting: list[int] = []
    # A child that hangs without printing would block the read below for ever: past the
    # deadline it is killed, its output ends, and the test fails saying so.
    watchdog = threading.Timer(DEADLINE, child.kill)
    watchdog.start()
    try:
        for line in child.stdout:
            if line.startswith("ACTING "):
                acting.append(int(line.split()[1]))
                if len(acting) == 3:  # a few decisions in: signal this one mid-commit
                    child.send_signal(signal.SIGTERM)
                    break
        assert len(acting) == 3, f"the child never got to act (killed after {DEADLINE} s)"
        out, err = child.communicate(timeout=DEADLINE)
    finally:
        watchdog.cancel()
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, err[-3000:]
    assert "STOPPED" in out, (out, err[-3000:])
    # The database is intact and checkpointed (no write-ahead log left to replay).
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        seq = conn.execute("SELECT seq FROM tables WHERE id = 1").fetchone()[0]
    finally:
        conn.close()
    wal = db_path.with_name(db_path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    # The decision in flight when the signal came was committed, whole.
    assert seq > acting[-1]
    db = await open_database(db_path)
    try:
        service = TableService(db)
        rec = await service.store.get(1)
        assert rec is not None and rec.snapshot is not None
        assert match.to_json(await service.replay(1)) == match.to_json(
            match.from_json(rec.snapshot)
        )
    finally:
        await db.close()
