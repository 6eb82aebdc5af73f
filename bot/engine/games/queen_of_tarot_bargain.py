"""Queen of Tarot bargaining sessions (``shared/rules/queen_of_tarot.md`` §3.1).

Three sessions per hand, after packet rounds 2, 3 and 4. Each seat has a standing position
(none, a demand or an offer); Eldest speaks first and the turn moves right. A demand or an
offer settles the hand as soon as the standing demands and offers are equal and positive
(D-6, C-4); ``continue`` ends the session at once; three passes in a row end it (D-7). A pass
keeps the seat's standing position (D-5). Every session starts afresh (C-5).
"""

from __future__ import annotations

from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games.queen_of_tarot_cards import PLAYERS, SESSIONS, right
from bot.engine.games.queen_of_tarot_state import (
    Call,
    Phase,
    QueenOfTarotState,
    SessionEnd,
    deal_round,
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
    return sum(p for p in positions if p > 0), -sum(p for p in positions if p < 0)


def apply_call(s: QueenOfTarotState, seat: int, call: str, amount: int | None) -> Step:
    """Apply one bargaining call by the seat to act, or raise ``IllegalAction``."""
    if call in (DEMAND, OFFER):
        demand, offer = ranges(s.positions[seat], s.max_bargain)
        allowed = demand if call == DEMAND else offer
        if amount is None or allowed is None or not allowed[0] <= amount <= allowed[1]:
            raise IllegalAction("illegal_action", _why(s, seat, call, allowed))
    else:
        amount = None
    s = s._replace(calls=(*s.calls, Call(s.session, seat, call, amount)))
    events: list[Event] = [Event("bargain_call", seat, {"call": call, "amount": amount})]
    if call == CONTINUE:
        return _end_session(s, seat, CONTINUE, events)
    if call == PASS:
        passes = s.passes + 1
        if passes == PLAYERS:  # D-7: a full cycle with no new position
            return _end_session(s, seat, "passes", events)
        return s._replace(passes=passes, turn=right(seat)), tuple(events)
    assert amount is not None
    positions = replace_at(s.positions, seat, amount if call == DEMAND else -amount)
    s = s._replace(positions=positions, passes=0)
    demanded, offered = totals(positions)
    if demanded == offered > 0:  # D-6, C-4: settle at once, every standing position paid
        deltas = tuple(positions)
        s = s._replace(
            phase=Phase.DONE,
            turn=None,
            settlement=deltas,
            sessions=(*s.sessions, SessionEnd(s.session, "settled", seat)),
        )
        events.append(Event("settled", data={"session": s.session, "deltas": list(deltas)}))
        return s, tuple(events)
    return s._replace(turn=right(seat)), tuple(events)


def _end_session(s: QueenOfTarotState, seat: int, how: str, events: list[Event]) -> Step:
    """The session ends without a settlement: positions lapse, the next packets are dealt."""
    events.append(Event("session_over", seat, {"session": s.session, "ended": how}))
    r = s.rounds + 1
    hands, stock = deal_round(s.hands, s.stock, s.dealer, r)
    s = s._replace(
        hands=hands,
        stock=stock,
        rounds=r,
        positions=(0,) * PLAYERS,
        passes=0,
        sessions=(*s.sessions, SessionEnd(s.session, how, seat)),
    )
    events.append(Event("packets_dealt", data={"round": r, "hand_sizes": [len(h) for h in hands]}))
    if s.session < SESSIONS:  # C-5: a fresh session, Eldest to speak
        return s._replace(session=s.session + 1, turn=s.eldest), tuple(events)
    return s._replace(phase=Phase.DISCARD, turn=s.dealer), tuple(events)


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
