"""Card faces, drawn by this module with Pillow primitives (no third-party card art).

Every card shows its rank (or trump number) big in the top-left corner with a small suit sign,
a large emblem in the middle (the suit sign for pips, a chess figure for courts, the Roman
numeral and name for trumps) and, at the bottom, the code the commands use (``S7``, ``DC``,
``T21``, ``EX``) — except on Queen of Tarot's Italian faces, where a French-suited code would
contradict the sign. Suits use four colours (♠ near-black, ♥ red, ♦ blue,
♣ green); trumps are violet on gold, the Fool/Excuse orange, La Morte black.

Queen of Tarot is drawn with Italian suit signs (Swords, Cups, Coins, Batons as simple
geometric figures); the other games with French signs (♠ ♥ ♦ ♣), as in their text.

Faces are drawn once per process at three times their size and scaled down (smooth edges);
``deck_tiles(game_id, language)`` returns every card of a game's pack in three variants. The
few words on a face follow the language (court letters R D C V in French, R D C F in Italian;
named trumps such as the Angel, "Ange", "Angelo"): a face is drawn again only for a language
whose words on it differ, so the pips are shared by every language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from math import cos, pi, sin

from PIL import Image, ImageDraw

from bot.engine.cards import roman
from bot.engine.registry import get_rules
from bot.i18n import Words, current, p_, using
from bot.ui.pictures._style import (
    CARD_BG,
    CODE_INK,
    DIM,
    FOOL_BG,
    FOOL_COLOUR,
    GOLD,
    LOCK,
    MORTE_BG,
    RGB,
    RULE_INK,
    SUIT_COLOUR,
    TRUMP_BG,
    TRUMP_COLOUR,
    blend,
    font,
)
from bot.ui.text.cards import rank_label as text_rank_label

TILE_W, TILE_H = 84, 122
#: The trick's cards on the table picture: twice the size Discord showed them at before the
#: table was redrawn for a ~400 px display (issue 30), the corner index about 17 px at 270.
LARGE_W, LARGE_H = 104, 151
SMALL_W, SMALL_H = 46, 67
GLOW = 5  # the gold frame around a highlighted card, in pixels
LARGE_GLOW = 6
_K = 3  # drawing scale (supersampling)

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_COURT_FIGURE = {"K": "♚", "Q": "♛", "C": "♞", "J": "♟"}


@dataclass(frozen=True, slots=True)
class DeckStyle:
    """How one game's cards look: suit signs, named cards, marked cards."""

    game_id: str
    italian: bool = False
    #: Cards shown with a name (as the game's text labels name them), in the current
    #: language when read.
    names: Mapping[str, str] = field(default_factory=dict[str, str])
    #: Cards marked with a small gold star (French Tarot's bouts).
    starred: frozenset[str] = frozenset()
    #: Trumps that also belong to a suit (La Morte's Bagatto is the highest club).
    suited: Mapping[str, str] = field(default_factory=dict[str, str])
    #: The death card drawn black with a skull (La Morte's trump XIII).
    morte: str | None = None


STYLES: dict[str, DeckStyle] = {
    "la_morte": DeckStyle(
        "la_morte",
        names=Words(
            {
                "T13": lambda: p_("picture la_morte", "La Morte"),
                "T1": lambda: p_("picture la_morte", "Il Bagatto"),
            }
        ),
        suited={"T1": "C"},
        morte="T13",
    ),
    "early_french_tarot": DeckStyle(
        "early_french_tarot",
        names=Words(
            {
                "EX": lambda: p_("picture early_french_tarot", "Fool"),
                "T21": lambda: p_("picture early_french_tarot", "World"),
                "T1": lambda: p_("picture early_french_tarot", "Magician"),
            }
        ),
    ),
    "french_tarot": DeckStyle(
        "french_tarot",
        names=Words(
            {
                "EX": lambda: p_("picture french_tarot", "Excuse"),
                "T1": lambda: p_("picture french_tarot", "Petit"),
            }
        ),
        starred=frozenset({"T1", "T21", "EX"}),
    ),
    "losers_game": DeckStyle("losers_game"),
    "queen_of_tarot": DeckStyle(
        "queen_of_tarot",
        italian=True,
        names=Words(
            {
                "T20": lambda: p_("picture queen_of_tarot", "Angel"),
                "T1": lambda: p_("picture queen_of_tarot", "Bagatto"),
                "EX": lambda: p_("picture queen_of_tarot", "Fool"),
            }
        ),
    ),
}


