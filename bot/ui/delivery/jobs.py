"""What a table still has to show (``Job``), and how a rendered message is compared."""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, cast

import discord
from discord.ui.view import BaseView

from bot.services.models import Outcome
from bot.ui.delivery.pictures import PICTURE

_T = TypeVar("_T")


def nonce(*parts: object) -> str:
    """A message's nonce, the same in every process for the same parts (the table, what the
    message is, what it replaces): Discord answers a repeated nonce within a few minutes with
    the message it already created (discord.py 2.7 sets ``enforce_nonce`` with any nonce), so
    a request sent again after a crash that hid whether the first one arrived posts once.
    24 hex digits: Discord takes at most 25 characters."""
    text = ":".join(str(p) for p in parts)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


@dataclass
class Post:
    """A new channel message (a deal summary, a notice, the final result). The first summary
    of a commit also replaces the current table message (``replaces``: deleted once it is
    posted, and the next table message posted after it).

    ``key`` names it in the outbox (``deal:N``, ``final``, ``notice:SEQ:PART``): it is
    claimed there (with a lease) before it is sent and marked posted once Discord accepted it,
    so it goes out once across retries, rebuilds, crashes and processes (``bot.db.outbox``)."""

    fields: dict[str, Any]
    key: str
    replaces: bool = False
    final: Outcome | None = None  # the result: its deal-by-deal table is read when sent


@dataclass
class Job:
    """What one table still has to show."""

    outcome: Outcome
    posts: list[Post] = field(default_factory=list[Post])
    fresh: bool = False  # post a new table message instead of editing the current one
    renotify: set[int] = field(default_factory=set[int])  # seats to notify with a new DM
    attempts: int = 0
    #: When the oldest commit it shows was queued (``time.monotonic``): the delivery lag.
    since: float = field(default_factory=time.monotonic)
    #: The ``seq`` marked shown once this job is delivered: the last commit whose posts it
    #: carries (None: a redraw of the current state, which marks nothing).
    upto: int | None = None

    @property
    def prior_seq(self) -> int | None:
        """The table's ``seq`` before the first commit this job shows (None: a redraw)."""
        return self.outcome.prior_seq

    def merge(self, newer: Job) -> Job:
        """This job followed by ``newer``: posts in order (each once), the newest state, and
        the earliest commit either shows."""
        newest = newer.outcome.table.seq >= self.outcome.table.seq
        outcome = newer.outcome if newest else self.outcome
        priors = [p for p in (self.prior_seq, newer.prior_seq) if p is not None]
        keys = {p.key for p in self.posts}
        return Job(
            outcome=replace(outcome, prior_seq=min(priors) if priors else None),
            posts=self.posts + [p for p in newer.posts if p.key not in keys],
            fresh=self.fresh or newer.fresh,
            renotify=self.renotify | newer.renotify,
            attempts=self.attempts,
            since=min(self.since, newer.since),
            upto=max((u for u in (self.upto, newer.upto) if u is not None), default=None),
        )

    def absorb(self, other: Job, *, first: bool = False) -> None:
        """Become this job merged with ``other`` (``first``: ``other`` comes before it, e.g.
        earlier commits rebuilt from the log), in place: the running delivery goes on with
        it."""
        merged = other.merge(self) if first else self.merge(other)
        self.outcome, self.posts, self.fresh = merged.outcome, merged.posts, merged.fresh
        self.renotify, self.upto, self.since = merged.renotify, merged.upto, merged.since


async def together(*requests: Awaitable[_T]) -> list[_T]:
    """Run ``requests`` concurrently and wait for all of them, then raise the first error.

    Unlike a bare ``asyncio.gather``, a failing one never leaves its siblings running beside
    the retry that follows it (issue 29: a hand sent twice); nor is a sibling cancelled
    half-way through a request whose effect would then be unknown.
    """
    results = await asyncio.gather(*requests, return_exceptions=True)
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return cast(list[_T], results)


def shows(message: discord.Message, fields: dict[str, Any]) -> bool:
    """Whether ``message`` (as Discord answered a send of ``fields``) shows their words and
    controls. A send with a nonce Discord saw already is answered with the message that nonce
    made then, drawn by whichever request made it; a fresh message shows what was sent."""
    view, embed = fields.get("view"), fields.get("embed")
    drawn = view.to_components() if isinstance(view, BaseView) else []
    answered = [c.to_dict() for c in message.components]
    return (
        message.content or "",
        [(e.title, e.description) for e in message.embeds],
        _words_and_controls(answered),
    ) == (
        fields.get("content") or "",
        [(embed.title, embed.description)] if isinstance(embed, discord.Embed) else [],
        _words_and_controls(drawn),
    )


def _words_and_controls(components: list[Any]) -> list[tuple[Any, ...]]:
    """The texts, pictures' alt texts, buttons and menus of a message's components (dicts),
    in order; what Discord adds (component ids, attachments' addresses) left out."""
    out: list[tuple[Any, ...]] = []
    stack = list(reversed(components))
    while stack:
        c = cast(dict[str, Any], stack.pop())
        kind = c.get("type")
        if kind == 10:  # a text display
            out.append(("text", c.get("content")))
        elif kind == 12:  # a media gallery
            out += [("alt", item.get("description") or "") for item in c.get("items", [])]
        elif kind == 2:  # a button
            out.append(("button", c.get("custom_id"), c.get("label"), bool(c.get("disabled"))))
        elif kind == 3:  # a menu
            values = tuple(o.get("value") for o in c.get("options", []))
            out.append(("menu", c.get("custom_id"), values, bool(c.get("disabled"))))
        children = [*c.get("components", []), *([c["accessory"]] if "accessory" in c else [])]
        stack.extend(reversed(children))
    return out


def mark(message_id: int | None, digest: str) -> str:
    """What the fingerprint caches keep for a message: its id and the ``fingerprint`` of
    what was drawn on it. The id matters: another process may have replaced the message (a
    hand sent anew, a table message posted again), and what this process drew on the old
    one says nothing of the new one (the chaos run's "the DM hand is not the engine's
    view": a notification's new hand, drawn at an older state, was taken for the one this
    process had drawn the same state on)."""
    return f"{message_id}:{digest}"


def fingerprint(fields: dict[str, Any]) -> str:
    """A digest of a message's visible content and controls."""
    embed = fields.get("embed")
    view = fields.get("view")
    picture = fields.get(PICTURE)
    data = [
        fields.get("content"),
        embed.to_dict() if isinstance(embed, discord.Embed) else None,
        view.to_components() if isinstance(view, BaseView) else None,
        None if picture is None else hashlib.blake2b(picture[1], digest_size=16).hexdigest(),
    ]
    return hashlib.blake2b(
        json.dumps(data, sort_keys=True, default=str).encode(), digest_size=16
    ).hexdigest()
