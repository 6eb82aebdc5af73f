"""The concrete actions the expert compares at one decision (a handful, the casual one first).

Small choice sets are searched whole (bids, calls, accept/drop, declarations, most card
plays). Large ones are pruned to sensible candidates:

* **cards**: cards that are interchangeable are searched once — same suit, same value, and
  every card ranked between them is in this hand or already played (``PublicView.history``);
  if more than ``MAX_CARDS`` remain, the casual card plus each suit's lowest, highest and most
  valuable card;
* **multi-card templates** (discards, poignées): the casual policy's completion plus variations
  (void a suit first, bank the most points, each poignée level);
* **amounts** (La Morte and Loser's Game bids, Queen of Tarot demands and offers): the casual
  amount, its neighbours, and the amounts that matter (the one that settles a bargain…).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from bot.engine.actions import Action
from bot.engine.cards import FRENCH_PACK, FRENCH_RANKS, TAROT_RANKS
from bot.engine.rules import Rules
from bot.engine.views import SeatView

MAX_CARDS = 10
MAX_CANDIDATES = 10

# ---- card models: suit, order within the suit, value (None: cards never interchangeable) ----

_FT_COURT = {"K": 9, "Q": 7, "C": 5, "J": 3}
_EFT_COURT = {"K": 4, "Q": 3, "C": 2, "J": 1}
_QOT_COURT = {"K": 5, "Q": 4, "C": 3, "J": 2}
_LM_ORDER = {r: i for i, r in enumerate(("5", "6", "7", "8", "9", "10", "J", "C", "Q", "K", "1"))}
_QOT_LONG = TAROT_RANKS
_QOT_ROUND = ("10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "J", "C", "Q", "K")

CardKey = tuple[str, int, int]  # suit, order (higher wins), value


def _tarot_key(card: str, court: dict[str, int], bouts: dict[str, int], pip: int) -> CardKey:
    if card == "EX":
        return ("EX", 0, bouts.get("EX", 0))
    if card[0] == "T":
        return ("T", int(card[1:]), bouts.get(card, pip))
    rank = card[1:]
    return (card[0], TAROT_RANKS.index(rank), court.get(rank, pip))


def _ft_key(card: str) -> CardKey:
    return _tarot_key(card, _FT_COURT, {"EX": 9, "T1": 9, "T21": 9}, 1)


def _eft_key(card: str) -> CardKey:
    return _tarot_key(card, _EFT_COURT, {"EX": 5, "T1": 4, "T21": 4}, 0)


def _qot_key(card: str) -> CardKey:
    if card == "EX":
        return ("EX", 0, 4)
    if card[0] == "T":
        n = int(card[1:])
        return ("T", 22 if n == 20 else n, 5 if n in (1, 20) else 1)
    rank = card[1:]
    order = _QOT_ROUND if card[0] in "HD" else _QOT_LONG
    return (card[0], order.index(rank), _QOT_COURT.get(rank, 1))


def _lm_key(card: str) -> CardKey:
    if card == "T13":  # La Morte: never interchangeable
        return ("LM", 0, 0)
    if card == "T1":  # Il Bagatto, the highest club
        return ("C", 12, 0)
    return (card[0], _LM_ORDER[card[1:]], 0)


_LG_ORDER = {r: i for i, r in enumerate(FRENCH_RANKS)}


def _lg_key(card: str) -> CardKey:
    # every rank counts for sets: no two cards are interchangeable (value = rank)
    order = _LG_ORDER[card[1:]]
    return (card[0], order, order)


CARD_KEYS: dict[str, Callable[[str], CardKey]] = {
    "losers_game": _lg_key,
    "french_tarot": _ft_key,
    "early_french_tarot": _eft_key,
    "queen_of_tarot": _qot_key,
    "la_morte": _lm_key,
}
#: Cards whose identity matters beyond suit, order and value (never merged).
SPECIAL: dict[str, frozenset[str]] = {
    "french_tarot": frozenset({"T1", "T21", "EX"}),
    "early_french_tarot": frozenset({"T1", "T21", "EX"}),
    "queen_of_tarot": frozenset({"T1", "T20", "EX"}),
    "la_morte": frozenset({"T13"}),
}


def _dedupe(actions: Sequence[Action]) -> list[Action]:
    seen: set[tuple[object, ...]] = set()
    out: list[Action] = []
    for a in actions:
        key = (*a[:4], tuple(sorted(a.cards)) if a.cards is not None else None, *a[5:])
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


def played_cards(view: SeatView) -> set[str]:
    """Every card seen played in this deal (the public history, else the visible tricks)."""
    out = {a.card for a in view.public.history if a.type == "play" and a.card is not None}
    out.update(card for _, card in view.public.trick)
    out.update(card for _, card in view.public.last_trick)
    return out


def card_candidates(
    game: str, view: SeatView, plays: Sequence[Action], casual: Action
) -> list[Action]:
    """One play per class of interchangeable cards, at most ``MAX_CARDS``."""
    key = CARD_KEYS.get(game)
    if key is None or len(plays) <= 2:
        chosen = list(plays)
    else:
        special = SPECIAL.get(game, frozenset())
        gone = played_cards(view) | set(view.hand)
        # all cards of the pack sharing a suit with a legal card, by order: which are gone?
        by_suit: dict[str, list[Action]] = {}
        for a in plays:
            by_suit.setdefault(key(a.card or "")[0], []).append(a)
        chosen = []
        for suit_plays in by_suit.values():
            suit_plays.sort(key=lambda a: key(a.card or "")[1])
            prev: Action | None = None
            for a in suit_plays:
                card = a.card or ""
                if prev is not None and card not in special and prev.card not in special:
                    _, lo, v0 = key(prev.card or "")
                    _, hi, v1 = key(card)
                    if v0 == v1 and _gap_gone(key, card, lo, hi, gone):
                        # interchangeable with ``prev``: keep the casual card if it is this one
                        if a == casual:
                            chosen[-1] = a
                        prev = a
                        continue
                chosen.append(a)
                prev = a
    if casual in plays and casual not in chosen:
        chosen.insert(0, casual)
    if len(chosen) > MAX_CARDS and key is not None:
        chosen = _trim_cards(chosen, key, casual)
    return _casual_first(chosen, casual)


def _gap_gone(key: Callable[[str], CardKey], card: str, lo: int, hi: int, gone: set[str]) -> bool:
    """True if every card of ``card``'s suit ranked strictly between ``lo`` and ``hi`` is
    held or already played."""
    suit = key(card)[0]
    for other in _SUIT_CARDS.get(key, {}).get(suit, ()):
        order = key(other)[1]
        if lo < order < hi and other not in gone:
            return False
    return True


def _suit_cards(key: Callable[[str], CardKey], pack: Sequence[str]) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for card in pack:
        out.setdefault(key(card)[0], []).append(card)
    return {s: tuple(cards) for s, cards in out.items()}


def _tarot_pack() -> tuple[str, ...]:
    from bot.engine.cards import TAROT_PACK

    return TAROT_PACK


_SUIT_CARDS: dict[Callable[[str], CardKey], dict[str, tuple[str, ...]]] = {
    _ft_key: _suit_cards(_ft_key, _tarot_pack()),
    _eft_key: _suit_cards(_eft_key, _tarot_pack()),
    _qot_key: _suit_cards(_qot_key, _tarot_pack()),
    _lg_key: _suit_cards(_lg_key, FRENCH_PACK),
    _lm_key: _suit_cards(
        _lm_key,
        [s + r for s in "SHDC" for r in _LM_ORDER] + ["T1", "T13"],
    ),
}


def _trim_cards(plays: list[Action], key: Callable[[str], CardKey], casual: Action) -> list[Action]:
    """The casual card, then each suit's lowest, highest and most valuable card."""
    picked: list[Action] = [casual] if casual in plays else []
    by_suit: dict[str, list[Action]] = {}
    for a in plays:
        by_suit.setdefault(key(a.card or "")[0], []).append(a)
    tiers: list[list[Action]] = [[], [], []]
    for suit_plays in by_suit.values():
        suit_plays.sort(key=lambda a: key(a.card or "")[1])
        tiers[0].append(suit_plays[0])
        tiers[1].append(suit_plays[-1])
        tiers[2].append(max(suit_plays, key=lambda a: key(a.card or "")[2]))
    for tier in tiers:
        for a in tier:
            if a not in picked and len(picked) < MAX_CARDS:
                picked.append(a)
    return picked


