"""League sessions through TableService (issue 34): the same set of deals at every table,
rotating seats, matchpoints and standings equal to a direct computation from the stored
results, one entry per player (also after forget-me), leaving, the comparison kept from
anyone still playing, and no rating."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.db import league as league_db
from bot.db.database import Database
from bot.services import league as league_service
from bot.services.errors import WrongState
from bot.services.models import Outcome
from bot.services.stats import StatsService
from bot.services.tables import TableService
from tests.services.conftest import ANA, BEN, CAL, DEE, EVE, Clock

pytestmark = pytest.mark.usefixtures("quick_expert")

GAME = "early_french_tarot"  # card play only: the quickest expert game
DM = {ANA: 501, BEN: 502, CAL: 503, DEE: 504, EVE: 505}
GUILD_A, GUILD_B, GUILD_C = 11, 22, 33
HOME = {ANA: GUILD_A, BEN: GUILD_B, CAL: GUILD_C, DEE: GUILD_A, EVE: GUILD_B}


@pytest.fixture
async def league(
    salted: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> TableService:
    """Three servers in the league, two deals a set, the clock in this week's window. The
    computers play casually here (the strict expert's sameness is the daily's tests' part):
    these tests are about sets, seats and matchpoints, and must stay cheap."""
    monkeypatch.setattr(league_service, "expert_ready", lambda game_id: False)
    salted.league_deals = 2
    for guild in (GUILD_A, GUILD_B, GUILD_C):
        await salted.set_league(guild, guild * 10)
    session = await salted.league_session()
    clock.now = session.starts_at + 60
    return salted


def payload(out: Outcome, seat: int, pick: int) -> dict[str, Any]:
    legal = out.seat_views[seat].legal
    action = legal[pick % len(legal)].to_json()
    del action["seat"]
    return action


async def enter(svc: TableService, user: int, pick: int = 0, moves: int = 10_000) -> Outcome:
    """Enter this week's set and make up to ``moves`` decisions (the ``pick``-th legal one)."""
    out = await svc.start_league(
        user, f"u{user}", GAME, guild_id=HOME[user], dm_channel_id=DM[user]
    )
    for _ in range(moves):
        if out.finished:
            break
        seat = out.table.seat_of(user)
        assert seat is not None
        out = await svc.act(out.table.id, user, payload(out, seat, pick))
    return out


def direct_standings(
    results: list[league_db.DealResult], owner: dict[int, tuple[int, int]]
) -> tuple[dict[int, tuple[int, int]], dict[int, tuple[int, int]]]:
    """Matchpoints computed here from the stored results: per player and per server
    ``(mp, top)``; ``owner``: table -> (user, guild)."""
    groups: dict[tuple[int, int], list[league_db.DealResult]] = defaultdict(list)
    for r in results:
        groups[(r.deal_no, r.seat)].append(r)
    players: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    servers: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for group in groups.values():
        for r in group:
            others = [o for o in group if o is not r]
            mp = sum(2 if r.score > o.score else 1 if r.score == o.score else 0 for o in others)
            user, guild = owner[r.table_id]
            for acc in (players[user], servers[guild]):
                acc[0] += mp
                acc[1] += 2 * len(others)
    return (
        {k: (v[0], v[1]) for k, v in players.items()},
        {k: (v[0], v[1]) for k, v in servers.items()},
    )


def pct(mp: int, top: int) -> float:
    return 50.0 if top == 0 else 100.0 * mp / top


async def test_one_set_everywhere_and_standings_equal_a_direct_computation(
    league: TableService, db: Database, clock: Clock
) -> None:
    outs = {u: await enter(league, u, pick=i % 2) for i, u in enumerate((ANA, BEN, CAL, DEE, EVE))}
    assert all(o.finished for o in outs.values())
    logs = {u: await league.store.log(o.table.id) for u, o in outs.items()}
    decks = {u: [e.payload for e in log if e.kind == "deal"] for u, log in logs.items()}
    assert all(d == decks[ANA] for d in decks.values())  # the same decks and dealers
    assert len(decks[ANA]) == 2  # the set's two deals, then the entry ends
    # Seats rotate with the order of entry (4 players a table).
    assert [outs[u].table.seat_of(u) for u in (ANA, BEN, CAL, DEE, EVE)] == [0, 1, 2, 3, 0]
    # Same seat (0), same choices: the same computer replies everywhere (strict experts).
    assert [(e.kind, e.seat, e.payload) for e in logs[ANA]] == [
        (e.kind, e.seat, e.payload) for e in logs[EVE]
    ]
    session = await league.league_session()
    stored = await league_db.results(db, session.id, GAME)
    assert len(stored) == 10  # 5 entries x 2 deals
    owner = {o.table.id: (u, HOME[u]) for u, o in outs.items()}
    players, servers = direct_standings(stored, owner)

    board = await league.league_board(GAME, ANA)
    assert board.standings.count == 5
    got = {s.key: (s.mp, s.top) for s in board.standings.top}
    assert got == players
    expected_order = sorted(players, key=lambda u: (-pct(*players[u]), -players[u][0], u))
    assert [s.key for s in board.standings.top] == expected_order
    assert board.standings.mine is not None and board.standings.rank is not None
    assert board.standings.rank == 1 + sum(
        1 for u in players if pct(*players[u]) > pct(*players[ANA])
    )

    by_server = await league.league_board(GAME, GUILD_A, servers=True)
    assert {s.key: (s.mp, s.top) for s in by_server.standings.top} == servers
    here = await league.league_board(GAME, ANA, guild_id=GUILD_A)
    assert {s.key for s in here.standings.top} == {ANA, DEE}
    # The season counts a session once its window is over.
    season = await league.league_board(GAME, ANA, season=True)
    assert season.standings.count == 0
    clock.now = session.ends_at
    season = await league.league_board(GAME, ANA, season=True)
    assert {s.key: (s.mp, s.top) for s in season.standings.top} == players
    assert await league.score_league() == 0  # nothing left to score

    # Never rated: no game result, rating or leaderboard row.
    async with db.read() as conn:
        row = await conn.fetchone("SELECT COUNT(*) FROM game_results")
    assert row is not None and row[0] == 0


async def test_one_entry_even_after_forget_me_leaving_and_the_comparison(
    league: TableService, db: Database, clock: Clock
) -> None:
    await enter(league, ANA)
    with pytest.raises(WrongState) as again:
        await league.start_league(ANA, "Ana", GAME, guild_id=GUILD_B, dm_channel_id=DM[ANA])
    assert again.value.code == "league_entered"
    # Forget-me keeps the entry on the standings under no one's name, and the set entered.
    await StatsService(db, clock=clock).forget(ANA)
    with pytest.raises(WrongState) as forgotten:
        await league.start_league(ANA, "Ana", GAME, guild_id=GUILD_A, dm_channel_id=DM[ANA])
    assert forgotten.value.code == "league_entered"
    board = await league.league_board(GAME, BEN)
    assert [s.key < 0 for s in board.standings.top] == [True]

    # Leaving: the casual computer finishes the deal in progress, marked, and the entry ends.
    out = await enter(league, BEN, moves=1)
    assert not out.finished
    with pytest.raises(WrongState) as busy:  # one table at a time in the DMs
        await league.check_daily(BEN, GAME)
    assert busy.value.code == "league_dm_busy"
    with pytest.raises(WrongState) as early:
        await league.league_compare(CAL, GAME, 1)
    assert early.value.code == "league_compare_early"
    left = await league.resign_league(BEN, GAME)
    assert left.finished
    session = await league.league_session()
    mine = [r for r in await league_db.results(db, session.id, GAME) if r.table_id == out.table.id]
    assert [(r.deal_no, r.resigned) for r in mine] == [(1, True)]

    # A player whose entry is still in play never sees the comparison, even after the window.
    await enter(league, CAL, moves=1)
    clock.now = session.ends_at + 1
    with pytest.raises(WrongState) as playing:
        await league.league_compare(CAL, GAME, 1)
    assert playing.value.code == "league_compare_playing"
    with pytest.raises(WrongState) as closed:
        await league.start_league(DEE, "Dee", GAME, guild_id=GUILD_A, dm_channel_id=DM[DEE])
    assert closed.value.code == "league_closed"
    shown = await league.league_compare(DEE, GAME, 1)
    assert len(shown.hands) == 4 and all(shown.hands)
    assert {r.resigned for r in shown.rows} == {False, True}
    assert len(shown.rows) == 2  # Ana's (forgotten) and Ben's first deals


async def test_a_server_must_join_and_the_window_must_be_open(
    salted: TableService, clock: Clock
) -> None:
    with pytest.raises(WrongState) as outside:
        await salted.check_league(ANA, GAME, GUILD_A)
    assert outside.value.code == "league_not_joined"
    await salted.set_league(GUILD_A, 110)
    session = await salted.league_session()
    clock.now = session.starts_at - 1
    with pytest.raises(WrongState) as early:
        await salted.check_league(ANA, GAME, GUILD_A)
    assert early.value.code == "league_closed"
    await salted.set_league(GUILD_A, None)
    assert await salted.league_channel(GUILD_A) is None


async def test_an_entry_left_untouched_is_finished_by_the_computer(
    league: TableService, db: Database, clock: Clock
) -> None:
    out = await enter(league, ANA, moves=1)
    assert not out.finished
    assert await league.settle_idle_league() == []  # not idle yet
    clock.now += league_service.LEAGUE_IDLE + 1
    [done] = await league.settle_idle_league()
    assert done.finished and done.table.id == out.table.id
    session = await league.league_session()
    stored = await league_db.results(db, session.id, GAME)
    assert [(r.table_id, r.deal_no, r.resigned) for r in stored] == [(out.table.id, 1, True)]
    mine = await league.league_entry(ANA, GAME)
    assert mine is not None and mine.status == "finished"


async def test_the_operators_night_sets_the_window_and_the_sets_length(
    salted: TableService, clock: Clock
) -> None:
    """``LEAGUE_DAY``/``_HOUR``/``_HOURS``/``_DEALS`` (``bot.settings``): a session opens on the
    chosen day and hour of its ISO week, for the chosen hours, with sets of the chosen deals."""
    salted.league_night = league_service.LeagueNight(weekday=1, hour=20, hours=3)  # Tuesday
    salted.league_deals = 10
    session = await salted.league_session()
    starts = datetime.fromtimestamp(session.starts_at, UTC)
    _, monday = league_service.week_of(clock.now)
    assert (starts.weekday(), starts.hour, starts.minute) == (1, 20, 0)
    assert starts.date() == (monday + timedelta(days=1)).date()
    assert session.ends_at - session.starts_at == 3 * 3600
    assert session.deals == 10
