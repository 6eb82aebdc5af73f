"""Early French Tarot's state and transitions: ``EarlyFrenchTarotState`` (a NamedTuple in
its JSON form), legal actions, ``apply``, the simulation path ``apply_trusted`` (no legality
check, events only when asked for), the trick's collection with the Fool's settlement (§4.4)
and the deal result. ``EarlyFrenchTarotRules`` binds these functions as its methods, so a
call costs nothing more than a method defined in the class. ``apply`` types its ``self`` as
the engine's ``Rules`` contract (``legal_actions``, ``checked``): ``early_french_tarot``
imports this module, so this one never imports it back, not even for a type (ARCHITECTURE §5,
no import circles).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from bot.engine.actions import Action
from bot.engine.cards import TAROT_PACK
from bot.engine.events import Event
from bot.engine.games.early_french_tarot_cards import (
    FOOL,
    HAND_SIZE,
    HONOUR_POINTS,
    MAX_PLAYERS,
    MEMBERS,
    SUIT_OF,
    TRUMPS,
    WIN_KEY,
    card_to_give,
    honour_cards,
)
from bot.engine.games.hot_paths import (
    CARD_TUPLE_OF,
    CARDS_OF,
    NO_LEGAL,
    WITHOUT,
    LegalMemo,
    fool_follow,
    fool_trick,
    last_result,
    new_tuple,
    play_tables,
)
from bot.engine.rules import Rules
from bot.engine.trick import Play
from bot.engine.views import DealResult


class EarlyFrenchTarotState(NamedTuple):
    """One hand. Immutable; ``apply`` returns a new one (a NamedTuple: the JSON form
    ``bot.engine.codec`` stores; successors are built positionally, not by ``_replace``).

    ``piles`` holds the cards each seat owns, in the order won (the order D-8 needs); the
    Fool sits in its player's pile from the end of its trick. ``fool_owner`` is whoever played
    it and ``fool_creditor`` the seat still owed a card (D-10), if any. ``exchanges`` lists
    every card handed over as ``(giver, receiver, card, trick number, kind)``.
    """

    players: int
    dealer: int
    every_card_scores: bool
    hands: tuple[tuple[str, ...], ...]
    set_aside: tuple[str, ...]
    turn: int | None
    trick: tuple[Play, ...] = ()
    tricks: tuple[tuple[Play, ...], ...] = ()
    trick_winners: tuple[int, ...] = ()
    piles: tuple[tuple[str, ...], ...] = ()
    fool_owner: int | None = None
    fool_creditor: int | None = None
    exchanges: tuple[tuple[int, int, str, int, str], ...] = ()


_HANDS, _TURN, _TRICK, _TRICKS, _WINNERS, _PILES = 3, 5, 6, 7, 8, 9
_OWNER, _CREDITOR, _EXCHANGES = 10, 11, 12

_new = new_tuple
#: The memo of ``legal_actions`` (see ``hot_paths.LegalMemo``).
_last_legal: LegalMemo = NO_LEGAL

#: Per seat and card: the play ``Action``, its ``card_played`` events, its trick entry.
PLAY, _PLAYED, _ENTRY = play_tables(TAROT_PACK, MAX_PLAYERS)


def legal_actions(self: object, state: EarlyFrenchTarotState) -> tuple[Action, ...]:
    global _last_legal
    last = _last_legal
    if last[0] is state:
        return last[1]
    # §4.2 as actions, in the order of ``legal_cards`` (plain loops: comprehensions are
    # calls in Python 3.11).
    t = state[5]
    if t is None:
        legal = ()
    else:
        led = None
        for _, c in state[6]:
            if c != FOOL:
                led = SUIT_OF[c]
                break
        legal = _plays(state[3][t], PLAY[t], led)
    _last_legal = (state, legal)
    return legal


def _plays(hand: tuple[str, ...], play: dict[str, Action], led: str | None) -> tuple[Action, ...]:
    """§4.2 as actions, in the order of ``legal_cards`` (``led``: the suit led, None on a
    free lead)."""
    return fool_follow(hand, play, None if led is None else MEMBERS[led], TRUMPS, FOOL)


def apply(
    self: Rules, state: EarlyFrenchTarotState, action: Action
) -> tuple[EarlyFrenchTarotState, tuple[Event, ...]]:
    last = _last_legal
    if action not in (last[1] if last[0] is state else self.legal_actions(state)):
        action = self.checked(state, action)
    return apply_trusted(self, state, action, True)


def apply_trusted(
    self: object, state: EarlyFrenchTarotState, action: Action, events: bool = False
) -> tuple[EarlyFrenchTarotState, tuple[Event, ...]]:
    """``apply`` for simulations: ``action`` must be one of ``legal_actions(state)``
    (not checked); events are built only when ``events`` is true."""
    # (Every action of this game is a card play; ``apply`` runs it here too, with events.)
    t: int = action[1]
    card: str = action[2]  # type: ignore[assignment]
    out: list[Any] = list(state)
    hands: list[tuple[str, ...]] = list(out[3])
    hand = hands[t]
    hands[t] = WITHOUT[len(hand)][hand.index(card)](hand)
    out[3] = tuple(hands)
    trick: tuple[Play, ...] = out[6] + _ENTRY[t][card]
    n: int = out[0]
    if len(trick) < n:
        nxt = t + 1 if t + 1 < n else 0
        out[6] = trick
        out[5] = nxt
        nxt_state: EarlyFrenchTarotState = _new(EarlyFrenchTarotState, out)
        lead = trick[0][1]
        if lead != FOOL:  # (after a Fool lead, ``legal_actions`` finds the suit led)
            # The next seat's legal actions while the trick is at hand (the caller's next
            # ``legal_actions`` finds them): §4.2, as in ``legal_actions``.
            global _last_legal
            _last_legal = (nxt_state, _plays(hands[nxt], PLAY[nxt], SUIT_OF[lead]))
        return nxt_state, (_PLAYED[t][card] if events else ())
    return _collect(out, trick, _PLAYED[t][card][0], events)


def result(self: object, state: EarlyFrenchTarotState) -> DealResult | None:
    if state.turn is not None:
        return None
    return _result_of(state)


# ---- transitions (the action is legal) ---------------------------------------------------

Step = tuple[EarlyFrenchTarotState, tuple[Event, ...]]


def _collect(out: list[Any], trick: tuple[Play, ...], played: Event, ev: bool) -> Step:
    """Resolve a complete trick: the winner takes it, then the Fool is settled (§4.4)."""
    tricks: tuple[tuple[Play, ...], ...] = out[_TRICKS]
    if not ev and out[_CREDITOR] is None:
        # A simulation's trick without the Fool and no debt: take it, nothing to settle.
        lead = trick[0][1]
        if lead != FOOL:
            keys = WIN_KEY[SUIT_OF[lead]]
            winner, best = -1, -1
            for seat, c in trick:
                if c == FOOL:
                    break
                k = keys[c]
                if k > best:
                    best, winner = k, seat
            else:
                piles = list(out[_PILES])
                piles[winner] += CARD_TUPLE_OF[len(trick)](trick)
                out[_PILES] = tuple(piles)
                out[_TRICK] = ()
                out[_TRICKS] = tricks + (trick,)
                out[_WINNERS] = out[_WINNERS] + (winner,)
                out[_TURN] = winner if any(out[_HANDS]) else None
                return _new(EarlyFrenchTarotState, out), ()
    number = len(tricks) + 1
    winner, fool_seat = fool_trick(trick, FOOL, SUIT_OF, WIN_KEY)
    piles: list[tuple[str, ...]] = list(out[_PILES])
    if fool_seat is None:
        piles[winner] += CARD_TUPLE_OF[len(trick)](trick)
    else:
        piles[winner] += tuple([c for _, c in trick if c != FOOL])
    events: list[Event] = []
    if ev:
        events.append(played)
        cards = CARDS_OF[len(trick)](trick)
        events.append(_new(Event, ("trick_won", winner, {"cards": cards, "trick": number})))
    owner: int | None = out[_OWNER]
    creditor: int | None = out[_CREDITOR]
    exchanges: tuple[tuple[int, int, str, int, str], ...] = out[_EXCHANGES]
    if fool_seat is not None:
        owner = fool_seat
        had_cards = bool(piles[owner])
        piles[owner] += (FOOL,)  # the Fool returns (D-9)
        if had_cards:
            give = card_to_give(piles[owner])
            _hand_over(piles, owner, winner, give)
            exchanges = (*exchanges, (owner, winner, give, number, "exchange"))
            if ev:
                events.append(Event("fool_exchange", owner, {"to": winner, "card": give}))
        else:  # D-10: nothing won yet, so the card is owed to this trick's winner
            creditor = winner
            if ev:
                events.append(Event("fool_debt", owner, {"to": winner}))
    elif creditor is not None and owner is not None and winner == owner:
        give = card_to_give(piles[owner])  # C-2: right after the debtor's first trick
        _hand_over(piles, owner, creditor, give)
        exchanges = (*exchanges, (owner, creditor, give, number, "debt_paid"))
        if ev:
            events.append(Event("fool_debt_paid", owner, {"to": creditor, "card": give}))
        creditor = None
    out[_TRICK] = ()
    out[_TRICKS] = tricks + (trick,)
    out[_WINNERS] = out[_WINNERS] + (winner,)
    out[_OWNER] = owner
    out[_TURN] = winner
    if any(out[_HANDS]):  # 12 tricks in a real deal
        out[_PILES] = tuple(piles)
        out[_CREDITOR] = creditor
        out[_EXCHANGES] = exchanges
        return _new(EarlyFrenchTarotState, out), tuple(events)
    if creditor is not None and owner is not None:
        # D-10, C-2: the debtor won no trick at all, so the Fool itself is surrendered.
        _hand_over(piles, owner, creditor, FOOL)
        exchanges = (*exchanges, (owner, creditor, FOOL, number, "surrender"))
        if ev:
            events.append(Event("fool_surrendered", owner, {"to": creditor, "card": FOOL}))
        creditor = None
    out[_PILES] = tuple(piles)
    out[_CREDITOR] = creditor
    out[_EXCHANGES] = exchanges
    out[_TURN] = None
    s = _new(EarlyFrenchTarotState, out)
    if not ev:
        return s, ()
    res = result(None, s)
    assert res is not None
    events.append(_new(Event, ("deal_over", None, {"deltas": list(res.deltas)})))
    return s, tuple(events)


def _hand_over(piles: list[tuple[str, ...]], giver: int, receiver: int, card: str) -> None:
    """Move ``card`` from the giver's pile to the end of the receiver's."""
    pile = piles[giver]
    i = pile.index(card)
    piles[giver] = pile[:i] + pile[i + 1 :]
    piles[receiver] += (card,)


def _result(s: EarlyFrenchTarotState) -> DealResult:
    """The score sheet (``hand_score`` per pile, inline: simulations ask it every deal)."""
    every: bool = s[2]
    piles: tuple[tuple[str, ...], ...] = s[_PILES]
    winners: tuple[int, ...] = s[_WINNERS]
    cards: list[int] = []
    card_points: list[int] = []
    honour_points: list[int] = []
    honours: list[list[str]] = []
    tricks: list[int] = []
    deltas: list[int] = []
    honour = HONOUR_POINTS.__getitem__
    for p, pile in enumerate(piles):
        count = len(pile)
        points = count if every else (count - HAND_SIZE if count > HAND_SIZE else 0)
        honour_total = sum(map(honour, pile))
        cards.append(count)
        card_points.append(points)
        honour_points.append(honour_total)
        honours.append(honour_cards(pile))
        tricks.append(winners.count(p))
        deltas.append(points + honour_total)
    detail = {
        "cards": cards,
        "card_points": card_points,
        "honour_points": honour_points,
        "honours": honours,
        "tricks": tricks,
        "every_card_scores": every,
        "exchanges": [list(x) for x in s[_EXCHANGES]],
    }
    return DealResult("played", tuple(deltas), detail)


#: ``_result`` remembered for the state last asked about (``hot_paths.last_result``).
_result_of = last_result(_result)
