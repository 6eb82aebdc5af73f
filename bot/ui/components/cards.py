"""A hand's decision controls: one-tap card buttons, "Play …" menus, and the default view of a
seat's legal actions (a game's own ``decision_view`` may replace it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.engine.actions import Action
from bot.i18n import _
from bot.ui.components.faces import card_face
from bot.ui.components.table import (
    CARD_BUTTON_ROWS,
    MAX_OPTIONS,
    MAX_ROWS,
    ROW_WIDTH,
    TableButton,
    TableSelect,
)
from bot.ui.text.cards import long_name

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
    order), as :func:`suit_rows` in at most ``max_rows`` rows, never more than
    ``CARD_BUTTON_ROWS``. ``None`` when they do not fit (use menus)."""
    return suit_rows(cards, min(max_rows, CARD_BUTTON_ROWS))


def suit_rows(cards: Sequence[str], max_rows: int) -> list[list[str]] | None:
    """``cards`` in the order given as rows of at most 5 in at most ``max_rows`` rows: each
    run of one suit on its own rows where there is room, else the smallest neighbouring rows
    merged, else filled in order. ``None`` when they do not fit."""
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
    options: list[discord.SelectOption] = []
    for c in cards:
        text, sign = card_face(c, card_labels or {})
        options.append(
            discord.SelectOption(
                label=text, value=c, description=long_name(c, card_names or {}), emoji=sign
            )
        )
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
    """The one-tap button playing ``card`` (``tb:<table>:act:play:card=<code>``): its rank
    and its suit's emoji (``faces``)."""
    text, sign = card_face(card, card_labels or {})
    return TableButton(
        table_id,
        f"act:play:card={card}",
        label=text,
        style=discord.ButtonStyle.secondary,
        row=row,
        emoji=sign,
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
