"""A table's number is written one way per language (issue 31: the same table read "#8",
"n°8" and "n. 8" from one message to the next, and an Italian lobby "· table #8").

English writes "#8", French "n° 8" (with a no-break space), Italian "n. 8": in every message
of the catalogs that holds a table's number, in the lobby's title, and in
``render.table_number`` (the history's buttons, lists of tables).
"""

from __future__ import annotations

import re

import pytest

from bot.i18n import using
from bot.i18n.extract import LOCALES, TRANSLATED, read
from bot.services.models import TableInfo
from bot.ui.text.render import lobby_embed, table_number

#: The one form of each language, for a number ``{x}``.
FORM = {"fr": "n°\u00a0{x}", "it": "n. {x}"}
NUMBER = re.compile(r"#\{(id|table)\}")


def _numbered() -> list[tuple[str, str, str]]:
    """(language, English, translation) of every message holding a table's number."""
    out: list[tuple[str, str, str]] = []
    for language in TRANSLATED:
        for path in sorted((LOCALES / language).glob("*.po")):
            for m in read(path, language):
                ids = m.id if isinstance(m.id, tuple) else (m.id,)
                strings = m.string if isinstance(m.string, tuple) else (m.string,)
                if any(NUMBER.search(str(i)) for i in ids):
                    out += [(language, str(ids[0]), str(s)) for s in strings]
    return out


def test_every_catalog_writes_a_table_number_the_languages_one_way() -> None:
    found = _numbered()
    assert {lang for lang, _, _ in found} == set(FORM) and len(found) > 60
    for language, english, text in found:
        name = NUMBER.search(english)
        assert name is not None
        form = FORM[language].format(x="{" + name[1] + "}")
        assert form in text, (language, english, text)
        assert "#{" not in text, (language, text)


@pytest.mark.parametrize(
    ("language", "title", "number"),
    [
        ("en", "Queen of Tarot · table #8", "#8"),
        ("fr", "Queen of Tarot · table n°\u00a08", "n°\u00a08"),
        ("it", "Queen of Tarot · tavolo n. 8", "n. 8"),
    ],
)
def test_the_lobby_title_and_the_short_number_are_translated(
    language: str, title: str, number: str
) -> None:
    table = TableInfo(
        id=8,
        guild_id=1,
        channel_id=2,
        game_id="queen_of_tarot",
        status="lobby",
        owner_id=3,
        players=3,
        options={},
        seats=(),
        language=language,
    )
    with using(language):
        assert lobby_embed(table, "Queen of Tarot", []).title == title
        assert table_number(8) == number
