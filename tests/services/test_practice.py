"""Which decisions of a practice table's first deal get a coach line (issue 31): the kind of a
decision from its legal action types, and whether the seat met that kind already."""

from __future__ import annotations

from bot.engine import match
from bot.engine.deck import shuffle
from bot.services.practice import PRACTICE_OPTIONS, PRACTICE_SEATS, decision_kind, first_decision


def test_decision_kinds() -> None:
    assert decision_kind({"bid"}) == "bid"  # French Tarot's pass is a bid too
    assert decision_kind({"bid", "accept", "drop"}) == "bid"  # La Morte's auction
    assert decision_kind({"pass", "demand", "offer", "continue"}) == "bargain"
    assert decision_kind({"pass"}) == "bargain"  # a lone bargaining pass
    assert decision_kind({"play", "poignee"}) == "poignee"  # the rarer moment names it
    assert decision_kind({"play"}) == "play"
    assert decision_kind({"resign"}) is None


def test_first_decision_once_per_kind_and_only_in_the_first_deal() -> None:
    m = match.new_match("early_french_tarot", 4, {}, 0)
    rules = m.rules
    m = match.start_deal(m, shuffle(rules.pack(4), 31))
    seen: dict[int, list[str]] = {}
    while m.deal is not None and not m.deal_over:
        seat = match.to_act(m)
        assert seat is not None
        view = rules.observe(m.deal, seat)
        kind = first_decision(view, 1)
        if kind is not None:
            seen.setdefault(seat, []).append(kind)
        assert first_decision(view, 2) is None
        m, _ = match.apply(m, match.legal_actions(m)[0])
    assert seen == {s: ["play"] for s in range(4)}


def test_practice_tables_are_valid_games() -> None:
    for game_id, seats in PRACTICE_SEATS.items():
        match.new_match(game_id, seats, PRACTICE_OPTIONS[game_id], 0)  # raises if not
