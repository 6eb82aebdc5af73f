"""Queen of Tarot in French and Italian (issue 19): every message of the game rendered over
seeded random deals in each language — table with the bargaining console, turn line, hands
(quiet, deciding, game over), bargaining, discard and declaration controls, score sheets of
settled and played hands, confirmations, options, rules short and full — shows no English of
the ``queen_of_tarot`` catalogs, uses the Piedmontese tarocchi vocabulary (Matto, Angelo,
primo di mano, mazziere, trattativa…) and its French equivalents, and fits Discord's limits.

Pure rendering (no Discord, no database), as ``TableCore`` hands states to the renderers.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import using
from bot.i18n.extract import LOCALES, read
from bot.ui.games import queen_of_tarot as r
from bot.ui.text.cards import set_suit_marks
from tests.i18n.game_text import embed_atoms, english, render_game
from tests.ui.test_limits import EMOJI_MARKS, assert_embed_limits, assert_message_limits

GAME = "queen_of_tarot"
LANGUAGES = ("fr", "it")

SCENES: list[tuple[int, dict[str, Any]]] = [
    (0, {}),
    # hands settled in bargaining (amounts of 1 or 2: demands soon equal offers)
    (1, {"prefer": ("demand", "offer"), "options": {"max_bargain": 2}}),
    (2, {"prefer": ("continue",)}),  # every hand played out: discard, declarations, tricks
    (3, {"prefer": ("pass", "demand")}),  # demands stand, passes in a row
    (4, {"prefer": ("offer",), "options": {"max_bargain": 5, "deals": 3}}),
]

PAYLOADS: list[dict[str, Any]] = [
    {"type": "pass"},
    {"type": "continue"},
    {"type": "demand", "amount": 1},
    {"type": "demand", "amount": 7},
    {"type": "offer", "amount": 1},
    {"type": "offer", "amount": 12},
    {"type": "demand", "amount": "?"},
    {"type": "offer", "amount": "?"},
    {"type": "discard", "cards": ["S2", "H3", "T4"]},
    {"type": "declare", "bonuses": ["abundance", "mitigati"]},
    {"type": "declare", "bonuses": ["kings", "mixed_honours"]},
    {"type": "declare", "bonuses": []},
]


def _texts(language: str) -> list[str]:
    out = [t for seed, how in SCENES for t in render_game(r, language, 3, seed, **how)]
    with using(language):
        for options in ({}, {"deals": 9, "max_bargain": 20}):
            out += r.option_lines(options)
        for payload in PAYLOADS:
            reply = r.confirmation(payload)
            assert reply is not None
            assert_message_limits({"content": reply})
            out.append(reply)
        card = r.rules_embed()
        assert_embed_limits(card)
        out += embed_atoms(card)
        for page in r.rules_full_embeds():
            assert_embed_limits(page)
            out += embed_atoms(page)
        out += list(r.CARD_LABELS.values()) + list(r.CARD_NAMES.values())
        out += list(r.SUIT_WORDS.values())
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
        "Reine du Tarot",
        "Marchandage — tour 1 sur 3",
        "Premier en main",
        "Second en main",
        "Donneur",
        "premier en main",
        "demande",
        "offre",
        "Demandé",
        "passes de suite",
        "Réglé au tour de marchandage",
        "paie",
        "reçoit",
        "Écartez 3 cartes",
        "Votre écart",
        "annonce",
        "par rapport à 43",
        "T20 Ange",
        "🃏 Mat",
        "le Mat",
        "Bagatto",
        "Abondance",
        "Honneurs mêlés",
        "Atouts (",
        "Plis remportés",
        "pli",
        "donne",
        "Passer",
        "Continuer",
        "Demander 1",
        "Offrir 1",
        "à Coupes et à Deniers",
        "Distribution et marchandage",
        "Écart et annonces",
        "Jeu et décompte",
        "Reine du Tarot — ",
    ],
    "it": [
        "Regina dei Tarocchi",
        "Trattativa — giro 1 di 3",
        "Primo di mano",
        "Secondo di mano",
        "Mazziere",
        "primo di mano",
        "chiede",
        "offre",
        "Chiesto",
        "passi di fila",
        "Accordo nel giro di trattativa",
        "paga",
        "riceve",
        "Scarta 3 carte",
        "Il tuo scarto",
        "dichiara",
        "rispetto a 43",
        "T20 Angelo",
        "🃏 Matto",
        "il Matto",
        "Bagatto",
        "Abbondanza",
        "Onori misti",
        "Trionfi (",
        "Prese fatte",
        "presa",
        "mano",
        "Passo",
        "Continua",
        "Chiedi 1",
        "Offri 1",
        "a Coppe e a Denari",
        "cartina",
        "Distribuzione e trattativa",
        "Scarto e dichiarazioni",
        "Gioco e punteggio",
        "Regina dei Tarocchi — ",
    ],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_games_own_words(language: str, shown: dict[str, list[str]]) -> None:
    text = "\n".join(shown[language])
    missing = [w for w in VOCABULARY[language] if w not in text]
    assert not missing, missing


def test_counted_words_follow_each_languages_plural_rule() -> None:
    with using("fr"):  # French counts 0 and 1 as one
        assert r.confirmation({"type": "demand", "amount": 1}) == (
            "Vous demandez **1** point de partie."
        )
        assert r.confirmation({"type": "offer", "amount": 2}) == (
            "Vous offrez **2** points de partie."
        )
    with using("it"):
        assert r.confirmation({"type": "demand", "amount": 1}) == "Chiedi **1** punto partita."
        assert r.confirmation({"type": "offer", "amount": 3}) == "Offri **3** punti partita."
    with using("en"):
        assert r.confirmation({"type": "demand", "amount": 1}) == "You demand **1** game point."
        assert r.confirmation({"type": "offer", "amount": 2}) == "You offer **2** game points."


def test_the_suits_keep_their_italian_names() -> None:
    with using("it"):
        assert [r.SUIT_WORDS[s] for s in "SHDCT"] == [
            "Spade",
            "Coppe",
            "Denari",
            "Bastoni",
            "Trionfi",
        ]
    with using("fr"):
        assert [r.SUIT_WORDS[s] for s in "SHDCT"] == [
            "Épées",
            "Coupes",
            "Deniers",
            "Bâtons",
            "Atouts",
        ]
    # English names the Italian suits too, as the cards show them (issue 31).
    assert [r.SUIT_WORDS[s] for s in "SHDCT"] == ["Swords", "Cups", "Coins", "Batons", "Trumps"]


def test_english_stays_the_source() -> None:
    assert r.CARD_LABELS["EX"] == "🃏 Fool" and r.BONUS_WORDS["mixed_honours"] == "Mixed Honours"
    assert r.option_lines({}) == [
        "Hands: **6** (then the highest total wins)",
        "Bargaining amounts: 1–**43** game points",
    ]
    assert r.confirmation({"type": "continue"}) == (
        "You called **Continue**: the bargaining session ends and the hand goes on."
    )
    assert "Use `/tarocchi rules full:True` for the complete rules." in (
        r.rules_embed().description or ""
    )


def test_the_full_rules_pointer_names_the_command_in_each_language() -> None:
    with using("fr"):
        assert "`/tarocchi regles complet:True`" in (r.rules_embed().description or "")
    with using("it"):
        text = r.rules_embed().description or ""
        assert "`/tarocchi " in text and ":True`" in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_long_names_and_suit_emojis_fit_discord_in_each_language(language: str) -> None:
    set_suit_marks(EMOJI_MARKS)
    try:
        assert render_game(r, language, 3, 7, "markdown", prefer=("continue",))
        how: dict[str, Any] = {"prefer": ("demand", "offer"), "options": {"max_bargain": 2}}
        assert render_game(r, language, 3, 8, "markdown", **how)
    finally:
        set_suit_marks(None)


def _catalog(area: str, language: str) -> dict[tuple[str | None, str], object]:
    book = read(LOCALES / language / f"{area}.po", language)
    out: dict[tuple[str | None, str], object] = {}
    for m in book:
        if m.id and m.string:
            key = m.id if isinstance(m.id, str) else m.id[0]
            out[(m.context, str(key))] = m.string
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_other_catalog_translates_the_same_message_differently(language: str) -> None:
    """The catalogs of every area share one table per language (``bot.i18n``): a message of
    this game that another area also has must read the same there, or one would replace the
    other (words this game says its own way carry a ``queen_of_tarot`` context)."""
    mine = _catalog(GAME, language)
    clashes: list[str] = []
    for po in sorted((LOCALES / language).glob("*.po")):
        if po.stem == GAME:
            continue
        for key, text in _catalog(po.stem, language).items():
            if key in mine and text and mine[key] != text and all(text):  # type: ignore[arg-type]
                clashes.append(f"{po.stem}: {key!r}: {text!r} ≠ {mine[key]!r}")
    assert not clashes, "\n".join(clashes)
