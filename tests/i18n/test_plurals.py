"""The plural rule is read from the catalogs' own ``Plural-Forms`` header (``bot.i18n.plurals``),
and a catalog whose header is missing, malformed or disagrees with its siblings' fails to load
rather than show a wrong form."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import _Catalog
from bot.i18n.plurals import (
    PluralFormsError,
    agreed_plural_forms,
    header_fields,
    parse_plural_forms,
    plural_entries,
    plural_forms_of,
)

FRENCH = "nplurals=2; plural=(n > 1);"
#: What Babel 2.19's CLDR table says for French: three forms, "many" for a million.
CLDR_FRENCH = "nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;"


def po(plural_forms: str | None, *entries: str) -> str:
    """A small ``.po`` file's text with that ``Plural-Forms`` (None: no such header)."""
    header = ['msgid ""', 'msgstr ""', '"Language: fr\\n"']
    if plural_forms is not None:
        header.append(f'"Plural-Forms: {plural_forms}\\n"')
    header.append('"Content-Type: text/plain; charset=utf-8\\n"')
    return "\n".join(header) + "\n\n" + "\n\n".join(entries) + "\n"


TRICK = '#, python-brace-format\nmsgid "{n} trick"\nmsgid_plural "{n} tricks"\n'
TRICK_FR = TRICK + 'msgstr[0] "{n} pli"\nmsgstr[1] "{n} plis"'
HELLO = 'msgid "Hello"\nmsgstr "Bonjour"'


def test_the_header_is_parsed_with_the_standard_library() -> None:
    rule = parse_plural_forms(FRENCH)
    assert (rule.count, rule.expression, rule.value) == (2, "(n > 1)", FRENCH)
    assert [rule.form(n) for n in (0, 1, 2, 1_000_000)] == [0, 0, 1, 1]
    assert parse_plural_forms("nplurals=2;plural=(n>1)") == rule  # spaces aside, the same
    assert parse_plural_forms("nplurals=2; plural=(n != 1);") != rule
    assert parse_plural_forms(CLDR_FRENCH).form(1_000_000) == 1  # a valid 3-form header too


@pytest.mark.parametrize(
    "value",
    [
        "",
        "nplurals=2",
        "plural=(n > 1);",
        "nplurals=two; plural=(n > 1);",
        "nplurals=2; plural=(n >);",
        "nplurals=0; plural=0;",
        # The CLDR rule under a two-form header: form 2 does not exist.
        "nplurals=2; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;",
        # Wrong only for a million: caught because large counts are tried too.
        "nplurals=2; plural=(n > 1) ? (n % 1000000 == 0 ? 2 : 1) : 0;",
    ],
)
def test_a_malformed_or_impossible_header_is_refused(value: str) -> None:
    with pytest.raises(PluralFormsError):
        parse_plural_forms(value, "x.po")


def test_the_header_entry_is_found_in_the_text() -> None:
    text = po(FRENCH, TRICK_FR, HELLO)
    assert header_fields(text)["plural-forms"] == FRENCH
    assert plural_forms_of(text, "x.po") == parse_plural_forms(FRENCH)
    with pytest.raises(PluralFormsError, match="no Plural-Forms"):
        plural_forms_of(po(None, HELLO), "x.po")
    assert header_fields(HELLO) == {}


def test_the_catalogs_of_a_language_must_agree() -> None:
    same = {"a.po": po(FRENCH, HELLO), "b.po": po("nplurals=2; plural=(n>1);", TRICK_FR)}
    agreed = agreed_plural_forms("fr", same)
    assert agreed is not None and agreed.count == 2
    assert agreed_plural_forms("fr", {}) is None
    with pytest.raises(PluralFormsError, match="disagree"):
        agreed_plural_forms("fr", {"a.po": po(FRENCH, HELLO), "b.po": po(CLDR_FRENCH, HELLO)})
    with pytest.raises(PluralFormsError, match="no Plural-Forms"):
        agreed_plural_forms("fr", {"a.po": po(FRENCH, HELLO), "b.po": po(None, HELLO)})


def test_plural_entries_are_counted_as_written() -> None:
    text = po(FRENCH, HELLO, TRICK_FR, '#~ msgid "{n} old"\n#~ msgid_plural "{n} olds"')
    three = TRICK.replace("trick", "card") + 'msgstr[0] "a"\nmsgstr[1] "b"\nmsgstr[2] "c"'
    multi = 'msgid ""\n"{n} long"\nmsgid_plural "{n} longs"\nmsgstr[0] "x"'
    assert list(plural_entries(text)) == [("{n} trick", [0, 1])]
    assert list(plural_entries(po(FRENCH, three, multi))) == [
        ("{n} card", [0, 1, 2]),
        ("{n} long", [0]),
    ]


def _folder(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "fr"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_a_catalog_loads_with_its_own_rule(tmp_path: Path) -> None:
    book = _Catalog("fr", _folder(tmp_path, {"a.po": po(FRENCH, TRICK_FR, HELLO)}))
    assert book.plural_forms.header == FRENCH
    assert book.plural["{n} trick"] == ("{n} pli", "{n} plis")
    assert [book.form(n) for n in (0, 1, 2, 1_000_000)] == [0, 0, 1, 1]


@pytest.mark.parametrize(
    ("files", "error"),
    [
        ({"a.po": po(None, TRICK_FR)}, "no Plural-Forms"),
        ({"a.po": po(FRENCH, HELLO), "b.po": po("nplurals=2; plural=(n != 1);")}, "disagree"),
        ({"a.po": po(CLDR_FRENCH, TRICK_FR)}, r"msgstr\[0, 1\]"),
        ({"a.po": po(FRENCH, TRICK_FR + '\nmsgstr[2] "{n} plis"')}, r"msgstr\[0, 1, 2\]"),
    ],
    ids=["missing", "disagreeing", "fewer-forms", "more-forms"],
)
def test_a_broken_plural_header_fails_the_load(
    tmp_path: Path, files: dict[str, str], error: str
) -> None:
    with pytest.raises(ValueError, match=error):
        _Catalog("fr", _folder(tmp_path, files))
