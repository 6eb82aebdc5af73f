"""The restart-proof buttons of players' records: a history's score sheets, a leaderboard's
pages and the forget-me confirmation; ids and parsing only.

custom_id formats (≤ 100 characters):
  ``hs:<table>`` (a history line's score sheet);
  ``lb:<owner>:<guild>:<game>:<scope>:<metric>:<period>:<page>:<verb>`` (everything needed to
  redraw a leaderboard after a restart; scope ``s|g``, period ``a|m``);
  ``pv:<user>:forget|cancel`` (only that user can confirm: the message is ephemeral, and the
  handler checks the id anyway).

The callbacks hand the click to the bot's handlers (``interaction.client.controller``,
described by ``RecordClicks``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.i18n import _
from bot.services.stats import Board
from bot.ui.text.render import table_number

SCOPE_CODES = {"server": "s", "global": "g"}
PERIOD_CODES = {"all": "a", "30d": "m"}


class RecordClicks(Protocol):
    """What the record buttons hand their click to (the bot's ``controller``)."""

    async def on_sheet(self, interaction: discord.Interaction[Any], table_id: int) -> None: ...

    async def on_board(
        self, interaction: discord.Interaction[Any], button: BoardButton
    ) -> None: ...

    async def on_forget(
        self, interaction: discord.Interaction[Any], user_id: int, verb: str
    ) -> None: ...


def _clicks(interaction: discord.Interaction[Any]) -> RecordClicks:
    return interaction.client.controller


# ---- score sheets ----------------------------------------------------------------------


class SheetButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hs:(?P<table>\d+)"):
    """A history line's score sheet, shown privately to whoever presses it."""

    def __init__(self, table_id: int, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=table_number(table_id),
                emoji="📋",
                style=discord.ButtonStyle.secondary,
                custom_id=f"hs:{table_id}",
                row=row,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SheetButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _clicks(interaction).on_sheet(interaction, self.table_id)


def history_view(table_ids: Sequence[int]) -> discord.ui.View:
    """A score sheet button per game listed in a history, five to a row."""
    view = discord.ui.View(timeout=None)
    for i, table_id in enumerate(table_ids):
        view.add_item(SheetButton(table_id, row=i // 5))
    return view


# ---- leaderboard pages -------------------------------------------------------------------


class BoardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lb:(?P<owner>\d+):(?P<guild>\d+):(?P<game>[a-z_]+):(?P<scope>[sg]):"
    r"(?P<metric>[a-z_]+):(?P<period>[am]):(?P<page>\d+):(?P<verb>[a-z]+)",
):
    """A leaderboard's page button: the owner's clicks turn the public message's page; anyone
    else gets that page privately, with their own line."""

    def __init__(
        self,
        owner: int,
        guild_id: int,
        game_id: str,
        scope: str,
        metric: str,
        period: str,
        page: int,
        verb: str,
        *,
        emoji: str | None = None,
        label: str | None = None,
        disabled: bool = False,
    ) -> None:
        custom_id = (
            f"lb:{owner}:{guild_id}:{game_id}:{SCOPE_CODES[scope]}:{metric}:"
            f"{PERIOD_CODES[period]}:{page}:{verb}"
        )
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                custom_id=custom_id,
                emoji=emoji,
                label=label,
                disabled=disabled,
            )
        )
        self.owner = owner
        self.guild_id = guild_id or None
        self.game_id = game_id
        self.scope = scope
        self.metric = metric
        self.period = period
        self.page = page
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> BoardButton:
        scope = next((k for k, v in SCOPE_CODES.items() if v == match["scope"]), "server")
        period = next((k for k, v in PERIOD_CODES.items() if v == match["period"]), "all")
        return cls(
            int(match["owner"]),
            int(match["guild"]),
            match["game"],
            scope,
            match["metric"],
            period,
            int(match["page"]),
            match["verb"],
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _clicks(interaction).on_board(interaction, self)


def board_view(board: Board, owner: int, guild_id: int | None) -> discord.ui.View | None:
    """First / previous / next / last page and "find me"; None when one page says it all."""
    on_page = board.me is not None and board.me in board.entries
    if board.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    last = board.page >= board.pages - 1
    buttons = [
        ("first", "⏮", board.page == 0),
        ("prev", "◀", board.page == 0),
        ("next", "▶", last),
        ("last", "⏭", last),
        ("me", "📍", board.me is None or on_page),
    ]
    for verb, emoji, disabled in buttons:
        view.add_item(
            BoardButton(
                owner,
                guild_id or 0,
                board.game_id,
                board.scope,
                board.metric,
                board.period,
                board.page,
                verb,
                emoji=emoji,
                label=_("Find me") if verb == "me" else None,
                disabled=disabled,
            )
        )
    return view


# ---- forget me -----------------------------------------------------------------------------


class ForgetButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pv:(?P<user>\d+):(?P<verb>forget|cancel)",
):
    """Confirm or cancel ``/privacy forget-me``."""

    def __init__(self, user_id: int, verb: str) -> None:
        forget = verb == "forget"
        super().__init__(
            discord.ui.Button(
                label=_("Forget me") if forget else _("Cancel"),
                style=discord.ButtonStyle.danger if forget else discord.ButtonStyle.secondary,
                custom_id=f"pv:{user_id}:{verb}",
            )
        )
        self.user_id = user_id
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ForgetButton:
        return cls(int(match["user"]), match["verb"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _clicks(interaction).on_forget(interaction, self.user_id, self.verb)


def forget_view(user_id: int) -> discord.ui.View:
    """**Forget me** and **Cancel** under the forget-me confirmation."""
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton(user_id, "forget"))
    view.add_item(ForgetButton(user_id, "cancel"))
    return view
