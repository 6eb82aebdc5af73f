"""A way in for newcomers (issue 31): a practice table in one click, and which decisions of a
practice table's first deal are a player's first of their kind (the coach lines).

``open_practice`` is the **Practice** button of ``/play`` and ``/help``: the existing lobby use
cases in one sequence — open a lobby with hints on (a practice table, never rated), every other
seat a computer, then start it. Whatever refuses (a table already open in the channel, computer
players turned off by the admins, too many open tables) refuses before anything is created; a
start that fails after the lobby was created closes that lobby again, so nothing is left half
made.

``first_decision`` reads only the player's own ``SeatView`` (their legal actions and the deal's
public history): no hidden information, no database.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.engine.views import SeatView
from bot.services.errors import ServiceError
from bot.services.models import Outcome
from bot.services.tables import TableService

log = logging.getLogger(__name__)

#: Seats of a practice table: each game's usual table (French Tarot's rules call 4 the standard
#: game, and it has no called King to explain; Queen of Tarot is for exactly 3).
PRACTICE_SEATS = {
    "la_morte": 4,
    "early_french_tarot": 4,
    "french_tarot": 4,
    "losers_game": 4,
    "queen_of_tarot": 3,
}

#: A practice game is a short one where the game has a length option (the README's defaults
#: otherwise): one deal each at French Tarot, four deals of La Morte and Loser's Game, one
#: round of dealers at Queen of Tarot (its deals come in multiples of 3, queen_of_tarot D-15).
#: Early French Tarot keeps its target of 50 (about four deals of twelve tricks).
PRACTICE_OPTIONS: dict[str, dict[str, Any]] = {
    "la_morte": {"round_limit": 4},
    "early_french_tarot": {},
    "french_tarot": {"deals": 4},
    "losers_game": {"hand_limit": 4},
    "queen_of_tarot": {"deals": 3},
}

#: The kinds of decision a coach line explains, by the action types that make them; the first
#: kind found among a decision's legal actions names it (so a poignée offered with the first
#: card is the poignée's moment).
KINDS: tuple[tuple[str, frozenset[str]], ...] = (
    ("trump", frozenset({"trump"})),
    ("call", frozenset({"call"})),
    ("discard", frozenset({"discard"})),
    ("chelem", frozenset({"chelem"})),
    ("poignee", frozenset({"poignee"})),
    ("declare", frozenset({"declare"})),
    ("muck", frozenset({"muck"})),
    ("bargain", frozenset({"demand", "offer", "continue"})),
    ("bid", frozenset({"bid", "accept", "drop"})),
    ("play", frozenset({"play"})),
)


def decision_kind(types: set[str] | frozenset[str]) -> str | None:
    """The kind of decision whose legal action types are ``types`` (None: none we coach)."""
    for kind, makers in KINDS:
        if types & makers:
            return kind
    if "pass" in types:  # Queen of Tarot's bargaining pass alone (French Tarot's is a bid)
        return "bargain"
    return None


def first_decision(view: SeatView, deal_number: int) -> str | None:
    """The kind of the seat's current decision if it is the first of that kind the seat meets
    at the table (the table's first deal, nothing of that kind decided yet); None otherwise."""
    if deal_number != 1 or not view.legal:
        return None
    kind = decision_kind({a.type for a in view.legal})
    if kind is None:
        return None
    for done in view.public.history:
        if done.seat == view.seat and decision_kind({done.type}) == kind:
            return None
    return kind


async def open_practice(
    service: TableService,
    guild_id: int,
    channel_id: int,
    user_id: int,
    name: str,
    game_id: str,
    *,
    server_locale: str | None = None,
    owner_locale: str | None = None,
) -> Outcome:
    """Open, fill with computers and start a practice table (hints on, never rated) for
    ``user_id`` in ``channel_id``: the started table's ``Outcome``, to publish.

    Raises the lobby's refusals (``ServiceError``) before anything is created; an unknown game
    is ``open_lobby``'s ``unknown_game``."""
    players = PRACTICE_SEATS.get(game_id, 4)
    table = await service.open_lobby(
        guild_id,
        channel_id,
        user_id,
        name,
        game_id,
        players,
        PRACTICE_OPTIONS.get(game_id, {}),
        players - 1,
        "off",  # practice: take your time
        hints=True,
        server_locale=server_locale,
        owner_locale=owner_locale,
    )
    try:
        return await service.start(table.id, user_id)
    except ServiceError:
        # Nobody else can have joined (every seat was taken at once): close the lobby rather
        # than leave one the player did not ask for.
        log.warning("practice table %s could not start; closing it", table.id)
        await service.end_table(table.id, user_id, admin=True)
        raise
