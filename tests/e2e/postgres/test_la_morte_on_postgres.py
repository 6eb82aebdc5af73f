"""La Morte end to end on PostgreSQL (``tests/e2e/test_la_morte_e2e.py``): a whole game, a
restart in the middle of a deal, and a resignation that closes the table."""

from tests.e2e.test_la_morte_e2e import (
    test_resign_hands_the_seat_to_a_computer_then_closes_the_table,
    test_restart_mid_deal_keeps_old_buttons_working,
    test_whole_game_from_new_to_final_result,
)

__all__ = [
    "test_resign_hands_the_seat_to_a_computer_then_closes_the_table",
    "test_restart_mid_deal_keeps_old_buttons_working",
    "test_whole_game_from_new_to_final_result",
]
