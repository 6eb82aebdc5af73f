"""The restart-proof buttons of the way in (issue 31): ``/play`` and ``/help``'s game buttons and
the rules pages' Previous/Next; ids and parsing only.

custom_id formats (≤ 100 characters), ``<game>`` a game id:
  ``ob:practice:<game>`` (open, fill with computers and start a practice table here);
  ``ob:rules:<game>`` (that game's rules, first page, as a new private answer);
  ``ob:page:<game>:<n>`` (turn a rules answer to page ``n``, 0-based, in place);
  ``ob:full:<game>`` (the complete rules, where the game has them).

Anyone may press them (they open nothing of anyone else's); the handler checks the game, the
page and everything the practice table needs, so a crafted id changes nothing.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.i18n import _

VERBS = ("practice", "rules", "page", "full")


class OnboardClicks(Protocol):
    """What these buttons hand their click to (the bot's ``controller``)."""

    async def on_onboard(
        self, interaction: discord.Interaction[Any], verb: str, game_id: str, page: int | None
    ) -> None: ...


class OnboardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ob:(?P<verb>[a-z]{1,12}):(?P<game>[a-z_]{1,40})(?::(?P<page>\d{1,3}))?",
):
    """A game's Practice or Rules button, or a rules page's Previous/Next/Complete rules."""

    def __init__(
        self,
        verb: str,
        game_id: str,
        page: int | None = None,
        *,
        label: str = "?",
        emoji: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        custom_id = f"ob:{verb}:{game_id}" + ("" if page is None else f":{page}")
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=style,
                custom_id=custom_id,
                disabled=disabled,
                row=row,
            )
        )
        self.verb = verb
        self.game_id = game_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> OnboardButton:
        page = int(match["page"]) if match["page"] else None
        return cls(match["verb"], match["game"], page)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        clicks: OnboardClicks = interaction.client.controller
        await clicks.on_onboard(interaction, self.verb, self.game_id, self.page)


def game_buttons(game_id: str, *, practice: bool = True) -> list[OnboardButton]:
    """A game's buttons on ``/play`` and ``/help``: **Practice** (where the game has the
    expert its hints need) and **Rules**."""
    out: list[OnboardButton] = []
    if practice:
        out.append(
            OnboardButton(
                "practice",
                game_id,
                label=_("Practice"),
                emoji="🎓",
                style=discord.ButtonStyle.success,
            )
        )
    out.append(OnboardButton("rules", game_id, label=_("Rules"), emoji="📖"))
    return out


def rules_view(game_id: str, index: int, total: int, *, full: bool) -> discord.ui.View:
    """Under a rules page: Previous and Next (disabled at the ends), Practice, and the
    complete rules where the game has them."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        OnboardButton(
            "page", game_id, max(index - 1, 0), label=_("Previous"), emoji="◀️", disabled=index == 0
        )
    )
    view.add_item(
        OnboardButton(
            "page",
            game_id,
            min(index + 1, total - 1),
            label=_("Next"),
            emoji="▶️",
            style=discord.ButtonStyle.primary,
            disabled=index >= total - 1,
        )
    )
    if full:
        view.add_item(OnboardButton("full", game_id, label=_("Complete rules"), emoji="📜"))
    return view


class Picker(discord.ui.LayoutView):
    """``/play`` and ``/help``: a heading, then each game's words with its buttons right below
    them, then closing words (components V2, one container)."""

    def __init__(
        self,
        head: str,
        sections: list[tuple[str, list[OnboardButton]]],
        tail: str = "",
        accent: discord.Colour | None = None,
    ) -> None:
        super().__init__(timeout=None)
        box = discord.ui.Container[Picker](accent_colour=accent)
        box.add_item(discord.ui.TextDisplay[Picker](head))
        for text, buttons in sections:
            box.add_item(discord.ui.Separator[Picker]())
            box.add_item(discord.ui.TextDisplay[Picker](text))
            row = discord.ui.ActionRow[Picker]()
            for button in buttons:
                row.add_item(button)
            box.add_item(row)
        if tail:
            box.add_item(discord.ui.Separator[Picker]())
            box.add_item(discord.ui.TextDisplay[Picker](tail))
        self.add_item(box)
