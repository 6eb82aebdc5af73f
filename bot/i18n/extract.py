"""Extract the messages into the catalog templates and update the French and Italian catalogs.

    python -m bot.i18n.extract            # rewrite locales/*.pot, add new ids to every .po
    python -m bot.i18n.extract --check    # exit 1 if a template is out of date

Messages are grouped in *areas*, one template (``locales/<area>.pot``) and one catalog per
language (``locales/<lang>/<area>.po``) each, so that a game's words live together: the area of a
file is its game when the file is named after one (``bot/ui/games/la_morte.py``,
``cogs/la_morte.py``), ``core`` otherwise; the slash commands' strings form the ``commands`` area.
Translators edit the ``.po`` files; this tool never guesses (no fuzzy matching), so a new or
changed English message shows up untranslated until someone translates it — which the test suite
refuses.

The plural rule of a catalog is its own ``Plural-Forms`` header (``bot.i18n.plurals``), never
Babel's: a new catalog copies the header of its language's other catalogs (a newer Babel's CLDR
table may want another number of forms, as 2.19 does for French and Italian), an updated one
keeps its own, and a file whose header or forms came out otherwise is not written.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from bot.engine.registry import implemented
from bot.i18n.plurals import (
    PluralForms,
    PluralFormsError,
    agreed_plural_forms,
    plural_entries,
    plural_forms_of,
)

ROOT = Path(__file__).resolve().parents[2]
LOCALES = Path(__file__).resolve().parent / "locales"
TRANSLATED = ("fr", "it")
#: Where user-facing text lives (the engine speaks in codes; bot/db and bot/ai in none).
SOURCES = ("bot/ui", "bot/services", "cogs")
KEYWORDS = {"_": None, "n_": (1, 2), "N_": None, "p_": ((1, "c"), 2)}
COMMANDS = "commands"


def area_of(path: Path) -> str:
    """The catalog area of a source file: its game, ``pictures``, ``services`` or ``core``."""
    if path.stem in implemented():
        return path.stem
    parts = path.relative_to(ROOT).parts
    if parts[:3] == ("bot", "ui", "pictures"):
        return "pictures"
    if parts[:2] == ("bot", "services"):
        return "services"
    return "core"


def source_files() -> list[Path]:
    return sorted(p for root in SOURCES for p in (ROOT / root).rglob("*.py"))


def _template(area: str) -> Catalog:
    return Catalog(project="Trionfi", domain=area, fuzzy=False)


def message_templates() -> dict[str, Catalog]:
    """A template per area with every ``_``/``n_``/``N_`` message of the sources."""
    out: dict[str, Catalog] = {}
    for path in source_files():
        area = area_of(path)
        template = out.setdefault(area, _template(area))
        for line, message, comments, context in extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=("i18n:",)
        ):
            where = (str(path.relative_to(ROOT)), line)
            template.add(message, locations=[where], auto_comments=comments, context=context)
    return out


async def _command_tree_strings() -> list[tuple[str, str]]:
    from bot.client import TrionfiBot, load_cogs
    from bot.i18n.commands import command_strings

    bot = TrionfiBot(":memory:", shard_count=1)  # never logs in: only its command tree is read
    await load_cogs(bot)
    return list(dict.fromkeys(command_strings(bot.tree)))


def command_template() -> Catalog:
    """The slash commands' strings, each with its context (``bot.i18n.commands``)."""
    template = _template(COMMANDS)
    for context, text in asyncio.run(_command_tree_strings()):
        template.add(text, context=context)
    return template


def templates(areas: Iterable[str] | None = None) -> dict[str, Catalog]:
    """The templates of ``areas`` (None: every area)."""
    wanted = None if areas is None else set(areas)
    out = message_templates()
    if wanted is None or COMMANDS in wanted:
        out[COMMANDS] = command_template()
    return {a: t for a, t in out.items() if wanted is None or a in wanted}


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, omit_header=False, no_location=False)
    return out.getvalue()


