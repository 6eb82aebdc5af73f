"""bot.i18n itself: which language a locale means, the current language, plural rules."""

from __future__ import annotations

import asyncio

import discord

from bot.i18n import _, catalog, current, language_of, n_, using


def test_discord_locales_map_to_our_three_languages() -> None:
    assert language_of(discord.Locale.french) == "fr"
    assert language_of(discord.Locale.italian) == "it"
    assert language_of(discord.Locale.british_english) == "en"
    assert language_of(discord.Locale.american_english) == "en"
    assert language_of(discord.Locale.german) == "en"  # not spoken: English
    assert language_of("fr-CA") == "fr" and language_of("it_IT") == "it"
    assert language_of(None) == "en" and language_of("") == "en"


def test_using_nests_and_restores() -> None:
    assert current() == "en"
    with using("fr"):
        assert current() == "fr"
        with using(discord.Locale.italian):
            assert current() == "it"
        assert current() == "fr"
    assert current() == "en"


async def test_the_language_follows_work_into_threads_and_tasks() -> None:
    with using("it"):
        assert await asyncio.to_thread(current) == "it"
        assert await asyncio.create_task(asyncio.sleep(0, current())) == "it"
    assert await asyncio.to_thread(current) == "en"


def test_english_is_the_source_and_placeholders_fill_in() -> None:
    assert _("Trick {n} of {total}", n=3, total=18) == "Trick 3 of 18"
    assert n_("{n} trick", "{n} tricks", 1) == "1 trick"
    assert n_("{n} trick", "{n} tricks", 0) == "0 tricks"
    with using("fr"):  # a message no catalog knows stays English rather than vanish
        assert _("No such message {x}", x=1) == "No such message 1"


#: Counts on either side of every rule, and a million: CLDR-based tables (Babel 2.19) give
#: French and Italian a third form, "many", for it; our two-form catalogs must still say "plis".
COUNTS = (0, 1, 2, 5, 21, 100, 1_000_000)


def test_plural_rules_are_each_languages_own() -> None:
    """Our catalogs' header decides, as rendered: French counts 0 and 1 as singular ("0 pli"),
    Italian and English only 1 ("0 prese"), whatever Babel's own table says."""
    with using("fr"):
        shown = [n_("{n} trick", "{n} tricks", n) for n in COUNTS]
    assert shown == ["0 pli", "1 pli", "2 plis", "5 plis", "21 plis", "100 plis", "1000000 plis"]
    with using("it"):
        shown = [n_("{n} trick", "{n} tricks", n) for n in COUNTS]
    assert shown == [
        "0 prese",
        "1 presa",
        "2 prese",
        "5 prese",
        "21 prese",
        "100 prese",
        "1000000 prese",
    ]
    shown = [n_("{n} trick", "{n} tricks", n) for n in COUNTS]
    assert shown == [
        "0 tricks",
        "1 trick",
        "2 tricks",
        "5 tricks",
        "21 tricks",
        "100 tricks",
        "1000000 tricks",
    ]


def test_each_language_reads_the_plural_forms_its_catalogs_declare() -> None:
    """The rule comes from the ``Plural-Forms`` of the ``.po`` files (English, without one,
    from ``n != 1``), not from a table inside a library."""
    assert catalog("fr").plural_forms.header == "nplurals=2; plural=(n > 1);"
    assert catalog("it").plural_forms.header == "nplurals=2; plural=(n != 1);"
    assert catalog("en").plural_forms.header == "nplurals=2; plural=(n != 1);"
    for language in ("fr", "it"):
        forms = catalog(language).plural_forms
        assert all(len(f) == forms.count for f in catalog(language).plural.values())
        assert {forms.form(n) for n in COUNTS} == set(range(forms.count))
