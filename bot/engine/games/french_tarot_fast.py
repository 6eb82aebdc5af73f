"""French Tarot's simulation path: ``apply`` and ``apply_trusted`` with their inline card
play (``french_tarot_flow.follow_on`` and ``end_trick`` done in place, hot tables per seat
and card), and the auction and chelem shortcuts of ``apply_trusted`` (no legality check,
events only when asked for). ``FrenchTarotRules`` binds ``apply`` and ``apply_trusted`` as
its methods, so a call costs nothing more than a method defined in the class.
"""

from __future__ import annotations

from typing import Any

from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, TAROT_PACK
from bot.engine.games import french_tarot_flow as flow
from bot.engine.games.french_tarot_cards import (
    CONTRACTS,
    DOG_TAKEN,
    EXCUSE_SHIFT,
    FULL,
    PARAMS,
    TRUMP_MASK,
    TRUMP_NO,
    TRUMPS_ABOVE,
)
from bot.engine.games.french_tarot_flow import (
    CARD_PLAYED_ONLY,
    NEXT,
    PLAY_ENTRY,
    STRENGTH,
    Step,
    end_trick,
    step_bid,
    step_call,
    step_chelem,
    step_play,
)
from bot.engine.games.french_tarot_state import (
    BID_ACTIONS,
    CHELEM_ACTIONS,
    CHUNK_PLAYS,
    CONTRACT_INDEX,
    EXCUSE_PLAY,
    FOLLOW,
    POIGNEE_MIN,
    SEAT_BIT,
    SHIFT,
    WIDE_PLAYS,
    FrenchTarotRecord,
    FrenchTarotState,
    Phase,
    follow_plays,
    new_state,
    plays_of,
    poignee_actions,
    working,
)
from bot.engine.games.hot_paths import new_tuple

AnyState = FrenchTarotState | FrenchTarotRecord
_new = new_tuple
_PLAY, _CHELEM = Phase.PLAY, Phase.CHELEM
_CONTRACT_COUNT = len(CONTRACTS)
_SEATS = range(5)


#: Per seat and card: its bit in the hands item, its trump number, its trick entry (a
#: one-entry trick to append) and its events when it neither ends a trick nor is called.
PLAY_INFO: tuple[dict[str, tuple[int, int, tuple[tuple[int, str]], tuple[Any, ...]]], ...] = tuple(
    {
        c: (SEAT_BIT[seat][c], TRUMP_NO[c], PLAY_ENTRY[seat][c], CARD_PLAYED_ONLY[seat][c])
        for c in TAROT_PACK
    }
    for seat in range(5)
)
#: Per player count and seat: the next seat, its hand's offset, follow tables and Excuse.
NEXT_INFO: dict[int, tuple[tuple[Any, ...], ...]] = {
    n: tuple((nt, SHIFT[nt], FOLLOW[nt], EXCUSE_PLAY[nt], CHUNK_PLAYS[nt]) for nt in NEXT[n])
    for n in NEXT
}


def _follow_on(
    s: FrenchTarotState,
    b: FrenchTarotRecord,
    t: int,
    bit: int,
    trump: int,
    trick: tuple[tuple[int, str], ...],
) -> FrenchTarotState:
    """After seat ``t`` played the card of ``bit`` (trump number ``trump``) into ``trick``
    (which now holds it), mid-trick: the next seat follows (``flow.follow_on``, inline)."""
    hands = s[1] ^ bit
    high: int = s[3]
    if trump > high:
        high = trump
    nt, shift, follows, excuse, chunks = NEXT_INFO[b[0]][t]
    h = hands >> shift & 0x3FFFFFFFFFFFFFFFFFFF  # FULL: the 78 cards
    lead = trick[0][1]
    follow = follows[lead]
    if follow is not None:  # a plain suit led
        c0, c1, s0, s1 = follow
        legal = c0[h >> s0 & 127] + c1[h >> s1 & 127]
        if not legal:
            legal = follow_plays(nt, h, trick, high)
        elif h >> 77:  # EXCUSE_SHIFT
            legal += excuse
    elif lead != EXCUSE:  # a trump led: overtrump when able (D-6), else any trump
        m = h & TRUMPS_ABOVE[high] or h & TRUMP_MASK
        if m:
            legal = chunks[8][m >> 56 & 127] + chunks[9][m >> 63 & 127] + chunks[10][m >> 70]
            if h >> 77:
                legal += excuse
        else:
            legal = plays_of(nt, h)
    else:
        legal = follow_plays(nt, h, trick, high)
    hist = s[4]
    # the first trick: poignées before a first card, if enough trumps (and the Excuse)
    if not hist[0] and (h >> 56).bit_count() >= POIGNEE_MIN[b[0]]:
        legal += poignee_actions(b, nt, h)
    return new_state((b, hands, trick, high, hist, s[5], nt, legal))


