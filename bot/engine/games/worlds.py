"""Sampling the hidden cards of a deal for search (``Rules.sample_world``) in La Morte, Early
French Tarot, Loser's Game and Queen of Tarot.

A game turns what a seat knows into *locations* (the other hands, face-down piles, a stock),
each with the number of unseen cards it holds and the cards the rules say it cannot hold
(voids shown by the play, declarations...). ``split_uniformly`` then deals the unseen cards
to the locations uniformly among all the deals that respect those constraints: cards that
may go to the same locations form a class, the number of completions is counted exactly
(dynamic programming over the classes and the capacities left) and each class's share is
drawn with weights proportional to those counts. No rejection, however tight the voids.

The game then lays out a deck that deals those hands, replays the public history with its own
``apply`` (so every derived field — piles, debts, il Morto, statuses — comes out right) and
checks the sampled state shows the seat exactly its view; a constraint a game does not model
(rare: e.g. which pile a Queen of Tarot exchange card came from) is caught there and the draw
is repeated, which keeps the result uniform over the consistent deals.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from math import comb
from typing import Any

from bot.engine.actions import Action
from bot.engine.errors import IllegalAction

#: Draws ``sample_world`` makes before giving up on a view no deal reproduces.
ATTEMPTS = 200

_Classes = tuple[tuple[int, int], ...]  # (allowed-locations bit mask, number of cards)
_Counts = dict[tuple[_Classes, int, tuple[int, ...]], int]
#: The counts of the problem being solved (``split_uniformly`` points it at that problem's).
_counts: _Counts = {}
#: Every problem counted so far, ``(classes, caps)`` → its counts, or None when counting it
#: was too costly. Each problem is counted from scratch the first time it is met, so whether
#: it is sampled exactly or by swaps never depends on what this process counted before: a
#: search gives the same worlds in every process, whatever it did earlier (a daily deal's
#: computers must reply alike for everyone, issue 20).
_problems: dict[tuple[_Classes, tuple[int, ...]], _Counts | None] = {}
#: Counts kept across problems at most (entries of every problem's memo together).
_COUNTS_KEPT = 200_000
_kept = [0]


class NoWorld(ValueError):
    """No deal is consistent with the view (it cannot come from this game)."""


def _splits(size: int, locations: tuple[int, ...], caps: tuple[int, ...]) -> Iterable[list[int]]:
    """Every way to put ``size`` cards into ``locations`` within ``caps`` (per location)."""
    if not locations:
        if size == 0:
            yield []
        return
    first, rest = locations[0], locations[1:]
    room = sum(caps[loc] for loc in rest)
    for k in range(max(0, size - room), min(size, caps[first]) + 1):
        for tail in _splits(size - k, rest, caps):
            yield [k, *tail]


def _bits(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


def _fill(mask: int, size: int, caps: tuple[int, ...]) -> int:
    """Ways for one class of ``size`` cards to fill exactly ``caps`` (multinomial), 0 if it
    cannot."""
    if sum(caps) != size:
        return 0
    ways = 1
    for loc, cap in enumerate(caps):
        if cap:
            if not mask >> loc & 1:
                return 0
            ways *= comb(size, cap)
            size -= cap
    return ways


class _TooBig(Exception):
    """The exact count would take too long: sample by swaps instead."""


#: Counting steps (splits tried) per draw before ``split_uniformly`` switches to swaps.
BUDGET = 500
_budget = [BUDGET]


def _count(classes: _Classes, k: int, caps: tuple[int, ...]) -> int:
    """Number of ways to deal classes ``k…`` into exactly the capacities ``caps``."""
    if k == len(classes) - 1:  # the last class fills what is left: a multinomial
        return _fill(classes[k][0], classes[k][1], caps)
    if k == len(classes):
        return 0 if any(caps) else 1
    key = (classes, k, caps)
    found = _counts.get(key)
    if found is not None:
        return found
    mask, size = classes[k]
    locations = _bits(mask)
    total = 0
    for split in _splits(size, locations, caps):
        _budget[0] -= 1
        if _budget[0] < 0:
            raise _TooBig
        rest = list(caps)
        ways = 1
        left = size
        for loc, x in zip(locations, split, strict=True):
            rest[loc] -= x
            ways *= comb(left, x)
            left -= x
        total += ways * _count(classes, k + 1, tuple(rest))
    _counts[key] = total
    return total


def _problem_counts(classes: _Classes, caps: tuple[int, ...]) -> _Counts | None:
    """The counts of dealing ``classes`` into ``caps``, computed once per problem with a
    fresh memo and the full ``BUDGET`` (None: over budget, sample by swaps)."""
    global _counts
    problem = (classes, caps)
    if problem in _problems:
        return _problems[problem]
    _counts = {}
    _budget[0] = BUDGET
    found: _Counts | None
    try:
        _count(classes, 0, caps)
        found = _counts
    except _TooBig:
        found = None
    size = 1 + (len(found) if found is not None else 0)
    if _kept[0] + size > _COUNTS_KEPT:
        _problems.clear()
        _kept[0] = 0
    _problems[problem] = found
    _kept[0] += size
    return found


def split_uniformly(
    cards: Sequence[str],
    caps: Sequence[int],
    forbidden: Sequence[frozenset[str] | set[str]],
    rng: random.Random,
) -> list[list[str]]:
    """Deal ``cards`` into ``len(caps)`` locations of exactly those sizes, location ``i``
    getting no card of ``forbidden[i]``, uniformly at random among all such deals.

    Raises ``NoWorld`` when no such deal exists."""
    n = len(caps)
    by_mask: dict[int, list[str]] = {}
    for c in cards:
        mask = 0
        for i in range(n):
            if c not in forbidden[i]:
                mask |= 1 << i
        by_mask.setdefault(mask, []).append(c)
    # The least constrained (and largest) class last: it fills the rest in closed form.
    classes: _Classes = tuple(
        sorted(
            ((mask, len(cs)) for mask, cs in by_mask.items()),
            key=lambda mc: (mc[0].bit_count(), mc[1], mc[0]),
        )
    )
    left = tuple(caps)
    if sum(left) != len(cards):
        raise NoWorld("the unseen cards do not fill the hidden places")
    global _counts
    found = _problem_counts(classes, left)
    if found is None:
        return _swapped(cards, caps, forbidden, rng)
    _counts = found  # every count below is in it: the whole problem was counted
    _budget[0] = BUDGET
    if _count(classes, 0, left) == 0:
        raise NoWorld("no deal of the unseen cards fits the constraints")
    out: list[list[str]] = [[] for _ in range(n)]
    for k, (mask, size) in enumerate(classes):
        locations = _bits(mask)
        options: list[tuple[int, list[int], tuple[int, ...]]] = []
        for split in _splits(size, locations, left):
            rest = list(left)
            ways = 1
            remaining = size
            for loc, x in zip(locations, split, strict=True):
                rest[loc] -= x
                ways *= comb(remaining, x)
                remaining -= x
            weight = ways * _count(classes, k + 1, tuple(rest))
            if weight:
                options.append((weight, split, tuple(rest)))
        pick = rng.randrange(sum(w for w, _, _ in options))
        chosen = options[-1]
        for option in options:
            if pick < option[0]:
                chosen = option
                break
            pick -= option[0]
        group = list(by_mask[mask])
        rng.shuffle(group)
        i = 0
        for loc, x in zip(locations, chosen[1], strict=True):
            out[loc] += group[i : i + x]
            i += x
        left = chosen[2]
    return out


#: Swaps per unseen card when the exact count is too costly (see ``_swapped``).
SWEEPS = 30


def _swapped(
    cards: Sequence[str],
    caps: Sequence[int],
    forbidden: Sequence[frozenset[str] | set[str]],
    rng: random.Random,
) -> list[list[str]]:
    """``split_uniformly`` by a random walk, for the rare constraint sets whose exact count
    is too costly: start from one valid deal (a matching found by augmenting paths), then
    exchange random pairs of cards between places whenever both may go to the other's place.
    The walk is symmetric, so its deals tend to the uniform distribution over valid deals;
    ``SWEEPS`` swaps per card make it close."""
    n = len(caps)
    members: list[list[str]] = [[] for _ in range(n)]

    def augment(card: str, seen: set[int]) -> bool:
        for loc in range(n):
            if loc in seen or card in forbidden[loc]:
                continue
            seen.add(loc)
            if len(members[loc]) < caps[loc]:
                members[loc].append(card)
                return True
            for i, other in enumerate(members[loc]):  # take its place, move it on
                members[loc][i] = card
                if augment(other, seen):
                    return True
                members[loc][i] = other
        return False

    order = list(cards)
    rng.shuffle(order)
    for card in order:
        if not augment(card, set()):
            raise NoWorld("no deal of the unseen cards fits the constraints")
    where = {c: loc for loc, group in enumerate(members) for c in group}
    deck = list(where)
    for _ in range(SWEEPS * len(deck)):
        a, b = deck[rng.randrange(len(deck))], deck[rng.randrange(len(deck))]
        la, lb = where[a], where[b]
        if la != lb and a not in forbidden[lb] and b not in forbidden[la]:
            where[a], where[b] = lb, la
    out: list[list[str]] = [[] for _ in range(n)]
    for card in deck:
        out[where[card]].append(card)
    return out


def play_order_hand(hand: Iterable[str], legal: Sequence[Action]) -> list[str]:
    """A hand order whose legal cards come out in the order of ``legal`` (a seat's view
    shows its hand sorted; legal actions follow the order of the hand in the state)."""
    cards = list(hand)
    first = [a.card for a in legal if a.type == "play" and a.card is not None]
    held = set(cards)
    front = [c for c in dict.fromkeys(first) if c in held]
    chosen = set(front)
    return front + [c for c in cards if c not in chosen]


def replay(
    rules: Any,
    state: Any,
    actions: Iterable[Action],
    fill: Callable[[Any, Action], Action] | None = None,
) -> Any:
    """``state`` after the public ``actions`` in order (``fill`` completes a masked one,
    e.g. a discard); ``None`` if one is illegal in this world."""
    try:
        for a in actions:
            state, _events = rules.apply(state, fill(state, a) if fill is not None else a)
    except IllegalAction:
        return None
    return state


def draw(
    attempt: Callable[[random.Random], Any],
    rng: random.Random,
) -> Any:
    """The first world ``attempt`` returns (``None`` means: rejected, draw again)."""
    for _ in range(ATTEMPTS):
        world = attempt(rng)
        if world is not None:
            return world
    raise NoWorld(f"no consistent world in {ATTEMPTS} draws")
