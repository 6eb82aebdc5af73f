"""One service call's work on a match, and the mapping of DB records to service models.

``PlayStep`` applies a human action, starts new deals from the table seed and lets computer
seats act until a human must decide, collecting the log entries and events to persist. One
job of computer moves is bounded (``COMPUTER_RUN_MOVES``, ``COMPUTER_RUN_SECONDS``): a longer
run is committed as it stands and goes on in a later job (``PlayStep.cut_short``), so no table
holds its lock, nor a worker process, for long.
"""

from __future__ import annotations

import logging
import random
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, cast

from bot.ai import choose_action
from bot.db.outbox import HandView
from bot.db.tables import DealResultRecord, LogEntry, NewEntry, SeatRecord, TableRecord
from bot.engine import match
from bot.engine.actions import Action
from bot.engine.codec import parse_action
from bot.engine.deck import deal_seed, shuffle
from bot.engine.errors import IllegalAction
from bot.engine.events import Event
from bot.engine.match import MatchState
from bot.engine.registry import get_rules
from bot.engine.rules import Rules
from bot.engine.views import SeatView
from bot.services import explain
from bot.services.errors import IllegalMove
from bot.services.models import EndedDeal, SeatInfo, TableInfo

log = logging.getLogger(__name__)

SEED_BITS = 63  # seeds fit SQLite's signed 64-bit INTEGER
#: The computer players' levels a table may be opened with (``bot.ai.expert.LEVELS``).
LEVELS = ("casual", "expert")
#: Scales the expert's work everywhere (its in-game decisions, hints, reviews): 1.0 is the
#: budget ``bot.ai.expert`` sizes for ≤ 250 ms a decision. Read when a ``PlayStep`` is made
#: (so it travels to the worker processes with it); tests lower it to keep games quick.
EXPERT_EFFORT = 1.0
AWAY_TAKEOVER = 2  # consecutive timeouts after which a computer plays the seat
#: The most computer decisions one job makes (issue 28, defect 3): more than any one deal of
#: any game has (a daily deal played out for its player in one job), far fewer than a match
#: the computers would play alone. A longer run goes on in a later job.
COMPUTER_RUN_MOVES = 120
#: The most seconds one job spends on computer decisions, by the monotonic clock of the
#: process it runs in (a worker's): it stops after the decision that crosses it, and makes at
#: least one decision, so a table always moves on. This is what bounds how long a table's lock
#: and a worker process are held (the expert takes about 250 ms a decision).
COMPUTER_RUN_SECONDS = 8.0
_AI_SALT = 0x5EED_A1_5EED  # keeps computer-player rng streams apart from deck shuffles


def random_seed() -> int:
    return secrets.randbits(SEED_BITS)


def first_dealer(seed: int, players: int) -> int:
    """The seeded "lottery" for the first dealer (la_morte §2: uniformly random)."""
    return int(random.Random(seed).random() * players)


def computer_rng(seed: int, seq: int) -> random.Random:
    """Rng of the computer move logged at ``seq``: a replay of the log reproduces it."""
    return random.Random(deal_seed(seed ^ _AI_SALT, seq))


def strict_expert_action(
    rules: Rules, view: SeatView, rng: random.Random, effort: float = 1.0
) -> Action:
    """The expert's decision, reproducible anywhere (a daily deal's computers, issue 20):
    the same ``view`` and ``rng`` state give the same action on every machine and load."""
    from bot.ai.expert import evaluate

    legal = view.legal
    if len(legal) == 1 and legal[0].type not in rules.multi_card_types:
        return legal[0]  # nothing to think about (``choose_expert``'s shortcut)
    return evaluate(rules, view, rng, effort=effort, strict=True).best