#: ``TRUMPS_ABOVE`` over the 21 trumps alone (shifted down to bit 0, the 21).
TRUMPS_ABOVE_21: tuple[int, ...] = tuple(m >> 56 for m in TRUMPS_ABOVE)
#: Per seat and card led: ``FOLLOW``'s two chunk tables of the suit led (its low and high
#: seven cards) and the suit's offset in the hands item (None for a trump or the Excuse led).
FOLLOW_IN_HANDS: tuple[dict[str, tuple[Any, ...] | None], ...] = tuple(
    {c: None if f is None else (f[0], f[1], SHIFT[seat] + f[2]) for c, f in FOLLOW[seat].items()}
    for seat in _SEATS
)
#: Per player count, seat and card: ``PLAY_INFO``'s bit, trump number and trick entry, then
#: the next seat, its hand's offset, ``FOLLOW_IN_HANDS`` tables, the offset of its Excuse
#: bit, its Excuse play and its chunk plays. Indexed by the player count (a tuple: cheaper
#: to index than a dict; empty below three players).
FAST_PLAY: tuple[tuple[dict[str, tuple[Any, ...]], ...], ...] = tuple(
    tuple(
        {
            c: (
                *PLAY_INFO[seat][c][:3],
                nt,
                SHIFT[nt],
                FOLLOW_IN_HANDS[nt],
                SHIFT[nt] + EXCUSE_SHIFT,
                EXCUSE_PLAY[nt],
                CHUNK_PLAYS[nt],
            )
            for c in TAROT_PACK
        }
        for seat, nt in enumerate(NEXT[n])
    )
    if n in NEXT
    else ()
    for n in range(max(NEXT) + 1)
)
#: The trump of each trump number (1 the Petit … 21).
TRUMP_CARD: dict[int, str] = {no: c for c, no in TRUMP_NO.items() if no}
#: The number of finished tricks before the last one, per player count.
LAST_TRICK: tuple[int, ...] = tuple(PARAMS[n].cards - 1 if n in PARAMS else -1 for n in range(6))


def _trusted_step(state: AnyState, a: Action, ev: bool) -> Step:
    """``apply_trusted`` beyond its inline card play."""
    s = state if type(state) is FrenchTarotState else working(state)
    if a[0] != "play":
        return _trusted(s, a, ev)
    return _card(s, a[1], a[2], ev)  # type: ignore[arg-type]


def _card(s: FrenchTarotState, t: int, card: str, ev: bool) -> Step:
    """Seat ``t`` plays ``card``: mid-trick inline (``_follow_on``), else ``step_play``."""
    b: FrenchTarotRecord = s[0]
    bit, trump, entry, played = PLAY_INFO[t][card]
    trick = s[2] + entry
    if len(trick) < b[0] and card != b[10]:
        return _follow_on(s, b, t, bit, trump, trick), (played if ev else ())
    return step_play(s, t, card, ev)


def _trusted_bid(s: FrenchTarotState, a: Action) -> Step:
    """``flow.step_bid`` without events; a bid before the dealer's inline (the next seat
    is offered ``pass`` and every contract above the highest bid so far)."""
    b: FrenchTarotRecord = s[0]
    t: int = a[1]
    contract: str = a[5]  # type: ignore[assignment]
    bids: tuple[str | None, ...] = b[7]
    bids = bids[:t] + (contract,) + bids[t + 1 :]
    # the highest bid so far, read off the legal bids offered (pass + each higher one)
    high = CONTRACT_INDEX[contract]
    offered = _CONTRACT_COUNT - len(s[7])
    if offered > high:
        high = offered
    if t == b[1]:  # the dealer speaks last: the auction ends
        if high < 0 or b[0] == 5 or not b[2] or CONTRACTS[high] in DOG_TAKEN:
            return step_bid(s, t, contract, False)
        # The usual end (``step_bid``, ``after_call``, ``after_discard``): a taker without
        # a card to call or a dog to take, whom the chelem option asks first (C-7).
        top = CONTRACTS[high]
        taker = bids.index(top)
        b = _new(FrenchTarotRecord, (*b[:3], _CHELEM, *b[4:7], bids, taker, top, *b[10:]))
        legal = CHELEM_ACTIONS[taker]
        return new_state((b, s[1], s[2], s[3], s[4], s[5], taker, legal)), ()
    b = _new(FrenchTarotRecord, b[:7] + (bids,) + b[8:])
    nt = NEXT[b[0]][t]
    return new_state((b, s[1], s[2], s[3], s[4], s[5], nt, BID_ACTIONS[nt][high])), ()


