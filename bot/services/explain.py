"""Why the computer did it: a short public reason for a computer player's decision (issue 33).

The rule (what a reason may say). A reason is shown on the public table, to every player, while
the deal is being played, so it says **only what the decision itself and the public table
already say**, never anything drawn from the computer's hidden hand:

- a bid or a pass is told against the public bidding ("outbids Bea (Prise)", "opens the
  bidding"), which every player sees anyway, or by what the game's rules make it mean (La
  Morte's drop: aiming to take no trick; Loser's Game's bid: the points it expects to take;
  Queen of Tarot's demand and offer: the price of giving the hand up);
- a called King, a trump suit named, a discard ("puts 6 cards aside") say what the action
  made public, and a discard never names its cards;
- a card play gets a line only when the game's rules made it public *why* it was forced,
  from the trick on the table: a trump on a suit it could not follow (``trump``/``overtrump``
  restrictions of ``bot.engine.restriction``): that shows the seat has no card of the suit
  led, as the card itself does to anyone who knows the rules;

The issue's example ("Garde — 4 trumps with the 21 and the Excuse") would give the computer's
hidden hand away mid-deal, and Trionfi never shows the hands after a deal either (the deal
summary shows scores, not hands), so no reason ever names a card the computer holds: the only
card a reason may name is the one its own action puts on the table (a called King).

Reasons are computed here from the engine's observations in the worker that decides (``PlayStep``),
stored with the move in the table's log (``payload["why"]``, so a replay after a restart shows the
same line) and handed to the Discord layer as an ``explained`` event; ``bot.ui.text.explain``
words them in the reader's language.
"""

from __future__ import annotations

from typing import Any

from bot.engine.actions import Action
from bot.engine.events import Event
from bot.engine.rules import Rules
from bot.engine.views import SeatView

#: Action types that bid (an amount, a contract, a bargaining demand or offer).
BIDS = frozenset({"bid", "demand", "offer"})
#: Action types that pass on the bidding (French Tarot's pass is a ``bid`` of ``"pass"``).
PASSES = frozenset({"pass"})
#: Queen of Tarot's bargaining moves and their reasons.
BARGAIN = {"demand": "demand", "offer": "offer", "pass": "wait", "continue": "play_on"}
#: Restriction codes under which a card play shows the seat could not follow the suit led,
#: and the reason each gives.
FORCED = {"trump": "ruff", "overtrump": "overruff"}
#: Cards a seat may play whatever it holds (so they show nothing), per game (default: the
#: Excuse/Fool).
EXEMPT: dict[str, tuple[str, ...]] = {"la_morte": ("T13",)}
#: The event the Discord layer reads (``Event(EXPLAINED, seat, reason)``).
EXPLAINED = "explained"
#: Every key a reason may hold.
KEYS = frozenset({"k", "prior", "card", "suit", "n", "led"})


def _is_pass(a: Action) -> bool:
    return a.type in PASSES or (a.type == "bid" and a.contract == "pass")


def _last_bid(view: SeatView) -> Action | None:
    """The latest bid of another seat in this deal (public: ``PublicView.history``)."""
    for a in reversed(view.public.history):
        if a.type in BIDS and not _is_pass(a) and a.seat != view.seat:
            return a
    return None


def reason(rules: Rules, view: SeatView, action: Action) -> dict[str, Any] | None:
    """The public reason for ``action`` decided from ``view`` (None: nothing to explain).

    The result holds only codes, seats, amounts and the action's own public fields (see the
    module docstring); it is JSON, stored in the log with the move.
    """
    if len(view.legal) == 1 and action.type not in rules.multi_card_types:
        return None  # a forced move: nothing anyone would wonder about
    why: dict[str, Any] | None = None
    game, kind = rules.game_id, action.type
    if game == "losers_game" and kind == "bid":
        why = {"k": "estimate"}  # losers_game §3.2: each bids once what it expects to take
    elif game == "queen_of_tarot" and kind in BARGAIN:
        why = {"k": BARGAIN[kind]}  # queen_of_tarot §3 (bargaining to give the hand up)
    elif game == "la_morte" and kind == "accept":
        prior = _last_bid(view)  # la_morte §3.2: accepting fixes the standing bid
        why = None if prior is None else {"k": "accept", "prior": prior.to_json()}
    elif game == "la_morte" and kind == "drop":
        why = {"k": "drop"}
    elif _is_pass(action):
        prior = _last_bid(view)
        why = {"k": "pass"} if prior is None else {"k": "pass_after", "prior": prior.to_json()}
    elif kind in BIDS:
        prior = _last_bid(view)
        why = {"k": "open"} if prior is None else {"k": "over", "prior": prior.to_json()}
    elif action.type == "call" and action.card is not None:
        why = {"k": "call", "card": action.card}
    elif action.type == "trump" and action.suit is not None:
        why = {"k": "trump", "suit": action.suit}
    elif action.type == "discard":
        why = {"k": "discard", "n": len(action.cards or ())}
    elif action.type == "play" and action.card is not None:
        forced: dict[str, Any] = view.info.get("play_restriction") or {}
        # The Excuse (and La Morte) may be played whatever one holds: they show no void.
        free = action.card in EXEMPT.get(rules.game_id, ("EX",))
        if forced.get("code") in FORCED and forced.get("led") not in (None, "T") and not free:
            why = {"k": FORCED[forced["code"]], "led": forced["led"]}
    return why


def event(seat: int | None, why: dict[str, Any], payload: dict[str, Any]) -> Event:
    """The ``explained`` event of a logged computer move: its reason and the move's public
    form (``payload`` is the log's; a discard's cards are dropped, as ``PublicView.history``
    masks them)."""
    act = {k: v for k, v in payload.items() if k not in ("by", "why")}
    if act.get("type") == "discard":
        act.pop("cards", None)
    return Event(EXPLAINED, seat, {**why, "act": act})


def public_only(why: dict[str, Any], action: Action) -> bool:
    """Whether ``why`` keeps to the privacy rule of this module: only known keys, and no card
    named but the one ``action`` itself puts on the table (``prior`` is an earlier public
    action, from ``PublicView.history``). The tests check it over many deals."""
    return set(why) <= KEYS and why.get("card") in (None, action.card)
