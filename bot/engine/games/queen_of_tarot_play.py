"""Queen of Tarot after the deal: the dealer's discard, declarations and the 25 tricks.

``shared/rules/queen_of_tarot.md`` §3.2–§4: the discard (three cards, no King or honour,
D-9, C-8), declarations in turn from Eldest (C-2, C-3), then trick play with the Fool's
exchange for an empty card, its debt and the end-of-hand settlement of an open debt (§4.4,
D-13, D-14, C-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.actions import Action
from bot.engine.cards import SUITS, TAROT_PACK
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games import queen_of_tarot_state as st
from bot.engine.games.hot_paths import (
    CARD_TUPLE_OF,
    CARDS_OF,
    WITHOUT,
    fool_follow,
    fool_trick,
    play_tables,
)
from bot.engine.games.queen_of_tarot_cards import (
    DISCARD_SIZE,
    FOOL,
    HAND_SIZE,
    PLAYERS,
    POINTS,
    STRENGTH,
    SUIT,
    TRUMP,
    UNDISCARDABLE,
    is_empty,
    legal_cards,
    right,
)
from bot.engine.games.queen_of_tarot_declare import BONUSES, Declaration, declaration
from bot.engine.games.queen_of_tarot_state import (
    Exchange,
    Phase,
    QueenOfTarotState,
    new_state,
    replace_at,
)
from bot.engine.trick import Play, remove_card

Step = tuple[QueenOfTarotState, tuple[Event, ...]]

#: ``Action("play", seat, card=c)``, the ``card_played`` events (read-only data) and the
#: ``(seat, card)`` trick entries, per seat and card, built once.
PLAY, _PLAYED, _ENTRY = play_tables(TAROT_PACK, PLAYERS)
#: The cards of each suit (and of the trumps; never the Fool), to test following at once.
MEMBERS: dict[str, frozenset[str]] = {
    suit: frozenset(c for c in TAROT_PACK if SUIT[c] == suit) for suit in (*SUITS, TRUMP)
}
#: Trick-taking strength per led suit (§4.3): trumps (XX highest) above the led suit, other
#: cards and the Fool -1.
_WIN_KEY: dict[str, dict[str, int]] = {
    led: {
        c: 100 + STRENGTH[c] if SUIT[c] == TRUMP else STRENGTH[c] if SUIT[c] == led else -1
        for c in TAROT_PACK
    }
    for led in MEMBERS
}


def legal_plays(s: QueenOfTarotState, t: int) -> tuple[Action, ...]:
    """§4.2 as actions of seat ``t``, in the order of ``legal_cards`` (plain loops:
    comprehensions are calls in Python 3.11)."""
    led = None
    for _, c in s[st.TRICK]:
        if c != FOOL:
            led = SUIT[c]
            break
    members = None if led is None else MEMBERS[led]
    return fool_follow(s[st.HANDS][t], PLAY[t], members, _TRUMPS, FOOL)


_TRUMPS = MEMBERS[TRUMP]


def discardable(hand: Sequence[str]) -> tuple[str, ...]:
    """Cards the dealer may put in the discard: anything but Kings and honours (D-9)."""
    return tuple(c for c in hand if c not in UNDISCARDABLE)


def discard(s: QueenOfTarotState, seat: int, cards: tuple[str, ...] | None) -> Step:
    """§3.2, C-8: exactly three distinct cards of the dealer's hand, no King, XX, I or Fool."""
    hand = s.hands[seat]
    chosen = tuple(cards or ())
    if len(chosen) != DISCARD_SIZE or len(set(chosen)) != DISCARD_SIZE:
        raise IllegalAction("illegal_action", "discard exactly three different cards")
    missing = [c for c in chosen if c not in hand]
    if missing:
        raise IllegalAction("illegal_action", f"you do not hold {missing[0]}")
    banned = [c for c in chosen if c in UNDISCARDABLE]
    if banned:
        raise IllegalAction(
            "illegal_action", f"Kings and honours may not be discarded ({banned[0]})"
        )
    kept = tuple(c for c in hand if c not in chosen)
    # C-1: the discard counts as won before any trick, in sorted card-code order.
    pile = tuple(sorted(chosen))
    s = s._replace(
        hands=replace_at(s.hands, seat, kept),
        discard=pile,
        piles=replace_at(s.piles, seat, pile),
        phase=Phase.DECLARE,
        turn=s.eldest,
    )
    return s, (Event("discarded", seat, {"count": DISCARD_SIZE}),)