def _trusted_chelem(s: FrenchTarotState, a: Action) -> Step:
    """``flow.step_chelem`` without events; inline when no card was called (3 or 4 players):
    play starts, led by the taker after an announced chelem, else by the dealer's right."""
    b: FrenchTarotRecord = s[0]
    announce = bool(a[7])
    taker: int | None = b[8]
    if b[10] is not None or taker is None:
        return step_chelem(s, a[1], announce, False)
    leader = taker if announce else NEXT[b[0]][b[1]]
    b = _new(FrenchTarotRecord, (*b[:3], _PLAY, *b[4:11], None, b[12], announce, *b[14:]))
    hist: tuple[Any, ...] = s[4]
    hist = (hist[0], hist[1], hist[2], leader, hist[4])
    h = s[1] >> SHIFT[leader] & FULL
    legal = plays_of(leader, h)
    # the first trick: poignées before a first card, if enough trumps (and the Excuse)
    if not hist[0] and (h >> 56).bit_count() >= POIGNEE_MIN[b[0]]:
        legal += poignee_actions(b, leader, h)
    return new_state((b, s[1], s[2], s[3], hist, s[5], leader, legal)), ()


def _trusted(s: FrenchTarotState, a: Action, ev: bool) -> Step:
    """Run a legal action's transition (multi-card choices are checked on the way)."""
    kind = a[0]
    if kind == "play":
        return step_play(s, a[1], a[2], ev)  # type: ignore[arg-type]
    if kind == "bid":
        return step_bid(s, a[1], a[5], ev)  # type: ignore[arg-type]
    if kind == "call":
        return step_call(s, a[1], a[2], ev)  # type: ignore[arg-type]
    if kind == "chelem":
        return step_chelem(s, a[1], bool(a[7]), ev)
    return flow.apply(s, a, ev)


def apply(self: object, state: AnyState, action: Action) -> Step:
    # Literal item numbers below: the working form's BASE 0, HANDS 1, TRICK 2, HIGH 3,
    # HIST 4, CALLED_BY 5, LEGAL 7 (``french_tarot_state``), read in the hot path.
    if action not in state[7]:  # a record given field by field lands here too
        return flow.apply(working(state), action)  # says why not, or checks a choice
    s: FrenchTarotState = state  # type: ignore[assignment]
    if action[0] != "play":
        return _trusted(s, action, True)
    return _card(s, action[1], action[2], True)  # type: ignore[arg-type]


