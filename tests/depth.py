"""How many seeded random deals the property and legality tests play.

The README's test command plays a few hundred random deals per game and player count through
every invariant (card conservation, zero sum, replay == snapshot, JSON round trip, privacy of
the public view): enough to meet every phase and outcome many times, in a suite that runs in
minutes. ``TRIONFI_TEST_DEPTH=N`` multiplies those counts (``TRIONFI_TEST_DEPTH=5
scripts/test-with-postgres tests/engine tests/ai`` plays five times as many deals, different
ones), for a deeper run before a release or after an engine change. The seeds always start
at 0, so a deeper run includes every deal of a shallower one.
"""

from __future__ import annotations

import os

#: The multiplier of every count given to :func:`deals` (a positive number; default 1).
DEPTH = float(os.environ.get("TRIONFI_TEST_DEPTH") or 1)
if DEPTH <= 0:
    raise ValueError(f"TRIONFI_TEST_DEPTH must be positive, got {DEPTH}")


def deals(count: int) -> int:
    """``count`` random deals at the run's depth (at least one)."""
    return max(1, round(count * DEPTH))
