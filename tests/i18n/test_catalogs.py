"""The catalogs are complete (issue 19): every message of the code is in the templates, and
every one is translated into French and Italian, without fuzzy guesses, with the same
placeholders; no user-facing English is left outside the catalogs; the slash commands'
translations obey Discord's rules."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.catalog import Catalog, Message

from bot.i18n.commands import problems
from bot.i18n.extract import LOCALES, TRANSLATED, read, stale, templates
from bot.i18n.plurals import plural_entries, plural_forms_of
from tests.i18n.text_lint import scan

PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")


@cache
def _templates() -> dict[str, Catalog]:
    return templates()


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_the_templates_hold_every_message_of_the_code() -> None:
    assert stale() == [], "run: python -m bot.i18n.extract"


def test_no_user_facing_english_outside_the_catalogs() -> None:
    found = scan()
    assert not found, "\n".join(str(f) for f in found[:40]) + f"\n({len(found)} in all)"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_without_guesses(language: str) -> None:
    missing: list[str] = []
    for area, template in _templates().items():
        book = read(LOCALES / language / f"{area}.po", language)
        for message in template:
            if not message.id:
                continue
            found: Message | None = book.get(message.id, context=message.context)
            where = f"{language}/{area}.po: {message.id!r}"
            if found is None:
                missing.append(f"{where}: missing")
                continue
            if found.fuzzy:
                missing.append(f"{where}: fuzzy")
            strings = found.string if isinstance(found.string, tuple | list) else (found.string,)
            if not all(strings):
                missing.append(f"{where}: untranslated")
                continue
            english = message.id if isinstance(message.id, tuple | list) else (message.id,)
            for i, text in enumerate(strings):
                source = english[min(i, len(english) - 1)]
                # A singular form may drop the count ("un pli" for {n} == 1), nothing else.
                expected = _placeholders(source) - ({"n"} if i == 0 and len(english) > 1 else set())
                got = _placeholders(str(text))
                if not expected <= got <= _placeholders(source) | {"n"}:
                    missing.append(f"{where}: placeholders {sorted(got)} ≠ {sorted(expected)}")
    assert not missing, "\n".join(missing[:40]) + f"\n({len(missing)} in all)"


@pytest.mark.parametrize("language", TRANSLATED)
def test_command_translations_fit_discord(language: str) -> None:
    book = read(LOCALES / language / "commands.po", language)
    bad = [
        f"{m.context}: {m.id!r} → {m.string!r}: {', '.join(p)}"
        for m in book
        if m.id and m.context and m.string
        for p in [problems(m.context, str(m.id), str(m.string))]
        if p
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_message_two_areas_share_reads_the_same_in_both(language: str) -> None:
    """The catalogs of a language are merged into one lookup: the same English (and context)
    in two areas must have one translation, or the last file read would silently win."""
    seen: dict[tuple[object, object], tuple[str, object]] = {}
    clashes: list[str] = []
    for po in sorted((LOCALES / language).glob("*.po")):
        for m in read(po, language):
            if not m.id or m.fuzzy:
                continue
            key = (m.context, m.id if isinstance(m.id, str) else tuple(m.id))
            string = m.string if isinstance(m.string, str) else tuple(m.string)
            if key in seen and seen[key][1] != string:
                clashes.append(f"{key}: {seen[key][0]} {seen[key][1]!r} ≠ {po.name} {string!r}")
            seen.setdefault(key, (po.name, string))
    assert not clashes, "\n".join(clashes)


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_languages_catalogs_share_one_plural_rule_and_give_every_form(language: str) -> None:
    """Each ``.po`` of a language states the same ``Plural-Forms`` (its messages are merged
    into one table, read with one rule), and every counted message has exactly ``nplurals``
    forms, counted in the text: Babel pads or cuts them to the header when it reads a file."""
    files = sorted((LOCALES / language).glob("*.po"))
    assert files
    texts = {po.name: po.read_text(encoding="utf-8") for po in files}
    rules = {name: plural_forms_of(text, f"{language}/{name}") for name, text in texts.items()}
    first = rules[files[0].name]
    assert all(rule == first for rule in rules.values()), {n: r.value for n, r in rules.items()}
    wanted = list(range(first.count))
    bad = [
        f"{language}/{name}: {msgid!r} has msgstr{indices}, nplurals={first.count}"
        for name, text in texts.items()
        for msgid, indices in plural_entries(text)
        if indices != wanted
    ]
    assert not bad, "\n".join(bad)
    assert sum(1 for text in texts.values() for _ in plural_entries(text)) > 0
