"""Hostile display names, and a checker that finds any of them rendered as markup (issue 28,
defect 7): shared by the escaping helper's unit tests and the end-to-end test.

Text is judged by where Discord shows it: message content, embed titles, descriptions and
fields render markdown, so a name there must be escaped; embed footers and authors, button
labels and code blocks show text literally, so a name there must be only flattened to one
line (an escape would show its backslashes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

VICTIM_ID = 123_456_789_012_345_678  # a member of the server who is not at the table
ROLE_ID = 223_456_789_012_345_678


def hostile_names(victim: int = VICTIM_ID, role: int = ROLE_ID) -> list[str]:
    """Display names (at most 32 characters, as Discord allows) that would be markup."""
    return [
        "[Claim nitro](https://x.yz/a)",
        "**Boss** @everyone __u__",
        f"<@{victim}> ||spy||",
        f"<@&{role}> `tick` ~~s~~",
        "# Big\n> quote -# sub <#1>",
        "1. [a](https://b.c) [d](https://e.f)",
    ]


#: A server's name (up to 100 characters): the hand's header and the daily boards show it.
SERVER_NAME = "**Evil** [Srv](https://x.yz/s)\n# Club"


#: Pieces of the names above that only an unescaped name shows (a backslash before any of
#: them means it was escaped): masked links, emphasis, spoilers, code, mentions, headings.
def fragments(victim: int = VICTIM_ID, role: int = ROLE_ID) -> list[str]:
    return [
        "[Claim nitro](",
        "**Boss**",
        "__u__",
        "@everyone",
        f"<@{victim}>",
        "||spy||",
        f"<@&{role}>",
        "`tick`",
        "~~s~~",
        "# Big",
        "> quote",
        "-# sub",
        "<#1>",
        "[a](",
        "[d](",
        "https://x.yz",
        "https://b.c",
        "**Evil**",
        "[Srv](",
        "# Club",
    ]


#: Every character of Discord's markdown: a name holding one must never show as it is.
MARKUP = frozenset("\\*_~|`>#-+[]()<:")
_CODE_BLOCK = re.compile(r"```.*?```", re.S)
#: A masked link whose "[" is not escaped (but the bot's own, to a Discord channel or message).
_MASKED_LINK = re.compile(
    r"(?<!\\)\[[^\]\n]*\]\(\s*<?(?!https://discord\.com/channels/)[a-z]+:", re.I
)
_MENTION = re.compile(r"<@[!&]?(\d+)>")


@dataclass(frozen=True)
class Shown:
    """One piece of text a message shows, and whether Discord renders it as markdown."""

    text: str
    markdown: bool
    where: str


def message_texts(payload: Any, where: str = "") -> Iterator[Shown]:
    """Every text in a message payload as the bot sends it (``content``, ``embeds``,
    ``components`` with the newer layout's text displays and alt texts, nested; an interaction
    response's ``data``), by how Discord shows it."""
    if isinstance(payload, list):
        for i, item in enumerate(payload):
            yield from message_texts(item, f"{where}[{i}]")
        return
    if not isinstance(payload, dict):
        return
    for key, value in payload.items():
        here = f"{where}.{key}"
        if key in ("content", "title", "description") and isinstance(value, str):
            yield Shown(value, True, here)
        elif key == "fields" and isinstance(value, list):
            for f in value:
                if isinstance(f, dict):
                    yield Shown(str(f.get("name") or ""), True, f"{here}.name")
                    yield Shown(str(f.get("value") or ""), True, f"{here}.value")
        elif key in ("footer", "author") and isinstance(value, dict):
            yield Shown(str(value.get("text") or value.get("name") or ""), False, here)
        elif key in ("label", "placeholder") and isinstance(value, str):
            yield Shown(value, False, here)
        elif key == "items" and isinstance(value, list):  # a media gallery: alt texts, literal
            for i, item in enumerate(value):
                if isinstance(item, dict) and isinstance(item.get("description"), str):
                    yield Shown(item["description"], False, f"{here}[{i}].description")
        elif key in ("embeds", "components", "data", "options", "embed") and isinstance(
            value, list | dict
        ):
            yield from message_texts(value, here)


def live_markup(
    shown: Shown, names: Iterable[str], pinged: Iterable[int] = (), victim: int = VICTIM_ID
) -> list[str]:
    """What in ``shown`` lets a name act as markup or a mention (empty: nothing).

    ``pinged``: the users the bot itself mentions on purpose (the player whose turn it is)."""
    problems: list[str] = []
    names = list(names)
    if not shown.markdown:
        # Shown literally: on one line, and never with escapes (they would show).
        for name in names:
            if name != " ".join(name.split()) and name in shown.text:
                problems.append(f"a name on several lines in {shown.where}")
        if "\\[" in shown.text or "\\*" in shown.text:
            problems.append(f"escapes show literally in {shown.where}: {shown.text[:120]!r}")
        return problems
    text = _CODE_BLOCK.sub("", shown.text)  # a code block shows its text literally
    for piece in fragments(victim):
        if re.search(r"(?<!\\)" + re.escape(piece), text):
            problems.append(f"{piece!r} unescaped in {shown.where}: {text[:160]!r}")
    for name in names:
        if name in text and any(c in MARKUP for c in name):
            problems.append(f"a raw name in {shown.where}: {name!r}")
    if _MASKED_LINK.search(text):
        problems.append(f"a masked link in {shown.where}: {text[:160]!r}")
    allowed = set(pinged)
    for m in _MENTION.finditer(text):
        if int(m.group(1)) not in allowed or "&" in m.group(0):
            problems.append(f"a mention {m.group(0)} in {shown.where}")
    return problems
