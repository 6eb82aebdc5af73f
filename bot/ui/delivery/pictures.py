"""Pictures riding on the messages that are sent or edited anyway (issue 16).

A message's fields may carry a picture under ``PICTURE`` (its PNG bytes); ``for_send`` and
``for_edit`` turn that into the attachment a send or an edit needs. A message in the newer
layout (``bot.ui.components.layout``) shows it in its media gallery, with its full text as the
alt text (``add_table_picture`` and ``add_hand_picture`` draw the layout with it); an older
embed shows it as its image. An edit always states its attachments, so a message whose player
turned pictures off loses its old picture. Pictures are rendered in a worker thread (a few
milliseconds each, cached by content) from the public view for the table and from the seat's
own view for a hand; at the seat's decision, its hand sits under the table in one picture
(``turn_picture``).
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.i18n import _
from bot.services.models import Outcome, TableInfo
from bot.ui.components.layout import Layout
from bot.ui.pictures import render_hand, render_table, render_turn
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


def _with(fields: dict[str, Any], name: str, png: bytes) -> dict[str, Any]:
    """``fields`` carrying the picture ``name``, shown by their layout if they have one."""
    out = {**fields, PICTURE: (name, png)}
    view = out.get("view")
    if isinstance(view, Layout):
        out["view"] = view.with_picture(name)
    return out


def without_picture(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` without their picture (their layout's text in its place)."""
    out = dict(fields)
    if out.pop(PICTURE, None) is not None:
        view = out.get("view")
        if isinstance(view, Layout):
            out["view"] = view.with_picture(None)
    return out


def _table_png(outcome: Outcome) -> bytes | None:
    view = outcome.public
    if view is None:
        return None
    table = outcome.table
    names, markers = _names(table, table.players)
    return render_table(
        view, game_id=table.game_id, names=names, markers=markers, winning=winning_seat(view)
    )


def turn_picture(outcome: Outcome, seat: int, picked: tuple[str, ...] = ()) -> bytes:
    """The picture of a seat's decision: the table on top (that seat at the bottom, the
    trick with its winning card, the running scores), a ribbon with the contract, and the
    seat's hand below, in one picture a phone shows whole (``picked``: the cards picked so
    far for a multi-card choice, drawn lowered)."""
    view = outcome.seat_views[seat]
    table = outcome.table
    names, markers = _names(table, table.players)
    return render_turn(
        view,
        game_id=table.game_id,
        names=names,
        markers=markers,
        winning=winning_seat(view.public),
        scores=tuple(outcome.totals),
        picked=picked,
    )


async def add_table_picture(fields: dict[str, Any], outcome: Outcome) -> dict[str, Any]:
    """``fields`` of the table message with the picture of ``outcome.public``."""
    png = await asyncio.to_thread(_table_png, outcome)
    return fields if png is None else _with(fields, "table.png", png)


def deciding(outcome: Outcome, seat: int) -> bool:
    """Whether it is ``seat``'s decision (its hand then shows the whole table)."""
    view = outcome.seat_views.get(seat)
    return (
        view is not None
        and not outcome.finished
        and view.public.to_act == seat
        and bool(view.legal)
    )


async def add_hand_picture(
    fields: dict[str, Any], outcome: Outcome, seat: int, picked: tuple[str, ...] = ()
) -> dict[str, Any]:
    """``fields`` of a hand message with the picture of that seat's own view: at its decision,
    the table above the hand (``turn_picture``; ``picked``: a multi-card choice's picks)."""
    view = outcome.seat_views.get(seat)
    if view is None or outcome.finished:
        return fields
    if deciding(outcome, seat):
        png = await asyncio.to_thread(turn_picture, outcome, seat, picked)
        return _with(fields, "turn.png", png)
    game_id = outcome.table.game_id
    png = await asyncio.to_thread(lambda: render_hand(view, game_id=game_id))
    return _with(fields, "hand.png", png)


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
    if isinstance(out.get("view"), Layout):
        out.pop("content", None)  # a message in the newer layout has neither
        out.pop("embed", None)
    if file is not None:
        out["file"] = file
    return out


def for_edit(fields: dict[str, Any]) -> dict[str, Any]:
    """Fields for an edit (its attachments replaced by the picture, or removed). A message
    turning into the newer layout loses its old content and embed (Discord refuses both
    beside it)."""
    out, file = _attach(fields)
    if isinstance(out.get("view"), Layout):
        out["content"] = None
        out["embed"] = None
    out["attachments"] = [] if file is None else [file]
    return out