def computer_action(
    rules: Rules,
    view: SeatView,
    rng: random.Random,
    level: str = "casual",
    effort: float = 1.0,
    *,
    strict: bool = False,
) -> Action:
    """The computer's action at ``level`` (every seat the computer plays at a table, its own
    and those it plays for away, resigned or timed-out humans, plays at the table's level).
    ``strict``: the expert decides from its work budget alone (``strict_expert_action``).

    CPU-heavy at the expert level: call it in a worker process (``bot.services.compute``),
    never on the event loop.
    """
    if level == "casual":
        return choose_action(rules, view, rng)
    try:
        if strict:
            return strict_expert_action(rules, view, rng, effort)
        if effort == 1.0:
            return choose_action(rules, view, rng, level=level)
        from bot.ai.expert import evaluate

        legal = view.legal
        if len(legal) == 1 and legal[0].type not in rules.multi_card_types:
            return legal[0]  # nothing to think about (``choose_expert``'s shortcut)
        return evaluate(rules, view, rng, effort=effort).best
    except Exception:
        # A table must never stall on a computer that cannot decide: the casual policy takes
        # that one decision (deterministically, so a restart finds the same one).
        log.exception("the %s computer failed in %s; the casual one decides", level, rules.game_id)
        return choose_action(rules, view, rng)


def seat_info(s: SeatRecord) -> SeatInfo:
    return SeatInfo(
        seat=s.seat,
        user_id=s.user_id,
        name=s.name,
        is_bot=s.is_bot,
        dm_channel_id=s.dm_channel_id,
        dm_message_id=s.dm_message_id,
        dm_failed=s.dm_failed,
        resigned=s.resigned,
        expiries=s.expiries,
        language=s.language,
        view=(
            None
            if s.view_token is None or s.view_app_id is None or s.view_message_id is None
            else HandView(s.view_app_id, s.view_token, s.view_message_id, s.view_at or 0.0)
        ),
        click=(
            None
            if s.click_token is None or s.click_app_id is None or s.click_message_id is None
            else HandView(s.click_app_id, s.click_token, s.click_message_id, s.click_at or 0.0)
        ),
    )


def table_info(rec: TableRecord) -> TableInfo:
    return TableInfo(
        id=rec.id,
        guild_id=rec.guild_id,
        channel_id=rec.channel_id,
        game_id=rec.game_id,
        status=rec.status,
        owner_id=rec.owner_id,
        players=rec.players,
        options=dict(rec.options),
        seats=tuple(seat_info(s) for s in rec.seats),
        message_id=rec.message_id,
        seq=rec.seq,
        turn_clock=rec.turn_clock,
        turn_deadline=rec.turn_deadline,
        shown_seq=rec.shown_seq,
        notify_at=rec.notify_at,
        notify_seat=rec.notify_seat,
        level=rec.level,
        hints=rec.hints,
        language=rec.language,
        daily=rec.daily_date,
        league=rec.league_session,
        deals=rec.league_deals,
        replay=(
            None
            if rec.replay_of is None or rec.replay_deal is None
            else (rec.replay_of, rec.replay_deal)
        ),
        end_reason=rec.end_reason,
    )


def human_seat(rec: TableRecord, user_id: int) -> int | None:
    for s in rec.seats:
        if s.user_id == user_id and not s.resigned:
            return s.seat
    return None


def name_of(rec: TableRecord, seat: int | None) -> str | None:
    """The display name at ``seat`` (None: no seat, or an empty one; the UI words it)."""
    for s in rec.seats:
        if s.seat == seat:
            return s.name
    return None


def game_title(game_id: str) -> str:
    """The engine's title of a game, for stored data (a record's description); the Discord
    layer names games in the reader's language (``bot.ui.games.game_title``)."""
    try:
        return get_rules(game_id).title
    except KeyError:
        return game_id


def deal_number(m: MatchState) -> int:
    """1-based number of the current deal (the last one once the match is over)."""
    in_progress = m.deal is not None and not m.deal_over
    return m.deals_played + (1 if in_progress else 0)


def illegal_move(
    e: IllegalAction, m: MatchState | None = None, action: Action | None = None
) -> IllegalMove:
    """The engine's refusal as a code with its data (``bot.ui.text.refusals`` words it).

    The code stays the engine's; ``reason`` says why, read from the structure of the match
    and of the refused ``action`` (its type among the legal ones, the card against the hand,
    the amount against the legal range…). The engine's English ``detail`` is only looked at
    here, to tell apart the few refusals the structure cannot (a malformed field, the trumps
    of a discard), and is never passed on.
    """
    game = {} if m is None else {"game": m.rules.game_id}
    if e.code in ("not_your_turn", "deal_over"):
        return IllegalMove(e.code, **game)
    if e.code == "bad_action":
        return IllegalMove(e.code, **game, **_malformed(e.detail))
    if e.code == "illegal_action" and m is not None and action is not None and m.deal is not None:
        return IllegalMove(e.code, **game, **_refused(m, action, e.detail))
    return IllegalMove(e.code, **game, reason="other")


