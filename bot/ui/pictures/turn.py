"""A player's picture at their turn: the table on top, a ribbon, their hand below, in one PNG.

Issue 30: a DM at your turn should need nothing else to decide. So the table (``table``: the
trick so far with its winning card, or the trick just won, the seats with their scores) is
drawn with the viewer's seat at the bottom, right above their hand; between the two a cream
ribbon says the trick number or phase, the contract and trumps (what the public picture leaves
to the message's text), and what the raised cards mean ("▲ playable").

The hand is laid out for the table's width: a row holds up to 13 cards, overlapped when they
must be (a card then shows its left 44 px or more: the corner index and suit sign); a hand of
up to 26 cards takes two rows, a bigger one (an écart: 30 cards at three-player French Tarot)
three rows overlapping upwards. So the picture is never more than 1.4 times as tall as wide,
about what a phone shows without scrolling.

The table half reads only the ``PublicView`` inside the seat's view; the hand half only that
seat's ``SeatView``.
"""

from __future__ import annotations

from itertools import pairwise
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.engine.views import SeatView
from bot.ui.pictures._style import (
    FELT,
    INK,
    LOCK,
    PANEL,
    PANEL_TEXT,
    PLATE_MUTED,
    draw_line,
    fit,
    font,
    text_length,
)
from bot.ui.pictures._words import Line
from bot.ui.pictures.facts import table_facts
from bot.ui.pictures.hand import (
    GAP,
    GROUP_GAP,
    RAISE,
    HandScene,
    hand_scene,
    marked,
    paste_card,
    paste_frame,
)
from bot.ui.pictures.layout import HEIGHT, WIDTH
from bot.ui.pictures.table import TableScene, draw_table, seat_names, table_scene, trick_word
from bot.ui.pictures.tiles import TILE_H, TILE_W, deck_tiles

RIBBON_H = 38
RIBBON_PX = 21
_SEPARATOR = "  ·  "
PAD = 12
MIN_STEP = 44  # the narrowest slice of an overlapped card: its index and suit sign
SUIT_GAP = 10  # extra room between suits in an overlapped row
ROW_GAP = 6
MAX_ROW = (WIDTH - 2 * PAD - TILE_W) // MIN_STEP + 1


class TurnScene(NamedTuple):
    """Everything a turn picture shows (the cache key)."""

    table: TableScene
    hand: HandScene
    ribbon: Line


def turn_scene(
    view: SeatView,
    *,
    game_id: str,
    names: tuple[str, ...],
    markers: tuple[str, ...] = (),
    winning: int | None = None,
    scores: tuple[int, ...] = (),
    picked: tuple[str, ...] = (),
) -> TurnScene:
    """What ``render_turn`` draws for these arguments."""
    public = view.public
    table = table_scene(
        public,
        game_id=game_id,
        names=names,
        markers=markers,
        winning=winning,
        scores=scores,
        bottom=view.seat,
    )
    ribbon: list[tuple[str, str]] = [(trick_word(public, game_id), "text")]
    for line in table_facts(game_id, public, seat_names(names)).lines:
        ribbon.append((_SEPARATOR, "muted"))
        ribbon.extend(line)
    return TurnScene(table, hand_scene(view, game_id=game_id, picked=picked), tuple(ribbon))


def _rows(n: int) -> list[int]:
    if n == 0:
        return []
    rows = (n + MAX_ROW - 1) // MAX_ROW
    base, extra = divmod(n, rows)
    return [base + 1 if r < extra else base for r in range(rows)]


def _row_layout(groups: tuple[str, ...]) -> tuple[list[int], int]:
    """The x offset of each card of one row and the row's width: spaced as in the hand
    picture when that fits the table's width, else overlapped evenly."""
    room = WIDTH - 2 * PAD
    breaks = sum(1 for a, b in pairwise(groups) if a != b)
    natural = len(groups) * TILE_W + (len(groups) - 1) * GAP + breaks * (GROUP_GAP - GAP)
    if natural <= room:
        step, suit_gap = TILE_W + GAP, GROUP_GAP - GAP
    else:
        suit_gap = SUIT_GAP if len(groups) > 1 else 0
        step = (room - TILE_W - breaks * suit_gap) / max(1, len(groups) - 1)
    xs: list[int] = []
    x = 0.0
    for j, group in enumerate(groups):
        if j:
            x += step + (suit_gap if group != groups[j - 1] else 0)
        xs.append(round(x))
    return xs, (xs[-1] + TILE_W if xs else 0)


