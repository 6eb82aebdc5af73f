"""The way in (issue 31): ``/play``'s game picker, its **Practice** button (a practice table
opened, filled with computers and dealt in one click), and each game's rules as pages.

Every click is checked here (the game, the page) before anything is drawn, and the practice
table's checks are the lobby's own (``bot.services.practice``): a crafted custom_id gets an
ephemeral explanation and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.i18n import N_, _
from bot.services.analysis import expert_ready
from bot.services.errors import ServiceError
from bot.services.practice import open_practice
from bot.ui.components.layout import Layout, Screen
from bot.ui.components.onboard import VERBS, OnboardButton, Picker, game_buttons, rules_view
from bot.ui.delivery.answer import redraw, reply, reply_error, send
from bot.ui.delivery.pictures import PICTURE, for_edit
from bot.ui.delivery.publisher import Publisher
from bot.ui.games import game_title
from bot.ui.handlers.desk import Desk, locale_code
from bot.ui.handlers.lobby import require_permissions
from bot.ui.pictures.showcase import render_showcase
from bot.ui.text import picker
from bot.ui.text.render import COLOUR_LOBBY, COLOUR_PLAY
from bot.ui.text.rules import full_embeds, has_full, has_pages, pages

log = logging.getLogger(__name__)

#: The picture's file name on a rules page.
RULES_PICTURE = "rules.png"
NOT_VALID = N_("This button is no longer valid.")  # as the table buttons say it


def game_sections() -> list[tuple[str, list[OnboardButton]]]:
    """Every game's words and buttons (**Practice** only where the expert gives hints)."""
    return [
        (picker.game_section(g), game_buttons(g, practice=expert_ready(g))) for g in picker.games()
    ]


def picker_view(head: str, tail: str = "") -> Picker:
    """The games with their buttons between ``head`` and ``tail`` (``/play``, ``/help``)."""
    return Picker(head, game_sections(), tail, accent=COLOUR_LOBBY)


def page_screen(game_id: str, index: int) -> Screen:
    """Page ``index`` (0-based) of the game's rules, without its picture."""
    book = pages(game_id)
    page = book[index]
    head = _(
        "📖 {game} rules — {title} ({n}/{total})",
        game=game_title(game_id),
        title=page.title,
        n=index + 1,
        total=len(book),
    )
    return Screen(
        head=f"### {head}",
        brief=page.text,
        full=page.text,
        accent=COLOUR_PLAY,
        controls=rules_view(game_id, index, len(book), full=has_full(game_id)),
        alt=f"{page.title}: {page.text}",
    )


async def page_fields(game_id: str, index: int, *, picture: bool = True) -> dict[str, Any]:
    """Message fields of page ``index`` of the game's rules, with its picture when the page
    draws cards and ``picture`` (the reader's setting) allows it."""
    screen = page_screen(game_id, index)
    page = pages(game_id)[index]
    if not picture or not page.cards:
        return {"view": Layout(screen)}
    # In a worker thread: a few milliseconds (the first picture of a game also draws its
    # cards); the language travels with the context.
    png = await asyncio.to_thread(render_showcase, game_id, page.cards)
    return {"view": Layout(screen).with_picture(RULES_PICTURE), PICTURE: (RULES_PICTURE, png)}


class OnboardController:
    """``/play``, the practice table and the rules pages."""

    def __init__(self, desk: Desk, publisher: Publisher) -> None:
        self.desk = desk
        self.service = desk.service
        self.publisher = publisher

    async def play(self, interaction: discord.Interaction[Any]) -> None:
        """``/play``: the game picker, privately."""

        async def work() -> None:
            await send(interaction, ephemeral=True, view=picker_view(picker.play_head()))

        await self.desk.guarded(interaction, work)

    async def rules(
        self, interaction: discord.Interaction[Any], game_id: str, full: bool = False
    ) -> None:
        """``/<game> rules [full]``: the first page, privately (``full``: the complete
        rules, offered only where the game has them)."""

        async def work() -> None:
            await self._first_page(interaction, game_id, full=full)

        await self.desk.guarded(interaction, work)

    async def click(
        self, interaction: discord.Interaction[Any], verb: str, game_id: str, page: int | None
    ) -> None:
        """A button of the picker or of a rules page (``bot.ui.components.onboard``)."""
        if verb not in VERBS or not has_pages(game_id):
            await self.desk.guarded(interaction, lambda: reply_error(interaction, NOT_VALID), None)
            return

        async def work() -> None:
            if verb == "practice":
                await self._practice(interaction, game_id)
            elif verb == "page":
                await self._turn(interaction, game_id, page)
            else:
                await self._first_page(interaction, game_id, full=verb == "full")

        await self.desk.guarded(interaction, work, "update" if verb == "page" else "private")

    # ---- the steps -------------------------------------------------------------------------
    async def _pictures(self, interaction: discord.Interaction[Any]) -> bool:
        return await self.service.pictures_on(interaction.guild_id or 0, interaction.user.id)

    async def _first_page(
        self, interaction: discord.Interaction[Any], game_id: str, *, full: bool
    ) -> None:
        if full:
            if not has_full(game_id):  # a crafted id: the game has only its pages
                raise ServiceError(_(NOT_VALID))
            await send(interaction, ephemeral=True, embeds=full_embeds(game_id))
            return
        fields = await page_fields(game_id, 0, picture=await self._pictures(interaction))
        await send(interaction, ephemeral=True, **fields)

    async def _turn(self, interaction: discord.Interaction[Any], game_id: str, page: int | None):
        if page is None or not 0 <= page < len(pages(game_id)):
            raise ServiceError(_(NOT_VALID))
        fields = await page_fields(game_id, page, picture=await self._pictures(interaction))
        await redraw(interaction, **for_edit(fields))

    async def _practice(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise ServiceError(_("Tables live in server channels: use this command in a server."))
        require_permissions(interaction)
        user = interaction.user
        outcome = await open_practice(
            self.service,
            interaction.guild_id,
            interaction.channel_id,
            user.id,
            user.display_name,
            game_id,
            server_locale=locale_code(interaction.guild_locale),
            owner_locale=locale_code(interaction.locale),
        )
        self.publisher.publish(outcome)  # posts the table here and deals the hands by DM
        await reply(
            interaction,
            _(
                "🎓 Your practice table #{id} of {game} is dealt in this channel, against "
                "computer players. Your hand comes by DM (or press **Show my hand** on the "
                "table); 💡 **Hint** shows what the expert would do. It counts in no ranking.",
                id=outcome.table.id,
                game=game_title(game_id),
            ),
        )
