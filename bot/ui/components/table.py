"""The restart-proof buttons and selects of a table (``discord.ui.DynamicItem``): ids, parsing.

Nothing but ids lives in a component: the custom_id names the table and the action, and
``from_custom_id`` only parses. The callbacks hand the click to the bot's handlers (reached
through ``interaction.client.controller``, described by ``TableClicks``), so a button rendered
before a restart still works after it.

custom_id formats (≤ 100 characters):
  ``tb:<table>:<verb>`` with verb ``join|leave|bot|start|hand|back|rematch|end|hint|compare``
  (table, final-result and admin buttons; ``compare``: a finished daily deal's comparison);
  ``tb:<table>:review:<deal>`` (a deal summary's Review);
  ``tb:<table>:act:<type>[:<field>=<value>]`` (decision buttons, e.g. ``tb:7:act:bid:amount=3``;
  one-tap card buttons ``tb:7:act:play:card=S7``);
  ``ts:<table>:<type>:<field>`` (selects whose chosen values fill ``field``).
"""

from __future__ import annotations

import re
from typing import Any, Protocol, cast

import discord


class TableClicks(Protocol):
    """What a table's buttons and selects hand their click to (the bot's ``controller``)."""

    async def on_button(
        self, interaction: discord.Interaction[Any], table_id: int, rest: str
    ) -> None: ...

    async def on_action(
        self, interaction: discord.Interaction[Any], table_id: int, payload: dict[str, Any]
    ) -> None: ...


MAX_OPTIONS = 25
MAX_ROWS = 5  # action rows per message
ROW_WIDTH = 5  # buttons per action row
#: One-tap card buttons use at most this many rows (20 cards), leaving one for other controls.
CARD_BUTTON_ROWS = MAX_ROWS - 1
_BUTTON_ACT = re.compile(
    r"act:(?P<type>[a-z_]+)(?::(?P<field>[a-z_]+)=(?P<value>[A-Za-z0-9_\-]+))?"
    r"(?:@(?P<deal>\d{1,9}))?"
)
_BUTTON_REVIEW = re.compile(r"review:(?P<deal>\d{1,9})")
#: Payload key of the deal a decision component was drawn for (see ``stamp_deal``).
DEAL_KEY = "@deal"
_SELECT_FIELDS = {"card": "one", "cards": "many", "amount": "int", "bonuses": "names"}


def bonus_names(value: str) -> list[str]:
    """``"kings-mitigati"`` → ``["kings", "mitigati"]``; ``"none"`` → ``[]``."""
    return [] if value == "none" else value.split("-")


def bonus_value(names: list[str] | tuple[str, ...]) -> str:
    """The inverse of ``bonus_names`` (for custom_ids and select values)."""
    return "-".join(names) or "none"


def _clicks(interaction: discord.Interaction[Any]) -> TableClicks:
    return interaction.client.controller


def parse_button(rest: str) -> tuple[str, dict[str, Any] | None] | None:
    """Split a button's verb part into (verb, action payload). ``None`` if malformed."""
    if rest in (
        "join",
        "leave",
        "bot",
        "start",
        "hand",
        "back",
        "rematch",
        "end",
        "hint",
        "compare",
    ):
        return rest, None
    review = _BUTTON_REVIEW.fullmatch(rest)
    if review is not None:
        return "review", {"deal": int(review["deal"])}
    m = _BUTTON_ACT.fullmatch(rest)
    if m is None:
        return None
    payload: dict[str, Any] = {"type": m["type"]}
    if m["field"]:
        value = m["value"]
        if m["field"] == "cards":  # multi-card choices: codes joined by "-" (see choice.py)
            payload["cards"] = value.split("-")
        elif m["field"] == "announce":
            payload["announce"] = value == "yes"
        elif m["field"] == "bonuses":  # declaration names joined by "-", "none" for []
            payload["bonuses"] = bonus_names(value)
        else:
            payload[m["field"]] = int(value) if value.lstrip("-").isdigit() else value
    if m["deal"]:
        payload[DEAL_KEY] = int(m["deal"])
    return "act", payload


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tb:(?P<table>\d+):(?P<rest>.+)"
):
    """Every button of every table: lobby, Show my hand, and decisions."""

    def __init__(
        self,
        table_id: int,
        rest: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        emoji: str | discord.PartialEmoji | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=f"tb:{table_id}:{rest}",
                row=row,
                emoji=emoji,
                disabled=disabled,
            )
        )
        self.table_id = table_id
        self.rest = rest

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        text = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["table"]), match["rest"], label=text or "?")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _clicks(interaction).on_button(interaction, self.table_id, self.rest)


class TableSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ts:(?P<table>\d+):(?P<type>[a-z_]+):(?P<field>[a-z_]+)(?::\d+)?"
    r"(?:@(?P<deal>\d{1,9}))?",
):
    """Card selects: the chosen value(s) fill one field of one action type."""

    def __init__(
        self,
        table_id: int,
        action_type: str,
        field: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
        suffix: str = "",
    ) -> None:
        custom_id = f"ts:{table_id}:{action_type}:{field}"
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id + suffix,
                options=options or [discord.SelectOption(label="?", value="?")],
                placeholder=placeholder,
                min_values=min_values,
                max_values=max_values,
                row=row,
            )
        )
        self.table_id = table_id
        self.action_type = action_type
        self.field = field
        self.deal: int | None = None  # the deal it was drawn for (``stamp_deal``)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableSelect:
        select = cls(int(match["table"]), match["type"], match["field"])
        select.deal = int(match["deal"]) if match["deal"] else None
        return select

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        payload: dict[str, Any] = {"type": self.action_type}
        if self.deal is not None:
            payload[DEAL_KEY] = self.deal
        shape = _SELECT_FIELDS.get(self.field)
        if shape == "many":
            payload[self.field] = values
        elif shape == "names":
            payload[self.field] = bonus_names(values[0] if values else "none")
        elif shape == "int":
            text = values[0] if values else ""
            payload[self.field] = int(text) if text.isdigit() else text  # engine refuses text
        else:
            payload[self.field] = values[0] if values else ""
        await _clicks(interaction).on_action(interaction, self.table_id, payload)


def stamp_deal(view: discord.ui.View, deal_no: int) -> discord.ui.View:
    """Mark a hand's decision components with the deal they were drawn for, so a click that
    reaches the bot after that deal ended (a double click on its last card, an old DM) is
    refused instead of playing the same card in the next deal. Unmarked components (drawn
    before this existed) still work."""
    for item in view.children:
        if isinstance(item, TableButton) and item.rest.startswith("act:"):
            item.rest = f"{item.rest}@{deal_no}"
            item.custom_id = f"tb:{item.table_id}:{item.rest}"
        elif isinstance(item, TableSelect):
            item.deal = deal_no
            item.custom_id = f"{item.custom_id}@{deal_no}"
        elif callable(stamp := getattr(item, "stamp", None)):
            stamp(deal_no)  # another room's decision item (``amount.AmountButton``)
    return view
