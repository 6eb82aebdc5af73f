"""``python -m bot.i18n.extract`` never lets Babel decide a catalog's plural rule: a new area's
catalog copies its language's ``Plural-Forms``, an updated one keeps its own, with as many
``msgstr[i]`` as that header says. Run on a copy of the locales in a temporary folder (the
real one is checked to be untouched), with in-memory templates."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from bot.i18n import _Catalog, extract
from bot.i18n.extract import LOCALES, TRANSLATED, read, write_area
from bot.i18n.plurals import PluralFormsError, header_fields, plural_entries

#: Irish: five forms in Babel's CLDR table in every release, two in the catalog made up here.
#: With the locked Babel (2.18: two forms for French and Italian too) only this language shows
#: that the header is copied rather than taken from Babel; with 2.19 French and Italian do.
IRISH = "ga"
IRISH_FORMS = "nplurals=2; plural=(n != 1);"
IRISH_PO = f"""msgid ""
msgstr ""
"Language: ga\\n"
"Plural-Forms: {IRISH_FORMS}\\n"
"Content-Type: text/plain; charset=utf-8\\n"

msgid "{{n}} card"
msgid_plural "{{n}} cards"
msgstr[0] "{{n}} chárta"
msgstr[1] "{{n}} cárta"
"""
LANGUAGES = (*TRANSLATED, IRISH)
NEW_AREA = "brand_new_area"


def _snapshot() -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in LOCALES.rglob("*") if p.is_file()}


@pytest.fixture
def locales(tmp_path: Path) -> Iterator[Path]:
    """A copy of the French and Italian catalogs, the Irish one above, and no templates."""
    before = _snapshot()
    out = tmp_path / "locales"
    for language in TRANSLATED:
        shutil.copytree(LOCALES / language, out / language)
    (out / IRISH).mkdir()
    (out / IRISH / "core.po").write_text(IRISH_PO, encoding="utf-8")
    yield out
    assert _snapshot() == before, "the real locales folder was written to"


def _plural_forms(po: Path) -> str:
    return header_fields(po.read_text(encoding="utf-8"))["plural-forms"]


def _declared(language: str) -> str:
    """The header the language's core catalog had before the run."""
    return IRISH_FORMS if language == IRISH else _plural_forms(LOCALES / language / "core.po")


def _forms_of_every_counted_message(po: Path) -> set[tuple[int, ...]]:
    return {tuple(indices) for _, indices in plural_entries(po.read_text(encoding="utf-8"))}


def test_a_new_areas_catalogs_copy_their_languages_plural_forms(locales: Path) -> None:
    template = Catalog(project="Trionfi", domain=NEW_AREA, fuzzy=False)
    template.add(("{n} trick", "{n} tricks"))
    template.add("Hello")
    changed = write_area(NEW_AREA, template, locales=locales, languages=LANGUAGES)
    assert len(changed) == 1 + len(LANGUAGES)  # the template and one catalog per language
    for language in LANGUAGES:
        po = locales / language / f"{NEW_AREA}.po"
        assert _plural_forms(po) == _declared(language), language
        assert _forms_of_every_counted_message(po) == {(0, 1)}, language
        # …and the runtime loads the language with the new file among the others.
        assert _Catalog(language, locales / language).plural_forms.count == 2


def test_updated_catalogs_keep_their_header_forms_and_translations(locales: Path) -> None:
    template = read(LOCALES / "core.pot")
    template.add(("{n} new thing", "{n} new things"))  # a change, so every catalog is rewritten
    template.add(("{n} card", "{n} cards"))  # the Irish catalog's message
    before = {
        language: {m.id: m.string for m in read(locales / language / "core.po") if m.id}
        for language in LANGUAGES
    }
    changed = write_area("core", template, locales=locales, languages=LANGUAGES)
    assert len(changed) == 1 + len(LANGUAGES)
    for language in LANGUAGES:
        po = locales / language / "core.po"
        assert _plural_forms(po) == _declared(language), language
        assert _forms_of_every_counted_message(po) == {(0, 1)}, language
        after = read(po)
        assert not any(m.fuzzy for m in after if m.id), language
        kept = {m.id: m.string for m in after if m.id and m.id in before[language]}
        assert kept == before[language], language
        assert after.get(("{n} new thing", "{n} new things")) is not None


def test_a_header_babel_would_rewrite_is_never_written(
    locales: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were a Babel release to write its own CLDR rule (3 forms for French) over ours, the
    tool refuses to write the file rather than change the catalog's rule."""
    write_po = extract._po_bytes

    def cldr_writer(catalog: Catalog) -> bytes:
        if catalog.locale is not None:
            catalog.mime_headers = [
                (
                    "Plural-Forms",
                    "nplurals=3; plural=(n == 0 || n == 1) ? 0 : "
                    "n != 0 && n % 1000000 == 0 ? 1 : 2;",
                )
            ]
        return write_po(catalog)

    monkeypatch.setattr(extract, "_po_bytes", cldr_writer)
    template = Catalog(project="Trionfi", domain=NEW_AREA, fuzzy=False)
    template.add(("{n} trick", "{n} tricks"))
    with pytest.raises(PluralFormsError, match="would be written"):
        write_area(NEW_AREA, template, locales=locales, languages=("fr",))
    assert not (locales / "fr" / f"{NEW_AREA}.po").exists()


def test_a_language_whose_catalogs_disagree_is_not_updated(locales: Path) -> None:
    po = locales / "fr" / "core.po"
    po.write_text(
        po.read_text(encoding="utf-8").replace("plural=(n > 1)", "plural=(n != 1)"),
        encoding="utf-8",
    )
    template = Catalog(project="Trionfi", domain=NEW_AREA, fuzzy=False)
    with pytest.raises(PluralFormsError, match="disagree"):
        write_area(NEW_AREA, template, locales=locales, languages=("fr",))
