"""Cards shown as examples (a rules page's picture, issue 31): groups of cards on the felt, each
under a caption ("Bouts", "Worth 4½ points"…), laid out left to right and wrapped.

Nothing of any deal is drawn: the caller names the cards (the rules' examples) and the
captions, already in the reader's language; the faces follow that language too. 640 px wide,
as the table picture (read at ~400 px on a desktop, 270 on a phone).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.ui.pictures._style import FELT, LOCK, PLATE_TEXT, clean, fit, font, text_length
from bot.ui.pictures._words import language
from bot.ui.pictures.encode import png
from bot.ui.pictures.tiles import SMALL_H, SMALL_W, TILE_H, TILE_W, DeckTiles, deck_tiles

WIDTH = 640
PAD, GAP, GROUP_GAP = 16, 6, 28
CAPTION = 20  # caption text size, px
CAPTION_H = 30
#: Groups with more cards than fit on one row in full size are drawn small.
SMALL_GAP = 4


class Showcase(NamedTuple):
    """What a showcase picture shows (its cache key): groups of (caption, cards)."""

    game_id: str
    groups: tuple[tuple[str, tuple[str, ...]], ...]
    language: str = "en"


def _card_size(cards: int) -> tuple[int, int, int]:
    """(width, height, gap) of the tiles for a group of ``cards``: full size if they fit on a
    row, else small ones."""
    if cards * TILE_W + (cards - 1) * GAP <= WIDTH - 2 * PAD:
        return TILE_W, TILE_H, GAP
    return SMALL_W, SMALL_H, SMALL_GAP


def _block(caption: str, cards: int) -> tuple[int, int]:
    """Width and height of one group (caption above its cards, which may wrap)."""
    w, h, gap = _card_size(cards)
    room = WIDTH - 2 * PAD
    per_row = max(1, (room + gap) // (w + gap))
    rows = max(1, -(-cards // per_row))
    in_row = min(cards, per_row)
    cards_w = in_row * w + (in_row - 1) * gap if cards else 0
    caption_w = min(room, round(text_length(caption, CAPTION, True))) if caption else 0
    return max(cards_w, caption_w), (CAPTION_H if caption else 0) + rows * (h + gap)


def draw_showcase(scene: Showcase) -> Image.Image:
    """The picture of ``scene`` (RGB)."""
    room = WIDTH - 2 * PAD
    blocks = [_block(caption, len(cards)) for caption, cards in scene.groups]
    # Flow layout: groups side by side while they fit, then the next line.
    lines: list[list[int]] = [[]]
    used = 0
    for i, (w, _h) in enumerate(blocks):
        if lines[-1] and used + GROUP_GAP + w > room:
            lines.append([])
            used = 0
        used += (GROUP_GAP if lines[-1] else 0) + w
        lines[-1].append(i)
    heights = [max((blocks[i][1] for i in line), default=0) for line in lines]
    height = PAD + sum(heights) + PAD * (len(lines) - 1) + PAD
    with LOCK:
        img = Image.new("RGB", (WIDTH, max(height, 2 * PAD)), FELT)
        draw = ImageDraw.Draw(img)
        tiles = deck_tiles(scene.game_id, scene.language)
        y = PAD
        for line, line_h in zip(lines, heights, strict=True):
            line_w = sum(blocks[i][0] for i in line) + GROUP_GAP * (len(line) - 1)
            x = PAD + (room - line_w) // 2
            for i in line:
                caption, cards = scene.groups[i]
                _draw_group(img, draw, tiles, caption, cards, x, y)
                x += blocks[i][0] + GROUP_GAP
            y += line_h + PAD
        return img


def _draw_group(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    tiles: DeckTiles,
    caption: str,
    cards: tuple[str, ...],
    x: int,
    y: int,
) -> None:
    w, h, gap = _card_size(len(cards))
    room = WIDTH - 2 * PAD
    if caption:
        shown, size = fit(caption, CAPTION, True, room)
        draw.text((x, y + 2), shown, font=font(size, True), fill=PLATE_TEXT)
        y += CAPTION_H
    per_row = max(1, (room + gap) // (w + gap))
    faces = tiles.normal if w == TILE_W else tiles.small
    for n, card in enumerate(cards):
        tile = faces.get(card)
        if tile is None:
            continue
        cx = x + (n % per_row) * (w + gap)
        cy = y + (n // per_row) * (h + gap)
        img.paste(tile, (cx, cy), tile)


@lru_cache(maxsize=64)
def _showcase_png(scene: Showcase) -> bytes:
    return png(draw_showcase(scene), scene.game_id)


def render_showcase(game_id: str, groups: Sequence[tuple[str, Sequence[str]]]) -> bytes:
    """Groups of example cards of ``game_id`` under their captions, as PNG bytes (cached).

    Args:
        game_id: the game (its card style and palette).
        groups: (caption, card codes) pairs; captions already in the current language (an
            empty caption draws none), codes of the game's pack (unknown ones are skipped).
    """
    scene = Showcase(
        game_id=game_id,
        groups=tuple((clean(caption), tuple(cards)) for caption, cards in groups),
        language=language(),
    )
    return _showcase_png(scene)