def style(game_id: str) -> DeckStyle:
    """The card style of ``game_id`` (plain French-suited faces for a game not listed)."""
    return STYLES.get(game_id) or DeckStyle(game_id)


def pack(game_id: str) -> tuple[str, ...]:
    """Every card ``game_id`` can use at any player count, in the rules' reference order."""
    rules = get_rules(game_id)
    seen: dict[str, None] = {}
    for players in range(rules.min_players, rules.max_players + 1):
        for card in rules.pack(players):
            seen.setdefault(card, None)
    return tuple(seen)


def rank_label(card: str) -> str:
    """The corner index of a suit card, as the text labels it in the current language:
    ``A``, ``2``…``10``, ``J``, ``Kn``, ``Q``, ``K`` in English (``bot.ui.text.cards``)."""
    return text_rank_label(card[1:])


def face_words(deck: DeckStyle, card: str) -> tuple[str, ...]:
    """The words on ``card``'s face in the current language (what a language changes)."""
    if card == deck.morte or card == "EX" or card[0] == "T":
        name = deck.names.get(card)
        if card == "EX" and name is None:
            name = p_("picture card", "Fool")
        return (name,) if name else ()
    return (rank_label(card),)


# ---- drawing primitives (coordinates in final pixels, scaled by _K) -----------------------


def _s(v: float) -> int:
    return round(v * _K)


def _glyph(draw: ImageDraw.ImageDraw, text: str, cx: float, cy: float, px: float, fill: RGB):
    """``text`` drawn so that its ink box is centred on (cx, cy), about ``px`` pixels tall."""
    f = font(_s(px / 0.74))
    left, top, right, bottom = draw.textbbox((0, 0), text, font=f)
    draw.text((_s(cx) - (left + right) / 2, _s(cy) - (top + bottom) / 2), text, font=f, fill=fill)


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, px: int, **kw) -> None:
    draw.text((_s(xy[0]), _s(xy[1])), text, font=font(_s(px), True), **kw)


def _fitted(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, text: str, px: int, width: float, fill: RGB
) -> None:
    size = _s(px)
    while size > _s(8) and font(size, True).getlength(text) > _s(width):
        size -= 1
    draw.text((_s(cx), _s(cy)), text, font=font(size, True), fill=fill, anchor="mm")


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        a = -pi / 2 + i * pi / 5
        points.append((_s(cx + radius * cos(a)), _s(cy + radius * sin(a))))
    draw.polygon(points, fill=fill)


def _sword(d: ImageDraw.ImageDraw, cx: float, cy: float, h: float, c: RGB, bg: RGB) -> None:
    w = h * 0.075
    d.polygon(
        [
            (_s(cx), _s(cy - h * 0.5)),
            (_s(cx + w), _s(cy - h * 0.36)),
            (_s(cx + w), _s(cy + h * 0.16)),
            (_s(cx - w), _s(cy + h * 0.16)),
            (_s(cx - w), _s(cy - h * 0.36)),
        ],
        fill=c,
    )
    d.line([(_s(cx), _s(cy - h * 0.36)), (_s(cx), _s(cy + h * 0.1))], fill=bg, width=_s(h * 0.03))
    d.rounded_rectangle(
        (_s(cx - h * 0.27), _s(cy + h * 0.15), _s(cx + h * 0.27), _s(cy + h * 0.23)),
        radius=_s(h * 0.04),
        fill=c,
    )
    d.rectangle((_s(cx - w * 0.7), _s(cy + h * 0.23), _s(cx + w * 0.7), _s(cy + h * 0.4)), fill=c)
    r = h * 0.075
    d.ellipse((_s(cx - r), _s(cy + h * 0.42 - r), _s(cx + r), _s(cy + h * 0.42 + r)), fill=c)


