"""The chaos run's play: mixed tables opened through SimCord, humans deciding at random from
their DMs while stacks crash and restart (``tests.cluster.chaos``), then a quiet end where
the live stacks catch up, and the checks (``tests.cluster.chaos_checks``).

Each decision moves the cluster's clock by ``Plan.step_seconds`` (so turn notifications come
due), lets the stacks whose sweep period passed sweep in the background (their deliveries run
beside the next clicks, as another process's would), and every ``Plan.kill_every`` decisions
arms a crash of one live stack at its next REST call, restarted ``Plan.restart_after``
decisions later.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import discord
import simcord
from simcord.backend.errors import BackendError

from bot.services.tables import TableService
from tests.cluster.chaos import Clock, Cluster
from tests.cluster.chaos_checks import Findings, check_all, install_audit, unshown
from tests.e2e.helpers import components
from tests.resilience.drive import (
    Gesture,
    Table,
    World,
    gestures,
    group,
    landed_games,
    refusal,
)
from tests.resilience.drive import seat_counts as seat_range

NAMES = tuple(f"player{i:02}" for i in range(16))
MAX_SEATS = 6  # open seats per member (the bot allows 8)


@dataclass
class Plan:
    """How big and how rough a run is."""

    tables: int = 30
    humans: int = 12
    max_decisions: int = 4000
    kill_every: int = 10  # decisions between crashes (0: none but the trap's)
    restart_after: int = 3  # decisions a crashed stack stays down
    #: Decisions between Discord hiccups: a table channel's next three message requests
    #: fail with a 503 (whoever makes them), so a delivery retries, then is parked.
    hiccup_every: int = 6
    #: The chance that a stack posting a deal summary or result crashes right after it.
    trap: float = 0.5
    seed: int = 29
    #: Seconds of the shared clock per decision: about 30 s between a table's decisions, so
    #: most turns outlast the 20-second notification delay.
    step_seconds: float | None = None

    @property
    def step(self) -> float:
        return self.step_seconds if self.step_seconds is not None else 30.0 / self.tables


@dataclass
class ChaosWorld(World):
    """A world whose driver reads the database through an observer's own service (never a
    stack's: it is no process of the cluster, and is never killed)."""

    observer: TableService | None = None

    @property
    def service(self) -> TableService:
        assert self.observer is not None
        return self.observer


@dataclass
class Report:
    """What happened, for the test's assertions and the bench's printout."""

    tables: dict[str, int] = field(default_factory=dict[str, int])  # game -> tables
    decisions: int = 0
    gestures: Counter[str] = field(default_factory=Counter[str])  # outcome -> count
    stalls: int = 0  # picks whose mover's hand offered nothing
    finished: int = 0
    kills: list[str] = field(default_factory=list[str])
    restarts: int = 0
    hiccups: int = 0
    repeats: int = 0  # message posts Discord answered with the message their nonce made
    catch_up_rounds: int = 0
    findings: Findings | None = None

    def lines(self) -> list[str]:
        f = self.findings
        games = ", ".join(f"{g} {n}" for g, n in sorted(self.tables.items()))
        made = ", ".join(f"{k} {v}" for k, v in sorted(self.gestures.items()))
        out = [
            f"tables: {sum(self.tables.values())} ({games}); finished {self.finished}",
            f"decisions: {self.decisions} ({made}); stalled picks {self.stalls}",
            f"kills: {len(self.kills)}, restarts: {self.restarts}, Discord hiccups: "
            f"{self.hiccups}; catch-up rounds {self.catch_up_rounds}; repeated nonces "
            f"{self.repeats}",
        ]
        out += [f"  kill: {k}" for k in self.kills[:8]]
        if len(self.kills) > 8:
            out.append(f"  … {len(self.kills) - 8} more")
        if f is not None:
            out += f.lines()
        return out