def _pitch(rows: int) -> int:
    """From one row of cards to the next. Up to two rows lie apart; more (a hand over 26
    cards: an écart) overlap upwards, each showing its top (index and suit sign), so that
    the picture is never taller than with two rows."""
    if rows <= 2:
        return RAISE + TILE_H + ROW_GAP
    return (RAISE + TILE_H + ROW_GAP) // (rows - 1)


def turn_height(cards: int) -> int:
    """The picture's height for a hand of ``cards``."""
    rows = len(_rows(cards))
    hand = (rows - 1) * _pitch(rows) + RAISE + TILE_H if rows else 40
    return HEIGHT + RIBBON_H + hand + 2 * PAD - 4


def _ribbon_parts(facts: Line, width: int) -> Line:
    """As many of the ribbon's facts as fit ``width`` at 17 px or more, at least the first
    (each fact starts with a ``_SEPARATOR`` segment; the later ones are dropped first)."""
    ends = [i for i, (text, _ink) in enumerate(facts) if text == _SEPARATOR and i]
    for end in [len(facts), *reversed(ends)]:
        text = "".join(t for t, _ink in facts[:end])
        if fit(text, RIBBON_PX, False, width, smallest=17)[0] == text:
            return facts[:end]
    return facts[: ends[0]] if ends else facts


def _draw_ribbon(draw: ImageDraw.ImageDraw, scene: TurnScene, y: int) -> None:
    draw.rectangle((0, y, WIDTH, y + RIBBON_H), fill=PANEL)
    right = WIDTH - PAD
    middle = y + RIBBON_H / 2
    if scene.hand.hint:
        hint, size = fit(f"▲ {scene.hand.hint}", RIBBON_PX, True, WIDTH // 3)
        draw.text((right, middle), hint, font=font(size, True), fill=INK["hint"], anchor="rm")
        right -= round(text_length(hint, size, True)) + 16
    (first, _ink), *rest = scene.ribbon
    bold, size = fit(first, RIBBON_PX + 1, True, (right - PAD) // 2)
    draw.text((PAD, middle), bold, font=font(size, True), fill=PANEL_TEXT, anchor="lm")
    x = PAD + round(text_length(bold, size, True))
    if rest and right - x > 40:
        line = _ribbon_parts(tuple(rest), right - x)
        _, px = fit("".join(t for t, _ink in line), RIBBON_PX, False, right - x, smallest=17)
        draw_line(draw, x, round(middle - px * 0.6), line, px, right - x)


def draw_turn(scene: TurnScene) -> Image.Image:
    """The turn picture of ``scene`` (RGB)."""
    hand = scene.hand
    with LOCK:
        img = Image.new("RGB", (WIDTH, turn_height(len(hand.cards))), FELT)
        img.paste(draw_table(scene.table), (0, 0))
        draw = ImageDraw.Draw(img)
        _draw_ribbon(draw, scene, HEIGHT)
        top = HEIGHT + RIBBON_H + PAD
        if not hand.cards:
            draw.text(
                (WIDTH / 2, top + 16), hand.empty, font=font(20), fill=PLATE_MUTED, anchor="mm"
            )
        tiles = deck_tiles(hand.game_id, hand.language)
        any_legal = any(hand.legal)
        rows = _rows(len(hand.cards))
        start = 0
        for r, size in enumerate(rows):
            row = range(start, start + size)
            xs, width = _row_layout(tuple(hand.groups[i] for i in row))
            left = (WIDTH - width) // 2
            y = top + r * _pitch(len(rows))
            # Frames first, then cards: an overlapping card covers its neighbour's frame
            # rather than the frame covering the neighbour's index.
            for i, x in zip(row, xs, strict=True):
                if hand.legal[i] and not marked(hand, i)[0]:
                    paste_frame(img, left + x, y)
            for i, x in zip(row, xs, strict=True):
                card = hand.cards[i]
                paste_card(
                    img, tiles, card, hand.legal[i], any_legal, left + x, y, False, *marked(hand, i)
                )
            start += size
        return img
