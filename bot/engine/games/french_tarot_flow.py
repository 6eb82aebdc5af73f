"""French Tarot transitions: each action's effect on a deal (french_tarot.md §3–§5).

Pure functions from (state, action) to (new state, public events); ``FrenchTarotRules.apply``
dispatches here. Events carry only public facts: the hidden partner is never named before the
called card is played (french_tarot D-13).
"""

from __future__ import annotations

from bot.engine.actions import Action
from bot.engine.cards import EXCUSE
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.games.french_tarot_cards import (
    CONTRACTS,
    DOG_TAKEN,
    PARAMS,
    callable_cards,
    discard_counts,
    is_trump,
    poignee_options,
    right,
    sort_key,
    trick_winner,
)
from bot.engine.games.french_tarot_scoring import score
from bot.engine.games.french_tarot_state import (
    FrenchTarotState,
    Phase,
    camp,
    high_bid,
    legal_cards,
    may_show_poignee,
    play_restriction,
    replace_at,
)
from bot.engine.trick import remove_card

Step = tuple[FrenchTarotState, tuple[Event, ...]]


def apply(state: FrenchTarotState, action: Action) -> Step:
    """Apply ``action`` or raise ``IllegalAction`` (the state is never half-changed)."""
    s = state
    if s.turn is None:
        raise IllegalAction("deal_over", "this deal is over")
    if action.seat != s.turn:
        raise IllegalAction("not_your_turn", f"it is seat {s.turn}'s turn")
    kind = action.type
    expected = {
        Phase.BIDDING: ("bid",),
        Phase.CALL: ("call",),
        Phase.DISCARD: ("discard",),
        Phase.CHELEM: ("chelem",),
        Phase.PLAY: ("play", "poignee"),
    }[s.phase]
    if kind not in expected:
        raise IllegalAction("illegal_action", f"a {kind} is not possible now ({s.phase})")
    if kind == "bid":
        return bid(s, action)
    if kind == "call":
        return call(s, action)
    if kind == "discard":
        return discard(s, action)
    if kind == "chelem":
        return announce(s, action)
    if kind == "poignee":
        return poignee(s, action)
    return play(s, action)


def bid(s: FrenchTarotState, a: Action) -> Step:
    t = a.seat
    if a.contract not in ("pass", *CONTRACTS[high_bid(s) + 1 :]):
        raise IllegalAction("illegal_action", f"you cannot bid {a.contract!r} now")
    s = s._replace(bids=replace_at(s.bids, t, a.contract))
    events: list[Event] = [Event("bid", t, {"contract": a.contract})]
    if t != s.dealer:  # C-8: everyone speaks once; the dealer speaks last
        return s._replace(turn=right(t, s.players)), tuple(events)
    high = high_bid(s)
    if high < 0:
        events.append(Event("thrown_in"))
        return s._replace(
            phase=Phase.DONE, turn=None, outcome="thrown_in", deltas=(0,) * s.players
        ), tuple(events)
    contract = CONTRACTS[high]
    taker = s.bids.index(contract)
    s = s._replace(taker=taker, contract=contract)
    events.append(Event("taker", taker, {"contract": contract}))
    if s.players == 5:
        return s._replace(phase=Phase.CALL, turn=taker), tuple(events)
    return after_call(s, events)


def call(s: FrenchTarotState, a: Action) -> Step:
    if a.card not in callable_cards(s.hands[a.seat]):
        raise IllegalAction("illegal_action", f"you cannot call {a.card}")
    s = s._replace(called=a.card)
    return after_call(s, [Event("called", a.seat, {"card": a.card})])


def after_call(s: FrenchTarotState, events: list[Event]) -> Step:
    taker = s.taker
    assert taker is not None and s.contract is not None
    if s.contract in DOG_TAKEN:
        # §3.5: the dog is shown to everyone and joins the taker's hand.
        events.append(Event("dog_revealed", taker, {"cards": sorted(s.dog)}))
        hand = tuple(sorted(s.hands[taker] + s.dog, key=sort_key))
        s = s._replace(hands=replace_at(s.hands, taker, hand), phase=Phase.DISCARD, turn=taker)
        return s, tuple(events)
    events.append(
        Event("dog_aside", taker, {"to": "attack" if s.contract == "garde_sans" else "defence"})
    )
    return after_discard(s, events)


def discard(s: FrenchTarotState, a: Action) -> Step:
    t = a.seat
    cards = a.cards or ()
    size = PARAMS[s.players].dog
    hand = s.hands[t]
    if len(cards) != size or len(set(cards)) != size:
        raise IllegalAction("illegal_action", f"discard exactly {size} different cards")
    if any(c not in hand for c in cards):
        raise IllegalAction("illegal_action", "you can only discard cards you hold")
    plain, trumps, need = discard_counts(hand, size)
    bad = [c for c in cards if c not in plain and c not in trumps]
    if bad:
        raise IllegalAction("illegal_action", f"{bad[0]} cannot be discarded (no Kings, no bouts)")
    shown = sorted(c for c in cards if is_trump(c))
    if len(shown) != need:  # C-11: exactly as many trumps as forced
        raise IllegalAction(
            "illegal_action",
            "trumps may be discarded only when nothing else can be"
            if len(shown) > need
            else f"the discard must include {need} trump(s)",
        )
    for c in cards:
        hand = remove_card(hand, c)
    s = s._replace(hands=replace_at(s.hands, t, hand), discard=tuple(sorted(cards)))
    return after_discard(s, [Event("discarded", t, {"count": size, "trumps": shown})])


