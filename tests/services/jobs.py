"""Computer jobs a test can hold up: ``advance`` and ``time_out`` as the bot's own
(``bot.services.compute``), except for a table whose seed has a gate (``Gate``), where the job,
in its worker process, says it started and then waits for the gate to open (or for ever).

Tests swap them in for ``compute.advance``/``compute.time_out``; the worker processes import
this module by name (it is pickled by reference), so the gate is a folder both sides see.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from bot.services import compute
from bot.services.step import PlayStep


class Gate:
    """The gate of the table of seed ``seed`` (closed once made)."""

    def __init__(self, seed: int) -> None:
        self.path = Path(tempfile.gettempdir()) / f"trionfi-gate-{seed}"
        shutil.rmtree(self.path, ignore_errors=True)
        self.path.mkdir()

    def started(self) -> bool:
        """A job of the table is in a worker, held at the gate."""
        return (self.path / "started").exists()

    def open(self) -> None:
        (self.path / "go").touch()

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


def _hold(step: PlayStep) -> None:
    gate = Path(tempfile.gettempdir()) / f"trionfi-gate-{step.seed}"
    if not gate.is_dir():
        return
    (gate / "started").touch()
    while gate.is_dir() and not (gate / "go").exists():  # a removed gate lets it go too
        time.sleep(0.01)


def advance(step: PlayStep) -> PlayStep:
    _hold(step)
    return compute.advance(step)


def time_out(step: PlayStep, seat: int, then_advance: bool) -> PlayStep:
    _hold(step)
    return compute.time_out(step, seat, then_advance)