def _casual_first(actions: list[Action], casual: Action) -> list[Action]:
    out = _dedupe(actions)
    if casual in out:
        out.remove(casual)
    return [casual, *out]


# ---- amounts --------------------------------------------------------------------------------


def _amount_candidates(
    kind: str, seat: int, legal_amounts: Sequence[int], wanted: Sequence[int]
) -> list[Action]:
    allowed = set(legal_amounts)
    return [Action(kind, seat, amount=x) for x in wanted if x in allowed]


def _la_morte(view: SeatView, casual: Action) -> list[Action]:
    from bot.ai.la_morte import expected_tricks

    legal = list(view.legal)
    others = [a for a in legal if a.type != "bid"]
    amounts = sorted(a.amount for a in legal if a.type == "bid" and a.amount is not None)
    if not amounts:
        return legal
    strength = expected_tricks(view.hand, view.public.info.get("trump"))
    near = sorted(amounts, key=lambda x: (abs(x - strength), x))[:4]
    wanted = {amounts[0], *near}
    if casual.type == "bid" and casual.amount is not None:
        wanted.add(casual.amount)
    bids = _amount_candidates("bid", view.seat, amounts, sorted(wanted))
    return [*others, *bids]


def _losers_game(view: SeatView, casual: Action) -> list[Action]:
    legal = list(view.legal)
    if legal[0].type != "bid":
        return legal
    amounts = sorted(a.amount for a in legal if a.amount is not None)
    b = casual.amount or 0
    wanted = [0, b, b - 1, b + 1, b - 2, b + 2, b - 4, b + 4]
    return _amount_candidates("bid", view.seat, amounts, wanted)


