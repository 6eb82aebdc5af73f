"""A tournament tended by two processes at once, on PostgreSQL
(``tests/e2e/test_tournament_cluster_e2e.py``)."""

from tests.e2e.test_tournament_cluster_e2e import (
    clock,
    make_bot,
    other,
    quick_tables,
    simcord_bot,
    test_two_processes_tending_at_once_post_the_pairings_and_each_thread_once,
)

__all__ = [
    "clock",
    "make_bot",
    "other",
    "quick_tables",
    "simcord_bot",
    "test_two_processes_tending_at_once_post_the_pairings_and_each_thread_once",
]