def _cup(d: ImageDraw.ImageDraw, cx: float, cy: float, h: float, c: RGB, bg: RGB) -> None:
    top = cy - h * 0.36
    rw = h * 0.36
    d.pieslice((_s(cx - rw), _s(top - h * 0.34), _s(cx + rw), _s(top + h * 0.34)), 0, 180, fill=c)
    d.ellipse((_s(cx - rw), _s(top - h * 0.06), _s(cx + rw), _s(top + h * 0.06)), fill=c)
    d.ellipse(
        (_s(cx - rw * 0.8), _s(top - h * 0.03), _s(cx + rw * 0.8), _s(top + h * 0.03)), fill=bg
    )
    d.rectangle(
        (_s(cx - h * 0.05), _s(top + h * 0.3), _s(cx + h * 0.05), _s(cy + h * 0.34)), fill=c
    )
    d.ellipse((_s(cx - h * 0.1), _s(cy + h * 0.08), _s(cx + h * 0.1), _s(cy + h * 0.18)), fill=c)
    d.polygon(
        [
            (_s(cx - h * 0.08), _s(cy + h * 0.32)),
            (_s(cx + h * 0.08), _s(cy + h * 0.32)),
            (_s(cx + h * 0.26), _s(cy + h * 0.48)),
            (_s(cx - h * 0.26), _s(cy + h * 0.48)),
        ],
        fill=c,
    )


def _coin(d: ImageDraw.ImageDraw, cx: float, cy: float, h: float, c: RGB, bg: RGB) -> None:
    for r, fill in ((0.48, c), (0.36, bg), (0.3, c), (0.12, bg)):
        d.ellipse((_s(cx - h * r), _s(cy - h * r), _s(cx + h * r), _s(cy + h * r)), fill=fill)
    for i in range(4):
        a = pi / 4 + i * pi / 2
        x, y, r = cx + h * 0.21 * cos(a), cy + h * 0.21 * sin(a), h * 0.045
        d.ellipse((_s(x - r), _s(y - r), _s(x + r), _s(y + r)), fill=bg)


def _baton(d: ImageDraw.ImageDraw, cx: float, cy: float, h: float, c: RGB, bg: RGB) -> None:
    x0, y0, x1, y1 = cx - h * 0.3, cy + h * 0.42, cx + h * 0.3, cy - h * 0.42
    d.line([(_s(x0), _s(y0)), (_s(x1), _s(y1))], fill=c, width=_s(h * 0.15))
    for x, y, r in ((x0, y0, h * 0.085), (x1, y1, h * 0.12)):
        d.ellipse((_s(x - r), _s(y - r), _s(x + r), _s(y + r)), fill=c)
    for t in (0.3, 0.62):  # knots: short stubs across the staff
        x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        dx, dy = h * 0.1, h * 0.07
        d.line([(_s(x - dx), _s(y - dy)), (_s(x + dx), _s(y + dy))], fill=c, width=_s(h * 0.06))
    d.line(
        [(_s(x0 + h * 0.05), _s(y0 - h * 0.12)), (_s(x1 - h * 0.1), _s(y1 + h * 0.2))],
        fill=bg,
        width=max(1, _s(h * 0.025)),
    )


_ITALIAN = {"S": _sword, "H": _cup, "D": _coin, "C": _baton}


def draw_suit_sign(
    draw: ImageDraw.ImageDraw,
    suit: str,
    cx: float,
    cy: float,
    h: float,
    italian: bool,
    bg: RGB = CARD_BG,
    colour: RGB | None = None,
) -> None:
    """A suit sign about ``h`` pixels tall centred on (cx, cy), in final-pixel units."""
    c = SUIT_COLOUR[suit] if colour is None else colour
    if italian:
        _ITALIAN[suit](draw, cx, cy, h, c, bg)
    else:
        _glyph(draw, SUIT_SYMBOL[suit], cx, cy, h, c)


# ---- one face -------------------------------------------------------------------------


def _frame(draw: ImageDraw.ImageDraw, fill: RGB, outline: RGB) -> None:
    draw.rounded_rectangle(
        (0, 0, _s(TILE_W) - 1, _s(TILE_H) - 1),
        radius=_s(8),
        fill=fill,
        outline=outline,
        width=_s(3),
    )


def _code_strip(draw: ImageDraw.ImageDraw, deck: DeckStyle, card: str, ink: RGB, rule: RGB) -> None:
    if deck.italian:
        # The engine's codes name French suits (D9 on a coin): an Italian face shows none,
        # as its buttons and menus show none (queen_of_tarot: Coins = ♦ is the engine's own).
        return
    y = TILE_H - 25
    draw.line([(_s(8), _s(y)), (_s(TILE_W - 8), _s(y))], fill=rule, width=_s(1))
    _text(draw, (TILE_W / 2, TILE_H - 12.5), card, 15, fill=ink, anchor="mm")


