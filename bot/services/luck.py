"""Luck and skill per deal (issue 33): for every human seat of a finished deal, what the cards
gave and what the play made of them, both in the game's points as the expert judges them.

- **cards**: the expert's evaluation of the seat's hand as dealt, at its first decision of the
  deal (its expected score change for the deal had an expert played it from there): luck.
- **play**: the points the player's decisions gained or lost against the expert's choices,
  summed over the decisions the deal's **Review** judged (``Judged.played_value −
  Judged.best_value``; 0 where they agree). It is the same evaluation the Review shows, so the
  Review and ``/stats`` never disagree. It rarely exceeds 0 (the expert departs from its
  usual play only on evidence), and the cards do not move it: a skill measure.

Budget (stated, as the issue asks): after each deal of a table with the expert's game, each
human seat's numbers are computed in the background, off the event loop, in the worker
processes (``bot.services.compute``): the Review's own budget (``coach.REVIEW_SECONDS`` of
``coach.REVIEW_EFFORT`` decisions, ≈ 12 s at most) plus one evaluation of the dealt hand at
``CARDS_EFFORT``; one seat at a time per process (``_luck_lock``), so they never hold more than one
worker process. The Review computed for them is cached, so a player's **Review** click right
after is answered at once. Practice tables (hints on, never rated) keep no row: their numbers
are computed when the Review is asked for and shown there only.

**Caught up.** A deal whose numbers a restart (or a crash) lost before they were stored is
computed by the sweeper (``catch_up_luck``, on start and every ``CATCH_UP_SECONDS``): the
deals finished in the last ``CATCH_UP_WINDOW`` seconds (but at least ``CATCH_UP_GRACE`` ago:
until then the deal's own process is on it), oldest first, ``CATCH_UP_DEALS`` a round, through
the same ``_after_deals`` (so under the same one-at-a-time lock). Each deal is claimed in the
database first (``bot.db.luck.claim``), so two processes never both compute it, and marked
done after, whatever came of it (a seat the expert cannot value keeps no row, and is not tried
again); a claim whose process stopped is taken over after ``CATCH_UP_LEASE``. Its Review
computes it too, as before.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from bot.db import luck as luck_db
from bot.db.luck import DealLuck, Skill
from bot.db.tables import LogEntry, TableRecord
from bot.engine.deck import deal_seed
from bot.engine.registry import get_rules, implemented
from bot.engine.views import SeatView
from bot.services import step
from bot.services.analysis import expert_ready
from bot.services.coach import Review, TableCoach
from bot.services.errors import Busy
from bot.services.models import Outcome
from bot.services.step import PlayStep, deal_number, first_match, replay_entry

log = logging.getLogger(__name__)

#: Compute every human seat's luck and skill after each deal (tests turn it off, so that their
#: games do not think in the background; the tests of this module turn it on).
AUTOMATIC = True
#: The evaluation of a dealt hand: a contract decision's budget (``bot.ai.expert``).
CARDS_EFFORT = 1.0
#: ``/stats`` averages the play over this many of a player's latest judged deals.
SKILL_DEALS = 50
#: Catching up lost numbers (see the module docstring): how often, how far back, how long the
#: deal's own process has before, how many deals a round, and when a claim is taken over.
CATCH_UP_SECONDS = 300.0
CATCH_UP_WINDOW = 7 * 24 * 3600.0
CATCH_UP_GRACE = 15 * 60.0
CATCH_UP_DEALS = 3
CATCH_UP_LEASE = 3600.0
_LUCK_SALT = 0x4C_55_43_4B


def dealt_view(
    rec: TableRecord, entries: list[LogEntry], deal_no: int, seat: int
) -> SeatView | None:
    """The seat's view at its first decision of deal ``deal_no`` (its hand as dealt, and what
    was public then), replayed from the log; None if it never had to decide."""
    m = first_match(rec, entries)
    for e in entries:
        if e.kind == "deal" and int(e.payload["deal_no"]) > deal_no:
            break
        mine = e.kind == "act" and e.seat == seat and m.deal is not None
        if mine and deal_number(m) == deal_no:
            assert m.deal is not None
            return m.rules.observe(m.deal, seat)
        m, _ = replay_entry(m, e)
    return None


def cards_value(
    rec: TableRecord, entries: list[LogEntry], deal_no: int, seat: int, effort: float
) -> float | None:
    """The expert's expected score change for the seat's dealt hand (in a worker)."""
    from bot.ai.expert import evaluate

    view = dealt_view(rec, entries, deal_no, seat)
    if view is None or not view.legal:
        return None
    rng = random.Random(deal_seed(rec.seed ^ _LUCK_SALT, deal_no * 16 + seat))
    return evaluate(get_rules(rec.game_id), view, rng, effort=effort).options[0].expected


def play_value(review: Review) -> float:
    """The points the player's decisions gained (> 0) or lost (< 0) against the expert's
    choices, over the decisions the review judged."""
    return sum(
        j.played_value - j.best_value
        for j in review.judged
        if not j.agrees and j.played_value is not None
    )


class TableLuck(TableCoach):
    """Luck and skill per deal on top of the reviews."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._luck_lock: asyncio.Lock | None = None
        self._background: set[asyncio.Task[None]] = set()

    async def deal_luck(
        self, table_id: int, user_id: int, deal_no: int, review: Review | None = None
    ) -> DealLuck | None:
        """The user's luck and skill in finished deal ``deal_no`` of the table: stored, or
        computed now from ``review`` (the deal's Review for them; asked for if None) and one
        evaluation of their dealt hand. None when the expert could not value their hand."""
        rec = await self._load(table_id)
        seat = next((s.seat for s in rec.seats if s.user_id == user_id), None)
        if seat is None:
            return None
        stored = await luck_db.get(self.db, table_id, deal_no, seat)
        if stored is not None:
            return stored
        if review is None:
            review = await self.review(table_id, user_id, deal_no)
        entries = await self.store.log(table_id)
        effort = CARDS_EFFORT * step.EXPERT_EFFORT
        cards = await self._think(cards_value, rec, entries, deal_no, seat, effort)
        if cards is None:
            return None
        found = DealLuck(
            table_id,
            deal_no,
            seat,
            user_id,
            rec.game_id,
            cards,
            play_value(review),
            len(review.judged),
            review.decisions,
        )
        if not rec.hints:  # a practice table keeps no result (``TableCore._commit``)
            await luck_db.put(self.db, found, self._clock())
        return found

    async def reviewed(
        self, table_id: int, user_id: int, deal_no: int, *, answer_within: float | None = None
    ) -> tuple[Review, DealLuck | None]:
        """The user's Review of deal ``deal_no`` (``review``) with their luck and skill in it;
        the numbers are left out (None) when the expert is too busy for them."""
        review = await self.review(table_id, user_id, deal_no, answer_within=answer_within)
        try:
            return review, await self.deal_luck(table_id, user_id, deal_no, review)
        except Busy:
            return review, None

    async def skill(self, user_id: int) -> Skill:
        """The user's average play and cards over their ``SKILL_DEALS`` latest judged deals."""
        return await luck_db.skill(self.db, user_id, SKILL_DEALS)

    # ---- after each deal -----------------------------------------------------------------
    async def _commit(self, rec: TableRecord, step: PlayStep, **kwargs: Any) -> Outcome:
        out = await super()._commit(rec, step, **kwargs)
        if AUTOMATIC and out.ended_deals and not rec.hints and expert_ready(rec.game_id):
            humans = [s.user_id for s in rec.seats if s.user_id is not None and not s.is_bot]
            deals = [d.number for d in out.ended_deals if d.result.outcome != "mucked"]
            if humans and deals:
                task = asyncio.ensure_future(self._after_deals(rec.id, deals, humans))
                self._background.add(task)
                task.add_done_callback(self._background.discard)
        return out

    async def _after_deals(self, table_id: int, deals: list[int], humans: list[int]) -> None:
        """Each human's luck and skill in each of ``deals``, one at a time (see the module
        docstring); a failure costs only that seat's numbers (its Review computes them)."""
        if self._luck_lock is None:
            self._luck_lock = asyncio.Lock()
        for deal_no in deals:
            for user_id in humans:
                async with self._luck_lock:
                    try:
                        await self.deal_luck(table_id, user_id, deal_no)
                    except Exception:
                        log.exception("luck of deal %s of table %s not computed", deal_no, table_id)

    async def catch_up_luck(self, now: float | None = None) -> int:
        """Compute the numbers of a few deals a restart lost (see the module docstring);
        returns how many deals this call took on. Nothing while ``AUTOMATIC`` is off."""
        if not AUTOMATIC:
            return 0
        when = self._clock() if now is None else now
        stale = when - CATCH_UP_LEASE
        await luck_db.drop_claims(self.db, when - CATCH_UP_WINDOW)
        found = await luck_db.lost(
            self.db,
            since=when - CATCH_UP_WINDOW,
            until=when - CATCH_UP_GRACE,
            games=[g for g in implemented() if expert_ready(g)],
            stale=stale,
            limit=CATCH_UP_DEALS,
        )
        taken = 0
        for deal in found:
            if not await luck_db.claim(
                self.db, deal.table_id, deal.deal_no, self.instance, when, stale
            ):
                continue  # another process has it
            taken += 1
            rec = await self._load(deal.table_id)
            humans = [s.user_id for s in rec.seats if s.user_id is not None and not s.is_bot]
            # A seat's failure is logged there; a stop (cancelled) or an error here leaves the
            # claim undone, so that it is taken over once stale.
            await self._after_deals(rec.id, [deal.deal_no], humans)
            await luck_db.claim_done(self.db, deal.table_id, deal.deal_no, self._clock())
        return taken

    async def luck_settled(self) -> None:
        """Wait for the background computations started so far (tests)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def stop_luck(self) -> None:
        """Stop the background computations (the bot is closing): left running, they went on
        against a closed database and a stopped worker pool, and failed with an error in the
        log. What they had not stored is computed after the restart (``catch_up_luck``)."""
        tasks = list(self._background)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
