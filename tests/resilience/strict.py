"""A SimCord that refuses what Discord refuses, and a channel's permissions changed mid-test.

SimCord enforces View Channel (403, code 50001 Missing Access), Send Messages and Read Message
History on the bot's requests, but not Attach Files nor Embed Links. Discord answers 403 with
code 50013 "Missing Permissions" to a message (new or edited) that uploads a file without
Attach Files, or carries an embed without Embed Links; ``refuse_as_discord`` makes SimCord's
message routes do the same, for the test that calls it. Use External Emojis is not refused by
Discord (the emoji shows as ``:name:``), so the tests read the text instead.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord
from simcord.backend import errors
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType
from simcord.http import router

#: The message routes that take files and embeds, as SimCord's route table spells them.
_MESSAGE_ROUTES = (
    ("POST", ["channels", "{channel_id}", "messages"]),
    ("PATCH", ["channels", "{channel_id}", "messages", "{message_id}"]),
)


def refuse_as_discord(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Make SimCord refuse uploads without Attach Files and embeds without Embed Links (403,
    50013), as Discord does; returns the list each refusal is recorded in (method, path)."""
    refused: list[tuple[str, str]] = []
    table = router._ROUTES  # pyright: ignore[reportPrivateUsage]
    for method, template in _MESSAGE_ROUTES:
        routes = list(table[method])
        index = next(i for i, (t, _h) in enumerate(routes) if t == template)
        handler = routes[index][1]

        def strict(ctx: Any, handler: Any = handler) -> Any:
            backend = ctx.backend
            channel = backend.get_channel(ctx.int_arg("channel_id"))
            if channel.guild_id is not None:
                perms = discord.Permissions(
                    backend.compute_permissions(channel.guild_id, backend.bot_user.id, channel.id)
                )
                body = ctx.json if isinstance(ctx.json, dict) else {}
                # Without View Channel SimCord's own check answers first (50001), as Discord.
                if perms.view_channel and (
                    (ctx.files and not perms.attach_files)
                    or (body.get("embeds") and not perms.embed_links)
                ):
                    refused.append((ctx.method, ctx.path))
                    raise errors.missing_permissions()
            return handler(ctx)

        routes[index] = (template, strict)
        monkeypatch.setitem(table, method, routes)
    return refused


def deny(env: simcord.Env, channel_id: int, *permissions: str) -> None:
    """Take ``permissions`` from the bot in the channel, as a moderator's overwrite does (the
    bot hears of it through the gateway, as it would from Discord)."""
    denied = discord.Permissions(**dict.fromkeys(permissions, True))
    bot_id = env.backend.bot_user.id
    env.backend.set_overwrite(
        channel_id,
        Overwrite(target_id=bot_id, type=OverwriteType.MEMBER, allow=0, deny=denied.value),
    )


def restore(env: simcord.Env, channel_id: int) -> None:
    """Remove the bot's overwrite in the channel: its permissions are the server's again."""
    env.backend.delete_overwrite(channel_id, env.backend.bot_user.id)
