"""What must hold after a chaos run (``tests.cluster.chaos_play``), checked from the outside:
what SimCord's Discord shows, the REST calls the bot made, and the database.

- **posted once**: each ended deal's summary and the final result are in the table's channel
  exactly once (by their first lines, which name the table and the deal);
- **one table message**: only the table's current message carries live table controls
  (none once the game is over), and it shows the table's latest state (drawn again here from
  the database with the bot's own screens);
- **hands**: every seated human's DM hand shows what the engine's private view at the latest
  ``seq`` renders (so the seat to act has its controls), and no other message in their DMs
  carries live controls of that table;
- **notifications once**: every turn notification claimed in the database (recorded by a
  trigger installed for the run: ``notify_at`` cleared with ``seq`` unchanged) was sent, and
  only once: a seat's hand was posted as a new DM once at the start and once per claim; a
  claim still owed when the table moved on (``notify_owed`` cleared by a new ``seq``: moot)
  may or may not have gone out before that;
- **shown**: every table's ``shown_seq`` reached its ``seq``;
- **replay**: every action log replays to its snapshot.

Each check collects its problems (``Findings``) instead of stopping at the first, so the bench
prints everything a run broke; the test asserts there are none.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import asyncpg
import discord
import simcord
from simcord.results import to_discord_message

from bot.engine import match
from bot.services.tables import TableService
from bot.ui.handlers.screens import TableScreens
from tests.e2e.helpers import components, parts

if TYPE_CHECKING:
    from tests.cluster.chaos import Cluster
    from tests.resilience.drive import Table

CHECKS = ("posted once", "one table message", "hands", "notifications once", "shown", "replay")
#: Verbs of a table's controls that act on the running game (the lobby's and the result's
#: buttons are not live table controls).
LIVE = ("hand", "act", "back", "end", "hint")
SUMMARY = re.compile(r"table #(\d+) — (?:deal|hand) (\d+) (?:result|score sheet)$")
RESULT = re.compile(r"table #(\d+) — game over$")
#: A hand's first line: "🟢 Your turn — La Morte #3 (Tarot Club): …" or "⚪ La Morte #3".
_HAND = re.compile(r"^(?:🟢 Your turn — |⚪ )[^#]*#(\d+)")

_AUDIT = """
CREATE TABLE IF NOT EXISTS chaos_claims (
    id BIGSERIAL PRIMARY KEY, table_id BIGINT NOT NULL, seq BIGINT NOT NULL, seat INT);
CREATE TABLE IF NOT EXISTS chaos_moot (
    id BIGSERIAL PRIMARY KEY, table_id BIGINT NOT NULL, seq BIGINT NOT NULL, seat INT);
CREATE OR REPLACE FUNCTION chaos_claim() RETURNS trigger AS $$
BEGIN
    IF OLD.notify_at IS NOT NULL AND NEW.notify_at IS NULL AND OLD.seq = NEW.seq THEN
        INSERT INTO chaos_claims (table_id, seq, seat) VALUES (OLD.id, OLD.seq, OLD.notify_seat);
    END IF;
    IF OLD.notify_owed IS NOT NULL AND NEW.notify_owed IS NULL AND OLD.seq <> NEW.seq THEN
        INSERT INTO chaos_moot (table_id, seq, seat) VALUES (OLD.id, OLD.seq, OLD.notify_owed);
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS chaos_claim ON tables;
CREATE TRIGGER chaos_claim AFTER UPDATE ON tables FOR EACH ROW EXECUTE FUNCTION chaos_claim();
"""


async def install_audit(url: str) -> None:
    """Record every turn-notification claim of the run, whichever process makes it."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(_AUDIT)
    finally:
        await conn.close()


