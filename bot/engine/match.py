"""A match: a sequence of deals with dealer rotation, running totals and an end condition.

Pure, like the deal rules beneath it. The owner (scenario runner or service) supplies each
deal's shuffled deck; everything else follows from the actions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.engine import codec
from bot.engine.actions import Action
from bot.engine.deck import is_exact_pack
from bot.engine.errors import EngineError, IllegalAction
from bot.engine.events import Event
from bot.engine.registry import get_rules
from bot.engine.rules import Rules
from bot.engine.views import DealResult


class BadDeck(EngineError):
    """A deck is not exactly the game's pack for the player count."""


class MatchOver(EngineError):
    """A deal was started after the match ended."""


class DealUnfinished(EngineError):
    """A deal was started while the previous one is still being played."""


@dataclass(frozen=True, slots=True)
class MatchState:
    """Where a match stands. ``deal`` is the current deal, or the last one once finished."""

    game_id: str
    players: int
    options: dict[str, Any]
    dealer: int
    deals_played: int = 0
    totals: tuple[int, ...] = ()
    results: tuple[DealResult, ...] = ()
    deal: Any = None
    finished: bool = False
    winners: tuple[int, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict[str, Any])

    @property
    def rules(self) -> Rules:
        return get_rules(self.game_id)

    @property
    def deal_over(self) -> bool:
        """True when no deal is in progress (none started yet, or the last one finished)."""
        return self.deal is None or self.rules.result(self.deal) is not None

    @property
    def needs_deal(self) -> bool:
        """True when the owner should start the next deal with a fresh deck."""
        return not self.finished and self.deal_over


def new_match(
    game_id: str, players: int, options: Mapping[str, Any] | None, first_dealer: int
) -> MatchState:
    """A match with no deal yet. Raises ``ValueError``/``BadOption`` on a bad configuration."""
    rules = get_rules(game_id)
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(f"{rules.title} is for {rules.min_players} to {rules.max_players} players")
    if not 0 <= first_dealer < players:
        raise ValueError("the first dealer must be one of the seats")
    opts = rules.normalize_options(options)
    return MatchState(game_id, players, opts, first_dealer, totals=(0,) * players)


def start_deal(m: MatchState, deck: Sequence[str]) -> MatchState:
    """Deal ``deck`` for the match's current dealer."""
    if m.finished:
        raise MatchOver("the match is over")
    if not m.deal_over:
        raise DealUnfinished("the current deal is not finished")
    rules = m.rules
    if not is_exact_pack(deck, rules.pack(m.players)):
        raise BadDeck(f"the deck must be exactly the {len(rules.pack(m.players))}-card pack")
    options = rules.deal_options(m.options, m.totals)
    m = replace(m, deal=rules.new_deal(m.players, options, deck, m.dealer))
    res = rules.result(m.deal)
    if res is not None:  # cancelled before any action (French Tarot's petit sec)
        m, _ = _record(m, res, ())
    return m


def to_act(m: MatchState) -> int | None:
    """Seat whose decision it is, or ``None`` between deals / after the match."""
    if m.deal is None or m.finished:
        return None
    return m.rules.to_act(m.deal)


def legal_actions(m: MatchState) -> tuple[Action, ...]:
    if m.deal is None or m.finished:
        return ()
    return m.rules.legal_actions(m.deal)


def apply(m: MatchState, action: Action) -> tuple[MatchState, tuple[Event, ...]]:
    """Apply one action to the current deal; score the deal and check the end if it ends."""
    if m.deal is None or m.deal_over:
        raise IllegalAction("deal_over", "this deal is already over")
    rules = m.rules
    deal, events = rules.apply(m.deal, action)
    m = replace(m, deal=deal)
    res = rules.result(deal)
    if res is None:
        return m, events
    return _record(m, res, events)


def _record(
    m: MatchState, res: DealResult, events: tuple[Event, ...]
) -> tuple[MatchState, tuple[Event, ...]]:
    """Add a finished deal's result to the totals and check the end of the match."""
    rules = m.rules
    totals = tuple(t + d for t, d in zip(m.totals, res.deltas, strict=True))
    deals_played = m.deals_played + 1
    results = (*m.results, res)
    counted = sum(1 for r in results if rules.counts_toward_end(r))
    winners = rules.match_end(totals, counted, m.options, res)
    m = replace(
        m,
        totals=totals,
        deals_played=deals_played,
        results=results,
        dealer=rules.next_dealer(m.dealer, m.players),
        finished=winners is not None,
        winners=winners or (),
    )
    extra: list[Event] = [
        Event("deal_scored", data={"outcome": res.outcome, "deltas": list(res.deltas)})
    ]
    if winners is not None:
        extra.append(Event("match_over", data={"winners": list(winners), "totals": list(totals)}))
    return m, events + tuple(extra)


# ---- JSON ------------------------------------------------------------------------------


def to_json(m: MatchState) -> dict[str, Any]:
    """Snapshot of a match as a JSON object (``from_json`` restores it exactly)."""
    return {
        "game_id": m.game_id,
        "players": m.players,
        "options": m.options,
        "dealer": m.dealer,
        "deals_played": m.deals_played,
        "totals": list(m.totals),
        "results": [r.to_json() for r in m.results],
        "deal": None if m.deal is None else codec.encode_state(m.deal),
        "finished": m.finished,
        "winners": list(m.winners),
        "extra": m.extra,
    }


def from_json(data: Mapping[str, Any]) -> MatchState:
    rules = get_rules(data["game_id"])
    return MatchState(
        game_id=data["game_id"],
        players=data["players"],
        options=dict(data["options"]),
        dealer=data["dealer"],
        deals_played=data["deals_played"],
        totals=tuple(data["totals"]),
        results=tuple(
            DealResult(r["outcome"], tuple(r["deltas"]), r["detail"]) for r in data["results"]
        ),
        deal=None if data["deal"] is None else codec.decode_state(rules, data["deal"]),
        finished=data["finished"],
        winners=tuple(data["winners"]),
        extra=dict(data.get("extra", {})),
    )