def apply_trusted(self: object, state: AnyState, action: Action, events: bool = False) -> Step:
    """``apply`` for simulations: ``action`` must be legal in ``state`` (a single-card or
    bidding action from ``legal_actions`` is not checked again; multi-card choices are);
    events are built only when ``events`` is true (else ``()``)."""
    if events or action[0] != "play":
        if type(state) is FrenchTarotState and not events:
            if action[0] == "bid":
                return _trusted_bid(state, action)
            if action[0] == "chelem":
                return _trusted_chelem(state, action)
        return _trusted_step(state, action, events)
    # A card play without events, the simulations' every step: ``flow.follow_on`` and
    # ``flow.end_trick`` (but the last trick) inline, literal item numbers as in ``apply``.
    s: FrenchTarotState = state  # type: ignore[assignment]
    try:
        b: FrenchTarotRecord = s[0]
        n: int = b[0]
    except TypeError:  # a record given field by field: its item 0 is an int, not a record
        return _trusted_step(state, action, events)
    t: int = action[1]
    card: str = action[2]  # type: ignore[assignment]
    # (typed for the checker: an annotation alone costs nothing at run time)
    nt: int
    shift: int
    legal: tuple[Action, ...]
    bit, trump, entry, nt, shift, follows, xs, excuse, chunks = FAST_PLAY[n][t][card]
    trick = s[2] + entry
    if n == 5 and card == b[10]:  # the called card: the partnership becomes public
        return step_play(s, t, card, False)
    hands: int = s[1] ^ bit
    hist: tuple[Any, ...] = s[4]
    if len(trick) < n:  # the next seat follows
        high: int = s[3]
        if trump > high:
            high = trump
        lead = trick[0][1]
        follow = follows[lead]
        if follow is not None:  # a plain suit led: its 14 cards read off the hands item
            c0, c1, at = follow
            suit = hands >> at & 0x3FFF  # one big shift, then one-digit ints
            legal = c0[suit & 127] + c1[suit >> 7]
            if legal and hands >> xs & 1:  # the Excuse
                legal += excuse
        elif lead == EXCUSE:
            legal = follow_plays(nt, hands >> shift & 0x3FFFFFFFFFFFFFFFFFFF, trick, high)
        else:
            legal = ()
        if not legal:  # a trump led or a suit not held: overtrump when able (D-6)
            v = hands >> (shift + 56) & 0x3FFFFF  # the 21 trumps, then the Excuse
            m = v & TRUMPS_ABOVE_21[high] or v & 0x1FFFFF
            if m:
                legal = chunks[8][m & 127] + chunks[9][m >> 7 & 127] + chunks[10][m >> 14]
                if v >> 21:
                    legal += excuse
            else:  # no trump either: any card (``plays_of`` inline: only plain cards and
                # the Excuse are left, in bits 0-55 and 77)
                wide = WIDE_PLAYS[nt]
                lo = hands >> shift & 0x3FFFFFFF
                mid = hands >> (shift + 30) & 0x3FFFFFF
                legal = (
                    *wide[0][lo & 1023],
                    *wide[1][lo >> 10 & 1023],
                    *wide[2][lo >> 20],
                    *wide[3][mid & 1023],
                    *wide[4][mid >> 10 & 1023],
                    *wide[5][mid >> 20],
                )
                if v:
                    legal += excuse
        if not hist[0]:  # the first trick: poignées before a first card, if enough trumps
            h = hands >> shift & 0x3FFFFFFFFFFFFFFFFFFF
            if (h >> 56).bit_count() >= POIGNEE_MIN[n]:  # the trumps and the Excuse
                legal += poignee_actions(b, nt, h)
        return new_state((b, hands, trick, high, hist, s[5], nt, legal)), ()
    tricks: tuple[Any, ...] = hist[0]
    if len(tricks) == LAST_TRICK[n]:
        return end_trick(b, hands, trick, hist, s[5], None)
    # §4.3: the best trump, else the best card of the suit led (the Excuse's last-trick
    # rule only matters in the last trick).
    high = s[3]
    winner: int = trick[0][0]
    if trump > high:  # the last card is the best trump played
        winner = t
    elif high:  # an earlier trump is: the best one's player (the trick's item 3 says which)
        best_trump = TRUMP_CARD[high]
        for seat, c in trick:
            if c == best_trump:
                winner = seat
                break
    else:
        lead = trick[0][1]
        strength = STRENGTH[lead if lead != EXCUSE else trick[1][1]]
        best = -1
        for seat, c in trick:
            p = strength[c]
            if p > best:
                winner, best = seat, p
    won: tuple[int, ...] | None = hist[2]
    if won is not None:  # kept counts (``french_tarot_state.won_of``)
        won = won[:winner] + (won[winner] + 1,) + won[winner + 1 :]
    hist = (tricks + (trick,), hist[1] + (winner,), won, winner, False)
    # the leader's every card (``plays_of``, inline)
    m = hands >> SHIFT[winner] & 0x3FFFFFFFFFFFFFFFFFFF
    c = WIDE_PLAYS[winner]
    lo = m & 0x3FFFFFFF
    mid = m >> 30 & 0x3FFFFFFF
    m >>= 60
    legal = (
        *c[0][lo & 1023],
        *c[1][lo >> 10 & 1023],
        *c[2][lo >> 20],
        *c[3][mid & 1023],
        *c[4][mid >> 10 & 1023],
        *c[5][mid >> 20],
        *c[6][m & 1023],
        *c[7][m >> 10],
    )
    return new_state((b, hands, (), 0, hist, s[5], winner, legal)), ()
