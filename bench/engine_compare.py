"""Engine speed side by side: random deals per second of two source trees in one run.

Both trees (``--baseline``, e.g. a git worktree of an older commit, and ``--new``, this
repository by default) play the same seeded workload as ``bench/engine_bench.py``: each deal
shuffles a fresh deck (seeded Fisher–Yates), deals it, then repeatedly asks for the legal
actions and applies a uniformly random one (multi-card templates completed by
``Rules.random_choice``) until the deal is over, through the public API only (``to_act``,
``legal_actions``, ``observe``, ``random_choice``, ``apply``, ``result``).

Every measurement runs in a fresh subprocess whose import path is the tree measured; rounds
alternate which tree goes first, so machine-load noise falls on both. Per game and player
count it prints the deals/s of each tree (total deals / total time over the rounds) and the
ratio new/baseline. ``--fast`` adds the new tree on its trusted simulation path
(``Rules.apply_trusted(state, action)`` for single-card actions, as computer players use it;
``apply`` for multi-card choices), reported separately from the public-API ratio.
``--clock cpu`` times each run by its process's CPU time instead of the wall clock: on a
machine shared with other jobs, time spent waiting for a core then counts for neither tree.
The workload's loop runs inside a function (its names fast locals, as in any real caller);
``--module-loop`` runs it at module level instead, where every name is a dict access: a
fixed cost per step, paid alike by both trees, that narrows their ratio.

The workload's random stream depends only on the seed, the legal actions' order and
``random_choice``, so two engines with the same behaviour play the very same deals: each run
also reports a digest of its deals' results, and the table says whether both trees' digests
agree over the deals both completed (``same deals``).

    python -m bench.engine_compare --baseline /tmp/engine-baseline \\
        --games french_tarot --players 4 --seconds 3 --rounds 3 [--fast]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: Runs inside the measured tree (its root is the subprocess's cwd and import path): the
#: setup, then ``LOOP`` (in a function by default, see ``worker``), then the report.
SETUP = r"""
import hashlib, json, random, sys, time
from bot.engine.deck import shuffle
from bot.engine.registry import get_rules

game, players, seconds, seed, mode, clock = (
    sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
)
now = time.process_time if clock == "cpu" else time.perf_counter
rules = get_rules(game)
pack = rules.pack(players)
options = rules.normalize_options(None)
multi = rules.multi_card_types
trusted = getattr(rules, "apply_trusted", None) if mode == "fast" else None
fast = trusted is not None
"""
LOOP = r"""
rng = random.Random(seed)
digest = hashlib.sha256()
digests = []
deals = steps = 0
start = now()
deadline = start + seconds
while True:
    deck = shuffle(pack, rng.randrange(2**63))
    state = rules.new_deal(players, options, deck, deals % players)
    while (seat := rules.to_act(state)) is not None:
        legal = rules.legal_actions(state)
        action = legal[int(rng.random() * len(legal))]
        if action.type in multi:
            action = rules.random_choice(rules.observe(state, seat), action, rng)
            state = rules.apply(state, action)[0]
        elif fast:
            state = trusted(state, action)[0]
        else:
            state = rules.apply(state, action)[0]
        steps += 1
    result = rules.result(state)
    assert result is not None
    digest.update(repr((result.outcome, tuple(result.deltas))).encode())
    deals += 1
    if deals % 64 == 0:
        digests.append(digest.hexdigest()[:16])
        if now() >= deadline:
            break
elapsed = now() - start
"""
REPORT = r"""
print(json.dumps({
    "deals": deals, "steps": steps, "elapsed": elapsed, "digests": digests, "fast": fast
}))
"""


def worker(module_loop: bool = False) -> str:
    """The worker's source. By default ``LOOP`` runs inside a function, as
    ``bench/engine_bench.py``'s does and as any caller's loop would: its names are then fast
    locals. At module level (``module_loop``, this script's form until issue 18's last
    measurement) every name the loop touches is a dict lookup and store, a fixed cost per step
    that both trees pay alike and that narrows the ratio between them."""
    if module_loop:
        return SETUP + LOOP + REPORT
    body = "".join(f"    {line}\n" if line else "\n" for line in LOOP.strip("\n").split("\n"))
    run = "def run():\n" + body + "    return deals, steps, elapsed, digests\n"
    return SETUP + run + "deals, steps, elapsed, digests = run()\n" + REPORT


@dataclass
class Tally:
    """Sum of one tree's runs for one game and player count."""

    deals: int = 0
    steps: int = 0
    elapsed: float = 0.0
    digests: list[list[str]] = field(default_factory=list[list[str]])
    fast: bool = False

    def add(self, run: dict[str, object]) -> None:
        self.deals += int(run["deals"])  # type: ignore[arg-type]
        self.steps += int(run["steps"])  # type: ignore[arg-type]
        self.elapsed += float(run["elapsed"])  # type: ignore[arg-type]
        self.digests.append(list(run["digests"]))  # type: ignore[arg-type]
        self.fast = bool(run["fast"])

    @property
    def rate(self) -> float:
        return self.deals / self.elapsed if self.elapsed else 0.0


