"""Fixtures every test folder may use: the database backends (``tests/backends.py``), and
SimCord's ``simcord_env`` with a settle timeout fit for a loaded machine."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from simcord import Env

pytest_plugins = ["tests.backends"]

#: Seconds SimCord waits for the bot to settle after each action before it fails the test.
#: SimCord's default (5 s) is a wall-clock limit: a start that deals and lets three computers
#: play in a worker process can take longer when the suite runs one worker per core beside
#: PostgreSQL on a busy 2-core machine, and the test then fails for the machine's load, not for
#: the bot. A real hang still fails, after this long. A test may set its own with
#: ``@pytest.mark.simcord(settle_timeout=…)``.
SETTLE_TIMEOUT = 60.0


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "heavy: a long test (several seconds), started first so that a parallel run does not "
        "end with one worker busy on it and the other idle",
    )
    config.addinivalue_line(
        "markers",
        "pictures: the bot draws the table and hand pictures, as it does by default for "
        "players (without the marker it draws none: see ``_pictures_where_tested``)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Heavy tests first, the rest in their usual order (the sort is stable, so every xdist
    worker collects the same order)."""
    items.sort(key=lambda item: item.get_closest_marker("heavy") is None)


@pytest.fixture(autouse=True)
def _computer_runs_by_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """A job of computer moves stops at its move budget only (``COMPUTER_RUN_MOVES``), never
    at its wall-clock limits, so that what a call commits does not depend on the machine's load;
    the tests of the time limit set it themselves."""
    from bot.services import compute, step

    monkeypatch.setattr(step, "COMPUTER_RUN_SECONDS", float("inf"))
    # Nor is a job cut at its deadline (its casual answer would differ): the tests of the
    # deadline give their service its own (``job_seconds``).
    monkeypatch.setattr(compute, "JOB_SECONDS", float("inf"))


@pytest.fixture(autouse=True)
def _no_background_luck(monkeypatch: pytest.MonkeyPatch) -> None:
    """No luck and skill computed after each deal (``bot.services.luck``): the expert would
    think in the background of every test's games; the tests of luck turn it on."""
    from bot.services import luck

    monkeypatch.setattr(luck, "AUTOMATIC", False)


@pytest.fixture(autouse=True)
def _pictures_where_tested(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot draws pictures only in the tests marked ``pictures``: those of the pictures
    themselves, of the layouts and attachments that carry them, of the Attach Files
    permission, and the burst of tables under failing requests. Everywhere else nothing a test
    checks depends on them (the REST budget counts the same calls either way), and drawing
    them was 30 % of the end-to-end and resilience tests' CPU."""
    if request.node.get_closest_marker("pictures") is not None:
        return
    from bot.services.delivery import TableDelivery

    async def never(self: TableDelivery, guild_id: int, user_id: int | None) -> bool:
        return False

    monkeypatch.setattr(TableDelivery, "pictures_on", never)


@pytest_asyncio.fixture
async def simcord_env(simcord_bot: Any, request: pytest.FixtureRequest) -> AsyncIterator[Env]:
    """SimCord's own fixture (``simcord.pytest_plugin``), with :data:`SETTLE_TIMEOUT` as the
    default of the ``simcord`` marker's options."""
    marker = request.node.get_closest_marker("simcord")
    options = {"settle_timeout": SETTLE_TIMEOUT, **(marker.kwargs if marker else {})}
    env = Env(simcord_bot, **options)
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)  # pyright: ignore[reportPrivateUsage]


@pytest.fixture(autouse=True)
def _no_command_ids() -> None:
    """Each test starts before any command sync: texts name commands as typed (a bot started
    by the test syncs and stores its own ids), whatever an earlier test of the worker synced."""
    from bot.ui.text import mention

    mention.remember({})
