"""Fixtures for the service tests: a real database per test (SQLite and PostgreSQL, see
``tests/backends.py``), a fixed seed source and clock."""

from __future__ import annotations

import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bot.db.database import Database
from bot.engine.views import SeatView
from bot.services import compute, step
from bot.services.models import Outcome
from bot.services.tables import TableService

GUILD = 1
CHANNEL = 10
# Realistic 64-bit Discord snowflakes: they must survive SQLite and its JSON functions exactly.
ANA, BEN, CAL, DEE, EVE = (1_234_567_890_123_456_700 + i for i in range(5))


class Clock:
    """A settable clock (Unix seconds)."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def svc(db: Database, clock: Clock) -> TableService:
    seeds = iter(range(1000, 2000))
    return TableService(db, seed_source=lambda: next(seeds), clock=clock)


def passive_payload(view: SeatView) -> dict[str, Any]:
    """A simple human: drop / muck at decisions, play the first legal card."""
    plays = [a for a in view.legal if a.type == "play"]
    action = plays[0] if plays else view.legal[-1]
    out = action.to_json()
    del out["seat"]
    return out


def smart_payload(view: SeatView, rng: random.Random) -> dict[str, Any]:
    """A human that plays like the computer policy (shorter games)."""
    from bot.ai import la_morte

    out = la_morte.choose(view, rng).to_json()
    del out["seat"]
    return out


def user_to_act(out: Outcome) -> int:
    assert out.public is not None and out.public.to_act is not None
    user = out.table.seats[out.public.to_act].user_id
    assert user is not None, "a computer seat is never left to act"
    return user


@pytest.fixture
def quick_expert(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A fiftieth of the expert's work, thought in this process. No time cap to lift: the
    daily's computers are strict (``strict_expert_action``), so a loaded test machine cannot
    cut a search short and make two players' computers differ."""
    monkeypatch.setattr(step, "EXPERT_EFFORT", 0.02)
    with ThreadPoolExecutor(1) as here:
        monkeypatch.setattr(compute, "process_pool", lambda: here)
        yield


@pytest.fixture
def salted(svc: TableService) -> TableService:
    """The service with a daily-deal salt (the daily's forget-me markers need one)."""
    svc.daily_salt = "a test salt, long enough"
    return svc
