"""Delivered once on PostgreSQL (``tests/resilience/test_deliver_once.py``): two controller
stacks on one database, a parked retry beside a starting process, an older commit delivered
last, and a crash between a commit and its sending."""

from tests.resilience.test_deliver_once import (
    clock,
    make_bot,
    other,
    simcord_bot,
    test_a_crash_between_commit_and_send_loses_no_notice_nor_notification,
    test_a_starting_process_leaves_a_parked_retry_to_the_process_that_owns_it,
    test_an_older_commit_delivered_last_never_hides_the_newer_one,
    world,
)

__all__ = [
    "clock",
    "make_bot",
    "other",
    "simcord_bot",
    "test_a_crash_between_commit_and_send_loses_no_notice_nor_notification",
    "test_a_starting_process_leaves_a_parked_retry_to_the_process_that_owns_it",
    "test_an_older_commit_delivered_last_never_hides_the_newer_one",
    "world",
]
