"""The long chaos run (issue 29): three bot processes (full controller stacks, see
``tests/cluster/chaos.py``) on one PostgreSQL database and one SimCord play 30 tables of all
five games, humans deciding at random from their DMs, while every few decisions one process
crashes (tasks cancelled mid-delivery, pool dropped) and restarts; Discord fails now and then.
Afterwards the checks of ``tests/cluster/chaos_checks.py``: summaries and results posted once,
one live table message showing the latest state, every DM hand right, every due notification
sent once, every table shown, every log replaying to its snapshot.

    python -m bench.chaos_bench --url postgresql://postgres@127.0.0.1:PORT/postgres
        [--tables 30] [--decisions 1500] [--kill-every 10] [--seed 29] [--calm]

``--url`` defaults to ``TEST_POSTGRES_URL`` (``scripts/test-with-postgres`` prints one; any
server works: a database ``trionfi_chaos_bench`` is created there and dropped after).
``--calm``: the same run without crashes or Discord failures (the checks must all pass: a
control that they find nothing in a healthy cluster). Prints kills, tables, decisions, what
was checked and every problem found, and the run's wall and CPU time; exits 1 if a check
failed.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import resource
import sys
import time
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import simcord

from bot.db.backends import open_database
from tests.cluster.chaos_play import Plan, Report, chaos_run, new_cluster

DATABASE = "trionfi_chaos_bench"


def _url(url: str, database: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{database}"))


async def _admin(url: str, sql: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def run(url: str, plan: Plan) -> Report:
    await _admin(url, f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    await _admin(url, f"CREATE DATABASE {DATABASE}")
    target = _url(url, DATABASE)
    db = await open_database(target)
    await db.migrate()
    await db.close()
    cluster = new_cluster(target, plan, time.time())
    bot = cluster.make_bot()
    # A loaded machine may take seconds to settle a click of three stacks: no false timeouts.
    env = simcord.Env(bot, check_errors=False, settle_timeout=60.0)
    await env.start()
    try:
        return await chaos_run(env, cluster, plan)
    finally:
        await env.shutdown()
        await bot.close()
        await _admin(url, f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


def main() -> None:
    parser = argparse.ArgumentParser(description="The long chaos run (issue 29).")
    parser.add_argument("--url", default=os.environ.get("TEST_POSTGRES_URL"))
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--humans", type=int, default=14)
    parser.add_argument("--decisions", type=int, default=1500)
    parser.add_argument("--kill-every", type=int, default=10)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--calm", action="store_true", help="no crashes, no Discord failures")
    args = parser.parse_args()
    if not args.url:
        parser.error("--url (or TEST_POSTGRES_URL) names a PostgreSQL server")
    plan = Plan(
        tables=args.tables,
        humans=args.humans,
        max_decisions=args.decisions,
        kill_every=0 if args.calm else args.kill_every,
        hiccup_every=0 if args.calm else 6,
        trap=0.0 if args.calm else 0.5,
        seed=args.seed,
    )
    # The crashes leave errors in the logs on purpose; the checks are the verdict.
    logging.basicConfig(level=logging.CRITICAL)
    start, cpu = time.perf_counter(), time.process_time()
    report = asyncio.run(run(args.url, plan))
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"chaos run: {'calm (control)' if args.calm else 'crashes every'} "
        f"{'' if args.calm else f'{plan.kill_every} decisions'}, seed {plan.seed}"
    )
    print("\n".join(report.lines()))
    print(
        f"time: {wall:.0f} s wall, {cpu:.0f} s CPU in this process "
        f"(+{children.ru_utime + children.ru_stime:.0f} s in children)"
    )
    assert report.findings is not None
    sys.exit(0 if report.findings.ok else 1)


if __name__ == "__main__":
    main()
