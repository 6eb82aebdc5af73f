"""Multi-card choices made one card at a time (issue 31): a seat's picks in progress, toggled
card by card and filled by the expert's suggestion, kept in the database until the decision.

A discard drawn as one toggle button per card needs somewhere to keep the cards picked so far
between clicks. It is the seat's row (``bot.db.picks``), not the message and not memory: the
picks survive a restart, any process of a cluster answers the next click, and only the seat's
own hand ever shows them. Picks are tied to the deal and the kind of choice they were made
for; nothing is applied until the player confirms, and the engine then judges the choice like
any other action. Every toggle is checked here against the seat's current legal choice, so a
crafted or out-of-date click changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.db import picks as stored
from bot.db.picks import Picks
from bot.engine import match
from bot.engine.actions import Action
from bot.engine.views import SeatView
from bot.services.bounds import Where, require_here
from bot.services.errors import Conflict, IllegalMove
from bot.services.models import Outcome
from bot.services.replays import TableReplays
from bot.services.step import deal_number, human_seat, name_of, table_info


@dataclass(frozen=True, slots=True)
class Choice:
    """A seat's multi-card decision: its kind, the cards it may take (in the engine's order)
    and how many it takes (one of ``sizes``)."""

    kind: str
    candidates: tuple[str, ...]
    sizes: tuple[int, ...]


def choice_of(legal: Sequence[Action]) -> Choice | None:
    """The multi-card decision among ``legal`` when it is the seat's only kind of decision (a
    discard; not a poignée offered beside the card play), else None."""
    kinds = {a.type for a in legal}
    if len(kinds) != 1 or not legal or not legal[0].cards:
        return None
    candidates: list[str] = []
    for a in legal:
        candidates.extend(c for c in a.cards or () if c not in candidates)
    sizes = tuple(sorted({a.amount or 0 for a in legal}))
    return Choice(legal[0].type, tuple(candidates), sizes)


@dataclass(frozen=True, slots=True)
class Picked:
    """A seat's view after a toggle or a suggestion, and its picks in the choice's order."""

    outcome: Outcome
    seat: int
    cards: tuple[str, ...]


class TablePicks(TableReplays):
    """Toggle a card of the seat's multi-card choice, fill it with the expert's choice, read
    the picks back for a redraw."""

    async def picks_for(
        self, table_id: int, seat: int, deal: int, view: SeatView
    ) -> tuple[str, ...]:
        """The seat's picks for its current multi-card decision (``view``: its view, in deal
        ``deal``); empty when it has none or picked nothing yet."""
        choice = choice_of(view.legal)
        if choice is None:
            return ()
        found = await stored.get(self.db, table_id, seat)
        if found is None or found.deal != deal or found.kind != choice.kind:
            return ()
        return tuple(c for c in choice.candidates if c in found.cards)

    async def toggle_pick(
        self,
        table_id: int,
        user_id: int,
        kind: str,
        card: str,
        deal: int,
        *,
        where: Where | None = None,
    ) -> Picked:
        """Pick ``card`` for the user's ``kind`` choice, or put it back if it was picked.

        ``deal``: the deal the button was drawn for. Refused, changing nothing, when the
        decision is not the user's now (``not_your_turn``, ``earlier_deal``, ``kind_not_now``),
        the card is not one the choice may take, or the choice already has as many as it
        takes (``picked_enough``: put one back first).
        """
        async with self._lock(table_id):
            out, seat, choice, picks = await self._choosing(table_id, user_id, kind, deal, where)
            if card in picks:
                picks = tuple(c for c in picks if c != card)
            elif card not in choice.candidates:
                held = card in out.seat_views[seat].hand
                reason = {"discard": "cannot_discard", "poignee": "cannot_show"}.get(kind, "other")
                raise IllegalMove(
                    "illegal_action",
                    game=out.table.game_id,
                    reason=reason if held else "not_held",
                    kind=kind,
                    card=card,
                )
            elif len(picks) >= max(choice.sizes):
                raise IllegalMove(
                    "illegal_action",
                    game=out.table.game_id,
                    reason="picked_enough",
                    kind=kind,
                    n=len(picks),
                )
            else:
                picks = tuple(c for c in choice.candidates if c in picks or c == card)
            await stored.put(self.db, table_id, seat, user_id, Picks(deal, kind, picks))
        return Picked(out, seat, picks)

    async def suggest_picks(
        self,
        table_id: int,
        user_id: int,
        kind: str,
        deal: int,
        *,
        where: Where | None = None,
        answer_within: float | None = None,
    ) -> Picked:
        """Replace the user's picks with the expert's choice for their ``kind`` decision.

        Where a hint may be asked for (a practice table: ``TableCoach.hint``'s rules, which
        refuse the others), and refused like ``toggle_pick`` when the decision is not theirs.
        """
        hint = await self.hint(table_id, user_id, where=where, answer_within=answer_within)
        best = hint.evaluation.best
        async with self._lock(table_id):
            out, seat, choice, _ = await self._choosing(table_id, user_id, kind, deal, where)
            if best.type != kind or hint.table.seq != out.table.seq:
                raise Conflict("out_of_date")  # the game moved on while the expert thought
            picks = tuple(c for c in choice.candidates if c in (best.cards or ()))
            await stored.put(self.db, table_id, seat, user_id, Picks(deal, kind, picks))
        return Picked(out, seat, picks)

    async def _choosing(
        self, table_id: int, user_id: int, kind: str, deal: int, where: Where | None
    ) -> tuple[Outcome, int, Choice, tuple[str, ...]]:
        """The user's view, seat, current ``kind`` choice and picks so far (in the choice's
        order), or the refusal saying why it is not their ``kind`` decision now."""
        rec = await self._load(table_id)
        require_here(rec, where, "seat")
        self._require_playing(rec)
        seat = self._seated(rec, user_id)
        m = self._match(rec)
        if deal != deal_number(m):
            raise Conflict("earlier_deal", game=rec.game_id)
        turn = match.to_act(m)
        if turn != seat or m.deal is None:
            raise IllegalMove("not_your_turn", game=rec.game_id, waiting=name_of(rec, turn))
        legal = match.legal_actions(m)
        choice = choice_of(legal)
        if choice is None or choice.kind != kind:
            allowed = list(dict.fromkeys(a.type for a in legal))
            raise IllegalMove(
                "illegal_action",
                game=rec.game_id,
                reason="kind_not_now",
                kind=kind,
                allowed=allowed,
            )
        found = await stored.get(self.db, table_id, seat)
        picks: tuple[str, ...] = ()
        if found is not None and found.deal == deal and found.kind == kind:
            picks = tuple(c for c in choice.candidates if c in found.cards)
        out = await self._outcome(table_info(rec), m, None)
        own = human_seat(rec, user_id)
        out = replace(out, seat_views={k: v for k, v in out.seat_views.items() if k == own})
        return out, seat, choice, picks