async def open_tables(world: ChaosWorld, plan: Plan, rng: random.Random) -> list[Table]:
    """``plan.tables`` tables of every landed game in turn, each in its own channel, with
    humans at random among the members (within their seat cap) and computers in the other
    seats of about four tables in five."""
    games = landed_games()
    seats_held: Counter[int] = Counter()
    tables: list[Table] = []
    for i in range(plan.tables):
        game_id = games[i % len(games)]
        seats = rng.choice(list(seat_range(game_id)))
        # Mostly one human against computers (a deal then ends in fewer human decisions:
        # more summaries to post), some tables of humans only.
        draw = rng.random()
        humans = seats if draw < 0.2 else 1 if draw < 0.7 else rng.randint(1, min(3, seats))
        free = [m for m in world.members if seats_held[m.id] < MAX_SEATS]
        people = rng.sample(free, min(humans, len(free)))
        for m in people:
            seats_held[m.id] += 1
        channel = world.guild.create_text_channel(f"table-{i:02}")
        table = Table(replace(world, channel=channel), game_id, people, plan.seed * 1000 + i)
        await table.open(seats, _options(world, game_id))
        tables.append(table)
    return tables


#: Short games of a few deals each (every ended deal is a summary to post exactly once).
OPTIONS: dict[str, Any] = {"target": 10, "round_limit": 2, "hand_limit": 2, "deals": 2}


def _options(world: World, game_id: str) -> dict[str, Any]:
    """``OPTIONS`` that the game's ``new`` command declares."""
    root = world.env.backend.find_command(group(game_id), None)
    assert root is not None
    sub = next(o for o in root["options"] if o["name"] == "new")
    declared = {o["name"] for o in sub.get("options") or []}
    return {k: v for k, v in OPTIONS.items() if k in declared}


async def _gesture(table: Table, member: Any, message: discord.Message, g: Gesture) -> str:
    """One gesture as a person makes it; what came of it (a crash may leave it unanswered)."""
    user = member.user
    try:
        if g.kind == "click":
            r = await user.click(message, custom_id=g.custom_id)
        elif g.kind == "select":
            r = await user.select(message, [g.value], custom_id=g.custom_id)
        else:
            r = await table._choose(member, message, g.value)  # pyright: ignore[reportPrivateUsage]
    except AssertionError:
        return "choice cut short"  # a select of the multi-card choice went unanswered
    except IndexError:
        # The hand still offers a choice the game no longer has (a crash left it to be
        # redrawn by the catch-up): a person would find their hand corrected a moment later.
        return "stale choice"
    except BackendError as e:
        if e.status != 404:
            raise
        # The hand was replaced (a turn notification's new hand) and deleted between two taps
        # of a multi-card choice: a person's tap on a message that just vanished fails too.
        return "hand gone"
    if not r.acknowledged:
        return "unanswered"
    refused = refusal(r)
    return "ok" if refused is None else f"refused ({refused[:60]})"


def _back_button(message: discord.Message, table_id: int) -> str | None:
    for c in components(message):
        if isinstance(c, discord.Button) and c.custom_id == f"tb:{table_id}:back":
            return c.custom_id
    return None


