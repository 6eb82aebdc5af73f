"""The pictures in French and Italian (issue 19): every word a table or hand picture draws —
title, phase or trick, seat roles and calls, the side panel, captions, hints, the words on the
card faces — comes from the ``pictures`` catalogs in the current language, with each game's
own terms; no English of the catalogs is drawn; the pictures are cached per language; the
bundled DejaVu font draws every accented letter; the translated words fit their places.

The words are read from the scenes the renderers draw (``table_scene``, ``hand_scene``) and
from ``tiles.face_words``, over the golden situations of every game and seeded random deals
(every phase); a few pictures are rendered to check they change with the language. The
golden PNGs stay English (``tests/pictures``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest

from bot.engine.registry import get_rules, implemented
from bot.engine.views import PublicView, SeatView
from bot.i18n import using
from bot.i18n.extract import LOCALES, read
from bot.ui.pictures import render_hand, render_table, tiles
from bot.ui.pictures._style import clean, fit, has_glyph
from bot.ui.pictures.hand import HandScene, hand_scene
from bot.ui.pictures.layout import CENTRE_W, PLATE_W, WIDTH
from bot.ui.pictures.table import TableScene, details_shown, table_scene
from bot.ui.pictures.turn import turn_scene
from bot.ui.text.cards import rank_label
from tests.i18n.game_text import deals, english
from tests.pictures.scenes import SCENES

AREA = "pictures"
LANGUAGES = ("fr", "it")
GAMES = sorted(implemented())
NAMES = ("Alice", "Bartholomew", "Chiara", "Dmitri", "Eleonora", "Fiorenza")

#: (game, players, seed, preferred action types): every phase of every game.
DEALS: list[tuple[str, int, int, tuple[str, ...]]] = [
    ("la_morte", 4, 0, ()),
    ("la_morte", 4, 1, ("drop", "muck")),  # everyone drops: the dealer's option, a muck
    ("la_morte", 3, 2, ("bid", "accept")),
    ("early_french_tarot", 4, 0, ()),
    ("early_french_tarot", 3, 1, ()),
    ("french_tarot", 4, 0, ("garde",)),
    ("french_tarot", 5, 1, ("prise", "garde", "call")),  # a called King, a partner
    ("french_tarot", 3, 2, ("poignee", "chelem", "garde_sans")),
    ("losers_game", 4, 0, ()),
    ("losers_game", 3, 1, ()),
    ("queen_of_tarot", 3, 0, ("continue",)),  # discard, declarations, tricks
    ("queen_of_tarot", 3, 1, ("demand", "offer")),  # bargaining, settlements
]


def _table_words(scene: TableScene) -> list[str]:
    out = [*scene.centre, scene.caption]
    for seat in scene.seats:
        out += seat.details
        out += [part for note in seat.details for part in note.split(" + ")]
    out += [caption for caption, _cards in scene.cards]
    return [x for x in out if x]


def _ribbon_words(ribbon: tuple[tuple[str, str], ...]) -> list[str]:
    out = ["".join(text for text, _ink in ribbon)]
    out += [text for text, _ink in ribbon if text.strip(" ·")]
    return out


def _hand_words(scene: HandScene) -> list[str]:
    header = "".join(text for text, _ink in scene.header)
    out = [scene.title, header, *(t for t, _ink in scene.header), scene.hint, scene.empty]
    return [x for x in out if x]


def _views() -> Iterator[tuple[str, PublicView, list[SeatView]]]:
    for scene in SCENES:
        yield scene.game_id, scene.public, [scene.seat] if scene.seat else []
    for game, players, seed, prefer in DEALS:
        rules = get_rules(game)
        for m, _ended in deals(game, players, seed, prefer):
            assert m.deal is not None
            seats = [rules.observe(m.deal, s) for s in range(players)]
            yield game, rules.observe_public(m.deal), seats


def _words(language: str) -> list[str]:
    out: list[str] = []
    with using(language):
        for game, public, seats in _views():
            names = NAMES[: public.players]
            out += _table_words(table_scene(public, game_id=game, names=names))
            for seat in seats:
                out += _hand_words(hand_scene(seat, game_id=game))
                out += _ribbon_words(turn_scene(seat, game_id=game, names=names).ribbon)
            out += _hand_words(hand_scene(SeatView(0, (), (), public, {}), game_id=game))
        for game in GAMES:
            deck = tiles.style(game)
            for card in tiles.pack(game):
                out += tiles.face_words(deck, card)
    return out


@pytest.fixture(scope="module")
def drawn() -> dict[str, list[str]]:
    """Every word the pictures draw, per language."""
    return {language: _words(language) for language in (*LANGUAGES, "en")}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_of_the_pictures_in_french_or_italian(
    language: str, drawn: dict[str, list[str]]
) -> None:
    leaks = english(AREA, language)
    assert leaks.chunks and leaks.words
    found = leaks.leaks(drawn[language])
    assert not found, "\n".join(sorted(set(found))[:30])


def test_the_english_pictures_draw_the_english_words(drawn: dict[str, list[str]]) -> None:
    words = set(drawn["en"])
    for word in ("Auction", "Bargaining", "Your hand", "playable", "led", "Won by Alice", "Angel"):
        assert word in words, word


VOCABULARY = {
    "fr": [
        "Enchères",  # La Morte's auction, French Tarot's bidding
        "Marchandage",
        "Tour 1 sur 3",
        "Écart",
        "Annonces",
        "Pli 1 sur",
        "Pli pour Alice",
        "preneur",
        "partenaire",
        "défenseur",
        "donneur",
        "premier en main",
        "second en main",
        "Chien",
        "Carte appelée",
        "Garde",
        "Atout ",
        "atout ",
        "Atouts I–XXI",
        "le Fou excuse",
        "XX (l’Ange) bat XXI",
        "entame",
        "Votre main",
        "jouables",
        "écartables",
        "cartes mises de côté",
        "Talon",
        "Plus aucune carte",
        "Ange",
        "Mat",
        "Fou",
        "Monde",
        "Bateleur",
        "Excuse",
        "Petit",
        "Bagatto",
    ],
    "it": [
        "Asta",
        "Trattativa",
        "Giro 1 di 3",
        "Scarto",
        "Dichiarazioni",
        "Presa 1 di",
        "Presa di Alice",
        "dichiarante",
        "compagno",
        "difensore",
        "mazziere",
        "primo di mano",
        "secondo di mano",
        "Chien",
        "Carta chiamata",
        "Garde",
        "Briscola ",
        "briscola ",
        "Trionfi I–XXI",
        "il Matto fa da scusa",
        "XX (l’Angelo) batte XXI",
        "uscita",
        "La tua mano",
        "giocabili",
        "scartabili",
        "carte messe da parte",
        "Tallone",
        "Nessuna carta rimasta",
        "Angelo",
        "Matto",
        "Mondo",
        "Scusa",
        "Petit",
        "Bagatto",
    ],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_games_own_words(language: str, drawn: dict[str, list[str]]) -> None:
    text = "\n".join(drawn[language])
    missing = [w for w in VOCABULARY[language] if w not in text]
    assert not missing, missing


@pytest.mark.parametrize("language", ("en", *LANGUAGES))
@pytest.mark.parametrize("game", ["la_morte", "early_french_tarot", "queen_of_tarot"])
def test_named_cards_follow_the_game_text_in_each_language(game: str, language: str) -> None:
    labels = getattr(importlib.import_module(f"bot.ui.games.{game}"), "CARD_LABELS", {})
    with using(language):
        names = tiles.style(game).names
        for card in labels:
            assert names[card] in labels[card], (card, names[card], labels[card])


@pytest.mark.parametrize("language", ("en", *LANGUAGES))
def test_court_letters_follow_the_text_labels(language: str) -> None:
    deck = tiles.style("queen_of_tarot")
    with using(language):
        for rank in ("K", "Q", "C", "J", "1"):
            assert tiles.face_words(deck, f"S{rank}") == (rank_label(rank),)


def test_pictures_change_with_the_language_and_are_cached_per_language() -> None:
    scene = next(s for s in SCENES if s.game_id == "queen_of_tarot" and s.seat is not None)
    assert scene.seat is not None
    shown: dict[str, tuple[bytes, bytes]] = {}
    for language in ("en", *LANGUAGES, "en"):
        with using(language):
            table = render_table(scene.public, game_id=scene.game_id, names=scene.names)
            hand = render_hand(scene.seat, game_id=scene.game_id)
            again = render_table(scene.public, game_id=scene.game_id, names=scene.names)
            assert again is table  # rendered once per language
            key = table_scene(scene.public, game_id=scene.game_id, names=scene.names)
            assert key.language == language
        if language in shown:
            assert shown[language][0] is table and shown[language][1] is hand
        shown[language] = (table, hand)
    english_table, english_hand = shown["en"]
    for language in LANGUAGES:
        assert shown[language][0] != english_table
        assert shown[language][1] != english_hand
    assert shown["fr"][0] != shown["it"][0]


def test_only_the_faces_whose_words_differ_are_drawn_again() -> None:
    fr = tiles.deck_tiles("queen_of_tarot", "fr").normal
    it = tiles.deck_tiles("queen_of_tarot", "it").normal
    en = tiles.deck_tiles("queen_of_tarot", "en").normal
    assert fr["S7"] is en["S7"] is it["S7"]  # a pip: no words
    assert fr["T20"] is not en["T20"] and it["T20"] is not en["T20"]  # the Angel's name
    assert fr["EX"] is not it["EX"]  # Mat, Matto


def _translations(language: str) -> Iterator[str]:
    for area in (AREA, "queen_of_tarot"):
        for message in read(LOCALES / language / f"{area}.po", language):
            strings = (
                message.string if isinstance(message.string, tuple | list) else (message.string,)
            )
            yield from (str(s) for s in strings if s)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bundled_font_draws_every_letter_of_the_translations(language: str) -> None:
    letters = {ch for text in _translations(language) for ch in text if not ch.isspace()}
    assert {"é", "è", "à"} <= letters if language == "fr" else {"è", "à"} <= letters
    missing = sorted(ch for ch in letters if ord(ch) < 0x1F000 and not has_glyph(ch))
    assert not missing, missing
    for word in ("Écart", "Reine du Tarot — donne", "più alta", "Mat : déjà"):
        assert clean(word) == word  # nothing dropped as undrawable


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_translated_words_fit_their_places(language: str) -> None:
    """Phase names in the table's centre, hints on a hand, the tricks badge and the led
    caption are drawn whole (shrunk at most), never cut."""
    with using(language):
        scenes = [
            table_scene(public, game_id=game, names=NAMES[: public.players])
            for game, public, _seats in _views()
        ]
        hands = [
            hand_scene(seat, game_id=game) for game, _public, seats in _views() for seat in seats
        ]
    for scene in scenes:
        if scene.centre:
            assert fit(scene.centre[0], 32, True, WIDTH - 48)[0] == scene.centre[0]
        if scene.led:
            assert fit(scene.caption, 18, False, 120)[0] == scene.caption
        elif scene.caption:  # "Won by …" with the longest name of the table
            assert fit(scene.caption, 24, True, CENTRE_W - 24, smallest=16)[0] == scene.caption
        for seat in scene.seats:  # the latest call or first role under a name, whole
            room = PLATE_W - 24 - 48  # beside a two-digit tricks badge
            shown = details_shown(seat.details, room)
            assert shown == " · ".join(seat.details[: len(shown.split(" · "))]), seat.details
            if seat.details:
                assert fit(shown, 20, False, room)[0] == shown, seat.details
    for hand in hands:
        if hand.hint:
            assert fit(f"▲ {hand.hint}", 17, True, 240)[0] == f"▲ {hand.hint}"


def _catalog(area: str, language: str) -> dict[tuple[str | None, str], object]:
    out: dict[tuple[str | None, str], object] = {}
    for m in read(LOCALES / language / f"{area}.po", language):
        if m.id and m.string:
            out[(m.context, str(m.id if isinstance(m.id, str) else m.id[0]))] = m.string
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_other_catalog_translates_the_same_message_differently(language: str) -> None:
    """Every area's catalog shares one table per language (``bot.i18n``): a message the
    pictures share with another area (a Queen of Tarot bonus, "{n} cards") reads the same
    there, or one would replace the other."""
    mine = _catalog(AREA, language)
    clashes: list[str] = []
    for po in sorted((LOCALES / language).glob("*.po")):
        if po.stem == AREA:
            continue
        for key, text in _catalog(po.stem, language).items():
            if key in mine and mine[key] != text and all(text):  # type: ignore[arg-type]
                clashes.append(f"{po.stem}: {key!r}: {text!r} ≠ {mine[key]!r}")
    assert not clashes, "\n".join(clashes)
