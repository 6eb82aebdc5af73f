"""What a multi-card choice's toggle and **Suggest** do (issue 31): the service picks or puts
back the card (or takes the expert's choice), and the hand is redrawn where the tap came from.

A toggle is one tap: when the service and the picture are done within ``QUICK`` seconds, the
hand is redrawn by the interaction's own response (an update of its message, no other
request); otherwise the tap is acknowledged first and the hand edited after. **Suggest** makes
the expert think, so it is always acknowledged first. A refused tap (an older hand, a card the
choice cannot take, a full choice) answers privately and changes nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.services.picks import Picked
from bot.ui.components.toggles import SUGGEST
from bot.ui.delivery.answer import acknowledge, redraw, send
from bot.ui.delivery.pictures import for_edit
from bot.ui.handlers.coach import ANSWER_WITHIN
from bot.ui.handlers.desk import Desk, from_hand, where_of
from bot.ui.handlers.play import PlayController
from bot.ui.handlers.screens import TableScreens

#: Seconds a toggle may take before it is acknowledged the long way (Discord waits 3).
QUICK = 2.0


class PicksController:
    """Toggles and Suggest of a multi-card choice."""

    def __init__(self, desk: Desk, screens: TableScreens, play: PlayController) -> None:
        self.desk = desk
        self.service = desk.service
        self.screens = screens
        self.play = play

    async def pick(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        kind: str,
        what: str,
        deal: int | None,
    ) -> None:
        """A toggle (``what``: its card) or Suggest (``what`` = ``SUGGEST``) was pressed."""
        here = where_of(interaction)
        current = deal if deal is not None else -1  # an unstamped button: refused as old

        async def toggle() -> tuple[dict[str, Any], int]:
            picked = await self.service.toggle_pick(
                table_id, interaction.user.id, kind, what, current, where=here
            )
            return await self._fields(interaction, picked)

        async def suggest() -> tuple[dict[str, Any], int]:
            picked = await self.service.suggest_picks(
                table_id,
                interaction.user.id,
                kind,
                current,
                where=here,
                answer_within=ANSWER_WITHIN,
            )
            return await self._fields(interaction, picked)

        async def work() -> None:
            if what == SUGGEST:
                await acknowledge(interaction, "update" if from_hand(interaction) else "private")
                fields, seat = await suggest()
            else:
                fields, seat = await self._quick(interaction, toggle)
            await self._show(interaction, table_id, seat, fields)

        await self.desk.guarded(interaction, work, None)

    async def _quick(
        self,
        interaction: discord.Interaction[Any],
        work: Callable[[], Awaitable[tuple[dict[str, Any], int]]],
    ) -> tuple[dict[str, Any], int]:
        """``work()``, acknowledging the interaction only if it takes more than ``QUICK``
        seconds (else the answer itself is the response)."""
        task = asyncio.ensure_future(work())
        done, _ = await asyncio.wait({task}, timeout=QUICK)
        if not done:
            await acknowledge(interaction, "update" if from_hand(interaction) else "private")
        return await task

    async def _fields(
        self, interaction: discord.Interaction[Any], picked: Picked
    ) -> tuple[dict[str, Any], int]:
        fields = await self.screens.hand_with_picture(
            picked.outcome, picked.seat, interaction.user.id, picked.cards
        )
        return fields, picked.seat

    async def _show(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        seat: int,
        fields: dict[str, Any],
    ) -> None:
        """The hand with its picks, redrawn where the tap came from (a hand shown in the
        channel, which everyone sees, is never redrawn: the presser gets their own)."""
        if from_hand(interaction):
            await redraw(interaction, **for_edit(fields))
            if interaction.guild_id is None:
                await self.play.remember_click(interaction, table_id, seat)
            return
        await send(interaction, ephemeral=True, **fields)
