"""Where a table may be used from, and how many tables one person may hold (issue 28, defect 2).

A custom_id is text a modified client can put on any message it can see, so a button naming
another server's table reaches the bot from a server that has nothing to do with it. Every
table interaction therefore says where it came from (``Where``: the server, or the DM
channel), and the service refuses a table of another server or conversation (``not_here``)
before it tells or changes anything about it:

- ``"table"`` interactions (the lobby's buttons, start, rematch, a host's or admin's controls)
  are used where the table is: its server, or, for a table played in DMs (the daily deal), that
  very DM channel; a league table of a server (issue 34), from its very channel (its lobby's
  league channel, then its private thread).
- ``"seat"`` interactions (a player's own decisions, hand, I'm back, hint, resigning) may also
  come from a DM, where the hand of a server's table lives; the service then still checks that
  the user holds a seat. A table played in DMs is used only from its DM channel.

The caps bound what one account (or a script driving it) can hold across the whole bot: lobbies
it hosts and seats it holds at open tables (a lobby or a game in play). Daily deals are not
counted: each is played alone, once a day, and has its own rules (``bot.services.daily``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.db.tables import TableRecord
from bot.services.errors import Forbidden, WrongState

#: Lobbies one user may host at a time, across every server.
MAX_HOSTED_LOBBIES = 3
#: Seats one user may hold at open tables (lobbies and games in play), across every server.
MAX_OPEN_SEATS = 8

Use = Literal["table", "seat"]


@dataclass(frozen=True, slots=True)
class Where:
    """Where an interaction came from: a server's channel, or a DM channel (``guild_id``
    None). Passed by the Discord layer to every table use case; ``None`` in its place means
    a trusted caller of the bot itself (the sweeper, upkeep, tests of the rules)."""

    guild_id: int | None
    channel_id: int | None


def require_here(rec: TableRecord, where: Where | None, use: Use = "table") -> None:
    """Refuse (``Forbidden("not_here")``) a table that is not used from where it lives.

    Raised before any other check, so a refusal says nothing about the other table (its
    state, seats, server or channel)."""
    if where is None:
        return
    if rec.guild_id and rec.league_session is not None:
        # A league table (issue 34): its lobby is used in the league channel, its game in its
        # private thread, whose members are its players; from nowhere else of its server.
        if where.guild_id == rec.guild_id and where.channel_id == rec.channel_id:
            return
        if use == "seat" and where.guild_id is None:
            return  # the player's hand, in their DMs (the seat is checked by the caller)
        raise Forbidden("not_here")
    if rec.guild_id:  # a server's table
        if where.guild_id == rec.guild_id:
            return
        if use == "seat" and where.guild_id is None:
            return  # the player's hand, in their DMs (the seat is checked by the caller)
    elif where.guild_id is None and where.channel_id == rec.channel_id:
        return  # a table played in DMs, used from that DM channel
    raise Forbidden("not_here")


def require_room(open_tables: list[TableRecord], user_id: int, *, hosting: bool) -> None:
    """Refuse a new seat (and, ``hosting``, a new lobby to host) beyond the caps.

    ``open_tables``: the user's lobbies and games in play (``TableStore.open_for_user``)."""
    # Daily deals, solo league entries and replays are played alone in DMs, under their own
    # rules (a league table of a server counts like any table).
    counted = [
        t
        for t in open_tables
        if t.daily_date is None and (t.league_session is None or t.guild_id) and t.replay_of is None
    ]
    if hosting:
        hosted = sum(1 for t in counted if t.status == "lobby" and t.owner_id == user_id)
        if hosted >= MAX_HOSTED_LOBBIES:
            raise WrongState("too_many_lobbies", most=MAX_HOSTED_LOBBIES)
    if len(counted) >= MAX_OPEN_SEATS:
        raise WrongState("too_many_seats", most=MAX_OPEN_SEATS)
