"""Plural rules read from the catalogs' own ``Plural-Forms`` header, never from Babel's tables.

A translator writes each counted message with as many ``msgstr[i]`` forms as the header of the
file says (``nplurals``), for the rule that header states (``plural``). That header is therefore
the only rule that matches the translations. Babel's own table follows CLDR and changes between
releases: Babel 2.19 gives French and Italian a third form ("many", for a million and its
multiples), which our two-form catalogs do not have. So the header is parsed here with the
standard library, and every catalog of one language must state the same one.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

#: English has no catalog (it is the source language): the rule ``n_`` applies to it.
ENGLISH = "nplurals=2; plural=(n != 1);"

#: Counts a header's expression is tried on when it is read: every small count, and large
#: ones, where CLDR-style rules ("n % 1000000 == 0") pick yet another form.
_SAMPLE = (*range(1001), 10**6, 10**6 + 1, 2 * 10**6, 10**9, 10**12)

# The header entry: ``msgid ""`` directly followed by its ``msgstr`` lines (a message whose id
# merely starts with "" has continuation lines in between, so it cannot match).
_HEADER = re.compile(
    r'^msgid ""[ \t]*\r?\nmsgstr[ \t]*((?:"(?:[^"\\\n]|\\.)*"[ \t]*\r?(?:\n|$))+)', re.M
)
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
_INDEX = re.compile(r"^msgstr\[(\d+)\]")


class PluralFormsError(ValueError):
    """A catalog's ``Plural-Forms`` is missing, malformed, or differs from its siblings'."""


@dataclass(frozen=True)
class PluralForms:
    """A parsed ``Plural-Forms`` header: ``count`` forms, and ``form(n)``, the one ``n`` takes.

    Two rules are equal when their counts and expressions (spaces aside) are; ``value`` keeps
    the header as its file wrote it, to be copied verbatim into a new catalog."""

    count: int
    expression: str = field(compare=False)
    value: str = field(compare=False)
    form: Callable[[int], int] = field(compare=False, repr=False)
    _key: str = field(repr=False)

    @property
    def header(self) -> str:
        """The header in the canonical layout (the one Babel writes back)."""
        return f"nplurals={self.count}; plural={self.expression};"


def parse_plural_forms(value: str, where: str = "Plural-Forms") -> PluralForms:
    """The rule of a ``Plural-Forms`` header value (``nplurals=2; plural=(n > 1);``).

    Raises :class:`PluralFormsError` if it is malformed, or if its expression can name a form
    the header does not have (``nplurals=2`` with a rule that says 2 for some count)."""
    params: dict[str, str] = {}
    for part in value.split(";"):  # a C plural expression never contains ";"
        if not part.strip():
            continue
        name, sep, text = part.partition("=")
        if not sep:
            raise PluralFormsError(f"{where}: cannot read {part.strip()!r} in {value!r}")
        params[name.strip().lower()] = text.strip()
    try:
        count = int(params["nplurals"])
        expression = params["plural"]
        form = gettext.c2py(expression)
    except (KeyError, ValueError) as exc:
        raise PluralFormsError(f"{where}: not a Plural-Forms header: {value!r} ({exc})") from exc
    if count < 1:
        raise PluralFormsError(f"{where}: nplurals must be at least 1 in {value!r}")
    wrong = next((n for n in _SAMPLE if not 0 <= form(n) < count), None)
    if wrong is not None:
        raise PluralFormsError(
            f"{where}: {expression!r} gives form {form(wrong)} for n={wrong}, but nplurals={count}"
        )
    key = "".join(expression.split())
    return PluralForms(count, expression, value.strip(), form, key)


def header_fields(text: str) -> dict[str, str]:
    """The header entry's fields (names lower-cased) of a ``.po`` file's text; empty if it
    has no header entry."""
    found = _HEADER.search(text)
    if found is None:
        return {}
    raw = "".join(_STRING.findall(found.group(1)))
    header = re.sub(r"\\(.)", lambda e: _ESCAPES.get(e.group(1), e.group(1)), raw)
    fields: dict[str, str] = {}
    for line in header.split("\n"):
        name, sep, value = line.partition(":")
        if sep:
            fields[name.strip().lower()] = value.strip()
    return fields


def plural_forms_of(text: str, where: str) -> PluralForms:
    """The rule a ``.po`` file's text declares; :class:`PluralFormsError` if it declares none
    (Babel would then fall back on its own table, which is exactly what must not happen)."""
    value = header_fields(text).get("plural-forms")
    if not value:
        raise PluralFormsError(f"{where}: no Plural-Forms header")
    return parse_plural_forms(value, where)


def agreed_plural_forms(language: str, texts: Mapping[str, str]) -> PluralForms | None:
    """The one rule every catalog of ``language`` declares (``texts``: file name → text);
    None without catalogs. Raises :class:`PluralFormsError` if the files disagree: their
    messages are merged into one table, read with one rule."""
    rules = {name: plural_forms_of(text, f"{language}/{name}") for name, text in texts.items()}
    if not rules:
        return None
    first = next(iter(rules.values()))
    if any(rule != first for rule in rules.values()):
        listed = "; ".join(f"{name}: {rule.value!r}" for name, rule in rules.items())
        raise PluralFormsError(f"the {language} catalogs disagree on Plural-Forms: {listed}")
    return first


def plural_entries(text: str) -> Iterator[tuple[str, list[int]]]:
    """Each live (not obsolete) counted message of a ``.po`` file's text: its msgid and the
    indices of its ``msgstr[i]`` lines, as written (Babel pads or cuts them to the header's
    count when it reads the file, so this is read from the text itself)."""
    msgid: str | None = None
    plural = False
    indices: list[int] = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("msgid "):
            if msgid is not None and plural:
                yield msgid, indices
            msgid, plural, indices = "".join(_STRING.findall(line)), False, []
        elif line.startswith("msgid_plural"):
            plural = True
        elif line.startswith('"') and msgid is not None and not plural and not indices:
            msgid += "".join(_STRING.findall(line))
        elif (index := _INDEX.match(line)) is not None:
            indices.append(int(index.group(1)))
    if msgid is not None and plural:
        yield msgid, indices