class Run:
    """One chaos run on a started SimCord env whose bot is ``cluster.bot``."""

    def __init__(self, env: simcord.Env, cluster: Cluster, observer: TableService, plan: Plan):
        self.env = env
        self.cluster = cluster
        self.observer = observer
        self.plan = plan
        self.rng = random.Random(plan.seed)
        self.report = Report()
        self.down: list[int] = []  # decisions at which a crashed stack restarts
        self.armed_at = 0  # the decision at which the last crash was armed
        self.channels: list[int] = []  # the tables' channels

    async def play(self) -> Report:
        env, plan = self.env, self.plan
        guild = env.create_guild("Chaos Club")
        members = [guild.add_member(env.create_user(n)) for n in NAMES[: plan.humans]]
        await self.observer.update_guild_settings(guild.id, pictures=False)
        world = ChaosWorld(env, guild, None, members, False, observer=self.observer)
        tables = await open_tables(world, plan, self.rng)
        for t in tables:
            self.report.tables[t.game_id] = self.report.tables.get(t.game_id, 0) + 1
        await install_audit(self.cluster.url)
        self.channels = [t.world.channel.id for t in tables]
        open_ids = {t.table_id for t in tables}
        by_id = {t.table_id: t for t in tables}
        idle = 0
        while open_ids and self.report.decisions < plan.max_decisions and idle < 5 * plan.tables:
            table = by_id[self.rng.choice(sorted(open_ids))]
            moved = await self._step(table)
            if moved is None:
                open_ids.discard(table.table_id)
                continue
            idle = 0 if moved else idle + 1
            await self._tick()
        await self._catch_up()
        self.report.repeats = self.cluster.nonces.repeats if self.cluster.nonces else 0
        self.report.finished = sum(
            [(await self.observer.get_table(t.table_id)).status == "finished" for t in tables]
        )
        self.report.findings = await check_all(env, self.observer, self.cluster, tables)
        return self.report

    async def _step(self, table: Table) -> bool | None:
        """The table's mover decides; None once the table is over, False if nobody could."""
        out = await self.observer.snapshot(table.table_id)
        if out.table.status != "playing":
            return None
        to_act = out.public.to_act if out.public is not None else None
        user_id = next((s.user_id for s in out.table.seats if s.seat == to_act), None)
        member = next((m for m in table.humans if m.id == user_id), None)
        message = None if member is None else await table.hand(member)
        if member is None or message is None:
            self.report.stalls += 1
            return False
        offered = gestures(message)
        back = _back_button(message, table.table_id)
        if offered:
            outcome = await _gesture(table, member, message, self.rng.choice(offered))
        elif back is not None:
            outcome = await _gesture(table, member, message, Gesture("click", back))
        else:
            self.report.stalls += 1  # their turn, but their hand offers nothing
            return False
        self.report.decisions += 1
        self.report.gestures[outcome] += 1
        return True

    async def _tick(self) -> None:
        """After a decision: the clock, restarts, crashes, due sweeps."""
        plan, cluster, n = self.plan, self.cluster, self.report.decisions
        cluster.clock.now += plan.step
        for at in [at for at in self.down if at <= n]:
            self.down.remove(at)
            await cluster.restart()
            self.report.restarts += 1
        if cluster.armed is not None and n - self.armed_at >= 3:
            cluster.kill(cluster.armed, "between decisions (no REST call came)")
        for kill in cluster.kills[len(self.report.kills) :]:
            self.report.kills.append(f"stack {kill.stack} {kill.where} ({kill.tasks} task(s))")
            self.down.append(n + plan.restart_after)
        due = plan.kill_every and n - self.armed_at >= plan.kill_every
        if due and cluster.armed is None and len(cluster.live) > 1:
            cluster.arm()
            self.armed_at = n
        if plan.hiccup_every and n % plan.hiccup_every == 0:
            channel = self.rng.choice(self.channels)
            self.env.inject_error("*", f"/channels/{channel}/messages*", status=503, times=3)
            self.report.hiccups += 1
        cluster.sweep_due()
        await asyncio.sleep(0)

    async def _catch_up(self, rounds: int = 6) -> None:
        """No more crashes: every stack is up again, and the live ones sweep (one after
        another, each to the end of its deliveries) past every claim's lapse, until every
        table shows its last commit or ``rounds`` run out."""
        cluster = self.cluster
        cluster.armed, cluster.trap = None, 0.0
        for stack in cluster.live:
            stack.countdown = None
        self.env.backend.faults.clear()
        for _ in self.down:
            await cluster.restart()
            self.report.restarts += 1
        self.down.clear()
        await _settle_stacks(cluster)
        for _ in range(rounds):
            self.report.catch_up_rounds += 1
            cluster.clock.now += 61.0  # past REPUBLISH_CLAIM and SWEEP_GRACE
            for stack in cluster.live:
                await cluster.spawn(stack, cluster.sweep(stack))
                await _settle_stacks(cluster)
            if not await unshown(self.cluster.url):
                return


async def _settle_stacks(cluster: Cluster) -> None:
    """Wait for every live stack's background work (boots, sweeps, deliveries) to end."""
    for _ in range(200):
        pending = [t for s in cluster.live for t in s.tasks if not t.done()]
        if not pending:
            return
        await asyncio.wait(pending, timeout=5)


async def chaos_run(env: simcord.Env, cluster: Cluster, plan: Plan) -> Report:
    """Start the cluster on the env's bot, play, catch up and check."""
    from bot.db.backends import open_database

    await cluster.start()
    observer_db = await open_database(cluster.url)
    try:
        observer = TableService(observer_db, clock=cluster.clock)
        return await Run(env, cluster, observer, plan).play()
    finally:
        await observer_db.close()


def new_cluster(url: str, plan: Plan, start: float) -> Cluster:
    """The cluster for ``plan`` (computers think in two threads shared by its stacks)."""
    rng = random.Random(plan.seed)
    return Cluster(url, Clock(start), rng, ThreadPoolExecutor(2), trap=plan.trap)
