"""Trionfi's languages: English (the source), French and Italian, from gettext catalogs.

Every user-facing sentence is written in English in the code, wrapped in :func:`_` (or
:func:`n_` for counts, :func:`p_` with a context for short words that need telling apart,
:func:`N_` to mark a constant translated later), and translated from the
catalogs in ``bot/i18n/locales/<lang>/<area>.po`` (edited as plain ``.po`` files, extracted
and updated with Babel: ``python -m bot.i18n.extract``). Placeholders are ``str.format``
names: ``_("Trick {n} of {total}", n=3, total=18)``.

The language is the *current* one, a context variable set around each rendering with
:func:`using`: the table's language for the public table and its summaries, each player's own
for their DMs and private answers (``bot.ui.text.locale`` decides which). Rendering stays a pure
function of its inputs and that one variable, which also reaches worker threads
(``asyncio.to_thread`` copies the context).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from babel.messages.pofile import read_po

from bot.i18n.plurals import (
    ENGLISH,
    PluralForms,
    PluralFormsError,
    agreed_plural_forms,
    parse_plural_forms,
    plural_entries,
)

#: The languages Trionfi speaks, English first (the source language and the fallback).
LANGUAGES: tuple[str, ...] = ("en", "fr", "it")
DEFAULT = "en"
#: Each language's own name, for menus and settings.
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "it": "Italiano"}

_current: ContextVar[str] = ContextVar("trionfi_language", default=DEFAULT)


def language_of(locale: object) -> str:
    """The language Trionfi speaks for a Discord locale (``"fr"``, ``"en-GB"``, a
    ``discord.Locale``) or a stored language code; English for everything else."""
    code = str(getattr(locale, "value", locale) or "").lower().replace("_", "-")
    base = code.split("-", 1)[0]
    return base if base in LANGUAGES else DEFAULT


def current() -> str:
    """The language text is being written in right now."""
    return _current.get()


@contextmanager
def using(language: object) -> Iterator[str]:
    """Write in ``language`` (any locale :func:`language_of` reads; None: English) inside."""
    chosen = language_of(language)
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


class _Catalog:
    """One language's messages, merged from its ``.po`` files, with its plural rule: the
    ``Plural-Forms`` header the files themselves declare (French counts 0 and 1 as one,
    Italian and English only 1), never Babel's CLDR table, which changes between releases
    (Babel 2.19 gives French and Italian a third form our catalogs do not have). The files of
    one language must agree on it; a missing, malformed or disagreeing header, or a counted
    message without exactly that many forms, fails the load (:class:`PluralFormsError`)
    rather than show the wrong form."""

    def __init__(self, language: str, folder: Traversable | None = None) -> None:
        self.singular: dict[str, str] = {}
        self.plural: dict[str, tuple[str, ...]] = {}
        # Messages with a context (``msgctxt``): the slash commands' names, descriptions and
        # choices (``bot.i18n.commands``), where one English word may need two translations.
        self.contextual: dict[tuple[str, str], str] = {}
        if folder is None:  # another folder: only for the tests of a broken catalog
            folder = resources.files("bot.i18n").joinpath("locales", language)
        files: dict[str, bytes] = {}
        if language != DEFAULT and folder.is_dir():
            files = {
                entry.name: entry.read_bytes()
                for entry in sorted(folder.iterdir(), key=lambda e: e.name)
                if entry.name.endswith(".po")
            }
        texts = {name: data.decode("utf-8") for name, data in files.items()}
        agreed = agreed_plural_forms(language, texts)
        # English (no catalog) and a language without catalogs yet count like English.
        self.plural_forms: PluralForms = agreed or parse_plural_forms(ENGLISH, "English")
        self.form: Callable[[int], int] = self.plural_forms.form
        wanted = list(range(self.plural_forms.count))
        for name, text in texts.items():
            # Counted from the text: Babel pads missing forms with "" (the message would then
            # silently stay English) and drops extra ones when it reads the file.
            for msgid, indices in plural_entries(text):
                if indices != wanted:
                    raise PluralFormsError(
                        f"{language}/{name}: {msgid!r} has msgstr{indices}, the header's "
                        f"Plural-Forms wants {wanted}"
                    )
        for name, data in files.items():
            # abort_invalid: a malformed file is an error here, not a printed warning.
            book = read_po(io.BytesIO(data), locale=language, abort_invalid=True)
            for message in book:
                if not message.id or message.fuzzy:  # a fuzzy guess is never shown
                    continue
                if isinstance(message.id, tuple | list):
                    forms = tuple(str(s) for s in message.string or ())
                    if len(forms) != self.plural_forms.count:
                        # Babel sized the entry by another rule than the header's (the header
                        # is not the first entry): the forms would not line up with form(n).
                        raise PluralFormsError(
                            f"{language}/{name}: {message.id[0]!r} read with {len(forms)} "
                            f"forms, the header says {self.plural_forms.count}"
                        )
                    if all(forms):
                        self.plural[str(message.id[0])] = forms
                elif message.string and message.context:
                    self.contextual[(message.context, str(message.id))] = str(message.string)
                elif message.string:
                    self.singular[str(message.id)] = str(message.string)


@cache
def catalog(language: str) -> _Catalog:
    """The catalog of ``language`` (loaded once per process)."""
    return _Catalog(language)


def _format(text: str, params: dict[str, Any]) -> str:
    return text.format(**params) if params else text


def _(message: str, /, **params: Any) -> str:
    """``message`` in the current language, with ``params`` filled in."""
    language = _current.get()
    if language != DEFAULT:
        message = catalog(language).singular.get(message, message)
    return _format(message, params)


def n_(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form for ``n`` of a counted message (``{n}`` is filled in with ``n``)."""
    params.setdefault("n", n)
    language = _current.get()
    if language != DEFAULT:
        book = catalog(language)
        forms = book.plural.get(singular)
        if forms is not None:
            # form(n) is below the header's count for every count tried at load; min() only
            # guards counts beyond those.
            return _format(forms[min(book.form(n), len(forms) - 1)], params)
    return _format(singular if n == 1 else plural, params)


def p_(context: str, message: str, /, **params: Any) -> str:
    """``message`` in the current language where the same English needs telling apart
    (``p_("rank", "K")``: a King's one-letter label, "R" in French and Italian)."""
    language = _current.get()
    if language != DEFAULT:
        message = catalog(language).contextual.get((context, message), message)
    return _format(message, params)


def N_(message: str, /) -> str:
    """Mark ``message`` for the catalogs without translating it (a constant translated when
    shown, with ``_(CONSTANT)``)."""
    return message


class Words(Mapping[str, str]):
    """A constant table of words read in the current language when looked up: a message
    marked with ``N_()`` goes through ``_()``, a function (``lambda: p_(context, word)``, for
    a word a game translates its own way) is called; the keys are codes and stay as they
    are."""

    def __init__(self, words: Mapping[str, str | Callable[[], str]]) -> None:
        self._words = dict(words)

    def __getitem__(self, key: str) -> str:
        word = self._words[key]
        return word() if callable(word) else _(word)

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)
