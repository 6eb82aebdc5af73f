"""Restart-proof buttons and selects (``discord.ui.DynamicItem``).

Nothing but ids lives in a component: the custom_id names the table and the action, and
``from_custom_id`` only parses. The callbacks hand over to the ``TableController`` (reached
through ``interaction.client``), so a button rendered before a restart still works after it.

custom_id formats (≤ 100 characters):
  ``tb:<table>:<verb>`` with verb ``join|leave|bot|start|hand|back|rematch|end|hint|compare``
  (table, final-result and admin buttons; ``compare``: a finished daily deal's comparison);
  ``tb:<table>:review:<deal>`` (a deal summary's Review);
  ``tb:<table>:act:<type>[:<field>=<value>]`` (decision buttons, e.g. ``tb:7:act:bid:amount=3``;
  one-tap card buttons ``tb:7:act:play:card=S7``);
  ``ts:<table>:<type>:<field>`` (selects whose chosen values fill ``field``).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.engine.actions import Action
from bot.i18n import _
from bot.ui.text.cards import label, long_name

if TYPE_CHECKING:
    from bot.ui.handlers.controller import TableController

log = logging.getLogger(__name__)

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


def _controller(interaction: discord.Interaction[Any]) -> TableController:
    return cast("TableController", interaction.client.controller)  # type: ignore[attr-defined]


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
        emoji: str | None = None,
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
        await _controller(interaction).on_button(interaction, self.table_id, self.rest)


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
        await _controller(interaction).on_action(interaction, self.table_id, payload)


# ---- view builders ---------------------------------------------------------------------


def lobby_view(table_id: int, *, full: bool) -> discord.ui.View:
    """Join / Leave / Add computer / Start under a lobby message; a full table offers no Join
    nor Add computer (no seat is left), and its Start is the highlighted button."""
    view = discord.ui.View(timeout=None)
    if not full:
        view.add_item(
            TableButton(
                table_id, "join", label=_("Join"), style=discord.ButtonStyle.success, emoji="🪑"
            )
        )
    view.add_item(TableButton(table_id, "leave", label=_("Leave"), emoji="🚪"))
    if not full:
        view.add_item(TableButton(table_id, "bot", label=_("Add computer"), emoji="🤖"))
    view.add_item(
        TableButton(
            table_id,
            "start",
            label=_("Start"),
            style=discord.ButtonStyle.primary if full else discord.ButtonStyle.secondary,
            emoji="▶️",
        )
    )
    return view


def table_view(
    table_id: int, *, someone_away: bool = False, hints: bool = False
) -> discord.ui.View:
    """The running table's buttons: open your hand ephemerally (and "I'm back" while a
    player is away; "Hint" at a practice table)."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        TableButton(
            table_id, "hand", label=_("Show my hand"), style=discord.ButtonStyle.primary, emoji="🂠"
        )
    )
    if hints:
        view.add_item(TableButton(table_id, "hint", label=_("Hint"), emoji="💡"))
    if someone_away:
        view.add_item(
            TableButton(
                table_id,
                "back",
                label=_("I'm back"),
                style=discord.ButtonStyle.success,
                emoji="👋",
            )
        )
    return view


def add_hint_button(view: discord.ui.View, table_id: int) -> None:
    """A practice table's hand: a "Hint" button below its decision controls, in a row of its
    own when one is free (a large multi-card choice may leave none: the table message's Hint
    button is there too)."""
    used = [getattr(item, "_rendered_row", None) for item in view.children]
    last = max((r for r in used if r is not None), default=-1)
    button = TableButton(table_id, "hint", label=_("Hint"), emoji="💡")
    button.item.row = last + 1 if last + 1 < MAX_ROWS else None
    with contextlib.suppress(ValueError):  # every row is full
        view.add_item(button)


def review_view(table_id: int, deal_no: int) -> discord.ui.View:
    """Under a deal's summary: each player may ask the expert to review their decisions
    (``tb:<table>:review:<deal>``)."""
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(table_id, f"review:{deal_no}", label=_("Review"), emoji="🔍"))
    return view


