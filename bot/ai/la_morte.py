"""La Morte computer player: a rule-following heuristic policy over one seat's view.

Pure and stdlib-only: ``choose(view, rng)`` looks only at the ``SeatView`` (own hand, legal
actions, public info) and returns one of ``view.legal``. It has no memory between moves, so
card-counting is limited to what the public view shows (current and last trick).

Strategy in one paragraph (rule refs are to ``rules/la_morte.md``): estimate how many tricks
the hand takes; bid only when the estimate comfortably covers the bid, otherwise accept a
standing bid when defending is worth more than dropping (a dropper with zero tricks scores
c − 1, so weak hands of low cards drop); as maker/defender win tricks cheaply; as a dropper
lose every trick, playing the highest card that still loses; avoid becoming il Morto when the
rest of the hand is worth more than one trick; and never keep La Morte to the end (§4.4 Fuori
dal Tempo): dump it on a plain-suit trick an opponent is winning, or win a trump lead with it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.actions import Action
from bot.engine.games.la_morte import LA_MORTE, RANK, SUIT, trick_winner
from bot.engine.trick import Play
from bot.engine.views import SeatView

ACE = 11  # rank index of an Ace (Il Bagatto is 12)
#: From this many cards left, a player void in a plain suit sheds La Morte even onto a
#: friend's trick: kept longer, it is too often stranded as the last card (§4.4 Fuori dal
#: Tempo scores the whole round 0); with more cards left only an opponent is made il Morto.
SHED_MORTE_BY = 6

#: chance a trump of this rank index takes a trick for its holder (≥ 7 = J and up)
_TRUMP_WIN = {12: 1.0, 11: 0.95, 10: 0.8, 9: 0.62, 8: 0.48, 7: 0.36}
#: chance a dropper is forced to win a trick with this trump
_TRUMP_DANGER = {12: 0.95, 11: 0.9, 10: 0.65, 9: 0.45, 8: 0.3, 7: 0.2}
#: same for a plain-suit card
_PLAIN_DANGER = {12: 0.75, 11: 0.7, 10: 0.45, 9: 0.28, 8: 0.16, 7: 0.09}


@dataclass(frozen=True, slots=True)
class _Ctx:
    seat: int
    hand: tuple[str, ...]
    trump: str | None
    players: int
    role: str  # undecided | maker | defender | dropper
    maker: int | None
    contract: int
    morto: int | None
    trick: tuple[Play, ...]
    last_trick: tuple[Play, ...]
    tricks_won: tuple[int, ...]
    tricks_played: int
    morte_out: bool  # La Morte may still be in another player's hand

    @property
    def active(self) -> int:
        return self.players - (self.morto is not None)

    @property
    def to_play_after(self) -> int:
        """Players still to play to the current trick after this seat."""
        return self.active - len(self.trick) - 1


def _ctx(view: SeatView) -> _Ctx:
    pub = view.public
    info: dict[str, Any] = pub.info
    trump: str | None = info.get("trump")
    statuses: list[str] = info.get("statuses") or ["undecided"] * pub.players
    seen = LA_MORTE in view.hand or any(c == LA_MORTE for _, c in (*pub.trick, *pub.last_trick))
    # La Morte is out of play as the talon (no trump, D-9) and is known to have fallen once
    # il Morto or Fuori dal Tempo happened. Otherwise, without memory, assume it may be out.
    morte_out = (
        trump is not None
        and info.get("talon") != LA_MORTE
        and info.get("morto") is None
        and info.get("fuori") is None
        and not seen
    )
    return _Ctx(
        seat=view.seat,
        hand=view.hand,
        trump=trump,
        players=pub.players,
        role=statuses[view.seat],
        maker=info.get("maker"),
        contract=info.get("contract") or info.get("high_bid") or 0,
        morto=info.get("morto"),
        trick=pub.trick,
        last_trick=pub.last_trick,
        tricks_won=pub.tricks_won,
        tricks_played=pub.tricks_played,
        morte_out=morte_out,
    )


# ---- hand evaluation ---------------------------------------------------------------------


def _suit_counts(hand: Sequence[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for c in hand:
        if c != LA_MORTE:
            counts[SUIT[c]] = counts.get(SUIT[c], 0) + 1
    return counts


def expected_tricks(hand: Sequence[str], trump: str | None) -> float:
    """Rough number of tricks ``hand`` takes when trying to win (bidding and defending)."""
    counts = _suit_counts(hand)
    trumps = counts.get(trump, 0) if trump is not None else 0
    e = 0.0
    for c in hand:
        if c == LA_MORTE:
            e += 0.6  # wins a trump lead for sure, but trumps may never be led
            continue
        suit, rank = SUIT[c], RANK[c]
        if suit == trump:
            e += _TRUMP_WIN.get(rank, 0.2)
        elif trump is None:  # no-trump round: nothing beats the top of the led suit
            e += {12: 1.0, 11: 0.95, 10: 0.6 if counts[suit] >= 2 else 0.3}.get(rank, 0.0)
            if rank == 9 and counts[suit] >= 3:
                e += 0.3
        elif rank >= ACE:
            e += 0.85 if counts[suit] <= 4 else 0.6
        elif rank == ACE - 1:
            e += 0.5 if counts[suit] >= 2 else 0.2
        elif rank == ACE - 2 and counts[suit] >= 3:
            e += 0.25
    if trump is None:
        for suit, n in counts.items():
            if n >= 4 and any(SUIT[c] == suit and RANK[c] >= ACE - 1 for c in hand):
                e += 0.4 * (n - 3)  # long suit runs once its top cards are out
    else:
        if trumps >= 4:
            e += 0.35 * (trumps - 3)  # long trumps outlast the others'
        if trumps >= 2:
            for suit in ("S", "H", "D", "C"):
                if suit != trump:
                    e += {0: 0.45, 1: 0.2}.get(counts.get(suit, 0), 0.0)  # ruffing chances
    return min(e, 9.0)


def _danger(card: str, hand: Sequence[str], trump: str | None) -> float:
    """Chance that ``card`` eventually forces a trick on a player trying to lose."""
    if card == LA_MORTE:
        own_trumps = sum(1 for c in hand if c != LA_MORTE and SUIT[c] == trump)
        return 0.5 if own_trumps == 0 else 0.2  # forced onto a trump lead → wins it
    suit, rank = SUIT[card], RANK[card]
    if suit == trump:
        return _TRUMP_DANGER.get(rank, 0.1)
    base = _PLAIN_DANGER.get(rank, 0.04)
    lower = sum(1 for c in hand if c != LA_MORTE and SUIT[c] == suit and RANK[c] < rank)
    return base * (0.75 if lower else 1.0)


def zero_trick_chance(hand: Sequence[str], trump: str | None) -> float:
    """Rough probability of taking no trick when trying to lose every trick."""
    p = 1.0
    for c in hand:
        p *= 1.0 - _danger(c, hand, trump)
    return p


#: The auction's odds, fitted to branched self-play (every auction choice of 1,500 4-player
#: deals played out from the true position): a bid ``b`` with ``E`` expected tricks is made
#: with probability logistic(1.05·(E − b) + 0.28); defenders gain about 0.1 a contract
#: point from failed contracts; a hand with ``zero_trick_chance`` Z takes no trick as a
#: dropper with probability about 0.85·(1 − e^(−5Z)).
MAKE_SLOPE, MAKE_OFFSET = 1.05, 0.28
DEFEND_SHARE = 0.1
LEAST_MAKE = 0.3  # never bid what is made less often than this
#: A dropper is paid the final contract, usually bid up to about this by the others.
TYPICAL_CONTRACT = 3


def _p_make(strength: float, bid: int) -> float:
    return 1.0 / (1.0 + math.exp(-(MAKE_SLOPE * (strength - bid) + MAKE_OFFSET)))


def _defend_value(strength: float, contract: int) -> float:
    return strength + contract * DEFEND_SHARE


def _p_zero(hand: Sequence[str], trump: str | None) -> float:
    return 0.85 * (1.0 - math.exp(-5.0 * zero_trick_chance(hand, trump)))


def _drop_value(hand: Sequence[str], trump: str | None, contract: int) -> float:
    return (contract - 1) * _p_zero(hand, trump)


def _best_bid(legal: Sequence[Action], strength: float) -> tuple[Action | None, float]:
    """The most valuable bid (made at least ``LEAST_MAKE`` of the time), and its value."""
    best: Action | None = None
    best_value = -1.0
    for a in legal:
        if a.type != "bid" or a.amount is None:
            continue
        p = _p_make(strength, a.amount)
        if p < LEAST_MAKE:
            continue
        value = strength + a.amount * p
        if value > best_value:
            best, best_value = a, value
    return best, best_value


# ---- decisions -------------------------------------------------------------------------


def _find(legal: Sequence[Action], kind: str) -> Action | None:
    return next((a for a in legal if a.type == kind), None)


def _auction(view: SeatView, c: _Ctx) -> Action:
    legal = view.legal
    strength = expected_tricks(c.hand, c.trump)
    bid, bid_value = _best_bid(legal, strength)
    drop = _find(legal, "drop")
    accept = _find(legal, "accept")
    options: list[tuple[float, Action]] = []
    if bid is not None:
        options.append((bid_value, bid))
    high = int(view.public.info.get("high_bid") or 0)
    if accept is not None:
        options.append((_defend_value(strength, high), accept))
    if drop is not None:
        options.append((_drop_value(c.hand, c.trump, max(high, TYPICAL_CONTRACT)), drop))
    if not options:
        return legal[0]
    return max(options, key=lambda o: o[0])[1]


def _dealer_option(view: SeatView, c: _Ctx) -> Action:
    strength = expected_tricks(c.hand, c.trump)
    bids = [a for a in view.legal if a.type == "bid" and (a.amount or 0) <= 2]
    bid, _ = _best_bid(bids, strength)
    if bid is not None:
        return bid
    return _find(view.legal, "muck") or view.legal[-1]


def _wins(c: _Ctx, card: str) -> bool:
    """Would ``card`` be winning the current trick if played now?"""
    return trick_winner((*c.trick, (c.seat, card)), c.trump)[0] == c.seat


def _following(c: _Ctx) -> list[str]:
    """Cards of the hand that follow the current trick's led suit (D-10)."""
    led = c.trick[0][1]
    led_suit = c.trump if led == LA_MORTE else SUIT[led]
    if led_suit == c.trump:
        return [x for x in c.hand if x == LA_MORTE or SUIT[x] == led_suit]
    return [x for x in c.hand if x != LA_MORTE and SUIT[x] == led_suit]


