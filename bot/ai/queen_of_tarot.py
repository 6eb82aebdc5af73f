"""Queen of Tarot computer player: bargains from a hand-strength estimate, discards to bank
points, declares everything it is entitled to, and plays to capture Kings and honours.

**Bargaining.** ``estimate`` turns the cards held so far (10, 15 or 20) into the game points
playing the hand is expected to bring: card points from trick-taking power (trumps weighted
by rank, Kings, the Fool keeping its 4 points) scaled to a 25-card hand, plus twice the value
of the declarations already in hand (the declarer is paid X by each opponent). A strong hand
calls Continue (it wants to play); a weak one demands a little (paid to give the hand up);
it offers rarely — only to settle at once when the outstanding demand is cheaper than the loss
it expects — and it takes money on the table: when offers exceed demands and playing is
worth less than the difference, it demands exactly that and the hand is settled.

**Discard** (dealer): the discard counts as won, so bank points — Queens, Cavaliers and
Valets of short plain suits first (short suits also make voids for trumping), never trumps.
**Declarations**: the best legal set (the engine's pre-filled choice). **Play**: win tricks
holding Kings, honours or courts as cheaply as is safe; save a King or Queen with the Fool
when the trick is lost; throw empty cards otherwise; lead Kings while suits are fresh, trumps
when holding the top ones, else a low card of the longest plain suit.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from bot.engine.actions import Action
from bot.engine.cards import TAROT_PACK
from bot.engine.games.queen_of_tarot_cards import (
    ANGEL,
    FAIR_SHARE,
    FOOL,
    HAND_SIZE,
    PLAYERS,
    POINTS,
    STRENGTH,
    SUIT,
    TRUMP,
    led_suit,
)
from bot.engine.games.queen_of_tarot_declare import best_set, declaration
from bot.engine.trick import Play
from bot.engine.views import SeatView

CONTINUE_AT = 8  # expected game points from which a hand is worth playing out
DEMAND_BELOW = -4  # expected game points under which a hand asks to be paid to give up
#: Expected game points under which a hand is hopeless: it offers a little to escape (about a
#: quarter of the loss it expects; measured, such hands lose 16-32 points when played out).
HOPELESS = -12
MAX_ESCAPE = 10


def _power(card: str) -> float:
    """Trick-taking weight of a card: trumps by rank (XX the best), Kings, a little for
    Queens; the Fool keeps its own 4 points."""
    if card == FOOL:
        return 0.8
    if card[0] == TRUMP:
        return 0.6 + STRENGTH[card] / 22
    return {"K": 1.0, "Q": 0.45, "C": 0.2}.get(card[1:], 0.0)


_MEAN_POWER = sum(_power(c) for c in TAROT_PACK) / len(TAROT_PACK)


def estimate_parts(hand: Sequence[str]) -> tuple[float, int]:
    """``estimate``'s two parts: the card points the whole hand is expected to take above
    (or below) the fair share, and the declaration it holds or is on course for."""
    if not hand:
        return 0.0, 0
    share = sum(_power(c) for c in hand) / (_MEAN_POWER * len(hand))
    cards = max(-30.0, min(30.0, (share - 1.0) * FAIR_SHARE * 0.9))
    made = declaration(0, hand, best_set(hand))
    bonus = made.value if made is not None else 0
    trumps = sum(1 for c in hand if c[0] == TRUMP)
    if trumps * HAND_SIZE / len(hand) >= 11:  # on course for Abundance
        bonus = max(bonus, round(trumps * HAND_SIZE / len(hand)))
    return cards, bonus


def estimate(hand: Sequence[str]) -> float:
    """Expected game points of playing out a hand from ``hand`` (the cards held so far)."""
    cards, bonus = estimate_parts(hand)
    return cards + 2 * bonus


def bargain(view: SeatView) -> Action:
    """The computer's bargaining call (also the guidance a player sees: ``bot.services.
    guidance``); it reads only the seat's hand and the public positions."""
    seat = view.seat
    b = view.public.info["bargain"]
    position = b["positions"][seat]
    ranges = b["ranges"]
    value = estimate(view.hand)
    demanded, offered = b["demanded"], b["offered"]
    gap = offered - demanded

    def legal(kind: str, amount: int) -> bool:
        r = ranges.get(kind)
        return r is not None and r[0] <= amount <= r[1]

    # Money on the table: offers exceed demands by more than this hand is worth playing.
    if gap > 0 and position["position"] == "none" and value < gap and legal("demand", gap):
        return Action("demand", seat, amount=gap)
    if value >= CONTINUE_AT:
        return Action("continue", seat)
    # Offer (rarely): settle at once when covering the outstanding demand costs less than
    # half the loss this hand is expected to bring.
    needed = -gap
    mine = position["amount"] if position["position"] == "offer" else 0
    cheaper = needed > 0 and position["position"] != "demand" and value < -2 * needed
    if cheaper and legal("offer", mine + needed):
        return Action("offer", seat, amount=mine + needed)
    if value < HOPELESS and position["position"] == "none":
        # Pay a little to escape: a hand worth less than the offer takes it (money on the
        # table, above) and the deal is thrown in.
        amount = max(1, needed, min(MAX_ESCAPE, round(-value / 4)))
        if amount <= -value / 2 and legal("offer", amount):
            return Action("offer", seat, amount=amount)
    if value < DEMAND_BELOW and position["position"] == "none":
        amount = max(1, min(8, round(-value / 4)))
        if legal("demand", amount):
            return Action("demand", seat, amount=amount)
    return Action("pass", seat)


