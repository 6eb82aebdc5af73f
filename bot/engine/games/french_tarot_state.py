"""French Tarot deal state and the rules questions asked of it (whose cards are legal...).

Shared by the transitions (``french_tarot_flow``) and the ``Rules`` object
(``french_tarot``); see ``shared/rules/french_tarot.md``.

``FrenchTarotState`` behaves like the NamedTuple it used to be — the same 25 fields by name,
keyword construction, ``_replace``, ``_asdict``, iteration in field order, equality, pickling
and the JSON form ``bot.engine.codec`` stores (``FrenchTarotRecord``, unchanged) — but inside
it is the fast core's working state: every hand is a bit mask (``french_tarot_cards``), the
fields that only change between phases sit in one shared ``FrenchTarotRecord`` (its per-card
fields left empty), the finished tricks in one history tuple, and the legal actions are
computed once, when the state is built. A card play builds an eight-item tuple. Its items
(``s[i]``, see ``BASE``…``LEGAL``) are that working form, for the engine's own modules only;
everyone else reads the fields. Every ``FrenchTarotState`` is in working form (building one
field by field converts); ``FrenchTarotRecord`` is only the stored form.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from enum import StrEnum
from typing import Any, NamedTuple, cast

from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, TAROT_PACK
from bot.engine.games.french_tarot_cards import (
    CARD_OF_BIT,
    CHUNK_CARDS,
    CONTRACTS,
    EXCUSE_SHIFT,
    FULL,
    GROUP_MASK,
    ORDER,
    PARAMS,
    SUIT,
    TRUMP_MASK,
    TRUMP_NO,
    TRUMPS_ABOVE,
    callable_cards,
    cards_of,
    discard_counts,
    poignee_options,
    trick_restriction,
)
from bot.engine.restriction import PlayRestriction, some_forbidden
from bot.engine.trick import Play


class Phase(StrEnum):
    BIDDING = "bidding"
    CALL = "call"
    DISCARD = "discard"
    CHELEM = "chelem"
    PLAY = "play"
    DONE = "done"


class FrenchTarotRecord(NamedTuple):
    """One French Tarot deal field by field: the stored JSON form of ``FrenchTarotState``."""

    players: int
    dealer: int
    chelem_option: bool
    phase: Phase
    hands: tuple[tuple[str, ...], ...]
    dog: tuple[str, ...]
    turn: int | None
    bids: tuple[str | None, ...]
    taker: int | None = None
    contract: str | None = None
    called: str | None = None
    #: Holder of the called card when play starts (5 players); secret until it is played.
    partner: int | None = None
    discard: tuple[str, ...] = ()
    chelem: bool = False
    poignees: tuple[tuple[int, int, tuple[str, ...]], ...] = ()
    leader: int = 0
    trick: tuple[Play, ...] = ()
    tricks: tuple[tuple[Play, ...], ...] = ()
    winners: tuple[int, ...] = ()
    tricks_won: tuple[int, ...] = ()
    excuse_won_last: bool = False
    called_by: int | None = None
    outcome: str | None = None
    deltas: tuple[int, ...] | None = None
    detail: dict[str, Any] | None = None


_new = cast("Callable[[type[Any], Iterable[Any]], Any]", tuple.__new__)  # pyright: ignore[reportUnknownMemberType]
_tuple_eq = cast("Callable[[Any, Any], bool]", tuple.__eq__)  # pyright: ignore[reportUnknownMemberType]

# Items of a ``FrenchTarotState`` (the working form): the base record, the hands (one int),
# the current trick, its best trump's number (0: none), the finished tricks' history (one
# tuple, replaced once a trick), the seat that played the called card, and the seat to act
# (item 6, as in the record, so one item getter reads whose turn it is in either form).
# Item 7 is the legal actions, computed once when the state is built.
BASE, HANDS, TRICK, HIGH, HIST, CALLED_BY, TURN, LEGAL = range(8)
# Items of the history: tricks, their winners, tricks won per seat, the current trick's
# leader, whether the Excuse won the last trick. Tricks won per seat is ``None`` in a deal the
# engine dealt (``won_of`` counts the winners when asked: no tuple rebuilt at each trick's
# end); a deal given field by field keeps the counts it was given.
H_TRICKS, H_WINNERS, H_WON, H_LEADER, H_EXCUSE_WON = range(5)
#: Bit offset of each seat's hand inside the ``HANDS`` item.
STRIDE = 80
SHIFT: tuple[int, ...] = tuple(STRIDE * s for s in range(5))
#: Each seat's bit for each card, inside the ``HANDS`` item.
SEAT_BIT: tuple[dict[str, int], ...] = tuple(
    {c: 1 << (ORDER[c] + STRIDE * s) for c in TAROT_PACK} for s in range(5)
)


class _FieldByField(type):
    """``FrenchTarotState``'s metaclass: calling the class builds a deal field by field, like
    the record (``players=…, hands=…``; the codec decodes stored states this way).

    The class itself defines no ``__new__``, so it keeps the C-level ``tuple.__new__``:
    ``new_state`` (``type.__call__`` bound to the class) builds a state from its eight
    working items without a Python-level constructor, and faster than
    ``tuple.__new__(FrenchTarotState, items)``, which re-packs its arguments.
    """

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return from_record(FrenchTarotRecord(*args, **kwargs))


class FrenchTarotState(tuple[Any, ...], metaclass=_FieldByField):
    """One French Tarot deal; immutable. Fields as ``FrenchTarotRecord`` (see the module
    docstring for the working form inside)."""

    __slots__ = ()

    _fields = FrenchTarotRecord._fields
    _field_defaults = FrenchTarotRecord._field_defaults

    # The fields, typed for readers; each is replaced by a property below the class.
    players: int
    dealer: int
    chelem_option: bool
    phase: Phase
    hands: tuple[tuple[str, ...], ...]
    dog: tuple[str, ...]
    turn: int | None
    bids: tuple[str | None, ...]
    taker: int | None
    contract: str | None
    called: str | None
    partner: int | None
    discard: tuple[str, ...]
    chelem: bool
    poignees: tuple[tuple[int, int, tuple[str, ...]], ...]
    leader: int
    trick: tuple[Play, ...]
    tricks: tuple[tuple[Play, ...], ...]
    winners: tuple[int, ...]
    tricks_won: tuple[int, ...]
    excuse_won_last: bool
    called_by: int | None
    outcome: str | None
    deltas: tuple[int, ...] | None
    detail: dict[str, Any] | None

    def record(self) -> FrenchTarotRecord:
        """This deal field by field."""
        b: FrenchTarotRecord = self[BASE]
        hands = self[HANDS]
        hist = self[HIST]
        return _new(
            FrenchTarotRecord,
            (
                *b[:4],
                tuple([cards_of(hands >> SHIFT[p] & FULL) for p in range(b[0])]),
                b[5],
                self[TURN],
                *b[7:15],
                hist[H_LEADER],
                self[TRICK],
                hist[H_TRICKS],
                hist[H_WINNERS],
                won_of(hist, b[0]),
                hist[H_EXCUSE_WON],
                self[CALLED_BY],
                *b[22:],
            ),
        )

    def _replace(self, **changes: Any) -> FrenchTarotState:
        return from_record(self.record()._replace(**changes))

    def _asdict(self) -> dict[str, Any]:
        return self.record()._asdict()

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> FrenchTarotState:
        return from_record(FrenchTarotRecord._make(iterable))

    def __iter__(self) -> Iterator[Any]:
        return iter(self.record())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrenchTarotState):
            return _tuple_eq(self.record(), other.record())
        if isinstance(other, FrenchTarotRecord):
            return _tuple_eq(self.record(), other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self.record())

    def __repr__(self) -> str:
        return "FrenchTarotState" + repr(self.record())[len("FrenchTarotRecord") :]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_from_values, (tuple(self.record()),))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self.record())


#: ``new_state(items)``: the ``FrenchTarotState`` of its eight working items (``BASE``…
#: ``LEGAL``), built by ``tuple.__new__`` straight from ``type.__call__`` (see ``_FieldByField``).
new_state = cast(
    "Callable[[tuple[Any, ...]], FrenchTarotState]",
    type.__call__.__get__(FrenchTarotState),  # pyright: ignore[reportUnknownMemberType, reportAttributeAccessIssue]
)


def _from_values(values: tuple[Any, ...]) -> FrenchTarotState:
    return from_record(FrenchTarotRecord(*values))


def _field(name: str) -> property:
    """A read-only field of ``FrenchTarotState`` read from its working form."""
    i = FrenchTarotRecord._fields.index(name)
    own = {"turn": TURN, "trick": TRICK, "called_by": CALLED_BY}
    kept = {
        "tricks": H_TRICKS,
        "winners": H_WINNERS,
        "tricks_won": H_WON,
        "leader": H_LEADER,
        "excuse_won_last": H_EXCUSE_WON,
    }
    if name == "hands":
        return property(lambda s: tuple([hand_of(s, p) for p in range(s[BASE][0])]))
    if name == "tricks_won":
        return property(lambda s: won_of(s[HIST], s[BASE][0]))
    if name in own:
        j = own[name]
        return property(lambda s: s[j])
    if name in kept:
        k = kept[name]
        return property(lambda s: s[HIST][k])
    return property(lambda s: s[BASE][i])


for _name in FrenchTarotRecord._fields:
    setattr(FrenchTarotState, _name, _field(_name))


def won_of(hist: tuple[Any, ...], players: int) -> tuple[int, ...]:
    """Tricks won per seat, from a history item (counted from its winners when not kept)."""
    won = hist[H_WON]
    if won is None:
        count = hist[H_WINNERS].count
        return tuple([count(p) for p in range(players)])
    return won


def base_of(r: FrenchTarotRecord) -> FrenchTarotRecord:
    """``r`` with the fields a ``FrenchTarotState`` keeps outside its base emptied."""
    return _new(
        FrenchTarotRecord,
        (*r[:3], Phase(r[3]), (), tuple(r[5]), None, tuple(r[7]), *r[8:15], 0, (), (), (), ())
        + (False, None, *r[22:]),
    )


def from_record(r: FrenchTarotRecord) -> FrenchTarotState:
    """The working form of a deal given field by field."""
    hands = 0
    for p, hand in enumerate(r.hands):
        bits = SEAT_BIT[p]
        for c in hand:
            hands |= bits[c]
    trick = tuple((int(p), str(c)) for p, c in r.trick)
    high = max([TRUMP_NO[c] for _, c in trick], default=0)
    tricks = tuple(tuple((int(p), str(c)) for p, c in t) for t in r.tricks)
    hist = (tricks, tuple(r.winners), tuple(r.tricks_won), r.leader, r.excuse_won_last)
    return make(base_of(r), hands, trick, high, hist, r.called_by, r.turn)


def make(
    base: FrenchTarotRecord,
    hands: int,
    trick: tuple[Play, ...],
    high: int,
    hist: tuple[Any, ...],
    called_by: int | None,
    turn: int | None,
) -> FrenchTarotState:
    """A ``FrenchTarotState`` from its items (its legal actions computed here)."""
    legal = legal_for(base, hands, trick, high, hist, turn)
    return new_state((base, hands, trick, high, hist, called_by, turn, legal))


def working(s: FrenchTarotState | FrenchTarotRecord) -> FrenchTarotState:
    """``s`` as a ``FrenchTarotState`` (a record, e.g. one built by hand, is converted)."""
    return s if type(s) is FrenchTarotState else from_record(cast(FrenchTarotRecord, s))


def hand_mask(s: FrenchTarotState, seat: int) -> int:
    """The bit mask of ``seat``'s hand."""
    return s[HANDS] >> SHIFT[seat] & FULL


