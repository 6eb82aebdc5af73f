"""Golden pictures: every game's table and hand look as approved.

The comparison is tolerant (mean absolute difference per channel after decoding), so a
FreeType or zlib update that moves a few anti-aliased pixels passes, while a changed layout,
colour or card fails. After an intended change: ``.venv/bin/python -m tests.pictures.regenerate``,
look at the new PNGs in ``tests/pictures/golden/`` and commit them.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageStat

from tests.pictures.regenerate import GOLDEN, pictures
from tests.pictures.scenes import SCENES, Scene

#: Mean absolute difference (0–255, averaged over pixels and channels) still accepted.
TOLERANCE = 1.5


def mean_abs_diff(a: bytes, b: bytes) -> float:
    """How far two encoded pictures are apart; infinity if their sizes differ."""
    ia, ib = Image.open(io.BytesIO(a)).convert("RGB"), Image.open(io.BytesIO(b)).convert("RGB")
    if ia.size != ib.size:
        return float("inf")
    return sum(ImageStat.Stat(ImageChops.difference(ia, ib)).mean) / 3


def test_comparison_notices_a_change() -> None:
    data = pictures(SCENES[0])
    table = next(iter(data.values()))
    img = Image.open(io.BytesIO(table)).convert("RGB")
    assert mean_abs_diff(table, table) == 0
    shifted = ImageChops.offset(img, 12, 0)
    buf = io.BytesIO()
    shifted.save(buf, "PNG")
    assert mean_abs_diff(table, buf.getvalue()) > TOLERANCE


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.name)
def test_matches_golden(scene: Scene, tmp_path) -> None:
    for name, data in pictures(scene).items():
        golden = GOLDEN / name
        assert golden.is_file(), f"no golden {name}: run python -m tests.pictures.regenerate"
        diff = mean_abs_diff(data, golden.read_bytes())
        if diff >= TOLERANCE:
            (tmp_path / name).write_bytes(data)
        assert diff < TOLERANCE, (
            f"{name} differs from its golden by {diff:.2f} (new picture: {tmp_path / name}); "
            "if intended, run python -m tests.pictures.regenerate"
        )


def test_every_game_has_a_table_and_a_hand_golden() -> None:
    expected = {name for scene in SCENES for name in pictures(scene)}
    assert {p.name for p in GOLDEN.glob("*.png")} == expected
    games = {"la_morte", "early_french_tarot", "french_tarot", "losers_game", "queen_of_tarot"}
    for game in games:
        assert f"{game}_table.png" in expected
        assert f"{game}_hand.png" in expected
