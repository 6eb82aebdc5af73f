"""The expert's judgement of human decisions: hints and deal reviews (pure CPU work).

Everything here runs in the worker processes (``bot.services.compute``), never on the event
loop: one call evaluates one decision with ``bot.ai.expert.evaluate``, so a review of a whole
deal is many short jobs that the computer players' moves of other tables slip between.

The expert only ever sees what the deciding seat saw (its ``SeatView`` at that moment): a hint
or a review never tells a player anything about the hidden cards of that deal that they did
not know when they decided.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.db.tables import LogEntry, TableRecord
from bot.engine.actions import Action
from bot.engine.codec import parse_action
from bot.engine.deck import deal_seed
from bot.engine.registry import get_rules
from bot.engine.rules import Rules
from bot.engine.views import SeatView
from bot.services.step import deal_number, first_match, replay_entry

if TYPE_CHECKING:
    from bot.ai.expert import Evaluation

_HINT_SALT = 0x41_4E_54  # the rng of a hint (apart from the computers' and the deck's)
_REVIEW_SALT = 0x52_45_56


def expert_ready(game_id: str) -> bool:
    """Whether the expert can think about ``game_id``: it searches worlds drawn by the game's
    ``Rules.sample_world``, so a game without one has no expert level, hints nor reviews."""
    try:
        from bot.ai.expert import LEVELS

        rules = get_rules(game_id)
    except (ImportError, KeyError):
        return False
    return "expert" in LEVELS and type(rules).sample_world is not Rules.sample_world


def hint_rng(seed: int, seq: int) -> random.Random:
    """The rng of the hint at the table state ``seq``: asking twice gives the same answer."""
    return random.Random(deal_seed(seed ^ _HINT_SALT, seq))


def review_rng(seed: int, seq: int) -> random.Random:
    """The rng of the review of the decision logged at ``seq``."""
    return random.Random(deal_seed(seed ^ _REVIEW_SALT, seq))


def advise(game_id: str, view: SeatView, seed: int, seq: int, effort: float) -> Evaluation:
    """The expert's evaluation of ``view``'s decision (a hint; in a worker)."""
    from bot.ai.expert import evaluate

    return evaluate(get_rules(game_id), view, hint_rng(seed, seq), effort=effort)


# ---- reviews ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision a human made in a deal: what they saw, and what they chose."""

    seq: int  # the log entry that recorded it
    view: SeatView  # the seat's view just before it
    played: Action


@dataclass(frozen=True, slots=True)
class Judged:
    """The expert's verdict on one decision.

    ``best_value``/``played_value`` are expected score changes of the seat for the deal (game
    points), over the same sampled deals. ``played_value`` is None when the player's choice
    could not be valued (a multi-card choice the expert did not consider).
    """

    decision: Decision
    best: Action
    best_value: float
    played_value: float | None
    samples: int

    @property
    def agrees(self) -> bool:
        return _same(self.best, self.decision.played)

    @property
    def loss(self) -> float:
        """Expected points the decision gave away against the expert's choice (≥ 0)."""
        if self.agrees or self.played_value is None:
            return 0.0
        return max(0.0, self.best_value - self.played_value)


def decisions(
    rec: TableRecord, entries: list[LogEntry], deal_no: int, seat: int
) -> tuple[list[Decision], int]:
    """The seat's own decisions in deal ``deal_no`` (those with a choice: a single legal
    action is no decision; the computer's moves for an away seat are not the player's), and
    how many decisions the seat faced in all. Replays the log from the start."""
    m = first_match(rec, entries)
    rules = m.rules
    found: list[Decision] = []
    faced = 0
    for e in entries:
        if e.kind == "deal" and int(e.payload["deal_no"]) > deal_no:
            break
        current = (
            e.kind == "act" and deal_number(m) == deal_no and e.seat == seat and m.deal is not None
        )
        if current and "by" not in e.payload:
            assert m.deal is not None
            view = rules.observe(m.deal, seat)
            faced += 1
            if _has_choice(rules, view):
                found.append(Decision(e.seq, view, parse_action(rules, e.payload, m.players)))
        m, _ = replay_entry(m, e)
    return found, faced


def _has_choice(rules: Rules, view: SeatView) -> bool:
    legal = view.legal
    return len(legal) > 1 or any(a.type in rules.multi_card_types for a in legal)


def priority(d: Decision) -> tuple[int, int, int]:
    """Review order within a time budget: contracts and other decisions before card play
    (they swing a deal most), then the decisions with the most choices, then in order."""
    plays = d.played.type == "play"
    return (int(plays), -len(d.view.legal), d.seq)


def judge(game_id: str, d: Decision, seed: int, effort: float) -> Judged:
    """Evaluate one decision (in a worker): the expert's choice, its value and the value of
    what the player did, compared over the same sampled deals."""
    from bot.ai.expert import evaluate

    rules = get_rules(game_id)
    ev = evaluate(rules, d.view, review_rng(seed, d.seq), effort=effort)
    best = ev.options[0]
    if _same(best.action, d.played):
        return Judged(d, best.action, best.expected, best.expected, best.samples)
    mine = next((o for o in ev.options if _same(o.action, d.played)), None)
    if mine is not None and mine.samples >= best.samples:
        return Judged(d, best.action, best.expected, mine.expected, best.samples)
    if d.played.type in rules.multi_card_types or best.action.type in rules.multi_card_types:
        # The expert compares concrete multi-card choices it builds itself: the player's own
        # is valued only if it was among them.
        value = None if mine is None else mine.expected
        return Judged(d, best.action, best.expected, value, best.samples)
    # The player's choice was set aside early (valued on fewer deals than the expert's), or
    # never considered (cards the expert judged alike, a long list it pruned): the two
    # choices head to head, over the same sampled deals.
    # Only the candidates narrow: the worlds are still drawn from what the seat saw (a world
    # must reproduce the seat's own view, legal actions included).
    pair = replace(d.view, legal=(best.action, d.played))

    def worlds(_: SeatView, rng: random.Random) -> object:
        return rules.sample_world(d.view, rng)

    duel = evaluate(rules, pair, review_rng(seed, d.seq), effort=effort, sampler=worlds)
    values = {_key(o.action): o for o in duel.options}
    b, p = values.get(_key(best.action)), values.get(_key(d.played))
    if b is None or p is None:
        value = None if mine is None else mine.expected
        return Judged(d, best.action, best.expected, value, best.samples)
    return Judged(d, best.action, b.expected, p.expected, min(b.samples, p.samples))


def _key(a: Action) -> str:
    return json.dumps(a.to_json(), sort_keys=True)


def _same(a: Action, b: Action) -> bool:
    return a.to_json() == b.to_json()
