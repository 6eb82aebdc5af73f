"""Claims on a tournament's Discord posts (issue 34, ``bot.db.tournament_claims``): one
process wins a claim, a live claim is held, a lapsed one is taken over, a done one is done
for good with what it made, and a refused one is free again at once."""

from __future__ import annotations

from bot.db import tournament_claims as claims
from bot.db import tournaments as store
from bot.db.database import Database
from bot.db.tournament_claims import Claim


async def test_a_claim_is_won_once_lapses_and_is_done_for_good(db: Database) -> None:
    tid = await store.create(
        db,
        guild_id=1,
        channel_id=2,
        host_id=3,
        game_id="la_morte",
        players=3,
        rounds=1,
        deals=1,
        turn_clock=None,
        starts_at=None,
        rated=False,
        seed=7,
        language="en",
        now=0.0,
    )
    assert await claims.claim(db, tid, "pairings:1", "a", now=10.0, until=70.0) == Claim("mine")
    assert (await claims.claim(db, tid, "pairings:1", "b", now=20.0, until=80.0)).status == "held"
    # "a" was killed before posting: once its lease lapsed, "b" takes the claim over.
    assert (await claims.claim(db, tid, "pairings:1", "b", now=70.0, until=130.0)).mine
    await claims.done(db, tid, "pairings:1", 555, posted=("pairings_posted", 1))
    assert await claims.claim(db, tid, "pairings:1", "c", now=999.0, until=1059.0) == Claim(
        "done", 555
    )
    record = await store.get(db, tid)
    assert record is not None and record.pairings_posted == 1
    # A refused post frees its claim at once (another owner's release changes nothing).
    assert (await claims.claim(db, tid, "standings:1", "a", now=10.0, until=70.0)).mine
    await claims.release(db, tid, "standings:1", "b")
    assert (await claims.claim(db, tid, "standings:1", "b", now=11.0, until=71.0)).status == "held"
    await claims.release(db, tid, "standings:1", "a")
    assert (await claims.claim(db, tid, "standings:1", "b", now=12.0, until=72.0)).mine