async def claims(url: str, audit: str = "chaos_claims") -> Counter[tuple[int, int]]:
    """(table, seat) -> turn notifications claimed (``chaos_moot``: of those, the ones still
    owed when the table moved on: the player acted, or the clock acted for them)."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(f"SELECT table_id, seat FROM {audit}")
    finally:
        await conn.close()
    return Counter((r["table_id"], r["seat"]) for r in rows)


async def unshown(url: str) -> list[int]:
    """Tables that still owe something: an unshown commit, a turn notification owed (a
    crash between taking it and recording it sent leaves it to a later re-publisher), or a
    replaced message to delete (left by a crash, for the sweepers)."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT id FROM tables WHERE shown_seq < seq OR notify_owed IS NOT NULL "
            "OR id IN (SELECT table_id FROM table_retired) ORDER BY id"
        )
    finally:
        await conn.close()
    return [r["id"] for r in rows]


@dataclass
class Findings:
    """Problems found, by check (an empty list: the check passed)."""

    problems: dict[str, list[str]] = field(
        default_factory=lambda: {name: list[str]() for name in CHECKS}
    )
    checked: Counter[str] = field(default_factory=Counter[str])  # what was looked at

    def add(self, check: str, text: str) -> None:
        self.problems[check].append(text)

    @property
    def ok(self) -> bool:
        return not any(self.problems.values())

    def lines(self, limit: int = 6) -> list[str]:
        out = ["checked: " + ", ".join(f"{k} {v}" for k, v in sorted(self.checked.items()))]
        for name, found in self.problems.items():
            out.append(f"{'FAIL' if found else 'ok  '} {name}: {len(found)} problem(s)")
            out += [f"       {p}" for p in found[:limit]]
            if len(found) > limit:
                out.append(f"       … {len(found) - limit} more")
        return out


# ---- what a message shows, comparably ------------------------------------------------------


def shown_key(message: discord.Message) -> tuple[Any, ...]:
    """A stored message's words (its content, the layout's text displays and its pictures'
    alt texts, in order) and controls."""
    out: list[tuple[Any, ...]] = [("content", message.content or "")]
    for c in parts(message):
        if isinstance(c, discord.TextDisplay):
            out.append(("text", c.content))
        elif isinstance(c, discord.MediaGalleryComponent):
            out += [("alt", item.description or "") for item in c.items]
        elif isinstance(c, discord.Button):
            out.append(("button", c.custom_id, c.label, bool(c.disabled)))
        elif isinstance(c, discord.SelectMenu):
            out.append(("select", c.custom_id, tuple(o.value for o in c.options)))
    return tuple(out)


def drawn_key(fields: dict[str, Any]) -> tuple[Any, ...]:
    """The same of message fields the bot would send (``content``, a layout ``view``)."""
    out: list[tuple[Any, ...]] = [("content", fields.get("content") or "")]
    view = fields.get("view")
    stack: list[dict[str, Any]] = list(reversed(view.to_components())) if view else []
    while stack:
        c = stack.pop()
        kind = c.get("type")
        if kind == 10:
            out.append(("text", c.get("content")))
        elif kind == 12:
            out += [("alt", item.get("description") or "") for item in c.get("items", [])]
        elif kind == 2:
            out.append(("button", c.get("custom_id"), c.get("label"), bool(c.get("disabled"))))
        elif kind == 3:
            out.append(("select", c.get("custom_id"), tuple(o["value"] for o in c["options"])))
        children = [*c.get("components", []), *([c["accessory"]] if "accessory" in c else [])]
        stack.extend(reversed(children))
    return tuple(out)


def _difference(shown: tuple[Any, ...], drawn: tuple[Any, ...]) -> str | None:
    """Where a shown message first differs from what the bot would draw (None: nowhere)."""
    if shown == drawn:
        return None
    for i, (a, b) in enumerate(zip(shown, drawn, strict=False)):
        if a != b:
            x, y = str(a), str(b)
            at = next((k for k, (c, d) in enumerate(zip(x, y, strict=False)) if c != d), 0)
            return f"part {i}: shown …{x[at - 60 : at + 60]!r}…, drawn …{y[at - 60 : at + 60]!r}…"
    return f"shown {len(shown)} parts, drawn {len(drawn)}"


