"""One "bot process" of the cluster test: its own asyncpg pool and TableService on the shared
PostgreSQL database, playing every table it is given against the other process.

    python -m tests.cluster.worker URL SEED TABLE_ID...

Prints ``ready``, waits for a line on stdin (so both processes start together), then until
every table has ended: for each table, the human to act clicks (with a double click now and
then), away seats press "I'm back", and every few rounds it sweeps (reminders and turn
notifications due; now and then turns overdue). Both processes pick the same decision for the
same table state, so they collide on purpose. At the end it prints one JSON line: what each
call returned, for the test to check that everything applied exactly once.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bot.ai import la_morte
from bot.db.backends import open_database
from bot.services.errors import ServiceError
from bot.services.models import Outcome
from bot.services.tables import TableService

CLOCK = 45.0  # the tables' turn clock ("fast")
REMINDER_SWEEP = CLOCK * 0.7  # sweeping this far ahead: reminders and notifications are due
EXPIRY_SWEEP = CLOCK * 1.2  # this far: every waiting human's turn is overdue
#: Rounds (a decision for each open table), not seconds: how far the games get must not depend
#: on how fast or loaded the machine is (the 90-second deadline this replaces could leave
#: tables unfinished on a busy machine). The games end within about 30 rounds; a table that
#: never ends still stops the process, and the test then reports it unfinished.
MAX_ROUNDS = 500


def decision(out: Outcome) -> tuple[int, dict[str, Any]] | None:
    """The human to act and their choice: the computer policy seeded by the table and its
    seq, so both processes choose the same for the same state."""
    if out.table.status != "playing" or out.public is None or out.public.to_act is None:
        return None
    seat = out.public.to_act
    user = out.table.seats[seat].user_id
    if user is None or seat not in out.seat_views:
        return None
    rng = random.Random(out.table.id * 100_003 + out.table.seq)
    payload = la_morte.choose(out.seat_views[seat], rng).to_json()
    del payload["seat"]
    return user, payload


async def play(url: str, seed: int, tables: list[int]) -> dict[str, list[Any]]:
    rng = random.Random(seed)
    db = await open_database(url)
    # Computer moves think in a thread here: one forkserver pool per test process is enough.
    service = TableService(db, processes=ThreadPoolExecutor(2))
    record: dict[str, list[Any]] = {
        "acts": [],  # [table, seq seen, payload, "ok" | error class, seq after]
        "backs": [],  # [table, user, "ok" | error class]
        "reminders": [],  # [table, seq, seat]
        "notifications": [],  # [table, seq, seat]
        "expired": [],  # [table, seq after]
    }
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    rounds = 0
    try:
        while rounds < MAX_ROUNDS:
            open_tables = 0
            for table_id in rng.sample(tables, len(tables)):
                out = await service.snapshot(table_id)
                if out.table.status != "playing":
                    continue
                open_tables += 1
                for seat in out.table.seats:
                    if seat.user_id is not None and seat.expiries >= 2:
                        try:
                            await service.im_back(table_id, seat.user_id)
                            record["backs"].append([table_id, seat.user_id, "ok"])
                        except ServiceError as e:
                            record["backs"].append([table_id, seat.user_id, type(e).__name__])
                        out = await service.snapshot(table_id)
                chosen = decision(out)
                if chosen is None:
                    continue
                user, payload = chosen
                clicks = 2 if rng.random() < 0.3 else 1  # a double click
                results = await asyncio.gather(
                    *(
                        service.act(table_id, user, payload, expect_deal=out.deal_number)
                        for _ in range(clicks)
                    ),
                    return_exceptions=True,
                )
                for r in results:
                    if isinstance(r, Outcome):
                        record["acts"].append([table_id, out.table.seq, payload, "ok", r.table.seq])
                    elif isinstance(r, ServiceError):
                        record["acts"].append([table_id, out.table.seq, payload, type(r).__name__])
                    else:
                        raise r
            if not open_tables:
                break
            rounds += 1
            if rounds % 3 == 0:
                ahead = EXPIRY_SWEEP if rng.random() < 0.25 else REMINDER_SWEEP
                report = await service.sweep(time.time() + ahead)
                record["reminders"] += [[r.table.id, r.table.seq, r.seat] for r in report.reminders]
                record["notifications"] += [
                    [n.table.id, n.table.seq, n.seat] for n in report.notifications
                ]
                record["expired"] += [[o.table.id, o.table.seq] for o in report.expired]
    finally:
        await db.close()
    return record


def main() -> None:
    url, seed, *tables = sys.argv[1:]
    record = asyncio.run(play(url, int(seed), [int(t) for t in tables]))
    print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
