"""Loser's Game end to end on PostgreSQL (``tests/e2e/test_losers_game_e2e.py``): a whole game
to its end."""

from tests.e2e.test_losers_game_e2e import test_whole_game_to_its_end

__all__ = ["test_whole_game_to_its_end"]
