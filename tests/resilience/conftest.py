"""Fixtures of the resilience tests: the e2e SimCord fixtures (a bot factory over one database
file, closed after the test), with the table seed as an optional indirect parameter."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.client import TrionfiBot
from tests.e2e.conftest import SEED, make_bot

__all__ = ["make_bot", "simcord_bot"]


@pytest.fixture
def simcord_bot(request: pytest.FixtureRequest, make_bot: Callable[..., TrionfiBot]) -> TrionfiBot:
    """The bot; ``@pytest.mark.parametrize("simcord_bot", [seed], indirect=True)`` seeds it."""
    return make_bot(getattr(request, "param", SEED))
