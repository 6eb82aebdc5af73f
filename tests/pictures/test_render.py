"""Rendering real deals of every game and player count, and the renderers' contract: PNG
bytes, identical inputs rendered once, legal cards raised, arguments checked; the table's
layout (nothing overlaps at any seat count) and the turn picture's proportions."""

from __future__ import annotations

import dataclasses
import io
import random
from typing import Any

import pytest
from PIL import Image

from bot.engine.actions import Action
from bot.engine.deck import shuffle
from bot.engine.registry import get_rules, implemented
from bot.engine.views import SeatView
from bot.ui.pictures import layout, render_hand, render_table, render_turn
from bot.ui.pictures._style import clean
from bot.ui.pictures.hand import hand_scene
from bot.ui.pictures.table import WIDTH, table_scene
from bot.ui.pictures.tiles import LARGE_GLOW, LARGE_H, LARGE_W
from bot.ui.pictures.turn import turn_height, turn_scene
from bot.ui.text.winner import winning_seat
from tests.pictures.scenes import FRENCH_TAROT, FRENCH_TAROT_WON, LA_MORTE, SCENES

CASES = [
    (game, players)
    for game in sorted(implemented())
    for players in range(get_rules(game).min_players, get_rules(game).max_players + 1)
]


def _states(game: str, players: int, picks: int = 4) -> list[Any]:
    """A few states spread over one random deal, its last state included."""
    rules = get_rules(game)
    rng = random.Random(players)
    options = rules.deal_options(rules.normalize_options(None), [0] * players)
    state = rules.new_deal(players, options, shuffle(rules.pack(players), players), 0)
    states = [state]
    while rules.to_act(state) is not None:
        action = rng.choice(rules.legal_actions(state))
        if action.type in rules.multi_card_types:
            action = rules.random_choice(rules.observe(state, action.seat), action, rng)
        state, _ = rules.apply(state, action)
        states.append(state)
    step = max(1, len(states) // picks)
    return [*states[step::step][: picks - 1], states[-1]]


@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_real_deals_render(game: str, players: int) -> None:
    rules = get_rules(game)
    names = tuple(f"Player {i} 🎲" for i in range(players))
    for state in _states(game, players):
        public = rules.observe_public(state)
        table = render_table(public, game_id=game, names=names, winning=winning_seat(public))
        img = Image.open(io.BytesIO(table))
        assert img.format == "PNG" and img.size == (layout.WIDTH, layout.HEIGHT)
        seat = public.to_act if public.to_act is not None else 0
        view = rules.observe(state, seat)
        hand = Image.open(io.BytesIO(render_hand(view, game_id=game)))
        assert hand.format == "PNG"
        turn = Image.open(io.BytesIO(render_turn(view, game_id=game, names=names)))
        assert turn.size == (WIDTH, turn_height(len(view.hand)))


def _box(centre: tuple[float, float], w: float, h: float) -> tuple[float, float, float, float]:
    return centre[0] - w / 2, centre[1] - h / 2, centre[0] + w / 2, centre[1] + h / 2


def _apart(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize("players", range(2, 7))
def test_seats_their_cards_and_the_middle_do_not_overlap(players: int) -> None:
    """Plates, framed trick cards and the middle's caption (the widest "Won by …") lie
    apart and inside the picture, at every seat count and whoever sits at the bottom."""
    pad = LARGE_GLOW
    middle = _box(layout.CENTRE, layout.CENTRE_W, 44)
    for bottom in range(players):
        boxes = [middle]
        for seat in range(players):
            plate = layout.plate_centre(seat, players, bottom)
            card = layout.card_centre(seat, players, bottom)
            boxes.append(_box(plate, layout.PLATE_W, layout.PLATE_H))
            boxes.append(_box(card, LARGE_W + 2 * pad, LARGE_H + 2 * pad))
        for i, a in enumerate(boxes):
            assert a[0] >= 0 and a[1] >= 0 and a[2] <= layout.WIDTH and a[3] <= layout.HEIGHT
            for b in boxes[i + 1 :]:
                assert _apart(a, b), (players, bottom, a, b)
    for top, low in layout.free_bands(players):  # the centre's words and cards: no plate
        band = (layout.MARGIN, top, layout.WIDTH - layout.MARGIN, low)
        for seat in range(players):
            plate = _box(layout.plate_centre(seat, players), layout.PLATE_W, layout.PLATE_H)
            assert _apart(band, plate), (players, band, plate)


def test_no_layout_for_seven_seats() -> None:
    with pytest.raises(ValueError):
        layout.stand(0, 7)


def test_the_trick_just_won_stays_until_the_next_lead() -> None:
    names = ("a", "b", "c", "d")
    won = table_scene(FRENCH_TAROT_WON, game_id="french_tarot", names=names)
    assert won.trick == FRENCH_TAROT_WON.last_trick and won.winning == 0
    assert won.caption == "Won by a" and won.led is None and won.centre == ()
    lead = dataclasses.replace(FRENCH_TAROT_WON, trick=((0, "S9"),), to_act=1)
    scene = table_scene(lead, game_id="french_tarot", names=names, winning=0)
    assert scene.trick == ((0, "S9"),) and scene.caption == "led" and scene.led == "S"


@pytest.mark.parametrize("cards", [1, 7, 13, 14, 18, 23, 26, 28, 30, 39])
def test_the_turn_picture_stays_phone_shaped(cards: int) -> None:
    assert turn_height(cards) / WIDTH <= 1.4


def test_the_turn_picture_puts_the_seat_at_the_bottom_with_the_contract() -> None:
    seat = next(s.seat for s in SCENES if s.name == "la_morte")
    assert seat is not None
    scene = turn_scene(seat, game_id="la_morte", names=("A", "B", "C", "D"), scores=(1, 2, 3, 4))
    assert scene.table.bottom == seat.seat
    assert [s.score for s in scene.table.seats] == ["+1", "+2", "+3", "+4"]
    ribbon = "".join(text for text, _ink in scene.ribbon)
    assert ribbon.startswith("Trick 3 of 9") and "Contract 8 by A" in ribbon
    assert scene.hand.cards == seat.hand


def test_identical_pictures_are_rendered_once() -> None:
    scene = SCENES[0]
    first = render_table(scene.public, game_id=scene.game_id, names=scene.names)
    again = render_table(scene.public, game_id=scene.game_id, names=scene.names)
    assert again is first
    other = render_table(scene.public, game_id=scene.game_id, names=("a", "b", "c", "d"))
    assert other != first


def test_the_hand_picture_ignores_what_it_does_not_show() -> None:
    """Another player's move changes the public view but not this hand's picture."""
    seat = SCENES[0].seat
    assert seat is not None
    later = dataclasses.replace(LA_MORTE, trick=((0, "D8"), (1, "DK"), (2, "DQ")), to_act=3)
    moved = SeatView(seat.seat, seat.hand, (), LA_MORTE, seat.info)
    quiet = SeatView(seat.seat, seat.hand, (), later, seat.info)
    assert hand_scene(moved, game_id="la_morte") == hand_scene(quiet, game_id="la_morte")


def test_legal_cards_are_raised_and_only_cards_from_the_hand() -> None:
    hand = ("SK", "HK", "H2", "T21")
    legal = (Action("play", 0, card="H2"), Action("play", 0, card="HK"))
    scene = hand_scene(SeatView(0, hand, legal, FRENCH_TAROT), game_id="french_tarot")
    assert scene.legal == (False, True, True, False)
    assert scene.hint == "playable"
    discard = (Action("discard", 0, cards=("H2", "SK"), amount=1),)
    scene = hand_scene(SeatView(0, hand, discard, FRENCH_TAROT), game_id="french_tarot")
    assert scene.legal == (True, False, True, False)
    call = (Action("call", 0, card="SK"), Action("call", 0, card="DK"))
    scene = hand_scene(SeatView(0, hand, call, FRENCH_TAROT), game_id="french_tarot")
    assert scene.legal == (False,) * 4 and scene.hint == ""


def test_la_morte_groups_il_bagatto_with_the_clubs() -> None:
    scene = hand_scene(SeatView(0, ("C1", "T1", "CK", "T13"), (), LA_MORTE), game_id="la_morte")
    assert scene.groups == ("C", "C", "C", "LM")


def test_table_scene_checks_its_arguments() -> None:
    with pytest.raises(ValueError):
        table_scene(LA_MORTE, game_id="la_morte", names=("a", "b"))
    with pytest.raises(ValueError):
        table_scene(LA_MORTE, game_id="la_morte", names=("a",) * 4, markers=("x",))
    with pytest.raises(ValueError):
        table_scene(LA_MORTE, game_id="la_morte", names=("a",) * 4, scores=(1, 2))
    scene = table_scene(LA_MORTE, game_id="la_morte", names=("a",) * 4, winning=3)
    assert scene.winning is None  # seat 3 has not played to this trick


def test_names_lose_what_the_font_cannot_draw() -> None:
    assert clean("Bartholomew 🎲") == "Bartholomew"
    assert clean("Zoë\u200d\ufe0f  ✨ Ann") == "Zoë Ann"
    assert clean("♠ Ace ♥") == "♠ Ace ♥"
    assert clean("中文") == ""  # no CJK in DejaVu Sans: the seat is then called "Seat n"


def test_threads_render_the_same_pictures() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from bot.ui.pictures import clear_caches

    def table(scene: Any) -> bytes:
        return render_table(scene.public, game_id=scene.game_id, names=scene.names)

    serial = [table(s) for s in SCENES]
    clear_caches()
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(table, SCENES * 2)) == serial * 2
