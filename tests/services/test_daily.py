"""The daily deal through TableService on both backends: the same deal and the same computer
replies for everyone, one attempt a day, boards, percentiles, the reveal kept from unfinished
players, resigning, idle attempts and the day boundary (issue 20)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.db import daily as daily_db
from bot.db.database import Database
from bot.db.tables import SeatRecord
from bot.services.daily import DAILY_IDLE, daily_deal, streaks, utc_day
from bot.services.errors import Forbidden, InvalidRequest, WrongState
from bot.services.models import Outcome
from bot.services.stats import StatsService
from bot.services.tables import TableService
from tests.services.conftest import ANA, BEN, CAL, Clock

# The daily deal's strict expert computers at a fiftieth of their work, in this process.
pytestmark = pytest.mark.usefixtures("quick_expert")

GAME = "early_french_tarot"  # card play only: the quickest expert game
DM = {ANA: 501, BEN: 502, CAL: 503}
GUILD_A, GUILD_B = 11, 22


def first_payload(out: Outcome, seat: int, pick: int = 0) -> dict[str, Any]:
    legal = out.seat_views[seat].legal
    action = legal[pick % len(legal)].to_json()
    del action["seat"]
    return action


async def play(svc: TableService, user: int, guild: int, pick: int = 0) -> list[Any]:
    """Start today's deal for ``user`` and play the ``pick``-th legal action each time; the
    log of everything that happened (the deal, and every decision by whom)."""
    out = await svc.start_daily(user, f"u{user}", GAME, guild_id=guild, dm_channel_id=DM[user])
    while not out.finished:
        seat = out.table.seat_of(user)
        assert seat is not None
        out = await svc.act(out.table.id, user, first_payload(out, seat, pick))
    return [(e.kind, e.seat, e.payload) for e in await svc.store.log(out.table.id)]


async def test_everyone_gets_the_same_deal_and_the_same_replies(salted: TableService) -> None:
    a = await play(salted, ANA, GUILD_A)
    b = await play(salted, BEN, GUILD_B)
    assert a == b  # the deck, the dealer, every computer reply
    c = await play(salted, CAL, GUILD_A, pick=1)
    assert c[0] == a[0]  # the same deck ...
    assert c != a  # ... and other choices lead elsewhere


async def test_one_attempt_a_day_and_the_boards(salted: TableService, clock: Clock) -> None:
    await play(salted, ANA, GUILD_A)
    with pytest.raises(WrongState) as refused:
        await salted.start_daily(ANA, "Ana", GAME, guild_id=GUILD_B, dm_channel_id=DM[ANA])
    assert refused.value.code == "daily_played"
    await play(salted, BEN, GUILD_B)
    await play(salted, CAL, GUILD_A, pick=1)
    boards = await salted.daily_boards(GAME, ANA, GUILD_A)
    assert boards.world.players == 3 and boards.server is not None
    assert boards.server.players == 2
    assert {e.user_id for e in boards.server.top} == {ANA, CAL}
    assert boards.world_standing is not None and boards.mine is not None
    same = [e for e in boards.world.top if e.score == boards.mine.score]
    assert len(same) >= 2  # Ana and Ben made the same choices
    # The next UTC day is another deal, which Ana may play.
    clock.now += 86400
    # Its announcement names yesterday's best of each server: this server's, not Ben's.
    best = boards.server.top[0]
    assert await salted.yesterdays_winners(GUILD_A, salted.today()) == [
        (GAME, best.name, best.score)
    ]
    assert await salted.yesterdays_winners(GUILD_A + GUILD_B + 1, salted.today()) == []
    assert (await salted.deal_of(GAME)).seed != (await salted.deal_of(GAME, boards.day)).seed
    await salted.check_daily(ANA, GAME)
    assert (await salted.daily_boards(GAME, ANA, GUILD_A)).world.players == 0


async def test_an_attempt_belongs_to_the_day_it_started(salted: TableService, clock: Clock) -> None:
    clock.now = 1_764_201_540.0  # 2025-11-26 23:59 UTC
    out = await salted.start_daily(ANA, "Ana", GAME, guild_id=GUILD_A, dm_channel_id=DM[ANA])
    day = out.table.daily
    clock.now += 120  # past midnight: the deal goes on
    while not out.finished:
        seat = out.table.seat_of(ANA)
        assert seat is not None
        out = await salted.act(out.table.id, ANA, first_payload(out, seat))
    mine = await salted.daily_attempt(ANA, GAME, day)
    assert mine is not None and mine.status == "finished" and mine.day == day != salted.today()
    assert (await salted.daily_boards(GAME, ANA, None, day)).world.players == 1
    await salted.check_daily(ANA, GAME)  # today's is another deal, still to play


async def test_nothing_is_revealed_before_ones_own_finish(salted: TableService) -> None:
    out = await salted.start_daily(ANA, "Ana", GAME, guild_id=GUILD_A, dm_channel_id=DM[ANA])
    await play(salted, BEN, GUILD_B)
    for user in (ANA, CAL):  # playing, and not started
        with pytest.raises(WrongState) as refused:
            await salted.daily_reveal(user, GAME)
        assert refused.value.code == "daily_reveal_unfinished"
    boards = await salted.daily_boards(GAME, ANA, GUILD_A)
    assert boards.world_standing is None  # Ana has not finished: no standing either
    reveal = await salted.daily_reveal(BEN, GAME)
    assert len(reveal.hands) == 4 and all(reveal.hands)
    assert reveal.mine and reveal.deltas
    assert out.table.daily == reveal.attempt.day
    # From Ben's own table (his result post's Compare button): his alone.
    table = reveal.attempt.table_id
    assert table is not None
    assert (await salted.daily_reveal_of_table(table, BEN)).hands == reveal.hands
    with pytest.raises(Forbidden) as refused:
        await salted.daily_reveal_of_table(table, CAL)
    assert refused.value.code == "daily_not_yours"


async def test_resigning_plays_the_rest_and_scores(salted: TableService) -> None:
    await salted.start_daily(ANA, "Ana", GAME, guild_id=GUILD_A, dm_channel_id=DM[ANA])
    with pytest.raises(WrongState) as refused:
        await salted.start_daily(ANA, "Ana", "la_morte", guild_id=GUILD_A, dm_channel_id=DM[ANA])
    assert refused.value.code == "daily_in_progress"
    out = await salted.resign_daily(ANA, GAME)
    assert out.finished and out.table.status == "finished"
    mine = await salted.daily_attempt(ANA, GAME)
    assert mine is not None and mine.status == "finished" and mine.resigned
    assert mine.score == out.totals[mine.seat]
    with pytest.raises(WrongState):
        await salted.resign_daily(ANA, GAME)
    # Not rated, no ordinary results.
    assert await salted.store.game_results(out.table.id) == []


async def test_an_idle_attempt_is_played_out(salted: TableService, clock: Clock) -> None:
    await salted.start_daily(ANA, "Ana", GAME, guild_id=GUILD_A, dm_channel_id=DM[ANA])
    assert await salted.settle_idle_dailies(clock.now + 60) == []
    done = await salted.settle_idle_dailies(clock.now + DAILY_IDLE + 1)
    assert len(done) == 1 and done[0].finished


async def test_an_interrupted_start_is_dealt_by_the_sweep(
    salted: TableService, clock: Clock
) -> None:
    deal = await salted.deal_of(GAME)
    seats = [
        SeatRecord(i, ANA if i == deal.seat else None, "x", is_bot=i != deal.seat) for i in range(4)
    ]
    claim = daily_db.Claim(deal.day, GAME, ANA, GUILD_A, deal.seat, "Ana")
    table_id = await salted.store.create(  # made, then the bot stopped before dealing
        guild_id=0,
        channel_id=DM[ANA],
        game_id=GAME,
        owner_id=ANA,
        players=4,
        options={"target": 50, "every_card_scores": False},
        seed=deal.seed,
        rules_version=1,
        seats=seats,
        now=clock.now,
        level="expert",
        daily_claim=claim,
    )
    assert await salted.settle_idle_dailies(clock.now + 1) == []  # maybe still being dealt
    done = await salted.settle_idle_dailies(clock.now + 120)
    assert [o.table.id for o in done] == [table_id] and done[0].table.status == "playing"
    assert done[0].seat_views[deal.seat].legal


async def test_unknown_game_and_salt_kept(svc: TableService) -> None:
    with pytest.raises(InvalidRequest):
        await svc.check_daily(ANA, "chess")
    first = await svc.deal_of(GAME)
    svc._salt_cache = None  # pyright: ignore[reportPrivateUsage]  # a restart
    assert await svc.deal_of(GAME) == first
    stored = await daily_db.salt(svc.db, "another", 0.0)
    assert daily_deal(stored, first.day, GAME) == first


def test_streaks_and_days() -> None:
    assert utc_day(0) == "1970-01-01"
    days = ["2026-11-26", "2026-11-25", "2026-11-23", "2026-11-22", "2026-11-21"]
    assert streaks(days, "2026-11-26") == (2, 3)
    assert streaks(days, "2026-11-27") == (2, 3)  # today's may still come
    assert streaks(days, "2026-11-28") == (0, 3)
    assert streaks([], "2026-11-28") == (0, 0)


async def test_forgetting_does_not_free_todays_deal(
    salted: TableService, clock: Clock, db: Database
) -> None:
    """Forget-me re-keys the attempts to no one; a marker that names no one still says "this
    account played today's deal" until the day is over (issue 28, defect 6)."""
    await play(salted, ANA, GUILD_A)
    await play(salted, BEN, GUILD_A)
    reveal = await salted.daily_reveal(ANA, GAME)  # every hand seen ...
    assert all(reveal.hands)
    done = await StatsService(db, clock=clock).forget(ANA)  # ... then forgotten
    assert done.open_tables == ()
    for attempt in (
        lambda: salted.check_daily(ANA, GAME),
        lambda: salted.start_daily(ANA, "Ana", GAME, guild_id=GUILD_A, dm_channel_id=DM[ANA]),
    ):
        with pytest.raises(WrongState) as refused:
            await attempt()
        assert refused.value.code == "daily_played_forgotten"
        assert refused.value.params == {"game": GAME}
    await salted.check_daily(ANA, "la_morte")  # another game's deal is still to play
    await salted.check_daily(CAL, GAME)
    # The marker names no one: neither the user id nor the name is stored with it.
    async with db.read() as conn:
        rows = await conn.fetchall("SELECT * FROM daily_markers")
    assert len(rows) == 1 and not {str(ANA), "Ana"} & {str(v) for v in rows[0]}
    board = await salted.daily_boards(GAME, BEN, GUILD_A)
    assert board.world.players == 2  # the forgotten score stays on the board
    # The next day: a new deal to play, and the day's markers are swept away.
    clock.now += 86400
    await salted.check_daily(ANA, GAME)
    assert await salted.settle_idle_dailies() == []
    async with db.read() as conn:
        assert await conn.fetchall("SELECT * FROM daily_markers") == []