def hand_of(s: FrenchTarotState, seat: int) -> tuple[str, ...]:
    """``seat``'s hand in display order."""
    return cards_of(s[HANDS] >> SHIFT[seat] & FULL)


# ---- legal actions --------------------------------------------------------------------

_SEATS = range(5)
_PLAY = Phase.PLAY
#: ``play`` action per seat and card.
PLAY_ACTIONS: tuple[dict[str, Action], ...] = tuple(
    {c: Action("play", s, card=c) for c in TAROT_PACK} for s in _SEATS
)
#: ``CHUNK_PLAYS[seat][k][v]``: the ``play`` actions of ``CHUNK_CARDS[k][v]``.
CHUNK_PLAYS: tuple[tuple[tuple[tuple[Action, ...], ...], ...], ...] = tuple(
    tuple(tuple(tuple(PLAY_ACTIONS[s][c] for c in cards) for cards in k) for k in CHUNK_CARDS)
    for s in _SEATS
)
_SUIT_INDEX = {"S": 0, "H": 1, "C": 2, "D": 3}
#: Per seat and card led: the two chunk tables of its suit and their shifts (None for a trump
#: or the Excuse led).
FOLLOW: tuple[dict[str, tuple[Any, ...] | None], ...] = tuple(
    {
        c: None
        if SUIT[c] not in _SUIT_INDEX
        else (
            CHUNK_PLAYS[s][2 * _SUIT_INDEX[SUIT[c]]],
            CHUNK_PLAYS[s][2 * _SUIT_INDEX[SUIT[c]] + 1],
            14 * _SUIT_INDEX[SUIT[c]],
            14 * _SUIT_INDEX[SUIT[c]] + 7,
        )
        for c in TAROT_PACK
    }
    for s in _SEATS
)
EXCUSE_PLAY: tuple[tuple[Action], ...] = tuple((PLAY_ACTIONS[s][EXCUSE],) for s in _SEATS)


