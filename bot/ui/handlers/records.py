"""What the record buttons do, and the messages they belong to: a history's score sheets, a
leaderboard's pages, the forget-me confirmation (``bot.ui.components.records``)."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import _
from bot.services.stats import Board, History, StatsService
from bot.ui.components.records import BoardButton, board_view, forget_view, history_view
from bot.ui.delivery.answer import Ack, redraw, reply_error, send
from bot.ui.handlers.desk import Desk
from bot.ui.handlers.life import LifeController
from bot.ui.handlers.tournament import TournamentController
from bot.ui.text.leaderboard import board_embed
from bot.ui.text.locale import for_interaction
from bot.ui.text.stats import forget_embed, forgotten_text, history_embed, sheet_embed

VERBS = ("first", "prev", "next", "last", "me")
LAST_PAGE = 99_999  # "last" asks for a page past the end; the query clamps it


def history_message(
    history: History, name: str, user_id: int, game_id: str | None
) -> dict[str, Any]:
    """``/history``: the recent games, each listed game with its score sheet button."""
    embed, listed = history_embed(history, name, user_id, game_id)
    if not history.games:
        return {"embed": embed}
    return {"embed": embed, "view": history_view(listed)}


def board_message(
    board: Board, viewer: int, owner: int, guild_id: int | None, *, edit: bool = False
) -> dict[str, Any]:
    """Message fields; an edit clears the buttons when one page is left."""
    fields: dict[str, Any] = {"embed": board_embed(board, viewer)}
    view = board_view(board, owner, guild_id)
    if view is not None or edit:
        fields["view"] = view
    return fields


def confirm_message(user_id: int) -> dict[str, Any]:
    """``/privacy forget-me``: what will be deleted, with **Forget me** and **Cancel**."""
    return {"embed": forget_embed(), "view": forget_view(user_id)}


def _target(page: int, verb: str) -> tuple[int, bool]:
    """(page to fetch, around the viewer) for a button pressed on ``page``."""
    return {
        "first": (0, False),
        "prev": (max(0, page - 1), False),
        "next": (page + 1, False),
        "last": (LAST_PAGE, False),
        "me": (0, True),
    }[verb]


class RecordsController:
    """Score sheets, leaderboard pages and forget-me (``tournament`` and ``life``: to leave
    every tournament and seat first)."""

    def __init__(
        self,
        desk: Desk,
        life: LifeController,
        stats: StatsService,
        tournament: TournamentController,
    ) -> None:
        self.desk = desk
        self.life = life
        self.stats = stats
        self.tournament = tournament

    async def sheet(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """A history line's score sheet, privately."""

        async def work() -> None:
            sheet = await self.stats.score_sheet(
                table_id, interaction.guild_id, interaction.user.id
            )
            await send(interaction, ephemeral=True, embed=sheet_embed(sheet))

        await self.desk.guarded(interaction, work)

    async def board(self, interaction: discord.Interaction[Any], button: BoardButton) -> None:
        """A leaderboard page button: the owner turns the public page, anyone else gets that
        page privately."""
        # The custom_id's server is only what the board was drawn for: anyone can put any id
        # on a message. A server board pages only on its own server, and every board is
        # redrawn for the server it is pressed in (never another server's standings).
        guild_id = interaction.guild_id
        if button.scope == "server" and button.guild_id != guild_id:
            await reply_error(interaction, _("This leaderboard belongs to another server."))
            return

        async def work() -> None:
            viewer = interaction.user.id
            page, around = _target(button.page, button.verb if button.verb in VERBS else "first")
            board = await self.stats.leaderboard(
                game_id=button.game_id,
                viewer=viewer,
                guild_id=guild_id,
                metric=button.metric,
                scope=button.scope,
                period=button.period,
                page=page,
                around_viewer=around,
            )
            if viewer == button.owner:
                fields = board_message(board, viewer, button.owner, guild_id, edit=True)
                await redraw(interaction, **fields)
            else:
                # Someone else's board: their own copy, privately, that they can page.
                fields = board_message(board, viewer, viewer, guild_id)
                await send(interaction, ephemeral=True, **fields)

        mode: Ack = "update" if interaction.user.id == button.owner else "private"
        await self.desk.guarded(interaction, work, mode)

    async def forget(self, interaction: discord.Interaction[Any], user_id: int, verb: str) -> None:
        """**Forget me** (or **Cancel**) under the confirmation, by the user who asked only."""
        if interaction.user.id != user_id:
            with for_interaction(interaction):
                await reply_error(interaction, _("Only the person who asked can confirm this."))
            return

        async def work() -> None:
            if verb == "cancel":
                await redraw(interaction, content=_("Nothing was deleted."), embed=None, view=None)
                return
            # Tournaments first (left as their own leave does: a computer finishes the seat),
            # then open seats: lobbies are left, games resigned (a computer takes over).
            await self.tournament.withdraw(user_id)
            await self.life.leave_everything(user_id)
            done = await self.stats.forget(user_id)
            await redraw(interaction, content=forgotten_text(done.games), embed=None, view=None)

        await self.desk.guarded(interaction, work, "update")
