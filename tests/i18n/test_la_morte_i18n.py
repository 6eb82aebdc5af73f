"""La Morte in French and Italian (issue 19): every message of the game rendered over seeded
random deals in each language — table, turn line, hands (quiet, deciding, game over),
controls, deal summaries, options, rules — shows no English of the ``la_morte`` catalogs, uses
the game's vocabulary (its Italian names kept in every language) and fits Discord's limits.

Pure rendering (no Discord, no database), as ``TableCore`` hands states to the renderers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.i18n import n_, using
from bot.ui.games import la_morte as r
from bot.ui.text.cards import set_suit_marks
from tests.i18n.game_text import embed_atoms, english, render_game
from tests.ui.test_limits import EMOJI_MARKS, assert_embed_limits

GAME = "la_morte"
LANGUAGES = ("fr", "it")


def _talon(card: str, players: int) -> Callable[[list[str]], None]:
    """Turn ``card`` up as the talon (la_morte §2.1: the card after the 9 × N dealt ones)."""

    def arrange(deck: list[str]) -> None:
        i, j = deck.index(card), 9 * players
        deck[i], deck[j] = deck[j], deck[i]

    return arrange


SCENES: list[tuple[int, int, dict[str, Any]]] = [
    *((players, seed, {}) for players in (3, 4, 5) for seed in range(3)),
    (4, 0, {"prefer": ("drop", "muck")}),  # everyone drops, the dealer mucks
    (3, 1, {"prefer": ("drop", "bid")}),  # the dealer bids again after everyone dropped
    (5, 2, {"arrange": _talon("T13", 5)}),  # La Morte turned up: no trumps
]


def _texts(language: str) -> list[str]:
    out = [
        t for players, seed, how in SCENES for t in render_game(r, language, players, seed, **how)
    ]
    with using(language):
        for rounds in (None, 1, 3):
            out += r.option_lines({"target": 50, "round_limit": rounds})
        card = r.rules_embed()
        assert_embed_limits(card)
        out += embed_atoms(card)
    return out


@pytest.fixture(scope="module")
def shown() -> dict[str, list[str]]:
    """Every text of the scenes, per language (Discord's limits checked on the way)."""
    return {language: _texts(language) for language in LANGUAGES}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_of_the_game_in_french_or_italian(
    language: str, shown: dict[str, list[str]]
) -> None:
    leaks = english(GAME, language)
    assert leaks.chunks and leaks.words
    found = leaks.leaks(shown[language])
    assert not found, "\n".join(sorted(set(found))[:30])


VOCABULARY = {
    "fr": [
        "Donneur",
        "Talon",
        "atout",
        "pli",
        "Enchères",
        "preneur",
        "défenseur",
        "Se retirer",
        "annulé la donne",
        "sans atout",
        "Limite de donnes",
        "Fuori dal Tempo",
        "il Morto",
        "La Morte",
        "Il Bagatto",
        "Roi, Dame, Cavalier, Valet",
        "La Morte — comment jouer",
    ],
    "it": [
        "Mazziere",
        "Tallone",
        "briscola",
        "prese",
        "Asta",
        "dichiarante",
        "difensore",
        "Ritirati",
        "annullato la smazzata",
        "senza briscola",
        "smazzata",
        "Fuori dal Tempo",
        "il Morto",
        "La Morte",
        "Il Bagatto",
        "Re, Donna, Cavallo, Fante",
        "La Morte — come si gioca",
    ],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_games_own_words(language: str, shown: dict[str, list[str]]) -> None:
    text = "\n".join(shown[language])
    missing = [w for w in VOCABULARY[language] if w not in text]
    assert not missing, missing


def test_counted_words_follow_each_languages_plural_rule() -> None:
    with using("fr"):
        assert n_("{n} trick", "{n} tricks", 0) == "0 pli"  # French: 0 and 1 are singular
        assert n_("{n} trick", "{n} tricks", 2) == "2 plis"
        limit = r.option_lines({"round_limit": 3})[1]
        assert limit.replace("\u00a0", " ") == "Limite de donnes : **3**"
    with using("it"):
        assert n_("{n} trick", "{n} tricks", 0) == "0 prese"
        assert n_("{n} trick", "{n} tricks", 1) == "1 presa"
    with using("en"):
        assert r.option_lines({"round_limit": 1})[1] == "Round limit: **1** deal"


@pytest.mark.parametrize("language", LANGUAGES)
def test_long_names_and_suit_emojis_fit_discord_in_each_language(language: str) -> None:
    set_suit_marks(EMOJI_MARKS)
    try:
        for players in (3, 5):
            assert render_game(r, language, players, 7, "markdown")
    finally:
        set_suit_marks(None)


def test_buttons_and_card_names_are_words_of_the_language() -> None:
    with using("fr"):
        assert dict(r.BUTTON_LABELS) == {
            "bid": "Enchérir",
            "accept": "Accepter",
            "drop": "Se retirer",
            "muck": "Annuler la donne",
        }
        assert r.CARD_NAMES["T1"] == "Il Bagatto (le plus fort des trèfles)"
    with using("it"):
        assert r.BUTTON_LABELS["muck"] == "Annulla la smazzata"
        assert r.CARD_NAMES["T1"] == "Il Bagatto (la carta di fiori più alta)"
    assert r.CARD_LABELS["T13"] == "☠ La Morte" and r.BUTTON_LABELS["bid"] == "Bid"