def after_discard(s: FrenchTarotState, events: list[Event]) -> Step:
    if s.chelem_option:  # C-7
        return s._replace(phase=Phase.CHELEM, turn=s.taker), tuple(events)
    return start_play(s, events)


def announce(s: FrenchTarotState, a: Action) -> Step:
    s = s._replace(chelem=bool(a.announce))
    return start_play(s, [Event("chelem", a.seat, {"announce": bool(a.announce)})])


def start_play(s: FrenchTarotState, events: list[Event]) -> Step:
    partner: int | None = None
    if s.called is not None:
        # C-9: the holder of the called card once play starts; none after a self-call,
        # with the card in the dog (picked up or not) or discarded.
        holders = [p for p, h in enumerate(s.hands) if s.called in h]
        partner = holders[0] if holders and holders[0] != s.taker else None
    leader = s.taker if s.chelem and s.taker is not None else right(s.dealer, s.players)
    s = s._replace(phase=Phase.PLAY, partner=partner, leader=leader, turn=leader)
    return s, tuple(events)


def poignee(s: FrenchTarotState, a: Action) -> Step:
    t = a.seat
    if not may_show_poignee(s, t):
        raise IllegalAction("illegal_action", "a poignée is shown once, before your first card")
    cards = tuple(sorted(set(a.cards or ()), key=sort_key))
    if len(cards) != len(a.cards or ()):
        raise IllegalAction("illegal_action", "show each card once")
    for level, size, showable in poignee_options(s.hands[t], s.players):
        if len(cards) != size or not set(cards) <= set(showable):
            continue
        if EXCUSE in showable and set(cards) != set(showable):
            continue
        s = s._replace(poignees=(*s.poignees, (t, level, cards)))
        return s, (Event("poignee", t, {"level": level, "cards": sorted(cards)}),)
    sizes = [o[1] for o in poignee_options(s.hands[t], s.players)]
    raise IllegalAction(
        "illegal_action",
        f"a poignée shows exactly {' or '.join(map(str, sizes)) or 'enough'} trumps you hold"
        " (the Excuse only with all your trumps)",
    )


_SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def refusal_reason(s: FrenchTarotState, seat: int) -> str | None:
    """The rule refusing a held card, in words (from ``play_restriction``), or ``None``."""
    r = play_restriction(s, seat)
    if r is None:
        return None
    led = str(r.data.get("led", r.data.get("suit")))
    symbol = _SUIT_SYMBOL.get(led, led)
    if r.code == "follow":
        if led == "T":
            return "you must follow the suit led (trumps)"
        return f"you must follow {symbol}"
    if r.code == "trump":
        return f"you can't follow the suit led ({symbol}), so you must trump"
    if r.code == "overtrump":
        if led == "T":
            return "you must follow the suit led (trumps) with a higher trump"
        return f"you can't follow the suit led ({symbol}), so you must play a higher trump"
    if r.code == "called_suit_first_trick":
        return f"the called suit ({symbol}) can't be led on the first trick, except the called card"
    return None


def play(s: FrenchTarotState, a: Action) -> Step:
    t = a.seat
    card = a.card
    if card is None or card not in legal_cards(s):
        if card not in s.hands[t]:
            raise IllegalAction("illegal_action", f"you do not hold {card}")
        why = refusal_reason(s, t)
        detail = f"{card} cannot be played now" + (f": {why}" if why else "")
        raise IllegalAction("illegal_action", detail)
    trick = (*s.trick, (t, card))
    events: list[Event] = [Event("card_played", t, {"card": card})]
    s = s._replace(hands=replace_at(s.hands, t, remove_card(s.hands[t], card)), trick=trick)
    if card == s.called:
        s = s._replace(called_by=t)  # D-13: the partnership becomes public now
        events.append(Event("partner_revealed", t, {"card": card, "alone": t == s.taker}))
    if len(trick) < s.players:
        return s._replace(turn=right(t, s.players)), tuple(events)
    last = len(s.tricks) == PARAMS[s.players].cards - 1
    winner = trick_winner(trick)
    excuse_won = False
    if last and trick[0][1] == EXCUSE:
        # §4.5, C-2: a camp that took every trick wins the last with a led Excuse.
        side = camp(s, trick[0][0])
        if all(camp(s, w) == side for w in s.winners):
            winner, excuse_won = trick[0][0], True
    s = s._replace(
        trick=(),
        tricks=(*s.tricks, trick),
        winners=(*s.winners, winner),
        tricks_won=replace_at(s.tricks_won, winner, s.tricks_won[winner] + 1),
        leader=winner,
        turn=winner,
        excuse_won_last=excuse_won,
    )
    events.append(Event("trick_won", winner, {"cards": [c for _, c in trick]}))
    if not last:
        return s, tuple(events)
    return finish(s, events)


def finish(s: FrenchTarotState, events: list[Event]) -> Step:
    assert s.taker is not None and s.contract is not None
    deltas, detail = score(
        players=s.players,
        taker=s.taker,
        partner=s.partner,
        contract=s.contract,
        dog=s.dog,
        discard=s.discard,
        tricks=s.tricks,
        winners=s.winners,
        excuse_won_last=s.excuse_won_last,
        poignees=[(seat, level) for seat, level, _ in s.poignees],
        chelem_announced=s.chelem,
    )
    detail["called"] = s.called
    detail["dog"] = sorted(s.dog)
    detail["discard"] = sorted(s.discard)
    s = s._replace(phase=Phase.DONE, turn=None, outcome="played", deltas=deltas, detail=detail)
    events.append(Event("deal_over", data={"deltas": list(deltas)}))
    return s, tuple(events)
