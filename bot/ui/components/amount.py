"""Bids typed as a number (issue 31): an **Other…** button that opens a Discord modal with one
number field, for an amount the quick buttons do not offer.

custom_id formats (≤ 100 characters):
  ``ta:<table>:<type>:<low>-<high>[@<deal>]`` — the button; it answers with the modal at once
  (a modal must be the first answer, so the button reads nothing but its own id);
  ``tm:<table>:<type>:<low>-<high>[@<deal>]`` — the modal; its field is ``amount``.

A modal sent before a restart must still work after it, and discord.py only knows the modals
it sent itself: so the submission is never handled by the ``Modal`` object but by
``amount_submitted``, a listener for every interaction (``bot.client`` adds it), which reads
the modal's id like a ``DynamicItem`` reads a button's. The bounds in the ids only word the
field and catch a typo early; the engine judges the amount like any other action.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, cast

import discord

from bot.i18n import _
from bot.ui.components.table import DEAL_KEY
from bot.ui.text.locale import for_interaction

_IDS = r"(?P<table>\d+):(?P<type>[a-z_]+):(?P<low>\d{1,4})-(?P<high>\d{1,4})(?:@(?P<deal>\d{1,9}))?"
_MODAL = re.compile(r"tm:" + _IDS)
#: How long discord.py keeps a modal it sent (its answer's token lasts 15 minutes); the
#: submission never needs it (``amount_submitted``).
_MODAL_SECONDS = 15 * 60.0


class AmountClicks(Protocol):
    """What a typed amount is handed to (the bot's ``controller``)."""

    async def on_amount(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        payload: dict[str, Any],
        typed: str,
        bounds: tuple[int, int],
    ) -> None: ...


def _suffix(action_type: str, low: int, high: int, deal: int | None) -> str:
    return f"{action_type}:{low}-{high}" + (f"@{deal}" if deal is not None else "")


class AmountButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ta:" + _IDS):
    """**Other…**: opens the number field for an amount of ``action_type`` from low to high."""

    def __init__(
        self,
        table_id: int,
        action_type: str,
        low: int,
        high: int,
        *,
        label: str = "?",
        row: int | None = None,
        deal: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"ta:{table_id}:{_suffix(action_type, low, high, deal)}",
                row=row,
            )
        )
        self.table_id = table_id
        self.action_type = action_type
        self.low = low
        self.high = high
        self.deal = deal

    def stamp(self, deal: int) -> None:
        """Mark the button with the deal it was drawn for (``table.stamp_deal``)."""
        self.deal = deal
        rest = _suffix(self.action_type, self.low, self.high, deal)
        self.item.custom_id = f"ta:{self.table_id}:{rest}"

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> AmountButton:
        deal = int(match["deal"]) if match["deal"] else None
        return cls(
            int(match["table"]), match["type"], int(match["low"]), int(match["high"]), deal=deal
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        with for_interaction(interaction):
            modal = AmountModal(self.table_id, self.action_type, self.low, self.high, self.deal)
        await interaction.response.send_modal(modal)


class AmountModal(discord.ui.Modal):
    """The number field (answered by ``amount_submitted``, never by this object)."""

    def __init__(
        self, table_id: int, action_type: str, low: int, high: int, deal: int | None
    ) -> None:
        super().__init__(
            title=_("Your bid"),
            custom_id=f"tm:{table_id}:{_suffix(action_type, low, high, deal)}",
            timeout=_MODAL_SECONDS,
        )
        self.add_item(
            discord.ui.TextInput(
                label=_("A whole number from {low} to {high}", low=low, high=high),
                custom_id="amount",
                placeholder=f"{low}–{high}",
                min_length=1,
                max_length=len(str(high)) + 2,  # room for a stray space or sign
            )
        )


def typed_value(data: dict[str, Any]) -> str:
    """The text of the modal's ``amount`` field (wherever Discord nested it)."""
    stack: list[Any] = list(data.get("components") or [])
    while stack:
        c = stack.pop()
        if not isinstance(c, dict):
            continue
        c = cast(dict[str, Any], c)
        if c.get("custom_id") == "amount":
            return str(c.get("value") or "")
        stack.extend(c.get("components") or [])
        if isinstance(c.get("component"), dict):
            stack.append(c["component"])
    return ""


async def amount_submitted(interaction: discord.Interaction[Any]) -> None:
    """A submitted amount modal (a listener for every interaction): the typed number goes to
    the controller as the action it stands for."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    data = cast(dict[str, Any], interaction.data or {})
    m = _MODAL.fullmatch(str(data.get("custom_id", "")))
    if m is None:
        return
    payload: dict[str, Any] = {"type": m["type"]}
    if m["deal"]:
        payload[DEAL_KEY] = int(m["deal"])
    clicks: AmountClicks = interaction.client.controller
    bounds = (int(m["low"]), int(m["high"]))
    await clicks.on_amount(interaction, int(m["table"]), payload, typed_value(data), bounds)
