"""Fuzzing: at least 20,000 seeded random interactions, across three servers at once.

Each run has three servers (its own game in one, the next two landed games in the others), each
with a #tarot table in play, a #lounge, five members (three may sit, two never do) and their
DMs; one player of the first server is also a member of the second. Random members of any
server send, from their own channels and DMs: the seated humans' real decisions (so games go
through every phase and end, and new ones start), buttons and select values replayed from
earlier hands of *any* server (stale hands, wrong phases, other servers' tables, their seats
and deal stamps), crafted custom_ids in every template the bot registers with table ids of
every server (and none), seats and card values of any game (the component injected into a
message the sender can see, as a modified client would: Discord only sends custom_ids a message
carries), every synced slash command with fitting, out-of-range, wrong-typed and unknown
options, autocomplete, table and lobby buttons of any table, and a bot restart now and then.
After every one:

- nothing unhandled: no ERROR log record anywhere, no exception captured by SimCord, and
  every interaction meant for the bot (a synced command, a custom_id of its components)
  answered;
- nobody changes what they have no right to (``Authority``): a table, its seats, options or
  status change only through someone seated at it (before or after: joining counts) or its
  host, from its own server's channels or a seated player's DMs; a seat of another human
  changes only through its host; ratings only when a table finishes; a daily attempt only
  through its own player;
- no corruption: every open table's stored snapshot equals a replay of its action log, with
  cards conserved, and a refused request changes nothing (``checks.Ledger``);
- no private card out of place: each server's #tarot public messages of the current deal,
  each seated human's DM, and every answer (as seen by its invoker, or by the channel).

Slash options are fuzzed where bot code receives them: discord.py hands string, integer and
boolean values to the callbacks unchecked (so they get any type and range), while user and
channel options name a member or channel and come resolved, as Discord sends them (discord.py
parses those before any bot code runs). Required options are always present: only a command
tree out of sync with the code misses one, which the bot rightly logs as an error.

The servers turn pictures off (``drive.World.pictures``): the checks read text, and drawing
them was most of the CPU.
"""

from __future__ import annotations

import random
import re
import string
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import simcord
from simcord import interactions as sim_interactions
from simcord.backend.errors import SetupError
from simcord.backend.models.interaction import ResponseKind
from simcord.enums import InteractionType
from simcord.results import InteractionResult

from bot.client import TrionfiBot
from bot.engine.match import MatchState
from bot.engine.registry import get_rules
from bot.services import step
from bot.services.step import human_seat
from bot.services.tables import TableService
from bot.ui.components.choice import ChoiceSelect
from bot.ui.components.table import TableButton, TableSelect
from tests.resilience.checks import CardReader, Ledger, leaks, message_text
from tests.resilience.drive import (
    Table,
    World,
    dispatch,
    gestures,
    landed_games,
    logged_errors,
    make_world,
    seat_counts,
)
from tests.resilience.fuzz_authority import Authority

