"""One process of a cluster uploads the slash commands: a process that does not own the sync
(``COMMAND_SYNC=off``, or ``auto`` without shard 0) starts and serves without uploading."""

from __future__ import annotations

from pathlib import Path

import simcord

from bot.client import TrionfiBot
from tests.conftest import SETTLE_TIMEOUT


def command_puts(env: simcord.Env) -> list[str]:
    return [c.path for c in env.http_requests if c.method == "PUT" and "/commands" in c.path]


async def test_only_the_owning_process_uploads_commands(tmp_path: Path) -> None:
    for owner, uploads in ((False, 0), (True, 1)):
        bot = TrionfiBot(
            tmp_path / "cluster.sqlite3", sweep_every=None, shard_count=1, command_sync=owner
        )
        try:
            async with simcord.run(bot, strict_sync=False, settle_timeout=SETTLE_TIMEOUT) as env:
                assert len(command_puts(env)) == uploads
                guild = env.create_guild("Club")
                channel = guild.create_text_channel("tarot")
                alice = guild.add_member(env.create_user("alice"))
                if owner:  # commands exist: the process serves them like any other
                    await alice.slash(channel, "lamorte new")
                    assert bot.service is not None
                    assert await bot.service.table_in_channel(channel.id) is not None
        finally:
            await bot.close()
