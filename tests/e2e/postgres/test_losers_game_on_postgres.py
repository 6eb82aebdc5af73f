"""Loser's Game end to end on PostgreSQL (``tests/e2e/test_losers_game_e2e.py``): a whole game
to its end, a shorter one than on SQLite (four hands instead of six: every phase
and the game's end still go through the database, and the game's rules are SQLite's to test)."""

import pytest

from tests.e2e.test_losers_game_e2e import test_whole_game_to_its_end

__all__ = ["target", "test_whole_game_to_its_end"]


@pytest.fixture
def target() -> int:
    return 10
