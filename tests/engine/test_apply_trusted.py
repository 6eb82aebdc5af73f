"""The simulation path equals the checked one (issue 18's fast cores).

``Rules.apply_trusted`` skips the legality check and builds events only when asked; the
expert's rollouts and sampled worlds run on it, and its inline hot paths (a card played
mid-trick, a trick's end, bids, the last trick and scoring) are separate code from ``apply``.
Over seeded random deals of every game and player count, each legal step taken both ways must
give the same state, the same JSON snapshot, the same legal actions, the same public view and
(with ``events=True``) the same events; the deal's result must be the same too.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from bot.engine import codec, match
from bot.engine.deck import shuffle
from bot.engine.registry import get_rules, implemented
from bot.engine.rules import Rules

DEALS = 30  # per game and player count; every step of each is checked both ways


def _counts() -> list[tuple[str, int]]:
    return [
        (g, n)
        for g in implemented()
        for n in range(get_rules(g).min_players, get_rules(g).max_players + 1)
    ]


def _same(rules: Rules, checked: Any, trusted: Any) -> None:
    assert trusted == checked
    assert codec.encode_state(trusted) == codec.encode_state(checked)
    assert rules.legal_actions(trusted) == rules.legal_actions(checked)
    assert rules.to_act(trusted) == rules.to_act(checked)
    assert rules.observe_public(trusted) == rules.observe_public(checked)


@pytest.mark.parametrize(("game_id", "players"), _counts())
def test_apply_trusted_steps_like_apply(game_id: str, players: int) -> None:
    rules = get_rules(game_id)
    trusted_apply = getattr(rules, "apply_trusted", None)
    if trusted_apply is None:
        pytest.skip(f"{game_id} has no simulation path")
    steps = 0
    for seed in range(DEALS):
        rng = random.Random(seed)
        m = match.new_match(game_id, players, {}, seed % players)
        m = match.start_deal(m, shuffle(rules.pack(players), 1000 + seed))
        state = m.deal
        checked = state
        while (seat := rules.to_act(state)) is not None:
            legal = rules.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            if action.type in rules.multi_card_types:
                action = rules.random_choice(rules.observe(state, seat), action, rng)
            checked, events = rules.apply(state, action)
            quiet, none = trusted_apply(state, action)
            loud, told = trusted_apply(state, action, True)
            assert none in ((), events)  # events are optional without events=True
            assert told == events
            _same(rules, checked, quiet)
            _same(rules, checked, loud)
            state = quiet  # go on along the trusted path: its successors must stay exact
            steps += 1
        assert rules.result(state) == rules.result(checked)
        # the snapshot of a match holding the trusted state restores to an equal state
        restored = match.from_json(match.to_json(replace(m, deal=state))).deal
        assert restored == state
    assert steps > DEALS
