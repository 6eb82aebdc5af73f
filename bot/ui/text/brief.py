"""The words of a message in the newer layout (``bot.ui.components.layout``): an embed's text
as message markdown, in full or brief; the first line that a phone's notification shows; the
running totals as one line.

The games keep drawing their text as embeds (``bot.ui.games``); these turn it into the few
lines shown under a picture, or the whole text shown without one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import discord

from bot.engine.actions import Action
from bot.i18n import _, n_
from bot.services.models import TableInfo
from bot.ui.text.render import plain_label

#: The markdown ``plain_text`` undoes: an escaped character, bold, a small-print or heading
#: line's mark, a masked link (its text stays).
_MARKDOWN = re.compile(
    r"\\(.)|\*\*|^-# |^#{1,3} |\[((?:\\.|[^\]\\])*)\]\((?:https?://[^)\s]+)\)", re.M
)


def plain_text(markdown: str) -> str:
    """``markdown`` as the text it shows, for places Discord shows literally (a picture's alt
    text): escapes undone, bold and small-print marks dropped, masked links as their text."""

    def one(m: re.Match[str]) -> str:
        if m.group(1) is not None:
            return m.group(1)
        if m.group(2) is not None:
            return plain_text(m.group(2))
        return ""

    return _MARKDOWN.sub(one, markdown)


def _field(name: str, value: str) -> str:
    """A field as text: its name in bold before a one-line value, above a longer one."""
    name = name.strip("\u200b ")
    if not name:
        return value
    return f"**{name}** · {value}" if "\n" not in value else f"**{name}**\n{value}"


def embed_lines(
    embed: discord.Embed,
    *,
    description: bool = True,
    footer: bool = True,
    skip_values: Iterable[str] = (),
) -> list[str]:
    """An embed's description (``description``), its fields (but those whose value is one of
    ``skip_values``) and its footer in small print (``footer``), as message markdown."""
    skipped = set(skip_values)
    lines: list[str] = []
    if description and embed.description:
        lines.append(embed.description)
    for f in embed.fields:
        if not f.value or f.value in skipped:
            continue
        lines.append(_field(f.name or "", f.value))
    if footer and embed.footer.text:
        lines.append(f"-# {embed.footer.text}")
    return lines


def heading(embed: discord.Embed) -> str:
    """An embed's title as the first line of a message."""
    return f"**{embed.title}**" if embed.title else ""


def link_line(text: str, url: str | None) -> str:
    """A small masked link (``[text](url)``, never a raw address); ``text`` is markdown whose
    names were escaped (``bot.ui.text.names``)."""
    return f"-# [{text}]({url})" if url else f"-# {text}"


def totals_line(table: TableInfo, totals: Sequence[int]) -> str:
    """The match so far, one line: "Scores · alice 12 · bob −3" (names without the markers
    that change with every timeout, so a quiet hand is not edited for them)."""
    parts = [f"{plain_label(table, s)} **{t}**" for s, t in enumerate(totals)]
    return _("Scores · {scores}", scores=" · ".join(parts))


def decision_words(legal: Sequence[Action]) -> str:
    """What a seat is asked to do, completing "Your turn — …: "."""
    kinds = {a.type for a in legal}
    if "discard" in kinds:
        # How many the discard takes (its templates' ``amount``), not how many it may take from.
        n = max((a.amount or 0 for a in legal if a.type == "discard"), default=0)
        if n:
            return n_("discard {n} card", "discard {n} cards", n)
        return _("discard")
    if "call" in kinds:
        return _("call a card")
    if "chelem" in kinds:
        return _("announce a chelem or not")
    if "trump" in kinds:
        return _("name trumps")
    if kinds & {"accept", "drop"}:
        return _("bid, accept or drop") if "bid" in kinds else _("accept or drop")
    if kinds & {"offer", "demand"}:
        return _("bargain")
    if "declare" in kinds:
        return _("declare your bonuses")
    if "bid" in kinds:
        # A contract game passes with a bid of its own; the counted bids do not pass.
        if "muck" in kinds:
            return _("bid or muck the deal")
        if any(a.contract == "pass" for a in legal):
            return _("bid or pass")
        return _("bid")
    if "muck" in kinds:
        return _("muck the deal or not")
    if "play" in kinds:
        return _("play a card")
    return _("decide")


def your_turn(game: str, table_id: int, place: str | None, doing: str) -> str:
    """The first line of a hand at its player's decision, which a phone's push shows:
    "🟢 Your turn — French Tarot #3 (Tarot Club): play a card"."""
    if place:
        return _(
            "🟢 Your turn — {game} #{id} ({place}): {doing}",
            game=game,
            id=table_id,
            place=place,
            doing=doing,
        )
    return _("🟢 Your turn — {game} #{id}: {doing}", game=game, id=table_id, doing=doing)


def not_your_turn(game: str, table_id: int, place: str | None) -> str:
    """The first line of a hand while others decide (it never changes with their moves)."""
    if place:
        return _("⚪ {game} #{id} ({place})", game=game, id=table_id, place=place)
    return _("⚪ {game} #{id}", game=game, id=table_id)
