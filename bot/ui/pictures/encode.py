"""The pictures as PNG bytes: a fixed palette per game (fast and small), and the table and
hand scenes and a player's turn picture drawn and encoded once each (``table_png``,
``hand_png``, ``turn_png``: LRU caches).

Quantising every picture to a palette chosen at run time costs more than drawing it. Instead
each game gets one 256-colour palette per process, computed (deterministically) from
synthetic pictures of everything its pictures contain (``samples``: every card tile, normal,
dimmed, small and framed, the plates, the panel and every ink). A picture is then mapped to
that palette without dithering (about a millisecond) and written as an 8-bit PNG.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

from bot.ui.pictures._style import LOCK
from bot.ui.pictures.hand import HandScene, draw_hand
from bot.ui.pictures.samples import palette_sample
from bot.ui.pictures.table import TableScene, draw_table
from bot.ui.pictures.turn import TurnScene, draw_turn

_PALETTES: dict[str, Image.Image] = {}


def palette(game_id: str) -> Image.Image:
    """The 256-colour palette image of ``game_id``'s pictures (computed once)."""
    pal = _PALETTES.get(game_id)
    if pal is None:
        with LOCK:
            pal = _PALETTES.get(game_id)
            if pal is None:
                sample = palette_sample(game_id)
                pal = sample.quantize(256, method=Image.Quantize.MEDIANCUT)
                _PALETTES[game_id] = pal
    return pal


def png(img: Image.Image, game_id: str) -> bytes:
    """``img`` (RGB) as an 8-bit PNG in ``game_id``'s palette."""
    q = img.quantize(palette=palette(game_id), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    q.save(buf, "PNG", compress_level=3)
    return buf.getvalue()


def clear_palettes() -> None:
    with LOCK:
        _PALETTES.clear()


@lru_cache(maxsize=128)
def table_png(scene: TableScene) -> bytes:
    """``scene`` drawn and encoded (identical scenes are rendered once)."""
    return png(draw_table(scene), scene.game_id)


@lru_cache(maxsize=256)
def hand_png(scene: HandScene) -> bytes:
    """``scene`` drawn and encoded (identical scenes are rendered once)."""
    return png(draw_hand(scene), scene.game_id)


@lru_cache(maxsize=128)
def turn_png(scene: TurnScene) -> bytes:
    """``scene`` drawn and encoded (identical scenes are rendered once)."""
    return png(draw_turn(scene), scene.table.game_id)
