"""French Tarot deal scoring (``shared/rules/french_tarot.md`` §4.4, §4.5, §5).

Pure arithmetic over a finished deal: the camps' piles after the Excuse rules, the attack's
points and bouts, and the unit score ``U`` spread by the player-count weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from bot.engine.cards import EXCUSE
from bot.engine.games.french_tarot_cards import (
    HP,
    MULTIPLIER,
    PARAMS,
    PETIT,
    POIGNEE_BONUS,
    POIGNEE_NAMES,
    SOLO_WEIGHT_5P,
    TARGET_HP,
    TWENTY_ONE,
    half_points,
)
from bot.engine.trick import Play

_CARD = itemgetter(1)
#: The cards worth one half point but the Excuse (as ``half_points``): an Excuse's debt.
_LOW = frozenset(c for c, hp in HP.items() if hp == 1 and c != EXCUSE)
_IS_LOW = _LOW.__contains__
_LOW_SORTED = tuple(sorted(_LOW))
#: Each card's half points times four, plus one for a bout: a pile's sum gives both at once
#: (three bouts at most, so the bout count fits the low two bits).
_HP_BOUT: dict[str, int] = {c: 4 * hp + (c in (PETIT, TWENTY_ONE, EXCUSE)) for c, hp in HP.items()}
#: Chelem bonus by (made, announced): unmultiplied, attack only (§5.2, C-2).
_CHELEM: dict[tuple[bool, bool], int] = {
    (True, True): 400,
    (True, False): 200,
    (False, True): -200,
    (False, False): 0,
}


def piles(
    attack: frozenset[int],
    contract: str,
    dog: Sequence[str],
    discard: Sequence[str],
    tricks: Sequence[Sequence[Play]],
    winners: Sequence[int],
) -> tuple[list[str], list[str], dict[str, Any]]:
    """Final attack and defence piles, and how the Excuse was settled.

    The Excuse played before the last trick returns to its owner's camp when the other camp
    won the trick (french_tarot D-11: no exchange inside a camp), and its camp owes one
    half-point card. The debt is paid from the camp's pile — its discard or dog included
    (C-1) — at once or as soon as it holds such a card; cards never leave a pile otherwise,
    so "paid at some point" is "holds a half-point card at the end", else it lapses (D-10).
    On the last trick the Excuse goes with the trick (§4.4), which ``winners`` already
    reflects for the §4.5 exception.
    """
    att: list[str] = []
    dfc: list[str] = []
    if contract == "garde_sans":
        att.extend(dog)
    elif contract == "garde_contre":
        dfc.extend(dog)
    else:
        att.extend(discard)  # the dog went into the taker's hand; the discard is the attack's
    debtor: str | None = None
    last = len(tricks) - 1
    for i, (trick, winner) in enumerate(zip(tricks, winners, strict=True)):
        win_att = winner in attack
        for seat, card in trick:
            if card == EXCUSE and i < last and (seat in attack) != win_att:
                (att if seat in attack else dfc).append(card)
                debtor = "attack" if seat in attack else "defence"
            else:
                (att if win_att else dfc).append(card)
    settled: dict[str, Any] = {"debtor": debtor, "paid": None}
    if debtor is not None:
        pay_from, pay_to = (att, dfc) if debtor == "attack" else (dfc, att)
        low = sorted(c for c in pay_from if half_points(c) == 1 and c != EXCUSE)
        if low:
            pay_from.remove(low[0])
            pay_to.append(low[0])
            settled["paid"] = low[0]
    return att, dfc, settled


def _first_low(
    flat: list[str], winners: Sequence[int], attack: tuple[int, ...], n: int, dog: Sequence[str]
) -> str | None:
    """The lowest low card (``min`` over ``_LOW``) that the defence took in a trick or owns in
    ``dog``; ``flat`` lists the tricks' cards in order, each trick ``n`` cards. The defence
    takes most tricks, so the first few low cards in order nearly always settle it: a few
    C-level scans of ``flat`` instead of gathering and filtering the defence's pile."""
    for c in _LOW_SORTED:
        at = _index(flat, c)
        if at >= 0:
            if winners[at // n] not in attack:
                return c
        elif c in dog:
            return c
    return None


def _index(flat: list[str], card: str) -> int:
    """Position of ``card`` in ``flat``, -1 if absent (one scan, not ``in`` then ``index``)."""
    try:
        return flat.index(card)
    except ValueError:
        return -1


def _trick_of(
    card: str, flat: list[str], tricks: Sequence[Sequence[Play]], n: int
) -> tuple[int, int]:
    """(trick index, seat) of a played ``card``; ``flat`` lists the tricks' cards in order
    and ``n`` is every trick's size (0 when sizes differ)."""
    if n:
        at = flat.index(card)
        return at // n, tricks[at // n][at % n][0]
    for i, trick in enumerate(tricks):
        for seat, c in trick:
            if c == card:
                return i, seat
    raise ValueError(card)


def score(
    *,
    players: int,
    taker: int,
    partner: int | None,
    contract: str,
    dog: Sequence[str],
    discard: Sequence[str],
    tricks: Sequence[Sequence[Play]],
    winners: Sequence[int],
    excuse_won_last: bool,
    poignees: Sequence[tuple[int, int]],
    chelem_announced: bool,
) -> tuple[tuple[int, ...], dict[str, Any]]:
    """Deltas per seat and the public score sheet of one played deal.

    ``poignees`` lists ``(seat, level)`` with level 0/1/2 = simple/double/triple.
    """
    attack = (taker,) if partner is None else (taker, partner)
    # The attack's pile (same cards as ``piles``; this is its fast form): its tricks, then
    # the discard or the dog it owns, then the Excuse's and its debt's moves (§4.4, C-1).
    flat = [c for t in tricks for _, c in t]  # cheaper than map(itemgetter) over a chain
    n = players if len(tricks) * players == len(flat) else 0
    if n:
        att: list[str] = []
        if len(attack) == 1:  # a lone taker: its tricks found by C-level scans of the winners
            i = -1
            for _ in range(winners.count(taker)):
                i = winners.index(taker, i + 1)
                att += flat[i * n : i * n + n]
        else:
            for i, w in enumerate(winners):
                if w in attack:
                    att += flat[i * n : i * n + n]
    else:
        att = [c for t, w in zip(tricks, winners, strict=True) if w in attack for _, c in t]
    if contract == "garde_sans":
        att += dog
    elif contract != "garde_contre":
        att += discard
    last = len(tricks) - 1
    excuse: dict[str, Any] = {"debtor": None, "paid": None}
    at = _index(flat, EXCUSE)
    if at >= 0:
        i = at // n if n else _trick_of(EXCUSE, flat, tricks, 0)[0]
        owner = tricks[i][at % n][0] if n else _trick_of(EXCUSE, flat, tricks, 0)[1]
        owner_attack = owner in attack
        if i < last and owner_attack != (winners[i] in attack):
            if owner_attack:
                att.append(EXCUSE)
                excuse["debtor"] = "attack"
                paid = min(filter(_IS_LOW, att), default=None)
                if paid is not None:
                    att.remove(paid)
                    excuse["paid"] = paid
            else:
                att.remove(EXCUSE)
                excuse["debtor"] = "defence"
                # the lowest low card of the defence's pile: the tricks the attack did not
                # win, and the dog in a garde contre
                own_dog = dog if contract == "garde_contre" else ()
                if n:
                    paid = _first_low(flat, winners, attack, n, own_dog)
                else:
                    held = set(att)
                    dfc = [c for c in flat if c not in held and c != EXCUSE]
                    paid = min(filter(_IS_LOW, (*dfc, *own_dog)), default=None)
                if paid is not None:
                    att.append(paid)
                    excuse["paid"] = paid
    both = sum(map(_HP_BOUT.__getitem__, att))  # one pass: half points and bouts
    p2, bouts = both >> 2, both & 3
    t2 = TARGET_HP[bouts]
    d2 = p2 - t2
    made = d2 >= 0
    w = 1 if made else -1
    g = (abs(d2) + 1) // 2  # french_tarot D-8: the odd half point goes to the winning camp
    m = MULTIPLIER[contract]

    # Petit au bout (D-9, §4.5, C-3): the Petit in the last trick, or in the penultimate one
    # when the Excuse won the last trick for a camp that took every trick.
    pab = 0
    pab_camp: str | None = None
    at = _index(flat, PETIT)
    if at >= 0:
        i = at // n if n else _trick_of(PETIT, flat, tricks, 0)[0]
        if i == last or (excuse_won_last and i == last - 1):
            pab_camp = "attack" if winners[i] in attack else "defence"
            pab = 10 * m if pab_camp == "attack" else -10 * m

    poignee_total = sum([POIGNEE_BONUS[level] for _, level in poignees]) if poignees else 0
    # C-4: the attack took every trick
    taken = winners.count(taker)
    if partner is not None and partner != taker:
        taken += winners.count(partner)
    chelem_made = taken == len(winners)
    ch = _CHELEM[chelem_made, chelem_announced]
    u = w * (25 + g) * m + pab + w * poignee_total + ch

    solo = players == 5 and partner is None
    taker_weight = SOLO_WEIGHT_5P if solo else PARAMS[players].taker_weight
    deltas = [-u] * players
    deltas[taker] = taker_weight * u
    if partner is not None:
        deltas[partner] = u
    detail: dict[str, Any] = {
        "contract": contract,
        "multiplier": m,
        "taker": taker,
        "partner": partner,
        "solo": solo,
        "bouts": bouts,
        "points_hp": p2,
        "target_hp": t2,
        "diff_hp": d2,
        "made": made,
        "difference": g,
        "petit_au_bout": pab,
        "petit_au_bout_camp": pab_camp,
        "poignees": [
            {"seat": s, "level": POIGNEE_NAMES[lv], "bonus": POIGNEE_BONUS[lv]}
            for s, lv in poignees
        ]
        if poignees
        else [],
        "poignee_total": w * poignee_total,
        "chelem_announced": chelem_announced,
        "chelem_made": chelem_made,
        "chelem": ch,
        "unit": u,
        "excuse": excuse,
        "attack_cards": len(att),
    }
    return tuple(deltas), detail
