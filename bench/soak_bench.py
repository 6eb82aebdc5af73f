"""Soak: many finished games through the services and the publisher in one process, and what
the process's memory did meanwhile (issue 29, defect 6: per-table caches grew for ever).

Each game is a La Morte table of a human and two computers on a temporary SQLite file:
opened, started, a few decisions, then the player resigns (every hundredth game is played to
its end instead, on the shortest options). Every commit is published as the bot does, through a real
``Publisher`` with an in-memory Discord (``FakeDiscord``: channels that accept every post,
edit and delete) and plain screens (``PlainScreens``: text only, no pictures), so what is
measured is the services, the publisher and their caches, not embeds or Pillow.

Memory is measured after a warm-up (the first ``--warmup`` games: imports, statement caches,
the allocator's arenas) and after the rest: the process's RSS (``/proc/self/statm``) and the
Python heap (``tracemalloc``, off unless ``--tracemalloc``: it slows every allocation), plus
the size of every per-table cache.

    python -m bench.soak_bench [--games 100000] [--warmup 2000] [--tracemalloc]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import os
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord.components import _component_factory  # pyright: ignore[reportPrivateUsage]
from discord.ui.view import BaseView

from bot.ai import choose_action
from bot.db.backends import open_database
from bot.engine.registry import get_rules
from bot.services.models import Outcome, SeatInfo, TableInfo
from bot.services.tables import TableService
from bot.ui.delivery.publisher import Publisher

GAME = "la_morte"
SHORT = {"target": 1, "round_limit": 1}  # the shortest La Morte match


class Inline(Executor):
    """Runs each job at once in the calling thread: no process pool to pickle to (the bench
    measures this process; worker processes hold no table state anyway)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as e:
            future.set_exception(e)
        return future


@dataclass
class _Message:
    id: int
    channel: _Channel
    # What it was sent with, as Discord answers a send (the bot checks that the answer shows
    # what it sent: ``bot.ui.delivery.jobs.shows``).
    content: str | None = None
    components: list[Any] = field(default_factory=list[Any])
    embeds: list[discord.Embed] = field(default_factory=list[discord.Embed])

    async def edit(self, **fields: Any) -> None:
        self.channel.discord.requests += 1

    async def delete(self) -> None:
        self.channel.discord.requests += 1


@dataclass
class _Channel:
    id: int
    discord: FakeDiscord

    async def send(self, *args: Any, **fields: Any) -> _Message:
        self.discord.requests += 1
        view, embed = fields.get("view"), fields.get("embed")
        drawn = view.to_components() if isinstance(view, BaseView) else []
        return _Message(
            next(self.discord.ids),
            self,
            fields.get("content"),
            [c for c in map(_component_factory, drawn) if c is not None],
            [embed] if isinstance(embed, discord.Embed) else [],
        )

    def get_partial_message(self, message_id: int) -> _Message:
        return _Message(message_id, self)


class FakeDiscord:
    """The ``Messenger`` a publisher needs: channels and DMs that accept everything and keep
    nothing (so the only memory that can grow is the bot's own)."""

    def __init__(self) -> None:
        self.ids = itertools.count(10**15)
        self.requests = 0

    def get_channel(self, id: int, /) -> None:
        return None  # no gateway cache: the bot assumes every permission

    def get_partial_messageable(self, id: int, **_: Any) -> Any:
        return _Channel(id, self)

    async def create_dm(self, user: discord.abc.Snowflake) -> Any:
        return _Channel(user.id + 1, self)


class PlainScreens:
    """The ``Screens`` a publisher needs, as one line of text each."""

    def lobby_message(self, table: TableInfo) -> dict[str, Any]:
        return {"content": f"lobby {table.id}", "embed": None, "view": None}

    def table_message(self, outcome: Outcome) -> dict[str, Any]:
        return {"content": f"table {outcome.table.id} seq {outcome.table.seq}", "view": None}

    def finished_table(self, outcome: Outcome) -> dict[str, Any]:
        return {"content": f"table {outcome.table.id} over", "view": None}

    def rematch_view(self, table: TableInfo) -> None:
        return None

    async def daily_result(self, table: TableInfo) -> dict[str, Any]:
        return {"content": f"daily {table.id}"}

    async def hand_with_picture(
        self, outcome: Outcome, seat: int, user_id: int | None
    ) -> dict[str, Any]:
        view = outcome.seat_views.get(seat)
        hand = "" if view is None else " ".join(view.hand)
        return {"content": f"hand {outcome.table.id}/{seat}: {hand}", "view": None}

    def closed_hand(self, table: TableInfo, seat: SeatInfo | None = None) -> dict[str, Any]:
        return {"content": f"closed {table.id}", "view": None}

    def handed_over(self, table: TableInfo, seat: SeatInfo) -> dict[str, Any]:
        return {"content": f"handed over {table.id}/{seat.seat}", "view": None}


def cache_sizes(publisher: Publisher, service: TableService) -> dict[str, tuple[int, int | None]]:
    """Every per-table cache of the publisher and the service: (entries, cap; None: a queue
    or a weak mapping, which empties by itself)."""
    channel = publisher.channel
    p: Any = publisher
    s: Any = service
    c: Any = channel
    return {
        name: (len(cache), getattr(cache, "cap", None))
        for name, cache in {
            "publisher.shown": publisher.shown,
            "publisher._refused_since": p._refused_since,
            "publisher._pending": p._pending,
            "publisher._parked": p._parked,
            "publisher._tasks": p._tasks,
            "channel._probed": c._probed,
            "channel._refusing": c._refusing,
            "notices._told": c.notices._told,
            "service._memo": s._memo,
            "service._hints": s._hints,
            "service._reviews": s._reviews,
            "service._thinking": s._thinking,
            "service._locks": s._locks._turns,
            "service._channel_locks": s._channel_locks,
        }.items()
    }


