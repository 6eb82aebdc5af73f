"""Uniform assignments of hidden cards to slots (hands, an unseen dog, a hidden discard) for
French Tarot's ``sample_world`` (``french_tarot_worlds``).

Each card may go to some slots only (its class: the cards every slot accepts alike) and every
slot takes an exact number of cards. The assignments are counted class by class over the
slots' free room (slots that every class treats alike merged into one, the last class's
split forced, the one before it in closed form), then drawn with each class's split chosen
with the probability of its share of the count: exactly uniform. Counts are memoised, so
drawing again from the same classes only walks them.
"""

from __future__ import annotations

from functools import cache
from math import comb, factorial
from typing import Any

_FACTORIAL = [factorial(i) for i in range(79)]


@cache
def _multinomial(parts: tuple[int, ...]) -> int:
    out, total = 1, 0
    for part in parts:
        total += part
        out *= comb(total, part)
    return out


def _splits(m: int, room: list[int]) -> list[tuple[int, ...]]:
    """Every way to put ``m`` cards into slots with this free ``room``."""
    out: list[tuple[int, ...]] = []
    last = len(room) - 1

    def walk(i: int, left: int, acc: list[int]) -> None:
        if i == last:
            if left <= room[i]:
                out.append((*acc, left))
            return
        rest = sum(room[i + 1 :])
        for x in range(max(0, left - rest), min(left, room[i]) + 1):
            acc.append(x)
            walk(i + 1, left - x, acc)
            acc.pop()

    if room:
        walk(0, m, [])
    elif m == 0:
        out.append(())
    return out


class Assignment:
    """Uniform assignments of hidden cards to slots: every card to one of its class's
    allowed slots, every slot filled exactly. Counts are memoised, so drawing again from the
    same view only walks the classes."""

    def __init__(self, classes: list[tuple[list[str], tuple[int, ...]]], caps: tuple[int, ...]):
        # Slots every class treats alike (the same classes allow them) count as one: how a
        # group's cards split among its slots does not depend on which cards they are.
        groups: dict[tuple[int, ...], list[int]] = {}
        for s, cap in enumerate(caps):
            if cap:
                sig = tuple(i for i, (_, allowed) in enumerate(classes) if s in allowed)
                groups.setdefault(sig, []).append(s)
        self.members = list(groups.values())
        self.slot_caps = caps
        where = {s: g for g, members in enumerate(self.members) for s in members}
        merged = [
            (cards, tuple(sorted({where[s] for s in allowed if s in where})))
            for cards, allowed in classes
        ]
        # The classes with the most ways to split go last: the last one's split is forced by
        # the room left, the one before it has a closed form (``pair``).
        self.classes = sorted(merged, key=lambda c: comb(len(c[0]) + len(c[1]) - 1, len(c[0])))
        self.caps = tuple(sum(caps[s] for s in members) for members in self.members)
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.pair_parts: tuple[int, int, list[int], list[int], list[int]] = (0, 0, [], [], [])
        if len(self.classes) >= 2:
            (cards_b, sb), (cards_f, sf) = self.classes[-2], self.classes[-1]
            self.pair_parts = (
                len(cards_b),
                len(cards_f),
                [s for s in sb if s in sf],
                [s for s in sb if s not in sf],
                [s for s in range(len(self.caps)) if s not in sb and s not in sf],
            )
        if self.count(0, self.caps) == 0:
            raise ValueError("no deal is consistent with this view")

    def options(self, i: int, caps: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], Any]]:
        """(ways, split, caps left) for each split of class ``i`` with completions."""
        cards, allowed = self.classes[i]
        m = len(cards)
        if i == len(self.classes) - 1:  # the last class fills exactly what is left
            split = tuple(caps[j] for j in allowed)
            if sum(split) != m or sum(caps) != m:
                return []
            return [(_multinomial(split), split, (0,) * len(caps))]
        out: list[tuple[int, tuple[int, ...], Any]] = []
        for split in _splits(m, [caps[j] for j in allowed]):
            rest = list(caps)
            for j, x in zip(allowed, split, strict=True):
                rest[j] -= x
            left = tuple(rest)
            ways = _multinomial(split) * self.count(i + 1, left)
            if ways:
                out.append((ways, split, left))
        return out

    def pair(self, caps: tuple[int, ...]) -> int:
        """Ways to place the last two classes B and F into ``caps``: B fills the slots only
        it may take and ``r`` of the room of the slots both may take (any ``r`` places of
        that room alike), F the rest: mB! mF! C(room, r) / prod(caps!) (Vandermonde)."""
        mb, mf, shared, fill, outside = self.pair_parts
        if sum(caps) != mb + mf:
            return 0
        for s in outside:
            if caps[s]:
                return 0
        r = mb
        for s in fill:
            r -= caps[s]
        room = 0
        for s in shared:
            room += caps[s]
        if r < 0 or r > room:
            return 0
        den = 1
        for c in caps:
            den *= _FACTORIAL[c]
        return _FACTORIAL[mb] * _FACTORIAL[mf] * comb(room, r) // den

    def count(self, i: int, caps: tuple[int, ...]) -> int:
        if i == len(self.classes):
            return 0 if any(caps) else 1
        if i == len(self.classes) - 2:
            return self.pair(caps)
        key = (i, caps)
        found = self.memo.get(key)
        if found is None:
            found = sum(w for w, _, _ in self.options(i, caps))
            self.memo[key] = found
        return found

    def draw(self, rng: Any) -> list[list[str]]:
        """The cards of every slot (in the order of the caps given)."""
        caps = self.caps
        groups: list[list[str]] = [[] for _ in caps]
        for i, (cards, allowed) in enumerate(self.classes):
            if i == len(self.classes) - 2:
                self._draw_pair(caps, groups, rng)
                break
            options = self.options(i, caps)
            pick = rng.randrange(sum(w for w, _, _ in options))
            chosen = options[-1]
            for option in options:
                if pick < option[0]:
                    chosen = option
                    break
                pick -= option[0]
            split, left = chosen[1], chosen[2]
            deck = list(cards)
            rng.shuffle(deck)
            at = 0
            for j, x in zip(allowed, split, strict=True):
                groups[j].extend(deck[at : at + x])
                at += x
            caps = left
        slots: list[list[str]] = [[] for _ in self.slot_caps]
        for members, cards in zip(self.members, groups, strict=True):
            rng.shuffle(cards)
            at = 0
            for s in members:
                slots[s] = cards[at : at + self.slot_caps[s]]
                at += self.slot_caps[s]
        return slots

    def _draw_pair(self, caps: tuple[int, ...], groups: list[list[str]], rng: Any) -> None:
        """Place the last two classes (see ``pair``)."""
        (cards_b, _), (cards_f, _) = self.classes[-2], self.classes[-1]
        mb, _, shared, fill, _ = self.pair_parts
        r = mb - sum(caps[s] for s in fill)
        places = [s for s in shared for _ in range(caps[s])]
        rng.shuffle(places)
        took = dict.fromkeys(range(len(caps)), 0)
        for s in places[:r]:
            took[s] += 1
        for s in fill:
            took[s] = caps[s]
        deck_b = list(cards_b)
        rng.shuffle(deck_b)
        deck_f = list(cards_f)
        rng.shuffle(deck_f)
        at_b = at_f = 0
        for s, cap in enumerate(caps):
            b = took[s]
            groups[s].extend(deck_b[at_b : at_b + b])
            groups[s].extend(deck_f[at_f : at_f + cap - b])
            at_b += b
            at_f += cap - b