def _malformed(detail: str) -> dict[str, Any]:
    """Why the engine could not read an action (``codec.parse_action``, ``check_shape``)."""
    # Patterns of the engine's details (``bot.engine.codec``), matched, never shown.
    found = re.search(r"unknown card code (['\"])(.*)\1", detail)  # i18n: code
    if found:
        return {"reason": "unknown_card", "card": found.group(2)}
    found = re.search(r"unknown bonus (['\"])(.*?)\1", detail)  # i18n: code
    if found:
        return {"reason": "unknown_bonus", "bonus": found.group(2)}
    if "only once" in detail:
        return {"reason": "bonus_twice"}
    return {"reason": "other"}


def _refused(m: MatchState, a: Action, detail: str) -> dict[str, Any]:
    """Why a well-formed action is not legal now, from the legal actions and the hand."""
    assert m.deal is not None
    legal = match.legal_actions(m)
    kinds = list(dict.fromkeys(x.type for x in legal))
    if a.type not in kinds:
        return {"reason": "kind_not_now", "kind": a.type, "allowed": kinds}
    same = [x for x in legal if x.type == a.type]
    hand = m.rules.observe(m.deal, a.seat).hand
    if a.type in m.rules.multi_card_types:
        return _refused_cards(a, same, hand, detail)
    if a.card is not None:
        if a.type == "call":  # a King called is usually one you don't hold
            return {"reason": "cannot_call", "card": a.card}
        if a.card not in hand:
            return {"reason": "not_held", "card": a.card}
        return {"reason": "cannot_play" if a.type == "play" else "other", "card": a.card}
    if a.contract is not None:
        return {"reason": "bid_too_low", "contract": a.contract}
    amounts = sorted(x.amount for x in same if x.amount is not None)
    if a.amount is not None and amounts and a.amount not in amounts:
        return {
            "reason": "bad_amount",
            "kind": a.type,
            "amount": a.amount,
            "least": amounts[0],
            "most": amounts[-1],
        }
    if a.type == "trump":
        return {"reason": "bad_suit", "suit": a.suit}
    if a.type == "declare":
        return {"reason": "cannot_declare"}
    return {"reason": "other"}


def _refused_cards(
    a: Action, same: list[Action], hand: tuple[str, ...], detail: str
) -> dict[str, Any]:
    """Why a multi-card choice (a discard, a poignée) is not legal: the legal templates hold
    every card that may be part of a choice and how many to choose."""
    chosen = list(a.cards or ())
    sizes = sorted({x.amount for x in same if x.amount is not None})
    if sizes and len(chosen) not in sizes:
        return {"reason": "wrong_count", "kind": a.type, "sizes": sizes}
    if len(set(chosen)) != len(chosen):
        return {"reason": "twice", "kind": a.type}
    missing = [c for c in chosen if c not in hand]
    if missing:
        return {"reason": "not_held", "card": missing[0]}
    allowed = {c for x in same for c in x.cards or ()}
    bad = [c for c in chosen if c not in allowed]
    if bad:
        reason = {"discard": "cannot_discard", "poignee": "cannot_show"}.get(a.type, "other")
        return {"reason": reason, "kind": a.type, "card": bad[0]}
    if a.type == "poignee" and "EX" in chosen:
        return {"reason": "poignee_excuse"}
    if a.type == "discard":  # French Tarot C-11: exactly the trumps the hand forces
        need = re.search(r"include (\d+) trump", detail)
        if need:
            return {"reason": "too_few_trumps", "n": int(need.group(1))}
        if "trump" in detail:
            return {"reason": "too_many_trumps"}
    return {"reason": "other", "kind": a.type}