class Soak:
    """Plays games through ``service`` and ``publisher``, one after another. With ``other``
    (another process's publisher, as in a cluster, where any process may take a table's
    next click), every other game's last commit is delivered by ``other``: ``publisher``,
    which showed the game until then, is never told it ended."""

    def __init__(
        self,
        service: TableService,
        publisher: Publisher,
        seed: int = 1,
        other: Publisher | None = None,
    ) -> None:
        self.service = service
        self.publisher = publisher
        self.other = other
        self.rng = random.Random(seed)
        self.games = 0
        self.decisions = 0
        self.rules = get_rules(GAME)

    async def game(self) -> None:
        """One table from lobby to its end, each commit published and delivered."""
        self.games += 1
        n = self.games
        svc, pub = self.service, self.publisher
        host = 1000 + n  # a new player each game: per-user caches would grow too
        channel = 1000 + n % 500  # tables share channels, as on a real server
        table = await svc.open_lobby(n % 50 + 1, channel, host, "Ada", GAME, 3, SHORT, 2)
        await svc.set_message(table.id, next(pub.bot.ids))  # type: ignore[attr-defined]
        out = await svc.start(table.id, host)
        pub.publish(out)
        to_the_end = n % 100 == 0
        moves = 0
        while not out.finished and out.table.status == "playing":
            if not to_the_end and moves >= 1 + n % 3:
                break
            seat = out.public.to_act if out.public else None
            assert seat is not None and seat in out.seat_views
            user = out.table.seats[seat].user_id
            assert user is not None
            payload = choose_action(self.rules, out.seat_views[seat], self.rng).to_json()
            payload.pop("seat")
            out = await svc.act(table.id, user, payload)
            moves += 1
            if not out.finished:
                pub.publish(out)
        self.decisions += moves
        # Delivered before the end is committed: in a cluster the end may come from another
        # process, after this one showed the game so far (and kept its fingerprints).
        await pub.drain()
        if not out.finished and out.table.status == "playing":
            out = await svc.resign(table.id, host)  # no human left: abandoned
        last = pub if self.other is None or n % 2 else self.other
        last.publish(out)  # the table's end
        await last.drain()


def rss() -> int:
    """This process's resident memory, in bytes (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@dataclass
class Reading:
    games: int
    rss: int
    heap: int | None
    seconds: float


def _read(soak: Soak, started: float) -> Reading:
    gc.collect()
    heap = tracemalloc.get_traced_memory()[0] if tracemalloc.is_tracing() else None
    return Reading(soak.games, rss(), heap, time.perf_counter() - started)


async def open_soak(db_path: Path, *, cluster: bool = False) -> tuple[Soak, Callable[[], Any]]:
    """A service and a publisher on a fresh database at ``db_path`` (``cluster``: and
    another process's publisher, see ``Soak``); returns the soak and an async closer."""
    db = await open_database(db_path)
    await db.migrate()
    seeds = itertools.count(1)
    service = TableService(
        db, seed_source=lambda: next(seeds), workers=Inline(), processes=Inline()
    )
    publisher = Publisher(FakeDiscord(), service, PlainScreens())
    other = Publisher(FakeDiscord(), service, PlainScreens()) if cluster else None
    return Soak(service, publisher, other=other), db.close


async def run(games: int, warmup: int, db_path: Path, every: int) -> list[Reading]:
    soak, close = await open_soak(db_path)
    started = time.perf_counter()
    readings: list[Reading] = []
    try:
        for i in range(1, games + 1):
            await soak.game()
            if i in (warmup, games) or (i > warmup and (i - warmup) % every == 0):
                readings.append(_read(soak, started))
                r = readings[-1]
                heap = "" if r.heap is None else f", heap {r.heap / 2**20:.1f} MiB"
                print(
                    f"{r.games:>7} games  {r.seconds:7.1f} s  RSS {r.rss / 2**20:7.1f} MiB{heap}",
                    flush=True,
                )
        sizes = cache_sizes(soak.publisher, soak.service)
    finally:
        await close()
    print("caches after:", ", ".join(f"{k} {n}" for k, (n, _) in sizes.items()))
    print(f"decisions: {soak.decisions}, Discord requests: {soak.publisher.bot.requests}")  # type: ignore[attr-defined]
    return readings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--warmup", type=int, default=2_000)
    parser.add_argument("--every", type=int, default=10_000, help="games between readings")
    parser.add_argument("--tracemalloc", action="store_true", help="also trace the Python heap")
    parser.add_argument("--limit-mib", type=float, default=50.0, help="allowed growth")
    args = parser.parse_args(argv)
    if args.tracemalloc:
        tracemalloc.start()
    with tempfile.TemporaryDirectory() as tmp:
        readings = asyncio.run(
            run(args.games, min(args.warmup, args.games), Path(tmp) / "soak.sqlite3", args.every)
        )
    first, last = readings[0], readings[-1]
    grew = (last.rss - first.rss) / 2**20
    per_game = (last.seconds - first.seconds) / max(1, last.games - first.games) * 1000
    print(
        f"RSS after {first.games} games {first.rss / 2**20:.1f} MiB, after {last.games} games "
        f"{last.rss / 2**20:.1f} MiB: {grew:+.1f} MiB ({per_game:.2f} ms a game)"
    )
    if first.heap is not None and last.heap is not None:
        print(f"Python heap: {(last.heap - first.heap) / 2**20:+.1f} MiB")
    return 0 if grew <= args.limit_mib else 1


if __name__ == "__main__":
    sys.exit(main())
