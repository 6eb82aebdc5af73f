"""Pictures riding on the messages that are sent or edited anyway (issue 16).

A message's fields may carry a picture under ``PICTURE`` (its PNG bytes); ``for_send`` and
``for_edit`` turn that into the attachment a send or an edit needs, with the embed showing it.
An edit always states its attachments, so a message whose player turned pictures off loses
its old picture. Pictures are rendered in a worker thread (a few milliseconds each, cached by
content) from the public view for the table and from the seat's own view for a hand.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.i18n import _
from bot.services.models import Outcome, TableInfo
from bot.ui.pictures import render_hand, render_table
from bot.ui.text.winner import winning_seat

PICTURE = "_picture"  # fields key: (file name, PNG bytes)


def _names(table: TableInfo, players: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    names: list[str] = []
    markers: list[str] = []
    for seat in range(players):
        s = next((x for x in table.seats if x.seat == seat), None)
        names.append(s.name if s is not None else _("Seat {number}", number=seat + 1))
        if s is None:
            markers.append("")
        elif s.is_bot or s.resigned:
            markers.append(_("computer"))
        else:
            markers.append(_("away") if s.away else "")
    return tuple(names), tuple(markers)


async def add_table_picture(fields: dict[str, Any], outcome: Outcome) -> dict[str, Any]:
    """``fields`` of the table message with the picture of ``outcome.public``."""
    view = outcome.public
    if view is None:
        return fields
    table = outcome.table
    names, markers = _names(table, table.players)
    png = await asyncio.to_thread(
        lambda: render_table(
            view,
            game_id=table.game_id,
            names=names,
            markers=markers,
            winning=winning_seat(view),
        )
    )
    return {**fields, PICTURE: ("table.png", png)}


async def add_hand_picture(fields: dict[str, Any], outcome: Outcome, seat: int) -> dict[str, Any]:
    """``fields`` of a hand message with the picture of that seat's own view."""
    view = outcome.seat_views.get(seat)
    if view is None or outcome.finished:
        return fields
    game_id = outcome.table.game_id
    png = await asyncio.to_thread(lambda: render_hand(view, game_id=game_id))
    return {**fields, PICTURE: ("hand.png", png)}


def _attach(fields: dict[str, Any]) -> tuple[dict[str, Any], discord.File | None]:
    out = dict(fields)
    picture = out.pop(PICTURE, None)
    if picture is None:
        return out, None
    name, data = picture
    embed = out.get("embed")
    if isinstance(embed, discord.Embed):
        embed = embed.copy()
        embed.set_image(url=f"attachment://{name}")
        out["embed"] = embed
    return out, discord.File(io.BytesIO(data), filename=name)


def for_send(fields: dict[str, Any]) -> dict[str, Any]:
    """Fields for a new message (its picture as a file)."""
    out, file = _attach(fields)
    if out.get("view", ...) is None:
        del out["view"]  # sending wants no view rather than None
    if file is not None:
        out["file"] = file
    return out


def for_edit(fields: dict[str, Any]) -> dict[str, Any]:
    """Fields for an edit (its attachments replaced by the picture, or removed)."""
    out, file = _attach(fields)
    out["attachments"] = [] if file is None else [file]
    return out