def _discard(view: SeatView, template: Action, void_first: str | None = None) -> Action:
    candidates = [c for c in template.cards or () if c[0] != TRUMP] or list(template.cards or ())
    length = Counter(SUIT[c] for c in view.hand)
    # Bank the most points, preferring short suits (voids let the dealer trump later).
    chosen = sorted(
        candidates,
        key=lambda c: (SUIT[c] != void_first, -POINTS[c], length[SUIT[c]], -STRENGTH[c], c),
    )
    return Action("discard", view.seat, cards=tuple(sorted(chosen[: template.amount or 3])))


def discard_candidates(view: SeatView, template: Action) -> list[Action]:
    """Discards for the expert to compare: the casual one, then each plain suit emptied first,
    then the lowest trumps (keeping the plain cards), distinct choices only."""
    out = [_discard(view, template)]
    out += [_discard(view, template, void_first=s) for s in ("S", "H", "D", "C")]
    trumps = sorted((c for c in template.cards or () if c[0] == TRUMP), key=STRENGTH.__getitem__)
    size = template.amount or 3
    if len(trumps) >= size:
        out.append(Action("discard", view.seat, cards=tuple(sorted(trumps[:size]))))
    seen: set[tuple[str, ...]] = set()
    unique: list[Action] = []
    for a in out:
        if a.cards not in seen:
            seen.add(a.cards or ())
            unique.append(a)
    return unique


#: A card's strength in a trick, per suit led (§4.3): trumps above the suit led, any other card
#: (and the Fool) -1 — ``trick_winner``'s order, read at once.
_TAKES: dict[str, dict[str, int]] = {
    led: {
        c: 100 + STRENGTH[c] if SUIT[c] == TRUMP else STRENGTH[c] if SUIT[c] == led else -1
        for c in TAROT_PACK
    }
    for led in {SUIT[c] for c in TAROT_PACK if c != FOOL}
}
#: The order in which cards are thrown away: the cheapest first, the Angel (never lost) last.
_THROW = {c: (c == ANGEL, POINTS[c], c[0] == TRUMP, STRENGTH[c]) for c in TAROT_PACK}


def _winners(trick: Sequence[Play], plain: list[str]) -> list[str]:
    """The cards of ``plain`` that would take ``trick`` as it stands (``trick_winner``)."""
    led = led_suit(trick)
    best = -1
    if led is not None:
        takes = _TAKES[led]
        for _, c in trick:
            if takes[c] > best:
                best = takes[c]
    return [c for c in plain if _TAKES[led or SUIT[c]][c] > best]


def _cheap(card: str) -> tuple[int, bool, int]:
    return (POINTS[card], card[0] == TRUMP, STRENGTH[card])


def _play(view: SeatView, legal: list[str]) -> str:
    return card_play(
        view.public.trick, view.seat, len(view.hand), legal, lambda c: _unbeatable(view, c)
    )


