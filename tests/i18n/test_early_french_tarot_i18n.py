"""Early 17th-century French Tarot in French and Italian (issue 19): every message of the game
rendered over seeded random hands in each language — table, turn line, hands (quiet, deciding,
game over), the per-suit play menus, score sheets, options, both rules cards — shows no English
of the ``early_french_tarot`` catalogs, uses the period names of the cards (le Fou, le Monde,
le Bateleur; il Matto, il Mondo, il Bagatto) and fits Discord's limits.

Pure rendering (no Discord, no database), as ``TableCore`` hands states to the renderers.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import n_, using
from bot.ui.games import early_french_tarot as r
from bot.ui.text.cards import set_suit_marks
from tests.i18n.game_text import embed_atoms, english, render_game
from tests.ui.test_limits import EMOJI_MARKS, assert_embed_limits, assert_message_limits

GAME = "early_french_tarot"
LANGUAGES = ("fr", "it")


def _fool_first(deck: list[str]) -> None:
    """The Fool to the first seat dealt (the dealer's left, who leads): played early, before
    its player has won a card, it is owed (D-10)."""
    i = deck.index("EX")
    deck[0], deck[i] = deck[i], deck[0]


SCENES: list[tuple[int, int, dict[str, Any]]] = [
    *((players, seed, {}) for players in (2, 4, 6) for seed in range(2)),
    (3, 0, {"arrange": _fool_first}),
    (5, 1, {"arrange": _fool_first, "options": {"every_card_scores": True}}),
]


def _texts(language: str) -> list[str]:
    out = [
        t for players, seed, how in SCENES for t in render_game(r, language, players, seed, **how)
    ]
    with using(language):
        for every in (False, True):
            out += r.option_lines({"target": 50, "every_card_scores": every})
        short = r.rules_embed()
        assert_embed_limits(short)
        full = r.rules_full_embeds()
        assert_message_limits({"embeds": full})
        out += embed_atoms(short) + [t for e in full for t in embed_atoms(e)]
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
        "Tarot français du début du XVIIe siècle",
        "Donneur",
        "donne",
        "pli",
        "Atouts (",
        "Fou",
        "l’Excuse",
        "Monde",
        "Bateleur",
        "honneurs",
        "Roi 4, Dame 3, Cavalier 2, Valet 1",
        "doit une carte à",
        "feuille de marque",
        "Partie en **50** points",
        "Décompte",
        "pour les règles complètes",
    ],
    "it": [
        "Tarocco francese del primo Seicento",
        "Mazziere",
        "mano",
        "presa",
        "Trionfi (",
        "Matto",
        "la Scusa",
        "Mondo",
        "Bagatto",
        "onori",
        "Re 4, Donna 3, Cavallo 2, Fante 1",
        "deve una carta a",
        "punteggi della mano",
        "Partita a **50** punti",
        "Punteggio",
        "per il regolamento completo",
    ],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_period_names_of_the_cards(language: str, shown: dict[str, list[str]]) -> None:
    text = "\n".join(shown[language])
    missing = [w for w in VOCABULARY[language] if w not in text]
    assert not missing, missing


def test_counted_words_follow_each_languages_plural_rule() -> None:
    with using("fr"):
        assert n_("{n} card", "{n} cards", 0) == "0 carte"
        assert n_("**{n}** card", "**{n}** cards", 13) == "**13** cartes"
    with using("it"):
        assert n_("{n} card", "{n} cards", 0) == "0 carte"
        assert n_("{n} card", "{n} cards", 1) == "1 carta"
        assert n_("{n} trick", "{n} tricks", 2) == "2 prese"


@pytest.mark.parametrize("language", LANGUAGES)
def test_six_long_names_and_suit_emojis_fit_discord_in_each_language(language: str) -> None:
    set_suit_marks(EMOJI_MARKS)
    try:
        for players in (2, 6):
            assert render_game(r, language, players, 7, "markdown")
    finally:
        set_suit_marks(None)


def test_card_words_of_each_language() -> None:
    with using("fr"):
        assert dict(r.CARD_LABELS) == {"EX": "🃏 Fou", "T21": "T21 Monde", "T1": "T1 Bateleur"}
        assert r.CARD_NAMES["EX"] == "le Fou (l’Excuse)"
    with using("it"):
        assert dict(r.CARD_LABELS) == {"EX": "🃏 Matto", "T21": "T21 Mondo", "T1": "T1 Bagatto"}
        assert r.CARD_NAMES["T1"] == "il Bagatto (trionfo I)"
    assert r.CARD_LABELS["EX"] == "🃏 Fool"  # the card codes players type stay EX, T21, T1
