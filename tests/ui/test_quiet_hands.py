"""Quiet hand DMs: a seat's hand embed changes only with that seat's own situation.

Seeded random deals of every implemented game, played through the pure engine (no Discord,
no database). Between two states where a seat is not deciding and its hand, legal actions,
private info and the phase are unchanged, its hand embed must be identical (the bot edits a
DM only when the rendered DM changes). At the seat's decision the embed shows the trick.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import match
from bot.engine.deck import shuffle
from bot.engine.match import MatchState
from bot.engine.registry import get_rules, implemented
from bot.engine.views import SeatView
from bot.services.models import Outcome, SeatInfo, TableInfo
from bot.ui.games import renderer
from bot.ui.text.locale import for_table
from bot.ui.text.render import UPDATES_NOTE, trick_text
from bot.ui.text.restriction import restriction_line

DEALS = 10  # per game and player count: about 30 per game


def _counts(game_id: str) -> list[int]:
    rules = get_rules(game_id)
    lo, hi = rules.min_players, rules.max_players
    return sorted({lo, (lo + hi) // 2, hi})


CASES = [(g, n) for g in implemented() for n in _counts(g)]


def _table(game_id: str, m: MatchState) -> TableInfo:
    seats = tuple(
        SeatInfo(
            i, None if i == m.players - 1 else 100 + i, f"player{i}", is_bot=i == m.players - 1
        )
        for i in range(m.players)
    )
    return TableInfo(1, 10, 20, game_id, "playing", 100, m.players, dict(m.options), seats)


def _outcome(table: TableInfo, m: MatchState) -> tuple[Outcome, dict[int, SeatView]]:
    """What ``TableCore._outcome`` hands the renderers (every seat's view, bots included)."""
    rules = m.rules
    assert m.deal is not None
    views = {s: rules.observe(m.deal, s) for s in range(m.players)}
    running = not m.deal_over
    outcome = Outcome(
        table=table,
        public=rules.observe_public(m.deal),
        seat_views=views,
        totals=m.totals,
        deal_number=m.deals_played + (1 if running else 0),
        deals_played=m.deals_played,
        finished=m.finished,
        winners=m.winners,
    )
    return outcome, views


def _text(embed: dict[str, Any]) -> str:
    parts = [embed.get("title", ""), embed.get("description", "")]
    for f in embed.get("fields", []):
        parts += [f["name"], f["value"]]
    return "\n".join(parts)


def _deciding(view: SeatView) -> bool:
    return view.public.to_act == view.seat and bool(view.legal)


def _embeds(game_id: str, table: TableInfo, m: MatchState) -> dict[int, tuple[SeatView, dict]]:
    mod = renderer(game_id)
    outcome, views = _outcome(table, m)
    with for_table(table):  # as the bot draws a hand: Queen of Tarot's in its Italian suits
        return {
            s: (v, mod.hand_embed(table, v, "Table #1 in #tarot", outcome).to_dict())
            for s, v in views.items()
        }


def _check_state(game_id: str, table: TableInfo, m: MatchState, embeds: dict) -> int:
    """Today's full embed at the seat's decision; a quiet one otherwise. Returns decisions."""
    with for_table(table):  # the trick and the rule in the hand's words
        return _check_in_words(game_id, table, m, embeds)


def _check_in_words(game_id: str, table: TableInfo, m: MatchState, embeds: dict) -> int:
    labels = getattr(renderer(game_id), "CARD_LABELS", None)
    checked = 0
    for view, embed in embeds.values():
        text = _text(embed)
        pv = view.public
        trick = trick_text(table, pv, labels)
        if _deciding(view) and not m.finished:
            assert UPDATES_NOTE not in text
            if pv.phase == "play":
                assert "Trick " in text and trick in text, text
                checked += 1
            why = restriction_line(view)
            if why is not None:  # a held card is forbidden: the hand says why
                assert why in text, text
        elif not m.finished:
            assert UPDATES_NOTE in text or "next" in text, text
            assert "Waiting for " not in text.replace("Waiting for the next", ""), text
            if pv.trick:
                assert trick not in text, text
    return checked


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_quiet_hand_embeds(game_id: str, players: int) -> None:
    rules = get_rules(game_id)
    rng = random.Random(f"{game_id}/{players}")
    m = match.new_match(game_id, players, None, 0)
    table = _table(game_id, m)
    compared = decisions = 0
    for _ in range(DEALS):
        if m.finished:
            m = match.new_match(game_id, players, None, rng.randrange(players))
        m = match.start_deal(m, shuffle(rules.pack(players), rng.randrange(2**63)))
        before = _embeds(game_id, table, m)
        decisions += _check_state(game_id, table, m, before)
        while (seat := match.to_act(m)) is not None:
            legal = match.legal_actions(m)
            action = legal[int(rng.random() * len(legal))]
            if action.type in rules.multi_card_types:
                assert m.deal is not None
                action = rules.random_choice(rules.observe(m.deal, seat), action, rng)
            m, _ = match.apply(m, action)
            after = _embeds(game_id, table, m)
            decisions += _check_state(game_id, table, m, after)
            for s, (v1, e1) in before.items():
                v2, e2 = after[s]
                if (
                    _deciding(v1)
                    or _deciding(v2)
                    or m.finished
                    or v1.public.phase != v2.public.phase
                    or (v1.hand, v1.legal, v1.info) != (v2.hand, v2.legal, v2.info)
                ):
                    continue
                assert e1 == e2, f"seat {s} after {action}:\n{_text(e1)}\n---\n{_text(e2)}"
                compared += 1
            before = after
    assert compared > 0 and decisions > 0
