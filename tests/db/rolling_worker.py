"""One "bot process" of ``test_two_processes_finishing_and_rolling_lose_nothing``: its own
connection (SQLite) or pool (PostgreSQL) on the shared database, finishing games among the
same twelve players as the other process and rolling the recent boards' window now and then.

    python -m tests.db.rolling_worker TARGET N

Prints ``ready``, waits for a line on stdin (so both processes start together), finishes 40
games (from concurrent tasks, two at a time), then prints ``finished 40``.
"""

from __future__ import annotations

import asyncio
import sys

from bot.db.backends import open_database
from bot.services.tables import TableService
from tests.db.rolling_check import DAY, History
from tests.services.conftest import Clock

T0 = 2_000_000_040.0
GAMES = 40


async def run(target: str, n: int) -> int:
    db = await open_database(target)
    try:
        # Each process has its own history (own seed, own channels); times interleave.
        history = History(db, 100 + n, T0, channel_base=n * 1_000_000)
        upkeep = TableService(db, clock=Clock(T0))
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        done = 0
        for i in range(GAMES // 2):
            await asyncio.gather(history.finish(), history.finish())
            done += 2
            if i % 3 == n % 3:  # both processes roll, at their own moments and clocks
                await upkeep.roll_boards(T0 + (i + 25) * DAY)
        return done
    finally:
        await db.close()


def main() -> None:
    done = asyncio.run(run(sys.argv[1], int(sys.argv[2])))
    print(f"finished {done}", flush=True)


if __name__ == "__main__":
    main()
