"""Prometheus metrics for operators (issue 29): off unless ``METRICS_PORT`` is set.

Every recording function here is a no-op while metrics are off (one ``None`` check), so the
services and the publisher call them unconditionally. ``enable`` starts
``prometheus_client``'s HTTP server (its own thread) on the port; ``GET /metrics`` answers
in the Prometheus text format. Metrics live in a registry of their own, with the process's
CPU, memory and garbage-collector collectors.

What is measured, and where:
- decisions committed (``TableCore._commit``), by game and by who decided;
- the computer's decision time (timed in the worker by ``PlayStep.computer_action``);
- worker jobs in flight and their time (``bot.services.compute.run``), by kind;
- REST calls by route and outcome (``watch_http`` wraps the bot's HTTP client), and 429
  responses as Discord sent them, retried ones included (``trace_config``, an aiohttp trace
  of the bot's session);
- delivery lag: seconds from a commit to the moment every recipient shows it (the
  publisher), and the tables whose shown ``seq`` lags with the largest ``seq − shown_seq``
  (``tables``, refreshed periodically with the open tables);
- each background task's run time and period (``sweep_done``).

The engine never imports this module (it is pure); labels are bounded sets (games, kinds of
job, route templates such as ``/channels/{channel_id}/messages``, never ids).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    start_http_server,
)
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

log = logging.getLogger(__name__)

NAMESPACE = "trionfi"
#: Buckets (seconds) of the quick timings: a decision, a job, a delivery.
QUICK = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
#: Buckets (seconds) of the delivery lag (a parked delivery is retried after minutes).
LAG = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0, 3600.0)


@dataclass
class _Metrics:
    """The live metrics of one enabled process."""

    registry: CollectorRegistry
    decisions: Counter = field(init=False)
    ai_seconds: Histogram = field(init=False)
    jobs: Gauge = field(init=False)
    job_seconds: Histogram = field(init=False)
    rest: Counter = field(init=False)
    rate_limited: Counter = field(init=False)
    lag_seconds: Histogram = field(init=False)
    unshown: Gauge = field(init=False)
    lag_seq: Gauge = field(init=False)
    open_tables: Gauge = field(init=False)
    sweep_seconds: Histogram = field(init=False)
    sweep_period: Gauge = field(init=False)
    sweeps: Counter = field(init=False)
    last_sweep: dict[str, float] = field(default_factory=dict[str, float])  # task -> monotonic

    def __post_init__(self) -> None:
        r = self.registry
        self.decisions = Counter(
            "decisions", "Decisions committed.", ["game", "by"], namespace=NAMESPACE, registry=r
        )
        self.ai_seconds = Histogram(
            "ai_decision_seconds",
            "Time the computer took for one decision (in a worker).",
            ["game", "level"],
            namespace=NAMESPACE,
            registry=r,
            buckets=QUICK,
        )
        self.jobs = Gauge(
            "worker_jobs",
            "Worker jobs submitted and not done yet (queued or running).",
            ["kind"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.job_seconds = Histogram(
            "worker_job_seconds",
            "Time from submitting a worker job to its result (queue wait included).",
            ["kind"],
            namespace=NAMESPACE,
            registry=r,
            buckets=QUICK,
        )
        self.rest = Counter(
            "rest_requests",
            "Discord REST calls by route template and outcome (2xx, an HTTP status, error).",
            ["method", "route", "status"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.rate_limited = Counter(
            "rest_rate_limited",
            "429 responses from Discord (also those discord.py retried), by scope.",
            ["scope"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.lag_seconds = Histogram(
            "delivery_lag_seconds",
            "Seconds from a commit to every recipient showing it.",
            namespace=NAMESPACE,
            registry=r,
            buckets=LAG,
        )
        self.unshown = Gauge(
            "delivery_unshown_tables",
            "Tables whose last commit is not fully shown yet (shown_seq < seq).",
            namespace=NAMESPACE,
            registry=r,
        )
        self.lag_seq = Gauge(
            "delivery_lag_commits",
            "The largest seq - shown_seq over all tables.",
            namespace=NAMESPACE,
            registry=r,
        )
        self.open_tables = Gauge(
            "open_tables", "Lobbies and games in play.", ["status"], namespace=NAMESPACE, registry=r
        )
        self.sweep_seconds = Histogram(
            "sweep_seconds",
            "Run time of one round of a background task.",
            ["task"],
            namespace=NAMESPACE,
            registry=r,
            buckets=QUICK,
        )
        self.sweep_period = Gauge(
            "sweep_period_seconds",
            "Seconds between the last two rounds of a background task.",
            ["task"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.sweeps = Counter(
            "sweeps", "Rounds of each background task.", ["task"], namespace=NAMESPACE, registry=r
        )


_on: _Metrics | None = None
_server: Any = None  # the HTTP server (``wsgiref``'s), while enabled
_lock = threading.Lock()


def enabled() -> bool:
    return _on is not None


def enable(port: int, addr: str = "0.0.0.0") -> None:
    """Start recording, and serve ``/metrics`` on ``addr:port`` (``port`` 0: any free port,
    see ``port``). Idempotent."""
    global _on, _server
    with _lock:
        if _on is not None:
            return
        registry = CollectorRegistry()
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        metrics = _Metrics(registry)
        _server, _ = start_http_server(port, addr, registry)
        _on = metrics
    log.info("metrics served on %s:%s/metrics", addr, _server.server_port)


def port() -> int | None:
    """The port ``/metrics`` is served on, if enabled."""
    return None if _server is None else int(_server.server_port)


def disable() -> None:
    """Stop recording and serving (a stopped bot; tests)."""
    global _on, _server
    with _lock:
        server, _server, _on = _server, None, None
    if server is not None:
        server.shutdown()
        server.server_close()


# ---- recording (no-ops while disabled) ------------------------------------------------------
def decisions(game: str, by: Iterable[str]) -> None:
    """Decisions committed: ``by`` each one's maker (``human``, ``ai``, ``timeout``…)."""
    if (m := _on) is not None:
        for who in by:
            m.decisions.labels(game, who).inc()