def check_bonus_names(names: tuple[str, ...] | None) -> tuple[str, ...]:
    """C-2: a name given twice or unknown makes the declaration malformed (``bad_action``)."""
    if names is None:
        raise IllegalAction("bad_action", "missing field 'bonuses' for 'declare'")
    unknown = [n for n in names if n not in BONUSES]
    if unknown:
        raise IllegalAction(
            "bad_action", f"unknown bonus {unknown[0]!r}; bonuses are {', '.join(BONUSES)}"
        )
    if len(set(names)) != len(names):
        raise IllegalAction("bad_action", "a bonus may be named only once")
    return names


def declare(s: QueenOfTarotState, seat: int, names: tuple[str, ...]) -> Step:
    """§3.3: the seat declares a set of bonuses (``()`` = nothing), valued by its best
    allocation; a set the hand cannot make is illegal (C-2)."""
    made = declaration(seat, s.hands[seat], names)
    if made is None:
        raise IllegalAction("illegal_action", "your hand cannot make that set of bonuses")
    return declared(s, seat, made, True)


def declared(s: QueenOfTarotState, seat: int, made: Declaration, ev: bool) -> Step:
    """The state after ``seat``'s (legal) declaration ``made``."""
    out: list[Any] = list(s)
    out[st.DECLARATIONS] = (*out[st.DECLARATIONS], made)
    dealer = out[st.DEALER]
    if seat != dealer:  # order: Eldest, Middle, Dealer
        out[st.TURN] = right(seat)
    else:  # §3.4: Eldest leads
        out[st.PHASE] = Phase.PLAY
        out[st.TURN] = right(dealer)
    if not ev:
        return new_state(QueenOfTarotState, out), ()
    event = Event(
        "declared",
        seat,
        {"bonuses": list(made.bonuses), "value": made.value, "cards": list(made.cards)},
    )
    return new_state(QueenOfTarotState, out), (event,)


def play(s: QueenOfTarotState, seat: int, card: str | None) -> Step:
    hand = s.hands[seat]
    if card is None or card not in legal_cards(hand, s.trick):
        if card not in hand:
            raise IllegalAction("illegal_action", f"you do not hold {card}")
        raise IllegalAction(
            "illegal_action", "follow suit if you can, else play a trump (or the Fool)"
        )
    return played(s, seat, card, True)


def played(s: QueenOfTarotState, t: int, card: str, ev: bool) -> Step:
    """The state after seat ``t`` plays the (legal) ``card``; events only when ``ev``."""
    out: list[Any] = list(s)
    hands: list[tuple[str, ...]] = list(out[st.HANDS])
    hand = hands[t]
    hands[t] = WITHOUT[len(hand)][hand.index(card)](hand)
    out[st.HANDS] = tuple(hands)
    trick: tuple[Play, ...] = out[st.TRICK] + _ENTRY[t][card]
    if len(trick) < PLAYERS:
        out[st.TRICK] = trick
        out[st.TURN] = t - 1 if t else PLAYERS - 1  # right(t)
        return new_state(QueenOfTarotState, out), (_PLAYED[t][card] if ev else ())
    return _collect(s, out, trick, _PLAYED[t][card][0], ev)


def _first_empty(pile: Sequence[str]) -> str | None:
    """The earliest-won empty card of a pile (§4.4)."""
    return next((c for c in pile if is_empty(c)), None)


def _move(
    piles: tuple[tuple[str, ...], ...], giver: int, receiver: int, card: str
) -> tuple[tuple[str, ...], ...]:
    piles = replace_at(piles, giver, remove_card(piles[giver], card))
    return replace_at(piles, receiver, (*piles[receiver], card))


def _hand_over(piles: list[tuple[str, ...]], giver: int, receiver: int, card: str) -> None:
    """Move ``card`` from the giver's pile to the end of the receiver's."""
    pile = piles[giver]
    i = pile.index(card)
    piles[giver] = pile[:i] + pile[i + 1 :]
    piles[receiver] += (card,)


