"""Card controls of a hand: one-tap card plays or per-suit menus, and restart-safe multi-card
choices (discards, poignées) split over several selects.

Discord submits each select on its own, so a choice spread over "one select per suit" needs
somewhere to keep the cards picked so far. It lives in the message itself: every option
picked is rendered as a select default, and a change in one select is merged with the
defaults of the others (read back from ``interaction.message``). Nothing is stored server
side, so a half-made choice survives a restart; the **Confirm** button carries the chosen
cards in its custom_id (``tb:<table>:act:<type>:cards=S2-S3-H4``) and the engine checks the
choice like any other action.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, cast

import discord

from bot.engine.actions import Action
from bot.i18n import N_, _
from bot.ui.components.cards import add_card_buttons, card_group, play_select
from bot.ui.components.faces import card_face
from bot.ui.components.table import MAX_OPTIONS, MAX_ROWS, TableButton
from bot.ui.text.cards import long_name, plain_sign, suit_word

_GROUP_ORDER = ("S", "H", "C", "D", "T")
_NO_WORDS: Mapping[str, str] = {}


def group_title(key: str, suit_words: Mapping[str, str] = _NO_WORDS) -> str:
    """``"S"`` → "♠ Spades", ``"HT"`` → "♥ Hearts + Trumps" (``suit_words``: the game's own
    names of its suits, e.g. Queen of Tarot's Spade, Coppe…, read in the current language)."""

    def name(k: str) -> str:
        word = suit_words.get(k) or (_("Trumps") if k == "T" else suit_word(k))
        return word if k == "T" else f"{plain_sign(k)} {word}"

    return " + ".join(name(k) for k in key)


def group_cards(
    cards: Sequence[str], max_groups: int, key: Callable[[str], str] = card_group
) -> list[tuple[str, list[str]]]:
    """Cards split into at most ``max_groups`` selects of ≤ 25 options, one per suit when
    there is room; otherwise the smallest neighbouring groups are merged."""
    groups: dict[str, list[str]] = {}
    for c in cards:
        groups.setdefault(key(c), []).append(c)
    out = sorted(
        groups.items(),
        key=lambda kv: _GROUP_ORDER.index(kv[0]) if kv[0] in _GROUP_ORDER else 9,
    )
    while len(out) > max_groups:
        best: int | None = None
        for i in range(len(out) - 1):
            size = len(out[i][1]) + len(out[i + 1][1])
            if size <= MAX_OPTIONS and (
                best is None or size < len(out[best][1]) + len(out[best + 1][1])
            ):
                best = i
        if best is None:
            break
        (ka, a), (kb, b) = out[best], out[best + 1]
        out[best : best + 2] = [(ka + kb, a + b)]
    # A group can still exceed 25 only if one suit alone does (not possible with ≤ 22 trumps
    # and 14-card suits); split defensively rather than fail.
    final: list[tuple[str, list[str]]] = []
    for k, cs in out:
        for i in range(0, len(cs), MAX_OPTIONS):
            final.append((k, cs[i : i + MAX_OPTIONS]))
    return final


class ChoiceClicks(Protocol):
    """What a multi-card choice hands a change to (the bot's ``controller``)."""

    async def on_choice(
        self, interaction: discord.Interaction[Any], table_id: int, selected: list[str]
    ) -> None: ...


class ChoiceSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"tc:(?P<table>\d+):(?P<type>[a-z_]+):(?P<part>\d+)",
):
    """One part of a multi-card choice; picking merges with the other parts' defaults."""

    def __init__(
        self,
        table_id: int,
        action_type: str,
        part: int,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"tc:{table_id}:{action_type}:{part}",
                options=options or [discord.SelectOption(label="?", value="?")],
                placeholder=placeholder,
                min_values=0,
                max_values=max_values,
                row=row,
            )
        )
        self.table_id = table_id
        self.action_type = action_type

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ChoiceSelect:
        return cls(int(match["table"]), match["type"], int(match["part"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        mine = cast(str, data.get("custom_id", ""))
        picked = {str(v) for v in data.get("values", [])}
        picked |= _other_defaults(interaction.message, mine)
        clicks: ChoiceClicks = interaction.client.controller
        await clicks.on_choice(interaction, self.table_id, sorted(picked))


def _other_defaults(message: discord.Message | None, own_id: str) -> set[str]:
    """Cards picked in the message's other choice selects (their default options)."""
    if message is None:
        return set()
    picked: set[str] = set()
    # Action rows sit at the top (an older message) or in the newer layout's container.
    stack: list[Any] = list(message.components)
    while stack:
        child = stack.pop()
        stack.extend(getattr(child, "children", None) or ())
        custom_id = getattr(child, "custom_id", None) or ""
        if not custom_id.startswith("tc:") or custom_id == own_id:
            continue
        for option in getattr(child, "options", ()):
            if getattr(option, "default", False):
                picked.add(str(option.value))
    return picked


#: How an optional choice of each action type is offered ("Show a poignée (optional): …").
_OPTIONAL_TITLE = {"poignee": N_("Show a poignée")}


def offers_play(view: discord.ui.View) -> bool:
    """True when ``view`` already holds a card-play control (a one-tap card button
    ``tb:<table>:act:play:…`` or a "Play …" select ``ts:<table>:play:…``)."""
    for item in view.children:
        custom_id = getattr(item, "custom_id", None) or ""
        if custom_id.startswith("tb:") and ":act:play:" in custom_id:
            return True
        if custom_id.startswith("ts:") and custom_id.split(":")[2:3] == ["play"]:
            return True
    return False


def add_choice(
    view: discord.ui.View,
    table_id: int,
    templates: Iterable[Action],
    selected: Iterable[str],
    *,
    verb: str,
    first_row: int = 0,
    group_key: Callable[[str], str] = card_group,
    optional: bool | None = None,
    suit_words: Mapping[str, str] = _NO_WORDS,
) -> None:
    """Selects for a multi-card choice plus its Confirm button, from ``first_row`` down.

    ``verb`` is the translated name of the choice ("Discard"). ``templates`` are the
    engine's templates of one action type (several for poignée
    levels, one per size); the button is enabled only when the picked cards have one of
    the allowed sizes — the engine still judges the exact subset.

    An *optional* choice (``optional``; by default, whenever ``view`` already offers a card
    play, as French Tarot's poignée beside the first card) says so: its selects read
    "Show a poignée (optional): …" and its button "Pick 8 to show a poignée — optional", so
    it does not look like a step the player must take before playing.
    """
    tmpl = list(templates)
    kind = tmpl[0].type
    candidates: list[str] = []
    for t in tmpl:
        candidates.extend(c for c in t.cards or () if c not in candidates)
    sizes = sorted({t.amount or 0 for t in tmpl})
    chosen = [c for c in candidates if c in set(selected)]
    if optional is None:
        optional = offers_play(view)
    title = _(_OPTIONAL_TITLE[kind]) if optional and kind in _OPTIONAL_TITLE else verb
    rows = max(1, MAX_ROWS - first_row - 1)
    parts = group_cards(candidates, rows, group_key)
    for part, (key, cards) in enumerate(parts):
        options: list[discord.SelectOption] = []
        for c in cards:
            text, sign = card_face(c)
            options.append(
                discord.SelectOption(
                    label=text,
                    value=c,
                    description=long_name(c),
                    default=c in chosen,
                    emoji=sign,
                )
            )
        view.add_item(
            ChoiceSelect(
                table_id,
                kind,
                part,
                options=options,
                placeholder=(
                    _(
                        "{title} (optional): {group}…",
                        title=title,
                        group=group_title(key, suit_words),
                    )
                    if optional
                    else _("{title}: {group}…", title=title, group=group_title(key, suit_words))
                ),
                max_values=min(len(cards), max(sizes)),
                row=first_row + part,
            )
        )
    need = " or ".join(map(str, sizes))
    ready = len(chosen) in sizes
    rest = f"act:{kind}:cards={'-'.join(chosen)}"
    if ready:
        text = _("Confirm {verb} ({count})", verb=verb.lower(), count=len(chosen))
    elif optional and kind == "poignee":
        text = _(
            "Pick {need} to show a poignée — optional ({count} picked)",
            need=need,
            count=len(chosen),
        )
    elif optional:
        text = _("Pick {need} cards — optional ({count} picked)", need=need, count=len(chosen))
    else:
        text = _("Pick {need} cards ({count} picked)", need=need, count=len(chosen))
    view.add_item(
        TableButton(
            table_id,
            rest if ready else "hand",
            label=text,
            style=discord.ButtonStyle.success if ready else discord.ButtonStyle.secondary,
            row=min(MAX_ROWS - 1, first_row + len(parts)),
            disabled=not ready,
        )
    )


def add_play_selects(
    view: discord.ui.View,
    table_id: int,
    cards: Sequence[str],
    rows: int,
    card_labels: Mapping[str, str] | None = None,
    card_names: Mapping[str, str] | None = None,
    suit_words: Mapping[str, str] = _NO_WORDS,
) -> int:
    """Controls playing one of the legal ``cards`` within ``rows`` rows from row 0; returns
    the number of rows used. One tap per card when they fit (a button each, in the order
    given, at most 20 on 4 rows), else one "Play …" select per suit (merged to fit
    ``rows``). Only legal cards are offered: the engine decides which."""
    used = add_card_buttons(view, table_id, cards, rows, card_labels)
    if used is not None:
        return used
    parts = group_cards(cards, rows)
    for part, (key, group) in enumerate(parts):
        placeholder = _("Play {group}…", group=group_title(key, suit_words))
        view.add_item(
            play_select(table_id, group, placeholder, part, part, card_labels, card_names)
        )
    return len(parts)