def _queen_of_tarot(view: SeatView, casual: Action) -> list[Action]:
    legal = list(view.legal)
    if view.public.phase != "bargain":
        return legal
    seat = view.seat
    b = view.public.info["bargain"]
    ranges: dict[str, list[int] | None] = b["ranges"]
    gap = b["offered"] - b["demanded"]
    position = b["positions"][seat]
    mine = position["amount"] or 0
    out = [a for a in legal if a.type in ("pass", "continue")]
    for kind, wanted in (
        ("demand", [gap, 1, 2, 3, 5, 8, mine - 1]),
        ("offer", [(mine if position["position"] == "offer" else 0) - gap, 1, 2, 4, mine + 1]),
    ):
        bounds = ranges.get(kind)
        if not bounds:
            continue
        low, high = bounds
        out += [Action(kind, seat, amount=x) for x in wanted if low <= x <= high]
    return out


AMOUNTS: dict[str, Callable[[SeatView, Action], list[Action]]] = {
    "la_morte": _la_morte,
    "losers_game": _losers_game,
    "queen_of_tarot": _queen_of_tarot,
}


# ---- templates -------------------------------------------------------------------------------


def _french_tarot_templates(
    view: SeatView, templates: Sequence[Action], casual: Action
) -> list[Action]:
    from bot.ai.french_tarot import discard_candidates, poignee_choice

    out: list[Action] = []
    for t in templates:
        if t.type == "discard":
            out += discard_candidates(view, t)
        elif t.type == "poignee":
            out.append(poignee_choice(t))
    return out


def _queen_of_tarot_templates(
    view: SeatView, templates: Sequence[Action], casual: Action
) -> list[Action]:
    from bot.ai.queen_of_tarot import discard_candidates

    out: list[Action] = []
    for t in templates:
        if t.type == "discard":
            out += discard_candidates(view, t)
    return out


TEMPLATES: dict[str, Callable[[SeatView, Sequence[Action], Action], list[Action]]] = {
    "french_tarot": _french_tarot_templates,
    "queen_of_tarot": _queen_of_tarot_templates,
}


def candidates(rules: Rules, view: SeatView, casual: Action, rng: random.Random) -> list[Action]:
    """Concrete candidates for ``view``'s decision, the casual action first."""
    game = rules.game_id
    multi = rules.multi_card_types
    templates = [a for a in view.legal if a.type in multi]
    plain = [a for a in view.legal if a.type not in multi]
    out: list[Action] = []
    if templates:
        hook = TEMPLATES.get(game)
        made = hook(view, templates, casual) if hook else []
        if not made:
            made = [rules.random_choice(view, t, rng) for t in templates for _ in range(3)]
        out += made
    plays = [a for a in plain if a.type == "play"]
    others = [a for a in plain if a.type != "play"]
    if plays:
        out += card_candidates(game, view, plays, casual if casual.type == "play" else plays[0])
    if others:
        hook_amounts = AMOUNTS.get(game)
        if hook_amounts is not None and len(others) > MAX_CANDIDATES:
            out += hook_amounts(view, casual)
        else:
            out += others
    return _casual_first(out, casual)[: MAX_CANDIDATES + 4]