def _wide_chunks(seat: int) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """``plays_of``'s tables for ``seat``: per 10-bit chunk ``k`` and value ``v``, the play
    actions of the cards of bits ``10k…10k+9`` set in ``v`` (each entry one concatenation
    of a smaller one, so building them is cheap)."""
    plays = PLAY_ACTIONS[seat]
    out: list[tuple[tuple[Action, ...], ...]] = []
    for k in range(8):
        table: list[tuple[Action, ...]] = [()]
        for v in range(1, 1024):
            top = v.bit_length() - 1
            i = 10 * k + top
            extra = (plays[CARD_OF_BIT[i]],) if i < len(CARD_OF_BIT) else ()
            table.append(table[v ^ 1 << top] + extra)
        out.append(tuple(table))
    return tuple(out)


#: ``WIDE_PLAYS[seat][k][v]``: ``plays_of``'s eight 10-bit chunks (twelve 7-bit lookups cost
#: more; a leader's every card is looked up this way).
WIDE_PLAYS: tuple[tuple[tuple[tuple[Action, ...], ...], ...], ...] = tuple(
    _wide_chunks(s) for s in _SEATS
)


def plays_of(seat: int, m: int) -> tuple[Action, ...]:
    """The ``play`` actions of the cards of mask ``m``, in display order."""
    c = WIDE_PLAYS[seat]
    # Split into 30-bit parts first: shifting and masking one-digit ints is much cheaper than
    # a 78-bit one; one tuple display instead of seven concatenations.
    a = m & 0x3FFFFFFF
    b = m >> 30 & 0x3FFFFFFF
    d = m >> 60
    return (
        *c[0][a & 1023],
        *c[1][a >> 10 & 1023],
        *c[2][a >> 20],
        *c[3][b & 1023],
        *c[4][b >> 10 & 1023],
        *c[5][b >> 20],
        *c[6][d & 1023],
        *c[7][d >> 10],
    )


