"""Drivers shared by the resilience tests: the landed games, a simulated server, seated humans
who act through their DMs with a seeded policy, bot restarts, and raw interactions (the
malformed ones SimCord's actors would refuse to send).

A game is *landed* when the engine implements it and it has a cog (``cogs/<game_id>.py``), the
same rule ``bot.client.extensions`` loads cogs by, so a new game joins these tests by itself.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import discord
import simcord
from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.enums import InteractionType
from simcord.results import InteractionResult, to_discord_message

from bot.client import TrionfiBot, extensions
from bot.engine.registry import get_rules, implemented
from bot.services.tables import TableService
from bot.ui.games import renderer
from tests.e2e.helpers import components, embed_text, has_controls, said

MEMBER_NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "gina")

#: Options that keep a game short, for every game whose ``new`` command declares them.
SHORT_OPTIONS: dict[str, Any] = {"target": 10, "round_limit": 2, "hand_limit": 1, "deals": 1}


def landed_games() -> tuple[str, ...]:
    """Implemented games whose cog exists, in registry order."""
    cogs = {ext.removeprefix("cogs.") for ext in extensions()}
    return tuple(g for g in implemented() if g in cogs)


def group(game_id: str) -> str:
    """The game's slash command group (``/lamorte``…)."""
    return str(getattr(renderer(game_id), "GROUP", game_id))


def seat_counts(game_id: str) -> range:
    rules = get_rules(game_id)
    return range(rules.min_players, rules.max_players + 1)


# ---- worlds ---------------------------------------------------------------------------


@dataclass
class World:
    """A running SimCord environment: one server, its #tarot channel and its members."""

    env: simcord.Env
    guild: Any
    channel: Any
    members: list[Any]
    #: The server's default for pictures (players may still turn theirs on). Worlds whose
    #: tests read only text turn them off: drawing the PNGs was half the CPU of their games,
    #: and the pictures have their own tests (tests/pictures, the e2e games, the REST budget).
    pictures: bool = True

    @property
    def bot(self) -> TrionfiBot:
        return self.env.bot  # type: ignore[return-value]

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def restart(self, new_bot: TrionfiBot) -> None:
        """A new bot object on the same database, as after a crash or a deploy."""
        old = self.env.bot
        await self.env.restart_bot(new_bot)
        await old.close()


def make_world(
    env: simcord.Env,
    members: int = 4,
    channel: str = "tarot",
    *,
    pictures: bool = True,
    server: str = "Tarot Club",
) -> World:
    """A server named ``server`` with one text channel and ``members`` members
    (``pictures``: the server's default, applied when the first table opens)."""
    guild = env.create_guild(server)
    text = guild.create_text_channel(channel)
    people = [guild.add_member(env.create_user(n)) for n in MEMBER_NAMES[:members]]
    return World(env, guild, text, people, pictures)


# ---- what a message offers -------------------------------------------------------------


@dataclass(frozen=True)
class Gesture:
    """One thing a person can do with a hand message: click a decision button, pick one
    option of a select, or make a multi-card choice (``choose``, over several selects)."""

    kind: str  # "click" | "select" | "choose"
    custom_id: str
    value: str = ""


def gestures(message: discord.Message) -> list[Gesture]:
    """Every decision the message offers, in component order."""
    out: list[Gesture] = []
    chosen: set[str] = set()
    for c in components(message):
        custom_id = getattr(c, "custom_id", None) or ""
        if isinstance(c, discord.Button):
            if ":act:" in custom_id and not c.disabled and ":cards=" not in custom_id:
                out.append(Gesture("click", custom_id))
            elif custom_id.startswith("tp:"):  # a multi-card choice's toggles (issue 31)
                kind = custom_id.split(":")[2]
                if kind not in chosen:
                    chosen.add(kind)
                    out.append(Gesture("choose", custom_id, kind))
        elif isinstance(c, discord.SelectMenu):
            if custom_id.startswith("ts:"):
                out += [Gesture("select", custom_id, o.value) for o in c.options]
            elif custom_id.startswith("tc:"):
                kind = custom_id.split(":")[2]
                if kind not in chosen:
                    chosen.add(kind)
                    out.append(Gesture("choose", custom_id, kind))
    return out


