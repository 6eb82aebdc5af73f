"""The words the pictures draw, in the current language (``bot.i18n``, the ``pictures``
catalogs), and coloured lines built from one translated message.

A picture's words are read when its scene is built, so the scene (the cache key) holds them
in the language of the moment, and the scene also records that language for the card faces
(``tiles``), whose few words (court letters, named trumps) follow it too.
"""

from __future__ import annotations

from string import Formatter

from bot.i18n import current

#: A run of text and the name of its ink (see ``_style.INK``).
Segment = tuple[str, str]
Line = tuple[Segment, ...]


_FORMATTER = Formatter()


def styled(message: str, ink: str = "text", **parts: str | Segment) -> Line:
    """A line from ``message`` (already translated, with ``{name}`` placeholders): its own
    words in ``ink``, each placeholder filled with ``parts[name]`` — a string (drawn in
    ``ink``) or a ``(text, ink)`` pair drawn in its own colour. Translations may move the
    placeholders; the colours follow them."""
    out: list[Segment] = []

    def add(text: str, colour: str) -> None:
        if not text:
            return
        if out and out[-1][1] == colour:
            out[-1] = (out[-1][0] + text, colour)
        else:
            out.append((text, colour))

    for literal, field, _spec, _conversion in _FORMATTER.parse(message):
        add(literal, ink)
        if field is None:
            continue
        value = parts[field]
        if isinstance(value, tuple):
            add(value[0], value[1])
        else:
            add(value, ink)
    return tuple(out)


def language() -> str:
    """The language the words of a scene are read in (part of every picture's cache key)."""
    return current()