def _suit_face(draw: ImageDraw.ImageDraw, deck: DeckStyle, card: str) -> None:
    suit, rank = card[0], card[1:]
    colour = SUIT_COLOUR[suit]
    court = rank in _COURT_FIGURE
    bg = blend(CARD_BG, colour, 0.1) if court else CARD_BG
    _frame(draw, bg, colour)
    label = rank_label(card)  # a jumbo index: the rank is what a glance at a phone reads
    _text(draw, (5, 1), label, 30 if len(label) > 1 else 34, fill=colour)
    draw_suit_sign(draw, suit, 18, 52, 20 if deck.italian else 19, deck.italian, bg)
    if court:
        _glyph(draw, _COURT_FIGURE[rank], 54, 70, 42, colour)
        draw_suit_sign(draw, suit, 71, 18, 18, deck.italian, bg)
    else:
        draw_suit_sign(draw, suit, 54, 72, 40, deck.italian, bg)
    _code_strip(draw, deck, card, CODE_INK, RULE_INK)


def _trump_face(draw: ImageDraw.ImageDraw, deck: DeckStyle, card: str) -> None:
    number = int(card[1:])
    _frame(draw, TRUMP_BG, TRUMP_COLOUR)
    _text(draw, (5, 1), str(number), 34 if number < 10 else 30, fill=TRUMP_COLOUR)
    name = deck.names.get(card)
    _fitted(draw, TILE_W / 2, 62 if name else 68, roman(number), 30, TILE_W - 14, TRUMP_COLOUR)
    if name:
        _fitted(draw, TILE_W / 2, 85, name, 14, TILE_W - 10, blend(TRUMP_COLOUR, (0, 0, 0), 0.3))
    if card in deck.suited:
        draw_suit_sign(draw, deck.suited[card], TILE_W - 16, 17, 18, deck.italian, TRUMP_BG)
    if card in deck.starred:
        _star(draw, TILE_W - 15, 16, 10, (200, 140, 0))
    _code_strip(draw, deck, card, TRUMP_COLOUR, blend(TRUMP_BG, TRUMP_COLOUR, 0.3))


def _fool_face(draw: ImageDraw.ImageDraw, deck: DeckStyle, card: str) -> None:
    _frame(draw, FOOL_BG, FOOL_COLOUR)
    _star(draw, 17, 18, 12, FOOL_COLOUR)
    _star(draw, TILE_W / 2, 56, 25, FOOL_COLOUR)
    _star(draw, TILE_W / 2, 58, 10, FOOL_BG)
    name = deck.names.get(card) or p_("picture card", "Fool")
    _fitted(draw, TILE_W / 2, 86, name, 15, TILE_W - 10, blend(FOOL_COLOUR, (0, 0, 0), 0.35))
    if card in deck.starred:
        _star(draw, TILE_W - 15, 16, 10, (200, 140, 0))
    _code_strip(
        draw, deck, card, blend(FOOL_COLOUR, (0, 0, 0), 0.35), blend(FOOL_BG, FOOL_COLOUR, 0.4)
    )


def _morte_face(draw: ImageDraw.ImageDraw, deck: DeckStyle, card: str) -> None:
    _frame(draw, MORTE_BG, (150, 150, 156))
    white = (242, 242, 238)
    _text(draw, (5, 1), card[1:], 30, fill=white)
    _glyph(draw, "☠", TILE_W / 2, 58, 40, white)
    name = deck.names.get(card) or p_("picture la_morte", "La Morte")
    _fitted(draw, TILE_W / 2, 86, name, 14, TILE_W - 10, white)
    _code_strip(draw, deck, card, (210, 210, 206), (90, 90, 96))


