"""La Morte in French and Italian (issue 19): every message of the game rendered over seeded
random deals in each language — table, turn line, hands (quiet and deciding), controls, deal
summaries, options, rules — shows no English of the ``la_morte`` catalogs, uses the game's
vocabulary (its Italian names kept in every language) and fits Discord's limits.

Pure rendering (no Discord, no database), as ``TableCore`` hands states to the renderers.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.engine import match
from bot.engine.deck import shuffle
from bot.engine.match import MatchState
from bot.engine.registry import get_rules
from bot.engine.views import PublicView, SeatView
from bot.i18n import _, n_, using
from bot.services.models import EndedDeal, Outcome, TableInfo
from bot.ui import la_morte as r
from bot.ui.cards import set_suit_marks
from bot.ui.choice import restriction_line
from bot.ui.render import (
    WAITING_NOTE,
    add_last_trick,
    last_trick_text,
    standings,
    trick_text,
)
from tests.i18n.game_text import embed_atoms, english, view_atoms
from tests.ui.test_limits import (
    EMOJI_MARKS,
    assert_embed_limits,
    assert_message_limits,
    table,
)

GAME = "la_morte"
LANGUAGES = ("fr", "it")
WHERE = "Table #123456 in #tarot"


def _deals(
    players: int, seed: int, prefer: tuple[str, ...] = (), talon: str | None = None
) -> Iterator[tuple[MatchState, bool]]:
    """Every state of two seeded random deals, with whether the deal just ended: actions of
    the ``prefer`` types first when legal (``("drop", "muck")``: a mucked deal), ``talon``
    turned up (``"T13"``: a deal without trumps)."""
    rules = get_rules(GAME)
    rng = random.Random(f"i18n/{GAME}/{players}/{seed}")
    m = match.new_match(GAME, players, None, 0)
    for _deal in range(2):
        if m.finished:
            return
        deck = list(shuffle(rules.pack(players), rng.randrange(2**63)))
        if talon is not None:  # la_morte §2.1: the card after the 9 × N dealt ones
            i, j = deck.index(talon), 9 * players
            deck[i], deck[j] = deck[j], deck[i]
        m = match.start_deal(m, tuple(deck))
        yield m, False
        while match.to_act(m) is not None:
            legal = match.legal_actions(m)
            wanted = [a for a in legal if a.type in prefer]
            choice = wanted or legal
            m, _events = match.apply(m, choice[int(rng.random() * len(choice))])
            yield m, match.to_act(m) is None


SCENES: list[tuple[int, int, dict[str, Any]]] = [
    *((players, seed, {}) for players in (3, 4, 5) for seed in range(3)),
    (4, 0, {"prefer": ("drop", "muck")}),  # everyone drops, the dealer mucks
    (3, 1, {"prefer": ("drop", "bid")}),  # the dealer bids again after everyone dropped
    (5, 2, {"talon": "T13"}),  # La Morte turned up: no trumps
]


def _core_atoms(t: TableInfo, pv: PublicView, views: dict[int, SeatView]) -> set[str]:
    """What the shared renderers (another catalog area) write into this game's messages."""
    out = {_(WAITING_NOTE), WHERE, trick_text(t, pv, r.CARD_LABELS)}
    if pv.last_trick:
        out.add(last_trick_text(t, pv.last_trick, pv.last_winner, r.CARD_LABELS))
    out.update(embed_atoms(add_last_trick(discord.Embed(), t, pv, r.CARD_LABELS)))
    out.update(x for x in (restriction_line(v) for v in views.values()) if x)
    return out


def _render(
    language: str, players: int, seed: int, style: str = "plain", **deals: Any
) -> list[str]:
    """Every text a table of ``players`` shows over two deals (``deals``: how they go, see
    :func:`_deals`), in ``language``, with Discord's limits checked on each message, and the
    hands once the game is over; the shared renderers' texts left out."""
    t = table(GAME, players, style)
    rules = get_rules(GAME)
    out: list[str] = []
    with using(language):
        outcome: Outcome | None = None
        for m, ended in _deals(players, seed, **deals):
            assert m.deal is not None
            pv = rules.observe_public(m.deal)
            views = {s: rules.observe(m.deal, s) for s in range(players)}
            outcome = Outcome(
                table=t,
                public=pv,
                seat_views=views,
                totals=m.totals,
                deal_number=m.deals_played + (0 if ended else 1),
                deals_played=m.deals_played,
                finished=m.finished,
                winners=m.winners,
            )
            core = _core_atoms(t, pv, views)
            texts: list[str] = []
            if ended:
                done = EndedDeal(len(m.results), m.results[-1], pv)
                summary = r.deal_summary_embed(t, done, m.totals)
                assert_embed_limits(summary)
                texts += embed_atoms(summary)
                core.add(standings(t, m.totals))
            else:
                content = r.turn_content(outcome)
                embed = r.table_embed(outcome)
                assert_message_limits({"content": content, "embed": embed})
                texts += [content or "", *embed_atoms(embed)]
            for view in views.values():
                hand = r.hand_embed(t, view, WHERE, outcome)
                controls = r.decision_view(t.id, view) if view.legal else None
                assert_message_limits({"embed": hand, "view": controls})
                texts += embed_atoms(hand) + view_atoms(controls)
            out += [x for x in texts if x and x not in core]
        assert outcome is not None and outcome.public is not None
        over = replace(outcome, finished=True)
        core = _core_atoms(t, outcome.public, dict(outcome.seat_views))
        for view in outcome.seat_views.values():
            hand = r.hand_embed(t, view, WHERE, over)
            assert_embed_limits(hand)
            out += [x for x in embed_atoms(hand) if x not in core]
        for rounds in (None, 1, 3):
            out += r.option_lines({"target": 50, "round_limit": rounds})
        rules_card = r.rules_embed()
        assert_embed_limits(rules_card)
        out += embed_atoms(rules_card)
    return out


@pytest.fixture(scope="module")
def shown() -> dict[str, list[str]]:
    """Every text of the scenes, per language."""
    return {
        language: [
            text
            for players, seed, deals in SCENES
            for text in _render(language, players, seed, **deals)
        ]
        for language in LANGUAGES
    }


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
        "smazzata",
        "Fuori dal Tempo",
        "il Morto",
        "La Morte",
        "Il Bagatto",
        "Re, Regina, Cavallo, Fante",
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
        assert r.option_lines({"round_limit": 3})[1].replace("\u00a0", " ") == (
            "Limite de donnes : **3**"
        )
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
            _render(language, players, 7, "markdown")
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
