"""The expert's hints and deal reviews on Discord (issue 18): what **Hint**, ``/<game> hint``
and **Review** do.

``/<game> hint`` and the table's **Hint** button (practice tables only) answer the player
privately with the expert's choice at their current decision; a deal summary's **Review**
button answers the player who presses it with their decisions of that deal where the expert
would have chosen otherwise. Both answers are ephemeral: nobody else sees them.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.ui.delivery.answer import send
from bot.ui.handlers.desk import Desk, where_of
from bot.ui.text.coach import hint_embed, review_embed
from bot.ui.text.locale import for_game

#: Seconds a hint or a review may take: an interaction's token answers for 15 minutes from
#: the click, and the answer (or the "too busy" that replaces it) needs a moment to be sent.
ANSWER_WITHIN = 15 * 60 - 60.0


class CoachController:
    """Handlers of hints and reviews."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self.service = desk.service

    async def hint(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """The presser's hint, privately (the table's **Hint** button)."""
        found = await self.service.hint(
            table_id, interaction.user.id, where=where_of(interaction), answer_within=ANSWER_WITHIN
        )
        with for_game(found.table.game_id):
            embed = hint_embed(found)
        await send(interaction, ephemeral=True, embed=embed)

    async def hint_command(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        """``/<game> hint`` in the table's channel."""

        async def work() -> None:
            table = await self.desk.channel_table(interaction, game_id)
            await self.hint(interaction, table.id)

        await self.desk.guarded(interaction, work)

    async def review(
        self, interaction: discord.Interaction[Any], table_id: int, deal_no: int
    ) -> None:
        """The presser's review of deal ``deal_no``, privately (a summary's **Review**)."""
        found, luck = await self.service.reviewed(
            table_id, interaction.user.id, deal_no, answer_within=ANSWER_WITHIN
        )
        with for_game(found.table.game_id):
            embed = review_embed(found, luck)
        await send(interaction, ephemeral=True, embed=embed)
