"""Gateway events a busy server sends the bot, with the intents before issue 15
(``Intents.default()``) and now (``guilds`` only).

A simulated server (SimCord) with ``--members`` members chatting for ``--minutes`` simulated
minutes: each member posts ``--messages`` messages a minute, each message gets a reaction and
a typing indicator, and now and then a message is edited. SimCord delivers exactly the events
the bot's intents subscribe to (the rest are dropped before the bot), so the count is what
Discord would send over the gateway.

    python -m bench.gateway_bench [--members 20] [--minutes 5] [--messages 6]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

import discord
import simcord

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.client import TrionfiBot


async def busy_guild(intents: discord.Intents | None, args: argparse.Namespace) -> tuple[int, int]:
    """(events delivered to the bot, events dropped) while the guild chats."""
    path = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    bot = TrionfiBot(path, sweep_every=None, shard_count=1)
    if intents is not None:
        bot._connection._intents = intents  # pyright: ignore[reportPrivateUsage]
    async with simcord.run(bot, approved_intents=discord.Intents.all()) as env:
        guild = env.create_guild("Busy")
        channel = guild.create_text_channel("general")
        members = [guild.add_member(env.create_user(f"m{i}")) for i in range(args.members)]
        start = len(env.backend.transcript)
        for minute in range(args.minutes):
            for m in members:
                for k in range(args.messages):
                    message = await m.send(channel, f"hello {minute}.{k}")
                    await m.typing(channel)
                    await members[(k + 1) % len(members)].react(message, "👍")
                    if k == 0:
                        await m.edit(message, "hello (edited)")
            await env.advance_time(60)
        kinds = [kind for kind, _name, _payload in env.backend.transcript[start:]]
    await bot.close()
    # The transcript lists every event emitted, then DROPPED for those the intents filter out.
    dropped = kinds.count("DROPPED")
    return kinds.count("GATEWAY") - dropped, dropped


async def main() -> None:
    parser = argparse.ArgumentParser(description="Gateway events of a busy server.")
    parser.add_argument("--members", type=int, default=20)
    parser.add_argument("--minutes", type=int, default=5)
    parser.add_argument("--messages", type=int, default=6)
    args = parser.parse_args()
    before = await busy_guild(discord.Intents.default(), args)
    after = await busy_guild(None, args)
    per = args.minutes
    print(
        f"busy guild: {args.members} members × {args.messages} messages/min "
        f"(+ a reaction and typing each, an edit each minute), {args.minutes} min"
    )
    print(f"before (Intents.default()): {before[0] / per:,.0f} events/min delivered")
    print(f"now (guilds only):          {after[0] / per:,.0f} events/min delivered")


if __name__ == "__main__":
    asyncio.run(main())
