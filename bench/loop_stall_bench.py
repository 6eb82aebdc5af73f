"""Event-loop stalls under load (issue 14): many Loser's Game tables played at once.

The real bot runs in SimCord (the simulated Discord of the e2e tests) on a SQLite file in a
temporary directory. ``--tables`` channels each get a 6-seat Loser's Game table with one
human and 5 computers (the slowest game: a computer bid takes ~18 ms). Then, round after
round, every table's human makes their next decision from their DM hand (a bid, a trump or a
card, picked at random among what the hand offers). The round's interactions arrive as raw
INTERACTION_CREATE events at seeded random instants within ``--spread`` seconds (0: all at
once), without waiting for the bot, so the bot handles them all concurrently; then the bot
is let finish (its computer moves, database commits and DM/channel updates).

Measured during the rounds only (not while the tables open):

* loop stall: a ticker task on the bot's event loop sleeps 5 ms again and again; how late it
  wakes is how long the loop could not run anything else;
* acknowledgement latency: from an interaction's arrival to the moment its callback (the
  defer) reaches SimCord's Discord, in real time;
* service latency: each ``TableService.act`` call (lock, database, computer moves, commit);
* garbage-collector pauses (they hold the GIL, so they stall the loop from any thread).

Issue 14's targets: a worst stall of at most 50 ms and every interaction acknowledged within
1 s of its arrival. ``--inline`` runs engine and computer work on the event loop, as before
issue 14 (it replaces ``TableCore._off_loop`` and ``compute.run``), to compare; by default
computer players think in worker processes (``bot/services/compute.py``).

Note that SimCord's Discord runs on the same loop and heap (REST calls are handled in
process, not over the network), so the stall figures include its work too: they are an upper
bound. Its request log and transcript are emptied before each round (see ``forget_logs``).

    python -m bench.loop_stall_bench [--tables 50] [--rounds 15] [--seed 1] [--spread 1.0]
        [--inline]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord
from simcord.backend.models import Interaction as SimInteraction
from simcord.enums import InteractionType
from simcord.results import InteractionResult, to_discord_message

from bot.client import TrionfiBot
from bot.services import compute
from bot.services.core import TableCore
from bot.services.step import PlayStep
from bot.services.tables import TableService
from tests.resilience.drive import (
    Gesture,
    Table,
    World,
    _component_data,
    _emit,
    gestures,
    logged_errors,
    refusal,
)

GAME = "losers_game"
SEATS = 6
TICK = 0.005  # the ticker's sleep, seconds
STALL_TARGET_MS = 50.0
LONG_STALL_MS = 20.0  # stalls this long are broken down into running vs waiting for the GIL
ACK_TARGET_MS = 1000.0
_T = TypeVar("_T")

# SimCord marks an interaction answered in one of these methods of its interaction record,
# once the bot's callback request has been accepted.
_ANSWER_MARKERS = ("respond_with_message", "defer", "defer_update", "update_source", "show_modal")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))] if ordered else 0.0


class Ticker:
    """Sleeps ``TICK`` seconds in a loop on the event loop; records how late each wake-up is
    (while ``recording``), which is how long the loop was busy with something else, and how
    much CPU the loop's thread used meanwhile: a stall the thread spent running is work on the
    loop; the rest it spent waiting for the GIL, held by other threads (engine workers,
    aiosqlite, the garbage collector running in one of them), or for a CPU.

    Also records the garbage collector's pauses meanwhile (``gc_pauses``: generation and
    seconds): a collection holds the GIL, so it stalls the loop whichever thread runs it.
    """

    def __init__(self) -> None:
        self.recording = False
        self.lateness: list[float] = []  # seconds
        self.ran: list[float] = []  # the loop thread's CPU seconds during each lateness
        self.gc_pauses: list[tuple[int, float]] = []
        self._gc_start = 0.0
        self._task: asyncio.Task[None] | None = None

    def __enter__(self) -> Ticker:
        gc.callbacks.append(self._gc)
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
        elif self.recording:
            self.gc_pauses.append((info["generation"], time.perf_counter() - self._gc_start))

    def __exit__(self, *exc: object) -> None:
        self.recording = False
        if self._gc in gc.callbacks:
            gc.callbacks.remove(self._gc)
        if self._task is not None:
            self._task.cancel()  # it only sleeps: cancelled at its next wake-up

    async def _run(self) -> None:
        while True:
            was = self.recording
            before = time.perf_counter()
            cpu = time.thread_time()
            await asyncio.sleep(TICK)
            late = time.perf_counter() - before - TICK
            if was and self.recording:
                self.lateness.append(max(0.0, late))
                # CPU used over the whole interval, capped at the lateness: an upper bound of
                # how much of the stall the loop thread spent running.
                self.ran.append(min(max(0.0, late), time.thread_time() - cpu))


@contextmanager
def answer_clock(answered: dict[int, float]) -> Iterator[None]:
    """Records in ``answered`` (interaction id → ``perf_counter``) when SimCord's Discord
    accepts the first answer to each interaction."""
    saved = {name: getattr(SimInteraction, name) for name in _ANSWER_MARKERS}

    def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
        def marker(self: SimInteraction, *args: Any, **kwargs: Any) -> Any:
            answered.setdefault(self.id, time.perf_counter())
            return original(self, *args, **kwargs)

        return marker

    for name, original in saved.items():
        setattr(SimInteraction, name, wrap(original))
    try:
        yield
    finally:
        for name, original in saved.items():
            setattr(SimInteraction, name, original)


@contextmanager
def inline_engine() -> Iterator[None]:
    """Engine and computer work on the event loop, as before issue 14."""
    saved = TableCore._off_loop, compute.run

    async def on_loop(self: TableCore, fn: Callable[[], _T]) -> _T:
        return fn()

    def here(executor: object, fn: Callable[..., PlayStep], *args: object) -> PlayStep:
        return fn(*args)

    TableCore._off_loop = on_loop  # type: ignore[method-assign]
    compute.run = here  # type: ignore[assignment]
    try:
        yield
    finally:
        TableCore._off_loop, compute.run = saved  # type: ignore[method-assign,assignment]


def time_acts(service: TableService, timings: list[float]) -> None:
    """Append the duration of every ``service.act`` call (this service object only)."""
    original = service.act

    async def act(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            timings.append(time.perf_counter() - start)

    service.act = act  # type: ignore[method-assign]


def forget_logs(env: simcord.Env) -> None:
    """Empty SimCord's request log and transcript, which nothing here reads: they keep every
    payload of the run (~80,000 objects after 15 rounds, half the heap), and a heap that
    size makes the garbage collector's full collections, which stall the loop, twice as long
    as the bot's own objects would."""
    env.backend.http_requests.clear()
    env.backend.transcript.clear()


