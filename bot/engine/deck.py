"""Seeded shuffling and deck validation.

We shuffle with our own Fisher–Yates over ``random.Random(seed).random()`` so a stored seed
replays identically on every Python version (``random.shuffle``'s algorithm is not part of
the language's compatibility promise), and we store the dealt deck order anyway.
"""

from __future__ import annotations

from _random import Random  # ``random.Random``'s C base class (see ``shuffle``)
from collections import Counter
from collections.abc import Sequence
from math import floor

#: Per deck size: Fisher–Yates's ``(i, i + 1)`` steps, ``i`` from the last position down to 1
#: (the multiplier a float, as ``draw() * (i + 1)`` makes it anyway), built once per size.
_STEPS: dict[int, tuple[tuple[int, float], ...]] = {}


def _steps(size: int) -> tuple[tuple[int, float], ...]:
    steps = _STEPS.get(size)
    if steps is None:
        steps = _STEPS[size] = tuple((i, float(i + 1)) for i in range(size - 1, 0, -1))
    return steps


def shuffle(cards: Sequence[str], seed: int) -> tuple[str, ...]:
    """Return ``cards`` in a deterministic pseudo-random order for the int ``seed``."""
    # For an int seed, ``_random.Random(seed)`` seeds exactly as ``random.Random(seed)`` (which
    # hands an int straight to this C base) and ``random()`` is the same C method: the same
    # deck, without ``random.Random``'s Python ``__init__`` and ``seed`` (half a microsecond
    # of a simulated deal's shuffle).
    draw = Random(seed).random
    out = list(cards)
    # ``floor`` of a non-negative float is ``int`` of it, and half as dear a call as ``int``
    for i, m in _steps(len(out)):
        j = floor(draw() * m)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def deal_seed(table_seed: int, deal_no: int) -> int:
    """Seed of deal ``deal_no`` (0-based) of a table, derived without global state."""
    return (table_seed * 1_000_003 + deal_no * 7_919 + 17) % (2**63)


def is_exact_pack(deck: Sequence[str], pack: Sequence[str]) -> bool:
    """True if ``deck`` holds exactly the cards of ``pack``, each once."""
    return len(deck) == len(pack) and Counter(deck) == Counter(pack)
