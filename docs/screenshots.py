"""Screenshots of every game's table and a hand, as a player sees them in Discord.

Plays a few decisions of each game on a simulated Discord (SimCord), opens SimCord's preview
of the channel and of a player's DMs, and takes a picture of each with headless Chromium:

    .venv/bin/pip install 'simcord[preview]' && apt-get install -y chromium
    .venv/bin/python -m docs.screenshots   # docs/screenshots/<game>_<moment>[_phone].png

The moments: ``table`` (the channel), ``turn`` (a DM at its player's decision), ``waiting``
(a DM while others decide), ``summary`` (the channel after the first deal), ``result`` (the
channel at the end) and ``result_card`` (a player's DM at the end); and Queen of Tarot's
``discard`` (the dealer's DM: menus in the Italian suits' emojis) and ``lobby_it`` (an Italian
table's lobby).

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
from bot.ui.delivery.suit_emojis import ITALIAN_EMOJI_NAMES, SUIT_EMOJI_NAMES
from bot.ui.pictures.suit_icons import suit_icon
from tests.e2e.helpers import components, embed_text
from tests.resilience.drive import Table, landed_games, make_world, seat_counts

OUT = Path(__file__).resolve().parent / "screenshots"
STEPS = 10  # decisions played before the pictures are taken
PHONE_WIDTH = 390  # CSS pixels of a common phone, for the *_phone.png pictures
SETTLE = 60.0  # seconds SimCord waits for the bot (computer players on a busy machine)


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
    suits = {name: (suit, False) for suit, name in SUIT_EMOJI_NAMES.items()}
    suits |= {name: (suit, True) for suit, name in ITALIAN_EMOJI_NAMES.items()}
    return {
        f"{CDN_BASE}/emojis/{e.id}.png": ("image/png", suit_icon(*suits[e.name]))
        for e in env.backend.application_emojis.values()
        if e.name in suits
    }


def shots_bot() -> TrionfiBot:
    return TrionfiBot(
        Path(tempfile.mkdtemp()) / "shots.sqlite3",
        seed_source=lambda: 9,
        sweep_every=None,
        shard_count=1,
        suit_emojis=True,
    )


async def pair(
    env: simcord.Env, where: Any, viewer: Any, path: Path, height: int = 1100, **layout: Any
) -> None:
    """``path`` at desktop width, and ``path``'s ``_phone`` twin drawn by the preview as a
    phone's screen (fixed at its width: the media scale to it, as a phone's Discord does)."""
    emojis = suit_emoji_assets(env)
    async with env.preview(where, viewers=[viewer], assets=emojis, **layout) as p:
        await shot(p.url, path, height)
    async with env.preview(
        where,
        viewers=[viewer],
        assets=emojis,
        display="fixed",
        width=PHONE_WIDTH,
        height=1600,
        **layout,
    ) as p:
        await shot(p.url, path.with_name(f"{path.stem}_phone.png"), 1600, PHONE_WIDTH)


async def queen_moments() -> list[str]:
    """Queen of Tarot's own moments (issue 31): the dealer's discard in the Italian suits'
    emojis, and an Italian table's lobby (its title and number in Italian)."""
    bot = shots_bot()
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        world = make_world(env, 3)  # three humans: the dealer is one of them
        table = Table(world, "queen_of_tarot", world.members, 9)
        await table.open(3)
        found = await table.mover()
        while found is not None and "Discard 3" not in embed_text(found[1]):
            hand = found[1]
            go_on = next(
                (c for c in components(hand) if ":act:continue" in (c.custom_id or "")),
                None,
            )
            if go_on is not None:  # on to the dealing's end, as quickly as people would
                await found[0].user.click(hand, custom_id=go_on.custom_id)
            else:
                await table.step(found=found)
            found = await table.mover()
        assert found is not None
        dealer = found[0]
        await pair(env, dealer.user.dm_channel, dealer.user, OUT / "queen_of_tarot_discard.png")
        italian = make_world(env, 1, server="Circolo dei Tarocchi")
        await italian.members[0].slash(italian.channel, "tarocchi new", language="it")
        await pair(
            env,
            italian.channel,
            italian.members[0],
            OUT / "queen_of_tarot_lobby_it.png",
            700,
            layout="channel",
        )
    await bot.close()
    return ["discard", "lobby_it"]


async def game(game_id: str) -> list[str]:
    """Every moment of one game worth a picture; returns the names taken."""
    bot = shots_bot()
    taken: list[str] = []
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
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

        async def both(where: Any, viewer: Any, name: str, **layout: Any) -> None:
            await pair(env, where, viewer, OUT / f"{game_id}_{name}.png", **layout)
            taken.append(name)

        async def channel(name: str) -> None:
            await both(world.channel, member, name, layout="channel")

        async def dm(who: Any, name: str) -> None:
            await both(who.user.dm_channel, who.user, name)

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


async def main() -> None:
    OUT.mkdir(exist_ok=True)
    for game_id in landed_games():
        taken = await game(game_id)
        if game_id == "queen_of_tarot":
            taken += await queen_moments()
        print(f"{game_id}: " + ", ".join(f"{game_id}_{n}[_phone].png" for n in taken))


if __name__ == "__main__":
    asyncio.run(main())
