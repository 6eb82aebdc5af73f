"""Issue 16, text that reads at a glance: the trick one seat per line with the winning card
marked and the led suit stated, card lists that can't be misread, the last trick on the deal
summary and a deal-by-deal score table on the final message.

Seeded random deals are played through the pure engine (no Discord, no database).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot.engine import match
from bot.engine.deck import shuffle
from bot.engine.match import MatchState
from bot.engine.registry import get_rules, implemented
from bot.services.models import EndedDeal, Outcome, SeatInfo, TableInfo
from bot.ui.games import renderer
from bot.ui.text.cards import CARD_SEP, card_list, label, labels
from bot.ui.text.render import WINNING_MARK, final_embed, seat_label, trick_text
from bot.ui.text.winner import winning_seat


def _players(game_id: str) -> list[int]:
    rules = get_rules(game_id)
    return sorted({rules.min_players, rules.max_players})


CASES = [(g, n) for g in implemented() for n in _players(g)]


def _table(game_id: str, players: int) -> TableInfo:
    seats = tuple(SeatInfo(i, 100 + i, f"player {i}") for i in range(players))
    return TableInfo(1, 10, 20, game_id, "playing", 100, players, {}, seats, message_id=30)


def _outcome(table: TableInfo, m: MatchState) -> Outcome:
    assert m.deal is not None
    running = not m.deal_over
    return Outcome(
        table=table,
        public=m.rules.observe_public(m.deal),
        seat_views={s: m.rules.observe(m.deal, s) for s in range(m.players)},
        totals=m.totals,
        deal_number=m.deals_played + (1 if running else 0),
        deals_played=m.deals_played,
        finished=m.finished,
        winners=m.winners,
    )


def _states(game_id: str, players: int, seed: int, deals: int = 1) -> Iterator[MatchState]:
    rules = get_rules(game_id)
    rng = random.Random(f"trick/{game_id}/{players}/{seed}")
    m = match.new_match(game_id, players, None, 0)
    for _ in range(deals):
        if m.finished:
            return
        m = match.start_deal(m, shuffle(rules.pack(players), rng.randrange(2**63)))
        yield m
        while (seat := match.to_act(m)) is not None:
            legal = match.legal_actions(m)
            action = legal[int(rng.random() * len(legal))]
            if action.type in rules.multi_card_types:
                assert m.deal is not None
                action = rules.random_choice(rules.observe(m.deal, seat), action, rng)
            m, _ = match.apply(m, action)
            yield m


def _field(embed: discord.Embed, prefix: str) -> str | None:
    for f in embed.fields:
        if (f.name or "").startswith(prefix):
            return f.value
    return None


def _check_trick(value: str, table: TableInfo, pv: Any, card_labels: dict[str, str]) -> None:
    lines = value.split("\n")
    assert lines[0].startswith("Led:"), value
    seats = lines[1:]
    assert len(seats) == len(pv.trick), value  # one seat per line
    winner = winning_seat(pv)
    for line, (seat, card) in zip(seats, pv.trick, strict=True):
        assert line.startswith(f"{seat_label(table, seat)} — **{label(card, card_labels)}**")
        assert (WINNING_MARK in line) == (seat == winner), (value, winner)
    assert value.count(WINNING_MARK) == (winner is not None)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_trick_one_seat_per_line_with_the_winner_marked(game_id: str, players: int) -> None:
    r = renderer(game_id)
    card_labels = getattr(r, "CARD_LABELS", {})
    table = _table(game_id, players)
    checked = marked = 0
    for seed in range(3):
        for m in _states(game_id, players, seed):
            assert m.deal is not None
            pv = m.rules.observe_public(m.deal)
            if m.deal_over or pv.phase != "play" or not pv.trick:
                continue
            outcome = _outcome(table, m)
            value = _field(r.table_embed(outcome), "Trick ")
            assert value is not None
            _check_trick(value, table, pv, card_labels)
            assert value == trick_text(table, pv, card_labels)
            # The deciding hand embed shows the same trick.
            seat = pv.to_act
            if seat is not None:
                view = m.rules.observe(m.deal, seat)
                hand = _field(r.hand_embed(table, view, "DM", outcome), "Trick ")
                assert hand == value
            checked += 1
            marked += winning_seat(pv) is not None
            if pv.last_trick and pv.last_winner is not None:
                last = _field(r.table_embed(outcome), "Last trick")
                assert last is not None
                assert len(last.split("\n")) == len(pv.last_trick)
                assert last.count(WINNING_MARK) == 1
    assert checked and marked


def test_led_suit_is_stated() -> None:
    table = _table("french_tarot", 4)
    for m in _states("french_tarot", 4, 0):
        assert m.deal is not None
        pv = m.rules.observe_public(m.deal)
        if pv.phase == "play" and pv.trick and pv.trick[0][1][0] in "SHDC":
            suit = pv.trick[0][1][0]
            word = {"S": "♠ Spades", "H": "♥ Hearts", "D": "♦ Diamonds", "C": "♣ Clubs"}[suit]
            assert trick_text(table, pv).startswith(f"Led: {word}\n")
            return
    raise AssertionError("no suit lead")


def test_card_lists_are_unambiguous() -> None:
    special = {"T21": "T21 World", "EX": "🃏 Fool"}
    assert card_list(["SK", "T21", "T5", "EX"], special) == "K♠ · T21 World · T5 · 🃏 Fool"
    assert card_list([]) == "—"
    assert labels(("T13", "T1"), {"T13": "☠ La Morte"}) == "☠ La Morte · T1"
    # Every label's own spaces never look like a separator.
    for special_labels in (getattr(renderer(g), "CARD_LABELS", {}) for g in implemented()):
        for text in special_labels.values():
            assert CARD_SEP not in text


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_hand_lines_separate_cards(game_id: str, players: int) -> None:
    r = renderer(game_id)
    table = _table(game_id, players)
    for m in _states(game_id, players, 0):
        assert m.deal is not None
        view = m.rules.observe(m.deal, 0)
        if len(view.hand) >= 8:
            text = r.hand_embed(table, view, "DM", _outcome(table, m)).description or ""
            # Cards in one line are separated by " · ", never by a bare space after a card.
            for line in text.split("\n"):
                assert not re.search(r"[♠♥♦♣\d] (?=[AKQJ\d]|Kn|T\d)", line.split(" ", 1)[-1]), line
            return
    raise AssertionError("no hand")


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_deal_summary_shows_the_last_trick(game_id: str, players: int) -> None:
    r = renderer(game_id)
    card_labels = getattr(r, "CARD_LABELS", {})
    table = _table(game_id, players)
    shown = 0
    for seed in range(4):
        for m in _states(game_id, players, seed):
            if not (m.deal_over and m.results):
                continue
            assert m.deal is not None
            pv = m.rules.observe_public(m.deal)
            ended = EndedDeal(m.deals_played, m.results[-1], pv)
            embed = r.deal_summary_embed(table, ended, m.totals)
            value = _field(embed, "Last trick")
            if not pv.last_trick:
                assert value is None
                continue
            assert value is not None
            lines = value.split("\n")
            assert len(lines) == len(pv.last_trick)
            for line, (seat, card) in zip(lines, pv.last_trick, strict=True):
                assert f"{seat_label(table, seat)} — **{label(card, card_labels)}**" in line
                assert (WINNING_MARK in line) == (seat == pv.last_winner)
            shown += 1
    assert shown  # played deals end with their last trick in view


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_final_table_sums_to_the_totals(game_id: str, players: int) -> None:
    table = _table(game_id, players)
    history: list[tuple[int, tuple[int, ...]]] = []
    m: MatchState | None = None
    for m in _states(game_id, players, 1, deals=3):
        if m.deal_over and m.results and len(history) < len(m.results):
            history.append((len(m.results), m.results[-1].deltas))
    assert m is not None and history
    totals = tuple(sum(d[s] for _, d in history) for s in range(players))
    outcome = Outcome(table=table, totals=totals, deals_played=len(history), finished=True)
    embed = final_embed(outcome, "Game", history)
    value = _field(embed, "Deal by deal") or _field(embed, "Hand by hand")
    assert value is not None
    # One line per player, named: each deal's change and running total, then the total.
    lines = value.splitlines()
    assert "```" not in value and len(lines) == players
    for s, line in enumerate(lines):
        assert line.startswith(f"**{seat_label(table, s)}** ")
        cells = re.findall(r"([+−]\d+) \((−?\d+)\)", line)
        assert len(cells) == len(history)
        running = 0
        for (delta, total), (_number, deltas) in zip(cells, history, strict=True):
            running += int(delta.replace("−", "-"))
            assert int(delta.replace("−", "-")) == deltas[s]
            assert int(total.replace("−", "-")) == running
        assert line.endswith(f" = **{str(totals[s]).replace('-', '−')}**") and running == totals[s]
    # Without history the final message is as before.
    assert len(final_embed(outcome, "Game").fields) == 1


def test_long_history_is_clipped_to_a_field() -> None:
    table = _table("la_morte", 5)
    history = [(n, (100, -200, 300, -400, 500)) for n in range(1, 80)]
    outcome = Outcome(table=table, totals=(0,) * 5, finished=True)
    value = _field(final_embed(outcome, "Game", history), "Deal by deal")
    assert value is not None and len(value) <= 1024 and "…" in value
