"""``observe_public`` hands out the public view of the state it was last given again (each
seat's view embeds it), and computes a new one for any other state or rules object."""

from __future__ import annotations

from typing import Any

from bot.engine import match
from bot.engine.deck import shuffle
from bot.engine.registry import get_rules, implemented
from bot.engine.views import PublicView, once_per_state


def test_every_game_observes_a_state_once_for_all_its_seats() -> None:
    for game in sorted(implemented()):
        rules = get_rules(game)
        players = rules.min_players
        m = match.new_match(game, players, None, 0)
        m = match.start_deal(m, tuple(shuffle(rules.pack(players), 7)))
        state = m.deal
        public = rules.observe_public(state)
        assert all(rules.observe(state, seat).public is public for seat in range(players))
        seat = rules.to_act(state)
        assert seat is not None
        after, _ = rules.apply(state, rules.observe(state, seat).legal[0])
        assert rules.observe_public(after) is not public
        assert rules.observe_public(after) == rules.observe_public(after)


def test_a_new_state_or_rules_object_is_observed_anew() -> None:
    calls: list[tuple[Any, Any]] = []

    class Rules:
        @once_per_state
        def observe_public(self, state: Any) -> PublicView:
            calls.append((self, state))
            return PublicView("g", "play", 2, 0, None, (0, 0), (), (0, 0), 0)

    a, b = Rules(), Rules()
    first, second = tuple(["state"]), tuple(["state"])  # equal, not the same object
    assert first == second and first is not second
    view = a.observe_public(first)
    assert a.observe_public(first) is view and len(calls) == 1
    a.observe_public(second)
    b.observe_public(second)
    a.observe_public(first)
    expected = [(a, first), (a, second), (b, second), (a, first)]
    assert len(calls) == len(expected)
    assert all(r is er and s is es for (r, s), (er, es) in zip(calls, expected, strict=True))