def head(message: discord.Message) -> str:
    """A layout message's first line, its markdown emphasis left out."""
    first = next((c.content for c in parts(message) if isinstance(c, discord.TextDisplay)), "")
    return first.strip().strip("*")


def live_controls(message: discord.Message, table_id: int) -> bool:
    """Does the message carry controls that act on the running table?"""
    for c in components(message):
        custom_id = getattr(c, "custom_id", None) or ""
        parts = custom_id.split(":")
        ours = len(parts) >= 3 and parts[1] == str(table_id)
        if ours and (parts[0] in ("ts", "tc") or (parts[0] == "tb" and parts[2] in LIVE)):
            return True
    return False


def _messages(env: simcord.Env, channel_id: int) -> list[discord.Message]:
    stored = env.backend.messages.get(channel_id, {}).values()
    return [to_discord_message(env, m) for m in sorted(stored, key=lambda m: m.id)]


def _first_text(components: list[dict[str, Any]]) -> str:
    """The first text display of a request's components (a layout message's first line)."""
    stack = list(reversed(components))
    while stack:
        c = stack.pop()
        if c.get("type") == 10:
            return str(c.get("content", ""))
        stack.extend(reversed(c.get("components", [])))
    return ""


def _hand_posts(env: simcord.Env, dm_channels: set[int]) -> Counter[tuple[int, int]]:
    """(table, DM channel) -> hands posted as new DMs (a hand's first line names its table)."""
    posts: Counter[tuple[int, int]] = Counter()
    for r in env.http_requests:
        parts = r.path.strip("/").split("/")
        if r.method != "POST" or len(parts) != 3 or parts[2] != "messages":
            continue
        channel = int(parts[1])
        if channel not in dm_channels or not isinstance(r.json, dict):
            continue
        found = _HAND.search(_first_text(r.json.get("components") or []))
        if found:
            posts[(int(found.group(1)), channel)] += 1
    return posts


# ---- the checks ------------------------------------------------------------------------------


async def check_all(
    env: simcord.Env, observer: TableService, cluster: Cluster, tables: list[Table]
) -> Findings:
    """Every check over every table of the run."""
    f = Findings()
    assert cluster.bot is not None
    screens = TableScreens(cluster.bot, observer)
    claimed = await claims(cluster.url)
    moot = await claims(cluster.url, "chaos_moot")
    dm_channels: set[int] = set()
    for t in tables:
        info = await observer.get_table(t.table_id)
        dm_channels |= {s.dm_channel_id for s in info.seats if s.dm_channel_id is not None}
    posted = _hand_posts(env, dm_channels)
    for t in tables:
        await _check_table(env, observer, screens, t.table_id, f, claimed, moot, posted)
    return f


