"""Queen of Tarot end to end (``tests/e2e/test_queen_of_tarot_e2e.py``), on PostgreSQL."""

from tests.e2e.test_queen_of_tarot_e2e import *  # noqa: F403  (its tests and fixtures, collected here)
