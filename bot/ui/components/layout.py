"""Discord's newer message layout (components V2) for a table's messages: one container with
an accent colour, a first line (what a phone's notification shows), the picture, a few lines
of text and the controls right below.

A message in this layout has no ``content`` and no embed (Discord refuses them with the
``IS_COMPONENTS_V2`` flag, and an edit can never take the flag away), so every message a
table edits in place is drawn here: the lobby, the table, the hands, deal summaries. The
restart-proof buttons and selects (``bot.ui.components.table``) sit in its action rows with
their custom_ids unchanged, so controls drawn before this layout keep working after it.

A ``Layout`` is drawn from a ``Screen`` (words and controls, no picture yet); the picture, if
the reader wants one, is added by delivery (``with_picture``): it is then shown first, with
the full text as its alt text, and the text shrinks to the screen's brief. Without a picture
the full text stands in its place.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import discord

from bot.ui.text.brief import embed_lines, heading, link_line, plain_text
from bot.ui.text.names import escape_name

#: The accent of a message that waits for its reader's decision, and of one that does not.
ACCENT_TURN = discord.Colour.green()
ACCENT_WAIT = discord.Colour.light_grey()

TEXT_LIMIT = 4000  # characters of all the text displays of a message together
ALT_LIMIT = 1024  # characters of a picture's alt text
COMPONENT_LIMIT = 40  # components in a message, nested ones included


def clip(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters (cut at a line if it can, marked with …)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    at = cut.rfind("\n")
    return (cut[:at] if at > limit // 2 else cut) + "…"


@dataclass(frozen=True, eq=False)
class Screen:
    """What one message says and offers, before its picture is known.

    ``head``: the first line (a phone's notification shows it); ``brief``: the few lines shown
    with a picture; ``full``: everything in words, shown without a picture (and as its alt
    text); ``controls``: a ``discord.ui.View`` whose rows become the layout's action rows;
    ``picture``: the attachment's file name once there is one."""

    head: str
    brief: str
    full: str
    accent: discord.Colour | None = None
    controls: discord.ui.View | None = None
    picture: str | None = None
    alt: str | None = None  # the picture's alt text (default: ``full``)


class Layout(discord.ui.LayoutView):
    """A ``Screen`` drawn in components V2 (see the module docstring)."""

    def __init__(self, screen: Screen) -> None:
        super().__init__(timeout=None)
        self.screen = screen
        box = discord.ui.Container[Layout](accent_colour=screen.accent)
        head = clip(screen.head.strip() or "\u200b", 300)
        room = TEXT_LIMIT - len(head) - 2
        box.add_item(discord.ui.TextDisplay[Layout](head))
        if screen.picture is not None:
            # Alt text is shown (and read) literally: the full text without its markdown.
            alt = clip(plain_text(screen.alt if screen.alt is not None else screen.full), ALT_LIMIT)
            box.add_item(
                discord.ui.MediaGallery[Layout](
                    discord.MediaGalleryItem(f"attachment://{screen.picture}", description=alt)
                )
            )
            body = screen.brief
        else:
            body = screen.full
        body = clip(body.strip(), room)
        if body:
            box.add_item(discord.ui.TextDisplay[Layout](body))
        rows = _rows(screen.controls)
        used = 1 + len(box.children) + sum(1 + len(r) for r in rows)
        if rows and used < COMPONENT_LIMIT:
            box.add_item(discord.ui.Separator[Layout](visible=False))
        for items in rows:
            row = discord.ui.ActionRow[Layout]()
            for item in items:
                row.add_item(item)
            box.add_item(row)
        self.add_item(box)

    def with_picture(self, name: str | None) -> Layout:
        """This layout showing the attachment ``name`` (None: without a picture)."""
        return Layout(replace(self.screen, picture=name))


def _rows(view: discord.ui.View | None) -> list[list[discord.ui.Item[discord.ui.View]]]:
    """A view's items by the row Discord would show them in."""
    if view is None:
        return []
    rows: dict[int, list[discord.ui.Item[discord.ui.View]]] = {}
    for item in view.children:
        rows.setdefault(item._rendered_row or 0, []).append(item)  # pyright: ignore[reportPrivateUsage]
    return [rows[k] for k in sorted(rows)]


def is_layout(view: object) -> bool:
    """Whether message fields' ``view`` is drawn in this layout."""
    return isinstance(view, Layout)


def from_embed(
    embed: discord.Embed,
    controls: discord.ui.View | None = None,
    *,
    head: str | None = None,
    link: str | None = None,
) -> Layout:
    """An embed's words in this layout (a lobby, a deal summary, a result, a closed hand):
    its title first (or ``head``: a message's content), then the rest, in its colour;
    ``link``: a last small line (a masked link)."""
    lines = [heading(embed)] if head and embed.title else []
    if embed.author.name and not link:
        # An embed's author line is shown literally; here it is markdown.
        lines.append(link_line(escape_name(embed.author.name), embed.author.url))
    lines += embed_lines(embed)
    if link:
        lines.append(link)
    text = "\n".join(lines)
    return Layout(
        Screen(
            head=head or heading(embed),
            brief=text,
            full=text,
            accent=embed.colour,
            controls=controls,
        )
    )
