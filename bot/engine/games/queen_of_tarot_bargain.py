"""Queen of Tarot bargaining sessions (``shared/rules/queen_of_tarot.md`` §3.1).

Three sessions per hand, after packet rounds 2, 3 and 4. Each seat has a standing position
(none, a demand or an offer); Eldest speaks first and the turn moves right. A demand or an
offer settles the hand as soon as the standing demands and offers are equal and positive
(D-6, C-4); ``continue`` ends the session at once; three passes in a row end it (D-7). A pass
keeps the seat's standing position (D-5). Every session starts afresh (C-5).
"""

from __future__ import annotations

from typing import Any

from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games import queen_of_tarot_state as st
from bot.engine.games.queen_of_tarot_cards import PLAYERS, SESSIONS, right
from bot.engine.games.queen_of_tarot_state import (
    Call,
    Phase,
    QueenOfTarotState,
    SessionEnd,
    deal_round,
    new_state,
    replace_at,
)

PASS, DEMAND, OFFER, CONTINUE = "pass", "demand", "offer", "continue"
CALLS: tuple[str, ...] = (PASS, DEMAND, OFFER, CONTINUE)

Step = tuple[QueenOfTarotState, tuple[Event, ...]]


def position_of(value: int) -> tuple[str, int | None]:
    """``("none", None)``, ``("demand", d)`` or ``("offer", o)`` from a signed position."""
    if value > 0:
        return DEMAND, value
    if value < 0:
        return OFFER, -value
    return "none", None


def ranges(value: int, top: int) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """Legal ``(demand, offer)`` amounts as inclusive ``(low, high)`` ranges (§3.1, C-6):
    anything 1..top from no position; only a lower demand, or any offer, after a demand;
    only a higher offer after an offer (no demand)."""
    if value > 0:  # demand d: demand less, or switch to an offer
        demand = (1, value - 1) if value > 1 else None
        return demand, (1, top)
    if value < 0:  # offer o: offer more only
        return None, ((-value + 1, top) if -value < top else None)
    return (1, top), (1, top)


def totals(positions: tuple[int, ...]) -> tuple[int, int]:
    """``(sum of standing demands, sum of standing offers)``."""
    demanded = offered = 0
    for p in positions:
        if p > 0:
            demanded += p
        else:
            offered -= p
    return demanded, offered


def apply_call(s: QueenOfTarotState, seat: int, call: str, amount: int | None) -> Step:
    """Apply one bargaining call by the seat to act, or raise ``IllegalAction``."""
    if call in (DEMAND, OFFER):
        check_amount(s, seat, call, amount)
    else:
        amount = None
    return call_made(s, seat, call, amount, True)


def check_amount(s: QueenOfTarotState, seat: int, call: str, amount: int | None) -> None:
    """Raise ``IllegalAction`` unless ``amount`` is a legal demand or offer now (§3.1, C-6)."""
    demand, offer = ranges(s.positions[seat], s.max_bargain)
    allowed = demand if call == DEMAND else offer
    if amount is None or allowed is None or not allowed[0] <= amount <= allowed[1]:
        raise IllegalAction("illegal_action", _why(s, seat, call, allowed))


def call_made(s: QueenOfTarotState, seat: int, call: str, amount: int | None, ev: bool) -> Step:
    """The state after a legal call (``amount`` ``None`` for a pass or continue); events
    only when ``ev``."""
    out: list[Any] = list(s)
    session: int = out[st.SESSION]
    out[st.CALLS] = out[st.CALLS] + (new_state(Call, (session, seat, call, amount)),)
    events: list[Event] = (
        [new_state(Event, ("bargain_call", seat, {"call": call, "amount": amount}))] if ev else []
    )
    if call == CONTINUE:
        return _end_session(out, seat, CONTINUE, events, ev)
    if call == PASS:
        passes = out[st.PASSES] + 1
        if passes == PLAYERS:  # D-7: a full cycle with no new position
            return _end_session(out, seat, "passes", events, ev)
        out[st.PASSES] = passes
        out[st.TURN] = right(seat)
        return new_state(QueenOfTarotState, out), tuple(events)
    assert amount is not None
    positions = replace_at(out[st.POSITIONS], seat, amount if call == DEMAND else -amount)
    out[st.POSITIONS] = positions
    out[st.PASSES] = 0
    demanded, offered = totals(positions)
    if demanded == offered > 0:  # D-6, C-4: settle at once, every standing position paid
        deltas = tuple(positions)
        out[st.PHASE] = Phase.DONE
        out[st.TURN] = None
        out[st.SETTLEMENT] = deltas
        out[st.SESSIONS] = (*out[st.SESSIONS], SessionEnd(session, "settled", seat))
        if ev:
            events.append(Event("settled", data={"session": session, "deltas": list(deltas)}))
        return new_state(QueenOfTarotState, out), tuple(events)
    out[st.TURN] = right(seat)
    return new_state(QueenOfTarotState, out), tuple(events)


def _end_session(out: list[Any], seat: int, how: str, events: list[Event], ev: bool) -> Step:
    """The session ends without a settlement: positions lapse, the next packets are dealt."""
    session: int = out[st.SESSION]
    if ev:
        events.append(Event("session_over", seat, {"session": session, "ended": how}))
    r = out[st.ROUNDS] + 1
    hands, stock = deal_round(out[st.HANDS], out[st.STOCK], out[st.DEALER], r)
    out[st.HANDS] = hands
    out[st.STOCK] = stock
    out[st.ROUNDS] = r
    out[st.POSITIONS] = (0,) * PLAYERS
    out[st.PASSES] = 0
    out[st.SESSIONS] = (*out[st.SESSIONS], SessionEnd(session, how, seat))
    if ev:
        sizes = [len(h) for h in hands]
        events.append(Event("packets_dealt", data={"round": r, "hand_sizes": sizes}))
    if session < SESSIONS:  # C-5: a fresh session, Eldest to speak
        out[st.SESSION] = session + 1
        out[st.TURN] = right(out[st.DEALER])
    else:
        out[st.PHASE] = Phase.DISCARD
        out[st.TURN] = out[st.DEALER]
    return new_state(QueenOfTarotState, out), tuple(events)


def _why(s: QueenOfTarotState, seat: int, call: str, allowed: tuple[int, int] | None) -> str:
    kind, amount = position_of(s.positions[seat])
    if allowed is None:
        if call == DEMAND and kind == OFFER:
            return f"you have offered {amount}: you may not demand in this session"
        if call == DEMAND:
            return "your demand is already 1: you cannot demand less"
        return f"your offer of {amount} is already the most allowed"
    low, high = allowed
    return f"{'demand' if call == DEMAND else 'offer'} a whole number from {low} to {high}"
