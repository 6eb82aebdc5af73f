"""Golden pictures: every game's table and hand look as approved.

The pictures are compared decoded, never as PNG bytes (zlib and Pillow's encoder may change
them), and with two tolerances a Pillow, FreeType or zlib release stays within:

* colour: the mean per-channel difference *beyond a dead zone of 8 levels*. The 256-colour
  palette is computed at run time by Pillow's quantizer from sample pictures whose text FreeType
  draws, so a release may nudge every colour of every pixel by a few levels; that is ignored,
  while a real colour change (20 levels on the felt: about 3) is not. (The earlier plain mean,
  tolerance 1.5, failed on a mere re-quantization: 3.7 to 4.4.)
* layout: the share of pixels differing by more than 48 levels once both pictures are halved
  (as a phone shows them). Halving absorbs anti-aliased edges moving by a fraction of a pixel;
  a moved, added or missing card or plate is not absorbed (1.2 % and more of the pixels).

Measured on these goldens (worst case): a re-quantization with another method: colour 0.00,
layout 0 %; a 0.6-pixel blur of the whole picture: 1.44, 0.002 %; text drawn without any
anti-aliasing: 1.29, 0.96 %; the whole picture moved by one pixel: 1.41, 1.23 % at least; a
trick card fewer: 2.1, 1.2 % at least.

After an intended change: ``.venv/bin/python -m tests.pictures.regenerate``, look at the new
PNGs in ``tests/pictures/golden/`` and commit them.
"""

from __future__ import annotations

import dataclasses
import io
from typing import NamedTuple

import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

from bot.ui.pictures import render_table
from bot.ui.text.winner import winning_seat
from tests.pictures.regenerate import GOLDEN, pictures
from tests.pictures.scenes import SCENES, Scene

#: Per-channel differences up to this many levels (of 255) are ignored (palette drift).
DEAD_ZONE = 8
#: Mean per-channel difference beyond the dead zone still accepted.
COLOUR_TOLERANCE = 2.0
#: A pixel of the halved pictures differing by more than this in a channel has "moved"…
MOVED_LEVEL = 48
#: …and this share of them is still accepted.
MOVED_TOLERANCE = 0.01


class Difference(NamedTuple):
    colour: float
    moved: float

    @property
    def accepted(self) -> bool:
        return self.colour < COLOUR_TOLERANCE and self.moved < MOVED_TOLERANCE

    def __str__(self) -> str:
        return (
            f"colour {self.colour:.2f} (< {COLOUR_TOLERANCE}), moved {self.moved:.2%} "
            f"(< {MOVED_TOLERANCE:.0%})"
        )


_BEYOND_DEAD_ZONE = [max(0, v - DEAD_ZONE) for v in range(256)] * 3
_MOVED = [255 if v > MOVED_LEVEL else 0 for v in range(256)]


def _decoded(data: bytes | Image.Image) -> Image.Image:
    image = data if isinstance(data, Image.Image) else Image.open(io.BytesIO(data))
    return image.convert("RGB")


def difference(a: bytes | Image.Image, b: bytes | Image.Image) -> Difference:
    """How far two pictures (PNG bytes or images) are apart; infinite if their sizes differ."""
    ia, ib = _decoded(a), _decoded(b)
    if ia.size != ib.size:
        return Difference(float("inf"), float("inf"))
    colour = sum(ImageStat.Stat(ImageChops.difference(ia, ib).point(_BEYOND_DEAD_ZONE)).mean) / 3
    size = (max(1, ia.width // 2), max(1, ia.height // 2))
    ha, hb = (i.resize(size, Image.Resampling.BOX) for i in (ia, ib))
    r, g, b = ImageChops.difference(ha, hb).split()
    most = ImageChops.lighter(ImageChops.lighter(r, g), b)
    moved = most.point(_MOVED).histogram()[255] / (size[0] * size[1])
    return Difference(colour, moved)


def _golden_table() -> Image.Image:
    return _decoded((GOLDEN / f"{SCENES[0].name}_table.png").read_bytes())


def test_comparison_notices_a_change() -> None:
    img = _golden_table()
    assert difference(img, img) == (0, 0)
    for dx, dy in ((12, 0), (1, 0), (0, 1)):  # the layout moved, even by one pixel
        assert not difference(img, ImageChops.offset(img, dx, dy)).accepted, (dx, dy)
    r, g, b = img.split()  # a colour changed by 20 levels
    greener = Image.merge("RGB", (r, g.point([min(255, v + 20) for v in range(256)]), b))
    assert difference(img, greener).colour >= COLOUR_TOLERANCE
    scene = SCENES[0]  # a card fewer on the table
    fewer = dataclasses.replace(scene.public, trick=scene.public.trick[:-1])
    drawn = render_table(
        fewer,
        game_id=scene.game_id,
        names=scene.names,
        markers=scene.markers,
        winning=winning_seat(fewer),
    )
    assert not difference(img, drawn).accepted
    assert difference(img, img.crop((0, 0, 100, 100))).moved == float("inf")


def test_comparison_absorbs_what_a_library_release_may_move() -> None:
    """Another palette (as if Pillow's quantizer had changed) and edges softened by a blur
    (as if FreeType anti-aliased differently) are still the same picture."""
    img = _golden_table()
    requantized = img.quantize(256, method=Image.Quantize.MAXCOVERAGE)
    assert difference(img, requantized).accepted, difference(img, requantized)
    softened = img.filter(ImageFilter.GaussianBlur(0.6))
    assert difference(img, softened).accepted, difference(img, softened)


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.name)
def test_matches_golden(scene: Scene, tmp_path) -> None:
    for name, data in pictures(scene).items():
        golden = GOLDEN / name
        assert golden.is_file(), f"no golden {name}: run python -m tests.pictures.regenerate"
        diff = difference(data, golden.read_bytes())
        if not diff.accepted:
            (tmp_path / name).write_bytes(data)
        assert diff.accepted, (
            f"{name} differs from its golden: {diff} (new picture: {tmp_path / name}); "
            "if intended, run python -m tests.pictures.regenerate"
        )


def test_every_game_has_a_table_and_a_hand_golden() -> None:
    expected = {name for scene in SCENES for name in pictures(scene)}
    assert {p.name for p in GOLDEN.glob("*.png")} == expected
    games = {"la_morte", "early_french_tarot", "french_tarot", "losers_game", "queen_of_tarot"}
    for game in games:
        assert f"{game}_table.png" in expected
        assert f"{game}_hand.png" in expected
