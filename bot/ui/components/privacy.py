"""The forget-me confirmation: what will be deleted, and restart-proof confirm/cancel buttons.

custom_id ``pv:<user>:forget|cancel``: only that user can confirm (the message is ephemeral,
and the id is checked anyway).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.i18n import _, n_
from bot.services.stats import FORGOTTEN_NAME
from bot.ui.delivery.answer import redraw, reply_error
from bot.ui.text.locale import for_interaction
from bot.ui.text.render import COLOUR_ERROR
from bot.ui.text.stats import handlers


def confirm_message(user_id: int) -> dict[str, Any]:
    embed = discord.Embed(
        title=_("Forget me?"),
        colour=COLOUR_ERROR,
        description=_(
            "This deletes your **ratings** and **statistics** in every game and server, and "
            "replaces your name in every stored game record with “{forgotten}”, unlinked from "
            "your account. Other players keep their own results.\n\n"
            "It cannot be undone. Games you play later are recorded again.",
            forgotten=FORGOTTEN_NAME,
        ),
    )
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton(user_id, "forget"))
    view.add_item(ForgetButton(user_id, "cancel"))
    return {"embed": embed, "view": view}


class ForgetButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pv:(?P<user>\d+):(?P<verb>forget|cancel)",
):
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
        if interaction.user.id != self.user_id:
            with for_interaction(interaction):
                await reply_error(interaction, _("Only the person who asked can confirm this."))
            return
        ctl, stats = handlers(interaction)

        async def work() -> None:
            if self.verb == "cancel":
                await redraw(interaction, content=_("Nothing was deleted."), embed=None, view=None)
                return
            # Open seats first: lobbies are left, games resigned (a computer takes over).
            await ctl.life.leave_everything(self.user_id)
            done = await stats.forget(self.user_id)
            await redraw(
                interaction,
                content=n_(
                    "Done: your ratings and statistics are deleted, and your seats in {n} game "
                    "record now read “{forgotten}”.",
                    "Done: your ratings and statistics are deleted, and your seats in {n} game "
                    "records now read “{forgotten}”.",
                    done.games,
                    forgotten=FORGOTTEN_NAME,
                ),
                embed=None,
                view=None,
            )

        await ctl.guarded(interaction, work, "update")
