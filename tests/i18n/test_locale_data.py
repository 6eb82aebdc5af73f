"""Where our text still reads Babel's CLDR data at run time, our output is pinned here.

Plural forms come from the catalogs' own header (``bot.i18n.plurals``), but two renderers still
ask Babel's locale data: ``bot.ui.stats.ordinal`` (which ordinal *category* a place falls in:
"one", "two", "few", "many", "other") and ``bot.ui.french_tarot._pts`` (the decimal sign).
CLDR has changed categories before (Babel 2.19 gave French and Italian plurals a third form),
so a Babel upgrade that changes what players read fails here, by name, rather than somewhere
in a long rendered message.
"""

from __future__ import annotations

import pytest

from bot.i18n import using
from bot.ui.games.french_tarot import _pts
from bot.ui.text.stats import ordinal

PLACES = (1, 2, 3, 4, 8, 11, 12, 13, 21, 22, 23, 80, 101, 111, 112, 800)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            "1st 2nd 3rd 4th 8th 11th 12th 13th 21st 22nd 23rd 80th 101st 111th 112th 800th",
        ),
        ("fr", "1er 2e 3e 4e 8e 11e 12e 13e 21e 22e 23e 80e 101e 111e 112e 800e"),
        # CLDR puts 8, 11, 80 and 800 in Italian's "many": our catalogs read them as "other".
        ("it", "1° 2° 3° 4° 8° 11° 12° 13° 21° 22° 23° 80° 101° 111° 112° 800°"),
    ],
)
def test_ordinals_as_players_read_them(language: str, expected: str) -> None:
    with using(language):
        assert " ".join(ordinal(n) for n in PLACES) == expected


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ["48.5", "91", "0.5", "0"]),
        ("fr", ["48,5", "91", "0,5", "0"]),
        ("it", ["48,5", "91", "0,5", "0"]),
    ],
)
def test_half_points_as_players_read_them(language: str, expected: list[str]) -> None:
    # French Tarot scores in half points: 97 → 48.5 points; never more than 91 points, so
    # the grouping separator (which CLDR has changed for French) never shows.
    with using(language):
        assert [_pts(hp) for hp in (97, 182, 1, 0)] == expected
