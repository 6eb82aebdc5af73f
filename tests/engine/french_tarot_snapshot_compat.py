"""Stored French Tarot snapshots stay readable: recordings of the engine as it was before
the fast core (commit 844e538), in the format of ``snapshot_compat``.

``record`` plays seeded random French Tarot deals at 3, 4 and 5 players (uniformly random
legal actions, or — every other deal — leaning to the rarer paths: poignées shown, chelems
announced, high contracts; multi-card templates completed by ``Rules.random_choice``) with
the ``chelem`` option on or off, and writes per deal every action with a digest of the legal
actions offered before it and of the events it produced, a few full state snapshots (the
JSON the database stores, the complete legal list, the scenario descriptors and a digest of
every seat's view) and the final result and state. The fixture
``tests/engine/fixtures/french_tarot/baseline_snapshots.json`` was written by running this
module against a worktree of that commit::

    git worktree add /tmp/engine-baseline 844e538
    python tests/engine/french_tarot_snapshot_compat.py --root /tmp/engine-baseline --write

``test_french_tarot_snapshot_compat`` decodes those snapshots with today's engine and checks
it continues exactly as the old one did. It imports ``bot`` lazily so ``--root`` decides
which engine it records.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "french_tarot" / "baseline_snapshots.json"
GAME = "french_tarot"
PLAYERS = (3, 4, 5)
DEALS = 12  # per player count
SNAPSHOTS = 4  # per deal, besides the final state

if __name__ == "__main__":  # run as a script: this repository's ``tests`` package
    sys.path.insert(0, str(HERE.parent.parent))

from tests.engine.snapshot_compat import digest, legal_json, views_digest  # noqa: E402


def _pick(legal: Any, rng: random.Random, style: int) -> Any:
    """A random legal action: bids lean to passing or the lowest contract on offer (so the
    dog and discard come up), then uniformly random; in style 1, often a poignée or a chelem
    announcement."""
    if style:
        shows = [a for a in legal if a.type == "poignee"]
        if shows and rng.random() < 0.7:
            return shows[rng.randrange(len(shows))]
        if legal[0].type == "chelem" and rng.random() < 0.4:
            return legal[1]
    if legal[0].type == "bid" and len(legal) > 1 and rng.random() < 0.8:
        return legal[0] if rng.random() < 0.6 else legal[1]
    return legal[rng.randrange(len(legal))]


def record_deal(players: int, seed: int) -> dict[str, Any]:
    from bot.engine import codec
    from bot.engine.deck import shuffle
    from bot.engine.registry import get_rules

    rules = get_rules(GAME)
    rng = random.Random(seed)
    options = rules.normalize_options({"chelem": rng.random() < 0.75})
    dealer = rng.randrange(players)
    style = seed % 2
    while True:  # a redeal (petit sec) or all passes: the next deck of the same stream
        deck = list(shuffle(rules.pack(players), rng.randrange(2**63)))
        state = rules.new_deal(players, options, deck, dealer)
        steps: list[dict[str, Any]] = []
        states: list[Any] = [state]
        while (seat := rules.to_act(state)) is not None:
            legal = rules.legal_actions(state)
            action = _pick(legal, rng, style)
            if action.type in rules.multi_card_types:
                action = rules.random_choice(rules.observe(state, seat), action, rng)
            state, events = rules.apply(state, action)
            steps.append(
                {
                    "action": action.to_json(),
                    "legal": digest(legal_json(rules, states[-1])),
                    "events": digest([e.to_json() for e in events]),
                }
            )
            states.append(state)
        result = rules.result(state)
        assert result is not None
        if result.outcome == "played" or rng.random() < 0.2:
            break
    picks = set(rng.sample(range(len(steps)), min(SNAPSHOTS, len(steps))))
    # the call, discard and chelem steps, whenever the deal has them
    picks.update(i for i, st in enumerate(states[:-1]) if st.phase in ("call", "discard", "chelem"))
    picks = sorted(picks)
    snapshots = [
        {
            "step": i,
            "state": codec.encode_state(states[i]),
            "legal": legal_json(rules, states[i]),
            "descriptors": rules.legal_descriptors(states[i]),
            "views": views_digest(rules, states[i], players),
        }
        for i in picks
    ]
    return {
        "players": players,
        "options": options,
        "dealer": dealer,
        "deck": deck,
        "steps": steps,
        "snapshots": snapshots,
        "result": result.to_json(),
        "final": codec.encode_state(state),
        "final_views": views_digest(rules, state, players),
    }


def record() -> dict[str, Any]:
    deals = [record_deal(p, 1000 * p + k) for p in PLAYERS for k in range(DEALS)]
    return {"game": GAME, "engine": "844e538", "deals": deals}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--root", required=True, help="checkout whose engine is recorded")
    parser.add_argument("--write", action="store_true", help="write the fixture file")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.root).resolve()))
    data = record()
    import bot

    print(f"engine recorded: {Path(bot.__file__).parent}")
    text = json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n"
    outcomes: dict[str, int] = {}
    for deal in data["deals"]:
        outcomes[deal["result"]["outcome"]] = outcomes.get(deal["result"]["outcome"], 0) + 1
    print(f"{GAME}: {len(data['deals'])} deals {outcomes}, {len(text) / 1024:.0f} KiB")
    if args.write:
        FIXTURE.parent.mkdir(parents=True, exist_ok=True)
        FIXTURE.write_text(text)


if __name__ == "__main__":
    main()
