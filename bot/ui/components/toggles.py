"""A multi-card choice as one toggle button per card (issue 31): tap the cards to discard, then
**Confirm** — six taps and a seventh for a French Tarot écart of six.

Each card's button toggles it (grey, then green with ✓ once picked); the picks are kept by
the service with the seat (``bot.services.picks``), so every tap redraws the hand from the
database and a restart loses nothing. **Confirm** carries the picked cards in its custom_id,
as the menus' Confirm does (``tb:<table>:act:<type>:cards=S2-S3-H4``), and the engine judges
the choice like any other action. **Suggest** (practice tables) fills the picks with the
expert's choice.

custom_ids: ``tp:<table>:<type>:<card>@<deal>`` toggles a card, ``tp:<table>:<type>:suggest@<deal>``
fills the picks; ``deal`` is the deal the hand was drawn for (an older hand's taps are refused).

The buttons sit in the newer message layout (``bot.ui.components.layout``), which counts 40
components in all rather than five rows of five: a choice among up to 28 cards fits (Queen of
Tarot's dealer discards from 28), as long as the rows, the buttons and the layout's own four
(container, first line, picture, text) stay within 40. Larger choices keep the menus
(``bot.ui.components.choice``).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import discord
from discord.ui.view import BaseView

from bot.engine.views import SeatView
from bot.i18n import _
from bot.services.picks import Choice, choice_of
from bot.ui.components.cards import suit_rows
from bot.ui.components.faces import card_face
from bot.ui.components.layout import COMPONENT_LIMIT
from bot.ui.components.table import ROW_WIDTH, TableButton
from bot.ui.text.cards import in_hand_order

#: The layout's own components around the controls: its container, first line, picture and
#: text (its spacer is left out when there is no room for it).
LAYOUT_OWN = 4
#: Rows and buttons a hand's controls may use.
BUDGET = COMPONENT_LIMIT - LAYOUT_OWN
SUGGEST = "suggest"
#: Rows of toggles a choice takes when it can (as one-tap card buttons: 20 cards).
CLASSIC_ROWS = 4


class PickClicks(Protocol):
    """What a toggle or Suggest hands its click to (the bot's ``controller``)."""

    async def on_pick(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        kind: str,
        what: str,
        deal: int | None,
    ) -> None: ...


class PickButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tp:(?P<table>\d+):(?P<type>[a-z_]+):(?P<what>[A-Z0-9]{1,4}|suggest)"
    r"(?:@(?P<deal>\d{1,9}))?",
):
    """A card's toggle, or **Suggest**, of a multi-card choice."""

    def __init__(
        self,
        table_id: int,
        kind: str,
        what: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | discord.PartialEmoji | None = None,
        deal: int | None = None,
    ) -> None:
        stamp = "" if deal is None else f"@{deal}"
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                custom_id=f"tp:{table_id}:{kind}:{what}{stamp}",
            )
        )
        self.table_id = table_id
        self.kind = kind
        self.what = what
        self.deal = deal

    def stamp(self, deal: int) -> None:
        """Mark the button with the deal its hand was drawn for."""
        self.deal = deal
        self.custom_id = f"tp:{self.table_id}:{self.kind}:{self.what}@{deal}"

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PickButton:
        deal = int(match["deal"]) if match["deal"] else None
        return cls(int(match["table"]), match["type"], match["what"], deal=deal)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        clicks: PickClicks = interaction.client.controller
        await clicks.on_pick(interaction, self.table_id, self.kind, self.what, self.deal)


class ToggleView(discord.ui.View):
    """A hand's controls for a multi-card choice drawn as toggles: more rows than a classic
    message has when needed (only the newer layout shows it; ``BUDGET`` bounds it).

    ``bottom`` is the row of Confirm (and Suggest, Hint): its own row when there is room,
    else the last row of toggles."""

    def __init__(self, bottom: int) -> None:
        super().__init__(timeout=None)
        self.bottom = bottom
        self._sizes: dict[int, int] = {}

    def place(self, item: discord.ui.Item[Any], row: int) -> None:
        """Add ``item`` at ``row`` (which may be past the classic fifth)."""
        if self._sizes.get(row, 0) >= ROW_WIDTH or self.cost(1) > BUDGET:
            raise ValueError("no room for another button")  # i18n: code
        BaseView.add_item(self, item)  # the classic five-row check does not apply
        item._rendered_row = row  # pyright: ignore[reportPrivateUsage]
        self._sizes[row] = self._sizes.get(row, 0) + 1

    def add_item(self, item: discord.ui.Item[Any]) -> ToggleView:
        """Another control (the Hint button): in the bottom row, if it has room."""
        self.place(item, self.bottom)
        return self

    def cost(self, more: int = 0) -> int:
        """The layout components these controls use (rows and buttons), with ``more`` buttons
        added to existing rows."""
        return len(self._sizes) + sum(self._sizes.values()) + more

    def stamp(self, deal: int) -> None:
        for item in self.children:
            if isinstance(item, PickButton):
                item.stamp(deal)


