"""Try another way (issue 33): a finished deal replayed privately from one of one's own
decisions, with the same cards, against the expert.

A replay is an ordinary table in the player's DM channel (as a daily deal is: the publisher
shows its table and hand there): the deal's cards as they were dealt, its dealer, every
decision before the chosen one as it was made (anyone's), then the player decides again from
there, every other seat played by the expert computer. It is a practice table (``hints``):
never rated, no result kept, so it touches no rating, statistic, luck row nor daily deal; it
names the deal it replays (``replay_of``, ``replay_deal``) and ends with that one deal.
Asking again, from any decision of any deal, starts a new one; an unfinished replay of the
player's is replaced by it (``bot.services.dm_room``: one table at a time is played in a DM
channel, and a daily deal or a league set under way there refuses a replay).
"""

from __future__ import annotations

from dataclasses import replace

from bot.db.tables import LogEntry, SeatRecord, TableRecord
from bot.engine import match
from bot.engine.codec import parse_action
from bot.engine.registry import get_rules
from bot.services import analysis
from bot.services.analysis import Decision, expert_ready
from bot.services.bounds import Where, require_here
from bot.services.daily import with_computers
from bot.services.dm_room import DmRoom
from bot.services.errors import InvalidRequest, NotSeated, WrongState
from bot.services.luck import TableLuck
from bot.services.models import Outcome
from bot.services.step import PlayStep


class TableReplays(TableLuck, DmRoom):
    """ "Try another way" on top of the reviews."""

    async def _finished_deal(
        self, table_id: int, user_id: int, deal_no: int, where: Where | None
    ) -> tuple[TableRecord, int, list[LogEntry]]:
        """The table, the user's seat and the log, if the user may replay deal ``deal_no``
        (they sat there, the expert plays the game, the deal is over)."""
        rec = await self._load(table_id)
        require_here(rec, where, "seat")
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
        return rec, seat, await self.store.log(table_id)

    async def replay_choices(
        self, table_id: int, user_id: int, deal_no: int, *, where: Where | None = None
    ) -> list[Decision]:
        """The user's own decisions of finished deal ``deal_no`` (those with a choice; not the
        computer's for them), in the order they were made: where a replay may start."""
        rec, seat, entries = await self._finished_deal(table_id, user_id, deal_no, where)
        found, _ = await self._off_loop(lambda: analysis.decisions(rec, entries, deal_no, seat))
        return sorted(found, key=lambda d: d.seq)

    async def try_another_way(
        self,
        table_id: int,
        user_id: int,
        deal_no: int,
        seq: int,
        *,
        dm_channel_id: int,
        message_id: int | None = None,
        where: Where | None = None,
    ) -> Outcome:
        """Replay deal ``deal_no`` of the table from the user's decision logged at ``seq``, in
        their DM channel ``dm_channel_id`` (its message ``message_id`` becomes the table):
        the same cards, the same decisions before it, the expert in every other seat; unrated.
        Returns the replay's first outcome (the user to decide again)."""
        rec, seat, entries = await self._finished_deal(table_id, user_id, deal_no, where)
        found, _ = await self._off_loop(lambda: analysis.decisions(rec, entries, deal_no, seat))
        if not any(d.seq == seq for d in found):
            raise InvalidRequest("replay_no_such_decision")
        dealt = next(e for e in entries if e.kind == "deal" and e.payload["deal_no"] == deal_no)
        before = [e for e in entries if e.kind == "act" and dealt.seq < e.seq < seq]
        mine = next(s for s in rec.seats if s.seat == seat)
        me = SeatRecord(seat, user_id, mine.name, language=mine.language)
        seats = with_computers(rec.players, {seat: me})
        busy = WrongState("replay_dm_busy")
        # The user's unfinished replay there is replaced, in one step (``bot.services.dm_room``).
        async with self._channel_lock(dm_channel_id):
            replaced = await self._make_dm_room(dm_channel_id, user_id, busy)
            replay_id = await self._create_in_dm(
                dm_channel_id,
                user_id,
                message_id,
                busy,
                game_id=rec.game_id,
                players=rec.players,
                options=rec.options,
                seed=self._seed_source(),
                rules_version=get_rules(rec.game_id).version,
                seats=seats,
                now=self._clock(),
                level="expert",
                hints=True,  # a practice table: never rated, no result kept
                language=mine.language or rec.language,
                replay=(rec.id, deal_no),
            )
            async with self._lock(replay_id):
                new = await self._still_lobby(replay_id)
                m = match.new_match(rec.game_id, rec.players, rec.options, dealt.payload["dealer"])
                step = PlayStep(new, m, new.seed)
                step.start_deal(dealt.payload["deck"])
                for e in before:
                    step.apply(parse_action(step.rules, e.payload, rec.players), by="replay")
                out = await self._commit(new, step, seed=new.seed, notify=False)
        return replace(out, others=replaced)