def card_play(
    trick: Sequence[Play],
    seat: int,
    held: int,
    legal: Sequence[str],
    unbeatable: Callable[[str], bool],
) -> str:
    """The casual card of ``seat`` holding ``held`` cards, among ``legal`` (in hand order: it
    breaks ties), with ``trick`` on the table; ``unbeatable(trump)`` says whether no later
    player can beat that trump. Reads nothing else, so the rollouts' fast path
    (``queen_of_tarot_rollout``) plays the very same cards from the bare state."""
    plain = [c for c in legal if c != FOOL]
    if not plain:
        return FOOL
    if not trick:
        return _lead(plain)
    last = len(trick) == PLAYERS - 1
    worth = sum(POINTS[c] for _, c in trick)
    winners = _winners(trick, plain)
    if winners:
        cheapest = min(winners, key=lambda c: (c[0] == TRUMP, STRENGTH[c]))
        angel_waits = cheapest == ANGEL and worth < 4 and held > 2
        if last and (worth > 2 or POINTS[cheapest] > 1) and not angel_waits:
            return cheapest
        strongest = max(winners, key=lambda c: (c[0] == TRUMP, STRENGTH[c]))
        if strongest[1:] == "K" and led_suit(trick) != TRUMP:
            return strongest  # the King of the led suit
        if worth >= 4 or held <= 2:
            # a court card or an honour to capture: the lowest trump nobody can beat (the
            # Angel only when nothing else is sure: it is never lost, so it waits for points)
            sure = sorted((c for c in winners if unbeatable(c)), key=STRENGTH.__getitem__)
            if sure:
                return sure[0]
        if strongest[0] == TRUMP and STRENGTH[strongest] >= 18 and worth >= 5:
            return strongest
    throw = min(plain, key=_THROW.__getitem__)
    if FOOL in legal and POINTS[throw] >= 4 and throw != ANGEL:
        return FOOL  # the Fool excuses us from giving up a King or Queen
    return throw


def _unbeatable(view: SeatView, card: str) -> bool:
    """Whether trump ``card`` cannot be beaten by the players still to play this trick: no
    stronger trump is out, or they showed they hold no trump (public history)."""
    if card[0] != TRUMP:
        return False
    pv = view.public
    later = [(view.seat - i) % pv.players for i in range(1, pv.players - len(pv.trick))]
    if all(seat in _trumpless(view) for seat in later):
        return True
    seen = {a.card for a in pv.history if a.type == "play"} | set(view.hand)
    seen |= {c for _, c in pv.trick}
    return not any(
        t not in seen and STRENGTH[t] > STRENGTH[card] for t in TAROT_PACK if t[0] == TRUMP
    )


def _trumpless(view: SeatView) -> set[int]:
    """Seats that showed they hold no trump (did not trump or follow a trump lead)."""
    n = view.public.players
    plays = [(a.seat, a.card) for a in view.public.history if a.type == "play" and a.card]
    out: set[int] = set()
    for i in range(0, len(plays), n):
        trick = plays[i : i + n]
        led = led_suit(trick)
        for seat, card in trick:
            if led is not None and card != FOOL and SUIT[card] != led and card[0] != TRUMP:
                out.add(seat)
    return out


def _lead(plain: list[str]) -> str:
    length: dict[str, int] = {}
    for c in plain:
        if c[0] != TRUMP:
            if c[1:] == "K":
                return c  # the first King
            length[SUIT[c]] = length.get(SUIT[c], 0) + 1
    if not length:
        # only trumps: the lowest one; the Angel (never beaten) is kept to capture points
        return min(plain, key=_THROW.__getitem__)
    longest = max(length, key=lambda s: (length[s], s))
    return min((c for c in plain if SUIT[c] == longest), key=_cheap)


def choose(view: SeatView, rng: random.Random) -> Action:
    """The computer's decision for ``view`` (always one of ``view.legal``)."""
    kind = view.legal[0].type
    if view.public.phase == "bargain":
        return bargain(view)
    if kind == "discard":
        return _discard(view, view.legal[0])
    if kind == "declare":
        best = tuple(view.info.get("best", ()))
        return next((a for a in view.legal if tuple(a.bonuses or ()) == best), view.legal[-1])
    legal = [a.card for a in view.legal if a.card is not None]
    return Action("play", view.seat, card=_play(view, legal))
