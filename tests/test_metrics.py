"""Prometheus metrics (issue 29): a bot with ``METRICS_PORT`` serves ``/metrics`` and its numbers
follow a game played through SimCord; a bot without it opens no port and records nothing."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio
import simcord
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.client import TrionfiBot, create_bot
from bot.settings import ConfigError, load_settings
from tests.e2e.conftest import SEED
from tests.resilience.drive import Table, make_world


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _listening_ports() -> set[int]:
    """TCP ports this process listens on (its own sockets, from /proc)."""
    mine: set[str] = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if m := re.fullmatch(r"socket:\[(\d+)\]", target):
            mine.add(m.group(1))
    ports: set[int] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not Path(table).exists():
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in mine:  # LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, sorted labels) -> value."""

    def get() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
            return r.read().decode()

    # Blocking on purpose: the server answers from its own thread, and SimCord would wait
    # for executor work to end before it lets the bot go.
    text = get()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def total(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str):
    """The sum of ``name``'s samples whose labels include ``labels``."""
    want = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and want <= set(ls))


@pytest.fixture
def port() -> int:
    return _free_port()


@pytest_asyncio.fixture
async def simcord_bot(
    request: pytest.FixtureRequest, bot_database: str | Path, port: int
) -> AsyncIterator[TrionfiBot]:
    """The bot, with metrics on ``port`` (``parametrize(..., [False], indirect=True)``: off)."""
    on = getattr(request, "param", True)
    bot = TrionfiBot(
        bot_database,
        seed_source=lambda: SEED,
        sweep_every=None,
        retry_delays=(0.0, 0.0),
        shard_count=1,
        metrics_port=port if on else None,
        count_every=None,  # counted by hand: a parked sleep would keep SimCord from settling
    )
    yield bot
    await bot.close()
    assert not metrics.enabled()  # closing the bot stopped the server


async def test_a_game_moves_the_metrics(simcord_env: simcord.Env, port: int) -> None:
    world = make_world(simcord_env, 2, pictures=False)
    bot = world.bot
    assert port in _listening_ports()
    before = await scrape(port)
    assert total(before, "trionfi_decisions_total") == 0
    assert total(before, "process_resident_memory_bytes") > 0

    table = Table(world, "la_morte", world.members[:2], seed=3)
    await table.open(3)  # two humans and a computer
    await bot.count_tables()
    info = await world.service.get_table(table.table_id)
    assert info.message_id is not None
    # One edit of the table message fails: counted under its status.
    simcord_env.inject_error(
        "PATCH", f"/channels/{world.channel.id}/messages/{info.message_id}", status=503
    )
    for _ in range(4):
        assert await table.step()
    await bot.controller.publisher.drain()
    await bot.count_tables()
    after = await scrape(port)

    log = await world.service.store.log(table.table_id)
    acts = [e for e in log if e.kind == "act"]
    by_ai = sum(1 for e in acts if e.payload.get("by") == "ai")
    assert total(after, "trionfi_decisions_total", game="la_morte", by="human") == table.steps
    assert total(after, "trionfi_decisions_total", game="la_morte", by="ai") == by_ai > 0
    assert total(after, "trionfi_ai_decision_seconds_count", game="la_morte") == by_ai
    assert total(after, "trionfi_worker_job_seconds_count", kind="advance") >= 1
    assert total(after, "trionfi_worker_jobs") == 0  # none in flight now
    messages = "/channels/{channel_id}/messages"
    assert total(after, "trionfi_rest_requests_total", route=messages, status="2xx") >= 1
    assert total(after, "trionfi_rest_requests_total", status="503") == 1
    assert total(after, "trionfi_delivery_lag_seconds_count") >= table.steps
    assert total(after, "trionfi_open_tables", status="playing") == 1
    assert total(after, "trionfi_open_tables", status="lobby") == 0
    assert total(after, "trionfi_delivery_unshown_tables") == 0
    assert total(after, "trionfi_delivery_lag_commits") == 0


@pytest.mark.parametrize("simcord_bot", [False], indirect=True)
async def test_no_metrics_port_opens_no_port_and_records_nothing(
    simcord_env: simcord.Env,
) -> None:
    world = make_world(simcord_env, 2, pictures=False)
    table = Table(world, "la_morte", world.members[:2], seed=3)
    await table.open(3)
    assert await table.step()
    assert not metrics.enabled() and metrics.port() is None
    assert _listening_ports() == set()
    assert not getattr(world.bot.http.request, "_trionfi_watched", False)


async def test_429s_are_counted_by_scope_from_discords_answers() -> None:
    """The aiohttp trace sees every response of the bot's session, also the 429s discord.py
    waits out and retries (which its callers never see)."""

    async def limited(request: web.Request) -> web.Response:
        return web.json_response(
            {"message": "You are being rate limited.", "retry_after": 0.0},
            status=429,
            headers={"X-RateLimit-Scope": "user"},
        )

    app = web.Application()
    app.router.add_get("/x", limited)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    server_port = runner.addresses[0][1]
    port = _free_port()
    metrics.enable(port, "127.0.0.1")
    try:
        async with aiohttp.ClientSession(trace_configs=[metrics.trace_config()]) as session:
            for _ in range(2):
                async with session.get(f"http://127.0.0.1:{server_port}/x") as r:
                    assert r.status == 429
        samples = await scrape(port)
        assert total(samples, "trionfi_rest_rate_limited_total", scope="user") == 2
    finally:
        metrics.disable()
        await runner.cleanup()


async def test_a_background_tasks_period_is_the_time_between_its_rounds() -> None:
    port = _free_port()
    metrics.enable(port, "127.0.0.1")
    try:
        metrics.sweep_done("clocks", 0.01)
        first = await scrape(port)
        assert total(first, "trionfi_sweeps_total", task="clocks") == 1
        assert ("trionfi_sweep_period_seconds", (("task", "clocks"),)) not in first
        await asyncio.sleep(0.05)
        metrics.sweep_done("clocks", 0.02)
        second = await scrape(port)
        assert total(second, "trionfi_sweep_period_seconds", task="clocks") >= 0.05
        assert total(second, "trionfi_sweep_seconds_count", task="clocks") == 2
    finally:
        metrics.disable()


def test_metrics_port_is_validated() -> None:
    env = {"DISCORD_TOKEN": "x"}
    assert load_settings(env).metrics_port is None
    assert load_settings({**env, "METRICS_PORT": "9108"}).metrics_port == 9108
    for bad in ("0", "70000", "http"):
        with pytest.raises(ConfigError, match="METRICS_PORT"):
            load_settings({**env, "METRICS_PORT": bad})


def test_the_production_bot_serves_metrics_only_when_asked(tmp_path: Path) -> None:
    env = {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(tmp_path / "t.sqlite3")}
    on = create_bot(load_settings({**env, "METRICS_PORT": "9108"}))
    assert on.metrics_port == 9108 and on.http.http_trace is not None  # 429s traced
    off = create_bot(load_settings(env))
    assert off.metrics_port is None and off.http.http_trace is None