@dataclass
class Planned:
    """One human decision of a round: who, on which stored hand message, when it arrives."""

    table: Table
    member: Any
    message: Any  # SimCord's stored DM hand message
    gesture: Gesture
    offset: float  # seconds after the round's start


def kind_of(g: Gesture) -> str:
    cid = g.custom_id
    return "bid" if ":bid" in cid else "trump" if ":trump" in cid else "card"


async def plan(table: Table, rng: random.Random, spread: float) -> Planned | None:
    """The human's next decision at ``table`` (None once the game is over)."""
    hands = await table._stored_hands()
    (member,) = table.humans
    stored = hands.get(member.id)
    if stored is None or not stored.components:
        return None
    message = to_discord_message(table.world.env, stored)
    offered = [g for g in gestures(message) if g.kind in ("click", "select")]
    if not offered:
        return None
    return Planned(table, member, stored, rng.choice(offered), rng.uniform(0.0, spread))


@dataclass
class Results:
    rounds: int = 0
    interactions: int = 0
    refusals: list[str] = field(default_factory=list)  # the ⚠️ answers, if any
    errors: list[str] = field(default_factory=list)  # ERROR records logged meanwhile
    unanswered: int = 0
    setup: float = 0.0
    wall: float = 0.0
    ack: list[float] = field(default_factory=list)  # seconds, one per answered interaction
    #: round, decision kinds, worst stall, loop thread CPU during it, worst ack latency and
    #: round duration (seconds)
    per_round: list[tuple[int, str, float, float, float, float]] = field(default_factory=list)
    stalls: list[float] = field(default_factory=list)  # ticker lateness, seconds
    ran: list[float] = field(default_factory=list)  # loop thread CPU during each, seconds
    gc_pauses: list[tuple[int, float]] = field(default_factory=list)  # generation, seconds
    service: list[float] = field(default_factory=list)  # TableService.act, seconds


