"""Picture rendering: time and size of the table, hand and turn images of every game.

Plays seeded random deals (every player count of each game in turn) and, at every decision,
renders the public table (with the current trick's winner framed), the hand of the seat to
act and that seat's turn picture (the table above its hand, with scores), each from scratch:
the picture cache is emptied before every render, so the figures are for new pictures (the
card tiles and the palette stay drawn, as in a running bot; their one-off cost per game is
reported as "warm-up"). Targets: p95 ≤ 20 ms and ≤ 150 KB.

    .venv/bin/python -m bench.picture_bench [--game la_morte] [--deals 6] [--seed 1]
        [--save DIR]   # also write the last table, hand and turn of each game as PNG files
        [--cpu]        # time the rendering thread's CPU, not the wall clock: on a machine
                       # shared with other work, what rendering costs rather than waits
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.deck import shuffle
from bot.engine.registry import get_rules, implemented
from bot.engine.rules import Rules
from bot.ui.pictures import clear_caches, render_hand, render_table, render_turn, warm_up
from bot.ui.pictures.encode import hand_png, table_png, turn_png
from bot.ui.text.winner import winning_seat

KINDS = ("table", "hand", "turn")
_clock = time.perf_counter
NAMES = ("Alice", "Bartholomew", "Chiara", "Dmitri", "Eleonora", "Fitzgerald")


def _states(rules: Rules, deals: int, seed: int) -> list[tuple[Any, int]]:
    """(state, players) at every decision of ``deals`` random deals."""
    rng = random.Random(seed)
    out: list[tuple[Any, int]] = []
    counts = list(range(rules.min_players, rules.max_players + 1))
    for d in range(deals):
        players = counts[d % len(counts)]
        options = rules.deal_options(rules.normalize_options(None), [0] * players)
        deck = shuffle(rules.pack(players), rng.randrange(2**63))
        state = rules.new_deal(players, options, deck, d % players)
        while rules.to_act(state) is not None:
            out.append((state, players))
            action = rng.choice(rules.legal_actions(state))
            if action.type in rules.multi_card_types:
                action = rules.random_choice(rules.observe(state, action.seat), action, rng)
            state, _ = rules.apply(state, action)
        out.append((state, players))
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench(game: str, deals: int, seed: int, save: Path | None) -> dict[str, Any]:
    rules = get_rules(game)
    states = _states(rules, deals, seed)
    start = _clock()
    warm_up([game])
    warm = _clock() - start
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    sizes: dict[str, list[int]] = {kind: [] for kind in KINDS}
    table = hand = turn = b""
    for state, players in states:
        view = rules.observe_public(state)
        seat = view.to_act if view.to_act is not None else 0
        table_png.cache_clear()
        t0 = _clock()
        table = render_table(view, game_id=game, names=NAMES[:players], winning=winning_seat(view))
        t1 = _clock()
        hand_png.cache_clear()
        seat_view = rules.observe(state, seat)
        t2 = _clock()
        hand = render_hand(seat_view, game_id=game)
        t3 = _clock()
        turn_png.cache_clear()
        t4 = _clock()
        turn = render_turn(
            seat_view,
            game_id=game,
            names=NAMES[:players],
            winning=winning_seat(view),
            scores=tuple(range(-40, -40 + 37 * players, 37)),
        )
        t5 = _clock()
        for kind, took, data in (
            ("table", t1 - t0, table),
            ("hand", t3 - t2, hand),
            ("turn", t5 - t4, turn),
        ):
            times[kind].append(took)
            sizes[kind].append(len(data))
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
        (save / f"{game}_table.png").write_bytes(table)
        (save / f"{game}_hand.png").write_bytes(hand)
        (save / f"{game}_turn.png").write_bytes(turn)
    return {"game": game, "renders": len(states), "warm": warm, "times": times, "sizes": sizes}


def main() -> None:
    parser = argparse.ArgumentParser(description="Table and hand picture render time and size.")
    parser.add_argument("--game", choices=sorted(implemented()), default=None)
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", type=Path, default=None)
    parser.add_argument("--cpu", action="store_true", help="time CPU, not the wall clock")
    args = parser.parse_args()
    if args.cpu:
        global _clock
        _clock = time.thread_time
    clear_caches(faces=True)
    print(
        f"{'game':<20} {'pics':>5} {'warm-up':>8}  {'kind':<5} {'p50 ms':>7} {'p95 ms':>7} "
        f"{'max ms':>7} {'mean KB':>8} {'max KB':>7}"
    )
    worst_p95, worst_kb = 0.0, 0.0
    for game in [args.game] if args.game else list(implemented()):
        r = bench(game, args.deals, args.seed, args.save)
        warm = f"{r['warm'] * 1e3:.0f} ms"
        for kind in KINDS:
            t, s = r["times"][kind], r["sizes"][kind]
            p95 = _pct(t, 0.95) * 1e3
            worst_p95 = max(worst_p95, p95)
            worst_kb = max(worst_kb, max(s) / 1024)
            print(
                f"{game if kind == 'table' else '':<20} "
                f"{r['renders'] if kind == 'table' else '':>5} "
                f"{warm if kind == 'table' else '':>8}  {kind:<5} "
                f"{_pct(t, 0.5) * 1e3:7.2f} {p95:7.2f} {max(t) * 1e3:7.2f} "
                f"{sum(s) / len(s) / 1024:8.1f} {max(s) / 1024:7.1f}"
            )
    verdict = "OK" if worst_p95 <= 20 and worst_kb <= 150 else "OVER TARGET"
    print(
        f"worst p95 {worst_p95:.2f} ms, largest {worst_kb:.1f} KB "
        f"(targets 20 ms, 150 KB): {verdict}"
    )


if __name__ == "__main__":
    main()