def run_tree(
    tree: Path,
    game: str,
    players: int,
    seconds: float,
    seed: int,
    mode: str,
    clock: str = "wall",
    module_loop: bool = False,
) -> dict[str, object]:
    """One measurement in a fresh interpreter importing ``bot`` from ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    args = [
        sys.executable,
        "-c",
        worker(module_loop),
        game,
        str(players),
        str(seconds),
        str(seed),
        mode,
        clock,
    ]
    out = subprocess.run(args, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"{tree} {game} {players}p failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def same_deals(a: Tally, b: Tally) -> str:
    """Whether both trees' seeded deals gave the same results, round by round."""
    verdict = "yes"
    for da, db in zip(a.digests, b.digests, strict=True):
        common = min(len(da), len(db))
        if common == 0:
            verdict = "n/a"
        elif da[common - 1] != db[common - 1]:
            return "NO"
    return verdict


def player_counts(tree: Path, game: str) -> list[int]:
    code = (
        "import sys; from bot.engine.registry import get_rules; r = get_rules(sys.argv[1]); "
        "print(r.min_players, r.max_players)"
    )
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [sys.executable, "-c", code, game], cwd=tree, env=env, capture_output=True, text=True
    )
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    low, high = map(int, out.stdout.split())
    return list(range(low, high + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="root of the old tree")
    parser.add_argument("--new", type=Path, default=REPO, help="root of the new tree")
    parser.add_argument(
        "--games",
        nargs="+",
        default=["la_morte", "early_french_tarot", "french_tarot", "losers_game", "queen_of_tarot"],
        help="game ids (space- or comma-separated)",
    )
    parser.add_argument(
        "--players", nargs="*", type=int, default=[], help="player counts (default: every one)"
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="per run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--fast", action="store_true", help="also time the new tree's apply_trusted path"
    )
    parser.add_argument(
        "--clock",
        choices=["wall", "cpu"],
        default="wall",
        help="time each run by the wall clock (default) or by its process's CPU time, which "
        "time-sharing with other jobs on a busy machine does not inflate",
    )
    parser.add_argument(
        "--module-loop",
        action="store_true",
        help="run the workload's loop at module level (the harness before issue 18's last "
        "measurement) instead of inside a function",
    )
    args = parser.parse_args()
    games = [g for item in args.games for g in item.split(",") if g]
    base, new = args.baseline.resolve(), args.new.resolve()
    print(f"baseline: {base}\nnew:      {new}\n{args.rounds} rounds x {args.seconds:g} s per run")
    print(f"clock: {args.clock}; loop: {'module level' if args.module_loop else 'in a function'}")
    header = f"{'game':<20}{'p':>2} {'baseline/s':>11} {'new/s':>11} {'ratio':>7}  same deals"
    if args.fast:
        header += f" {'fast/s':>11} {'ratio':>7}  same"
    print(header)
    for game in games:
        counts = args.players or player_counts(new, game)
        for players in counts:
            tallies = {"base": Tally(), "new": Tally(), "fast": Tally()}
            trees = {"base": (base, "public"), "new": (new, "public"), "fast": (new, "fast")}
            kinds = ["base", "new"] + (["fast"] if args.fast else [])
            for r in range(args.rounds):
                order = kinds if r % 2 == 0 else kinds[::-1]
                for kind in order:
                    tree, mode = trees[kind]
                    run = run_tree(
                        tree,
                        game,
                        players,
                        args.seconds,
                        args.seed + r,
                        mode,
                        args.clock,
                        args.module_loop,
                    )
                    tallies[kind].add(run)
            b, n = tallies["base"], tallies["new"]
            line = (
                f"{game:<20}{players:>2} {b.rate:>11,.0f} {n.rate:>11,.0f} "
                f"{n.rate / b.rate:>6.2f}x  {same_deals(b, n):<10}"
            )
            if args.fast:
                f = tallies["fast"]
                label = "" if f.fast else " (no apply_trusted)"
                line += f" {f.rate:>11,.0f} {f.rate / b.rate:>6.2f}x  {same_deals(b, f)}{label}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
