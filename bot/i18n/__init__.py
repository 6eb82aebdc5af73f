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

import gettext
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources
from typing import Any

from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

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
    """One language's messages, merged from its ``.po`` files, with its plural rule (the
    catalogs' own ``Plural-Forms``, as gettext evaluates it: French counts 0 and 1 as one,
    Italian and English only 1)."""

    def __init__(self, language: str) -> None:
        self.singular: dict[str, str] = {}
        self.plural: dict[str, tuple[str, ...]] = {}
        # Messages with a context (``msgctxt``): the slash commands' names, descriptions and
        # choices (``bot.i18n.commands``), where one English word may need two translations.
        self.contextual: dict[tuple[str, str], str] = {}
        self.form: Callable[[int], int] = gettext.c2py(get_plural(language).plural_expr)
        folder = resources.files("bot.i18n").joinpath("locales", language)
        if not folder.is_dir():
            return
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if not entry.name.endswith(".po"):
                continue
            with entry.open("rb") as f:
                book = read_po(f, locale=language)
            for message in book:
                if not message.id or message.fuzzy:  # a fuzzy guess is never shown
                    continue
                if isinstance(message.id, tuple | list):
                    forms = tuple(str(s) for s in message.string or ())
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
