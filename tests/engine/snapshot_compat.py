"""Stored snapshots of La Morte, Early French Tarot, Loser's Game and Queen of Tarot stay
readable: recordings of the engine as it was before the fast core (commit 844e538).

``record`` plays seeded random deals (uniformly random legal actions, multi-card templates
completed by ``Rules.random_choice``, as ``bench/engine_bench.py`` does) and writes, per deal,
every action with a digest of the legal actions offered before it and of the events it
produced, a few full state snapshots (the JSON the database stores, the complete legal list
and a digest of every seat's view) and the final result and state. The fixtures under
``tests/engine/fixtures/<game>/baseline_snapshots.json`` were written by running this module
against a worktree of that commit::

    git worktree add /tmp/engine-baseline 844e538
    python tests/engine/snapshot_compat.py --root /tmp/engine-baseline --write

``test_snapshot_compat`` decodes those snapshots with today's engine and checks it continues
exactly as the old one did. Only this module's helpers are shared; it imports ``bot`` lazily
so ``--root`` decides which engine it records.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent / "fixtures"
GAMES: dict[str, tuple[int, ...]] = {
    "la_morte": (3, 4, 5),
    "early_french_tarot": (2, 3, 4, 5, 6),
    "losers_game": (2, 3, 4, 5, 6),
    "queen_of_tarot": (3,),
}
DEALS = 8  # per player count (Queen of Tarot, 3 players only: 24)
SNAPSHOTS = 3  # per deal, besides the final state


def fixture_path(game: str) -> Path:
    return FIXTURES / game / "baseline_snapshots.json"


def digest(value: Any) -> str:
    """Short stable digest of a JSON value."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def legal_json(rules: Any, state: Any) -> list[dict[str, Any]]:
    """The legal actions in the engine's order, as JSON (multi-card templates keep their
    ``amount``, the count to choose)."""
    out: list[dict[str, Any]] = []
    for a in rules.legal_actions(state):
        j = a.to_json()
        if a.type in rules.multi_card_types:
            j["count"] = a.amount
        out.append(j)
    return out


#: What views gained after the recordings: French Tarot's taker who called their own card (or
#: discarded it) is told they play alone (``info["alone"]``, french_tarot C-9, issue 31).
ADDED_INFO = ("alone",)


def view_json(rules: Any, state: Any, seat: int) -> dict[str, Any]:
    """A seat's view as JSON, without what views gained after the recording (the public
    history, :data:`ADDED_INFO`)."""
    v = rules.observe(state, seat)
    public = v.public.to_json()
    public.pop("history", None)
    legal = [a.to_json() for a in v.legal]
    info = {k: x for k, x in v.info.items() if k not in ADDED_INFO}
    return {"seat": v.seat, "hand": list(v.hand), "legal": legal, "info": info, "public": public}


def views_digest(rules: Any, state: Any, players: int) -> str:
    return digest([view_json(rules, state, p) for p in range(players)])


def _options(rules: Any, game: str, players: int, rng: random.Random) -> dict[str, Any]:
    options = rules.normalize_options(None)
    if game == "losers_game":  # random totals: every seat gets to name trump
        totals = [rng.randrange(-20, 30) for _ in range(players)]
        return dict(rules.deal_options(options, totals))
    if game == "early_french_tarot" and rng.random() < 0.5:
        options["every_card_scores"] = True
    if game == "queen_of_tarot" and rng.random() < 0.5:
        options["max_bargain"] = rng.choice((5, 43, 129))
    return options


_RARE = ("drop", "muck", "pass", "continue")


def _pick(legal: Any, rng: random.Random, style: int) -> Any:
    """A uniformly random legal action; in style 1, often a drop, muck, pass or continue,
    and bargaining amounts kept small so demands and offers meet."""
    if style:
        rare = [a for a in legal if a.type in _RARE]
        if rare and rng.random() < 0.6:
            return rare[rng.randrange(len(rare))]
        small = [a for a in legal if a.type in ("demand", "offer") and (a.amount or 0) <= 3]
        if small and rng.random() < 0.8:
            return small[rng.randrange(len(small))]
    return legal[rng.randrange(len(legal))]


def record_deal(game: str, players: int, seed: int) -> dict[str, Any]:
    from bot.engine import codec
    from bot.engine.deck import shuffle
    from bot.engine.registry import get_rules

    rules = get_rules(game)
    rng = random.Random(seed)
    options = _options(rules, game, players, rng)
    deck = list(shuffle(rules.pack(players), rng.randrange(2**63)))
    dealer = rng.randrange(players)
    state = rules.new_deal(players, options, deck, dealer)
    steps: list[dict[str, Any]] = []
    states: list[Any] = [state]
    style = seed % 2  # odd seeds lean to the rarer paths (drops, mucks, passes, settlements)
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
    picks = sorted(rng.sample(range(len(steps)), min(SNAPSHOTS, len(steps))))
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
    result = rules.result(state)
    assert result is not None
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


def record(game: str) -> dict[str, Any]:
    deals = [
        record_deal(game, players, 1000 * players + k)
        for players in GAMES[game]
        for k in range(DEALS * (3 if game == "queen_of_tarot" else 1))
    ]
    return {"game": game, "engine": "844e538", "deals": deals}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--root", required=True, help="checkout whose engine is recorded")
    parser.add_argument("--write", action="store_true", help="write the fixture files")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.root).resolve()))
    for game in GAMES:
        data = record(game)
        text = json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n"
        print(f"{game}: {len(data['deals'])} deals, {len(text) / 1024:.0f} KiB")
        if args.write:
            path = fixture_path(game)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)


if __name__ == "__main__":
    main()
