"""Lint gate: ruff check and ruff format --check must pass on the whole repository."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


def _ruff() -> str:
    # Prefer the ruff installed next to this interpreter (the project venv), whatever PATH says.
    candidate = Path(sys.executable).parent / "ruff"
    if candidate.is_file():
        return str(candidate)
    found = shutil.which("ruff")
    if found is None:
        pytest.fail("ruff is not installed: install requirements-test.lock (README, Run the tests)")
    return found


@pytest.mark.parametrize(
    "args",
    [["check", "."], ["format", "--check", "."]],
    ids=["ruff-check", "ruff-format"],
)
def test_ruff(args: list[str]) -> None:
    proc = subprocess.run(
        [_ruff(), *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, (
        f"`ruff {' '.join(args)}` failed (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}"
    )
