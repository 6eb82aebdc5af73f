"""The test suite's time on this machine, with the machine's own speed beside it.

Runs the README's test command (``scripts/test-with-postgres``) and reports pytest's own wall
time (its summary line), the whole command's wall and CPU time, and how many tests ran. The
machine the project is developed and checked on is a shared 2-core VM whose speed drifts by
up to half within a day (issue 27: one commit's suite took 234 s one evening and 375 s the
next), so a suite time means little alone. Each run therefore also times a fixed piece of
pure-Python work before and after the suite (``calibrate``: random French Tarot deals a second
through the engine, as ``engine_bench`` plays them): compare runs only beside it.

``--ref REV`` also times, at this commit, only the tests REV had (node ids collected in a
worktree of REV; the ones renamed or removed since are counted and left out): the same tests
as before a change, on today's code and today's machine. ``--ref-suite`` also runs REV's own
test command in that worktree with this virtualenv (the code as it was, with today's locked
dependencies). ``--record`` appends the rows to ``bench/results/suite_time.md``.

    .venv/bin/python bench/suite_time.py [--ref REV [--ref-suite]] [--record]
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import engine_bench  # noqa: E402  (bench/ is this script's directory)

RESULTS = ROOT / "bench" / "results" / "suite_time.md"
HEADER = (
    "| when (UTC) | commit | tests | what | pytest s | command s | CPU s "
    "| engine deals/s before / after |\n"
    "|---|---|---|---|---|---|---|---|\n"
)
SUMMARY = re.compile(r"(\d+) passed.* in ([\d.]+)s")


def calibrate() -> float:
    """The machine's speed now: random 4-player French Tarot deals a second through the engine
    (``engine_bench``), the best of three runs of about half a second."""
    rates = []
    for _ in range(3):
        deals, _steps, elapsed = engine_bench.bench("french_tarot", 0.5, 4, seed=7)
        rates.append(deals / elapsed)
    return max(rates)


def collect(tree: Path) -> list[str]:
    """The node ids pytest collects in ``tree``, with this interpreter."""
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "--collect-only", "-q"]
        + ["-p", "no:cacheprovider"],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    return [line for line in out.splitlines() if "::" in line]


def run_suite(tree: Path, args: list[str], log: Path) -> tuple[int, float, float, float]:
    """(tests passed, pytest's seconds, the command's wall seconds, its CPU seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with log.open("w") as out:
        status = subprocess.run(
            ["scripts/test-with-postgres", "-p", "no:cacheprovider", *args],
            cwd=tree,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
        ).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    found = [m for line in log.read_text().splitlines() if (m := SUMMARY.search(line))]
    if status != 0 or not found:
        sys.exit(f"error: the suite in {tree} failed (exit status {status}); see {log}")
    return int(found[-1][1]), float(found[-1][2]), wall, cpu


def git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--ref", help="also time, at this commit, only the tests REV had")
    parser.add_argument("--ref-suite", action="store_true", help="also run REV's own suite")
    parser.add_argument("--record", action="store_true", help=f"append to {RESULTS.name}")
    opts = parser.parse_args()
    if opts.ref_suite and not opts.ref:
        parser.error("--ref-suite needs --ref REV")
    commit = git("rev-parse", "--short", "HEAD")
    work = Path(tempfile.mkdtemp(prefix="suite-time-"))
    print(f"pytest's output: {work}/run*.log", flush=True)
    runs: list[tuple[str, str, Path, list[str]]] = [("whole suite", commit, ROOT, [])]
    rows: list[str] = []
    try:  # the worktree of REV is removed whatever happens after it is made
        if opts.ref:
            ref = git("rev-parse", "--short", opts.ref)
            tree = work / "ref"
            git("worktree", "add", "--detach", str(tree), ref)
            (tree / ".venv").symlink_to(Path(sys.prefix))
            now, then = set(collect(ROOT)), collect(tree)
            kept = [node for node in then if node in now]
            ids = work / "ids.txt"
            ids.write_text("\n".join(kept) + "\n")
            gone = len(then) - len(kept)
            what = f"{ref}'s tests ({gone} renamed or removed since)"
            runs.append((what, commit, ROOT, [f"@{ids}"]))
            if opts.ref_suite:
                runs.append((f"{ref}'s suite, its own command", ref, tree, []))
        for what, at, where, args in runs:
            before = calibrate()
            tests, pytest_s, wall, cpu = run_suite(where, args, work / f"run{len(rows)}.log")
            after = calibrate()
            when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M")
            rows.append(
                f"| {when} | {at} | {tests} | {what} | {pytest_s:.1f} | {wall:.1f} | {cpu:.0f} "
                f"| {before:,.0f} / {after:,.0f} |"
            )
            print(rows[-1], flush=True)
    finally:
        if (work / "ref").exists():
            git("worktree", "remove", "--force", str(work / "ref"))
    if opts.record:
        if not RESULTS.exists():
            RESULTS.write_text("# The test suite's time (bench/suite_time.py)\n\n" + HEADER)
        with RESULTS.open("a") as out:
            out.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