def _trick_one_decision(view: SeatView, c: _Ctx) -> Action:
    strength = expected_tricks(c.hand, c.trump)
    p_zero = _p_zero(c.hand, c.trump)
    if c.trick:
        follow = _following(c) or list(c.hand)
        if all(_wins(c, x) for x in follow):
            p_zero *= 0.35 if c.to_play_after > 0 else 0.0  # this trick is probably ours
    drop_value = (c.contract - 1) * p_zero
    accept = _find(view.legal, "accept")
    drop = _find(view.legal, "drop")
    if accept is not None and (drop is None or _defend_value(strength, c.contract) >= drop_value):
        return accept
    return drop or view.legal[0]


# ---- card play -------------------------------------------------------------------------


def _cost(card: str, trump: str | None) -> int:
    """How much a card is worth keeping: trumps above every plain card, La Morte on top."""
    if card == LA_MORTE:
        return 100
    return RANK[card] + (20 if SUIT[card] == trump else 0)


def _cheapest(cards: Sequence[str], trump: str | None, rng: random.Random) -> str:
    low = min(_cost(x, trump) for x in cards)
    ties = sorted(x for x in cards if _cost(x, trump) == low)
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def _future_value(c: _Ctx, without: str) -> float:
    rest = list(c.hand)
    rest.remove(without)
    return expected_tricks(rest, c.trump)


