"""Early French Tarot end to end on PostgreSQL (``tests/e2e/test_early_french_tarot_e2e.py``):
a whole game to 50."""

from tests.e2e.test_early_french_tarot_e2e import test_whole_game_to_50

__all__ = ["test_whole_game_to_50"]
