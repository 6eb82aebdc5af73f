"""Queen of Tarot's observations (``shared/rules/queen_of_tarot.md``): the public view with
its JSON ``info`` (the bargaining, settlement, declarations, the Fool's debt, the exchanges),
a seat's view (its discard, the sets it may declare) and the public history of a hand.
``QueenOfTarotRules`` binds ``observe_public`` and ``observe`` as its methods; the fields are
listed in ``queen_of_tarot``'s module docstring. Their ``self`` is typed as the engine's
``Rules`` contract, which has every method they call: ``queen_of_tarot`` imports this module,
so this one never imports it back (ARCHITECTURE §5, no import circles).
"""

from __future__ import annotations

from typing import Any

from bot.engine.actions import Action
from bot.engine.games import queen_of_tarot_bargain as bargain
from bot.engine.games import queen_of_tarot_play as flow
from bot.engine.games.queen_of_tarot_cards import DISCARD_SIZE, DISPLAY_ORDER, PLAYERS, led_suit
from bot.engine.games.queen_of_tarot_declare import best_set, declaration, legal_sets
from bot.engine.games.queen_of_tarot_results import declarations_info, roles_info, settlement_info
from bot.engine.games.queen_of_tarot_state import Phase, QueenOfTarotState
from bot.engine.restriction import with_restriction
from bot.engine.rules import Rules
from bot.engine.views import PublicView, SeatView, once_per_state


def bargain_info(s: QueenOfTarotState) -> dict[str, Any]:
    live = s.phase is Phase.BARGAIN
    last: list[dict[str, Any] | None] = [None] * PLAYERS
    for c in s.calls:
        if c.session == s.session:
            last[c.seat] = {"call": c.call, "amount": c.amount}
    positions: list[dict[str, Any]] = []
    for p in range(PLAYERS):
        kind, amount = bargain.position_of(s.positions[p])
        positions.append({"position": kind, "amount": amount, "last": last[p] if live else None})
    demanded, offered = bargain.totals(s.positions)
    ranges: dict[str, list[int] | None] = {"demand": None, "offer": None}
    if live and s.turn is not None:
        demand, offer = bargain.ranges(s.positions[s.turn], s.max_bargain)
        ranges = {
            "demand": None if demand is None else list(demand),
            "offer": None if offer is None else list(offer),
        }
    return {
        "session": s.session if live else None,
        "positions": positions,
        "demanded": demanded,
        "offered": offered,
        "passes": s.passes,
        "to_speak": s.turn if live else None,
        "ranges": ranges,
        "calls": [{"session": c[0], "seat": c[1], "call": c[2], "amount": c[3]} for c in s.calls],
        "sessions": [{"session": e[0], "ended": e[1], "seat": e[2]} for e in s.sessions],
    }


def public_info(s: QueenOfTarotState) -> dict[str, Any]:
    declared, declaration_deltas = declarations_info(s)
    return {
        "roles": roles_info(s),
        "packets": s.rounds,
        "max_bargain": s.max_bargain,
        "bargain": bargain_info(s),
        "settlement": settlement_info(s),
        "discarded": bool(s.discard),
        "declarations": declared,
        "declaration_deltas": declaration_deltas,
        "fool": {
            "played_by": s.fool_owner,
            "debtor": s.fool_owner if s.creditor is not None else None,
            "creditor": s.creditor,
        },
        "exchanges": [{**e._asdict(), "card": flow.public_card(s, e.card)} for e in s.exchanges],
        "taken": [len(p) for p in s.piles],
        "led": led_suit(s.trick),
    }


@once_per_state
def observe_public(self: Rules, state: QueenOfTarotState) -> PublicView:
    s = state
    return PublicView(
        game_id=self.game_id,
        phase=str(s.phase),
        players=PLAYERS,
        dealer=s.dealer,
        to_act=s.turn,
        hand_sizes=tuple(len(h) for h in s.hands),
        trick=s.trick,
        tricks_won=tuple(s.winners.count(p) for p in range(PLAYERS)),
        tricks_played=len(s.tricks),
        last_trick=s.tricks[-1] if s.tricks else (),
        last_winner=s.winners[-1] if s.winners else None,
        info=public_info(s),
        result=self.result(s),
        history=history(s),
    )


def observe(self: Rules, state: QueenOfTarotState, seat: int) -> SeatView:
    s = state
    hand = tuple(sorted(s.hands[seat], key=DISPLAY_ORDER.__getitem__))
    legal = self.legal_actions(s) if s.turn == seat else ()
    info: dict[str, Any] = {}
    if seat == s.dealer and s.discard:
        info["discard"] = list(s.discard)
    if s.phase is Phase.DECLARE and all(d.seat != seat for d in s.declarations):
        options: list[dict[str, Any]] = []
        for names in legal_sets(s.hands[seat]):
            made = declaration(seat, s.hands[seat], names)
            assert made is not None
            options.append({"bonuses": list(names), "value": made.value, "cards": list(made.cards)})
        info["declarable"] = options
        info["best"] = list(best_set(s.hands[seat]))
    with_restriction(info, self.play_restriction(s, seat))
    return SeatView(seat=seat, hand=hand, legal=legal, public=self.observe_public(s), info=info)


def history(s: QueenOfTarotState) -> tuple[Action, ...]:
    """Every action of the hand in order, in its public form: the bargaining calls, the
    dealer's discard masked (``cards=None``, ``amount=3``), the declarations, the cards."""
    out = [Action(c.call, c.seat, amount=c.amount) for c in s.calls]
    if s.discard:
        out.append(Action("discard", s.dealer, amount=DISCARD_SIZE))
    out += [Action("declare", d.seat, bonuses=d.bonuses) for d in s.declarations]
    out += [flow.PLAY[t][c] for trick in (*s.tricks, s.trick) for t, c in trick]
    return tuple(out)
