"""The crash-timing races of ``tests/resilience/test_crash_races.py`` on PostgreSQL, the
cluster's database: a notifying hand cut in flight, a late edit of the table message a deal's
summary replaced, and its delete failed once."""

from tests.resilience.test_crash_races import (
    clock,
    make_bot,
    other,
    simcord_bot,
    test_a_notifying_hand_cut_by_a_crash_is_the_notification_once,
    test_a_summary_survives_a_late_edit_of_the_table_message_it_replaced,
    test_the_table_message_a_summary_replaced_is_deleted_though_discord_fails_once,
    world,
)

__all__ = [
    "clock",
    "make_bot",
    "other",
    "simcord_bot",
    "test_a_notifying_hand_cut_by_a_crash_is_the_notification_once",
    "test_a_summary_survives_a_late_edit_of_the_table_message_it_replaced",
    "test_the_table_message_a_summary_replaced_is_deleted_though_discord_fails_once",
    "world",
]