def public_card(s: QueenOfTarotState, card: str) -> str | None:
    """``card`` unless it is one of the dealer's unrevealed discards (D-9)."""
    return None if card in s.discard and s.phase is not Phase.DONE else card


def _collect(
    s: QueenOfTarotState, out: list[Any], trick: tuple[Play, ...], first: Event, ev: bool
) -> Step:
    """A complete trick: the winner takes it, then the Fool is settled (§4.4, C-1).

    ``s`` is the state before the trick's last card (``public_card`` reads its discard and
    phase), ``out`` the fields being built."""
    tricks: tuple[tuple[Play, ...], ...] = out[st.TRICKS]
    number = len(tricks) + 1
    winner, fool_seat = fool_trick(trick, FOOL, SUIT, _WIN_KEY)
    piles: list[tuple[str, ...]] = list(out[st.PILES])
    if fool_seat is None:
        piles[winner] += CARD_TUPLE_OF[PLAYERS](trick)
    else:
        piles[winner] += tuple([c for _, c in trick if c != FOOL])
    events: list[Event] = []
    if ev:
        events.append(first)
        cards = CARDS_OF[PLAYERS](trick)
        events.append(new_state(Event, ("trick_won", winner, {"cards": cards, "trick": number})))
    owner: int | None = out[st.FOOL_OWNER]
    creditor: int | None = out[st.CREDITOR]
    exchanges: tuple[Exchange, ...] = out[st.EXCHANGES]
    if fool_seat is not None:
        owner = fool_seat
        piles[owner] += (FOOL,)  # D-14: even on the last trick
        give = _first_empty(piles[owner])
        if give is not None:
            _hand_over(piles, owner, winner, give)
            exchanges = (*exchanges, Exchange(owner, winner, give, number, "exchange"))
            if ev:
                data = {"to": winner, "card": public_card(s, give)}
                events.append(Event("fool_exchange", owner, data))
        else:  # C-1: no empty card yet, so one is owed to this trick's winner
            creditor = winner
            if ev:
                events.append(Event("fool_debt", owner, {"to": winner}))
    elif creditor is not None and owner is not None and winner == owner:
        give = _first_empty(piles[owner])  # C-1: only a trick with an empty card pays
        if give is not None:
            _hand_over(piles, owner, creditor, give)
            exchanges = (*exchanges, Exchange(owner, creditor, give, number, "debt_paid"))
            if ev:
                events.append(Event("fool_debt_paid", owner, {"to": creditor, "card": give}))
            creditor = None
    out[st.TRICK] = ()
    out[st.TRICKS] = tricks + (trick,)
    out[st.WINNERS] = out[st.WINNERS] + (winner,)
    out[st.PILES] = tuple(piles)
    out[st.FOOL_OWNER] = owner
    out[st.CREDITOR] = creditor
    out[st.EXCHANGES] = exchanges
    if number < HAND_SIZE:
        out[st.TURN] = winner
        return new_state(QueenOfTarotState, out), tuple(events)
    out[st.PHASE] = Phase.DONE
    out[st.TURN] = None
    return _end_of_hand(new_state(QueenOfTarotState, out), events, ev)


def _end_of_hand(s: QueenOfTarotState, events: list[Event], ev: bool) -> Step:
    """D-13, C-1: an open debt is paid with the lowest-valued non-Fool card of the debtor's
    pile (earliest won on ties) — or, if the pile holds only the Fool, the Fool itself."""
    debtor, creditor = s.fool_owner, s.creditor
    if debtor is not None and creditor is not None:
        pile = s.piles[debtor]
        others = [(POINTS[c], i, c) for i, c in enumerate(pile) if c != FOOL]
        card, kind = (min(others)[2], "debt_end") if others else (FOOL, "surrender")
        exchange = Exchange(debtor, creditor, card, len(s.tricks), kind)
        s = s._replace(
            piles=_move(s.piles, debtor, creditor, card),
            creditor=None,
            exchanges=(*s.exchanges, exchange),
        )
        if ev:
            name = "fool_surrendered" if kind == "surrender" else "fool_debt_paid"
            events.append(Event(name, debtor, {"to": creditor, "card": card}))
    return s, tuple(events)
