"""States stored by the engine before the fast core still decode and play on identically.

For La Morte, Early French Tarot, Loser's Game and Queen of Tarot, the fixtures recorded from
commit 844e538 (``snapshot_compat``) are replayed: from the deck, and from every stored
snapshot decoded from its JSON, each step must offer the same legal actions in the same order
and produce the same events; snapshots re-encode to the same JSON, offer the same complete
legal list and scenario descriptors and show every seat the same view; the final result and
state JSON are the same.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from bot.engine import codec
from bot.engine.registry import get_rules
from tests.engine.snapshot_compat import (
    GAMES,
    digest,
    fixture_path,
    legal_json,
    views_digest,
)


@cache
def _fixture(game: str) -> dict[str, Any]:
    return json.loads(fixture_path(game).read_text())


def _cases() -> list[tuple[str, int]]:
    return [(game, i) for game in GAMES for i in range(len(_fixture(game)["deals"]))]


def _play_on(game: str, deal: dict[str, Any], state: Any, start: int) -> None:
    rules = get_rules(game)
    players = deal["players"]
    for i, step in enumerate(deal["steps"][start:], start):
        assert rules.to_act(state) == step["action"]["seat"], f"step {i}"
        assert digest(legal_json(rules, state)) == step["legal"], f"legal actions at step {i}"
        action = codec.parse_action(rules, step["action"], players)
        state, events = rules.apply(state, action)
        assert digest([e.to_json() for e in events]) == step["events"], f"events at step {i}"
    assert rules.to_act(state) is None
    result = rules.result(state)
    assert result is not None
    assert json.loads(json.dumps(result.to_json())) == deal["result"]
    assert codec.encode_state(state) == deal["final"]
    assert views_digest(rules, state, players) == deal["final_views"]


@pytest.mark.parametrize(("game", "index"), _cases())
def test_baseline_deal_replays_identically(game: str, index: int) -> None:
    deal = _fixture(game)["deals"][index]
    rules = get_rules(game)
    state = rules.new_deal(deal["players"], deal["options"], deal["deck"], deal["dealer"])
    _play_on(game, deal, state, 0)


@pytest.mark.parametrize(("game", "index"), _cases())
def test_baseline_snapshots_decode_and_continue(game: str, index: int) -> None:
    deal = _fixture(game)["deals"][index]
    rules = get_rules(game)
    final = codec.decode_state(rules, deal["final"])
    assert codec.encode_state(final) == deal["final"]
    assert rules.result(final) is not None
    for snap in deal["snapshots"]:
        data = json.loads(json.dumps(snap["state"]))  # as read back from the database
        state = codec.decode_state(rules, data)
        assert codec.encode_state(state) == snap["state"]
        assert legal_json(rules, state) == snap["legal"]
        assert rules.legal_descriptors(state) == snap["descriptors"]
        assert views_digest(rules, state, deal["players"]) == snap["views"]
        _play_on(game, deal, state, snap["step"])