def refusal(result: InteractionResult) -> str | None:
    """The ⚠️ text of a refused interaction, if it was one."""
    texts = [m.content or "" for m in (result.response, *result.followups) if m is not None]
    return next((t for t in texts if t.startswith("⚠️")), None)


# ---- seated humans ---------------------------------------------------------------------


@dataclass
class Table:
    """One game table driven by its seated humans (``humans[0]`` hosts), acting from their
    DMs like people: a seeded random choice among what their hand message offers.

    Two tables built with the same seed, game and seats make the same choices, so their
    games are identical, restarts or not.
    """

    world: World
    game_id: str
    humans: list[Any]
    seed: int
    rng: random.Random = field(init=False)
    table_id: int = 0
    steps: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @property
    def service(self) -> TableService:
        return self.world.service  # the current bot's, after restarts too

    async def open(
        self,
        seats: int,
        options: dict[str, Any] | None = None,
        *,
        in_lobby: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """The host opens ``/<game> new`` with computers in the seats no human takes, the
        others press Join and the host Start (``in_lobby`` runs before anyone joins)."""
        host, *guests = self.humans
        channel = self.world.channel
        if not self.world.pictures:  # as /admin would set it
            await self.service.update_guild_settings(self.world.guild.id, pictures=False)
        name = group(self.game_id)
        root = self.world.env.backend.find_command(name, None)
        assert root is not None, f"/{name} is not synced"
        sub = next(o for o in root["options"] if o["name"] == "new")
        declared = {o["name"] for o in sub.get("options") or []}
        if options is None:
            options = {k: v for k, v in SHORT_OPTIONS.items() if k in declared}
        if "seats" in declared:  # a game for one number of players has no such option
            options = {**options, "seats": seats}
        if "computers" in declared:
            options = {**options, "computers": seats - len(self.humans)}
        r = await host.slash(channel, f"{name} new", **options)
        assert r.acknowledged and refusal(r) is None and said(r).content, refusal(r)
        lobby = channel.last_message
        table = await self.service.table_in_channel(channel.id)
        assert table is not None
        self.table_id = table.id
        if in_lobby is not None:
            await in_lobby()  # the lobby message below was rendered before it
        # By custom_id, not label: the buttons read "Rejoindre" on a French table.
        for guest in guests:
            r = await guest.click(lobby, custom_id=f"tb:{self.table_id}:join")
            assert r.acknowledged and refusal(r) is None, refusal(r)
        r = await host.click(lobby, custom_id=f"tb:{self.table_id}:start")
        assert r.acknowledged and refusal(r) is None, refusal(r)

    async def _stored_hands(self) -> dict[int, Any]:
        """Each seated human's DM hand of this table, as stored by Discord (SimCord)."""
        stored = self.world.env.backend.messages
        found: dict[int, Any] = {}
        for _ in range(3):
            info = await self.service.get_table(self.table_id)
            found = {
                s.user_id: stored.get(s.dm_channel_id, {}).get(s.dm_message_id)
                for s in info.seats
                if s.user_id is not None
                and not s.resigned
                and s.dm_channel_id is not None
                and s.dm_message_id is not None
            }
            if None not in found.values():
                break
            # A hand replaced by a new one (the old one deleted) between reading the seat and
            # reading its message, while another process delivers: a person sees the new one
            # a moment later.
        return {user: message for user, message in found.items() if message is not None}

    async def hand(self, member: Any) -> discord.Message | None:
        """The member's DM hand message of this table, if they hold a seat at it."""
        stored = (await self._stored_hands()).get(member.id)
        return None if stored is None else to_discord_message(self.world.env, stored)

    async def mover(self) -> tuple[Any, discord.Message] | None:
        """The human whose DM hand shows decision controls, with that hand (the service
        never leaves a computer to act), or None once the game is over."""
        hands = await self._stored_hands()
        for member in self.humans:
            stored = hands.get(member.id)
            if stored is not None and stored.components:
                message = to_discord_message(self.world.env, stored)
                if has_controls(message):  # a result card's buttons are no decision
                    return member, message
        return None

    async def step(
        self,
        stale: dict[int, discord.Message] | None = None,
        found: tuple[Any, discord.Message] | None = None,
    ) -> bool:
        """The mover makes one decision; ``stale`` holds hand messages to use instead of the
        current ones (e.g. rendered before a restart), ``found`` the ``mover()`` just read.
        False once nobody has a decision."""
        found = found or await self.mover()
        if found is None:
            return False
        mover, message = found
        message = (stale or {}).get(mover.id) or message
        offered = gestures(message)
        assert offered, f"{mover.name}'s hand offers nothing: {embed_text(message)}"
        await self.perform(mover, message, self.rng.choice(offered))
        self.steps += 1
        return True

    async def perform(self, member: Any, message: discord.Message, g: Gesture) -> None:
        user = member.user
        if g.kind == "click":
            r = await user.click(message, custom_id=g.custom_id)
        elif g.kind == "select":
            r = await user.select(message, [g.value], custom_id=g.custom_id)
        else:
            r = await self._choose(member, message, g.value)
        assert r.acknowledged, f"{g} was not answered"
        assert refusal(r) is None, f"{g} offered but refused: {refusal(r)}"

    async def _choose(self, member: Any, message: discord.Message, kind: str) -> InteractionResult:
        """A multi-card choice: random legal cards picked (tapped as toggles, or across the
        selects), then Confirm."""
        out = await self.service.snapshot(self.table_id, member.id)
        (view,) = out.seat_views.values()
        rules = get_rules(self.game_id)
        template = self.rng.choice([a for a in view.legal if a.type == kind])
        cards = list(rules.random_choice(view, template, self.rng).cards or ())
        toggles = f"tp:{self.table_id}:{kind}:"
        current = message
        for card in cards:  # toggles: one tap per card, each redrawing the hand
            button = next(
                (
                    c
                    for c in components(current)
                    if (getattr(c, "custom_id", None) or "").startswith(f"{toggles}{card}@")
                ),
                None,
            )
            if button is None:
                break
            if getattr(button, "style", None) == discord.ButtonStyle.success:
                continue  # already picked (picks are kept with the seat)
            r = await member.user.click(current, custom_id=button.custom_id)
            assert r.acknowledged and refusal(r) is None, refusal(r)
            fresh = await self.hand(member)
            assert fresh is not None
            current = fresh
        prefix = f"tc:{self.table_id}:{kind}:"
        parts = [
            c.custom_id
            for c in components(message)
            if isinstance(c, discord.SelectMenu) and (c.custom_id or "").startswith(prefix)
        ]
        for part in parts:
            menu = next(c for c in components(current) if getattr(c, "custom_id", None) == part)
            assert isinstance(menu, discord.SelectMenu)
            mine = [o.value for o in menu.options if o.value in cards]
            if {o.value for o in menu.options if o.default} == set(mine):
                continue
            r = await member.user.select(current, mine, custom_id=part)
            assert r.acknowledged and refusal(r) is None, refusal(r)
            fresh = await self.hand(member)
            assert fresh is not None
            current = fresh
        confirm = f"tb:{self.table_id}:act:{kind}:cards="
        button = next(
            c
            for c in components(current)
            if isinstance(c, discord.Button) and (c.custom_id or "").startswith(confirm)
        )
        assert button.custom_id is not None
        return await member.user.click(current, custom_id=button.custom_id)

    async def play(
        self,
        max_steps: int = 3000,
        before_step: Callable[[], Awaitable[dict[int, discord.Message] | None]] | None = None,
        after_step: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Decide until the game is over; ``before_step`` may return stale hand messages."""
        for _ in range(max_steps):
            stale = await before_step() if before_step is not None else None
            if not await self.step(stale):
                return
            if after_step is not None:
                await after_step()
        raise AssertionError(f"{self.game_id}: no end after {max_steps} decisions")


# ---- raw interactions ------------------------------------------------------------------


def _emit(
    world: World,
    user_id: int,
    channel_id: int,
    kind: InteractionType,
    data: dict[str, Any],
    message: Any = None,
    components: list[dict[str, Any]] | None = None,
) -> Any:
    """Deliver one INTERACTION_CREATE as Discord would, without SimCord's checks that the
    component or option exists (malformed input is the point); returns its record.

    ``components`` replace the message's own in the payload: Discord only sends a custom_id
    that the message carries, so a custom_id the bot never rendered has to be put there."""
    backend = world.env.backend
    guild_id = backend.get_channel(channel_id).guild_id
    record, payload = sim_interactions.base_payload(
        backend, type=kind, channel_id=channel_id, guild_id=guild_id, user_id=user_id, data=data
    )
    if message is not None:
        payload["message"] = dict(serializers.message_payload(backend, message))
        if components is not None:
            payload["message"]["components"] = components
        record.source_message_id = message.id
    backend.emit("INTERACTION_CREATE", payload)
    return record


async def dispatch(
    world: World,
    user_id: int,
    channel_id: int,
    kind: InteractionType,
    data: dict[str, Any],
    *,
    message: Any = None,
    components: list[dict[str, Any]] | None = None,
) -> InteractionResult:
    """One raw interaction, answered (or ignored) by the bot before this returns."""
    record = _emit(world, user_id, channel_id, kind, data, message, components)
    await world.env.settle(idle=0.001)
    return InteractionResult(world.env, record)


def _component_data(custom_id: str, values: list[str] | None) -> dict[str, Any]:
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    if values is not None:
        data["values"] = values
    return data


async def send_together(
    world: World, user_id: int, message: Any, g: Gesture, copies: int = 2
) -> list[InteractionResult]:
    """The same gesture on ``message`` (a backend message) ``copies`` times, all delivered
    before the bot handles any: a double click on a slow connection."""
    values = None if g.kind == "click" else [g.value]
    records = [
        _emit(
            world,
            user_id,
            message.channel_id,
            InteractionType.MESSAGE_COMPONENT,
            _component_data(g.custom_id, values),
            message,
        )
        for _ in range(copies)
    ]
    await world.env.settle(idle=0.001)
    return [InteractionResult(world.env, r) for r in records]


async def raw_component(
    world: World, user_id: int, message: Any, custom_id: str, values: list[str] | None = None
) -> InteractionResult:
    """A click (``values`` None) or select on ``message`` (a backend message) with any
    custom_id and any values."""
    data = _component_data(custom_id, values)
    return await dispatch(
        world, user_id, message.channel_id, InteractionType.MESSAGE_COMPONENT, data, message=message
    )


async def raw_slash(
    world: World,
    user_id: int,
    channel_id: int,
    name: str,
    sub: str,
    options: list[dict[str, Any]],
    *,
    autocomplete: bool = False,
) -> InteractionResult:
    """``/name sub`` with option payloads as given: any type, any value, any name."""
    backend = world.env.backend
    root = backend.find_command(name, backend.get_channel(channel_id).guild_id)
    assert root is not None, f"/{name} is not synced"
    data: dict[str, Any] = {
        "id": root["id"],
        "name": root["name"],
        "type": 1,
        "options": [{"name": sub, "type": 1, "options": options}],
    }
    if root.get("guild_id"):
        data["guild_id"] = root["guild_id"]
    kind = (
        InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE
        if autocomplete
        else InteractionType.APPLICATION_COMMAND
    )
    return await dispatch(world, user_id, channel_id, kind, data)


# ---- errors ----------------------------------------------------------------------------


class Errors(logging.Handler):
    """Every ERROR record logged anywhere (``log.exception`` and discord.py's included)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def logged_errors() -> Iterator[Errors]:
    handler = Errors()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
