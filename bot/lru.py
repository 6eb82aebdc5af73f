"""Bounded in-memory caches: one small LRU mapping for everything the process keeps per table,
seat, user or message (issue 29, defect 6).

Each such cache is also emptied of a table when the table ends (its owner's ``forget``); the
cap is the second line of defence, for whatever ends in a way nobody is told about (a lobby
deleted, a delivery that never completes, a table that ends in another process). A cap is
chosen well above what one process holds at once in normal play, so eviction only ever drops
entries of tables that are long gone; what an evicted entry costs is stated where each cache
is made (at worst one redundant edit, or a notice said twice).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, MutableMapping
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

#: Caps of the per-table caches (tables at once in one process). A busy bot has a few
#: thousand tables in play; entries of a table are dropped as soon as it ends.
TABLES = 20_000
#: Caps of the per-seat caches (up to 6 seats and the table message per table).
SEATS = 7 * TABLES


class LRU(MutableMapping[K, V]):
    """A dict that keeps at most ``cap`` entries, dropping the least recently used (read or
    written) first. Not thread-safe: used from the event loop only."""

    __slots__ = ("_data", "cap")

    def __init__(self, cap: int) -> None:
        if cap < 1:
            raise ValueError("an LRU needs room for at least one entry")
        self.cap = cap
        self._data: OrderedDict[K, V] = OrderedDict()

    def __getitem__(self, key: K) -> V:
        value = self._data[key]
        self._data.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self.cap:
            self._data.popitem(last=False)

    def __delitem__(self, key: K) -> None:
        del self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __repr__(self) -> str:
        return f"LRU(cap={self.cap}, {len(self._data)} entries)"

    def drop(self, match: Callable[[K], bool]) -> None:
        """Remove every entry whose key matches (a table's seats, when the table ends)."""
        for key in [k for k in self._data if match(k)]:
            del self._data[key]


class LRUSet(Generic[K]):
    """A set of at most ``cap`` members, the least recently added dropped first."""

    __slots__ = ("_lru",)

    def __init__(self, cap: int) -> None:
        self._lru: LRU[K, None] = LRU(cap)

    @property
    def cap(self) -> int:
        return self._lru.cap

    def add(self, key: K) -> None:
        self._lru[key] = None

    def discard(self, key: K) -> None:
        self._lru.pop(key, None)

    def __contains__(self, key: object) -> bool:
        return key in self._lru

    def __iter__(self) -> Iterator[K]:
        return iter(self._lru)

    def __len__(self) -> int:
        return len(self._lru)