async def run(args: argparse.Namespace, db_path: Path) -> Results:
    rng = random.Random(args.seed)
    seeds = iter(range(args.seed * 1_000_000, args.seed * 1_000_000 + 1_000_000))
    bot = TrionfiBot(db_path, seed_source=lambda: next(seeds), sweep_every=None, shard_count=1)
    out = Results()
    answered: dict[int, float] = {}
    ticker = Ticker()
    act_times: list[float] = []
    try:
        async with simcord.run(bot, settle_timeout=300.0) as env:
            start = time.perf_counter()
            guild = env.create_guild("Loop Stall Club")
            tables: list[Table] = []
            for i in range(args.tables):
                channel = guild.create_text_channel(f"table-{i:02d}")
                member = guild.add_member(env.create_user(f"player{i:02d}"))
                world = World(env, guild, channel, [member])
                table = Table(world, GAME, [member], seed=rng.randrange(1 << 30))
                await table.open(SEATS, {})
                tables.append(table)
            out.setup = time.perf_counter() - start
            time_acts(bot.service, act_times)
            begin = time.perf_counter()
            with answer_clock(answered), ticker, logged_errors() as errors:
                for number in range(1, args.rounds + 1):
                    forget_logs(env)
                    planned = [p for t in tables if (p := await plan(t, rng, args.spread))]
                    if not planned:
                        break
                    planned.sort(key=lambda p: p.offset)
                    arrivals: dict[int, float] = {}
                    records: list[Any] = []
                    round_start = len(ticker.lateness)
                    ticker.recording = True
                    t0 = time.perf_counter()
                    for p in planned:
                        due = t0 + p.offset
                        if (wait := due - time.perf_counter()) > 0:
                            await asyncio.sleep(wait)
                        g = p.gesture
                        values = None if g.kind == "click" else [g.value]
                        record = _emit(
                            p.table.world,
                            p.member.id,
                            p.message.channel_id,
                            InteractionType.MESSAGE_COMPONENT,
                            _component_data(g.custom_id, values),
                            p.message,
                        )
                        arrivals[record.id] = due
                        records.append(record)
                    await env.settle(idle=0.001)
                    ticker.recording = False
                    took = time.perf_counter() - t0
                    acks = [answered[r.id] - arrivals[r.id] for r in records if r.id in answered]
                    out.ack += acks
                    out.unanswered += len(records) - len(acks)
                    refusals = [refusal(InteractionResult(env, r)) for r in records]
                    out.refusals += [text for text in refusals if text is not None]
                    out.interactions += len(records)
                    out.rounds = number
                    kinds = sorted({kind_of(p.gesture) for p in planned})
                    ticks = list(
                        zip(ticker.lateness[round_start:], ticker.ran[round_start:], strict=True)
                    )
                    stall, ran = max(ticks, default=(0.0, 0.0))
                    worst_ack = max(acks, default=0.0)
                    out.per_round.append((number, "+".join(kinds), stall, ran, worst_ack, took))
            out.wall = time.perf_counter() - begin
            out.errors = [
                r.getMessage() + (f": {r.exc_info[1]!r}" if r.exc_info else "")
                for r in errors.records
            ]
            out.stalls = ticker.lateness
            out.ran = ticker.ran
            out.gc_pauses = ticker.gc_pauses
            out.service = act_times
    finally:
        await bot.close()
    return out


