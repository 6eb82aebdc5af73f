"""The chaos run (issue 29's proof): three bot processes (full controller stacks, see
``tests/cluster/chaos.py``) on one PostgreSQL database and one SimCord play mixed tables of
every game while one of them crashes every few decisions and restarts; afterwards everything
was posted exactly once and every message shows its table's latest state
(``tests/cluster/chaos_checks.py``). ``bench/chaos_bench.py`` is the longer run (30 tables).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
import simcord

from tests.backends import PostgresServer
from tests.cluster.chaos import ChaosBot, Cluster
from tests.cluster.chaos_play import Plan, chaos_run, new_cluster

PLAN = Plan(tables=10, humans=8, max_decisions=300, kill_every=8, restart_after=2, seed=29)


@pytest_asyncio.fixture
async def cluster(postgres_server: PostgresServer) -> AsyncIterator[Cluster]:
    url = await postgres_server.create()
    made = new_cluster(url, PLAN, time.time())
    try:
        yield made
    finally:
        if made.bot is not None:
            await made.bot.close()
        await postgres_server.drop(url)


@pytest.fixture
def simcord_bot(cluster: Cluster) -> ChaosBot:
    return cluster.make_bot()


@pytest.mark.heavy
# Crashes leave errors behind on purpose (logged); a loaded machine may take seconds to settle
# a click of three stacks.
@pytest.mark.simcord(check_errors=False, settle_timeout=60.0)
# Issue 29's races, each with its own test: a notification sent twice and a summary drawn over
# by a late table edit (tests/resilience/test_crash_races.py); a DM hand recorded over a newer
# one, so that the seat's recorded hand could be a deleted message (tests/db/
# test_outbox_leases.py: ``replace_dm`` is a compare-and-swap).
async def test_postgres_chaos_everything_shown_once(
    simcord_env: simcord.Env, cluster: Cluster
) -> None:
    report = await chaos_run(simcord_env, cluster, PLAN)
    print("\n".join(report.lines()))
    assert len(report.tables) == 5, "every game has tables"
    assert report.kills and report.restarts >= len(report.kills)
    assert report.findings is not None
    assert report.findings.ok, "\n".join(report.lines())
