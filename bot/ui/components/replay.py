"""The restart-proof "Try another way" menu under a deal's Review (issue 33): ids, parsing.

custom_id ``rp:<table>:<deal>``; each option's value is the log ``seq`` of one of the player's
own decisions of that deal. The id and the value only name them: the service checks that the
presser sat at the table, that the deal is over and that the decision is theirs
(``TableReplays.try_another_way``), so a crafted id changes nothing it should not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol, cast

import discord

from bot.i18n import _

#: Decisions a menu lists (Discord's most options per select); a longer deal lists its last.
MAX_OPTIONS = 25


class ReplayClicks(Protocol):
    """What the menu hands its choice to (the bot's ``controller``)."""

    async def on_replay(
        self, interaction: discord.Interaction[Any], table_id: int, deal_no: int, seq: int | None
    ) -> None: ...


class ReplaySelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"rp:(?P<table>\d{1,19}):(?P<deal>\d{1,9})",
):
    """ "Try another way from…": one option per decision of the player in the deal."""

    def __init__(
        self,
        table_id: int,
        deal_no: int,
        options: Sequence[discord.SelectOption] = (),
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"rp:{table_id}:{deal_no}",
                options=list(options) or [discord.SelectOption(label="?", value="0")],
                placeholder=_("🔁 Try another way from…"),
            )
        )
        self.table_id = table_id
        self.deal_no = deal_no

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ReplaySelect:
        return cls(int(match["table"]), int(match["deal"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        seq = int(values[0]) if values and values[0].isdigit() and len(values[0]) < 12 else None
        clicks = cast(ReplayClicks, interaction.client.controller)
        await clicks.on_replay(interaction, self.table_id, self.deal_no, seq)


def replay_view(
    table_id: int, deal_no: int, choices: Sequence[tuple[int, str]]
) -> discord.ui.View | None:
    """The menu for ``choices`` ((seq, label) of each decision, in order); None without any."""
    if not choices:
        return None
    options = [
        discord.SelectOption(label=text[:100], value=str(seq))
        for seq, text in list(choices)[-MAX_OPTIONS:]
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(ReplaySelect(table_id, deal_no, options))
    return view
