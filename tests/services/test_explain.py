"""Why the computer did it (issue 33): the computers' reasons keep to their privacy rule (no
card the channel cannot see, over whole deals of every game), forced moves get none, and a
reason is stored with its move, so a table redrawn from its log after a restart shows it."""

from __future__ import annotations

import re
from dataclasses import replace
from types import SimpleNamespace

import pytest

from bot.engine import match
from bot.engine.registry import get_rules
from bot.services import explain
from bot.services.models import SeatInfo, TableInfo
from bot.services.step import PlayStep, first_match
from bot.services.tables import TableService
from bot.ui.games import renderer
from bot.ui.text.cards import label, long_name
from bot.ui.text.explain import reason_line
from tests.services.conftest import ANA, CHANNEL, GUILD

#: One deal of every game at a player count that has each kind of decision (French Tarot at
#: 5 calls a King; Queen of Tarot bargains and discards; La Morte accepts and drops).
DEALS = [
    ("la_morte", 4, 1, {"open", "accept"}),
    ("french_tarot", 5, 2, {"pass", "call", "discard", "ruff"}),
    ("queen_of_tarot", 3, 3, {"demand", "discard"}),
    ("losers_game", 4, 4, {"trump", "estimate"}),
    ("early_french_tarot", 3, 5, {"ruff"}),
]


def _table(game: str, players: int) -> TableInfo:
    seats = tuple(SeatInfo(i, None, f"Bot {i}", is_bot=True) for i in range(players))
    return TableInfo(1, GUILD, CHANNEL, game, "playing", ANA, players, {}, seats)


def _shown(text: str, card: str, game: str) -> bool:
    """Whether ``text`` names ``card`` (its short label or its long name, as whole words)."""
    r = renderer(game)
    labels, names = getattr(r, "CARD_LABELS", {}), getattr(r, "CARD_NAMES", {})
    shown = {label(card, labels), long_name(card, names)}
    return any(re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", text) for n in shown)


@pytest.mark.parametrize(("game", "players", "seed", "expected"), DEALS)
def test_no_reason_names_a_card_the_channel_cannot_see(
    game: str, players: int, seed: int, expected: set[str]
) -> None:
    rules = get_rules(game)
    rec = SimpleNamespace(
        seq=0,
        level="casual",
        daily_date=None,
        replay_of=None,
        seats=[],
        league_session=None,
        league_deals=None,
        tournament_id=None,
    )
    step = PlayStep(rec, match.new_match(game, players, {}, 0), seed)  # type: ignore[arg-type]
    step.start_deal()
    table, kinds = _table(game, players), set[str]()
    while step.m.deals_played == 0:
        seat = match.to_act(step.m)
        assert seat is not None
        before = len(step.events)
        action = step.computer_action(seat)
        step.apply(action, by="ai")
        said = [e for _, e in step.events[before:] if e.type == explain.EXPLAINED]
        if not said:
            continue
        (e,) = said
        assert e.seat == seat
        why = {k: v for k, v in e.data.items() if k != "act"}
        assert explain.public_only(why, action), why
        if action.type == "discard":
            assert "cards" not in e.data["act"]  # the écart stays face down
        line = reason_line(table, seat, e.data)
        assert line is not None and line.startswith(f"🤖 Bot {seat}: **"), line
        kinds.add(why["k"])
        if step.m.deal is None or step.m.deals_played:
            continue
        # Every card still in a hand is hidden from the channel: none may be named (the only
        # card a line names is the one its own move puts on the table, e.g. a called King).
        hidden = {c for s in range(players) for c in rules.observe(step.m.deal, s).hand}
        hidden.discard(action.card or "")
        assert not [c for c in hidden if _shown(line, c, game)], line
    assert expected <= kinds, kinds  # these seeded deals hold each kind of decision


def test_a_forced_move_has_no_reason() -> None:
    rules = get_rules("la_morte")
    m = match.new_match("la_morte", 3, {}, 0)
    m = match.start_deal(m, rules.pack(3))
    seat = match.to_act(m)
    assert seat is not None and m.deal is not None
    view = rules.observe(m.deal, seat)
    only = view.legal[0]
    assert explain.reason(rules, replace(view, legal=(only,)), only) is None
    assert explain.reason(rules, view, only) is not None  # the same move with a choice


@pytest.mark.usefixtures("quick_expert")  # the computers think in this process
async def test_a_reason_is_logged_with_its_move_and_replayed(svc: TableService) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "la_morte", 4, {}, computers=3)
    out = await svc.start(t.id, ANA, seed=7)
    live = [(d, e) for d, e in out.events if e.type == explain.EXPLAINED]
    assert live, "the computers bid before Ana"
    rec = await svc.store.get(t.id)
    assert rec is not None
    entries = await svc.store.log(t.id)
    assert sum("why" in e.payload for e in entries) == len(live)
    # The table redrawn from its log (after a restart) shows the same reasons.
    step = PlayStep(rec, first_match(rec, entries), rec.seed)
    for e in entries:
        step.replay(e)
    assert [(d, e) for d, e in step.events if e.type == explain.EXPLAINED] == live
