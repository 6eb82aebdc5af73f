"""Synthetic pictures of every element, to choose each game's palette from (``encode``).

Nothing here is ever shown: the pictures' words come from the catalogs (``_words``). The
sample text below only puts glyphs of every ink on the samples, in English, as do the card
faces (one palette per game, whatever the language). It is calibration data, kept exactly as
it is: the median cut is sensitive to every pixel, and other glyphs give another palette
(one trial lost the Fool's orange).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.ui.pictures._style import FELT, INK, PANEL, draw_line
from bot.ui.pictures.hand import HandScene, draw_hand
from bot.ui.pictures.table import SeatScene, TableScene, draw_table
from bot.ui.pictures.tiles import SMALL_GLOW_FRAME, SMALL_H, SMALL_W, deck_tiles

_LETTERS = "Abcdefghijklmnopqrstuvwxyz 0123456789 ▶ · —"  # i18n: code (glyph sample)


def _stack(parts: list[Image.Image]) -> Image.Image:
    out = Image.new("RGB", (max(p.width for p in parts), sum(p.height for p in parts)), FELT)
    y = 0
    for part in parts:
        out.paste(part, (0, y))
        y += part.height
    return out


def _small_sheet(game_id: str) -> Image.Image:
    small = deck_tiles(game_id, "en").small
    cols = 20
    rows = (len(small) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * (SMALL_W + 8), rows * (SMALL_H + 8)), PANEL)
    for i, tile in enumerate(small.values()):
        x, y = (i % cols) * (SMALL_W + 8) + 3, (i // cols) * (SMALL_H + 8) + 3
        if i % 4 == 0:
            sheet.paste(SMALL_GLOW_FRAME, (x - 3, y - 3), SMALL_GLOW_FRAME)
        sheet.paste(tile, (x, y), tile)
    return sheet


def _inks() -> Image.Image:
    """Every ink on the cream of the hand's header and the turn picture's ribbon."""
    sheet = Image.new("RGB", (640, 30 * len(INK)), PANEL)
    draw = ImageDraw.Draw(sheet)
    for i, name in enumerate(INK):
        draw_line(draw, 8, 30 * i + 4, ((f"{name} {_LETTERS}", name),), 20, 620)
    return sheet


def palette_sample(game_id: str) -> Image.Image:
    """Busy tables (a trick with a winner, a trick just won, public cards in the centre), two
    hands of every card of ``game_id`` (each card once framed, once dimmed), its small cards
    and every ink."""
    cards = tuple(deck_tiles(game_id, "en").normal)
    seats = tuple(
        SeatScene(
            f"Seat {i} {_LETTERS}",  # i18n: code (glyph sample)
            ("dealer", "taker", "bid 9"),  # i18n: code (glyph sample)
            "+120" if i % 2 else "",
            i if i % 3 else None,
            i == 0,
        )
        for i in range(5)
    )
    busy = TableScene(
        game_id=game_id,
        seats=seats,
        bottom=0,
        trick=tuple(enumerate(cards[:5])),
        winning=0,
        led=cards[0][0] if cards[0][0] in "SHDC" else "T",
        caption=_LETTERS,
        centre=(),
        cards=(),
    )
    won = busy._replace(trick=tuple(enumerate(cards[5:10])), led=None, winning=2)
    centre = ("Phase", _LETTERS)  # i18n: code (glyph sample)
    quiet = busy._replace(
        trick=(),
        led=None,
        winning=None,
        caption="",
        centre=centre,
        cards=(("Cards", cards[10:16]),),  # i18n: code (glyph sample)
    )
    hands = [
        draw_hand(
            HandScene(
                game_id=game_id,
                title=_LETTERS,
                header=((_LETTERS, "muted"),),
                cards=cards,
                groups=tuple(c[0] for c in cards),
                legal=tuple(i % 2 == odd for i in range(len(cards))),
                hint="playable",  # i18n: code (glyph sample)
            )
        )
        for odd in (0, 1)
    ]
    tables = [draw_table(t) for t in (busy, won, quiet)]
    return _stack([*tables, *hands, _inks(), _small_sheet(game_id)])