def follow_plays(seat: int, h: int, trick: tuple[Play, ...], high: int) -> tuple[Action, ...]:
    """The ``play`` actions of hand mask ``h`` following ``trick`` (§4.2); ``high`` is the
    trick's best trump number (0 for none). The Excuse is always allowed."""
    lead = trick[0][1]
    if lead == EXCUSE:
        if len(trick) == 1:  # §4.1: after an Excuse lead the second player is free
            return plays_of(seat, h)
        lead = trick[1][1]
    follow = FOLLOW[seat][lead]
    if follow is not None:
        c0, c1, s0, _ = follow
        v = h >> s0 & 0x3FFF  # the suit's 14 cards: one-digit ints from here
        out = c0[v & 127] + c1[v >> 7]
        if out:
            return out + EXCUSE_PLAY[seat] if h >> EXCUSE_SHIFT else out
    m = h & TRUMPS_ABOVE[high]  # french_tarot D-6: overtrump when able
    if not m:
        m = h & TRUMP_MASK
        if not m:
            return plays_of(seat, h)
    c = CHUNK_PLAYS[seat]
    out = c[8][m >> 56 & 127] + c[9][m >> 63 & 127] + c[10][m >> 70 & 127]
    return out + EXCUSE_PLAY[seat] if h >> EXCUSE_SHIFT else out


def lead_plays(b: FrenchTarotRecord, first: bool, seat: int, h: int) -> tuple[Action, ...]:
    """The ``play`` actions of ``seat`` leading a trick with hand mask ``h`` (``first``: the
    first trick): any card, but at 5 players the first leader may not lead the called suit
    except with the called card itself, unless nothing else can be led (D-14, C-5)."""
    called = b[10]
    if called is not None and first and b[0] == 5:
        allowed = h & ~GROUP_MASK[SUIT[called]] | h & (1 << ORDER[called])
        if allowed:
            return plays_of(seat, allowed)
    return plays_of(seat, h)


#: Legal bids per seat and highest bid so far (index in ``CONTRACTS``, -1 for none).
BID_ACTIONS: tuple[dict[int, tuple[Action, ...]], ...] = tuple(
    {
        high: (
            Action("bid", s, contract="pass"),
            *(Action("bid", s, contract=c) for c in CONTRACTS[high + 1 :]),
        )
        for high in range(-1, len(CONTRACTS))
    }
    for s in _SEATS
)
#: Index of each bid in ``CONTRACTS`` (``pass`` and not yet spoken: -1).
CONTRACT_INDEX: dict[str | None, int] = {None: -1, "pass": -1} | {
    c: i for i, c in enumerate(CONTRACTS)
}
CALL_ACTIONS: tuple[dict[str, Action], ...] = tuple(
    {c: Action("call", s, card=c) for c in TAROT_PACK} for s in _SEATS
)
CHELEM_ACTIONS: tuple[tuple[Action, Action], ...] = tuple(
    (Action("chelem", s, announce=False), Action("chelem", s, announce=True)) for s in _SEATS
)
#: Cards per hand when play starts, and the fewest trumps (the Excuse counting as one) that
#: show a poignée, per player count.
CARDS: dict[int, int] = {n: p.cards for n, p in PARAMS.items()}
POIGNEE_MIN: dict[int, int] = {n: p.poignees[0] for n, p in PARAMS.items()}
_BIDDING, _CALL, _DISCARD, _CHELEM = Phase.BIDDING, Phase.CALL, Phase.DISCARD, Phase.CHELEM


