"""Queen of Tarot's deal result and the public records it shares with the views
(``shared/rules/queen_of_tarot.md`` §3.1, §3.3, §5): the bargaining settlement, the
declarations with their payments, the roles, and ``result`` (memoised for the state last
asked about). ``QueenOfTarotRules`` binds ``result`` as its method.
"""

from __future__ import annotations

from typing import Any

from bot.engine.games.hot_paths import last_result
from bot.engine.games.queen_of_tarot_cards import FAIR_SHARE, PLAYERS, pile_points
from bot.engine.games.queen_of_tarot_state import Phase, QueenOfTarotState
from bot.engine.views import DealResult


def settlement_info(s: QueenOfTarotState) -> dict[str, Any] | None:
    """The bargaining settlement that ended the hand, or ``None``."""
    if s.settlement is None:
        return None
    return {
        "session": s.session,
        "deltas": list(s.settlement),
        "paid": [[p, -d] for p, d in enumerate(s.settlement) if d < 0],
        "received": [[p, d] for p, d in enumerate(s.settlement) if d > 0],
    }


def declarations_info(s: QueenOfTarotState) -> tuple[list[dict[str, Any]], list[int]]:
    """Public declarations and their payments: +2X to the declarer, −X to each opponent
    (D-17)."""
    out: list[dict[str, Any]] = []
    deltas = [0] * PLAYERS
    for d in s.declarations:
        out.append(
            {
                "seat": d.seat,
                "bonuses": list(d.bonuses),
                "value": d.value,
                "cards": list(d.cards),
                "parts": [
                    {"name": p.name, "value": p.value, "cards": sorted(p.cards)} for p in d.parts
                ],
            }
        )
        for p in range(PLAYERS):
            deltas[p] += 2 * d.value if p == d.seat else -d.value
    return out, deltas


def roles_info(s: QueenOfTarotState) -> dict[str, int]:
    return {"dealer": s.dealer, "eldest": s.eldest, "middle": s.middle}


def result(self: object, state: QueenOfTarotState) -> DealResult | None:
    if state.phase is not Phase.DONE:
        return None
    return _result_of(state)


def _result(state: QueenOfTarotState) -> DealResult:
    s = state
    sessions = [{"session": e.session, "ended": e.ended, "seat": e.seat} for e in s.sessions]
    if s.settlement is not None:  # §3.1: thrown in; only the bargain is paid
        detail: dict[str, Any] = {
            "ended": "settlement",
            "roles": roles_info(s),
            "sessions": sessions,
            "settlement": settlement_info(s),
        }
        return DealResult("thrown_in", s.settlement, detail)
    declared, declaration_deltas = declarations_info(s)
    points = [pile_points(p) for p in s.piles]
    card_deltas = [p - FAIR_SHARE for p in points]  # §5.1: ±1 per point over/under 43
    deltas = tuple(a + b for a, b in zip(declaration_deltas, card_deltas, strict=True))
    detail = {
        "ended": "played",
        "roles": roles_info(s),
        "sessions": sessions,
        "settlement": None,
        "discard": sorted(s.discard),
        "declarations": declared,
        "declaration_deltas": declaration_deltas,
        "card_points": points,
        "card_deltas": card_deltas,
        "tricks": [s.winners.count(p) for p in range(PLAYERS)],
        "taken": [len(p) for p in s.piles],
        "exchanges": [e._asdict() for e in s.exchanges],
    }
    return DealResult("played", deltas, detail)


#: ``_result`` remembered for the state last asked about (``hot_paths.last_result``).
_result_of = last_result(_result)
