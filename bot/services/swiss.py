"""Swiss pairing and standings of a tournament (issue 34): pure functions, deterministic from
the tournament's seed.

**Tournament points** (per table, per round): a player scores 2 half-points for every other
seat of their table that they finished ahead of, and 1 for every seat they tied with
(computer seats count like any other): at a table of 4, the winner scores 3 points, the
last 0. Places at a table are the game's own (``bot.services.ratings.placings``: final
totals, the game's winners first, a player who left the table last).

**Standings** order the entrants by, in turn:

1. tournament points;
2. opponents' points (Buchholz): the sum of the current points of every entrant they sat
   with, each round counted (playing strong tables is worth more);
3. the number of tables they won (first place, shared or not);
4. the tournament's seeded lot (a fixed random order, the same for every reader).

**Pairing** (one round) seats the active entrants ``players`` to a table:

1. Order them by the standings (round 1: by the seeded lot alone).
2. Make ``T = ceil(N / players)`` tables. When ``N`` is not a multiple of ``players``, the
   missing seats are computers (at the expert level), at most one per table whenever the
   count allows, on the lowest tables (so the leaders play one another): each table gets
   ``N // T`` or ``N // T + 1`` humans, the fuller tables first.
3. Cut the ordered list into those tables, top to bottom: players of similar standing sit
   together.
4. Repeats: two entrants who already shared a table "meet" again if seated together. Swap
   single players between two tables whenever the swap strictly lowers the number of repeat
   meetings, trying the nearest tables first (tables 1-2, 2-3, …, then 1-3, 2-4, …, up to
   ``SWAP_REACH`` tables apart, so that standings stay as close as the repeats allow),
   players in order, until a whole pass changes nothing (at most ``SWAP_PASSES`` passes).
5. Seat order within a table: by a lot of the seed and the round, then the computers, so
   each entrant holds varying seats from round to round.

Every step is a function of the seed, the round and the stored results, so a restart (or
another process) pairs the same round the same way.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

SWAP_PASSES = 20
#: How many tables apart two swapped players may sit (bounds a large tournament's pairing to
#: well under a second: 400 players at tables of 4 pair in about 0.4 s on a busy machine).
SWAP_REACH = 8


def lot(seed: int, round_no: int, user_id: int) -> int:
    """The seeded lot of a user in a round (round 0: the tournament's fixed order)."""
    digest = hashlib.sha256(f"trionfi-swiss:{seed}:{round_no}:{user_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def table_points(places: Sequence[int]) -> list[int]:
    """Half-points per seat from the seats' places (1 = best; ties share a place)."""
    return [
        sum(2 if p < q else 1 if p == q else 0 for j, q in enumerate(places) if j != i)
        for i, p in enumerate(places)
    ]


@dataclass(frozen=True, slots=True)
class Standing:
    user_id: int
    name: str
    points: int  # half points
    buchholz: int  # half points
    firsts: int
    played: int  # rounds played
    left: bool  # left the tournament


@dataclass(frozen=True, slots=True)
class Played:
    """One entrant's table in one round: where they placed and whom they sat with."""

    round: int
    user_id: int
    place: int
    points: int
    opponents: tuple[int, ...]  # the other entrants at the table (computers are not)


def standings(
    names: Mapping[int, str],
    left: Iterable[int],
    played: Sequence[Played],
    seed: int,
) -> list[Standing]:
    """Every entrant (``names``), ordered as the module docstring says."""
    points = dict.fromkeys(names, 0)
    firsts = dict.fromkeys(names, 0)
    rounds = dict.fromkeys(names, 0)
    for p in played:
        if p.user_id in points:
            points[p.user_id] += p.points
            firsts[p.user_id] += p.place == 1
            rounds[p.user_id] += 1
    buchholz = dict.fromkeys(names, 0)
    for p in played:
        if p.user_id in buchholz:
            buchholz[p.user_id] += sum(points.get(o, 0) for o in p.opponents)
    gone = set(left)
    rows = [
        Standing(u, names[u], points[u], buchholz[u], firsts[u], rounds[u], u in gone)
        for u in names
    ]
    rows.sort(key=lambda s: (-s.points, -s.buchholz, -s.firsts, lot(seed, 0, s.user_id)))
    return rows


def meetings(played: Sequence[Played]) -> dict[frozenset[int], int]:
    """How many times each pair of entrants has shared a table."""
    met: dict[frozenset[int], int] = {}
    for p in played:
        for o in p.opponents:
            if p.user_id < o:  # each pair once per table
                key = frozenset((p.user_id, o))
                met[key] = met.get(key, 0) + 1
    return met


def table_sizes(entrants: int, players: int) -> list[int]:
    """Humans per table, top table first (step 2 of the module docstring)."""
    if entrants <= 0:
        return []
    tables = math.ceil(entrants / players)
    base, extra = divmod(entrants, tables)
    return [base + 1 if i < extra else base for i in range(tables)]


def _table_pairs(n: int) -> list[tuple[int, int]]:
    """Pairs of tables, the nearest first: (0, 1), (1, 2), …, (0, 2), …"""
    return [(k, k + d) for d in range(1, min(n, SWAP_REACH + 1)) for k in range(n - d)]


def _repeats(group: Sequence[int], met: Mapping[frozenset[int], int]) -> int:
    return sum(met.get(frozenset(pair), 0) for pair in combinations(group, 2))


def pair(
    ordered: Sequence[int],
    players: int,
    met: Mapping[frozenset[int], int],
    seed: int,
    round_no: int,
) -> list[tuple[int | None, ...]]:
    """Seat ``ordered`` entrants (best first) for round ``round_no``: one tuple per table, in
    seat order, None for a computer (see the module docstring)."""
    groups: list[list[int]] = []
    start = 0
    for size in table_sizes(len(ordered), players):
        groups.append(list(ordered[start : start + size]))
        start += size
    for _ in range(SWAP_PASSES):
        changed = False
        for k, m in _table_pairs(len(groups)):
            a, b = groups[k], groups[m]
            for i in range(len(a)):
                for j in range(len(b)):
                    before = _repeats(a, met) + _repeats(b, met)
                    a[i], b[j] = b[j], a[i]
                    if _repeats(a, met) + _repeats(b, met) < before:
                        changed = True
                    else:
                        a[i], b[j] = b[j], a[i]
        if not changed:
            break
    tables: list[tuple[int | None, ...]] = []
    for g in groups:
        humans = sorted(g, key=lambda u: lot(seed, round_no, u))
        seated: list[int | None] = [*humans, *[None] * (players - len(g))]
        tables.append(tuple(seated))
    return tables
