"""Fixtures every test folder may use: the database backends (``tests/backends.py``)."""

pytest_plugins = ["tests.backends"]