def rematch_view(table_id: int) -> discord.ui.View:
    """Under a game's result: open a new lobby with the same seats and options."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        TableButton(
            table_id,
            "rematch",
            label=_("Rematch"),
            style=discord.ButtonStyle.primary,
            emoji="🔁",
        )
    )
    return view


_STYLE = {
    "accept": discord.ButtonStyle.success,
    "drop": discord.ButtonStyle.danger,
    "muck": discord.ButtonStyle.secondary,
}


def _button_rest(action: Action) -> str:
    if action.amount is not None:
        return f"act:{action.type}:amount={action.amount}"
    if action.contract is not None:
        return f"act:{action.type}:contract={action.contract}"
    if action.suit is not None:
        return f"act:{action.type}:suit={action.suit}"
    return f"act:{action.type}"


# ---- one-tap card buttons --------------------------------------------------------------


def card_group(card: str) -> str:
    """Select/button group of a card: its suit, or ``T`` for trumps and the Excuse/Fool."""
    return "T" if card == "EX" or card[0] == "T" else card[0]


def card_rows(cards: Sequence[str], max_rows: int) -> list[list[str]] | None:
    """One-tap layout: ``cards``, in the order given (callers pass the hand's display
    order), as rows of at most 5 buttons in at most ``max_rows`` rows (never more than
    ``CARD_BUTTON_ROWS``): each run of one suit on its own rows where there is room, else the
    smallest neighbouring rows merged. ``None`` when they do not fit (use menus)."""
    max_rows = min(max_rows, CARD_BUTTON_ROWS)
    if not cards or max_rows < 1 or len(cards) > ROW_WIDTH * max_rows:
        return None
    ordered = list(cards)
    groups: list[list[str]] = []
    for c in ordered:
        if groups and card_group(groups[-1][-1]) == card_group(c):
            groups[-1].append(c)
        else:
            groups.append([c])
    rows = [g[i : i + ROW_WIDTH] for g in groups for i in range(0, len(g), ROW_WIDTH)]
    while len(rows) > max_rows:
        pairs = [
            (len(rows[i]) + len(rows[i + 1]), i)
            for i in range(len(rows) - 1)
            if len(rows[i]) + len(rows[i + 1]) <= ROW_WIDTH
        ]
        if not pairs:  # no two neighbours share a row: fill the rows in order
            return [ordered[i : i + ROW_WIDTH] for i in range(0, len(ordered), ROW_WIDTH)]
        _, i = min(pairs)
        rows[i : i + 2] = [rows[i] + rows[i + 1]]
    return rows


def play_select(
    table_id: int,
    cards: Sequence[str],
    placeholder: str,
    row: int,
    part: int = 0,
    card_labels: Mapping[str, str] | None = None,
    card_names: Mapping[str, str] | None = None,
) -> TableSelect:
    """A menu playing one of ``cards`` (≤ 25); ``part`` numbers the menus of one hand."""
    options = [
        discord.SelectOption(
            label=label(c, card_labels or {}, plain=True),
            value=c,
            description=long_name(c, card_names or {}),
        )
        for c in cards
    ]
    return TableSelect(
        table_id,
        "play",
        "card",
        options=options,
        placeholder=placeholder,
        row=row,
        suffix=f":{part}" if part else "",
    )


def card_button(
    table_id: int, card: str, row: int, card_labels: Mapping[str, str] | None = None
) -> TableButton:
    """The one-tap button playing ``card`` (``tb:<table>:act:play:card=<code>``)."""
    return TableButton(
        table_id,
        f"act:play:card={card}",
        label=label(card, card_labels or {}, plain=True),
        style=discord.ButtonStyle.secondary,
        row=row,
    )


def add_card_buttons(
    view: discord.ui.View,
    table_id: int,
    cards: Sequence[str],
    max_rows: int,
    card_labels: Mapping[str, str] | None = None,
    *,
    first_row: int = 0,
) -> int | None:
    """One button per legal card from ``first_row`` down, if they fit in ``max_rows`` rows
    (see ``card_rows``); returns the rows used, or ``None`` (nothing added: use menus)."""
    rows = card_rows(cards, max_rows)
    if rows is None:
        return None
    for r, row in enumerate(rows):
        for card in row:
            view.add_item(card_button(table_id, card, first_row + r, card_labels))
    return len(rows)


def decision_view(
    table_id: int,
    legal: tuple[Action, ...],
    button_label: dict[str, str],
    card_labels: Mapping[str, str] | None = None,
    card_names: Mapping[str, str] | None = None,
) -> discord.ui.View | None:
    """Controls for exactly the seat's legal actions (the UI never computes legality).

    Card plays become one-tap buttons, in ``legal``'s order, when they fit (up to 20, leaving
    rows for the other buttons), else selects (one per 25 cards); every other action becomes
    a button. ``button_label`` maps action type to its label prefix (``{"bid": "Bid"}``).
    """
    if not legal:
        return None
    view = discord.ui.View(timeout=None)
    cards = [a.card for a in legal if a.type == "play" and a.card is not None]
    buttons = [a for a in legal if a.type != "play"]
    other_rows = -(-len(buttons) // ROW_WIDTH)
    row = add_card_buttons(view, table_id, cards, MAX_ROWS - other_rows, card_labels)
    if row is None:
        row = 0
        for i in range(0, len(cards), MAX_OPTIONS):
            chunk = cards[i : i + MAX_OPTIONS]
            part = i // MAX_OPTIONS
            view.add_item(
                play_select(table_id, chunk, _("Play a card…"), row, part, card_labels, card_names)
            )
            row += 1
    for j, action in enumerate(buttons):
        text = button_label.get(action.type, action.type.title())
        if action.amount is not None:
            text = f"{text} {action.amount}"
        view.add_item(
            TableButton(
                table_id,
                _button_rest(action),
                label=text,
                style=_STYLE.get(action.type, discord.ButtonStyle.primary),
                row=min(4, row + j // 5),
            )
        )
    return view


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
    return view
