"""The persistence tests take ``db`` / ``db_target`` / ``make_target`` from
``tests/backends.py``: a real, migrated database per test, on SQLite and on PostgreSQL."""
