"""Early French Tarot computer player: card play for a game where everyone plays for
themselves and a hand scores honours plus cards taken.

Following: when the trick can be won, win it as cheaply as is safe — last to play, the
Magician if it wins (an honour brought home), else the cheapest winning card; earlier, a sure
winner (the World; the King of the led suit early, or later when the trick holds a Cavalier or
better and nobody still to play has shown a void in the suit) or, when the trick holds honours,
the lowest trump that wins — a high one only when someone still to play has shown the void
that lets them trump (the public history tells who). Otherwise lose it as
cheaply as possible: a plain card, never an honour while something else is allowed, and the
Fool instead of a King, Queen or the Magician that would be lost. Leading: Kings early while
suits are still held, then low cards from the longest suit; honours and the Fool are kept
back. The Fool is never saved for the last trick beyond need (it returns anyway, D-9).
"""

from __future__ import annotations

import random

from bot.engine.actions import Action
from bot.engine.games.early_french_tarot import (
    FOOL,
    HAND_SIZE,
    TRUMP,
    honour,
    led_suit,
    rank_of,
    suit_of,
    trick_winner,
)
from bot.engine.trick import Play
from bot.engine.views import SeatView

WORLD, MAGICIAN = "T21", "T1"
HIGH_TRUMP = 15  # a trump from here on is rarely overtrumped


def _cheap(card: str) -> tuple[int, int, int]:
    """Order for throwing a card away: least honour, plain before trump, lowest rank."""
    return (honour(card), suit_of(card) == TRUMP, rank_of(card))


def _wins(trick: tuple[Play, ...], seat: int, card: str) -> bool:
    return trick_winner((*trick, (seat, card))) == seat


def voids(view: SeatView) -> dict[int, set[str]]:
    """Suits each seat showed it lacks (``T``: no trump either), from the public history."""
    n = view.public.players
    plays = [(a.seat, a.card) for a in view.public.history if a.type == "play" and a.card]
    tricks = [tuple(plays[i : i + n]) for i in range(0, len(plays), n)] if plays else []
    if not plays:
        tricks = [view.public.last_trick]
    tricks.append(view.public.trick)
    out: dict[int, set[str]] = {}
    for trick in tricks:
        led = led_suit(trick)
        if led is None:
            continue
        for seat, card in trick:
            if card == FOOL or suit_of(card) == led:
                continue
            out.setdefault(seat, set()).add(led)
            if suit_of(card) != TRUMP:
                out[seat].add(TRUMP)
    return out


def _later(view: SeatView) -> list[int]:
    n = view.public.players
    return [(view.seat + i) % n for i in range(1, n - len(view.public.trick))]


def _follow(view: SeatView, cards: list[str], has_fool: bool) -> str:
    pv = view.public
    trick = pv.trick
    seat = view.seat
    last = len(trick) == pv.players - 1
    value = sum(honour(c) for _, c in trick)
    winners = [c for c in cards if _wins(trick, seat, c)]
    if winners:
        if last:
            if MAGICIAN in winners:
                return MAGICIAN  # the Magician wins safely: an honour brought home
            return min(winners, key=lambda c: (honour(c) > 0, rank_of(c)))
        if WORLD in winners and (value >= 3 or len(view.hand) <= 3):
            return WORLD
        led = led_suit(trick)
        shown = voids(view)
        # someone still to play may trump this suit: they showed they lack it, and not trumps
        trumpers = [
            s for s in _later(view) if led in shown.get(s, ()) and TRUMP not in shown.get(s, ())
        ]
        trumps = [c for c in winners if suit_of(c) == TRUMP and c != MAGICIAN]
        early = pv.tricks_played < 4 and led != TRUMP
        kings = [c for c in winners if c[1:] == "K" and suit_of(c) == led]
        if kings and (early or (value >= 2 and not trumpers)):
            return kings[0]  # the master King of the led suit takes the trick's honours
        if trumps and (value >= 2 or not any(suit_of(c) != TRUMP for c in cards)):
            trumps.sort(key=rank_of)
            if value >= 3 and (trumpers or led == TRUMP):
                high = [c for c in trumps if rank_of(c) >= HIGH_TRUMP]
                return high[0] if high else trumps[-1]
            return trumps[0]  # the lowest trump that wins
        plain = [c for c in winners if honour(c) == 0]
        if plain and len(trick) >= pv.players - 2:
            return max(plain, key=rank_of)
    losers = [c for c in cards if not _wins(trick, seat, c)] or cards
    throw = min(losers, key=_cheap)
    if has_fool and honour(throw) >= 3:
        return FOOL  # save a King, a Queen or the Magician
    return throw


def _lead(view: SeatView, cards: list[str]) -> str:
    pv = view.public
    hand = view.hand
    plain = [c for c in cards if suit_of(c) not in (TRUMP, FOOL)]
    if pv.tricks_played < 5:
        kings = [c for c in plain if c[1:] == "K"]
        if kings:
            # The King of the longest suit is least likely to be trumped.
            return max(kings, key=lambda k: sum(suit_of(c) == suit_of(k) for c in hand))
    if WORLD in cards and pv.tricks_played >= HAND_SIZE - 4:
        return WORLD
    low = [c for c in plain if honour(c) == 0]
    if low:
        suits = sorted({suit_of(c) for c in low})  # sorted: ties never depend on set order
        longest = max(suits, key=lambda s: sum(suit_of(c) == s for c in hand))
        return min((c for c in low if suit_of(c) == longest), key=rank_of)
    trumps = [c for c in cards if suit_of(c) == TRUMP and honour(c) == 0]
    if trumps:
        return min(trumps, key=rank_of)
    return min(cards, key=_cheap)


def choose(view: SeatView, rng: random.Random) -> Action:
    """The computer's card for ``view`` (always one of ``view.legal``)."""
    del rng  # deterministic: the same situation always gets the same card
    legal = [a.card for a in view.legal if a.card is not None]
    has_fool = FOOL in legal
    cards = [c for c in legal if c != FOOL]
    if not cards:
        card = FOOL
    elif led_suit(view.public.trick) is not None:
        card = _follow(view, cards, has_fool)
    else:  # leading, or only the Fool was led: this card sets the suit (D-6)
        card = _lead(view, cards)
    return Action("play", view.seat, card=card)
