"""Who reads which language (issue 19).

- The public table, its lobby, deal summaries, results and channel notices: the *table's*
  language (chosen with ``/… new language:``, else the server's default from
  ``/trionfi settings language``, else the server's Discord language, else English).
- A player's DMs and hand: their own — ``/trionfi language`` if they chose one, else the
  Discord language of the client they joined the table from, else the table's.
- Private answers to an interaction (refusals, confirmations, ``/stats``…): the language of
  the client that sent it (``interaction.locale``).

Renderers never decide: they write in ``bot.i18n.current()``; these context managers set it
around each rendering, and with it how the table's game signs and names its suits
(``bot.ui.text.cards.Pack``: Queen of Tarot's Italian suits).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import cache
from typing import Any

import discord
from discord import app_commands

from bot.i18n import LANGUAGE_NAMES, N_, _, language_of, using
from bot.services.models import SeatInfo, TableInfo
from bot.ui.games import renderer
from bot.ui.text.cards import Pack, pack_suits


@cache
def game_pack(game_id: str) -> Pack:
    """How ``game_id``'s cards sign and name their suits: its renderer's ``ITALIAN_SUITS``
    and ``SUIT_WORDS`` (the French-suited pack and the usual names when it has none)."""
    try:
        r = renderer(game_id)
    except KeyError:
        return Pack()
    return Pack(bool(getattr(r, "ITALIAN_SUITS", False)), getattr(r, "SUIT_WORDS", {}))


def for_game(game_id: str) -> AbstractContextManager[None]:
    """Draw cards as ``game_id``'s pack shows them (in whatever language is current)."""
    return pack_suits(game_pack(game_id))


@contextmanager
def _table_words(language: object, game_id: str) -> Iterator[str]:
    with using(language) as code, for_game(game_id):
        yield code


def for_table(table: TableInfo) -> AbstractContextManager[str]:
    """Write what everyone in the table's channel reads."""
    return _table_words(table.language, table.game_id)


def seat_language(table: TableInfo, seat: SeatInfo | int | None) -> str:
    """The language of a seat's private messages (its hand, its DMs)."""
    info = seat if isinstance(seat, SeatInfo) else _seat(table, seat)
    return language_of(info.language) if info is not None and info.language else table.language


def for_seat(table: TableInfo, seat: SeatInfo | int | None) -> AbstractContextManager[str]:
    """Write what one seat reads privately."""
    return _table_words(seat_language(table, seat), table.game_id)


def interaction_language(interaction: discord.Interaction[Any]) -> str:
    """The language of the client an interaction came from."""
    return language_of(getattr(interaction, "locale", None))


def for_interaction(interaction: discord.Interaction[Any]) -> AbstractContextManager[str]:
    """Write a private answer to ``interaction``."""
    return using(interaction_language(interaction))


def _seat(table: TableInfo, seat: int | None) -> SeatInfo | None:
    return next((s for s in table.seats if s.seat == seat), None)


#: ``language`` options of ``/… new`` and ``/trionfi settings``: each language by its own
#: name (the same in every client), and "auto" (the server's Discord language).
LANGUAGE_CHOICES = [
    app_commands.Choice(name=LANGUAGE_NAMES[code], value=code) for code in LANGUAGE_NAMES
]
AUTO = N_("The server's Discord language")


def language_name(code: str | None) -> str:
    """A language's own name ("Français"), or the automatic choice in words."""
    return LANGUAGE_NAMES[code] if code in LANGUAGE_NAMES else _(AUTO)
