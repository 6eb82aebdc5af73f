"""Fuzzing: at least 10,000 seeded random interactions across the landed games.

Random members (seated or not) in the table's channel, another channel and their DMs: the
seated humans' real decisions (so games go through every phase and end, and new ones start),
buttons and select values replayed from earlier hands (actions in the wrong phase, stale
hands, other tables), malformed custom_ids (the component injected into the message, as an
older bot would have rendered it: Discord only sends custom_ids a message carries), every
synced slash command with fitting, out-of-range, wrong-typed and unknown options,
autocomplete, table and lobby buttons, and a bot restart now and then. After every one:

- nothing unhandled: no ERROR log record anywhere, no exception captured by SimCord, and
  every interaction meant for the bot (a synced command, a custom_id of its components)
  answered;
- no corruption: every open table's stored snapshot equals a replay of its action log, with
  cards conserved, and a refused request changes nothing (``checks.Ledger``);
- no private card out of place: the #tarot table's public messages of the current deal, each
  seated human's DM, and every answer (as seen by its invoker, or by the channel).

Slash options are fuzzed where bot code receives them: discord.py hands string, integer and
boolean values to the callbacks unchecked (so they get any type and range), while user and
channel options name a member or channel and come resolved, as Discord sends them (discord.py
parses those before any bot code runs). Required options are always present: only a command
tree out of sync with the code misses one, which the bot rightly logs as an error.
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

TOTAL = 10_000
GAMES = landed_games()
PER_GAME = -(-TOTAL // len(GAMES))
RESTART_EVERY = 800  # steps
KINDS = {"decide": 22, "replay": 14, "custom_id": 17, "slash": 30, "autocomplete": 6, "button": 11}
TYPES = ("play", "bid", "accept", "drop", "muck", "call", "discard", "chelem", "poignee")
TYPES += ("trump", "resign", "zz", "")
FIELDS = ("card", "cards", "amount", "contract", "suit", "announce", "seat", "zz", "")
VERBS = ("join", "leave", "bot", "start", "hand", "back", "rematch", "end", "act", "zz")
JUNK = ("", " ", "ZZ9", "-1", "0", "999999999999999999999999", "S7-S7-S7", "yes", "no", "null")
JUNK += ("T21-EX", "garde_contre", "pass", "H", "N", "é", "💀" * 30, "x" * 120, "1e9", "NaN")
WRONG_TYPES = ("abc", 3.5, True, -7, None, [], "", "12", {"a": 1})
SNOWFLAKE_TYPES = (6, 7, 8, 9, 11)  # user, channel, role, mentionable, attachment
TABLE_ID = re.compile(r"t[bsc]:(\d+):")


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


class Fuzzer:
    """One game's fuzzing session in one simulated server."""

    def __init__(
        self, world: World, game_id: str, seed: int, new_bot: Callable[[], TrionfiBot]
    ) -> None:
        self.world = world
        self.game_id = game_id
        self.rng = random.Random(seed)
        self.new_bot = new_bot
        self.humans = world.members[:3]
        self.lounge = world.guild.create_text_channel("lounge")
        self.reader = CardReader(game_id)
        self.pack = sorted({c for n in seat_counts(game_id) for c in get_rules(game_id).pack(n)})
        self.table: Table | None = None
        self.ledgers: dict[int, Ledger] = {}
        self.seen: list[tuple[str, list[str] | None]] = []  # custom_ids and values met
        self.kinds: Counter[str] = Counter()
        self.times: defaultdict[str, float] = defaultdict(float)
        self.interactions = 0
        self.requests_seen = 0  # REST calls already looked at by redrawn()
        self.scanned = (0, -1)  # #tarot's table and seq at the last scan of its messages
        self.last: list[str] = []  # what the latest step sent
        self.games = 0
        self.commands = self._commands()

    @property
    def service(self) -> TableService:
        return self.world.service

    def someone(self) -> Any:
        return self.rng.choice(self.world.members)

    # ---- the game in #tarot ------------------------------------------------------------
    async def ensure_table(self) -> None:
        """A game in play in #tarot: a new one whenever the last is over (or was ended)."""
        if self.table is not None and self.ledgers[self.table.table_id].status == "playing":
            return  # as read after the last step
        current = await self.service.table_in_channel(self.world.channel.id)
        if current is not None and current.status == "playing":
            return
        if current is not None:  # a lobby someone opened: its humans leave, closing it
            for seat in current.seats:
                if seat.user_id is not None:
                    await self.service.leave(current.id, seat.user_id)
        seats = self.rng.choice(seat_counts(self.game_id))
        # Mostly full of humans (more DMs to keep apart, fewer slow computer moves).
        few = self.rng.random() < 0.25
        humans = self.humans[: self.rng.randint(1, min(3, seats)) if few else min(3, seats)]
        self.table = Table(self.world, self.game_id, humans, self.rng.randrange(1 << 30))
        await self.table.open(seats)
        self.interactions += len(humans) + 1
        self.games += 1
        await self.track(self.table.table_id)

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
        await self.ensure_table()
        if n and n % RESTART_EVERY == 0:
            await self.world.restart(self.new_bot())
            self.kinds["restart"] += 1
        before = {table_id: ledger.m for table_id, ledger in self.ledgers.items()}
        kind = self.rng.choices(list(KINDS), weights=list(KINDS.values()))[0]
        t0 = time.perf_counter()
        sent: list[Sent] = await getattr(self, kind)()
        t1 = time.perf_counter()
        self.last = [s.what for s in sent] or [kind]
        self.kinds[kind] += 1
        await self.check(before, sent, others=kind != "decide", commands=kind == "slash")
        self.times[kind] += t1 - t0
        self.times["check"] += time.perf_counter() - t1

    async def decide(self) -> list[Sent]:
        """The mover's real decision, through their DM (``Table.step``)."""
        assert self.table is not None
        found = await self.table.mover()
        if found is None:
            return []
        offered = gestures(found[1])
        self.seen += [(g.custom_id, None if g.kind == "click" else [g.value]) for g in offered]
        del self.seen[:-500]
        await self.table.step(found=found)
        self.interactions += 1
        return []

    async def replay(self) -> list[Sent]:
        """A button or select value met earlier, by anyone, on any message."""
        if not self.seen:
            return []
        custom_id, values = self.rng.choice(self.seen)
        return [await self.component(self.someone(), custom_id, values)]

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
                f"ts:{table}:{kind}:{field}",
                f"ts:{table}:{kind}:{field}:{rng.randint(0, 9)}",
                f"tc:{table}:{kind}:{rng.randint(0, 9)}",
                "".join(rng.choices(string.printable, k=rng.randint(1, 100))),
            ]
        )[:100]
        values = None
        if custom_id.startswith(("ts:", "tc:")) or rng.random() < 0.2:
            values = list(dict.fromkeys(self.junk_value() for _ in range(rng.randint(0, 3))))
        return [await self.component(self.someone(), custom_id, values)]

    async def button(self) -> list[Sent]:
        """Table and lobby buttons (Show my hand, Join, Start, I'm back…) of any table."""
        verb = self.rng.choice(("hand", "hand", "join", "leave", "bot", "start", "back"))
        table_id = self.rng.choice(list(self.ledgers))
        return [await self.component(self.someone(), f"tb:{table_id}:{verb}", None)]

    def junk_value(self) -> str:
        r = self.rng.random()
        if r < 0.4:
            return self.rng.choice(self.pack)
        if r < 0.7:
            return self.rng.choice(JUNK)
        if r < 0.85:
            return str(self.rng.randint(-5, 200))
        return "".join(self.rng.choices(string.printable, k=self.rng.randint(0, 30)))

    def message_for(self, member: Any, table_id: int | None) -> Any:
        """A message of table ``table_id`` the member can see: their DM hand of it, or its
        public message. Discord only sends a custom_id from the message that carries it, and
        the bot only puts a table's custom_ids on that table's messages; for a table that
        does not exist, any of their messages."""
        backend = self.world.env.backend
        candidates: list[Any] = []
        ledger = self.ledgers.get(table_id) if table_id is not None else None
        if ledger is None:
            assert self.table is not None
            ledger = self.ledgers[self.table.table_id]
            dms = backend.messages.get(member.user.dm_channel.id, {})
            candidates += list(dms.values())[-1:]
        rec = ledger.rec
        assert rec is not None
        for seat in rec.seats:
            if seat.user_id == member.id and seat.dm_message_id and seat.dm_channel_id:
                candidates.append(backend.get_message(seat.dm_channel_id, seat.dm_message_id))
        channel = backend.messages.get(rec.channel_id, {})
        if rec.message_id in channel:
            candidates.append(channel[rec.message_id])
        if not candidates:
            candidates.append(next(reversed(backend.messages[self.world.channel.id].values())))
        return self.rng.choice(candidates)

    async def component(self, member: Any, custom_id: str, values: list[str] | None) -> Sent:
        """A click (``values`` None) or a select, with the component on the message."""
        found = TABLE_ID.match(custom_id)
        table_id = int(found[1]) if found else None
        message = self.message_for(member, table_id)
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
        return Sent(
            member.id, f"{custom_id!r} {values} in {where}", result, ours(custom_id), table_id
        )

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

    def option_value(self, spec: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        """One option (usually fitting, often out of range or of the wrong type), and the
        member or channel a user or channel option names, to resolve as Discord does."""
        rng = self.rng
        kind = spec["type"]
        r = rng.random()
        handle: Any = None
        if kind in SNOWFLAKE_TYPES:
            handle = rng.choice((self.world.channel, self.lounge)) if kind == 7 else self.someone()
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

    def channel_for(self, member: Any, root: dict[str, Any]) -> int:
        """#tarot mostly, or #lounge, or the member's DMs if Discord offers the command there."""
        r = self.rng.random()
        in_dms = root.get("dm_permission") is not False and 1 in (root.get("contexts") or [1])
        if r < 0.7 or (r >= 0.9 and not in_dms):
            return self.world.channel.id
        if r < 0.9:
            return self.lounge.id
        return member.user.dm_channel.id

    async def slash(self) -> list[Sent]:
        name, sub, declared = self.rng.choice(self.commands)
        chosen = [
            self.option_value(o) for o in declared if o.get("required") or self.rng.random() < 0.5
        ]
        if self.rng.random() < 0.05:
            chosen.append(({"name": "zz", "type": 3, "value": "zz"}, None))
        return [await self.command(name, sub, chosen, autocomplete=False)]

    async def autocomplete(self) -> list[Sent]:
        found = [(n, s, d) for n, s, d in self.commands if any(o.get("autocomplete") for o in d)]
        name, sub, declared = self.rng.choice(found)
        focused = next(o for o in declared if o.get("autocomplete"))
        typed = self.rng.choice(["", "s", "T2", "king", self.junk_value()])
        option = {"name": focused["name"], "type": 3, "value": typed, "focused": True}
        return [await self.command(name, sub, [(option, None)], autocomplete=True)]

    async def command(
        self, name: str, sub: str, chosen: list[tuple[dict[str, Any], Any]], *, autocomplete: bool
    ) -> Sent:
        member = self.someone()
        root = self.world.env.backend.find_command(name, None)
        assert root is not None
        channel_id = self.channel_for(member, root)
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
        *,
        others: bool,
        commands: bool,
    ) -> None:
        """``others``: tables besides #tarot's may have changed (not after a decision there);
        ``commands``: a command may have opened one."""
        assert self.table is not None
        for ledger in self.ledgers.values():
            current = ledger.table_id == self.table.table_id
            if (current or others) and ledger.status in ("lobby", "playing"):
                await ledger.check(self.service)
        if commands:  # in #lounge (#tarot's tables are ours)
            found = await self.service.table_in_channel(self.lounge.id)
            if found is not None:
                await self.track(found.id)
        for s in sent:
            assert s.result.acknowledged or not s.must_answer, f"unanswered: {s.what}"
            self.scan_answers(s, before)
        version = (self.table.table_id, self.ledgers[self.table.table_id].seq)
        if self.redrawn() or version != self.scanned:
            self.scan_table()
            self.scanned = version

    def redrawn(self) -> bool:
        """Whether the bot wrote anything but a private reply since the last call (only
        such writes change what the channel and the DMs show)."""
        requests = self.world.env.http_requests
        new, self.requests_seen = requests[self.requests_seen :], len(requests)
        for r in new:
            body = r.json if isinstance(r.json, dict) else {}
            if r.path.startswith("/interactions/") and body.get("type") == 8:
                continue  # autocomplete choices
            data = body.get("data") if r.path.startswith("/interactions/") else body
            private = isinstance(data, dict) and int(data.get("flags") or 0) & 64
            if r.method != "POST" or not private or body.get("type", 4) != 4:
                return True
        return False

    def scan_answers(self, s: Sent, before: dict[int, MatchState | None]) -> None:
        """Answers show their invoker (or the channel) nothing hidden from them, both before
        and after the interaction (a card just played, a new hand just dealt, are theirs)."""
        ledger = self.ledgers.get(s.table_id) if s.table_id is not None else None
        if ledger is None or ledger.rec is None:
            return  # about no table: nothing to hide
        backend = self.world.env.backend
        seat = human_seat(ledger.rec, s.user_id)
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
            found = set(leaks(self.reader, ledger.m, viewer, text))
            earlier = before.get(ledger.table_id)
            if earlier is not None:
                found &= set(leaks(self.reader, earlier, viewer, text))
            found -= self.reader.cards(s.what)  # echoing what they typed tells them nothing
            assert not found, f"the answer to {s.what} shows {sorted(found)} to {viewer}:\n{text}"

    def scan_table(self) -> None:
        """The #tarot game's public messages of this deal, and each seat's DM hand."""
        assert self.table is not None
        ledger = self.ledgers[self.table.table_id]
        backend = self.world.env.backend
        m, rec = ledger.m, ledger.rec
        if ledger.message_id is not None:
            channel = backend.messages[self.world.channel.id]
            for message_id in reversed(channel):  # newest first, down to the table message
                if message_id < ledger.message_id:
                    break
                message = channel[message_id]
                if not message.is_ephemeral:
                    found = leaks(self.reader, m, None, message_text(message))
                    assert not found, f"#tarot shows {found}:\n{message_text(message)}"
        for seat in rec.seats if rec is not None else ():
            if seat.resigned or seat.user_id is None:
                continue  # their DM stays as it was when they left: what they saw then
            if seat.dm_channel_id is None or seat.dm_message_id is None:
                continue
            text = message_text(backend.get_message(seat.dm_channel_id, seat.dm_message_id))
            found = leaks(self.reader, m, seat.seat, text)
            assert not found, f"seat {seat.seat}'s DM shows {found}:\n{text}"

    @property
    def changes(self) -> int:
        return sum(ledger.changes for ledger in self.ledgers.values())


@pytest.mark.parametrize("game_id", GAMES)
async def test_random_interactions_break_nothing(
    game_id: str, simcord_env: simcord.Env, make_bot: Any
) -> None:
    env = simcord_env
    world = make_world(env, 5, pictures=False)  # three may sit at the table, two never do
    fuzzer = Fuzzer(world, game_id, seed=len(game_id), new_bot=make_bot)
    started = time.perf_counter()
    with logged_errors() as errors:
        n = 0
        while fuzzer.interactions < PER_GAME:
            await fuzzer.step(n)
            n += 1
            assert not errors.records, (fuzzer.last, [r.getMessage() for r in errors.records])
    elapsed = time.perf_counter() - started
    print(
        f"\n{game_id}: {fuzzer.interactions} interactions in {elapsed:.1f}s, {fuzzer.games} "
        f"games, {fuzzer.changes} checked state changes, {len(fuzzer.ledgers)} tables; "
        f"{dict(fuzzer.kinds)}; seconds { ({k: round(v, 1) for k, v in fuzzer.times.items()}) }"
    )
    assert not env.errors
    assert fuzzer.games >= 2 and fuzzer.changes > 100 and set(KINDS) <= set(fuzzer.kinds)
