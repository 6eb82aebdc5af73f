"""What delivery asks of the rooms above it, as Protocols: it never imports the bot or the
handlers, they are handed to the ``Publisher``.

- ``Messenger``: the bot's channels (``bot.client.TrionfiBot``, a ``discord.Client``).
- ``Screens``: what each message of a table shows now (``bot.ui.handlers.screens``).
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.services.models import Outcome, SeatInfo, TableInfo


class Messenger(Protocol):
    """The channels delivery posts in: a table's channel (and what the bot may do there, from
    the gateway's cache), a player's DMs."""

    def get_channel(
        self, id: int, /
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...


class Screens(Protocol):
    """A table's messages as they should look now, each as message fields (``view``: a
    ``bot.ui.components.layout.Layout``; maybe a picture: see ``bot.ui.delivery.pictures``;
    a plain post may still be ``content`` alone)."""

    def lobby_message(self, table: TableInfo) -> dict[str, Any]:
        """The lobby (or a closed table's last word) in the table's message."""
        ...

    def table_message(self, outcome: Outcome) -> dict[str, Any]:
        """The running table's public message."""
        ...

    def finished_table(self, outcome: Outcome) -> dict[str, Any]:
        """The table's message once its game is over."""
        ...

    def rematch_view(self, table: TableInfo) -> discord.ui.View | None:
        """The controls under a game's result."""
        ...

    async def daily_result(self, table: TableInfo) -> dict[str, Any]:
        """The final post of a finished daily attempt, in its player's DMs."""
        ...

    async def hand_with_picture(
        self, outcome: Outcome, seat: int, user_id: int | None
    ) -> dict[str, Any]:
        """A seat's hand with its controls (and its picture, if its player wants pictures)."""
        ...

    def closed_hand(self, table: TableInfo, seat: SeatInfo | None = None) -> dict[str, Any]:
        """A hand once its table was closed."""
        ...

    def handed_over(self, table: TableInfo, seat: SeatInfo) -> dict[str, Any]:
        """The hand of a seat a computer now plays."""
        ...

    def out_of_date_hand(self, table: TableInfo | None, seat: SeatInfo | None) -> dict[str, Any]:
        """A **Show my hand** answer's last look, once it is no longer redrawn."""
        ...