def ai_decisions(game: str, level: str, seconds: Iterable[float]) -> None:
    """The computer's decision times (committed)."""
    if (m := _on) is not None:
        hist = m.ai_seconds.labels(game, level)
        for s in seconds:
            hist.observe(s)


@contextlib.contextmanager
def worker_job(kind: str) -> Iterator[None]:
    """Around one worker job, from its submission to its result (called from a thread)."""
    m = _on
    if m is None:
        yield
        return
    started = time.perf_counter()
    gauge = m.jobs.labels(kind)
    gauge.inc()
    try:
        yield
    finally:
        gauge.dec()
        m.job_seconds.labels(kind).observe(time.perf_counter() - started)


def delivered(seconds: float) -> None:
    """A commit is shown everywhere, ``seconds`` after it was queued for delivery."""
    if (m := _on) is not None:
        m.lag_seconds.observe(seconds)


def tables(lobbies: int, playing: int, unshown: int, lag: int) -> None:
    """The periodic counts: open tables, tables not fully shown, the largest seq lag."""
    if (m := _on) is not None:
        m.open_tables.labels("lobby").set(lobbies)
        m.open_tables.labels("playing").set(playing)
        m.unshown.set(unshown)
        m.lag_seq.set(lag)


def sweep_done(task: str, seconds: float) -> None:
    """A round of background ``task`` took ``seconds``; its period is the time since its
    previous round ended."""
    if (m := _on) is not None:
        now = time.monotonic()
        previous = m.last_sweep.get(task)
        m.last_sweep[task] = now
        if previous is not None:
            m.sweep_period.labels(task).set(now - previous)
        m.sweeps.labels(task).inc()
        m.sweep_seconds.labels(task).observe(seconds)


# ---- Discord's REST API ---------------------------------------------------------------------
def rest_call(method: str, route: str, status: str) -> None:
    if (m := _on) is not None:
        m.rest.labels(method, route, status).inc()


def watch_http(http: Any) -> None:
    """Count every REST call ``http`` (the bot's ``discord.http.HTTPClient``) makes, by route
    template and outcome. Wraps its ``request`` on the instance: Discord's answers, retries
    and rate limits stay discord.py's."""
    request: Callable[..., Awaitable[Any]] = http.request
    if getattr(request, "_trionfi_watched", False):
        return

    async def watched(route: Any, **kwargs: Any) -> Any:
        method, path = str(route.method), str(route.path)
        status = "error"
        try:
            result = await request(route, **kwargs)
            status = "2xx"
            return result
        except Exception as e:
            code = getattr(e, "status", None)
            if isinstance(code, int):
                status = str(code)
            raise
        finally:
            rest_call(method, path, status)

    watched._trionfi_watched = True  # type: ignore[attr-defined]
    http.request = watched


def trace_config() -> Any:
    """An aiohttp ``TraceConfig`` for the bot's session (``discord.Client(http_trace=…)``):
    counts 429 responses by scope (``user``, ``global``, ``shared``), the ones discord.py
    waits out and retries included, which the REST calls never show."""
    import aiohttp

    async def on_end(session: Any, context: Any, params: Any) -> None:
        if params.response.status == 429:
            rate_limited(params.response.headers.get("X-RateLimit-Scope", "unknown"))

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_end)
    return trace


def rate_limited(scope: str) -> None:
    if (m := _on) is not None:
        m.rate_limited.labels(scope).inc()
