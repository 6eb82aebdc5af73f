"""Screenshots of every game's table and a hand, as a player sees them in Discord.

Plays a few decisions of each game on a simulated Discord (SimCord), opens SimCord's preview
of the channel and of a player's DMs, and takes a picture of each with headless Chromium:

    .venv/bin/pip install 'simcord[preview]' && apt-get install -y chromium
    .venv/bin/python -m docs.screenshots   # docs/screenshots/<game>_{table,hand}[_phone].png

Needs ``/usr/bin/chromium`` (Debian's package); nothing here runs in the test suite.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

import simcord
from simcord.backend.cdn import CDN_BASE

from bot.client import TrionfiBot
from bot.ui.delivery.suit_emojis import SUIT_EMOJI_NAMES
from bot.ui.pictures.suit_icons import suit_icon
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
    await asyncio.wait_for(proc.wait(), 120)


def suit_emoji_assets(env: simcord.Env) -> dict[str, tuple[str, bytes]]:
    """The pictures of the suit emojis the bot uploaded (SimCord keeps names, not images)."""
    suits = {name: suit for suit, name in SUIT_EMOJI_NAMES.items()}
    return {
        f"{CDN_BASE}/emojis/{e.id}.png": ("image/png", suit_icon(suits[e.name]))
        for e in env.backend.application_emojis.values()
        if e.name in suits
    }


async def game(game_id: str) -> None:
    bot = TrionfiBot(
        Path(tempfile.mkdtemp()) / "shots.sqlite3",
        seed_source=lambda: 9,
        sweep_every=None,
        shard_count=1,
        suit_emojis=True,
    )
    async with simcord.run(bot) as env:
        world = make_world(env, 2)
        table = Table(world, game_id, world.members[:2], 9)
        seats = seat_counts(game_id)
        await table.open(min(max(seats.start, 4), seats.stop - 1), {})
        for _ in range(STEPS):
            if not await table.step():
                break
        found = await table.mover()
        member = found[0] if found is not None else world.members[0]
        emojis = suit_emoji_assets(env)
        async with env.preview(
            world.channel, viewers=[member], layout="channel", assets=emojis
        ) as p:
            await shot(p.url, OUT / f"{game_id}_table.png", 1100)
            await shot(p.url, OUT / f"{game_id}_table_phone.png", 1600, PHONE_WIDTH)
        async with env.preview(member.user.dm_channel, viewers=[member.user], assets=emojis) as p:
            await shot(p.url, OUT / f"{game_id}_hand.png", 1100)
            await shot(p.url, OUT / f"{game_id}_hand_phone.png", 1600, PHONE_WIDTH)
    await bot.close()


async def main() -> None:
    OUT.mkdir(exist_ok=True)
    for game_id in landed_games():
        await game(game_id)
        print(f"{game_id}: {OUT / (game_id + '_table.png')}, {OUT / (game_id + '_hand.png')}")


if __name__ == "__main__":
    asyncio.run(main())
