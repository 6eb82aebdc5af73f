"""Loser's Game in French and Italian (issue 19): every message of the game rendered over seeded
random hands in each language — table, turn line, hands (quiet, deciding, game over), trump
buttons, bid menus, card menus, score sheets, options, confirmations, both rules cards — shows
no English of the ``losers_game`` catalogs, speaks each language's card-table words (atout,
brelan, carré, annonce; briscola, tris, poker, dichiarazione) and fits Discord's limits.

Pure rendering (no Discord, no database), as ``TableCore`` hands states to the renderers.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from bot.i18n import _, n_, using
from bot.ui.games import losers_game as lg
from bot.ui.text.cards import set_suit_marks
from bot.ui.text.mention import typed
from tests.i18n.game_text import embed_atoms, english, render_game
from tests.ui.test_limits import EMOJI_MARKS, assert_embed_limits, assert_message_limits

GAME = "losers_game"
LANGUAGES = ("fr", "it")


def _renderer() -> ModuleType:
    """The renderer as ``render_game`` reads it (Loser's Game names no card its own way)."""
    shim = ModuleType(lg.__name__)
    shim.__dict__.update(vars(lg))
    shim.CARD_LABELS = {}  # type: ignore[attr-defined]
    return shim


def _sets_for_the_first_seat(deck: list[str]) -> None:
    """Four Aces and three Kings to the dealer's left (the first seat dealt), so that a score
    sheet shows sets of both sizes often."""
    for place, card in zip(
        range(0, 28, 4), ("SA", "HA", "DA", "CA", "SK", "HK", "DK"), strict=True
    ):
        i = deck.index(card)
        deck[place], deck[i] = deck[i], deck[place]


SCENES: list[tuple[int, int, dict[str, Any]]] = [
    *((players, seed, {}) for players in (2, 3, 4, 5, 6) for seed in range(2)),
    (4, 5, {"arrange": _sets_for_the_first_seat, "options": {"hand_limit": 2}}),
    (3, 6, {"arrange": _sets_for_the_first_seat}),
]


def _texts(language: str) -> list[str]:
    r = _renderer()
    out = [
        t for players, seed, how in SCENES for t in render_game(r, language, players, seed, **how)
    ]
    with using(language):
        # The score sheet's "Last trick — taken by …" is the shared renderers' (``core``).
        shared = _("Last trick — taken by {name}", name="")
        out = [t for t in out if not t.startswith(shared)]
        for limit in (None, 1, 3):
            out += lg.option_lines({"target": 50, "hand_limit": limit})
        out += [lg.confirmation({"type": "trump", "suit": s}) or "" for s in "SHDC"]
        short = lg.rules_embed()
        assert_embed_limits(short)
        full = lg.rules_full_embeds()
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
        "Jeu du perdant",
        "Donneur",
        "cartes chacun",
        "donne",
        "pli",
        "Atout **",
        "(atout)",
        "choisit l’atout",
        "À vous d’annoncer",
        "Annoncer 0 (sans risque)",
        "annonce **",
        "pas encore d’annonce",
        "brelan de",
        "carré de",
        "réussie",
        "ratée",
        "feuille de marque",
        "Limite de donnes\u00a0: aucune",
        "Limite de donnes\u00a0: **3**",
        "Partie en **50** points",
        "Vous avez choisi",
        "en main",
        "L’atout et les annonces",
        "pour les règles complètes",
        "/perdant",
    ],
    "it": [
        "Gioco del perdente",
        "Mazziere",
        "carte a testa",
        "mano",
        "prese",
        "Briscola **",
        "(briscola)",
        "sta scegliendo la briscola",
        "Tocca a te dichiarare",
        "Dichiara 0 (sicuro)",
        "dichiarazione **",
        "nessuna dichiarazione",
        "tris di",
        "poker di",
        "riuscita",
        "mancata",
        "punteggi della mano",
        "Limite di mani: nessuno",
        "Limite di mani: **3**",
        "Partita a **50** punti",
        "Hai scelto",
        "in mano",
        "Briscola e dichiarazioni",
        "per il regolamento completo",
        "/perdente",
    ],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_card_table_words(language: str, shown: dict[str, list[str]]) -> None:
    text = "\n".join(shown[language])
    missing = [w for w in VOCABULARY[language] if w not in text]
    assert not missing, missing


def test_counted_words_follow_each_languages_plural_rule() -> None:
    with using("fr"):
        assert n_("**{n}** point", "**{n}** points", 0) == "**0** point"
        assert n_("{n} trick", "{n} tricks", 1) == "1 pli"
    with using("it"):
        assert n_("**{n}** point", "**{n}** points", 0) == "**0** punti"
        assert n_("{n} trick", "{n} tricks", 1) == "1 presa"


def test_the_bid_command_is_named_as_each_language_shows_it() -> None:
    """Before any sync the bid prompt types the command as each language's slash menu shows
    it (after one it is a mention: ``tests/e2e/test_mentions_e2e.py``)."""
    assert typed("losers bid") == "`/losers bid`"
    with using("fr"):
        assert typed("losers bid").startswith("`/perdant ")


@pytest.mark.parametrize("language", LANGUAGES)
def test_six_long_names_and_suit_emojis_fit_discord_in_each_language(language: str) -> None:
    set_suit_marks(EMOJI_MARKS)
    try:
        for players in (2, 6):
            assert render_game(_renderer(), language, players, 7, "markdown")
    finally:
        set_suit_marks(None)
