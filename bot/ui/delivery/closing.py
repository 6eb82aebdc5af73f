"""Telling a table's players that it closed because its channel is gone (deleted, or the
bot lost access) or refused the bot for too long: a DM each, and their hands lose their
controls. Best effort: the table is closed either way."""

from __future__ import annotations

from bot.i18n import _, n_
from bot.services.models import TableInfo
from bot.ui.delivery.access import UNREACHABLE_HOURS
from bot.ui.delivery.failures import DeliveryFailure, attempt
from bot.ui.delivery.hands import Hands
from bot.ui.delivery.pictures import for_edit
from bot.ui.delivery.protocols import Screens
from bot.ui.games import renderer
from bot.ui.text.locale import for_seat


async def tell_closed(hands: Hands, screens: Screens, table: TableInfo, *, refused: bool) -> None:
    """A closing DM to every human still seated, and their hand closed (``refused``: the
    channel refused the bot for ``UNREACHABLE_HOURS``, else it is gone)."""
    for seat in table.seats:
        if seat.user_id is None or seat.resigned or seat.dm_failed:
            continue
        with for_seat(table, seat):
            game = _(renderer(table.game_id).TITLE)
            if refused:
                hours = UNREACHABLE_HOURS
                text = n_(
                    "🛑 Your {game} table #{id} is closed: I couldn't post in its channel for "
                    "{hours} hour (a permission was missing). It won't count in any ranking.",
                    "🛑 Your {game} table #{id} is closed: I couldn't post in its channel for "
                    "{hours} hours (a permission was missing). It won't count in any ranking.",
                    hours,
                    game=game,
                    id=table.id,
                    hours=hours,
                )
            else:
                text = _(
                    "🛑 Your {game} table #{id} is closed: I can no longer reach its channel "
                    "(it was deleted, or I lost access to it). It won't count in any ranking.",
                    game=game,
                    id=table.id,
                )
        try:
            channel = await hands.dm_channel(seat)
            await attempt(channel.send(text), "a closing DM")
            if seat.dm_message_id is not None:
                closed = for_edit(screens.closed_hand(table, seat))
                await attempt(
                    channel.get_partial_message(seat.dm_message_id).edit(**closed),
                    "a closed hand",
                )
        except DeliveryFailure:
            continue  # best effort: the table is closed either way
