"""A tournament's final standings as a picture (issue 34): a podium for the first three, then
the next places, on the tables' felt.

Pure: every word arrives already written in the reader's language (``StandingsScene``), so this
module draws no words of its own; names lose what the bundled font cannot draw (``clean``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.ui.pictures._style import (
    FELT,
    FELT_EDGE,
    GOLD,
    LOCK,
    PLATE,
    PLATE_MUTED,
    PLATE_TEXT,
    clean,
    draw_fitted,
)

WIDTH = 640
PODIUM_TOP = 96
ROW = 30
MORE_ROWS = 9  # places listed below the podium
#: The podium's steps: (place index, x centre, height), and their medals' colours.
STEPS = ((1, 120, 92), (0, 320, 130), (2, 520, 70))
MEDALS = (GOLD, (200, 204, 212), (205, 127, 50))


@dataclass(frozen=True, slots=True)
class StandingsScene:
    """What the picture shows: a title, a subtitle (game, rounds), and the rows in order
    (place, name, points), all already in words."""

    title: str
    subtitle: str
    rows: tuple[tuple[str, str, str], ...]


def draw_standings(scene: StandingsScene) -> Image.Image:
    rest = scene.rows[3 : 3 + MORE_ROWS]
    height = PODIUM_TOP + 130 + 64 + len(rest) * ROW + 24
    img = Image.new("RGB", (WIDTH, height), FELT)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH - 1, height - 1), outline=FELT_EDGE, width=6)
    draw_fitted(d, (WIDTH / 2, 22), clean(scene.title), 28, True, WIDTH - 40, GOLD, "mt")
    draw_fitted(d, (WIDTH / 2, 60), clean(scene.subtitle), 17, False, WIDTH - 40, PLATE_MUTED, "mt")
    base = PODIUM_TOP + 130 + 40
    for index, x, step in STEPS:
        if index >= len(scene.rows):
            continue
        place, name, pts = scene.rows[index]
        top = base - step
        d.rounded_rectangle((x - 90, top, x + 90, base), radius=8, fill=PLATE)
        d.ellipse((x - 18, top - 58, x + 18, top - 22), fill=MEDALS[index])
        draw_fitted(d, (x, top - 40), place, 18, True, 30, PLATE, "mm")
        draw_fitted(d, (x, top - 8), clean(name) or "?", 19, True, 200, PLATE_TEXT, "ms")
        draw_fitted(d, (x, top + 22), pts, 18, False, 170, GOLD, "mm")
    y = base + 24
    for place, name, pts in rest:
        draw_fitted(d, (60, y), place, 18, True, 50, PLATE_MUTED, "ra")
        draw_fitted(d, (76, y), clean(name) or "?", 18, False, 380, PLATE_TEXT)
        draw_fitted(d, (WIDTH - 40, y), pts, 18, False, 140, PLATE_TEXT, "ra")
        y += ROW
    return img


@lru_cache(maxsize=32)
def standings_png(scene: StandingsScene) -> bytes:
    """``scene`` as PNG bytes (identical scenes are rendered once). Run it off the loop."""
    with LOCK:
        img = draw_standings(scene)
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=False, compress_level=6)
    return buf.getvalue()
