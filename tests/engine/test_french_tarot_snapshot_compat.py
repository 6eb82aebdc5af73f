"""French Tarot states stored before the fast core still decode and play on identically.

The fixture recorded from commit 844e538 (``french_tarot_snapshot_compat``) is replayed: from
the deck, and from every stored snapshot decoded from its JSON, each step must offer the same
legal actions in the same order and produce the same events; snapshots re-encode to the same
JSON, offer the same complete legal list and scenario descriptors and show every seat the same
view; the final result and state JSON are the same.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from bot.engine import codec
from bot.engine.games.french_tarot import RULES
from tests.engine.french_tarot_snapshot_compat import FIXTURE
from tests.engine.snapshot_compat import digest, legal_json, views_digest


@cache
def _fixture() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text())


def _play_on(deal: dict[str, Any], state: Any, start: int) -> None:
    players = deal["players"]
    for i, step in enumerate(deal["steps"][start:], start):
        assert RULES.to_act(state) == step["action"]["seat"], f"step {i}"
        assert digest(legal_json(RULES, state)) == step["legal"], f"legal actions at step {i}"
        action = codec.parse_action(RULES, step["action"], players)
        state, events = RULES.apply(state, action)
        assert digest([e.to_json() for e in events]) == step["events"], f"events at step {i}"
    assert RULES.to_act(state) is None
    result = RULES.result(state)
    assert result is not None
    assert json.loads(json.dumps(result.to_json())) == deal["result"]
    assert codec.encode_state(state) == deal["final"]
    assert views_digest(RULES, state, players) == deal["final_views"]


def test_fixture_covers_every_phase() -> None:
    phases = {s["state"]["phase"] for d in _fixture()["deals"] for s in d["snapshots"]}
    assert phases >= {"bidding", "call", "discard", "chelem", "play"}
    assert {d["players"] for d in _fixture()["deals"]} == {3, 4, 5}


@pytest.mark.parametrize("index", range(len(_fixture()["deals"])))
def test_baseline_deal_replays_identically(index: int) -> None:
    deal = _fixture()["deals"][index]
    state = RULES.new_deal(deal["players"], deal["options"], deal["deck"], deal["dealer"])
    _play_on(deal, state, 0)


@pytest.mark.parametrize("index", range(len(_fixture()["deals"])))
def test_baseline_snapshots_decode_and_continue(index: int) -> None:
    deal = _fixture()["deals"][index]
    final = codec.decode_state(RULES, deal["final"])
    assert codec.encode_state(final) == deal["final"]
    assert RULES.result(final) is not None
    for snap in deal["snapshots"]:
        data = json.loads(json.dumps(snap["state"]))  # as read back from the database
        state = codec.decode_state(RULES, data)
        assert codec.encode_state(state) == snap["state"]
        assert legal_json(RULES, state) == snap["legal"]
        assert RULES.legal_descriptors(state) == snap["descriptors"]
        assert views_digest(RULES, state, deal["players"]) == snap["views"]
        _play_on(deal, state, snap["step"])
