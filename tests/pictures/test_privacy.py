"""The privacy boundary of the pictures: the table picture is drawn from a ``PublicView``
alone, a hand picture and a turn picture (the table above the hand) from that seat's
``SeatView`` alone (ARCHITECTURE §5)."""

from __future__ import annotations

import dataclasses
import inspect
import random
import typing
from typing import Any

import pytest

from bot.engine.deck import shuffle
from bot.engine.registry import get_rules, implemented
from bot.engine.views import PublicView, SeatView
from bot.ui.pictures import clear_caches, render_hand, render_table, render_turn
from bot.ui.pictures.hand import hand_scene
from bot.ui.pictures.table import table_scene
from bot.ui.pictures.turn import turn_scene
from bot.ui.text.winner import winning_seat
from tests.pictures.scenes import SCENES

PUBLIC_FIELDS = {f.name for f in dataclasses.fields(PublicView)}
SEAT_FIELDS = {f.name for f in dataclasses.fields(SeatView)}


@pytest.mark.parametrize("func", [render_table, table_scene], ids=lambda f: f.__name__)
def test_table_renderer_takes_a_public_view(func: Any) -> None:
    hints = typing.get_type_hints(func)
    assert hints["view"] is PublicView
    for name in inspect.signature(func).parameters:
        if name != "view":
            assert hints[name] not in (PublicView, SeatView, Any, object), name
    assert "SeatView" not in str(inspect.signature(func))


@pytest.mark.parametrize("func", [render_hand, hand_scene], ids=lambda f: f.__name__)
def test_hand_renderer_takes_a_seat_view(func: Any) -> None:
    hints = typing.get_type_hints(func)
    assert hints["view"] is SeatView
    # Besides the view, only plain words and card codes (``picked``: the seat's own picks).
    plain = (str, tuple[str, ...])
    assert all(hints[n] in plain for n in inspect.signature(func).parameters if n != "view")


@pytest.mark.parametrize("func", [render_turn, turn_scene], ids=lambda f: f.__name__)
def test_turn_renderer_takes_a_seat_view(func: Any) -> None:
    hints = typing.get_type_hints(func)
    assert hints["view"] is SeatView
    for name in inspect.signature(func).parameters:
        if name != "view":
            assert hints[name] not in (PublicView, SeatView, Any, object), name


class Recorder:
    """Stands in for a view and remembers which attributes were read."""

    def __init__(self, target: object, seen: set[str], nested: dict[str, type] | None = None):
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_seen", seen)
        object.__setattr__(self, "_nested", nested or {})

    def __getattr__(self, name: str) -> Any:
        self._seen.add(name)
        value = getattr(self._target, name)
        if name in self._nested:
            return Recorder(value, self._seen_nested(name))
        return value

    def _seen_nested(self, name: str) -> set[str]:
        key = f"_seen_{name}"
        if key not in self.__dict__:
            object.__setattr__(self, key, set())
        return self.__dict__[key]


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.name)
def test_table_reads_only_public_view_fields(scene) -> None:
    clear_caches()
    seen: set[str] = set()
    proxy: Any = Recorder(scene.public, seen)
    picture = render_table(
        proxy, game_id=scene.game_id, names=scene.names, winning=winning_seat(scene.public)
    )
    assert picture.startswith(b"\x89PNG")
    assert seen and seen <= PUBLIC_FIELDS, seen - PUBLIC_FIELDS


@pytest.mark.parametrize("scene", [s for s in SCENES if s.seat], ids=lambda s: s.name)
def test_hand_reads_only_its_seat_view(scene) -> None:
    clear_caches()
    seen: set[str] = set()
    assert scene.seat is not None
    proxy: Any = Recorder(scene.seat, seen, {"public": PublicView})
    render_hand(proxy, game_id=scene.game_id)
    assert seen and seen <= SEAT_FIELDS, seen - SEAT_FIELDS
    assert proxy._seen_nested("public") <= PUBLIC_FIELDS


@pytest.mark.parametrize("scene", [s for s in SCENES if s.seat], ids=lambda s: s.name)
def test_turn_reads_only_its_seat_view(scene) -> None:
    clear_caches()
    seen: set[str] = set()
    assert scene.seat is not None
    proxy: Any = Recorder(scene.seat, seen, {"public": PublicView})
    render_turn(proxy, game_id=scene.game_id, names=scene.names, scores=(0,) * len(scene.names))
    assert seen and seen <= SEAT_FIELDS, seen - SEAT_FIELDS
    assert proxy._seen_nested("public") <= PUBLIC_FIELDS


@pytest.mark.parametrize("scene", [s for s in SCENES if s.seat], ids=lambda s: s.name)
def test_the_turns_table_is_the_public_table_turned(scene) -> None:
    """The table half of a turn picture is the public picture's scene, seen from the seat."""
    assert scene.seat is not None
    turn = turn_scene(scene.seat, game_id=scene.game_id, names=scene.names)
    public = table_scene(scene.public, game_id=scene.game_id, names=scene.names)
    assert turn.table == public._replace(bottom=scene.seat.seat)


def _hidden_twin(rules: Any, players: int, seed: int) -> tuple[Any, Any]:
    """Two fresh deals whose public views are equal but whose hands differ."""
    options = rules.deal_options(rules.normalize_options(None), [0] * players)
    deck = list(shuffle(rules.pack(players), seed))
    state = rules.new_deal(players, options, deck, 0)
    public = rules.observe_public(state)
    rng = random.Random(seed)
    for _ in range(200):
        i, j = rng.sample(range(len(deck)), 2)
        other = deck.copy()
        other[i], other[j] = other[j], other[i]
        twin = rules.new_deal(players, options, other, 0)
        if rules.observe_public(twin) == public and any(
            rules.observe(state, s).hand != rules.observe(twin, s).hand for s in range(players)
        ):
            return state, twin
    raise AssertionError("no deal differing only in hidden cards found")


@pytest.mark.parametrize("game", sorted(implemented()))
def test_hidden_cards_do_not_change_the_table(game: str) -> None:
    rules = get_rules(game)
    players = rules.min_players
    a, b = _hidden_twin(rules, players, seed=7)
    names = tuple(f"P{i}" for i in range(players))
    clear_caches()
    first = render_table(rules.observe_public(a), game_id=game, names=names)
    clear_caches()
    second = render_table(rules.observe_public(b), game_id=game, names=names)
    assert first == second
    # …while the hands differ, and so do the pictures of a hand that changed.
    seat = next(s for s in range(players) if rules.observe(a, s).hand != rules.observe(b, s).hand)
    assert render_hand(rules.observe(a, seat), game_id=game) != render_hand(
        rules.observe(b, seat), game_id=game
    )
