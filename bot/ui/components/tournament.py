"""The restart-proof buttons of a tournament's registration post (issue 34); ids and parsing
only.

custom_id: ``tn:<tournament>:<verb>``, ``verb`` one of ``VERBS`` (register, unregister,
start, standings). Anyone may craft one on any message: the handler passes the clicking
server along and the service refuses a tournament of another server, or a verb its state or
the clicker may not use, changing nothing.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.i18n import _

VERBS = ("register", "unregister", "start", "standings")


class TournamentClicks(Protocol):
    """What these buttons hand their click to (the bot's ``controller``)."""

    async def on_tournament(
        self, interaction: discord.Interaction[Any], tournament_id: int, verb: str
    ) -> None: ...


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:(?P<id>\d{1,20}):(?P<verb>[a-z]{1,12})",
):
    """One of the registration post's buttons."""

    def __init__(
        self,
        tournament_id: int,
        verb: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                disabled=disabled,
                custom_id=f"tn:{tournament_id}:{verb}",
            )
        )
        self.tournament_id = tournament_id
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TournamentButton:
        return cls(int(match["id"]), match["verb"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        clicks: TournamentClicks = interaction.client.controller
        await clicks.on_tournament(interaction, self.tournament_id, self.verb)


def registration_controls(tournament_id: int, status: str) -> discord.ui.View:
    """Register / Unregister / Start while it is open; Standings always."""
    view = discord.ui.View(timeout=None)
    if status == "open":
        view.add_item(
            TournamentButton(
                tournament_id, "register", label=_("Register"), style=discord.ButtonStyle.success
            )
        )
        view.add_item(TournamentButton(tournament_id, "unregister", label=_("Unregister")))
        view.add_item(
            TournamentButton(
                tournament_id, "start", label=_("Start"), style=discord.ButtonStyle.primary
            )
        )
    view.add_item(TournamentButton(tournament_id, "standings", label=_("Standings")))
    return view
