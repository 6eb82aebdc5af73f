"""Screenshots of every game's table and a hand, as a player sees them in Discord.

Plays a few decisions of each game on a simulated Discord (SimCord), opens SimCord's preview
of the channel and of a player's DMs, and takes a picture of each with headless Chromium:

    .venv/bin/pip install 'simcord[preview]' && apt-get install -y chromium
    .venv/bin/python -m docs.screenshots   # docs/screenshots/<game>_<moment>[_phone].png

The moments: ``table`` (the channel), ``turn`` (a DM at its player's decision), ``waiting``
(a DM while others decide), ``summary`` (the channel after the first deal), ``result`` (the
channel at the end), ``result_card`` (a player's DM at the end) and ``bid`` (a DM at its
player's first bidding decision, in the games that bid).

Needs ``/usr/bin/chromium`` (Debian's package); nothing here runs in the test suite.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path
from typing import Any

import simcord
from simcord.backend.cdn import CDN_BASE

from bot.client import TrionfiBot
from bot.ui.delivery.suit_emojis import SUIT_EMOJI_NAMES
from bot.ui.pictures.suit_icons import suit_icon
from tests.e2e.helpers import components
from tests.resilience.drive import Table, landed_games, make_world, seat_counts

OUT = Path(__file__).resolve().parent / "screenshots"
STEPS = 10  # decisions played before the pictures are taken
PHONE_WIDTH = 390  # CSS pixels of a common phone, for the *_phone.png pictures


async def shot(url: str, path: Path, height: int, width: int = 1000) -> None:
    browser = shutil.which("chromium") or "/usr/bin/chromium"
    proc = await asyncio.create_subprocess_exec(
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--hide-scrollbars",
        f"--screenshot={path}",
        f"--window-size={width},{height}",
        "--virtual-time-budget=8000",
        url,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    before = path.stat().st_mtime_ns if path.exists() else None
    await asyncio.wait_for(proc.wait(), 120)
    if proc.returncode != 0 or not path.exists() or path.stat().st_mtime_ns == before:
        raise RuntimeError(f"chromium drew no {path.name} (exit status {proc.returncode})")


def suit_emoji_assets(env: simcord.Env) -> dict[str, tuple[str, bytes]]:
    """The pictures of the suit emojis the bot uploaded (SimCord keeps names, not images)."""
    suits = {name: suit for suit, name in SUIT_EMOJI_NAMES.items()}
    return {
        f"{CDN_BASE}/emojis/{e.id}.png": ("image/png", suit_icon(suits[e.name]))
        for e in env.backend.application_emojis.values()
        if e.name in suits
    }


async def game(game_id: str) -> list[str]:
    """Every moment of one game worth a picture; returns the names taken."""
    bot = TrionfiBot(
        Path(tempfile.mkdtemp()) / "shots.sqlite3",
        seed_source=lambda: 9,
        sweep_every=None,
        shard_count=1,
        suit_emojis=True,
    )
    taken: list[str] = []
    async with simcord.run(bot) as env:
        world = make_world(env, 2)
        table = Table(world, game_id, world.members[:2], 9)
        seats = seat_counts(game_id)
        await table.open(min(max(seats.start, 4), seats.stop - 1))  # the short options
        for _ in range(STEPS):
            if not await table.step():
                break
        found = await table.mover()
        member = found[0] if found is not None else world.members[0]
        waiting = next(m for m in world.members[:2] if m is not member)
        emojis = suit_emoji_assets(env)

        async def pair(where: Any, viewer: Any, name: str, **layout: Any) -> None:
            """``name``.png at desktop width, and ``name``_phone.png drawn by the preview
            as a phone's screen (fixed at its width: the media scale to it, as a phone's
            Discord does)."""
            async with env.preview(where, viewers=[viewer], assets=emojis, **layout) as p:
                await shot(p.url, OUT / f"{game_id}_{name}.png", 1100)
            async with env.preview(
                where,
                viewers=[viewer],
                assets=emojis,
                display="fixed",
                width=PHONE_WIDTH,
                height=1600,
                **layout,
            ) as p:
                await shot(p.url, OUT / f"{game_id}_{name}_phone.png", 1600, PHONE_WIDTH)
            taken.append(name)

        async def channel(name: str) -> None:
            await pair(world.channel, member, name, layout="channel")

        async def dm(who: Any, name: str) -> None:
            await pair(who.user.dm_channel, who.user, name)

        await channel("table")  # the spectators' view
        await dm(member, "turn")  # a DM at its player's decision: the whole table
        await dm(waiting, "waiting")  # a DM while others decide
        # On to the first deal's end: its summary in the channel.
        store = table.service.store
        while not await store.deal_results(table.table_id) and await table.step():
            pass
        await channel("summary")
        await table.play()  # to the end: the final sheet, and each player's result card
        await channel("result")
        await dm(member, "result_card")
    await bot.close()
    return taken


#: A hand's controls that make a bidding decision (issue 31's guided bids): a bid, Accept or
#: Drop, a bargaining call, or the Other… field of a typed bid.
_BIDDING = (":act:bid", ":act:accept", ":act:drop", ":act:pass", ":act:continue", "ta:")


def offers_bid(message: Any) -> bool:
    return any(
        any(mark in (getattr(c, "custom_id", None) or "") for mark in _BIDDING)
        for c in components(message)
    )


async def bid(game_id: str) -> list[str]:
    """``bid``: a player's DM at their first bidding decision (guided: the line on the hand,
    the multipliers, the quick bids, what Accept and Drop score)."""
    bot = TrionfiBot(
        Path(tempfile.mkdtemp()) / "shots.sqlite3",
        seed_source=lambda: 9,
        sweep_every=None,
        shard_count=1,
        suit_emojis=True,
    )
    taken: list[str] = []
    async with simcord.run(bot) as env:
        world = make_world(env, 2)
        table = Table(world, game_id, world.members[:2], 9)
        seats = seat_counts(game_id)
        await table.open(min(max(seats.start, 4), seats.stop - 1))
        found = await table.mover()
        for _ in range(200):
            if found is None or offers_bid(found[1]):
                break
            await table.step(found=found)
            found = await table.mover()
        if found is not None and offers_bid(found[1]):
            member = found[0]
            emojis = suit_emoji_assets(env)
            where = member.user.dm_channel
            async with env.preview(where, viewers=[member.user], assets=emojis) as p:
                await shot(p.url, OUT / f"{game_id}_bid.png", 1500)  # the buttons too
            async with env.preview(
                where,
                viewers=[member.user],
                assets=emojis,
                display="fixed",
                width=PHONE_WIDTH,
                height=1600,
            ) as p:
                await shot(p.url, OUT / f"{game_id}_bid_phone.png", 1600, PHONE_WIDTH)
            taken.append("bid")
    await bot.close()
    return taken


async def main() -> None:
    OUT.mkdir(exist_ok=True)
    for game_id in landed_games():
        taken = await game(game_id)
        taken += await bid(game_id)
        print(f"{game_id}: " + ", ".join(f"{game_id}_{n}[_phone].png" for n in taken))


if __name__ == "__main__":
    asyncio.run(main())