def _gc_line(pauses: list[tuple[int, float]], *generations: int) -> str:
    ms = [t * 1000 for g, t in pauses if g in generations]
    return f"{len(ms)}, worst {max(ms, default=0.0):.1f} ms, total {sum(ms):.0f} ms"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--spread",
        type=float,
        default=1.0,
        help="seconds over which a round's interactions arrive (0: all at once)",
    )
    ap.add_argument(
        "--inline",
        action="store_true",
        help="run engine and computer work on the event loop (the behaviour before issue 14)",
    )
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        if args.inline:
            with inline_engine():
                res = asyncio.run(run(args, path))
        else:
            res = asyncio.run(run(args, path))

    stalls = [s * 1000 for s in res.stalls]
    acks = [a * 1000 for a in res.ack]
    service = [s * 1000 for s in res.service]
    where = "ON the event loop (--inline)" if args.inline else "in worker processes"
    print(
        f"Loser's Game, {args.tables} tables × {SEATS} seats (1 human + {SEATS - 1} computers); "
        f"engine and computer moves {where}"
    )
    print(
        f"tables opened in {res.setup:.1f} s; rounds: interactions arrive over "
        f"{args.spread:g} s each, then the bot finishes; seed {args.seed}"
    )
    print()
    print(
        f"{'round':>5}  {'decisions':<16}{'worst stall':>12}{'loop ran':>10}"
        f"{'worst ack':>11}{'round':>9}"
    )
    for number, kinds, stall, ran, ack, took in res.per_round:
        print(
            f"{number:>5}  {kinds:<16}{stall * 1000:>9.1f} ms{ran * 1000:>7.1f} ms"
            f"{ack * 1000:>8.1f} ms{took:>7.2f} s"
        )
    print()
    within = sum(a <= ACK_TARGET_MS for a in acks)
    worst_stall, worst_ran = max(
        zip(stalls, (r * 1000 for r in res.ran), strict=True), default=(0.0, 0.0)
    )
    long = [(t, r * 1000) for t, r in zip(stalls, res.ran, strict=True) if t >= LONG_STALL_MS]
    long_ran = sum(r for _, r in long) / max(sum(t for t, _ in long), 1e-9)
    worst_ack = max(acks, default=0.0)
    rows = [
        ("rounds", f"{res.rounds}"),
        (
            "interactions",
            f"{res.interactions} ({len(res.refusals)} refused, {res.unanswered} unanswered)",
        ),
        ("wall time of the rounds", f"{res.wall:.1f} s"),
        ("worst loop stall", f"{worst_stall:.1f} ms (the loop thread ran {worst_ran:.1f} ms)"),
        (
            f"stalls ≥ {LONG_STALL_MS:g} ms",
            f"{len(long)}, the loop thread ran {long_ran:.0%} of that time "
            "(the rest: waiting for the GIL or a CPU)",
        ),
        ("p99 / median loop stall", f"{_pct(stalls, 0.99):.1f} / {_pct(stalls, 0.5):.2f} ms"),
        ("ticks measured", f"{len(stalls)} (every {TICK * 1000:g} ms while a round runs)"),
        ("acknowledged within 1 s", f"{within}/{res.interactions}"),
        ("worst ack latency", f"{worst_ack:.1f} ms"),
        ("p99 / median ack latency", f"{_pct(acks, 0.99):.1f} / {_pct(acks, 0.5):.1f} ms"),
        ("GC pauses, generation 2", _gc_line(res.gc_pauses, 2)),
        ("GC pauses, generations 0-1", _gc_line(res.gc_pauses, 0, 1)),
        (
            "service act latency",
            f"median {statistics.median(service) if service else 0.0:.1f} ms · "
            f"p99 {_pct(service, 0.99):.1f} ms · max {max(service, default=0.0):.1f} ms "
            f"({len(service)} calls)",
        ),
    ]
    if res.errors:
        rows.append(("errors logged by the bot", f"{len(res.errors)}, first: {res.errors[0]}"))
    for text in sorted(set(res.refusals))[:3]:
        rows.append(("refused with", text.replace("\n", " ")[:120]))
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")
    stall_ok = worst_stall <= STALL_TARGET_MS
    ack_ok = within == res.interactions and res.unanswered == 0 and res.interactions > 0
    print()
    print(
        f"target worst stall ≤ {STALL_TARGET_MS:g} ms: {'met' if stall_ok else 'NOT met'} · "
        f"target every ack ≤ 1 s: {'met' if ack_ok else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
