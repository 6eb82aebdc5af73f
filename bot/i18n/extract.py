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
    from bot.client import TrionfiBot, extensions
    from bot.i18n.commands import command_strings

    bot = TrionfiBot(":memory:", shard_count=1)  # never logs in: only its command tree is read
    for ext in extensions():
        await bot.load_extension(ext)
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


def write(update: bool = True, areas: Iterable[str] | None = None) -> list[str]:
    """Templates (and, with ``update``, the catalogs) of ``areas`` (None: all) brought up to
    date; the changed files."""
    changed: list[str] = []
    for area, template in templates(areas).items():
        pot = LOCALES / f"{area}.pot"
        if not pot.exists() or _keys(read(pot)) != _keys(template):
            pot.write_bytes(_po_bytes(template))
            changed.append(str(pot.relative_to(ROOT)))
        if not update:
            continue
        for language in TRANSLATED:
            po = LOCALES / language / f"{area}.po"
            po.parent.mkdir(parents=True, exist_ok=True)
            catalog = (
                read(po, language)
                if po.exists()
                else Catalog(locale=language, domain=area, project="Trionfi", fuzzy=False)
            )
            before = _keys(catalog)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            if not po.exists() or _keys(catalog) != before:
                po.write_bytes(_po_bytes(catalog))
                changed.append(str(po.relative_to(ROOT)))
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
