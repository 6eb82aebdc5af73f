"""The suit emojis' pictures: what Discord accepts, and four suits that never look alike."""

from __future__ import annotations

import io

from PIL import Image

from bot.ui.pictures._style import SUIT_COLOUR
from bot.ui.pictures.suit_icons import SIZE, suit_icon

EMOJI_MAX_BYTES = 256 * 1024  # Discord refuses a larger emoji image


def _dominant_ink(png: bytes) -> tuple[int, int, int]:
    """The most common colour that is neither the tile nor transparent: the sign's."""
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    colours = image.getcolors(maxcolors=SIZE * SIZE) or []
    inks = [(n, (r, g, b)) for n, (r, g, b, a) in colours if a == 255 and min(r, g, b) < 200]
    return max(inks)[1]


def test_each_icon_is_a_small_square_png_in_its_suit_colour() -> None:
    for suit, colour in SUIT_COLOUR.items():
        png = suit_icon(suit)
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG" and image.size == (SIZE, SIZE)
        assert len(png) < EMOJI_MAX_BYTES
        assert _dominant_ink(png) == colour


def test_no_two_suits_share_a_picture_or_a_colour() -> None:
    icons = {s: suit_icon(s) for s in "SHDC"}
    assert len(set(icons.values())) == 4
    assert len({_dominant_ink(p) for p in icons.values()}) == 4


def test_the_italian_icons_are_emojis_of_their_own_in_the_same_colours() -> None:
    """Queen of Tarot's swords, cups, coins and batons (issue 31): as the card faces draw
    them, distinct from each other and from the French signs of the same suit."""
    for suit, colour in SUIT_COLOUR.items():
        png = suit_icon(suit, italian=True)
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG" and image.size == (SIZE, SIZE)
        assert len(png) < EMOJI_MAX_BYTES
        assert _dominant_ink(png) == colour
        assert png != suit_icon(suit)
    assert len({suit_icon(s, italian=True) for s in "SHDC"}) == 4
