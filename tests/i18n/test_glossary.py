"""The glossaries (``bot/i18n/glossary/<lang>.toml``, issue 32) against the catalogs.

A glossary has one table per catalog area (``[la_morte]`` checks ``locales/<lang>/la_morte.po``;
``[common]`` checks every area). Each term is ``key = { use = "…", avoid = ["…"], stem = …,
required = …, note = "…" }``: no translation of the area may contain an ``avoid`` word (whole
word, case-insensitive, ' and ’ alike; with ``stem = true`` also as the start of a longer word),
and with ``required = true`` every message whose English has the key (``_`` read as a space,
as a stem when ``stem``; placeholders are not words) says ``use``. Every glossary file found
is checked (French and Italian are written apart); French must have one.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
GLOSSARIES = ROOT / "bot" / "i18n" / "glossary"
LOCALES = ROOT / "bot" / "i18n" / "locales"
COMMON = "common"
FIELDS = {"use", "avoid", "stem", "required", "note"}
PLACEHOLDER = re.compile(r"\{\w*\}")  # {hints} names a value, not the word


@dataclass(frozen=True)
class Entry:
    """One translated message: its area, context, English (first form) and every form."""

    area: str
    context: str | None
    english: str
    forms: tuple[str, ...]


def entries(language: str) -> list[Entry]:
    """Every translated message of ``language``'s catalogs."""
    out: list[Entry] = []
    for po in sorted((LOCALES / language).glob("*.po")):
        with po.open("rb") as f:
            for m in read_po(f, locale=language):
                if not m.id:
                    continue
                english = m.id if isinstance(m.id, str) else m.id[0]
                forms = m.string if isinstance(m.string, tuple | list) else (m.string,)
                strings = tuple(str(s) for s in forms if s)
                out.append(Entry(po.stem, m.context, str(english), strings))
    return out


@cache
def _entries(language: str) -> tuple[Entry, ...]:
    return tuple(entries(language))


def _norm(text: str) -> str:
    return text.replace("'", "’").casefold()


def term_pattern(word: str, stem: bool) -> re.Pattern[str]:
    """``word`` as a whole word (or word start, with ``stem``), case- and apostrophe-blind."""
    tail = r"\w*" if stem else ""
    return re.compile(rf"(?<!\w){re.escape(_norm(word))}{tail}(?!\w)")


def violations(
    glossary: Mapping[str, Any], catalog: Iterable[Entry], areas: set[str]
) -> Iterator[str]:
    """What ``catalog`` (one language's entries) does against ``glossary``: one line per
    problem, naming the table, the term and the message."""
    catalog = list(catalog)
    for table, terms in glossary.items():
        if table != COMMON and table not in areas:
            yield f"[{table}]: no catalog area of that name"
            continue
        for key, term in terms.items():
            if not isinstance(term, dict) or not set(term) <= FIELDS or "use" not in term:
                yield f"[{table}] {key}: want {{ use, avoid, stem, required, note }}"
                continue
            stem = bool(term.get("stem", False))
            avoid = [term_pattern(w, stem) for w in term.get("avoid", [])]
            english = term_pattern(key.replace("_", " "), stem)
            use = term_pattern(term["use"], stem)
            for e in catalog:
                if table not in (COMMON, e.area):
                    continue
                for form in e.forms:
                    for word, pattern in zip(term.get("avoid", []), avoid, strict=True):
                        if pattern.search(_norm(form)):
                            yield f"[{table}] {key}: {e.area}.po says {word!r}: {form!r}"
                if (
                    term.get("required")
                    and e.context not in ("command name", "option name")
                    and english.search(PLACEHOLDER.sub("", e.english).casefold())
                    and not all(use.search(_norm(f)) for f in e.forms)
                ):
                    yield f"[{table}] {key}: {e.area}.po lacks {term['use']!r}: {e.forms!r}"


def glossary_files() -> list[Path]:
    return sorted(GLOSSARIES.glob("*.toml"))


def test_french_has_a_glossary() -> None:
    assert (GLOSSARIES / "fr.toml").is_file()


@pytest.mark.parametrize("path", glossary_files(), ids=lambda p: p.stem)
def test_the_catalogs_keep_to_their_glossary(path: Path) -> None:
    language = path.stem
    glossary = tomllib.loads(path.read_text(encoding="utf-8"))
    areas = {po.stem for po in (LOCALES / language).glob("*.po")}
    assert areas, f"no catalogs for {language}"
    found = list(violations(glossary, _entries(language), areas))
    assert not found, "\n".join(found)


# ---- the check itself fails on a real violation ------------------------------------------------
def _planted(area: str, english: str, french: str) -> list[Entry]:
    return [*_entries("fr"), Entry(area, None, english, (french,))]


def _french() -> dict[str, Any]:
    return tomllib.loads((GLOSSARIES / "fr.toml").read_text(encoding="utf-8"))


def _areas() -> set[str]:
    return {po.stem for po in (LOCALES / "fr").glob("*.po")}


@pytest.mark.parametrize(
    ("area", "english", "french", "term"),
    [
        ("queen_of_tarot", "Demand 5", "Exigez 5", "demand"),  # a stem, any area ([common])
        ("la_morte", "You dropped.", "Vous avez abandonné.", "drop"),  # an area's own term
        ("french_tarot", "the Fool", "le Mat", "fool"),  # another game's word
        ("core", "Ask for a hint", "Demandez un indice", "hint"),
        ("core", "Review of hand {n}", "Analyse de la main {n}", "hand"),  # a phrase
        ("core", "Add computer", "Ajouter l'ordinateur", "add_computer"),  # ' as ’
    ],
)
def test_a_planted_word_to_avoid_fails(area: str, english: str, french: str, term: str) -> None:
    found = list(violations(_french(), _planted(area, english, french), _areas()))
    assert any(f"] {term}: {area}.po says" in line for line in found), found


def test_a_word_to_avoid_elsewhere_passes() -> None:
    """A game's term binds that game only: le Mat is right in Queen of Tarot."""
    planted = _planted("queen_of_tarot", "the Fool", "le Mat")
    assert not list(violations(_french(), planted, _areas()))


def test_a_required_term_missing_fails() -> None:
    planted = _planted("core", "Hints are on", "Les aides sont activées")
    found = list(violations(_french(), planted, _areas()))
    assert any("] hint: core.po lacks 'conseil'" in line for line in found), found


def test_a_malformed_entry_or_unknown_area_fails() -> None:
    glossary = {"core": {"x": {"avoid": ["y"]}}, "no_such_game": {"x": {"use": "y"}}}
    found = list(violations(glossary, [], {"core"}))
    assert any("[core] x: want" in line for line in found)
    assert any("[no_such_game]" in line for line in found)