def _known_voids(c: _Ctx) -> dict[int, set[str]]:
    """Suits some seats are known to lack, from the visible tricks."""
    voids: dict[int, set[str]] = {}
    for plays in (c.last_trick, c.trick):
        if not plays or plays[0][1] == LA_MORTE:
            continue
        led_suit = SUIT[plays[0][1]]
        for seat, card in plays[1:]:
            follows = (card == LA_MORTE and led_suit == c.trump) or (
                card != LA_MORTE and SUIT[card] == led_suit
            )
            if not follows:
                voids.setdefault(seat, set()).add(led_suit)
    return voids


def _later_seats(c: _Ctx) -> list[int]:
    out: list[int] = []
    seat = c.seat
    for _ in range(c.to_play_after):
        seat = (seat + 1) % c.players
        if seat == c.morto:
            seat = (seat + 1) % c.players
        out.append(seat)
    return out


def _is_opponent(c: _Ctx, seat: int) -> bool:
    if seat == c.seat:
        return False
    if c.role == "defender":
        return seat == c.maker
    return True


def _lead(c: _Ctx, cards: list[str], rng: random.Random, want_lose: bool) -> str:
    if len(cards) == 1:
        return cards[0]
    counts = _suit_counts(c.hand)
    if want_lose:
        # Lowest card; prefer plain suits (trump leads invite La Morte) and long suits.
        return min(
            cards,
            key=lambda x: (RANK[x], SUIT[x] == c.trump, -counts.get(SUIT[x], 0), x),
        )
    if LA_MORTE in c.hand and len(c.hand) <= SHED_MORTE_BY:
        # La Morte leaves a hand only on a trump lead or onto a suit it lacks: empty the
        # shortest plain suit so that the next lead of it lets La Morte go.
        plain = [x for x in cards if SUIT[x] != c.trump]
        if plain:
            shortest = min(counts[SUIT[x]] for x in plain)
            short = [x for x in plain if counts[SUIT[x]] == shortest]
            top = max(short, key=lambda x: (RANK[x], x))
            return top if RANK[top] >= ACE else min(short, key=lambda x: (RANK[x], x))
    trumps = sorted((x for x in cards if SUIT[x] == c.trump), key=lambda x: -RANK[x])
    morte_safe = not c.morte_out
    if trumps and RANK[trumps[0]] >= ACE and (morte_safe or LA_MORTE in c.hand):
        return trumps[0]  # draw trumps with the top one
    aces = [x for x in cards if SUIT[x] != c.trump and RANK[x] >= ACE]
    if aces:
        return min(aces, key=lambda x: (counts[SUIT[x]], x))
    plain = [x for x in cards if SUIT[x] != c.trump]
    if plain:
        if trumps:  # shorten a side suit so we can ruff it later
            shortest = min(counts[SUIT[x]] for x in plain)
            plain = [x for x in plain if counts[SUIT[x]] == shortest]
        return _cheapest(plain, c.trump, rng)
    return _cheapest(cards, c.trump, rng)


