"""The expert as a coach: hints at practice tables and reviews of finished deals (issue 18).

- ``hint``: at a table opened with hints on (never rated), the expert's choice at the player's
  current decision, with its expected score against the alternatives it weighed.
- ``review``: after a deal, the player's own decisions of that deal where the expert's
  evaluation differed most (expected points lost, what it would have played), replayed from
  the table's log and judged one decision at a time within ``REVIEW_SECONDS``.

All the thinking happens in the worker processes (``bot.services.compute``), one decision per
job, so computer players of other tables keep moving meanwhile; at most ``COACHING_AT_ONCE``
hints or reviews think at the same time. The expert only sees what the seat saw.

The queue is bounded (issue 29, defect 8): past ``COACHING_QUEUE`` hints and reviews thinking or
waiting, a new one is refused at once (``Busy("expert_busy")``), and one that could not answer
within ``answer_within`` seconds (the caller's interaction token) is dropped while the caller
can still say so (``Busy("expert_late")``), never answered after the token is gone.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from bot.engine import match
from bot.engine.views import SeatView
from bot.lru import LRU
from bot.services import analysis, compute, step
from bot.services.analysis import Judged, expert_ready
from bot.services.bounds import Where, require_here
from bot.services.errors import Busy, Forbidden, NotSeated, WrongState
from bot.services.models import TableInfo
from bot.services.step import deal_number, name_of, table_info
from bot.services.upkeep import TableUpkeep

if TYPE_CHECKING:
    from bot.ai.expert import Evaluation

log = logging.getLogger(__name__)
_T = TypeVar("_T")

#: A hint thinks this many times as long as a computer's in-game decision (a player waits
#: for one answer, and a hint should be at least as good as the computers' play).
HINT_EFFORT = 2.0
#: Each reviewed decision gets the in-game budget; the whole review at most this many
#: seconds (then the answer says how many decisions it covered).
REVIEW_EFFORT = 1.0
REVIEW_SECONDS = 12.0
#: Hints and reviews thinking at once in this process (the rest wait their turn), so that
#: coaching never crowds the computer players' moves out of the worker processes.
COACHING_AT_ONCE = 2
#: Hints and reviews thinking or waiting in this process; one more is refused, politely, at
#: once. A full queue clears in about ``COACHING_QUEUE / COACHING_AT_ONCE`` reviews' time
#: (a minute), far within an interaction token's 15 minutes.
COACHING_QUEUE = 8
#: Decisions a review lists (the costliest first).
REVIEW_SHOWN = 5
_CACHE_SIZE = 128


@dataclass(frozen=True, slots=True)
class Hint:
    """The expert's advice for a player's current decision."""

    table: TableInfo
    seat: int
    deal_number: int
    view: SeatView  # the decision advised on
    evaluation: Evaluation


@dataclass(frozen=True, slots=True)
class Review:
    """The expert's review of one player's decisions in one finished deal."""

    table: TableInfo
    seat: int
    deal_number: int
    judged: tuple[Judged, ...]  # every decision reviewed, the costliest first
    decisions: int  # decisions with a choice the player made in the deal
    complete: bool  # every one of them was reviewed (within the time budget)

    @property
    def mistakes(self) -> tuple[Judged, ...]:
        """The reviewed decisions where the expert would have chosen otherwise and expects
        to score more (at most ``REVIEW_SHOWN``, the costliest first)."""
        return tuple(j for j in self.judged if j.loss > 0)[:REVIEW_SHOWN]

    @property
    def lost(self) -> float:
        """Expected points given away over every reviewed decision."""
        return sum(j.loss for j in self.judged)


class TableCoach(TableUpkeep):
    """Hints and deal reviews on top of the table use cases."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._coaching: asyncio.Semaphore | None = None
        # (table, seq or deal, seat): small caps, as a table's hints and reviews are asked
        # for within minutes (an evicted one is thought about again).
        self._hints: LRU[tuple[int, int, int], Evaluation] = LRU(_CACHE_SIZE)
        self._reviews: LRU[tuple[int, int, int], Review] = LRU(_CACHE_SIZE)
        self._thinking: dict[tuple[str, int, int, int], asyncio.Task[Any]] = {}
        self._waiting: dict[tuple[str, int, int, int], int] = {}  # callers awaiting each

    # ---- hints ---------------------------------------------------------------------------
    async def hint(
        self,
        table_id: int,
        user_id: int,
        *,
        where: Where | None = None,
        answer_within: float | None = None,
    ) -> Hint:
        """The expert's choice at the user's current decision, with the alternatives.

        Only at practice tables (opened with hints on, never rated), and only for the player
        whose decision it is. ``answer_within``: seconds the answer may take (the asker's
        interaction token); past them ``Busy("expert_late")``.
        """
        rec = await self._load(table_id)
        require_here(rec, where, "seat")
        self._require_playing(rec)
        seat = self._seated(rec, user_id)
        if not rec.hints:
            raise Forbidden("hints_practice_only", table=rec.id)
        m = self._match(rec)
        turn = match.to_act(m)
        if turn != seat or m.deal is None:
            raise WrongState("hint_not_your_turn", waiting=name_of(rec, turn))
        view = m.rules.observe(m.deal, seat)
        key = (rec.id, rec.seq, seat)
        evaluation = self._hints.get(key)
        if evaluation is None:
            effort = HINT_EFFORT * step.EXPERT_EFFORT
            evaluation = await self._single(
                ("hint", *key),
                lambda: self._think(analysis.advise, rec.game_id, view, rec.seed, rec.seq, effort),
                answer_within,
            )
            self._hints[key] = evaluation
        return Hint(table_info(rec), seat, deal_number(m), view, evaluation)

    # ---- reviews -------------------------------------------------------------------------
    async def review(
        self, table_id: int, user_id: int, deal_no: int, *, answer_within: float | None = None
    ) -> Review:
        """The expert's review of the user's decisions in finished deal ``deal_no``.

        Any player who sat at the table may ask (also after resigning, and after the game);
        decisions the computer made for them (timeouts, away) are not theirs to review.
        ``answer_within`` as for ``hint``.
        """
        rec = await self._load(table_id)
        seat = next((s.seat for s in rec.seats if s.user_id == user_id), None)
        if seat is None:
            raise NotSeated("review_players_only", table=rec.id, game=rec.game_id)
        if not expert_ready(rec.game_id):
            raise WrongState("no_expert_review", game=rec.game_id)
        if rec.snapshot_json is None:
            raise WrongState("not_started")
        m = self._match(rec) if rec.status == "playing" else match.from_json(rec.snapshot or {})
        if not 1 <= deal_no <= m.deals_played:
            raise WrongState("deal_not_over", game=rec.game_id)
        key = (rec.id, deal_no, seat)
        found = self._reviews.get(key)
        if found is None:
            found = await self._single(
                ("review", *key), lambda: self._review(rec.id, deal_no, seat), answer_within
            )
            if found.complete:
                self._reviews[key] = found
        return found

    async def _review(self, table_id: int, deal_no: int, seat: int) -> Review:
        rec = await self._load(table_id)
        entries = await self.store.log(table_id)
        found, _ = await self._think(analysis.decisions, rec, entries, deal_no, seat)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + REVIEW_SECONDS
        effort = REVIEW_EFFORT * step.EXPERT_EFFORT
        judged: list[Judged] = []
        for d in sorted(found, key=analysis.priority):
            if loop.time() >= deadline:
                break
            try:
                judged.append(await self._think(analysis.judge, rec.game_id, d, rec.seed, effort))
            except Exception:
                # One position the expert cannot think about must not cost the whole review.
                log.exception("the expert could not review seq %s of table %s", d.seq, rec.id)
        judged.sort(key=lambda j: (-j.loss, j.decision.seq))
        return Review(
            table=table_info(rec),
            seat=seat,
            deal_number=deal_no,
            judged=tuple(judged),
            decisions=len(found),
            complete=len(judged) == len(found),
        )

    # ---- plumbing ------------------------------------------------------------------------
    async def _think(self, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(*args)`` in a worker process, at most ``COACHING_AT_ONCE`` at a time; a job
        the workers could not do in time (``compute.JobFailed``) is ``Busy("expert_busy")``."""
        if self._coaching is None:
            self._coaching = asyncio.Semaphore(COACHING_AT_ONCE)
        async with self._coaching:
            try:
                return await self._off_loop(
                    lambda: compute.run(self._processes, fn, *args, deadline=self._job_seconds)
                )
            except compute.JobFailed as e:
                raise Busy("expert_busy") from e

    async def _single(
        self,
        key: tuple[str, int, int, int],
        work: Callable[[], Awaitable[_T]],
        answer_within: float | None = None,
    ) -> _T:
        """One computation per ``key`` at a time: a second click waits for the first's.
        Bounded (``COACHING_QUEUE``) and timed (``answer_within``): see the module docstring.
        A computation nobody waits for any more is cancelled."""
        task = self._thinking.get(key)
        if task is None:
            if len(self._thinking) >= COACHING_QUEUE:
                raise Busy("expert_busy")
            task = asyncio.ensure_future(work())
            self._thinking[key] = task
            self._waiting[key] = 0
            task.add_done_callback(lambda _: self._forget(key))
        self._waiting[key] = self._waiting.get(key, 0) + 1
        try:
            async with asyncio.timeout(answer_within):
                return await asyncio.shield(task)
        except TimeoutError:
            raise Busy("expert_late") from None
        finally:
            self._waiting[key] = self._waiting.get(key, 1) - 1
            if not task.done() and self._waiting.get(key) == 0:
                task.cancel()  # nobody to answer any more: give its place back

    def _forget(self, key: tuple[str, int, int, int]) -> None:
        self._thinking.pop(key, None)
        self._waiting.pop(key, None)
