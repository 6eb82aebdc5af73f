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


def test_plural_rules_are_each_languages_own() -> None:
    # French counts 0 and 1 as singular ("0 pli"), Italian and English only 1 ("0 prese").
    assert [catalog("fr").form(n) for n in (0, 1, 2, 5)] == [0, 0, 1, 1]
    assert [catalog("it").form(n) for n in (0, 1, 2, 5)] == [1, 0, 1, 1]
