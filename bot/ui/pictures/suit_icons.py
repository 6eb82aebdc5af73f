"""Suit icons for the bot's application emojis: the four-colour suit signs of the card faces.

Discord draws ♠ and ♣ as the same dark glyph (and ♥ ♦ as the same red one), so text that
lists cards uploads these as the bot's own emojis (``bot.ui.delivery.suit_emojis``). Each icon is a
small card-coloured tile with the suit sign in its colour, so it reads the same on Discord's
dark and light themes, like the suits on the pictures' card faces. Queen of Tarot's Italian
pack gets its own four (swords, cups, coins, batons), drawn as on its card faces.
"""

from __future__ import annotations

from functools import cache
from io import BytesIO

from PIL import Image, ImageDraw

from bot.ui.pictures._style import CARD_BG, LOCK, RULE_INK
from bot.ui.pictures.tiles import draw_suit_sign

SIZE = 128  # Discord shows emojis at most 48 px high; 128 px stays sharp when zoomed
_K = 3  # ``draw_suit_sign`` draws at three times the final size (supersampling)


@cache
def suit_icon(suit: str, italian: bool = False) -> bytes:
    """PNG bytes of the icon of ``suit`` (``S``, ``H``, ``D`` or ``C``; ``italian``: the
    Italian sign, Swords, Cups, Coins or Batons), drawn once."""
    with LOCK:  # the shared fonts are not thread-safe
        big = Image.new("RGBA", (SIZE * _K, SIZE * _K), (0, 0, 0, 0))
        draw = ImageDraw.Draw(big)
        inset = 6 * _K
        draw.rounded_rectangle(
            (inset, inset, SIZE * _K - inset, SIZE * _K - inset),
            radius=26 * _K,
            fill=CARD_BG,
            outline=RULE_INK,
            width=4 * _K,
        )
        # The Italian signs are drawn within a taller box than a French glyph's ink.
        h = SIZE * (0.78 if italian else 0.7)
        draw_suit_sign(draw, suit, SIZE / 2, SIZE / 2 + (0 if italian else 2), h, italian)
        icon = big.resize((SIZE, SIZE), Image.Resampling.LANCZOS)
    out = BytesIO()
    icon.save(out, format="PNG", optimize=True)
    return out.getvalue()
