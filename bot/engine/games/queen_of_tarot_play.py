"""Queen of Tarot after the deal: the dealer's discard, declarations and the 25 tricks.

``shared/rules/queen_of_tarot.md`` §3.2–§4: the discard (three cards, no King or honour,
D-9, C-8), declarations in turn from Eldest (C-2, C-3), then trick play with the Fool's
exchange for an empty card, its debt and the end-of-hand settlement of an open debt (§4.4,
D-13, D-14, C-1).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games.queen_of_tarot_cards import (
    DISCARD_SIZE,
    FOOL,
    HAND_SIZE,
    POINTS,
    UNDISCARDABLE,
    is_empty,
    legal_cards,
    right,
    trick_winner,
)
from bot.engine.games.queen_of_tarot_declare import BONUSES, declaration
from bot.engine.games.queen_of_tarot_state import (
    Exchange,
    Phase,
    QueenOfTarotState,
    replace_at,
)
from bot.engine.trick import remove_card

Step = tuple[QueenOfTarotState, tuple[Event, ...]]


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
    s = s._replace(declarations=(*s.declarations, made))
    event = Event(
        "declared",
        seat,
        {"bonuses": list(made.bonuses), "value": made.value, "cards": list(made.cards)},
    )
    if seat != s.dealer:  # order: Eldest, Middle, Dealer
        return s._replace(turn=right(seat)), (event,)
    return s._replace(phase=Phase.PLAY, turn=s.eldest), (event,)  # §3.4: Eldest leads


def play(s: QueenOfTarotState, seat: int, card: str | None) -> Step:
    hand = s.hands[seat]
    if card is None or card not in legal_cards(hand, s.trick):
        if card not in hand:
            raise IllegalAction("illegal_action", f"you do not hold {card}")
        raise IllegalAction(
            "illegal_action", "follow suit if you can, else play a trump (or the Fool)"
        )
    hands = replace_at(s.hands, seat, remove_card(hand, card))
    trick = (*s.trick, (seat, card))
    events: list[Event] = [Event("card_played", seat, {"card": card})]
    if len(trick) < len(s.hands):
        return s._replace(hands=hands, trick=trick, turn=right(seat)), tuple(events)
    return _collect(s._replace(hands=hands, trick=trick), events)


def _first_empty(pile: Sequence[str]) -> str | None:
    """The earliest-won empty card of a pile (§4.4)."""
    return next((c for c in pile if is_empty(c)), None)


def _move(
    piles: tuple[tuple[str, ...], ...], giver: int, receiver: int, card: str
) -> tuple[tuple[str, ...], ...]:
    piles = replace_at(piles, giver, remove_card(piles[giver], card))
    return replace_at(piles, receiver, (*piles[receiver], card))


def public_card(s: QueenOfTarotState, card: str) -> str | None:
    """``card`` unless it is one of the dealer's unrevealed discards (D-9)."""
    return None if card in s.discard and s.phase is not Phase.DONE else card


def _collect(s: QueenOfTarotState, events: list[Event]) -> Step:
    """A complete trick: the winner takes it, then the Fool is settled (§4.4, C-1)."""
    trick = s.trick
    number = len(s.tricks) + 1
    winner = trick_winner(trick)
    piles = replace_at(s.piles, winner, s.piles[winner] + tuple(c for _, c in trick if c != FOOL))
    events.append(Event("trick_won", winner, {"cards": [c for _, c in trick], "trick": number}))
    owner, creditor, exchanges = s.fool_owner, s.creditor, s.exchanges
    fool_seat = next((p for p, c in trick if c == FOOL), None)
    if fool_seat is not None:
        owner = fool_seat
        piles = replace_at(piles, owner, (*piles[owner], FOOL))  # D-14: even on the last trick
        give = _first_empty(piles[owner])
        if give is not None:
            piles = _move(piles, owner, winner, give)
            exchanges = (*exchanges, Exchange(owner, winner, give, number, "exchange"))
            events.append(
                Event("fool_exchange", owner, {"to": winner, "card": public_card(s, give)})
            )
        else:  # C-1: no empty card yet, so one is owed to this trick's winner
            creditor = winner
            events.append(Event("fool_debt", owner, {"to": winner}))
    elif creditor is not None and winner == owner:
        assert owner is not None
        give = _first_empty(piles[owner])  # C-1: only a trick with an empty card pays
        if give is not None:
            piles = _move(piles, owner, creditor, give)
            exchanges = (*exchanges, Exchange(owner, creditor, give, number, "debt_paid"))
            events.append(Event("fool_debt_paid", owner, {"to": creditor, "card": give}))
            creditor = None
    s = s._replace(
        trick=(),
        tricks=(*s.tricks, trick),
        winners=(*s.winners, winner),
        piles=piles,
        fool_owner=owner,
        creditor=creditor,
        exchanges=exchanges,
        turn=winner,
    )
    if len(s.tricks) < HAND_SIZE:
        return s, tuple(events)
    return _end_of_hand(s, events)


def _end_of_hand(s: QueenOfTarotState, events: list[Event]) -> Step:
    """D-13, C-1: an open debt is paid with the lowest-valued non-Fool card of the debtor's
    pile (earliest won on ties) — or, if the pile holds only the Fool, the Fool itself."""
    s = s._replace(phase=Phase.DONE, turn=None)
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
        name = "fool_surrendered" if kind == "surrender" else "fool_debt_paid"
        events.append(Event(name, debtor, {"to": creditor, "card": card}))
    return s, tuple(events)
