"""French Tarot end to end on PostgreSQL (``tests/e2e/test_french_tarot_e2e.py``): a whole
five-player deal with the discard, a poignée and the secret partner."""

from tests.e2e.test_french_tarot_e2e import (
    simcord_bot,
    test_five_player_game_with_discard_poignee_and_secret_partner,
)

__all__ = ["simcord_bot", "test_five_player_game_with_discard_poignee_and_secret_partner"]