def poignee_actions(b: FrenchTarotRecord, seat: int, h: int) -> tuple[Action, ...]:
    """The poignées ``seat`` may show with hand mask ``h`` in the first trick: before its
    first card and once (C-6, D-17)."""
    players = b[0]
    shown = (h & TRUMP_MASK).bit_count() + (h >> EXCUSE_SHIFT & 1)
    if shown < POIGNEE_MIN[players] or h.bit_count() != CARDS[players]:
        return ()
    if any(p[0] == seat for p in b[14]):
        return ()
    return tuple(
        Action("poignee", seat, cards=cards, amount=size)
        for _, size, cards in poignee_options(cards_of(h), players)
    )


def legal_for(
    b: FrenchTarotRecord,
    hands: int,
    trick: tuple[Play, ...],
    high: int,
    hist: tuple[Any, ...],
    t: int | None,
) -> tuple[Action, ...]:
    """The legal actions of the state with these items."""
    if t is None:
        return ()
    phase = b[3]
    if phase is _PLAY:
        h = hands >> SHIFT[t] & FULL
        if trick:
            legal = follow_plays(t, h, trick, high)
        else:
            legal = lead_plays(b, not hist[H_TRICKS], t, h)
        if not hist[H_TRICKS]:
            legal += poignee_actions(b, t, h)
        return legal
    if phase is _BIDDING:
        return BID_ACTIONS[t][max([CONTRACT_INDEX[x] for x in b[7]])]
    if phase is _CALL:
        calls = CALL_ACTIONS[t]
        return tuple([calls[c] for c in callable_cards(cards_of(hands >> SHIFT[t] & FULL))])
    if phase is _DISCARD:
        size = PARAMS[b[0]].dog
        plain, trumps, need = discard_counts(cards_of(hands >> SHIFT[t] & FULL), size)
        cards = tuple(sorted(plain + (trumps if need else []), key=ORDER.__getitem__))
        return (Action("discard", t, cards=cards, amount=size),)
    if phase is _CHELEM:
        return CHELEM_ACTIONS[t]
    return ()


# ---- questions about a deal (fields or working form) ----------------------------------


def high_bid(s: FrenchTarotState | FrenchTarotRecord) -> int:
    return max((CONTRACTS.index(b) for b in s.bids if b not in (None, "pass")), default=-1)


def legal_cards(s: FrenchTarotState | FrenchTarotRecord) -> list[str]:
    """Cards the seat to act may play now (§4.2 and the trick-1 lead ban)."""
    return [a[2] for a in working(s)[LEGAL] if a[0] == "play"]


def play_restriction(s: FrenchTarotState | FrenchTarotRecord, seat: int) -> PlayRestriction | None:
    """Why a card ``seat`` holds is not legal now (``bot.engine.restriction``), or ``None``."""
    w = working(s)
    if w[TURN] != seat or w[BASE][3] is not _PLAY:
        return None
    hand = hand_of(w, seat)
    if not some_forbidden(hand, legal_cards(w)):
        return None
    called = w[BASE][10]
    if not w[TRICK]:  # any lead is free but the first one at 5 (D-14, C-5)
        if called is None:
            return None
        return PlayRestriction("called_suit_first_trick", {"suit": SUIT[called]})
    return trick_restriction(hand, w[TRICK])


def may_show_poignee(s: FrenchTarotState | FrenchTarotRecord, seat: int) -> bool:
    """Before the seat's first card and only once (C-6)."""
    w = working(s)
    b = w[BASE]
    return hand_mask(w, seat).bit_count() == CARDS[b[0]] and all(p[0] != seat for p in b[14])


def camp(s: FrenchTarotState | FrenchTarotRecord, seat: int) -> bool:
    """True for the attack (taker and hidden partner)."""
    return seat == s.taker or seat == s.partner


def replace_at(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    """``t`` with item ``i`` replaced by ``v``."""
    return t[:i] + (v,) + t[i + 1 :]