def _keys(catalog: Iterable[object]) -> set[tuple[object, object]]:
    return {(m.context, m.id) for m in catalog if m.id}  # type: ignore[attr-defined]


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def _shown(path: Path) -> str:
    """``path`` as reported: relative to the repository when it is inside it."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def plural_forms(folder: Path) -> PluralForms | None:
    """The ``Plural-Forms`` every catalog in ``folder`` (one language's) declares; None if it
    has none yet. Raises :class:`PluralFormsError` if they disagree or one lacks it."""
    texts = {po.name: po.read_text(encoding="utf-8") for po in sorted(folder.glob("*.po"))}
    return agreed_plural_forms(folder.name, texts)


def _checked_po_bytes(catalog: Catalog, rule: PluralForms, where: str) -> bytes:
    """``catalog`` as ``.po`` bytes, refused unless it states ``rule`` and gives every counted
    message exactly ``rule.count`` forms: whatever a Babel release does to the header on
    update or write, a catalog's plural rule only changes by hand."""
    # Set again just before writing: Catalog.update() and write_po() keep a header read from
    # the file today, but the header is ours to decide, not the library's.
    catalog.mime_headers = [("Plural-Forms", rule.value)]
    data = _po_bytes(catalog)
    text = data.decode(catalog.charset or "utf-8")
    written = plural_forms_of(text, where)
    if written != rule:
        raise PluralFormsError(
            f"{where}: would be written with {written.value!r}, not {rule.value!r}"
        )
    wanted = list(range(rule.count))
    for msgid, indices in plural_entries(text):
        if indices != wanted:
            raise PluralFormsError(f"{where}: {msgid!r} would get msgstr{indices}, not {wanted}")
    return data


def write_area(
    area: str,
    template: Catalog,
    update: bool = True,
    locales: Path = LOCALES,
    languages: Iterable[str] = TRANSLATED,
) -> list[str]:
    """One area's template (and, with ``update``, its catalogs in ``languages``) written into
    ``locales`` when out of date; the changed files."""
    changed: list[str] = []
    pot = locales / f"{area}.pot"
    if not pot.exists() or _keys(read(pot)) != _keys(template):
        pot.write_bytes(_po_bytes(template))
        changed.append(_shown(pot))
    if not update:
        return changed
    for language in languages:
        po = locales / language / f"{area}.po"
        rule = plural_forms(po.parent)  # also checks that the existing catalogs agree
        if rule is None:
            raise PluralFormsError(
                f"{_shown(po.parent)}: no catalog to copy Plural-Forms from; write the first "
                f"one's header by hand (gettext's rule for {language!r})"
            )
        if po.exists():
            catalog = read(po, language)
            # Its own header, spelled as it is (equal to its siblings' but for spaces).
            rule = plural_forms_of(po.read_text(encoding="utf-8"), _shown(po))
        else:
            catalog = Catalog(locale=language, domain=area, project="Trionfi", fuzzy=False)
            # Not Babel's CLDR default (Babel 2.19 says nplurals=3 for fr and it): the rule
            # the language's other catalogs are translated for.
            catalog.mime_headers = [("Plural-Forms", rule.value)]
        before = _keys(catalog)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        if not po.exists() or _keys(catalog) != before:
            po.write_bytes(_checked_po_bytes(catalog, rule, _shown(po)))
            changed.append(_shown(po))
    return changed


def write(
    update: bool = True, areas: Iterable[str] | None = None, locales: Path = LOCALES
) -> list[str]:
    """Templates (and, with ``update``, the catalogs) of ``areas`` (None: all) brought up to
    date; the changed files."""
    changed: list[str] = []
    for area, template in templates(areas).items():
        changed += write_area(area, template, update, locales)
    return changed


def stale() -> list[str]:
    """Areas whose template on disk lacks or keeps messages the sources no longer have."""
    out: list[str] = []
    for area, template in templates().items():
        pot = LOCALES / f"{area}.pot"
        if not pot.exists() or _keys(read(pot)) != _keys(template):
            out.append(area)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale templates")
    parser.add_argument(
        "--area", action="append", help="only this area (repeatable): a game id, core, …"
    )
    args = parser.parse_args()
    if args.check:
        bad = stale()
        print("templates up to date" if not bad else f"stale templates: {', '.join(bad)}")
        sys.exit(1 if bad else 0)
    for name in write(areas=args.area):
        print(f"updated {name}")


if __name__ == "__main__":
    main()
