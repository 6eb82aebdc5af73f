"""The expert's hints and deal reviews on Discord (issue 18): what **Hint**, ``/<game> hint``
and **Review** do.

``/<game> hint`` and the table's **Hint** button (practice tables only) answer the player
privately with the expert's choice at their current decision; a deal summary's **Review**
button answers the player who presses it with their decisions of that deal where the expert
would have chosen otherwise. Both answers are ephemeral: nobody else sees them.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot.i18n import _
from bot.services.errors import ServiceError
from bot.ui.components.replay import replay_view
from bot.ui.delivery.answer import send
from bot.ui.delivery.failures import DeliveryFailure, attempt
from bot.ui.delivery.publisher import Publisher
from bot.ui.handlers.desk import Desk, where_of
from bot.ui.text.cards import plain_suits
from bot.ui.text.coach import decision_label, hint_embed, replay_hint, review_embed
from bot.ui.text.daily import dm_link
from bot.ui.text.locale import for_game

#: Seconds a hint or a review may take: an interaction's token answers for 15 minutes from
#: the click, and the answer (or the "too busy" that replaces it) needs a moment to be sent.
ANSWER_WITHIN = 15 * 60 - 60.0


class CoachController:
    """Handlers of hints and reviews."""

    def __init__(self, desk: Desk, publisher: Publisher) -> None:
        self.desk = desk
        self.service = desk.service
        self.publisher = publisher

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
        choices = await self.service.replay_choices(
            table_id, interaction.user.id, deal_no, where=where_of(interaction)
        )
        with for_game(found.table.game_id):
            embed = review_embed(found, luck)
            if choices:
                embed.add_field(name=_("🔁 Try another way"), value=replay_hint(), inline=False)
            with plain_suits():  # a menu's option shows no custom emoji
                labels = [(d.seq, decision_label(found.table, d)) for d in choices]
            view = replay_view(table_id, deal_no, labels)
        await send(interaction, ephemeral=True, embed=embed, view=view)

    async def try_another_way(
        self, interaction: discord.Interaction[Any], table_id: int, deal_no: int, seq: int | None
    ) -> None:
        """Replay deal ``deal_no`` from the presser's decision ``seq``, in their DMs, against
        the expert (the Review's **Try another way** menu)."""
        if seq is None:
            raise ServiceError(_("That choice is no longer valid."))
        user = interaction.user
        # Checked before any DM is opened: a refused replay leaves no message behind.
        await self.service.replay_choices(table_id, user.id, deal_no, where=where_of(interaction))
        try:
            channel = await attempt(user.create_dm(), "opening a DM")
            message = await attempt(
                channel.send(content=_("🔁 Dealing the same cards again…")), "a replay's first DM"
            )
        except DeliveryFailure:
            raise ServiceError(
                _(
                    "I can't send you direct messages, and another way is tried there. Allow "
                    "them (User Settings → Content & Social → allow DMs from server members, "
                    "or this server's Privacy Settings), then try again."
                )
            ) from None
        try:
            outcome = await self.service.try_another_way(
                table_id,
                user.id,
                deal_no,
                seq,
                dm_channel_id=channel.id,
                message_id=message.id,
                where=where_of(interaction),
            )
        except ServiceError:
            with contextlib.suppress(discord.HTTPException):
                await message.delete()
            raise
        self.publisher.publish(outcome)
        await send(
            interaction,
            ephemeral=True,
            content=_(
                "[The same cards are dealt again in your DMs]({link}): decide again from "
                "there, against the expert. Not rated.",
                link=dm_link(channel.id, message.id),
            ),
        )
