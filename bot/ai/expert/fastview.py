"""Cheap seat views for rollouts: what the casual card play reads, nothing more.

``Rules.observe`` builds everything a table shows (sorted hands, every public detail, the
reason a card is forbidden); in a rollout most of that is thrown away, and it costs more than
the engine's move and the policy together. During card play a rollout therefore builds the
view itself from the state's documented fields (the JSON form's names) with exactly what the
casual card play of that game reads, and the public history kept by the rollout. Any other
phase — and any game without a builder here — uses ``Rules.observe``.

``tests/ai/test_expert.py`` checks, over seeded deals of every game, that the casual policy
chooses the same action from this view as from ``Rules.observe``; if a state's layout
changes, a builder that fails falls back to ``Rules.observe`` for good.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine.actions import Action
from bot.engine.rules import Rules
from bot.engine.views import PublicView, SeatView

Builder = Callable[[Rules, Any, int, tuple[Action, ...], dict[str, Any]], SeatView | None]


def _public(
    rules: Rules,
    s: Any,
    seat: int,
    players: int,
    history: tuple[Action, ...],
    info: dict[str, Any],
    tricks_won: tuple[int, ...] = (),
) -> PublicView:
    tricks = s.tricks
    return PublicView(
        game_id=rules.game_id,
        phase="play",
        players=players,
        dealer=s.dealer,
        to_act=seat,
        hand_sizes=(),
        trick=s.trick,
        tricks_won=tricks_won,
        tricks_played=len(tricks),
        last_trick=tricks[-1] if tricks else (),
        info=info,
        history=history,
    )


def _hand(s: Any, seat: int, keys: dict[str, Any]) -> tuple[str, ...]:
    return tuple(sorted(s.hands[seat], key=keys.__getitem__))


def _early_french_tarot(
    rules: Rules, s: Any, seat: int, history: tuple[Action, ...], keys: dict[str, Any]
) -> SeatView | None:
    if s.turn != seat:
        return None
    public = _public(rules, s, seat, s.players, history, {})
    return SeatView(seat, _hand(s, seat, keys), rules.legal_actions(s), public)


def _losers_game(
    rules: Rules, s: Any, seat: int, history: tuple[Action, ...], keys: dict[str, Any]
) -> SeatView | None:
    if s.phase != "play":
        return None
    bids = [[i, b] for i, b in enumerate(s.bids) if b is not None]
    info = {"trump": s.trump, "bids": bids, "b_max": s.b_max}
    public = _public(rules, s, seat, s.players, history, info)
    return SeatView(seat, _hand(s, seat, keys), rules.legal_actions(s), public)


def _queen_of_tarot(
    rules: Rules, s: Any, seat: int, history: tuple[Action, ...], keys: dict[str, Any]
) -> SeatView | None:
    if s.phase != "play":
        return None
    public = _public(rules, s, seat, 3, history, {})
    return SeatView(seat, _hand(s, seat, keys), rules.legal_actions(s), public)


def _la_morte(
    rules: Rules, s: Any, seat: int, history: tuple[Action, ...], keys: dict[str, Any]
) -> SeatView | None:
    if s.phase != "play":
        return None
    info = {
        "talon": s.talon,
        "trump": s.trump,
        "statuses": [str(x) for x in s.statuses],
        "high_bid": s.high_bid,
        "contract": s.contract,
        "maker": s.maker,
        "morto": s.morto,
        "fuori": s.fuori,
    }
    public = _public(rules, s, seat, s.players, history, info, s.tricks_won)
    return SeatView(seat, _hand(s, seat, keys), rules.legal_actions(s), public)


def _french_tarot(
    rules: Rules, s: Any, seat: int, history: tuple[Action, ...], keys: dict[str, Any]
) -> SeatView | None:
    if s.phase != "play":
        return None
    taker, called, called_by = s.taker, s.called, s.called_by
    in_dog = s.contract in ("prise", "garde") and called is not None and called in s.dog
    alone = None
    if called is not None and (called_by is not None or in_dog):
        alone = called_by == taker if called_by is not None else s.partner is None
    info = {
        "taker": taker,
        "contract": s.contract,
        "called": called,
        "partner": (called_by if called_by != taker else None) if called_by is not None else None,
        "alone": alone,
    }
    public = _public(rules, s, seat, s.players, history, info)
    return SeatView(seat, _hand(s, seat, keys), rules.legal_actions(s), public)


BUILDERS: dict[str, Builder] = {
    "french_tarot": _french_tarot,
    "early_french_tarot": _early_french_tarot,
    "losers_game": _losers_game,
    "queen_of_tarot": _queen_of_tarot,
    "la_morte": _la_morte,
}
_broken: set[str] = set()
_keys_cache: dict[tuple[str, int, object], dict[str, Any]] = {}


class Observer:
    """``observe(state, seat)`` for one rollout: the cheap view during card play when the
    game has a builder, else ``Rules.observe`` with the rollout's public history added."""

    __slots__ = ("_build", "_keys", "rules")

    def __init__(self, rules: Rules, state: Any) -> None:
        self.rules = rules
        build = BUILDERS.get(rules.game_id)
        self._build = None if rules.game_id in _broken else build
        self._keys: dict[str, Any] = {}
        if self._build is not None:
            try:
                # display order of a hand: fixed for a deal (La Morte's depends on trump)
                players = getattr(state, "players", 3)
                key = (rules.game_id, players, getattr(state, "trump", None))
                keys = _keys_cache.get(key)
                if keys is None:
                    pack = rules.pack(players)
                    keys = _keys_cache[key] = {c: rules.card_sort_key(state, c) for c in pack}
                self._keys = keys
            except Exception:  # a state layout this builder does not know
                self._build = None

    def __call__(self, state: Any, seat: int, history: tuple[Action, ...]) -> SeatView:
        if self._build is not None:
            try:
                view = self._build(self.rules, state, seat, history, self._keys)
            except (AttributeError, KeyError, TypeError):
                _broken.add(self.rules.game_id)
                self._build = None
                view = None
            if view is not None:
                return view
        view = self.rules.observe(state, seat)
        if history and not view.public.history:
            public = view.public
            view = SeatView(
                view.seat,
                view.hand,
                view.legal,
                PublicView(
                    public.game_id,
                    public.phase,
                    public.players,
                    public.dealer,
                    public.to_act,
                    public.hand_sizes,
                    public.trick,
                    public.tricks_won,
                    public.tricks_played,
                    public.last_trick,
                    public.last_winner,
                    public.info,
                    public.result,
                    history,
                ),
                view.info,
            )
        return view
