"""The computer players' reasons in words: one short line per explained move on the table.

The reasons are decided by ``bot.services.explain`` (whose docstring states what a reason may
say: only what the move and the public table already show) and reach the table as
``explained`` events; here they become "🤖 Arturo: bid Garde — outbids Bea (Prise)" in the
table's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import discord

from bot.engine.actions import Action
from bot.engine.codec import parse_action
from bot.engine.errors import IllegalAction
from bot.engine.registry import get_rules
from bot.i18n import _, n_
from bot.services.explain import EXPLAINED
from bot.services.models import Outcome, TableInfo
from bot.ui.games import renderer
from bot.ui.text.cards import long_name, suit_mark, suit_word
from bot.ui.text.coach import action_words
from bot.ui.text.render import seat_label

#: Reasons a table shows at most (the latest computer moves, one per seat).
SHOWN = 3
SUITS = ("S", "H", "D", "C")


def _parsed(game_id: str, players: int, act: Mapping[str, Any]) -> Action | None:
    try:
        return parse_action(get_rules(game_id), dict(act), players)
    except (IllegalAction, KeyError):
        return None


def _bid_words(game_id: str, a: Action) -> str:
    """A bid as its noun ("Prise", "7")."""
    if a.contract is not None:
        return str(getattr(renderer(game_id), "CONTRACT", {}).get(a.contract, a.contract))
    return str(a.amount)


def _suit(suit: str) -> str:
    return f"{suit_mark(suit)} {suit_word(suit)}"


#: Reasons that are one phrase each (the rules' meaning of the move).
_SIMPLE: dict[str, Callable[[], str]] = {
    "drop": lambda: _("drops out: it will try to take no trick"),
    "estimate": lambda: _("the points it expects to take (a bid not made is lost)"),
    "demand": lambda: _("what it asks to give the hand up"),
    "offer": lambda: _("what it would pay to give the hand up"),
    "wait": lambda: _("lets the others bargain"),
    "play_on": lambda: _("wants the hand played out"),
}


def _reason(table: TableInfo, why: Mapping[str, Any]) -> str | None:
    game = table.game_id
    kind = why.get("k")
    prior = why.get("prior")
    before = _parsed(game, table.players, prior) if isinstance(prior, Mapping) else None
    simple = _SIMPLE.get(str(kind))
    if simple is not None:
        return simple()
    if kind == "accept" and before is not None and before.seat is not None:
        return _(
            "plays against {name}'s contract ({bid})",
            name=seat_label(table, before.seat),
            bid=_bid_words(game, before),
        )
    if kind == "open":
        return _("opens the bidding")
    if kind == "pass":
        return _("not enough to open the bidding")
    if kind in ("over", "pass_after") and before is not None and before.seat is not None:
        facts = {"name": seat_label(table, before.seat), "bid": _bid_words(game, before)}
        if kind == "over":
            return _("outbids {name} ({bid})", **facts)
        return _("not enough to outbid {name} ({bid})", **facts)
    if kind == "call" and isinstance(why.get("card"), str):
        names = getattr(renderer(game), "CARD_NAMES", {})
        return _("whoever holds {card} is its partner", card=long_name(why["card"], names))
    if kind == "trump":
        return _("trumps for this hand, named before the bidding")
    if kind == "discard":
        n = int(why.get("n", 0))
        return n_(
            "{n} card set aside face down, unseen by the others",
            "{n} cards set aside face down, unseen by the others",
            n,
        )
    led = why.get("led")
    if kind in ("ruff", "overruff") and isinstance(led, str) and led in SUITS:
        if kind == "overruff":
            return _("no {suit} left, so it must trump higher", suit=_suit(led))
        return _("no {suit} left, so it must trump", suit=_suit(led))
    return None


def _action(table: TableInfo, act: Mapping[str, Any]) -> str | None:
    if act.get("type") == "discard":
        return _("make the discard")  # its cards stay hidden (``bot.services.explain``)
    a = _parsed(table.game_id, table.players, act)
    return None if a is None else action_words(table.game_id, a)


def reason_line(table: TableInfo, seat: int, data: Mapping[str, Any]) -> str | None:
    """One explained move in words (None if its reason or action cannot be read)."""
    act = data.get("act")
    action = _action(table, act) if isinstance(act, Mapping) else None
    why = _reason(table, data)
    if action is None or why is None:
        return None
    return _("{who}: **{action}** — {why}", who=seat_label(table, seat), action=action, why=why)


def reason_lines(outcome: Outcome) -> list[str]:
    """The reasons for this outcome's computer moves in the current deal: the latest per seat,
    in the order they were made, at most ``SHOWN``."""
    latest: dict[int, Mapping[str, Any]] = {}
    for e in outcome.reasons:  # the whole deal's, from the log: the same for any redraw
        if e.type == EXPLAINED and e.seat is not None:
            latest.pop(e.seat, None)  # re-inserted last: the order of the latest moves
            latest[e.seat] = e.data
    lines = [reason_line(outcome.table, seat, data) for seat, data in latest.items()]
    return [line for line in lines if line][-SHOWN:]


def with_reasons(embed: discord.Embed, outcome: Outcome) -> discord.Embed:
    """A running table's embed with its computer players' latest reasons below the
    description."""
    lines = reason_lines(outcome)
    if lines:
        embed.description = "\n".join([*([embed.description] if embed.description else []), *lines])
    return embed
