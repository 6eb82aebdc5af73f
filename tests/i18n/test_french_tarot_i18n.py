"""French Tarot in French and Italian (issue 19): every message of the game rendered over seeded
random deals in each language — table, turn line, hands (quiet, deciding, game over), bid,
call, chelem and card controls, the discard and poignée choices, score sheets (a played deal,
a chelem with Petit au bout and poignées, a thrown-in deal, a petit sec), options,
confirmations and the rules card — shows no English of the ``french_tarot`` catalogs, speaks
the FFT's own words in French (Prise, Garde, Garde sans/contre le chien, chien, écart,
preneur, poignée, chelem, Petit au bout) and the Italian players' ones in Italian, and fits
Discord's limits.

Pure rendering (no Discord, no database), as ``TableCore`` hands states to the renderers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest

from bot.engine import match
from bot.engine.games.french_tarot_cards import PARAMS
from bot.engine.registry import get_rules
from bot.engine.views import DealResult
from bot.i18n import n_, using
from bot.services.models import EndedDeal
from bot.ui.games import french_tarot as ft
from bot.ui.text.cards import set_suit_marks
from tests.i18n.game_text import deals, embed_atoms, english, render_game, view_atoms
from tests.ui.test_limits import EMOJI_MARKS, assert_embed_limits, table

GAME = "french_tarot"
LANGUAGES = ("fr", "it")


def _renderer() -> ModuleType:
    """The renderer as ``render_game`` reads it (French Tarot names no card its own way)."""
    shim = ModuleType(ft.__name__)
    shim.__dict__.update(vars(ft))
    shim.CARD_LABELS = {}  # type: ignore[attr-defined]
    return shim


def _trump_rich(players: int) -> Callable[[list[str]], None]:
    """The first seat dealt (the dealer's right, who leads trick 1) gets trumps 1 up to the
    double poignée's length: a poignée to show (§5.3), and no petit sec anywhere else."""
    p = PARAMS[players]

    def first_seat() -> Iterator[int]:
        at = 0
        for r in range(p.cards // p.packet):
            yield from range(at, at + p.packet)
            at += p.packet * players + (1 if r < p.dog else 0)

    def arrange(deck: list[str]) -> None:
        trumps = [f"T{n}" for n in range(1, p.poignees[1] + 1)]
        for place, card in zip(first_seat(), trumps, strict=False):
            i = deck.index(card)
            deck[place], deck[i] = deck[i], deck[place]

    return arrange


SCENES: list[tuple[int, int, dict[str, Any]]] = [
    *((players, seed, {}) for players in (3, 4, 5) for seed in range(2)),
    *(
        (players, 7, {"arrange": _trump_rich(players), "prefer": ("poignee",)})
        for players in (3, 5)
    ),
    (4, 3, {"arrange": _trump_rich(4), "prefer": ("poignee", "chelem")}),
    (5, 4, {"options": {"chelem": False, "deals": 3}}),
]


def _played_detail(players: int, seed: int) -> tuple[dict[str, Any], Any]:
    """A played deal's score detail and final public view (the first of the seed's deals)."""
    rules = get_rules(GAME)
    for m, ended in deals(GAME, players, seed):
        if ended and m.results[-1].outcome == "played":
            assert m.deal is not None
            return dict(m.results[-1].detail), rules.observe_public(m.deal)
    raise AssertionError("no played deal")


def _sheets(players: int, seed: int, style: str = "plain") -> list[Any]:
    """Score sheets of every kind: a chelem announced and made with Petit au bout and two
    poignées, its failed twin, an unannounced chelem, a thrown-in deal and a petit sec."""
    detail, public = _played_detail(players, seed)
    t = table(GAME, players, style)
    totals = tuple(range(players))
    taker = detail["taker"]
    shown = [
        {"level": "double", "seat": taker, "bonus": 30},
        {"level": "triple", "seat": (taker + 1) % players, "bonus": 40},
    ]
    big = {
        **detail,
        "made": True,
        "petit_au_bout": 20,
        "poignees": shown,
        "poignee_total": 70,
        "chelem": 400,
        "chelem_announced": True,
        "chelem_made": True,
    }
    failed = {**big, "made": False, "petit_au_bout": -20, "chelem": -200, "chelem_made": False}
    unannounced = {**big, "chelem": 200, "chelem_announced": False}
    zero = (0,) * players
    results = [
        DealResult("played", zero, big),
        DealResult("played", zero, failed),
        DealResult("played", zero, unannounced),
        DealResult("thrown_in", zero, {}),
        DealResult("redeal", zero, {}),
    ]
    return [ft.deal_summary_embed(t, EndedDeal(1, res, public), totals) for res in results]


CONFIRMED = [
    *({"type": "bid", "contract": c} for c in ("pass", "prise", "garde", "garde_sans")),
    {"type": "bid", "contract": "garde_contre"},
    {"type": "call", "card": "HK"},
    {"type": "discard", "cards": ["S2", "S3", "T5"]},
    {"type": "chelem", "announce": True},
    {"type": "chelem", "announce": False},
    {"type": "poignee", "cards": [f"T{n}" for n in range(1, 9)]},
]


def _texts(language: str) -> list[str]:
    r = _renderer()
    out = [
        t for players, seed, how in SCENES for t in render_game(r, language, players, seed, **how)
    ]
    with using(language):
        for options in ({}, {"deals": 4, "chelem": False}, {"deals": None, "chelem": True}):
            out += ft.option_lines(options)
        out += [ft.confirmation(p) or "" for p in CONFIRMED]
        for sheet in (*_sheets(5, 0), *_sheets(4, 1)):
            assert_embed_limits(sheet)
            out += embed_atoms(sheet)
        card = ft.rules_embed()
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
        "Tarot français",
        "Donneur",
        "donne",
        "pli",
        "Enchères · ",
        "Passe",
        "Prise",
        "Garde",
        "Garde sans le chien",
        "Garde contre le chien",
        "preneur",
        "partenaire",
        "Carte appelée",
        "appelle un Roi",
        "Chien\u00a0: ",
        "Votre écart",
        "Écartez",
        "Atouts (",
        "bouts",
        "l’Excuse",
        "le Petit",
        "Petit au bout pour l’attaque",
        "Petit au bout pour la défense",
        "Double poignée",
        "Triple poignée",
        "montrer une poignée",
        "Annoncer un chelem",
        "Chelem annoncé et réussi",
        "chuté de",
        "fait de",
        "par défenseur",
        "**Petit sec**",
        "la donne est annulée",
        "Annonce de chelem\u00a0: **non**",
        "Donnes\u00a0: **2 par joueur**",
        "règles FFT",
        "surcoupez",
    ],
    "it": [
        "Tarocco francese",
        "Mazziere",
        "smazzata",
        "prese",
        "Asta · ",
        "Passo",
        "Prise",
        "Garde",
        "Garde sans le chien",
        "Garde contre le chien",
        "dichiarante",
        "compagno",
        "Carta chiamata",
        "chiama un Re",
        "Chien: ",
        "Il tuo scarto",
        "Scarta",
        "Trionfi (",
        "bout",
        "la Scusa",
        "il Petit",
        "Petit au bout dell’attacco",
        "Petit au bout della difesa",
        "Poignée doppia",
        "Poignée tripla",
        "mostrare una poignée",
        "Annuncia il cappotto",
        "Cappotto annunciato e riuscito",
        "sotto di",
        "sopra di",
        "per difensore",
        "**Petit sec**",
        "la smazzata va a monte",
        "Annuncio del cappotto: **no**",
        "Smazzate: **2 per giocatore**",
        "regole FFT",
        "sovrataglia",
    ],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_ffts_words(language: str, shown: dict[str, list[str]]) -> None:
    text = "\n".join(shown[language])
    missing = [w for w in VOCABULARY[language] if w not in text]
    assert not missing, missing


def test_contracts_and_poignees_in_each_language() -> None:
    with using("fr"):
        assert dict(ft.CONTRACT) == {
            "pass": "Passe",
            "prise": "Prise",
            "garde": "Garde",
            "garde_sans": "Garde sans le chien",
            "garde_contre": "Garde contre le chien",
        }
        assert ft.POIGNEE_NAME["simple"] == "Simple poignée"
        assert n_("{n} trick", "{n} tricks", 0) == "0 pli"
    with using("it"):
        assert [ft.CONTRACT[c] for c in ("prise", "garde_sans", "garde_contre")] == [
            "Prise",
            "Garde sans le chien",
            "Garde contre le chien",
        ]
        assert ft.POIGNEE_NAME["triple"] == "Poignée tripla"
    assert ft.CONTRACT["garde_sans"] == "Garde sans le chien"  # English: the FFT's names too


def test_half_points_in_each_languages_notation() -> None:
    detail, _public = _played_detail(3, 0)
    odd = {**detail, "points_hp": 97, "target_hp": 102, "made": False, "difference": 3}
    with using("en"):
        assert "**48.5** points (needed 51)" in "\n".join(ft._sheet(table(GAME, 3, "plain"), odd))
    with using("fr"):
        assert "**48,5** points (il en fallait 51)" in "\n".join(
            ft._sheet(table(GAME, 3, "plain"), odd)
        )


@pytest.mark.parametrize("language", LANGUAGES)
def test_five_long_names_and_suit_emojis_fit_discord_in_each_language(language: str) -> None:
    set_suit_marks(EMOJI_MARKS)
    try:
        r = _renderer()
        how: dict[str, Any] = {"arrange": _trump_rich(5), "prefer": ("poignee",)}
        assert render_game(r, language, 5, 7, "markdown", **how)
        with using(language):
            for sheet in _sheets(5, 0, "markdown"):
                assert_embed_limits(sheet)
    finally:
        set_suit_marks(None)


def test_every_contract_is_offered_in_french_buttons() -> None:
    rules = get_rules(GAME)
    m = match.start_deal(match.new_match(GAME, 4, None, 0), tuple(rules.pack(4)))
    assert m.deal is not None
    seat = match.to_act(m)
    assert seat is not None
    view = rules.observe(m.deal, seat)
    with using("fr"):
        ui = ft.decision_view(1, view)
        assert ui is not None
        labels = view_atoms(ui)
    assert labels[:5] == [  # with their multipliers, as the slash command's choices
        "Passe",
        "Prise ×1",
        "Garde ×2",
        "Garde sans le chien ×4",
        "Garde contre le chien ×6",
    ]
