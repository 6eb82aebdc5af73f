"""Snapshot codec: the cost of encoding a deal state to JSON and decoding it back.

Every commit stores a snapshot, every cold read or replay decodes one, and the invariant tests
round-trip every step: this plays one seeded random deal per game and player count and times
``encode_state`` + ``decode_state`` over each state of it (checking the round trip).

    python bench/codec_bench.py [--rounds 3] [--baseline PATH/TO/codec.py]

``--baseline`` times another copy of ``bot/engine/codec.py`` on the same states (e.g. the
one before a change: ``git show REV:bot/engine/codec.py > /tmp/codec.py``) and checks that
both encode every state identically.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time
from types import ModuleType
from typing import Any

from bot.engine import codec, match
from bot.engine.deck import shuffle
from bot.engine.registry import get_rules, implemented


def _states(game_id: str, players: int, seed: int) -> list[Any]:
    rules = get_rules(game_id)
    rng = random.Random(seed)
    m = match.new_match(game_id, players, {}, 0)
    state = match.start_deal(m, shuffle(rules.pack(players), seed)).deal
    out = [state]
    while (seat := rules.to_act(state)) is not None:
        legal = rules.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        if action.type in rules.multi_card_types:
            action = rules.random_choice(rules.observe(state, seat), action, rng)
        state, _ = rules.apply(state, action)
        out.append(state)
    return out


def _time(module: ModuleType, game_id: str, states: list[Any], rounds: int) -> float:
    """Microseconds per encode + decode."""
    rules = get_rules(game_id)
    started = time.perf_counter()
    for _ in range(rounds):
        for state in states:
            assert module.decode_state(rules, module.encode_state(state)) == state
    return (time.perf_counter() - started) / (rounds * len(states)) * 1e6


def _load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("baseline_codec", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--baseline", help="another codec.py to time on the same states")
    args = parser.parse_args()
    baseline = _load(args.baseline) if args.baseline else None
    header = "game                 players  states  µs/round trip"
    print(header + ("  baseline  ×" if baseline is not None else ""))
    for game_id in implemented():
        rules = get_rules(game_id)
        for players in range(rules.min_players, rules.max_players + 1):
            states = _states(game_id, players, args.seed)
            ours = _time(codec, game_id, states, args.rounds)
            line = f"{game_id:20} {players:7} {len(states):7} {ours:14.0f}"
            if baseline is not None:
                assert all(baseline.encode_state(s) == codec.encode_state(s) for s in states)
                theirs = _time(baseline, game_id, states, args.rounds)
                line += f"  {theirs:8.0f}  {theirs / ours:4.1f}"
            print(line)


if __name__ == "__main__":
    main()
