"""La Morte end to end (``tests/e2e/test_la_morte_e2e.py``), on PostgreSQL."""

from tests.e2e.test_la_morte_e2e import *  # noqa: F403  (its tests and fixtures, collected here)
