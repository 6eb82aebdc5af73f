"""Queen of Tarot end to end on PostgreSQL (``tests/e2e/test_queen_of_tarot_e2e.py``): a whole
game through settlement and declaration."""

from tests.e2e.test_queen_of_tarot_e2e import test_whole_game_settlement_then_declaration

__all__ = ["test_whole_game_settlement_then_declaration"]
