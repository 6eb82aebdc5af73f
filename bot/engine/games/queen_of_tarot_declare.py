"""Queen of Tarot declarations: which bonus sets a hand can make and what they are worth.

``shared/rules/queen_of_tarot.md`` §3.3 with D-10, D-11, D-16, D-17, D-19, C-2 and C-3:

* ``abundance`` — 10 or more trumps I–XXI (the Fool never counts): worth T, all T shown. Its
  trumps may serve again in one other bonus, so it is independent of the rest (C-3).
* ``kings`` — all four Kings: 20, plus 5 for each honour attached to it.
* ``mitigati`` — all three honours (XX, I, Fool): 15, plus 5 for each King attached.
* ``mixed_honours`` — four or more cards drawn from Kings and honours: 10 + 5 per card over 4.

Apart from Abundance, a King or an honour serves in at most one bonus. A declared set is
valued by its best allocation of the cards (C-2): the player names the bonuses, the engine
places the cards. Every card used is shown to everyone (D-10).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations
from typing import NamedTuple

from bot.engine.games.queen_of_tarot_cards import HONOURS, KINGS

ABUNDANCE = "abundance"
KINGS_BONUS = "kings"
MITIGATI = "mitigati"
MIXED = "mixed_honours"
BONUSES: tuple[str, ...] = (ABUNDANCE, KINGS_BONUS, MITIGATI, MIXED)
ABUNDANCE_MIN = 10


class Part(NamedTuple):
    """One bonus of a declaration: its name, value and the cards it shows."""

    name: str
    value: int
    cards: tuple[str, ...]


class Declaration(NamedTuple):
    """What a seat declared (``bonuses`` sorted; ``()`` = nothing) and what it is worth."""

    seat: int
    bonuses: tuple[str, ...]
    value: int
    parts: tuple[Part, ...]
    cards: tuple[str, ...]  # every card shown, sorted


# An allocation by counts: per bonus, (kings used, honours used, value).
_Counts = tuple[tuple[str, int, int, int], ...]


@cache
def _best_counts(k: int, h: int, names: frozenset[str]) -> _Counts | None:
    """Best allocation of ``k`` Kings and ``h`` honours to the non-Abundance ``names``, or
    ``None`` when they cannot all be made. Attaching a card always adds 5, so the best
    allocation is the one of highest value (ties: the first found)."""
    best: tuple[int, _Counts] | None = None
    kings_on = KINGS_BONUS in names
    mitigati_on = MITIGATI in names
    mixed_on = MIXED in names
    if (kings_on and k < 4) or (mitigati_on and h < 3):
        return None
    for a in range(h + 1) if kings_on else (0,):  # honours attached to Kings
        for b in range(k + 1) if mitigati_on else (0,):  # Kings attached to Mitigati
            for mk in range(k + 1) if mixed_on else (0,):
                for mh in range(h + 1) if mixed_on else (0,):
                    kings_used = (4 if kings_on else 0) + b + mk
                    honours_used = a + (3 if mitigati_on else 0) + mh
                    if kings_used > k or honours_used > h or (mixed_on and mk + mh < 4):
                        continue
                    parts: list[tuple[str, int, int, int]] = []
                    if kings_on:
                        parts.append((KINGS_BONUS, 4, a, 20 + 5 * a))
                    if mitigati_on:
                        parts.append((MITIGATI, b, 3, 15 + 5 * b))
                    if mixed_on:
                        parts.append((MIXED, mk, mh, 10 + 5 * (mk + mh - 4)))
                    value = sum(p[3] for p in parts)
                    if best is None or value > best[0]:
                        best = (value, tuple(parts))
    return None if best is None else best[1]


_TRUMPS: tuple[str, ...] = tuple(f"T{n}" for n in range(1, 22))


def holding(hand: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """``(trumps I–XXI, Kings, honours)`` held, each in a fixed order."""
    cards = set(hand)
    trumps = tuple([c for c in _TRUMPS if c in cards])
    return (
        trumps,
        tuple([c for c in KINGS if c in cards]),
        tuple([c for c in HONOURS if c in cards]),
    )


def value_set(hand: Iterable[str], names: Iterable[str]) -> tuple[Part, ...] | None:
    """The parts of the best allocation of ``names`` for ``hand``; ``None`` if the hand
    cannot make that set. Names must be known and distinct (checked by the caller)."""
    wanted = frozenset(names)
    trumps, kings, honours = holding(hand)
    out: list[Part] = []
    if ABUNDANCE in wanted:
        if len(trumps) < ABUNDANCE_MIN:  # D-11: the Fool is not counted
            return None
        out.append(Part(ABUNDANCE, len(trumps), trumps))  # C-3: worth T, 10 + (T − 10)
    counts = _best_counts(len(kings), len(honours), wanted - {ABUNDANCE})
    if counts is None:
        return None
    free_kings, free_honours = list(kings), list(honours)
    for name, nk, nh, value in counts:
        cards = tuple(free_kings[:nk]) + tuple(free_honours[:nh])
        del free_kings[:nk], free_honours[:nh]
        out.append(Part(name, value, cards))
    return tuple(out)


def declaration(seat: int, hand: Sequence[str], names: Iterable[str]) -> Declaration | None:
    """A seat's declaration of ``names`` valued by its best allocation, or ``None``."""
    parts = value_set(hand, names)
    if parts is None:
        return None
    shown = sorted({c for p in parts for c in p.cards})
    return Declaration(
        seat=seat,
        bonuses=tuple(sorted(p.name for p in parts)),
        value=sum(p.value for p in parts),
        parts=parts,
        cards=tuple(shown),
    )


def _signature(hand: Iterable[str]) -> tuple[int, int, int]:
    trumps, kings, honours = holding(hand)
    return min(len(trumps), ABUNDANCE_MIN), len(kings), len(honours)


@cache
def _legal_sets(signature: tuple[int, int, int]) -> tuple[tuple[str, ...], ...]:
    trumps, k, h = signature
    out: list[tuple[str, ...]] = []
    for size in range(len(BONUSES) + 1):
        for names in combinations(sorted(BONUSES), size):
            if ABUNDANCE in names and trumps < ABUNDANCE_MIN:
                continue
            if _best_counts(k, h, frozenset(names) - {ABUNDANCE}) is not None:
                out.append(names)
    return tuple(out)


def legal_sets(hand: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    """Every set of bonus names the hand can make (C-2), each sorted; ``()`` first."""
    return _legal_sets(_signature(hand))


def best_set(hand: Sequence[str]) -> tuple[str, ...]:
    """The default declaration (§3.3, D-19): the most valuable legal set; ties go to the
    fewest names, then alphabetical order (4 Kings + 3 honours: ``kings`` alone, 35)."""

    def key(names: tuple[str, ...]) -> tuple[int, int, tuple[str, ...]]:
        parts = value_set(hand, names)
        assert parts is not None
        return (-sum(p.value for p in parts), len(names), names)

    return min(legal_sets(hand), key=key)
