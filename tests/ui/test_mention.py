"""``bot.ui.text.mention``: a command named in text is a mention once the ids are known, and
before the first sync the name the reader's slash menu shows (issue 32)."""

from __future__ import annotations

from bot.i18n import using
from bot.ui.text import mention


def test_before_any_sync_commands_are_typed_in_the_readers_language() -> None:
    assert mention.command("daily") == "`/daily`"
    assert mention.command("leaderboard", metric="Rating") == "`/leaderboard metric:Rating`"
    with using("fr"):
        assert mention.command("daily") == "`/donne-du-jour`"
        assert mention.command("leaderboard", metric="Rating") == "`/classement critere:Cote`"
        assert mention.command("privacy forget-me") == "`/confidentialite effacer-mes-donnees`"
        # A choice is typed by the first words of its label, a boolean as True.
        assert mention.command("lamorte rules", full=True) == "`/lamorte regles complet:True`"
        assert mention.options(scope="All servers") == "`portee:Tous les serveurs`"
    with using("it"):
        assert mention.command("daily").startswith("`/") and "daily" not in mention.command("daily")


def test_once_synced_a_mention_with_the_english_names_and_localised_options() -> None:
    mention.remember({"leaderboard": 11, "privacy": 12, "lamorte": 13})
    try:
        with using("fr"):
            assert mention.command("leaderboard", metric="Rating") == (
                "</leaderboard:11> `critere:Cote`"
            )
            assert mention.command("privacy forget-me") == "</privacy forget-me:12>"
            assert mention.command("lamorte new") == "</lamorte new:13>"
            assert mention.command("daily") == "`/donne-du-jour`"  # an id not known: typed
            # Where Discord shows no mention (footers, labels): always typed.
            assert mention.typed("lamorte new") == "`/lamorte nouvelle`"
            assert mention.pattern("new", level="Expert (thinks ahead, like a strong player)") == (
                "`/<jeu> nouvelle niveau:Expert`"
            )
    finally:
        mention.remember({})
