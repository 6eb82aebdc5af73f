"""The views built from a table's buttons: lobby, running table, hint, review, rematch, I'm back,
and a finished daily deal's Compare and Review."""

from __future__ import annotations

import contextlib

import discord

from bot.i18n import _
from bot.ui.components.table import MAX_ROWS, TableButton


def lobby_view(table_id: int, *, full: bool, computers: bool = True) -> discord.ui.View:
    """Join / Leave / Add computer / Start under a lobby message; a full table offers no Join
    nor Add computer (no seat is left), and its Start is the highlighted button. No Add
    computer without ``computers`` (a league table: the experts sit down at its start)."""
    view = discord.ui.View(timeout=None)
    if not full:
        view.add_item(
            TableButton(
                table_id, "join", label=_("Join"), style=discord.ButtonStyle.success, emoji="🪑"
            )
        )
    view.add_item(TableButton(table_id, "leave", label=_("Leave"), emoji="🚪"))
    if not full and computers:
        view.add_item(TableButton(table_id, "bot", label=_("Add computer"), emoji="🤖"))
    view.add_item(
        TableButton(
            table_id,
            "start",
            label=_("Start"),
            style=discord.ButtonStyle.primary if full else discord.ButtonStyle.secondary,
            emoji="▶️",
        )
    )
    return view


def table_view(
    table_id: int, *, someone_away: bool = False, hints: bool = False
) -> discord.ui.View:
    """The running table's buttons: open your hand ephemerally (and "I'm back" while a
    player is away; "Hint" at a practice table)."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        TableButton(
            table_id, "hand", label=_("Show my hand"), style=discord.ButtonStyle.primary, emoji="🂠"
        )
    )
    if hints:
        view.add_item(TableButton(table_id, "hint", label=_("Hint"), emoji="💡"))
    if someone_away:
        view.add_item(
            TableButton(
                table_id,
                "back",
                label=_("I'm back"),
                style=discord.ButtonStyle.success,
                emoji="👋",
            )
        )
    return view


def add_hint_button(view: discord.ui.View, table_id: int) -> None:
    """A practice table's hand: a "Hint" button below its decision controls, in a row of its
    own when one is free (a large multi-card choice may leave none: the table message's Hint
    button is there too)."""
    used = [getattr(item, "_rendered_row", None) for item in view.children]
    last = max((r for r in used if r is not None), default=-1)
    button = TableButton(table_id, "hint", label=_("Hint"), emoji="💡")
    button.item.row = last + 1 if last + 1 < MAX_ROWS else None
    with contextlib.suppress(ValueError):  # every row is full
        view.add_item(button)


def review_view(table_id: int, deal_no: int) -> discord.ui.View:
    """Under a deal's summary: each player may ask the expert to review their decisions
    (``tb:<table>:review:<deal>``)."""
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(table_id, f"review:{deal_no}", label=_("Review"), emoji="🔍"))
    return view


def rematch_view(table_id: int) -> discord.ui.View:
    """Under a game's result: open a new lobby with the same seats and options."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        TableButton(
            table_id,
            "rematch",
            label=_("Rematch"),
            style=discord.ButtonStyle.primary,
            emoji="🔁",
        )
    )
    return view


def back_view(table_id: int) -> discord.ui.View:
    """The lone "I'm back" button of a seat the computer is playing."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        TableButton(
            table_id, "back", label=_("I'm back"), style=discord.ButtonStyle.success, emoji="👋"
        )
    )
    return view


def result_view(table_id: int) -> discord.ui.View:
    """Under a finished daily attempt's DM post: compare with the day's best, ask for a review
    (``tb:<table>:compare``, ``tb:<table>:review:1``)."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        TableButton(
            table_id, "compare", label=_("Compare"), style=discord.ButtonStyle.primary, emoji="⚖️"
        )
    )
    view.add_item(TableButton(table_id, "review:1", label=_("Review"), emoji="🔍"))
    return view