async def _check_table(
    env: simcord.Env,
    observer: TableService,
    screens: TableScreens,
    table_id: int,
    f: Findings,
    claimed: Counter[tuple[int, int]],
    moot: Counter[tuple[int, int]],
    posted: Counter[tuple[int, int]],
) -> None:
    store = observer.store
    rec = await store.get(table_id)
    assert rec is not None
    out = await observer.snapshot(table_id)
    info = out.table
    where = f"table {table_id} ({rec.game_id}, {rec.status}, seq {rec.seq})"
    f.checked["tables"] += 1

    # shown and replay
    if rec.shown_seq < rec.seq:
        f.add("shown", f"{where}: shown_seq {rec.shown_seq}")
    log = await store.log(table_id)
    seqs = [e.seq for e in log]
    if seqs != sorted(set(seqs)) or rec.snapshot is None:
        f.add("replay", f"{where}: log out of order or no snapshot")
    elif await observer.replay(table_id) != match.from_json(rec.snapshot):
        f.add("replay", f"{where}: the log does not replay to the snapshot")
    f.checked["log entries"] += len(log)

    # posted once: summaries and result
    channel = _messages(env, rec.channel_id)
    summaries: Counter[int] = Counter()
    results = 0
    for m in channel:
        title = head(m)
        if (s := SUMMARY.search(title)) and int(s.group(1)) == table_id:
            summaries[int(s.group(2))] += 1
        elif (r := RESULT.search(title)) and int(r.group(1)) == table_id:
            results += 1
    ended = [d.deal_no for d in await store.deal_results(table_id)]
    f.checked["deal summaries"] += len(ended)
    for deal in ended:
        if summaries[deal] != 1:
            f.add("posted once", f"{where}: deal {deal}'s summary posted {summaries[deal]} times")
    extra = set(summaries) - set(ended)
    if extra:
        f.add("posted once", f"{where}: summaries of deals that did not end: {sorted(extra)}")
    want = 1 if rec.status == "finished" else 0
    f.checked["results"] += want
    if results != want:
        f.add("posted once", f"{where}: final result posted {results} times (expected {want})")

    # one table message, showing the latest state
    live = [m.id for m in channel if live_controls(m, table_id)]
    expect_live = [rec.message_id] if rec.status == "playing" else []
    f.checked["table messages"] += 1
    if sorted(live) != expect_live:
        orphans = [i for i in live if i != rec.message_id]
        f.add(
            "one table message",
            f"{where}: {len(live)} message(s) with live controls ({len(orphans)} orphan(s))",
        )
    current = next((m for m in channel if m.id == rec.message_id), None)
    if rec.status in ("playing", "finished") and out.public is not None:
        if rec.status == "playing":
            fields = screens.table_message(out)
        else:
            fields = screens.finished_table(out)
        if current is None and rec.status == "playing":
            f.add("one table message", f"{where}: no table message")
        elif current is None:
            pass  # the last deal's summary took the table message's place
        elif shown_key(current) != drawn_key(fields):
            f.add("one table message", f"{where}: the table message is not the latest state")

    # hands
    for seat in info.seats:
        if seat.user_id is None or seat.is_bot or seat.resigned or seat.dm_failed:
            continue
        f.checked["hands"] += 1
        to_act = out.public is not None and out.public.to_act == seat.seat
        who = f"{where} seat {seat.seat}{' (to act)' if to_act else ''}"
        if seat.dm_channel_id is None or seat.dm_message_id is None:
            f.add("hands", f"{who}: no DM hand")
            continue
        dms = _messages(env, seat.dm_channel_id)
        hand = next((m for m in dms if m.id == seat.dm_message_id), None)
        if seat.seat in out.seat_views:
            expected = await screens.hand_with_picture(out, seat.seat, seat.user_id)
            if hand is None:
                f.add("hands", f"{who}: its DM hand is gone")
            elif (diff := _difference(shown_key(hand), drawn_key(expected))) is not None:
                f.add(
                    "hands",
                    f"{who}: the DM hand is not the engine's view at seq {rec.seq} ({diff})",
                )
        stray = [m.id for m in dms if m.id != seat.dm_message_id and live_controls(m, table_id)]
        if stray:
            f.add("hands", f"{who}: {len(stray)} other DM(s) with live controls")

        # notifications once
        # A notification still owed when its turn ended (its sender crashed, and the player
        # acted before its lease lapsed) must not go out any more ("your turn" about a turn
        # that is over), but may have gone out just before the turn ended: never more than
        # one hand per claim, and one per claim that was not made moot.
        notified = claimed[(table_id, seat.seat)]
        dropped = moot[(table_id, seat.seat)]
        sent = posted[(table_id, seat.dm_channel_id)] - 1
        f.checked["notifications"] += notified
        f.checked["notifications moot"] += dropped
        if not notified - dropped <= sent <= notified:
            f.add(
                "notifications once",
                f"{who}: {notified} notification(s) claimed ({dropped} moot), "
                f"{sent} hand(s) re-sent",
            )
