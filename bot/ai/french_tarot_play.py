"""Card play of the French Tarot computer player (see ``bot.ai.french_tarot``).

Card memory comes from the public history (every card played, by whom): which trumps are
still out, and what each seat showed it lacks — a void in a suit, no trump at all, no trump
above the one it failed to overtrump. Camps: at 3 and
4 players the taker is alone and the defenders are partners; at 5 players the partner knows
itself (it holds the called card), everyone else learns the camps when the called card is
played (or when it shows up in the dog). Seats of unknown camp count as opponents.

Following: charge points (or the Petit) into a friend's trick that is sure to stand and never
take it over when another card is allowed (the Excuse included); take an opponent's trick when
it can (with the Petit when that is safe, with the 21 when the trick is worth it or holds the
Petit, with the King, else the cheapest trump) and otherwise give the cheapest card, using the
Excuse instead of a King, Queen or the Petit. Leading: a defender long in trumps hunts the
Petit (chasse au Petit) while it is out; the 5-player attack leads the called suit to find its
partner (the partner leads the called card); an attack long in trumps draws trumps; otherwise
cash Kings in short suits or lead low from short suits, the defence avoiding the suits the
taker is known to be void in. The Excuse is never kept for the last trick.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.actions import Action
from bot.engine.cards import EXCUSE
from bot.engine.games.french_tarot_cards import (
    PETIT,
    TWENTY_ONE,
    half_points,
    is_king,
    is_trump,
    led_suit,
    rank,
    suit_of,
    trick_winner,
)
from bot.engine.trick import Play
from bot.engine.views import SeatView


@dataclass(frozen=True, slots=True)
class Ctx:
    seat: int
    players: int
    hand: tuple[str, ...]
    trick: tuple[Play, ...]
    last_trick: tuple[Play, ...]
    taker: int | None
    role: str  # taker | partner | defender
    friends: frozenset[int]
    called: str | None
    camps_known: bool
    after: tuple[int, ...]  # seats still to play to this trick after this one
    memory: Memory


@dataclass(frozen=True, slots=True)
class Memory:
    """What the public history tells about the cards still out."""

    played: frozenset[str]
    #: trumps neither played nor in this hand (the Excuse excluded)
    trumps_out: frozenset[str]
    #: per seat, the suits it showed it lacks ("T": it holds no trump)
    voids: dict[int, frozenset[str]]
    #: per seat, the highest trump it may still hold (it failed to overtrump above it)
    trump_cap: dict[int, int]

    def may_beat(self, seat: int, trump_rank: int) -> bool:
        """Whether ``seat`` may still hold a trump above ``trump_rank``."""
        if "T" in self.voids.get(seat, frozenset()):
            return False
        cap = self.trump_cap.get(seat, 21)
        return any(trump_rank < rank(t) <= cap for t in self.trumps_out)


ALL_TRUMPS = tuple(f"T{i}" for i in range(1, 22))


def tricks_of(view: SeatView) -> list[tuple[Play, ...]]:
    """Every trick of this deal so far, complete ones first and the current one last, from the
    public history (or from the last and current trick when there is none)."""
    n = view.public.players
    plays = [(a.seat, a.card) for a in view.public.history if a.type == "play" and a.card]
    if not plays:
        return [t for t in (view.public.last_trick, view.public.trick) if t]
    out = [tuple(plays[i : i + n]) for i in range(0, len(plays), n)]
    return [t for t in out if t]


class _Scan:
    """What the plays of a history show, built play by play (see ``memory``)."""

    __slots__ = ("cap", "count", "high", "history", "played", "suit", "voids")

    def __init__(self) -> None:
        self.history: tuple[Action, ...] = ()
        self.count = 0  # plays scanned
        self.played: set[str] = set()
        self.voids: dict[int, set[str]] = {}
        self.cap: dict[int, int] = {}
        self.suit: str | None = None  # the current trick's led suit
        self.high = 0  # the current trick's highest trump

    def add(self, seat: int, card: str, n: int) -> None:
        if self.count % n == 0:
            self.suit, self.high = None, 0
        self.count += 1
        self.played.add(card)
        if card == EXCUSE:
            return
        suit, high = self.suit, self.high
        if suit is None:
            self.suit = suit = suit_of(card)
        elif suit_of(card) != suit:
            self.voids.setdefault(seat, set()).add(suit)
            if not is_trump(card):
                self.voids[seat].add("T")  # void and did not trump: no trump at all
        elif suit == "T" and rank(card) < high:
            self.cap[seat] = min(self.cap.get(seat, 21), high - 1)  # could not overtrump
        if is_trump(card):
            if suit != "T" and suit_of(card) != suit and rank(card) < high:
                self.cap[seat] = min(self.cap.get(seat, 21), high - 1)  # trumped under
            self.high = max(high, rank(card))


class _Cache(threading.local):
    """The last history scanned, per thread: successive decisions (and a rollout's) extend
    it, so only the new plays are read. A cache only: ``memory`` is the same without it."""

    scan = _Scan()


_cache = _Cache()


def _scan(view: SeatView) -> _Scan:
    history = view.public.history
    n = view.public.players
    if not any(a.type == "play" for a in history):  # no history: the visible tricks only
        scan = _Scan()
        for trick in (view.public.last_trick, view.public.trick):
            scan.count = 0
            for seat, card in trick:
                scan.add(seat, card, n)
        return scan
    scan = _cache.scan
    k = len(scan.history)
    if k <= len(history) and scan.history == history[:k]:
        rest = history[k:]  # the same deal, further on: read the new plays only
    else:
        scan, rest = _Scan(), history
    for a in rest:
        if a.type == "play" and a.card:
            scan.add(a.seat, a.card, n)
    scan.history = history
    _cache.scan = scan
    return scan


def memory(view: SeatView) -> Memory:
    scan = _scan(view)
    played = set(scan.played)
    played.update(card for _, card in view.public.trick)
    mine = set(view.hand)
    out = frozenset(t for t in ALL_TRUMPS if t not in played and t not in mine)
    return Memory(
        played=frozenset(played),
        trumps_out=out,
        voids={s: frozenset(v) for s, v in scan.voids.items()},
        trump_cap=dict(scan.cap),
    )


def context(view: SeatView) -> Ctx:
    pub = view.public
    info = pub.info
    n, seat, hand = pub.players, view.seat, view.hand
    taker: int | None = info.get("taker")
    called: str | None = info.get("called")
    partner: int | None = info.get("partner")
    alone = info.get("alone") is True
    others = frozenset(range(n)) - {seat}
    if seat == taker:
        role = "taker"
        friends = frozenset() if partner is None else frozenset({partner})
        known = n < 5 or partner is not None or alone or called in hand
    elif n == 5 and taker is not None and (called in hand or partner == seat):
        role, friends, known = "partner", frozenset({taker}), True
    else:
        role = "defender"
        if n < 5 or alone:
            friends, known = others - {taker}, True
        elif partner is not None:
            friends, known = others - {taker, partner}, True
        else:
            friends, known = frozenset(), False
    k = n - len(pub.trick) - 1
    return Ctx(
        seat=seat,
        players=n,
        hand=hand,
        trick=pub.trick,
        last_trick=pub.last_trick,
        taker=taker,
        role=role,
        friends=friends,
        called=called,
        camps_known=known,
        after=tuple((seat - i) % n for i in range(1, k + 1)),
        memory=memory(view),
    )


def _suit_len(hand: Sequence[str], suit: str) -> int:
    return sum(1 for c in hand if suit_of(c) == suit)


def give_cost(card: str) -> int:
    """How much it hurts to give ``card`` to a trick this seat does not win."""
    if card == PETIT:
        return 1000
    if card == TWENTY_ONE:
        return 900
    if is_trump(card):
        return 200 + rank(card)
    return 10 * half_points(card) + rank(card)


def _voids(trick: Sequence[Play]) -> dict[int, set[str]]:
    """Suits seats showed they lack in ``trick`` (did not follow a plain lead)."""
    out: dict[int, set[str]] = {}
    suit = led_suit(trick)
    if suit is None or suit == "T":
        return out
    for seat, card in trick:
        if card != EXCUSE and suit_of(card) != suit:
            out.setdefault(seat, set()).add(suit)
    return out


def _wins(c: Ctx, card: str) -> bool:
    return card != EXCUSE and trick_winner((*c.trick, (c.seat, card))) == c.seat


def _stands(c: Ctx, card: str) -> bool:
    """Whether trump ``card`` cannot be beaten by an opponent still to play this trick."""
    if not is_trump(card):
        return False
    return not any(c.memory.may_beat(s, rank(card)) for s in c.after if s not in c.friends)


def _petit_survives(c: Ctx) -> float:
    """Chance the Petit, trumping a plain-suit trick now, is not overtrumped by an opponent
    still to play: each must be void in the led suit (dealt at random among the unseen
    cards, or shown) and still hold a trump."""
    suit = led_suit(c.trick)
    if suit is None or suit == "T":
        return 0.0
    seen = c.memory.played | set(c.hand)
    unknown = 78 - len(seen)
    in_suit = sum(1 for r in _RANKS if suit + r not in seen)
    h = len(c.hand)
    p_void = 1.0
    for i in range(h):  # hypergeometric: none of the h cards is of the suit
        p_void *= max(0.0, (unknown - in_suit - i) / max(1, unknown - i))
    chance = 1.0
    for s in c.after:
        if s in c.friends or not c.memory.may_beat(s, 1):
            continue
        void = suit in c.memory.voids.get(s, frozenset())
        chance *= 1.0 - (1.0 if void else p_void)
    return chance


_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")


def _opponents_trumpless(c: Ctx) -> bool:
    """Whether no opponent (every seat not known as a friend) may still hold a trump."""
    seats = [s for s in range(c.players) if s != c.seat and s not in c.friends]
    return not any(c.memory.may_beat(s, 0) for s in seats)


#: Fewest trumps (the Excuse not counted) a defender holds to hunt the Petit, per player count:
#: long holdings only. Measured against the casual play without the hunt (duplicate, casual
#: seat rotated; bench/results/duplicate_match.md, issue 33): from 6 trumps at 4 players it
#: cost -0.10 ± 0.18 a deal, from 5 it lost (-0.28 ± 0.23); at these lengths it is neutral.
HUNT_TRUMPS = {3: 10, 4: 8, 5: 7}


def _petit_hunt(c: Ctx, trumps: list[str]) -> str | None:
    """The chasse au Petit (FFT usage): a defender long in trumps, the Petit still out and
    maybe with the taker, leads a strong trump each time it has the lead, so that the taker,
    running short, must play the Petit under it (and the defence banks it). Not with the
    21 (kept to catch the Petit) unless nothing else is left; ``None``: no hunt."""
    if c.role != "defender" or not c.camps_known or c.taker is None:
        return None
    if PETIT in c.memory.played or PETIT in c.hand or not c.memory.may_beat(c.taker, 0):
        return None
    if len(trumps) < HUNT_TRUMPS.get(c.players, 6):
        return None
    strong = [x for x in trumps if x != TWENTY_ONE]
    return strong[-1] if strong else None


def _lead(c: Ctx, opts: list[str]) -> str:
    cards = [x for x in opts if x != EXCUSE]
    if not cards:
        return EXCUSE
    hand = c.hand
    plain = [x for x in cards if not is_trump(x)]
    trumps = sorted((x for x in cards if is_trump(x)), key=rank)
    attack = c.role != "defender"
    if PETIT in cards and _opponents_trumpless(c):
        return PETIT  # nobody against us can take it any more
    if attack and PETIT in hand and c.memory.trumps_out:
        others = [x for x in trumps if x != PETIT]
        if len(others) > len(c.memory.trumps_out):
            return others[-1]  # draw the trumps still out, then the Petit is safe
    hunt = _petit_hunt(c, trumps)
    if hunt is not None:
        return hunt
    if c.players == 5 and c.called is not None and not c.camps_known:
        if c.role == "partner" and c.called in cards:
            return c.called  # show the taker where its partner sits
        if c.role == "taker":
            mine = [x for x in plain if suit_of(x) == suit_of(c.called)]
            if mine:
                return min(mine, key=rank)  # find the partner
    if attack and len(trumps) >= max(3, (len(hand) + 1) // 2):
        middle = [x for x in trumps if x not in (PETIT, TWENTY_ONE)]
        if middle:
            top = middle[-1]
            return top if rank(top) >= 15 else middle[0]
    taker_voids: set[str] = set()
    if c.taker is not None:
        for trick in (c.trick, c.last_trick):
            taker_voids |= _voids(trick).get(c.taker, set())
    if plain:
        kings = [x for x in plain if is_king(x) and suit_of(x) not in taker_voids]
        short_kings = [x for x in kings if _suit_len(hand, suit_of(x)) <= 4]
        if short_kings:
            return min(short_kings, key=lambda x: _suit_len(hand, suit_of(x)))
        called_suit = suit_of(c.called) if c.called and c.role == "defender" else None

        def key(x: str) -> tuple[int, int, int, int]:
            s = suit_of(x)
            avoid = int(s in taker_voids) + int(s == called_suit)
            return (avoid, int(half_points(x) > 1), _suit_len(hand, s), rank(x))

        return min(plain, key=key)
    low = [x for x in trumps if x not in (PETIT, TWENTY_ONE)]
    if low:
        return low[0]
    if EXCUSE in opts:
        return EXCUSE
    return TWENTY_ONE if TWENTY_ONE in trumps else trumps[0]


def _follow(c: Ctx, opts: list[str]) -> str:
    cards = [x for x in opts if x != EXCUSE]
    if not cards:
        return EXCUSE
    if all(card == EXCUSE for _, card in c.trick):
        return _lead(c, opts)  # the Excuse was led: this card sets the suit
    has_ex = EXCUSE in opts
    win = trick_winner(c.trick)
    best = next(card for seat, card in c.trick if seat == win)
    value = sum(half_points(card) for _, card in c.trick)
    petit_out = any(card == PETIT for _, card in c.trick)
    after_friends = all(s in c.friends for s in c.after)
    winners = [x for x in cards if _wins(c, x)]
    others = [x for x in cards if x not in winners]
    hand = c.hand

    if win in c.friends:
        if after_friends or best == TWENTY_ONE or _stands(c, best):
            # the friend's trick stands: charge it, never take it over if we may avoid it
            if not others:
                return EXCUSE if has_ex else min(winners, key=give_cost)
            if PETIT in others:
                return PETIT
            plain = [x for x in others if not is_trump(x)]
            if plain:
                return max(plain, key=lambda x: (half_points(x), -_suit_len(hand, suit_of(x))))
            return min(others, key=give_cost)
        if not others and PETIT not in cards:
            return min(cards, key=give_cost)
        pool = others or cards
        cheapest = min(pool, key=give_cost)
        if cheapest == PETIT and has_ex:
            return EXCUSE
        return cheapest

    if winners:
        if PETIT in winners and _stands(c, PETIT):
            return PETIT  # it wins and nobody still to play can trump it
        if PETIT in winners:
            others_held = sum(1 for x in hand if is_trump(x) and x != PETIT)
            # Kept to the end, a short Petit is forced under a bigger trump: bank it now
            # while the opponents still to play most likely have to follow suit.
            if _petit_survives(c) >= (0.6 if others_held <= 2 else 0.8):
                return PETIT
        if petit_out:  # capture the opponents' Petit
            return TWENTY_ONE if TWENTY_ONE in winners else max(winners, key=rank)
        if after_friends:
            if PETIT in winners:
                return PETIT  # the Petit wins safely
            plain = [x for x in winners if not is_trump(x)]
            if plain:
                return max(plain, key=half_points)
            cheap = [x for x in winners if x != TWENTY_ONE] or winners
            return min(cheap, key=rank)
        plain = [x for x in winners if not is_trump(x)]
        if plain:
            kings = [x for x in plain if is_king(x)]
            if kings:
                return kings[0]
            return min(cards, key=give_cost)
        if TWENTY_ONE in winners and value >= 9:
            return TWENTY_ONE
        cheap = [x for x in winners if x not in (PETIT, TWENTY_ONE)]
        if cheap:
            return max(cheap, key=rank) if value >= 9 else min(cheap, key=rank)
        if others:
            cheapest = min(others, key=give_cost)
            if cheapest != PETIT:
                return cheapest
        if PETIT in winners and has_ex:
            return EXCUSE
        return min(winners, key=give_cost)

    def key(x: str) -> tuple[int, int]:
        return (give_cost(x), _suit_len(hand, suit_of(x)))

    cheapest = min(cards, key=key)
    if has_ex and give_cost(cheapest) >= 50:  # a King, Queen, Knight, the Petit
        return EXCUSE
    return cheapest


def play(view: SeatView) -> Action:
    """The card to play (``view.legal`` holds ``play`` actions)."""
    plays = [a for a in view.legal if a.type == "play" and a.card is not None]
    opts = [a.card for a in plays if a.card is not None]
    if len(opts) == 1:
        return plays[0]
    c = context(view)
    if EXCUSE in opts and len(c.hand) <= 2:
        card = EXCUSE  # never keep the Excuse for the last trick
    elif not c.trick:
        card = _lead(c, opts)
    else:
        card = _follow(c, opts)
    return next(a for a in plays if a.card == card)