TOTAL = 20_000
GAMES = landed_games()
SERVERS = 3
PER_RUN = -(-TOTAL // len(GAMES))
RESTART_EVERY = 1500  # steps
KINDS = {"decide": 14, "replay": 17, "custom_id": 22, "slash": 28, "autocomplete": 5, "button": 14}
TYPES = ("play", "bid", "accept", "drop", "muck", "call", "discard", "chelem", "poignee")
TYPES += ("trump", "resign", "zz", "")
FIELDS = ("card", "cards", "amount", "contract", "suit", "announce", "seat", "zz", "")
VERBS = ("join", "leave", "bot", "start", "hand", "back", "rematch", "end", "act", "hint", "zz")
JUNK = ("", " ", "ZZ9", "-1", "0", "999999999999999999999999", "S7-S7-S7", "yes", "no", "null")
JUNK += ("T21-EX", "garde_contre", "pass", "H", "N", "é", "💀" * 30, "x" * 120, "1e9", "NaN")
WRONG_TYPES = ("abc", 3.5, True, -7, None, [], "", "12", {"a": 1})
SNOWFLAKE_TYPES = (6, 7, 8, 9, 11)  # user, channel, role, mentionable, attachment
TABLE_ID = re.compile(r"t[bsc]:(\d+):")
CHANNEL = re.compile(r"/channels/(\d+)/")


def lineup(home: str) -> tuple[str, ...]:
    """The run's games, one per server: ``home`` and the next landed games."""
    i = GAMES.index(home)
    return tuple(GAMES[(i + k) % len(GAMES)] for k in range(min(SERVERS, len(GAMES))))


def ours(custom_id: str) -> bool:
    """Whether the bot owns this custom_id (one of its restart-proof components)."""
    return any(
        cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        for cls in (TableButton, TableSelect, ChoiceSelect)
    )


@dataclass
class Sent:
    """One fuzzed interaction: who sent what, about which table, and what came back."""

    user_id: int
    what: str
    result: InteractionResult
    must_answer: bool
    table_id: int | None


@dataclass
class Server:
    """One simulated server of the run: its world (#tarot, members), game and #lounge."""

    world: World
    game_id: str
    lounge: Any
    table: Table | None = None
    scanned: tuple[int, int] = (0, -1)  # #tarot's table and seq at the last scan

    @property
    def humans(self) -> list[Any]:
        return self.world.members[:3]


class Fuzzer:
    """One fuzzing run over several simulated servers of one bot."""

    def __init__(self, servers: list[Server], seed: int, new_bot: Callable[[], TrionfiBot]) -> None:
        self.servers = servers
        self.world = servers[0].world  # the bot and SimCord every server shares
        self.rng = random.Random(seed)
        self.new_bot = new_bot
        self.readers: dict[str, CardReader] = {}  # per game (a #lounge may host any)
        self.pack = sorted(
            {
                c
                for s in servers
                for n in seat_counts(s.game_id)
                for c in get_rules(s.game_id).pack(n)
            }
        )
        self.ledgers: dict[int, Ledger] = {}
        self.seen: list[tuple[str, list[str] | None]] = []  # custom_ids and values met
        self.kinds: Counter[str] = Counter()
        self.times: defaultdict[str, float] = defaultdict(float)
        self.interactions = 0
        self.requests_seen = 0  # REST calls already looked at by redrawn()
        self.last: list[str] = []  # what the latest step sent
        self.games = 0
        self.actor: tuple[int, int] = (0, 0)  # the latest step's user and channel
        self.authority = Authority()
        self.commands = self._commands()

    @property
    def service(self) -> TableService:
        return self.world.service

    def reader(self, game_id: str) -> CardReader:
        if game_id not in self.readers:
            self.readers[game_id] = CardReader(game_id)
        return self.readers[game_id]

    def someone(self) -> tuple[Server, Any]:
        server = self.rng.choice(self.servers)
        return server, self.rng.choice(server.world.members)

    def server_of_guild(self, guild_id: int | None) -> Server | None:
        return next((s for s in self.servers if s.world.guild.id == guild_id), None)

    # ---- the games in each #tarot ------------------------------------------------------
    async def ensure_tables(self) -> None:
        for server in self.servers:
            await self.ensure_table(server)

    async def ensure_table(self, server: Server) -> None:
        """A game in play in the server's #tarot: a new one whenever the last is over."""
        table = server.table
        if table is not None and self.ledgers[table.table_id].status == "playing":
            return  # as read after the last step
        channel = server.world.channel
        current = await self.service.table_in_channel(channel.id)
        if current is not None and current.status == "playing":
            return
        if current is not None:  # a lobby someone opened: its humans leave, closing it
            for seat in current.seats:
                if seat.user_id is not None:
                    await self.service.leave(current.id, seat.user_id)
        seats = self.rng.choice(seat_counts(server.game_id))
        # Mostly full of humans (more DMs to keep apart, fewer slow computer moves).
        few = self.rng.random() < 0.25
        humans = server.humans[: self.rng.randint(1, min(3, seats)) if few else min(3, seats)]
        server.table = Table(server.world, server.game_id, humans, self.rng.randrange(1 << 30))
        await server.table.open(seats)
        self.interactions += len(humans) + 1
        self.games += 1
        await self.track(server.table.table_id)

    async def track(self, table_id: int) -> None:
        if table_id not in self.ledgers:
            self.ledgers[table_id] = Ledger(table_id)
            await self.ledgers[table_id].check(self.service)

    def table_of_channel(self, channel_id: int) -> int | None:
        """The tracked open table of a channel (commands there are about it)."""
        for table_id, ledger in self.ledgers.items():
            rec = ledger.rec
            if rec and rec.channel_id == channel_id and rec.status in ("lobby", "playing"):
                return table_id
        return None

    # ---- one random interaction ----------------------------------------------------------
    async def step(self, n: int) -> None:
        await self.ensure_tables()
        if n and n % RESTART_EVERY == 0:
            await self.world.restart(self.new_bot())
            self.kinds["restart"] += 1
        before = {table_id: ledger.m for table_id, ledger in self.ledgers.items()}
        rights = await self.authority.read(self.service)
        kind = self.rng.choices(list(KINDS), weights=list(KINDS.values()))[0]
        t0 = time.perf_counter()
        self.actor = (0, 0)
        sent: list[Sent] = await getattr(self, kind)()
        t1 = time.perf_counter()
        self.last = [s.what for s in sent] or [kind]
        self.kinds[kind] += 1
        if self.actor != (0, 0):
            guild = self.world.env.backend.get_channel(self.actor[1]).guild_id
            try:
                changed = await self.authority.check(self.service, rights, self.actor[0], guild)
            except AssertionError as e:
                raise AssertionError(f"{e}\nafter {self.last}") from None
            self.times["authority"] += time.perf_counter() - t1
            t1 = time.perf_counter()
            await self.check(before, sent, changed, commands=kind == "slash")
        self.times[kind] += t1 - t0
        self.times["check"] += time.perf_counter() - t1

    async def decide(self) -> list[Sent]:
        """A mover's real decision, through their DM (``Table.step``), in a random server."""
        server = self.rng.choice(self.servers)
        assert server.table is not None
        found = await server.table.mover()
        if found is None:
            return []
        offered = gestures(found[1])
        self.seen += [(g.custom_id, None if g.kind == "click" else [g.value]) for g in offered]
        del self.seen[:-500]
        self.actor = (found[0].id, found[1].channel.id)
        await server.table.step(found=found)
        self.interactions += 1
        return []

    async def replay(self) -> list[Sent]:
        """A button or select value met earlier in any server, by anyone, on their message."""
        if not self.seen:
            return []
        custom_id, values = self.rng.choice(self.seen)
        return [await self.component(*self.someone(), custom_id, values)]

    async def custom_id(self) -> list[Sent]:
        """A custom_id in (or near) the bot's formats, or in none of them."""
        rng = self.rng
        table = rng.choice([*self.ledgers, 0, 999_999, 10**25, "x", "-1", ""])
        field, value, kind = rng.choice(FIELDS), self.junk_value(), rng.choice(TYPES)
        cards = "-".join(rng.sample(self.pack, rng.randint(1, 6)))
        custom_id = rng.choice(
            [
                f"tb:{table}:{rng.choice(VERBS)}",
                f"tb:{table}:act:{kind}",
                f"tb:{table}:act:{kind}:{field}={value}",
                f"tb:{table}:act:{kind}:cards={cards}",
                f"tb:{table}:act:{kind}:{field}={value}:d{rng.randint(0, 12)}",
                f"ts:{table}:{kind}:{field}",
                f"ts:{table}:{kind}:{field}:{rng.randint(0, 9)}",
                f"tc:{table}:{kind}:{rng.randint(0, 9)}",
                "".join(rng.choices(string.printable, k=rng.randint(1, 100))),
            ]
        )[:100]
        values = None
        if custom_id.startswith(("ts:", "tc:")) or rng.random() < 0.2:
            values = list(dict.fromkeys(self.junk_value() for _ in range(rng.randint(0, 3))))
        return [await self.component(*self.someone(), custom_id, values)]

    async def button(self) -> list[Sent]:
        """Table and lobby buttons (Show my hand, Join, Start, I'm back…) of any table."""
        verb = self.rng.choice(("hand", "hand", "join", "leave", "bot", "start", "back"))
        table_id = self.rng.choice(list(self.ledgers))
        return [await self.component(*self.someone(), f"tb:{table_id}:{verb}", None)]

    def junk_value(self) -> str:
        r = self.rng.random()
        if r < 0.4:
            return self.rng.choice(self.pack)
        if r < 0.7:
            return self.rng.choice(JUNK)
        if r < 0.85:
            return str(self.rng.randint(-5, 200))
        return "".join(self.rng.choices(string.printable, k=self.rng.randint(0, 30)))

    def message_for(self, server: Server, member: Any, table_id: int | None) -> Any:
        """A message the member can see, to carry a custom_id about table ``table_id``: their
        DM hand of it, or its public message if it is in the member's server; otherwise
        (another server's table, or none) any message of theirs: their server's table
        message or their latest DM. The bot only puts a table's custom_ids on that table's
        messages, so the last case is a modified client's."""
        backend = self.world.env.backend
        candidates: list[Any] = []
        ledger = self.ledgers.get(table_id) if table_id is not None else None
        rec = ledger.rec if ledger is not None else None
        if rec is not None:
            for seat in rec.seats:
                if seat.user_id == member.id and seat.dm_message_id and seat.dm_channel_id:
                    candidates.append(backend.get_message(seat.dm_channel_id, seat.dm_message_id))
            if rec.guild_id == server.world.guild.id:
                channel = backend.messages.get(rec.channel_id, {})
                if rec.message_id in channel:
                    candidates.append(channel[rec.message_id])
        if not candidates:
            assert server.table is not None
            own = self.ledgers[server.table.table_id].rec
            channel = backend.messages.get(server.world.channel.id, {})
            if own is not None and own.message_id in channel:
                candidates.append(channel[own.message_id])
            dms = backend.messages.get(member.user.dm_channel.id, {})
            candidates += list(dms.values())[-1:]
        if not candidates:
            candidates.append(next(reversed(backend.messages[server.world.channel.id].values())))
        return self.rng.choice(candidates)

    async def component(
        self, server: Server, member: Any, custom_id: str, values: list[str] | None
    ) -> Sent:
        """A click (``values`` None) or a select, with the component on the message."""
        found = TABLE_ID.match(custom_id)
        table_id = int(found[1]) if found else None
        message = self.message_for(server, member, table_id)
        item: dict[str, Any] = {"type": 2, "style": 1, "label": "?", "custom_id": custom_id}
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            options = [{"label": v[:100] or "?", "value": v[:100] or "?"} for v in values]
            item = {
                "type": 3,
                "custom_id": custom_id,
                "options": options or [{"label": "?", "value": "?"}],
                "min_values": 0,
                "max_values": max(1, len(options)),
            }
            data = {"custom_id": custom_id, "component_type": 3, "values": values}
        self.actor = (member.id, message.channel_id)
        result = await dispatch(
            self.world,
            member.id,
            message.channel_id,
            InteractionType.MESSAGE_COMPONENT,
            data,
            message=message,
            components=[{"type": 1, "components": [item]}],
        )
        self.interactions += 1
        where = "DM" if message.channel_id == member.user.dm_channel.id else "channel"
        what = f"{custom_id!r} {values} in {where} of {server.world.guild.name}"
        return Sent(member.id, what, result, ours(custom_id), table_id)

    # ---- slash commands --------------------------------------------------------------
    def _commands(self) -> list[tuple[str, str, list[dict[str, Any]]]]:
        """(command, subcommand, declared options) of every synced slash command."""
        out: list[tuple[str, str, list[dict[str, Any]]]] = []
        for (name, kind), command in self.world.env.backend.commands.get(None, {}).items():
            if kind != 1:
                continue
            subs = [o for o in command.get("options") or [] if o.get("type") == 1]
            if not subs:
                out.append((name, "", list(command.get("options") or [])))
            out += [(name, sub["name"], list(sub.get("options") or [])) for sub in subs]
        return out

    def option_value(self, server: Server, spec: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        """One option (usually fitting, often out of range or of the wrong type), and the
        member or channel a user or channel option names, to resolve as Discord does."""
        rng = self.rng
        kind = spec["type"]
        r = rng.random()
        handle: Any = None
        if kind in SNOWFLAKE_TYPES:
            if kind == 7:
                handle = rng.choice((server.world.channel, server.lounge))
            else:
                handle = rng.choice(server.world.members)
            value: Any = str(handle.id)
        elif r < 0.15:
            value = rng.choice(WRONG_TYPES)
        elif kind == 4:
            lo, hi = spec.get("min_value", -10), spec.get("max_value", 10)
            if r < 0.6:
                value = rng.randint(lo, hi)
            else:
                value = rng.choice([lo - 1, hi + 1, -(10**12), 10**15, 0])
        elif kind == 5:
            value = rng.random() < 0.5
        elif spec.get("choices") and r < 0.7:
            value = rng.choice(spec["choices"])["value"]
        elif r < 0.6:
            value = self.junk_value()
        else:
            value = " ".join(rng.sample(self.pack, rng.randint(1, 7)))
        return {"name": spec["name"], "type": kind, "value": value}, handle

    def channel_for(self, server: Server, member: Any, root: dict[str, Any]) -> int:
        """#tarot mostly, or #lounge, or the member's DMs if Discord offers the command there."""
        r = self.rng.random()
        in_dms = root.get("dm_permission") is not False and 1 in (root.get("contexts") or [1])
        if r < 0.7 or (r >= 0.9 and not in_dms):
            return server.world.channel.id
        if r < 0.9:
            return server.lounge.id
        return member.user.dm_channel.id

    async def slash(self) -> list[Sent]:
        server, member = self.someone()
        name, sub, declared = self.rng.choice(self.commands)
        chosen = [
            self.option_value(server, o)
            for o in declared
            if o.get("required") or self.rng.random() < 0.5
        ]
        if self.rng.random() < 0.05:
            chosen.append(({"name": "zz", "type": 3, "value": "zz"}, None))
        return [await self.command(server, member, name, sub, chosen, autocomplete=False)]

    async def autocomplete(self) -> list[Sent]:
        server, member = self.someone()
        found = [(n, s, d) for n, s, d in self.commands if any(o.get("autocomplete") for o in d)]
        name, sub, declared = self.rng.choice(found)
        focused = next(o for o in declared if o.get("autocomplete"))
        typed = self.rng.choice(["", "s", "T2", "king", self.junk_value()])
        option = {"name": focused["name"], "type": 3, "value": typed, "focused": True}
        return [await self.command(server, member, name, sub, [(option, None)], autocomplete=True)]

    async def command(
        self,
        server: Server,
        member: Any,
        name: str,
        sub: str,
        chosen: list[tuple[dict[str, Any], Any]],
        *,
        autocomplete: bool,
    ) -> Sent:
        root = self.world.env.backend.find_command(name, None)
        assert root is not None
        channel_id = self.channel_for(server, member, root)
        options = [option for option, _ in chosen]
        data: dict[str, Any] = {"id": root["id"], "name": name, "type": 1}
        data["options"] = [{"name": sub, "type": 1, "options": options}] if sub else options
        resolved: dict[str, dict[str, Any]] = {}
        for option, handle in chosen:
            if handle is None:
                continue
            try:
                sim_interactions.resolve_handle(member, handle, resolved, channel_id=channel_id)
            except SetupError:  # a server channel named from a DM: Discord can't send that
                options.remove(option)
        if resolved:
            data["resolved"] = resolved
        kind = InteractionType.APPLICATION_COMMAND
        if autocomplete:
            kind = InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE
        self.actor = (member.id, channel_id)
        result = await dispatch(self.world, member.id, channel_id, kind, data)
        self.interactions += 1
        what = f"{'autocomplete ' if autocomplete else ''}/{name} {sub} {options}"
        # The rules are the same text whatever the table (and mention the Excuse by name).
        about = None if sub == "rules" else self.table_of_channel(channel_id)
        return Sent(member.id, what, result, True, about)

    # ---- after every interaction -----------------------------------------------------
    async def check(
        self,
        before: dict[int, MatchState | None],
        sent: list[Sent],
        changed: set[int],
        *,
        commands: bool,
    ) -> None:
        """``changed``: the tables whose row or seats the step changed (``Authority``);
        ``commands``: a command may have opened one in a #lounge."""
        for table_id in changed:
            ledger = self.ledgers.get(table_id)
            if ledger is not None and ledger.status in ("lobby", "playing"):
                await ledger.check(self.service)
        if commands:
            for server in self.servers:
                found = await self.service.table_in_channel(server.lounge.id)
                if found is not None:
                    await self.track(found.id)
        for s in sent:
            assert s.result.acknowledged or not s.must_answer, f"unanswered: {s.what}"
            self.scan_answers(s, before)
        redrawn = self.redrawn()
        for server in self.servers:
            assert server.table is not None
            ledger = self.ledgers[server.table.table_id]
            version = (server.table.table_id, ledger.seq)
            shown = {server.world.channel.id} | {
                s.dm_channel_id for s in (ledger.rec.seats if ledger.rec else ()) if s.dm_channel_id
            }
            if redrawn is None or redrawn & shown or version != server.scanned:
                self.scan_table(server)
                server.scanned = version

    def redrawn(self) -> set[int] | None:
        """The channels the bot wrote in, besides private replies, since the last call (only
        such writes change what the channels and the DMs show); None: maybe any (a public
        answer or an update of the clicked message, whose channel the route does not name)."""
        requests = self.world.env.http_requests
        new, self.requests_seen = requests[self.requests_seen :], len(requests)
        out: set[int] = set()
        for r in new:
            body = r.json if isinstance(r.json, dict) else {}
            answer = r.path.startswith(("/interactions/", "/webhooks/"))
            if r.path.startswith("/interactions/") and body.get("type") == 8:
                continue  # autocomplete choices
            data = body.get("data") if r.path.startswith("/interactions/") else body
            private = isinstance(data, dict) and int(data.get("flags") or 0) & 64
            if answer:
                if r.method != "POST" or not private or body.get("type", 4) != 4:
                    return None
            elif (found := CHANNEL.match(r.path)) is not None:
                out.add(int(found[1]))
        return out

    def scan_answers(self, s: Sent, before: dict[int, MatchState | None]) -> None:
        """Answers show their invoker (or the channel) nothing hidden from them, both before
        and after the interaction (a card just played, a new hand just dealt, are theirs)."""
        ledger = self.ledgers.get(s.table_id) if s.table_id is not None else None
        if ledger is None or ledger.rec is None:
            return  # about no table: nothing to hide
        backend = self.world.env.backend
        seat = human_seat(ledger.rec, s.user_id)
        reader = self.reader(ledger.rec.game_id)
        # After a deferred update the response *is* the clicked message (a hand or the table,
        # scanned as such by ``scan_table``), redrawn only as the presser's own hand.
        kind = getattr(getattr(s.result, "_interaction", None), "response_kind", None)
        response = None if kind == ResponseKind.DEFERRED_UPDATE else s.result.response
        for answer in (response, *s.result.followups):
            if answer is None:
                continue
            message = backend.get_message(answer.channel_id, answer.id)
            private = answer.ephemeral or backend.get_channel(answer.channel_id).guild_id is None
            viewer = seat if private else None
            text = message_text(message)
            found = set(leaks(reader, ledger.m, viewer, text))
            earlier = before.get(ledger.table_id)
            if earlier is not None:
                found &= set(leaks(reader, earlier, viewer, text))
            found -= reader.cards(s.what)  # echoing what they typed tells them nothing
            assert not found, f"the answer to {s.what} shows {sorted(found)} to {viewer}:\n{text}"

    def scan_table(self, server: Server) -> None:
        """The server's #tarot public messages of this deal, and each seat's DM hand."""
        assert server.table is not None
        ledger = self.ledgers[server.table.table_id]
        reader = self.reader(server.game_id)
        backend = self.world.env.backend
        m, rec = ledger.m, ledger.rec
        if ledger.message_id is not None:
            channel = backend.messages[server.world.channel.id]
            for message_id in reversed(channel):  # newest first, down to the table message
                if message_id < ledger.message_id:
                    break
                message = channel[message_id]
                if not message.is_ephemeral:
                    found = leaks(reader, m, None, message_text(message))
                    assert not found, f"#tarot shows {found}:\n{message_text(message)}"
        for seat in rec.seats if rec is not None else ():
            if seat.resigned or seat.user_id is None:
                continue  # their DM stays as it was when they left: what they saw then
            if seat.dm_channel_id is None or seat.dm_message_id is None:
                continue
            text = message_text(backend.get_message(seat.dm_channel_id, seat.dm_message_id))
            found = leaks(reader, m, seat.seat, text)
            assert not found, f"seat {seat.seat}'s DM shows {found}:\n{text}"

    @property
    def changes(self) -> int:
        return sum(ledger.changes for ledger in self.ledgers.values())


def servers_of(env: simcord.Env, home: str) -> list[Server]:
    """The run's servers, one per game of ``lineup(home)``; the first server's first member
    is also a member of the second server (a seated player visiting another server)."""
    out: list[Server] = []
    for i, game_id in enumerate(lineup(home)):
        world = make_world(env, 5, pictures=False, server=f"Club {i + 1}")
        out.append(Server(world, game_id, world.guild.create_text_channel("lounge")))
    if len(out) > 1:
        visitor = out[0].world.members[0].user
        out[1].world.members.append(out[1].world.guild.add_member(visitor))
    return out


@pytest.mark.heavy
@pytest.mark.parametrize("home", GAMES)
async def test_random_interactions_break_nothing(
    home: str, simcord_env: simcord.Env, make_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The daily deal's expert computers think with a fiftieth of their budget: fifteen
    # members starting up to five dailies each would otherwise spend most of the run there.
    monkeypatch.setattr(step, "EXPERT_EFFORT", 0.02)
    env = simcord_env
    fuzzer = Fuzzer(servers_of(env, home), seed=len(home), new_bot=make_bot)
    started = time.perf_counter()
    with logged_errors() as errors:
        n = 0
        while fuzzer.interactions < PER_RUN:
            await fuzzer.step(n)
            n += 1
            assert not errors.records, (fuzzer.last, [r.getMessage() for r in errors.records])
    elapsed = time.perf_counter() - started
    print(
        f"\n{lineup(home)}: {fuzzer.interactions} interactions in {elapsed:.1f}s, "
        f"{fuzzer.games} games, {fuzzer.changes} checked state changes, {len(fuzzer.ledgers)} "
        f"tables, {fuzzer.authority.changes} authorised changes; {dict(fuzzer.kinds)}; "
        f"seconds { ({k: round(v, 1) for k, v in fuzzer.times.items()}) }"
    )
    assert not env.errors
    assert fuzzer.games >= 2 * SERVERS and fuzzer.changes > 100
    assert set(KINDS) <= set(fuzzer.kinds)
