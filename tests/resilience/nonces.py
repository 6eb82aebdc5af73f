"""Discord's enforced nonces, which SimCord ignores: a message posted with a nonce it saw
recently (``enforce_nonce``, which discord.py sets with any nonce) is not posted again; the
answer is the message that nonce already made.

The bot relies on it (``bot.ui.delivery.jobs.nonce``): a hand or a channel post sent again
after a crash that hid whether the first request arrived, or by two processes at once, makes
one message. A test of several processes on one SimCord wraps the bot's REST calls with
``EnforcedNonces.request`` so that such a repeat looks as it does on Discord, not like a
double post.

Discord decides on a nonce atomically: a second request with it, arriving while the first is
still being handled, gets the first one's message too. SimCord answers a request without ever
yielding to the event loop, so today nothing can come between the look-up and the post; the
emulation keeps its promise without relying on that (a request in flight is waited for), and
one that fails (a 5xx, a crash that cut it) made nothing: a waiting repeat is sent for real.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any, cast

import discord
from discord.http import Route


class EnforcedNonces:
    """The bot's REST calls (``send``: its HTTP client's ``request``) with the messages made
    by enforced nonces remembered, by (channel, nonce), for the whole test (Discord keeps them
    a few minutes: longer than any test runs). Install ``request`` in ``send``'s place."""

    def __init__(self, send: Callable[..., Awaitable[Any]]) -> None:
        self._send = send
        # An entry is a future while its first request is in flight: its message, or None if
        # that request made none.
        self._made: dict[tuple[str, str], asyncio.Future[Any]] = {}
        self.repeats = 0  # requests answered with the message an earlier one made

    async def request(self, route: Any, **kwargs: Any) -> Any:
        """Send ``route`` unless its enforced nonce already made a message (then that message
        as it is now, as Discord answers)."""
        tag = enforced_nonce(route, kwargs)
        if tag is None:
            return await self._send(route, **kwargs)
        while (made := self._made.get(tag)) is not None:
            # shield: a waiter cut by a crash must not cancel the first request's answer.
            answer = await asyncio.shield(made)
            if answer is not None:
                self.repeats += 1
                return await self._current(answer)
            # The first request made nothing (it failed): this one is sent for real, unless
            # another waiter got there first.
        made = asyncio.get_running_loop().create_future()
        self._made[tag] = made
        answer: Any = None
        try:
            answer = await self._send(route, **kwargs)
        finally:
            if answer is None:  # refused, failed or cut: the nonce is free again
                del self._made[tag]
            made.set_result(answer)
        return answer

    async def _current(self, answer: dict[str, Any]) -> Any:
        """The message ``answer`` describes, with the edits made to it since (as stored at its
        creation if it is gone)."""
        route = Route(
            "GET",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=answer["channel_id"],
            message_id=answer["id"],
        )
        try:
            return await self._send(route)
        except discord.NotFound:
            return answer


def enforced_nonce(route: Any, kwargs: dict[str, Any]) -> tuple[str, str] | None:
    """A new message's enforced nonce, with the channel it is posted in (None: none)."""
    if route.method != "POST" or not route.path.endswith("/messages"):
        return None
    payload: Any = kwargs.get("json")
    for part in kwargs.get("form") or []:  # a message with files: its JSON is a form field
        if isinstance(part, dict) and cast(dict[str, Any], part).get("name") == "payload_json":
            payload = json.loads(cast(dict[str, Any], part)["value"])
    if not isinstance(payload, dict):
        return None
    found = cast(dict[str, Any], payload)
    if found.get("nonce") is None or not found.get("enforce_nonce"):
        return None
    return (str(route.url), str(found["nonce"]))
