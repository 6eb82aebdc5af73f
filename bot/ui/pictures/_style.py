"""Colours, the bundled fonts and small text helpers shared by the picture renderers.

Only the DejaVu fonts shipped in ``fonts/`` are ever used (never a system font), with
FreeType's basic layout, so a picture is the same on every machine with the same Pillow.
"""

from __future__ import annotations

import threading
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.ui.pictures._words import Line

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

RGB = tuple[int, int, int]

#: Held while anything is drawn: FreeType faces are not safe to share between threads, and
#: the caches are filled once. Re-entrant (a palette is chosen by drawing sample pictures).
LOCK = threading.RLock()

# Four-colour suits (the same code → the same colour in every game): ♠ Swords near-black,
# ♥ Cups red, ♦ Coins blue, ♣ Batons green. Drawn on light card faces, so they read the same
# on Discord's dark and light themes.
SUIT_COLOUR: dict[str, RGB] = {
    "S": (30, 32, 38),
    "H": (206, 30, 46),
    "D": (20, 96, 196),
    "C": (22, 128, 56),
}
TRUMP_COLOUR: RGB = (104, 38, 150)
TRUMP_BG: RGB = (250, 238, 200)
FOOL_COLOUR: RGB = (222, 106, 0)
FOOL_BG: RGB = (255, 242, 222)
MORTE_BG: RGB = (26, 26, 30)
CARD_BG: RGB = (252, 251, 246)
CODE_INK: RGB = (70, 70, 76)
RULE_INK: RGB = (214, 210, 198)

FELT: RGB = (28, 92, 60)
FELT_EDGE: RGB = (17, 60, 38)
PLATE: RGB = (14, 40, 27)
PLATE_TEXT: RGB = (245, 245, 240)
PLATE_MUTED: RGB = (176, 200, 184)
GOLD: RGB = (255, 200, 40)
PANEL: RGB = (244, 240, 228)
PANEL_TEXT: RGB = (36, 36, 40)
PANEL_MUTED: RGB = (110, 106, 96)
DIM: RGB = (96, 104, 100)

#: Colour names used by the per-game facts (resolved when drawing).
INK: dict[str, RGB] = {
    "text": PANEL_TEXT,
    "muted": PANEL_MUTED,
    "T": TRUMP_COLOUR,
    "EX": FOOL_COLOUR,
    "hint": (150, 100, 0),
    **SUIT_COLOUR,
}


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans (bold or regular) at ``size`` pixels."""
    return ImageFont.truetype(
        str(BOLD if bold else REGULAR), size, layout_engine=ImageFont.Layout.BASIC
    )


def _ink_of(ch: str) -> bytes:
    img = Image.new("L", (48, 40))
    ImageDraw.Draw(img).text((8, 4), ch, font=font(20), fill=255)
    return img.tobytes()


@cache
def _missing_glyph() -> bytes:
    return _ink_of("\U0010fffd")  # a private-use code point: the font's empty box


@lru_cache(maxsize=4096)
def has_glyph(ch: str) -> bool:
    """Whether the bundled font draws ``ch`` (rather than its empty box)."""
    with LOCK:
        return _ink_of(ch) != _missing_glyph()


def clean(text: str) -> str:
    """``text`` without what the bundled font cannot draw: emoji, joiners, variation
    selectors, control characters, scripts DejaVu lacks ("Ann 🎲" becomes "Ann")."""
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        if code >= 0x1F000 or 0xFE00 <= code <= 0xFE0F or code in (0x200D, 0x20E3):
            continue
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co"):
            continue
        if not ch.isspace() and not has_glyph(ch):
            continue
        out.append(ch)
    return " ".join("".join(out).split())


@lru_cache(maxsize=8192)
def text_length(text: str, size: int, bold: bool = False) -> float:
    """The advance width of ``text`` in pixels (cached: measuring dominated drawing, and a
    table's names and words come back picture after picture)."""
    with LOCK:
        return font(size, bold).getlength(text)


def fit(text: str, size: int, bold: bool, width: int, smallest: int = 0) -> tuple[str, int]:
    """``text`` and a font size so that it fits ``width`` pixels: first shrink down to
    ``smallest`` (default: 3/4 of ``size``), then cut it with an ellipsis."""
    smallest = smallest or max(8, size * 3 // 4)
    length = text_length(text, size, bold)
    if length <= width:
        return text, size
    # Widths scale about linearly with the size: start from the estimate, then step down.
    start = min(size - 1, int(size * width / length) + 1) if length else size
    for s in range(max(start, smallest), smallest - 1, -1):
        if text_length(text, s, bold) <= width:
            while s + 1 < size and text_length(text, s + 1, bold) <= width:
                s += 1  # the estimate was low: the largest size that fits
            return text, s
    cut = text
    while cut and text_length(cut + "…", smallest, bold) > width:
        cut = cut[:-1]
    return (cut.rstrip() + "…" if cut else ""), smallest


def draw_fitted(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    bold: bool,
    width: int,
    fill: RGB,
    anchor: str = "la",
) -> None:
    """Draw ``text`` at ``xy`` shrunk or cut to ``width`` pixels."""
    shown, s = fit(text, size, bold, width)
    if shown:
        draw.text(xy, shown, font=font(s, bold), fill=fill, anchor=anchor)


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` mixed with ``t`` of ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def draw_line(draw: ImageDraw.ImageDraw, x: float, y: int, line: Line, size: int, width: int):
    """Segments side by side, shrunk together (then cut) to fit ``width``."""
    _, s = fit("".join(t for t, _ in line), size, False, width)
    f = font(s)
    right = x + width
    for part, ink in line:
        colour = INK.get(ink, PANEL_TEXT)
        w = text_length(part, s)
        if x + w > right:
            shown, _ = fit(part, s, False, int(right - x), smallest=s)
            draw.text((x, y), shown, font=f, fill=colour)
            return
        draw.text((x, y), part, font=f, fill=colour)
        x += w
