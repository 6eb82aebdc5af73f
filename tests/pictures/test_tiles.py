"""Card faces: every card of every game's pack is drawn, distinct from every other at a
glance (compared at half size, about the scale a phone shows them at), in the game's style."""

from __future__ import annotations

import importlib
import pkgutil
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageFont, ImageStat

from bot.engine.registry import get_rules, implemented
from bot.ui.pictures import tiles
from bot.ui.pictures._style import SUIT_COLOUR, TRUMP_COLOUR

#: Two half-size faces must differ strongly (a channel by more than 64 of 255) in at least
#: this many pixels: a visible mark, not a few anti-aliased edge pixels.
MIN_MARK = 25

GAMES = sorted(implemented())


def _glance(img: Image.Image) -> Image.Image:
    flat = Image.new("RGB", img.size, (40, 40, 40))
    flat.paste(img, (0, 0), img)
    return flat.resize((img.width // 2, img.height // 2), Image.Resampling.BOX)


@pytest.mark.parametrize("game", GAMES)
def test_every_card_of_every_player_count_has_a_face(game: str) -> None:
    rules = get_rules(game)
    faces = tiles.deck_tiles(game)
    for players in range(rules.min_players, rules.max_players + 1):
        for card in rules.pack(players):
            assert faces.normal[card].size == (tiles.TILE_W, tiles.TILE_H)
            assert faces.small[card].size == (tiles.SMALL_W, tiles.SMALL_H)
            assert card in faces.dimmed


def _strong_difference(a: Image.Image, b: Image.Image) -> int:
    r, g, bl = ImageChops.difference(a, b).split()
    most = ImageChops.lighter(ImageChops.lighter(r, g), bl)
    return most.point([255 if v > 64 else 0 for v in range(256)]).histogram()[255]


@pytest.mark.parametrize("game", GAMES)
def test_faces_are_pairwise_distinct_at_a_glance(game: str) -> None:
    faces = {card: _glance(img) for card, img in tiles.deck_tiles(game).normal.items()}
    closest = min((_strong_difference(faces[a], faces[b]), a, b) for a, b in combinations(faces, 2))
    assert closest[0] >= MIN_MARK, f"{closest[1]} and {closest[2]} look alike"


def _ink(img: Image.Image, colour: tuple[int, int, int]) -> int:
    """Pixels of ``img`` within a small distance of ``colour``."""
    rgb = img.convert("RGB")
    total = 0
    for count, pixel in rgb.getcolors(rgb.width * rgb.height) or []:
        if (
            isinstance(pixel, tuple)
            and sum(abs(p - c) for p, c in zip(pixel, colour, strict=True)) < 30
        ):
            total += count
    return total


def test_four_colour_suits_and_violet_trumps() -> None:
    faces = tiles.deck_tiles("french_tarot").normal
    for suit, colour in SUIT_COLOUR.items():
        others = [c for s, c in SUIT_COLOUR.items() if s != suit]
        face = faces[f"{suit}7"]
        assert _ink(face, colour) > 300
        assert all(_ink(face, other) < 30 for other in others)
    assert _ink(faces["T21"], TRUMP_COLOUR) > 300


def test_queen_of_tarot_uses_italian_signs_and_the_others_french() -> None:
    assert tiles.style("queen_of_tarot").italian
    assert not any(tiles.style(g).italian for g in GAMES if g != "queen_of_tarot")
    qot = tiles.deck_tiles("queen_of_tarot").normal["S7"]
    french = tiles.deck_tiles("french_tarot").normal["S7"]
    assert sum(ImageStat.Stat(ImageChops.difference(qot, french)).mean[:3]) / 3 > 5


@pytest.mark.parametrize("game", ["la_morte", "early_french_tarot", "queen_of_tarot"])
def test_named_cards_follow_the_game_text(game: str) -> None:
    labels = getattr(importlib.import_module(f"bot.ui.games.{game}"), "CARD_LABELS", {})
    names = tiles.style(game).names
    for card, text in labels.items():
        assert card in names, f"{card} is named in the text ({text!r}) but not on its face"
        assert names[card] in text


def test_rank_labels_match_the_text() -> None:
    assert [tiles.rank_label(c) for c in ("S1", "HA", "DC", "CJ", "SQ", "HK", "D10")] == [
        "A",
        "A",
        "Kn",
        "J",
        "Q",
        "K",
        "10",
    ]


def test_only_the_bundled_fonts_are_used() -> None:
    package = Path(tiles.__file__).resolve().parent
    fonts = package / "fonts"
    assert (fonts / "DejaVuSans.ttf").is_file()
    assert (fonts / "DejaVuSans-Bold.ttf").is_file()
    assert "Bitstream Vera" in (fonts / "LICENSE").read_text(encoding="utf-8")
    for path in package.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "load_default" not in source
        if path.name != "_style.py":
            assert "truetype" not in source, path.name
    pyproject = (package.parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    assert '"ui/pictures/fonts/*"' in pyproject


def _forget_every_drawing() -> None:
    """Empty every cache of the pictures package (fonts, glyph checks, tiles, chips, plates,
    palettes, pictures), so that the next pictures are drawn from scratch."""
    import bot.ui.pictures as package
    from bot.ui.pictures import clear_caches

    clear_caches(faces=True)
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def test_every_text_is_drawn_in_a_bundled_font(monkeypatch: pytest.MonkeyPatch) -> None:
    """At run time, what the source check above cannot see: while every golden scene, every
    game's faces and the suit icons are drawn afresh, each font loaded is one of ``fonts/``
    and no text falls back on Pillow's default font (``draw.text`` without ``font=``), which
    changes with Pillow releases."""
    from bot.ui.pictures._style import FONT_DIR
    from bot.ui.pictures.suit_icons import suit_icon
    from tests.pictures.regenerate import pictures
    from tests.pictures.scenes import SCENES

    loaded: list[Path] = []
    truetype = ImageFont.truetype

    def recording_truetype(font: Any = None, *args: Any, **kwargs: Any) -> ImageFont.FreeTypeFont:
        loaded.append(Path(str(font)).resolve())
        return truetype(font, *args, **kwargs)

    def no_default_font(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("text drawn without font=: Pillow's own default font")

    monkeypatch.setattr(ImageFont, "truetype", recording_truetype)
    monkeypatch.setattr(ImageFont, "load_default", no_default_font)
    _forget_every_drawing()
    try:
        for scene in SCENES:
            pictures(scene)
        for game in GAMES:
            tiles.deck_tiles(game)
        for suit in "SHDC":
            suit_icon(suit)
    finally:
        _forget_every_drawing()  # nothing drawn under the patches outlives this test
    assert loaded, "no font was loaded: the caches were not emptied"
    assert {p.parent for p in loaded} == {FONT_DIR.resolve()}, sorted(set(loaded))