def _layout(cards: Sequence[str]) -> tuple[list[list[str]], int] | None:
    """Rows of toggles and the Confirm row for ``cards`` within ``BUDGET``: up to four rows
    of toggles (more only when the cards need them), then Confirm (with room for Suggest and
    Hint) on a row of its own when it fits, else at the end of the last row of toggles (room
    for Confirm and Suggest). None: the menus must do."""
    # As the one-tap cards, but free of their row cap: the toggles may take more rows.
    grouped = suit_rows(cards, max(CLASSIC_ROWS, -(-len(cards) // ROW_WIDTH)))
    if grouped is None:
        return None
    if len(grouped) + 1 + len(cards) + 3 <= BUDGET:
        return grouped, len(grouped)
    # Filled in order, the last row keeps the most room for Confirm and Suggest.
    for rows in (
        grouped,
        [list(cards[i : i + ROW_WIDTH]) for i in range(0, len(cards), ROW_WIDTH)],
    ):
        if len(rows[-1]) <= ROW_WIDTH - 2 and len(rows) + len(cards) + 2 <= BUDGET:
            return rows, len(rows) - 1
    return None


def _confirm(table_id: int, choice: Choice, chosen: Sequence[str], verb: str) -> TableButton:
    """Confirm, once the picks have one of the allowed sizes (the menus' words and id)."""
    ready = len(chosen) in choice.sizes
    if ready:
        text = _("Confirm {verb} ({count})", verb=verb.lower(), count=len(chosen))
    else:
        need = " or ".join(map(str, choice.sizes))
        text = _("Pick {need} cards ({count} picked)", need=need, count=len(chosen))
    rest = f"act:{choice.kind}:cards={'-'.join(chosen)}"
    return TableButton(
        table_id,
        rest if ready else "hand",
        label=text,
        style=discord.ButtonStyle.success if ready else discord.ButtonStyle.secondary,
        disabled=not ready,
    )


def toggle_controls(
    table_id: int,
    view: SeatView,
    picked: Sequence[str],
    verb: str,
    card_labels: Mapping[str, str] | None = None,
) -> ToggleView | None:
    """The seat's multi-card choice as toggles with its Confirm, or None when it has no such
    choice (a discard as its only decision) or the cards do not fit (the menus do then).

    ``picked``: the cards picked so far (stored by the service); ``verb``: the choice's name
    ("Discard"). The toggles follow the hand's order."""
    choice = choice_of(view.legal)
    if choice is None:
        return None
    cards = in_hand_order(choice.candidates, view.hand)
    cards += [c for c in choice.candidates if c not in cards]
    found = _layout(cards)
    if found is None:
        return None
    rows, bottom = found
    chosen = [c for c in cards if c in set(picked)]
    ui = ToggleView(bottom)
    for r, row in enumerate(rows):
        for card in row:
            on = card in chosen
            # The rank in the label, the suit as its emoji (issue 31: never markup in a label).
            text, suit = card_face(card, card_labels or {})
            ui.place(
                PickButton(
                    table_id,
                    choice.kind,
                    card,
                    label=f"✓ {text}" if on else text,
                    emoji=suit,
                    style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
                ),
                r,
            )
    ui.place(_confirm(table_id, choice, chosen, verb), bottom)
    return ui


def finish_toggles(controls: discord.ui.View, table_id: int, deal: int, *, suggest: bool) -> None:
    """Stamp a hand's toggles with the deal it was drawn for and, at a table where the
    expert may advise (``suggest``), add **Suggest** beside Confirm. Other controls are left
    as they are."""
    if not isinstance(controls, ToggleView):
        return
    kind = next((b.kind for b in controls.children if isinstance(b, PickButton)), None)
    if suggest and kind is not None:
        button = PickButton(table_id, kind, SUGGEST, label=_("Suggest"), emoji="💡")
        # No room: the table's Hint button still says what the expert would do.
        with contextlib.suppress(ValueError):
            controls.place(button, controls.bottom)
    controls.stamp(deal)