def draw_face(deck: DeckStyle, card: str) -> Image.Image:
    """The face of ``card`` at three times ``TILE_W`` × ``TILE_H`` (RGBA, round corners),
    with the words of the current language."""
    img = Image.new("RGBA", (_s(TILE_W), _s(TILE_H)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    if card == deck.morte:
        _morte_face(draw, deck, card)
    elif card == "EX":
        _fool_face(draw, deck, card)
    elif card[0] == "T":
        _trump_face(draw, deck, card)
    else:
        _suit_face(draw, deck, card)
    return img


# ---- the per-process tile cache ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeckTiles:
    """Every card of one game, ready to paste (RGBA): normal, dimmed, small and large (the
    trick on the table)."""

    normal: Mapping[str, Image.Image]
    dimmed: Mapping[str, Image.Image]
    small: Mapping[str, Image.Image]
    large: Mapping[str, Image.Image]


_TILES: dict[tuple[str, str], DeckTiles] = {}
#: One card's three tiles, by game, card and the words on its face: shared by the languages
#: that write the same words on it.
_Faces = tuple[Image.Image, Image.Image, Image.Image, Image.Image]
_FACES: dict[tuple[str, str, tuple[str, ...]], _Faces] = {}

#: How far an unplayable card is washed towards grey: enough to tell it from the raised,
#: framed playable ones, little enough that its index still reads on a phone (the review found
#: 0.55 too heavy).
DIM_SHARE = 0.3


def _dim(tile: Image.Image) -> Image.Image:
    rgb = Image.blend(tile.convert("RGB"), Image.new("RGB", tile.size, DIM), DIM_SHARE)
    rgb.putalpha(tile.getchannel("A"))
    return rgb


def _face_tiles(deck: DeckStyle, card: str) -> _Faces:
    key = (deck.game_id, card, face_words(deck, card))
    tiles = _FACES.get(key)
    if tiles is None:
        big = draw_face(deck, card)
        normal = big.resize((TILE_W, TILE_H), Image.Resampling.LANCZOS)
        small = big.resize((SMALL_W, SMALL_H), Image.Resampling.LANCZOS)
        large = big.resize((LARGE_W, LARGE_H), Image.Resampling.LANCZOS)
        tiles = (normal, _dim(normal), small, large)
        _FACES[key] = tiles
    return tiles


def deck_tiles(game_id: str, language: str | None = None) -> DeckTiles:
    """The tiles of every card of ``game_id``'s pack with the words of ``language`` (default:
    the current one), drawn on first use and then kept."""
    language = language or current()
    tiles = _TILES.get((game_id, language))
    if tiles is not None:
        return tiles
    with LOCK, using(language):
        tiles = _TILES.get((game_id, language))
        if tiles is None:
            deck = style(game_id)
            normal: dict[str, Image.Image] = {}
            dimmed: dict[str, Image.Image] = {}
            small: dict[str, Image.Image] = {}
            large: dict[str, Image.Image] = {}
            for card in pack(game_id):
                normal[card], dimmed[card], small[card], large[card] = _face_tiles(deck, card)
            tiles = DeckTiles(normal, dimmed, small, large)
            _TILES[(game_id, language)] = tiles
    return tiles


def _glow_frame(w: int, h: int, pad: int, radius: int) -> Image.Image:
    big = Image.new("RGBA", (_s(w + 2 * pad), _s(h + 2 * pad)), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, big.width - 1, big.height - 1), radius=_s(radius), fill=(*GOLD, 255)
    )
    return big.resize((w + 2 * pad, h + 2 * pad), Image.Resampling.LANCZOS)


GLOW_FRAME = _glow_frame(TILE_W, TILE_H, GLOW, 12)
SMALL_GLOW_FRAME = _glow_frame(SMALL_W, SMALL_H, 3, 7)
LARGE_GLOW_FRAME = _glow_frame(LARGE_W, LARGE_H, LARGE_GLOW, 14)


@cache
def suit_chip(suit: str, italian: bool, size: int = 52) -> Image.Image:
    """A round chip showing a suit sign (``T``: trumps), e.g. for the led suit (RGBA)."""
    big = Image.new("RGBA", (_s(size), _s(size)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.ellipse((0, 0, big.width - 1, big.height - 1), fill=CARD_BG, outline=RULE_INK, width=_s(2))
    if suit == "T":
        _glyph(draw, "T", size / 2, size / 2, size * 0.42, TRUMP_COLOUR)
    else:
        draw_suit_sign(draw, suit, size / 2, size / 2, size * 0.56, italian)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def clear_tiles() -> None:
    """Forget every drawn tile (tests)."""
    with LOCK:
        _TILES.clear()
        _FACES.clear()
