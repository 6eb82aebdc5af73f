"""Helpers for the per-game language tests: which English of a catalog area must never show in
a translated rendering, and the texts a message shows (embeds and components, atom by atom).

A *leak* is a piece of an English message id of the area, whose translation differs, found in
what a French or Italian player reads: every literal run of two words or more between the
message's placeholders (so "Auction · no bid yet" and "(nobody accepted: no defenders)" are
both caught), and one-word messages ("Players", "Bid") when they are a whole title, field name
or button label.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.i18n.extract import LOCALES, read

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_WORD = re.compile(r"[^\W\d_]{2,}")


@dataclass
class English:
    """The English of an area that a translation replaces."""

    chunks: set[str] = field(default_factory=set)  # runs of 2+ words, searched inside texts
    words: set[str] = field(default_factory=set)  # one-word messages, matched whole

    def leaks(self, atoms: Iterable[str]) -> list[str]:
        out: list[str] = []
        for atom in atoms:
            bare = re.sub(r"\s+\d+$", "", atom.strip(" *_`.:"))  # "Bid 3": a button
            if bare in self.words:
                out.append(f"{bare!r} (whole text)")
            out += [f"{c!r} in {atom[:120]!r}" for c in self.chunks if c in atom]
        return out


def _chunks(text: str) -> Iterator[str]:
    for part in _PLACEHOLDER.split(text):
        for line in part.split("\n"):
            piece = line.strip(" *_`·—-→()[],.;:!?")
            if len(_WORD.findall(piece)) >= 2:
                yield piece


def english(area: str, language: str) -> English:
    """The English message ids of ``area`` (each form of a plural) whose ``language``
    translation is not the same text."""
    book = read(LOCALES / language / f"{area}.po", language)
    out = English()
    for message in book:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        for i, source in enumerate(ids):
            translated = str(strings[min(i, len(strings) - 1)] or "")
            if not translated or translated == source:
                continue
            chunks = [c for c in _chunks(str(source)) if c not in translated]
            out.chunks.update(chunks)
            bare = str(source).strip(" *_`.:")
            if _WORD.fullmatch(bare):
                out.words.add(bare)
    return out


def embed_atoms(embed: discord.Embed) -> list[str]:
    """Every text of an embed: title, description, author, footer, each field's name and
    value."""
    d: dict[str, Any] = dict(embed.to_dict())
    out = [str(d.get("title") or ""), str(d.get("description") or "")]
    out.append(str((d.get("author") or {}).get("name") or ""))
    out.append(str((d.get("footer") or {}).get("text") or ""))
    for f in d.get("fields") or []:
        out += [str(f.get("name") or ""), str(f.get("value") or "")]
    return [t for t in out if t]


def view_atoms(view: discord.ui.View | None) -> list[str]:
    """Every text of a message's components: labels, placeholders, options."""
    out: list[str] = []
    for c in (c for r in (view.to_components() if view else []) for c in r["components"]):
        out += [c.get("label") or "", c.get("placeholder") or ""]
        for o in c.get("options", []):
            out += [o.get("label") or "", o.get("description") or ""]
    return [t for t in out if t]