def replay_entry(m: MatchState, entry: LogEntry) -> tuple[MatchState, tuple[Event, ...]]:
    """The match after one logged entry, with the engine events it produced."""
    if entry.kind == "deal":
        if entry.payload["dealer"] != m.dealer:
            # A corrupt log, for developers and the replay check: never shown to a player.
            raise AssertionError(f"log seq {entry.seq}: dealer mismatch")  # i18n: code
        return match.start_deal(m, entry.payload["deck"]), ()
    if entry.kind == "act":
        return match.apply(m, parse_action(m.rules, entry.payload, m.players))
    return m, ()  # "resign": no change to the cards


def first_match(rec: TableRecord, entries: list[LogEntry]) -> MatchState:
    """The match before the first logged deal."""
    deals = [e for e in entries if e.kind == "deal"]
    if not deals:
        raise ValueError("not_started")  # callers refuse with WrongState("not_started")
    return match.new_match(rec.game_id, rec.players, rec.options, deals[0].payload["dealer"])


class PlayStep:
    """The work of one service call on a loaded match: the actions applied, the computer
    moves and new deals that followed, and everything to persist and report."""

    def __init__(self, rec: TableRecord, m: MatchState, seed: int) -> None:
        self.m = m
        self.rules: Rules = m.rules
        self.seed = seed
        self.seq = rec.seq
        self.level = rec.level
        self.effort = EXPERT_EFFORT
        # A daily attempt (issue 20) is one deal, a league entry (issue 34) its set's deals;
        # their computers decide reproducibly, and the player's own seat, once handed to the
        # computer, is played by the casual policy.
        self.daily = rec.daily_date is not None or rec.league_session is not None
        # A replay of one deal ("Try another way", issue 33) is one deal too.
        single = rec.daily_date is not None or rec.replay_of is not None
        self.deal_limit = 1 if single else rec.league_deals
        # So is a tournament player's seat once they leave (issue 34, as the daily's rule).
        stands_in = self.daily or rec.tournament_id is not None
        self.stand_in: set[int] = (
            {s.seat for s in rec.seats if s.user_id is not None} if stands_in else set()
        )
        # Seats the computer plays: computer players, resigned humans, and humans whose turn
        # ran out twice in a row until they press "I'm back" (issue 8).
        self.auto = {
            s.seat
            for s in rec.seats
            if s.user_id is None or s.resigned or s.expiries >= AWAY_TAKEOVER
        }
        self.expiries: dict[int, int] = {}  # seat -> new count of consecutive timeouts
        self.entries: list[NewEntry] = []
        self.events: list[tuple[int, Event]] = []
        self.ended: list[EndedDeal] = []
        self.deal_results: list[DealResultRecord] = []
        self.new_deal = False
        # Read here, like ``effort``, so the limits travel to the worker processes.
        self.run_moves = max(1, COMPUTER_RUN_MOVES)
        self.run_seconds = COMPUTER_RUN_SECONDS
        #: ``advance`` stopped at its limits with computer moves still to make (the commit
        #: makes them due at once: ``TableLife.expire_overdue`` goes on with them).
        self.cut_short = False
        #: Seconds each computer decision of this step took (for ``bot.metrics``, on commit).
        self.thinking: list[float] = []
        #: Every computer seat plays the casual policy (``compute.casually``: the expert's
        #: job could not be done in time).
        self.casual = False

    def log(self, kind: str, seat: int | None, payload: dict[str, Any]) -> None:
        self.seq += 1
        self.entries.append(NewEntry(kind, seat, payload))

    def note(self, event: Event) -> None:
        self.events.append((deal_number(self.m), event))

    def apply(self, action: Action, by: str) -> None:
        """Apply one action (raises ``IllegalAction`` with the match unchanged). A computer
        player's move carries its public reason (``bot.services.explain``)."""
        before = self.m
        deal_no = deal_number(before)
        why = None
        if by == "ai" and before.deal is not None:
            why = explain.reason(self.rules, self.rules.observe(before.deal, action.seat), action)
        m, events = match.apply(before, action)
        self.m = m
        payload = action.to_json()
        if by != "human":
            payload["by"] = by
        if why is not None:
            payload["why"] = why
        self.log("act", action.seat, payload)
        if why is not None:
            self.events.append((deal_no, explain.event(action.seat, why, payload)))
        self.events.extend((deal_no, e) for e in events)
        if m.deals_played > before.deals_played:
            self._ended(deal_no)

    def _ended(self, deal_no: int) -> None:
        res = self.m.results[-1]
        self.ended.append(EndedDeal(deal_no, res, self.rules.observe_public(self.m.deal)))
        self.deal_results.append(
            DealResultRecord(deal_no, res.outcome, res.deltas, dict(res.detail))
        )
        if (
            self.deal_limit is not None
            and self.m.deals_played >= self.deal_limit
            and not self.m.finished
        ):  # the daily deal (a replay), or the league's set, is the match
            best = max(self.m.totals)
            winners = tuple(i for i, t in enumerate(self.m.totals) if t == best)
            self.m = replace(self.m, finished=True, winners=winners)

    def replay(self, entry: LogEntry) -> None:
        """Re-apply a logged entry, collecting its events and ended deals as the call that
        logged it did (to show a state whose publishing was lost)."""
        before = self.m
        deal_no = deal_number(before)
        self.m, events = replay_entry(before, entry)
        self.seq = entry.seq
        if entry.kind == "deal":
            deal_no = int(entry.payload["deal_no"])
            self.events.append((deal_no, Event("deal_started", before.dealer, {"deal": deal_no})))
            self.new_deal = True
            if self.m.deals_played == deal_no:  # cancelled on the spot
                self._ended(deal_no)
            return
        if entry.kind == "resign" and self.deal_limit is not None:
            # A daily or league player who left: the deal in progress is their last
            # (``LeagueTables._finish_entry``).
            self.deal_limit = min(self.deal_limit, self.m.deals_played + 1)
        if entry.payload.get("by") == "timeout":
            self.note(Event("timed_out", entry.seat))
        why = entry.payload.get("why")
        if isinstance(why, dict):
            reason = cast(dict[str, Any], why)
            self.events.append((deal_no, explain.event(entry.seat, reason, entry.payload)))
        self.events.extend((deal_no, e) for e in events)
        if self.m.deals_played > before.deals_played:
            self._ended(deal_no)

    def start_deal(self, deck: Sequence[str] | None = None) -> None:
        """Deal the next deal from the table seed (``deck``: these cards instead, a replay's)."""
        deal_no = self.m.deals_played + 1
        if deck is None:
            deck = shuffle(self.rules.pack(self.m.players), deal_seed(self.seed, deal_no - 1))
        dealer = self.m.dealer
        self.m = match.start_deal(self.m, deck)
        self.log("deal", None, {"deal_no": deal_no, "dealer": dealer, "deck": list(deck)})
        self.events.append((deal_no, Event("deal_started", dealer, {"deal": deal_no})))
        self.new_deal = True
        if self.m.deals_played == deal_no:  # cancelled on the spot (French Tarot petit sec)
            self._ended(deal_no)

    def has_work(self) -> bool:
        """Whether ``advance`` would do anything (a deal to start or a computer to move)."""
        if self.m.finished:
            return False
        return self.m.needs_deal or match.to_act(self.m) in self.auto

    def advance(self) -> None:
        """Start deals and play computer (and resigned) seats until a human must decide, or
        until this job's limits (``run_moves`` decisions, ``run_seconds``): then
        ``cut_short`` is set and the rest is left to a later job."""
        started = time.monotonic()
        moves = 0
        while not self.m.finished:
            if self.m.needs_deal:
                self.start_deal()
                continue
            seat = match.to_act(self.m)
            if seat is None or seat not in self.auto:
                return
            if moves >= self.run_moves or (
                moves and time.monotonic() - started >= self.run_seconds
            ):
                self.cut_short = True
                return
            self.apply(self.computer_action(seat), by="ai")
            moves += 1

    def computer_action(self, seat: int) -> Action:
        """The computer's decision for ``seat`` now, from the rng of the seq it will be
        logged at (so a restart or a replay finds the same one)."""
        view = self.rules.observe(self.m.deal, seat)
        rng = computer_rng(self.seed, self.seq + 1)
        level = "casual" if seat in self.stand_in or self.casual else self.level
        started = time.perf_counter()
        action = computer_action(self.rules, view, rng, level, self.effort, strict=self.daily)
        self.thinking.append(time.perf_counter() - started)
        return action
