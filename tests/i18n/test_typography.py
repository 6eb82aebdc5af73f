"""French typography in every French catalog (issue 32).

One choice throughout: a no-break space U+00A0 (not a plain space, not the narrow U+202F)
before ``: ; ! ?`` and inside « », and ’ as the only apostrophe. U+00A0 because every font
has it (the pictures draw the catalogs with the bot's own fonts, and some clients' fonts lack
U+202F), the catalogs that were already right used it, and it is what Discord's own French
interface uses; Discord renders both. Code spans (typed values), placeholders, mentions and
emoji codes (``<:name:id>``), URLs and times (10:30) are not prose and are skipped; command
and option names have no spaces or apostrophes at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.i18n.test_glossary import Entry, _entries

NBSP = "\u00a0"
NOT_PROSE = re.compile(
    r"`[^`]*`"  # inline code: typed as is
    r"|\{[^{}]*\}"  # placeholders
    r"|<[^<>\s]*>"  # mentions, channels, emoji codes
    r"|https?://\S+"  # links
    r"|\d+:\d+"  # times
)
#: A space that is not the chosen one, before the high punctuation or inside the guillemets.
WRONG_SPACE = re.compile(r"[ \u202f\u2009][:;!?»]|«[ \u202f\u2009]")
#: No space at all: a word glued to ; ! ? (or to a : that ends a phrase, not option:value).
NO_SPACE = re.compile(r"[^\s\x00][;!?]|[^\s\x00]:(?=\s|$)")
NAMES = ("command name", "option name")


def problems(text: str) -> Iterator[str]:
    """What ``text`` (one French translation) does against the chosen typography."""
    prose = NOT_PROSE.sub("\x00", text)
    for m in WRONG_SPACE.finditer(prose):
        yield f"{m.group()!r} (U+{ord(m.group().strip(':;!?»«') or ' '):04X} space)"
    for m in NO_SPACE.finditer(prose):
        yield f"{m.group()!r} (no space)"
    if "'" in prose:
        yield "a ' apostrophe (’ everywhere)"
    if "«" in prose and not re.search("«" + NBSP, prose):
        yield "« without U+00A0 after it"


def _french() -> list[Entry]:
    return [e for e in _entries("fr") if e.context not in NAMES]


def test_french_typography_is_one_choice_everywhere() -> None:
    found = [
        f"{e.area}.po {e.english[:50]!r}: {problem}"
        for e in _french()
        for form in e.forms
        for problem in problems(form)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "bad",
    [
        "Votre main : {cards}",  # plain space before :
        "Prêt ?",
        "Prêt?",
        "Votre main: {cards}",
        "Attention !",
        "Un ; deux",
        "Le\u202fpli ; suivant",  # narrow no-break space: not the chosen one
        "« hors du temps »",
        "«\u00a0hors du temps »",
        "L'atout",  # straight apostrophe
    ],
)
def test_a_planted_typography_error_fails(bad: str) -> None:
    assert list(problems(bad)), bad


@pytest.mark.parametrize(
    "good",
    [
        "Votre main\u00a0: {cards}",
        "Prêt\u00a0?",
        "«\u00a0hors du temps\u00a0»",
        "L’atout",
        "Utilisez `/tarocchi regles complet:True` à 10:30",  # code and a time
        "{name} <:spade:123> https://discord.com/x:y",  # placeholder, emoji code, URL
        "</lamorte new:123> ou `critere:Cote`",  # a mention and typed options
        "Tapez `l'option`",  # a typed value keeps its quote
    ],
)
def test_what_is_not_prose_passes(good: str) -> None:
    assert not list(problems(good)), good