def _follow_to_lose(c: _Ctx, cards: list[str]) -> str:
    losing = [x for x in cards if not _wins(c, x)]
    # La Morte never wins a plain-suit trick: dump it at once (no Fuori dal Tempo, and it
    # cannot be forced onto a trump lead later).
    if LA_MORTE in losing and not _trump_led(c):
        return LA_MORTE
    losing = [x for x in losing if x != LA_MORTE]
    if losing:
        # The highest card that still loses; when void, the most dangerous one.
        return max(losing, key=lambda x: (_danger(x, c.hand, c.trump), RANK[x], x))
    if c.to_play_after > 0:
        return min(cards, key=lambda x: (_cost(x, c.trump), x))  # hope to be overtaken
    return max(cards, key=lambda x: (_cost(x, c.trump), x))  # lost anyway: shed the worst


def _trump_led(c: _Ctx) -> bool:
    led = c.trick[0][1]
    return led == LA_MORTE or (c.trump is not None and SUIT[led] == c.trump)


def _follow_to_win(c: _Ctx, cards: list[str], rng: random.Random) -> str:
    trump_led = _trump_led(c)
    has_morte = LA_MORTE in cards
    if has_morte and trump_led:
        return LA_MORTE  # a sure trick, and La Morte is gone before it can strand us
    if has_morte:  # void in a plain suit: who would become il Morto?
        winner = trick_winner(c.trick, c.trump)[0]
        if _is_opponent(c, winner) or len(c.hand) <= SHED_MORTE_BY:
            return LA_MORTE
    candidates = [x for x in cards if x != LA_MORTE] or cards
    winners = [x for x in candidates if _wins(c, x)]
    if winners and not trump_led:
        morto_now = any(card == LA_MORTE for _, card in c.trick)
        later = _later_seats(c)
        led_suit = SUIT[c.trick[0][1]]
        voids = _known_voids(c)
        morto_risk = morto_now or (
            c.morte_out and any(led_suit in voids.get(s, set()) for s in later)
        )
        if morto_risk:
            losing = [x for x in candidates if x not in winners]
            best = min(winners, key=lambda x: _cost(x, c.trump))
            if losing and _future_value(c, best) >= 1.0:
                return _cheapest(losing, c.trump, rng)  # stay in the game: not il Morto
    if winners:
        if c.to_play_after == 0:
            return _cheapest(winners, c.trump, rng)
        strong = [x for x in winners if RANK[x] >= ACE - 2 or SUIT[x] == c.trump]
        if strong:
            return min(strong, key=lambda x: (_cost(x, c.trump), x))
        return max(winners, key=lambda x: (_cost(x, c.trump), x))
    return _cheapest(candidates, c.trump, rng)


def _play(view: SeatView, c: _Ctx, rng: random.Random) -> Action:
    cards = [a.card for a in view.legal if a.type == "play" and a.card is not None]
    want_lose = c.role == "dropper" and c.tricks_won[c.seat] == 0
    if not c.trick:
        card = _lead(c, cards, rng, want_lose)
    elif want_lose:
        card = _follow_to_lose(c, cards)
    else:
        card = _follow_to_win(c, cards, rng)
    return Action("play", c.seat, card=card)


def choose(view: SeatView, rng: random.Random) -> Action:
    """The computer's action for ``view`` (always one of ``view.legal``)."""
    legal = view.legal
    assert legal, "choose() called for a seat with nothing to decide"
    if len(legal) == 1:
        return legal[0]
    c = _ctx(view)
    phase = view.public.phase
    if phase == "auction":
        action = _auction(view, c)
    elif phase == "dealer_option":
        action = _dealer_option(view, c)
    elif not any(a.type == "play" for a in legal):
        action = _trick_one_decision(view, c)
    else:
        action = _play(view, c, rng)
    assert action in legal, f"policy chose an illegal action {action}"
    return action
