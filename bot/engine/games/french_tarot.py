"""French Tarot (FFT rules) for 3, 4 and 5 players, with the called King at 5.

Implements ``shared/rules/french_tarot.md`` (decisions D-1…D-23, clarifications C-1…C-12).
Play goes counter-clockwise: the next seat is ``right(s) = (s - 1) mod N``. Card data and
trick rules live in ``french_tarot_cards``, the state in ``french_tarot_state``, the
transitions in ``french_tarot_flow`` and scoring in ``french_tarot_scoring``.

Fast core: states keep hands as bit masks and carry their legal actions, computed once when
built (``french_tarot_state``), so ``legal_actions`` and ``to_act`` are item getters; every
action a seat can be offered is built once, so a legal set is a few table lookups; ``apply``
checks membership in the state's legal set instead of recomputing legality, and does a
mid-trick card play inline; ``apply_trusted`` is the simulation path (no check, events only
when asked for). Search: ``PublicView.history`` and ``sample_world`` (``french_tarot_worlds``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any, ClassVar, cast

from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, TAROT_PACK
from bot.engine.errors import IllegalAction
from bot.engine.games import french_tarot_flow as flow
from bot.engine.games import french_tarot_worlds as worlds
from bot.engine.games.french_tarot_cards import (
    BIT,
    CONTRACTS,
    DOG_TAKEN,
    EXCUSE_BIT,
    EXCUSE_SHIFT,
    FULL,
    GROUP,
    PARAMS,
    PETIT,
    TRUMP_MASK,
    TRUMP_NO,
    TRUMPS_ABOVE,
    callable_cards,
    discard_counts,
    is_trump,
    poignee_options,
    rank,
    right,
    sort_key,
    suit_of,
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
    BASE,
    BID_ACTIONS,
    CALLED_BY,
    CHELEM_ACTIONS,
    CHUNK_PLAYS,
    CONTRACT_INDEX,
    EXCUSE_PLAY,
    FOLLOW,
    H_LEADER,
    H_TRICKS,
    H_WINNERS,
    HANDS,
    HIST,
    LEGAL,
    SEAT_BIT,
    SHIFT,
    TRICK,
    TURN,
    WIDE_PLAYS,
    FrenchTarotRecord,
    FrenchTarotState,
    Phase,
    follow_plays,
    hand_of,
    legal_cards,
    make,
    may_show_poignee,
    play_restriction,
    plays_of,
    poignee_actions,
    won_of,
    working,
)
from bot.engine.restriction import PlayRestriction, with_restriction
from bot.engine.rules import OptionSpec, Rules, leaders
from bot.engine.views import DealResult, PublicView, SeatView

AnyState = FrenchTarotState | FrenchTarotRecord

# ---- the fast core's tables: every action a seat can be offered, built once ----------------

_SEATS = range(5)
_new = cast("Callable[[type[Any], Iterable[Any]], Any]", tuple.__new__)  # pyright: ignore[reportUnknownMemberType]
_PLAY, _BIDDING, _CALL, _DISCARD, _CHELEM, _DONE = (
    Phase.PLAY,
    Phase.BIDDING,
    Phase.CALL,
    Phase.DISCARD,
    Phase.CHELEM,
    Phase.DONE,
)
_PETIT_BIT = BIT[PETIT]
_CONTRACT_COUNT = len(CONTRACTS)


def _deal_layout(players: int, dealer: int) -> tuple[tuple[Any, ...], Any]:
    """Deck positions of each seat's cards and of the dog (§3.1, D-21), as item getters."""
    p = PARAMS[players]
    seats: list[list[int]] = [[] for _ in range(players)]
    dog: list[int] = []
    order = [(dealer - 1 - k) % players for k in range(players)]
    i = 0
    for r in range(p.cards // p.packet):
        for k, seat in enumerate(order):
            seats[seat].extend(range(i, i + p.packet))
            i += p.packet
            if k == 0 and r < p.dog:
                dog.append(i)
                i += 1
    return tuple(itemgetter(*ix) for ix in seats), itemgetter(*dog)


_LAYOUT = {(n, d): _deal_layout(n, d) for n in PARAMS for d in range(n)}
#: A new deal's history item (no trick played) and first speaker's bids, built once.
_NEW_HIST = {n: ((), (), None, 0, False) for n in PARAMS}
_OPEN_BIDS = tuple(BID_ACTIONS[seat][-1] for seat in range(5))
#: A new deal's base record from its turn field on (turn, bids, the defaults).
_BASE_REST = {n: (None, (None,) * n, *FrenchTarotRecord._field_defaults.values()) for n in PARAMS}


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
    if not hist[0]:  # the first trick: poignées before a first card
        legal += poignee_actions(b, nt, h)
    return _new(FrenchTarotState, (b, hands, trick, high, hist, s[5], nt, legal))


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
#: bit, its Excuse play and its chunk plays.
FAST_PLAY: dict[int, tuple[dict[str, tuple[Any, ...]], ...]] = {
    n: tuple(
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
    for n in NEXT
}
#: The number of finished tricks before the last one, per player count.
LAST_TRICK: dict[int, int] = {n: p.cards - 1 for n, p in PARAMS.items()}


def _trusted_step(state: AnyState, a: Action, ev: bool) -> Step:
    """``apply_trusted`` beyond its inline card play."""
    s = state if type(state) is FrenchTarotState else working(state)
    if a[0] != "play":
        return _trusted(s, a, ev)
    t: int = a[1]
    card: str = a[2]  # type: ignore[assignment]
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
    high = max(_CONTRACT_COUNT - len(s[7]), CONTRACT_INDEX[contract])
    if t == b[1]:  # the dealer speaks last: the auction ends
        if high < 0 or b[0] == 5 or not b[2] or CONTRACTS[high] in DOG_TAKEN:
            return step_bid(s, t, contract, False)
        # The usual end (``step_bid``, ``after_call``, ``after_discard``): a taker without
        # a card to call or a dog to take, whom the chelem option asks first (C-7).
        top = CONTRACTS[high]
        taker = bids.index(top)
        b = _new(FrenchTarotRecord, (*b[:3], _CHELEM, *b[4:7], bids, taker, top, *b[10:]))
        legal = CHELEM_ACTIONS[taker]
        return _new(FrenchTarotState, (b, s[1], s[2], s[3], s[4], s[5], taker, legal)), ()
    b = _new(FrenchTarotRecord, b[:7] + (bids,) + b[8:])
    nt = NEXT[b[0]][t]
    return _new(FrenchTarotState, (b, s[1], s[2], s[3], s[4], s[5], nt, BID_ACTIONS[nt][high])), ()


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
    if not hist[0]:  # the first trick: poignées before a first card
        legal += poignee_actions(b, leader, h)
    return _new(FrenchTarotState, (b, s[1], s[2], s[3], hist, s[5], leader, legal)), ()


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


class FrenchTarotRules(Rules):
    """French Tarot, FFT rules (3–5 players)."""

    game_id: ClassVar[str] = "french_tarot"
    title: ClassVar[str] = "French Tarot"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
    state_type: ClassVar[type] = FrenchTarotState  # decodes the record's JSON (see its __new__)
    options_spec: ClassVar[Mapping[str, OptionSpec]] = {
        # french_tarot D-20: a fixed number of played deals; null means 2 × players.
        "deals": OptionSpec(None, nullable=True, minimum=1, maximum=100),
        "chelem": OptionSpec(True, kind="bool"),  # D-19
    }
    action_fields: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "bid": {"contract": "contract"},
        "call": {"card": "card"},
        "discard": {"cards": "cards"},
        "chelem": {"announce": "announce"},
        "poignee": {"cards": "cards"},
        "play": {"card": "card"},
    }
    multi_card_types: ClassVar[frozenset[str]] = frozenset({"discard", "poignee"})

    # ---- cards ---------------------------------------------------------------------
    def pack(self, players: int) -> tuple[str, ...]:
        return TAROT_PACK

    def card_sort_key(self, state: Any, card: str) -> tuple[int, int]:
        return sort_key(card)

    # ---- deal ----------------------------------------------------------------------
    def new_deal(
        self, players: int, options: Mapping[str, Any], deck: Sequence[str], dealer: int
    ) -> FrenchTarotState:
        """Canonical deal (§3.1, D-21): packets from the dealer's right, dog cards between."""
        seats, dog_of = _LAYOUT[players, dealer]
        hands = 0
        petit_sec = False
        bit = BIT.__getitem__
        for p, cards_of_seat in enumerate(seats):
            h = sum(map(bit, cards_of_seat(deck)))
            # french_tarot §3.2, C-10, D-16: a petit sec cancels the deal before bidding.
            if h & TRUMP_MASK == _PETIT_BIT and not h & EXCUSE_BIT:
                petit_sec = True
            hands |= h << SHIFT[p]
        base = _new(
            FrenchTarotRecord,
            (players, dealer, bool(options.get("chelem", True)), _BIDDING, (), tuple(dog_of(deck)))
            + _BASE_REST[players],
        )
        hist = _NEW_HIST[players]
        if petit_sec:
            base = base._replace(phase=_DONE, outcome="redeal", deltas=(0,) * players)
            return make(base, hands, (), 0, hist, None, None)
        turn = (dealer - 1) % players
        # Nobody has spoken: every bid is open to the first speaker (``legal_for``).
        return _new(FrenchTarotState, (base, hands, (), 0, hist, None, turn, _OPEN_BIDS[turn]))

    #: Whose turn it is: item 6 of the working form and of the record alike.
    to_act = cast(Any, itemgetter(TURN))

    # ---- legality ------------------------------------------------------------------
    def legal_cards(self, s: AnyState) -> list[str]:
        """Cards the seat to act may play now (§4.2 and the trick-1 lead ban)."""
        return legal_cards(s)

    def play_restriction(self, state: AnyState, seat: int) -> PlayRestriction | None:
        """Why a card ``seat`` holds is not legal now (``bot.engine.restriction``)."""
        return play_restriction(state, seat)

    #: The legal actions, computed once when the state was built (its item 7).
    legal_actions = cast(Any, itemgetter(LEGAL))

    def random_choice(self, view: SeatView, template: Action, rng: Any) -> Action:
        hand = view.hand
        k = template.amount or 0
        if template.type == "discard":
            plain, trumps, need = discard_counts(hand, k)
            chosen = rng.sample(plain, k - need) + rng.sample(trumps, need)
        else:
            cards = list(template.cards or ())
            chosen = cards if EXCUSE in cards else rng.sample(cards, k)
        return Action(template.type, template.seat, cards=tuple(chosen))

    # ---- transitions ---------------------------------------------------------------
    def apply(self, state: AnyState, action: Action) -> Step:
        # Literal item numbers below: the working form's BASE 0, HANDS 1, TRICK 2, HIGH 3,
        # HIST 4, CALLED_BY 5, LEGAL 7 (``french_tarot_state``), read in the hot path.
        if action not in state[7]:  # a record given field by field lands here too
            return flow.apply(working(state), action)  # says why not, or checks a choice
        s: FrenchTarotState = state  # type: ignore[assignment]
        if action[0] != "play":
            return _trusted(s, action, True)
        t: int = action[1]
        card: str = action[2]  # type: ignore[assignment]
        b: FrenchTarotRecord = s[0]
        bit, trump, entry, played = PLAY_INFO[t][card]
        trick = s[2] + entry
        if len(trick) < b[0] and card != b[10]:
            return _follow_on(s, b, t, bit, trump, trick), played
        return step_play(s, t, card, True)

    def apply_trusted(self, state: AnyState, action: Action, events: bool = False) -> Step:
        """``apply`` for simulations: ``action`` must be legal in ``state`` (a single-card or
        bidding action from ``legal_actions`` is not checked again; multi-card choices are);
        events are built only when ``events`` is true (else ``()``)."""
        if action[0] != "play" or type(state) is not FrenchTarotState or events:
            if type(state) is FrenchTarotState and not events:
                if action[0] == "bid":
                    return _trusted_bid(state, action)
                if action[0] == "chelem":
                    return _trusted_chelem(state, action)
            return _trusted_step(state, action, events)
        # A card play without events, the simulations' every step: ``flow.follow_on`` and
        # ``flow.end_trick`` (but the last trick) inline, literal item numbers as in ``apply``.
        s: FrenchTarotState = state
        t: int = action[1]
        card: str = action[2]  # type: ignore[assignment]
        b: FrenchTarotRecord = s[0]
        n: int = b[0]
        bit, trump, entry, nt, shift, follows, xs, excuse, chunks = FAST_PLAY[n][t][card]
        trick = s[2] + entry
        if card == b[10]:  # the called card: the partnership becomes public
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
                else:  # no trump either: any card
                    legal = plays_of(nt, hands >> shift & 0x3FFFFFFFFFFFFFFFFFFF)
            if not hist[0]:  # the first trick: poignées before a first card
                legal += poignee_actions(b, nt, hands >> shift & 0x3FFFFFFFFFFFFFFFFFFF)
            return _new(FrenchTarotState, (b, hands, trick, high, hist, s[5], nt, legal)), ()
        tricks: tuple[Any, ...] = hist[0]
        if len(tricks) == LAST_TRICK[n]:
            return end_trick(b, hands, trick, hist, s[5], None)
        # §4.3: the best trump, else the best card of the suit led (the Excuse's last-trick
        # rule only matters in the last trick).
        lead = trick[0][1]
        strength = STRENGTH[lead if lead != EXCUSE else trick[1][1]]
        winner: int = trick[0][0]
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
        return _new(FrenchTarotState, (b, hands, (), 0, hist, s[5], winner, legal)), ()

    # ---- results -------------------------------------------------------------------
    def result(self, state: AnyState) -> DealResult | None:
        b = state[BASE] if type(state) is FrenchTarotState else state
        outcome, deltas = b[22], b[23]
        if outcome is None or deltas is None:
            return None
        if outcome != "played":
            reason = "petit_sec" if outcome == "redeal" else "all_passed"
            return DealResult(outcome, deltas, {"reason": reason})
        return DealResult(outcome, deltas, dict(b[24] or {}))

    def default_action(self, state: AnyState) -> Action:
        """Timeouts (rules README): pass, the first callable card, the lowest legal discard,
        no chelem, the lowest legal card (the Excuse last)."""
        s = working(state)
        t = s[TURN]
        if t is None:
            raise IllegalAction("deal_over", "this deal is over")
        phase = s[BASE][3]
        if phase is _BIDDING:
            return Action("bid", t, contract="pass")
        if phase is _CALL:
            return Action("call", t, card=callable_cards(hand_of(s, t))[0])
        if phase is _DISCARD:
            dog = PARAMS[s[BASE][0]].dog
            plain, trumps, need = discard_counts(hand_of(s, t), dog)
            low = sorted(plain, key=rank)[: len(plain) if need else dog]
            chosen = low + sorted(trumps, key=rank)[:need]
            return Action("discard", t, cards=tuple(chosen))
        if phase is _CHELEM:
            return Action("chelem", t, announce=False)
        cards = legal_cards(s)
        best = min(cards, key=lambda c: (c == EXCUSE, is_trump(c), rank(c), GROUP[suit_of(c)]))
        return Action("play", t, card=best)

    # ---- search --------------------------------------------------------------------
    def sample_world(self, view: SeatView, rng: Any) -> FrenchTarotState:
        """A full deal consistent with everything ``view``'s seat knows, the cards it cannot
        see dealt uniformly under every constraint the public history implies
        (``french_tarot_worlds``)."""
        return worlds.sample_world(view, rng)

    # ---- match ---------------------------------------------------------------------
    def next_dealer(self, dealer: int, players: int) -> int:
        return right(dealer, players)  # C-12: every deal passes the deal to the right

    def counts_toward_end(self, result: DealResult) -> bool:
        return result.outcome == "played"  # D-20, C-12: only played deals count

    def match_end(
        self,
        totals: Sequence[int],
        deals_played: int,
        options: Mapping[str, Any],
        last: DealResult,
    ) -> tuple[int, ...] | None:
        limit = options.get("deals") or 2 * len(totals)
        if deals_played < limit:
            return None
        return leaders(totals)  # ties → co-winners

    # ---- observations --------------------------------------------------------------
    def _public_info(self, s: FrenchTarotState) -> dict[str, Any]:
        b: FrenchTarotRecord = s[BASE]
        phase, dog, called, taker = b[3], b[5], b[10], b[8]
        called_by = s[CALLED_BY]
        done = phase is _DONE
        # The dog is shown after the call (§3.4: the King is called before the dog is seen).
        dog_public = b[9] in DOG_TAKEN and phase is not _BIDDING and phase is not _CALL
        # A called card seen in the revealed dog tells everyone the taker is alone (C-9).
        in_dog = dog_public and called is not None and called in dog
        shown_partner = called_by is not None or done or in_dog
        info: dict[str, Any] = {
            "bids": [[p, x] for p, x in enumerate(b[7]) if x is not None],
            "taker": taker,
            "contract": b[9],
            "called": called,
            # D-13: the partner (or a solo) is public only once the called card is played.
            "partner": (called_by if called_by != taker else None)
            if called_by is not None
            else (b[11] if done else None),
            "alone": (called_by == taker if called_by is not None else b[11] is None)
            if shown_partner and called is not None
            else None,
            "dog": sorted(dog) if dog_public or done else None,
            "dog_size": len(dog),
            "discarded_trumps": sorted(c for c in b[12] if is_trump(c)),
            "chelem": b[13],
            "poignees": [
                {"seat": seat, "level": level, "cards": sorted(cards)}
                for seat, level, cards in b[14]
            ],
            "leader": s[HIST][H_LEADER] if phase is _PLAY else None,
        }
        if done and b[22] == "played":
            info["discard"] = sorted(b[12])
        return info

    def observe_public(self, state: AnyState) -> PublicView:
        s = working(state)
        b: FrenchTarotRecord = s[BASE]
        hands = s[HANDS]
        hist = s[HIST]
        tricks = hist[H_TRICKS]
        return PublicView(
            game_id=self.game_id,
            phase=str(b[3]),
            players=b[0],
            dealer=b[1],
            to_act=s[TURN],
            hand_sizes=tuple([(hands >> SHIFT[p] & FULL).bit_count() for p in range(b[0])]),
            trick=s[TRICK],
            tricks_won=won_of(hist, b[0]),
            tricks_played=len(tricks),
            last_trick=tricks[-1] if tricks else (),
            last_winner=hist[H_WINNERS][-1] if hist[H_WINNERS] else None,
            info=self._public_info(s),
            result=self.result(s),
            history=worlds.history(s),
        )

    def observe(self, state: AnyState, seat: int) -> SeatView:
        s = working(state)
        b: FrenchTarotRecord = s[BASE]
        legal: tuple[Action, ...] = s[LEGAL] if s[TURN] == seat else ()
        info: dict[str, Any] = {}
        if seat == b[8] and b[12]:
            info["discard"] = list(b[12])
        hand = hand_of(s, seat)
        if b[3] is _PLAY and may_show_poignee(s, seat):
            info["poignee_levels"] = [o[1] for o in poignee_options(hand, b[0])]
        if s[TURN] == seat and b[3] is _PLAY:
            with_restriction(info, play_restriction(s, seat))
        return SeatView(seat=seat, hand=hand, legal=legal, public=self.observe_public(s), info=info)


RULES = FrenchTarotRules()
