"""Names people chose (players, servers, channels) shown as the plain text they are.

A display name is written by whoever owns it, and the bot shows it in other people's
servers: in lobbies, tables, notices and boards. Every renderer that puts such a name into
text Discord renders as markdown (message content, embed titles, descriptions and fields)
passes it through :func:`escape_name`; places Discord shows literally (embed footers and
authors, code blocks, pictures) take :func:`flat_name`, since a backslash would show there
(issue 28, defect 7).
"""

from __future__ import annotations

import re
from functools import lru_cache

import discord

#: Every character that starts or ends markup somewhere in Discord's markdown: emphasis,
#: spoilers, code, quotes, headings and ``-#`` subtext, lists, masked links ``[…](…)``,
#: mentions, channels, timestamps and custom emoji ``<…>``, and the ``:`` that keeps
#: ``https://…`` from becoming a link. ``discord.utils.escape_markdown`` misses several of
#: these: it escapes only the first ``[`` of ``[a](x) [b](y)`` (the second stays a working
#: masked link) and leaves ``<#channel>``, ``<t:…>`` and bare links alone.
_MARKUP = re.compile(r"[\\*_~|`>#\-+\[\]()<:]")
#: "1. x" at the start of a line is an ordered list.
_LIST_NUMBER = re.compile(r"^(\d+)\.")


def flat_name(name: str) -> str:
    """``name`` on one line: every run of whitespace (newlines, tabs, line separators) as one
    space; "?" for a name that is only whitespace. For text Discord shows literally."""
    return " ".join(name.split()) or "?"


@lru_cache(maxsize=4096)  # a table redraws the same few names at every commit
def escape_name(name: str) -> str:
    """``name`` as plain text inside markdown: on one line, every markup character escaped
    with a backslash (Discord then shows the character itself), and ``@everyone``, ``@here``
    and user or role mentions broken by a zero-width space so nothing can ping.

    Escape a name once, where it leaves the data for the text: escaping twice shows the
    backslashes.
    """
    text = _MARKUP.sub(r"\\\g<0>", flat_name(name))
    text = _LIST_NUMBER.sub(r"\1\\.", text)
    return discord.utils.escape_mentions(text)


def pinging(*user_ids: int | None) -> discord.AllowedMentions:
    """Mentions that may ping exactly these users, and never everyone, here or a role: a
    mention smuggled into a name (or any other text of the message) pings nobody."""
    users = [discord.Object(u) for u in dict.fromkeys(user_ids) if u is not None]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)
