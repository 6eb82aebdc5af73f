"""What a tournament makes on Discord, made once across a cluster (issue 34): its pairings
and standings posts, each board's thread and game table, the notice that threads were
refused, and the closing of its scheduled event.

Two bot processes sweeping one database may tend the same tournament at once. Each of those
is claimed in the database before it is made (``bot.db.tournament_claims``), with a lease as
long as a table's delivery lease: the loser of a claim does nothing, and a claim left by a
process killed before it finished lapses and is taken over by the next sweep.
"""

from __future__ import annotations

from bot.db import tournament_claims as claims
from bot.db.tournament_claims import Claim
from bot.services.core import DELIVERY_LEASE, TableCore

PAIRINGS = "pairings"
STANDINGS = "standings"


def post_key(kind: str, round_no: int) -> str:
    """A round's pairings (``PAIRINGS``) or standings (``STANDINGS``) post."""
    return f"{kind}:{round_no}"


def thread_key(round_no: int, board: int) -> str:
    return f"thread:{round_no}:{board}"


def table_key(round_no: int, board: int) -> str:
    return f"table:{round_no}:{board}"


THREADS_NOTICE = "threads-notice"
EVENT = "event"


class TournamentPosts(TableCore):
    """Claims of a tournament's Discord work (a part of ``TableService``)."""

    async def claim_tournament(self, tournament_id: int, key: str) -> Claim:
        """Claim ``key`` of a tournament (see the module docstring) for this process."""
        now = self._clock()
        return await claims.claim(
            self.db, tournament_id, key, self.instance, now, now + DELIVERY_LEASE
        )

    async def tournament_done(
        self,
        tournament_id: int,
        key: str,
        made_id: int | None = None,
        *,
        posted: tuple[str, int] | None = None,
        thread: tuple[int, int] | None = None,
    ) -> None:
        """Discord accepted what ``key`` claimed (``made_id``: the message, thread or table
        made). ``posted``: ``(PAIRINGS or STANDINGS, round)``, then not posted again;
        ``thread``: ``(round, board)`` whose thread ``made_id`` is."""
        column = None if posted is None else (f"{posted[0]}_posted", posted[1])
        await claims.done(self.db, tournament_id, key, made_id, posted=column, thread=thread)

    async def release_tournament(self, tournament_id: int, key: str) -> None:
        """Discord refused what ``key`` claimed: the next sweep (of any process) tries again."""
        await claims.release(self.db, tournament_id, key, self.instance)
