"""Slash commands named in text: a mention Discord renders in each reader's own language.

A message that tells players to use a command never types its name: French and Italian
clients list ``/classement`` and ``/classifica``, not ``/leaderboard``. Discord renders a
command mention (``</leaderboard:id>``, ``</privacy forget-me:id>``, always written with the
English names) in the reader's language and makes it clickable, so :func:`command` gives a
mention once the command ids are known (``TrionfiBot.sync_commands`` stores them in the
database and calls :func:`remember` in every process) and, before the first sync, the name
as the reader's slash menu shows it (``/classement``, from the ``commands`` catalog).

A mention cannot carry options: they follow it as typed text, in the reader's language
(``</leaderboard:id> `critere:Cote```). Where Discord does not render mentions (embed
footers and titles, button labels, select placeholders) :func:`typed` gives the plain name.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import p_

# Top-level command name (English, as synced) → its id; one table per process, as the suit
# marks of ``bot.ui.text.cards`` are.
_IDS: dict[str, int] = {}


def remember(ids: Mapping[str, int]) -> None:
    """Use ``ids`` (top-level command name → id) for the mentions; empty: the typed names."""
    _IDS.clear()
    _IDS.update({str(name): int(i) for name, i in ids.items()})


def known() -> dict[str, int]:
    """The command ids mentions use now (a copy)."""
    return dict(_IDS)


def _options(options: Mapping[str, object]) -> str:
    """``option:value`` pairs in the reader's language: the option's translated name and, for
    a choice, the first words of its translated label, what a player types to pick it
    (``metric="Rating"`` → ``critere:Cote``, ``level="Expert (thinks ahead…)"`` →
    ``niveau:Expert``); a boolean (``full=True``) is typed as is in every language."""
    words = []
    for name, value in options.items():
        shown = p_("choice", value).split(" (")[0] if isinstance(value, str) else str(value)
        words.append(f"{p_('option name', name)}:{shown}")
    return " ".join(words)


def options(**options: object) -> str:
    """Options alone, as typed (``full=True`` → `` `complet:True` ``), for a text that names
    them apart from their command."""
    return f"`{_options(options)}`"


def typed(path: str, /, **options: object) -> str:
    """``path`` (``"daily"``, ``"lamorte new"``, English names) as the reader types it:
    ``/donne-du-jour`` in French, with ``options`` after it, as inline code."""
    names = " ".join(p_("command name", word) for word in path.split())
    more = _options(options)
    return f"`/{names}{' ' + more if more else ''}`"


def command(path: str, /, **options: object) -> str:
    """``path`` (English names: ``"leaderboard"``, ``"privacy forget-me"``) as a mention when
    its id is known, else as :func:`typed`; ``options`` follow as typed text."""
    command_id = _IDS.get(path.split()[0])
    if command_id is None:
        return typed(path, **options)
    more = _options(options)
    return f"</{path}:{command_id}>" + (f" `{more}`" if more else "")


def pattern(sub: str, /, **options: object) -> str:
    """Any game's ``sub`` command as a pattern (``/<jeu> nouvelle``) for texts that speak of
    every game at once; a pattern names no command, so it is never a mention."""
    more = _options(options)
    game = p_("command pattern", "game")  # the placeholder of /<game> new
    words = f"/<{game}> {p_('command name', sub)}"
    return f"`{words}{' ' + more if more else ''}`"
