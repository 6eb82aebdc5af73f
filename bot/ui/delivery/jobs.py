"""What a table still has to show (``Job``), and how a rendered message is compared."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.ui.view import BaseView

from bot.services.models import Outcome
from bot.ui.delivery.pictures import PICTURE


@dataclass
class Post:
    """A new channel message (a deal summary, a notice, the final result). The first summary
    of a commit may instead turn the current table message into itself (``replaces``)."""

    fields: dict[str, Any]
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

    def merge(self, newer: Job) -> Job:
        """This job followed by ``newer``: posts in order, the newest state."""
        return Job(
            outcome=newer.outcome
            if newer.outcome.table.seq >= self.outcome.table.seq
            else self.outcome,
            posts=self.posts + newer.posts,
            fresh=self.fresh or newer.fresh,
            renotify=self.renotify | newer.renotify,
            attempts=self.attempts,
        )


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
