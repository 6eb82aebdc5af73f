"""StatsService over real games: ratings written at the end of a game (computer included,
resigned last, abandoned unrated), provisional order, input checks, score sheets, records that
replay through the scenario runner for every landed game, and forget-me."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.ai import choose_action
from bot.db.database import Database
from bot.db.tables import TableStore
from bot.engine import scenario
from bot.engine.registry import get_rules, implemented
from bot.engine.views import SeatView
from bot.services import ratings
from bot.services.errors import InvalidRequest, NotFound, WrongState
from bot.services.models import Outcome
from bot.services.stats import FORGOTTEN_NAME, StatsService
from bot.services.tables import TableService
from tests.seed import finished_table
from tests.services.conftest import ANA, BEN, CAL, CHANNEL, GUILD, Clock, user_to_act

CPU = ratings.COMPUTER_LEVELS["standard"]
DAY = 86_400.0
#: Short matches of every game (3 seats).
SHORT = {
    "la_morte": {"round_limit": 1},
    "early_french_tarot": {"target": 1},
    "french_tarot": {"deals": 1},
    "losers_game": {"hand_limit": 1},
    "queen_of_tarot": {"deals": 1},
}


@pytest.fixture
def stats(db: Database, clock: Clock) -> StatsService:
    return StatsService(db, clock=clock)


def _payload(game_id: str, view: SeatView, rng: random.Random) -> dict[str, Any]:
    out = choose_action(get_rules(game_id), view, rng).to_json()
    del out["seat"]
    return out


async def play_out(svc: TableService, out: Outcome, rng: random.Random) -> Outcome:
    """Humans play like the computer until the match ends."""
    while not out.finished:
        user = user_to_act(out)
        seat = out.table.seat_of(user)
        assert seat is not None
        out = await svc.act(
            out.table.id, user, _payload(out.table.game_id, out.seat_views[seat], rng)
        )
    return out


async def game(
    svc: TableService,
    humans: list[tuple[int, str]],
    computers: int,
    game_id: str = "la_morte",
    seed: int = 1,
    channel: int = CHANNEL,
) -> Outcome:
    players = len(humans) + computers
    (owner, name), rest = humans[0], humans[1:]
    t = await svc.open_lobby(
        GUILD, channel, owner, name, game_id, players, SHORT.get(game_id, {}), computers
    )
    for user, who in rest:
        await svc.join(t.id, user, who)
    out = await svc.start(t.id, owner, seed=seed)
    return await play_out(svc, out, random.Random(seed))


async def test_a_finished_game_rates_every_seat_the_computer_included(
    svc: TableService, stats: StatsService
) -> None:
    out = await game(svc, [(ANA, "Ana"), (BEN, "Ben")], computers=2, seed=3)
    results = await svc.store.game_results(out.table.id)
    assert sorted(r.place for r in results if r.place) == sorted(
        ratings.placings(out.totals, out.winners)
    )
    assert [r.player_id for r in results] == [ANA, CPU, CPU, BEN]
    board = await stats.leaderboard(game_id="la_morte", viewer=ANA, guild_id=GUILD)
    assert {e.player_id for e in board.entries} == {ANA, BEN}  # humans only
    assert all(e.provisional and e.rated_games == 1 for e in board.entries)
    assert board.computer is not None and board.computer.games == 1
    best = min(results, key=lambda r: r.place or 9)
    worst = max(results, key=lambda r: r.place or 0)
    rows = {r.seat: r for r in results}
    async with svc.db.read() as conn:
        deltas = dict(
            list(
                await conn.fetchall(
                    "SELECT seat, rating_delta FROM game_results WHERE table_id = ?",
                    (out.table.id,),
                )
            )
        )
    assert deltas[best.seat] > deltas[worst.seat]
    assert rows[best.seat].won == (best.seat in out.winners)


async def test_a_resigned_player_ranks_last_and_an_abandoned_game_is_not_rated(
    svc: TableService, stats: StatsService
) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "la_morte", 4, {"round_limit": 2}, 2)
    await svc.join(t.id, BEN, "Ben")
    await svc.start(t.id, ANA, seed=8)
    out = await svc.resign(t.id, BEN)
    out = await play_out(svc, out, random.Random(2))
    results = {r.user_id: r for r in await svc.store.game_results(t.id)}
    assert results[BEN].place == 4 and not results[BEN].won
    ben = await stats.leaderboard(game_id="la_morte", viewer=BEN, guild_id=GUILD)
    assert ben.me is not None and ben.me.rating is not None and ben.me.rating < 0
    assert ben.me.games == 1 and ben.me.wins == 0

    # The last human resigning abandons the table: no results, nobody rated.
    t2 = await svc.open_lobby(GUILD, CHANNEL, CAL, "Cal", "la_morte", 3, {}, 2)
    await svc.start(t2.id, CAL, seed=9)
    gone = await svc.resign(t2.id, CAL)
    assert gone.table.status == "abandoned"
    assert await svc.store.game_results(t2.id) == []
    cal = await stats.player_stats(CAL)
    assert cal.games == () and cal.best is None
    cpu = (await stats.leaderboard(game_id="la_morte", viewer=CAL, guild_id=GUILD)).computer
    assert cpu is not None and cpu.games == 1  # only the finished game


async def finish(
    store: TableStore,
    seats: list[tuple[int | None, int]],  # (user id or None for the computer, place)
    now: float,
    guild: int = GUILD,
) -> int:
    """A finished table with the real rating maths."""
    return await finished_table(
        store,
        [(u, f"P{u}", 10 - place, place) for u, place in seats],
        guild_id=guild,
        channel_id=500,
        now=now,
        rater=ratings.rate,
    )


async def test_provisional_players_are_listed_after_established_ones(
    db: Database, stats: StatsService
) -> None:
    store = TableStore(db)
    for _ in range(4):  # Ben beats the computer four times: a high but provisional rating
        await finish(store, [(BEN, 1), (None, 2), (None, 3)], 1.0)
    for _ in range(5):  # Ana finishes last five times: established, lower
        await finish(store, [(ANA, 3), (None, 1), (None, 2)], 2.0)
    board = await stats.leaderboard(game_id="la_morte", viewer=CAL, guild_id=GUILD)
    ana, ben = board.entries
    assert (ana.player_id, ben.player_id) == (ANA, BEN)
    assert ben.rating is not None and ana.rating is not None and ben.rating > ana.rating
    assert (ana.provisional, ben.provisional) == (False, True)
    assert (ana.rated_games, ben.rated_games) == (5, 4)
    assert board.me is None and board.pages == 1
    # Ben's fifth game makes him established, and first.
    await finish(store, [(BEN, 1), (None, 2), (None, 3)], 3.0)
    board = await stats.leaderboard(game_id="la_morte", viewer=BEN, guild_id=GUILD)
    assert [e.player_id for e in board.entries] == [BEN, ANA]
    assert board.me == board.entries[0]


async def test_pages_periods_and_scopes(db: Database, stats: StatsService, clock: Clock) -> None:
    store = TableStore(db)
    now = clock.now
    for i in range(23):
        await finish(store, [(1000 + i, 1), (None, 2)], now - (40 if i < 3 else 1) * DAY)
    await finish(store, [(2000, 1), (None, 2)], now, guild=GUILD + 1)
    kw: dict[str, Any] = {"game_id": "la_morte", "guild_id": GUILD, "metric": "games"}
    first = await stats.leaderboard(viewer=1022, **kw)
    assert (first.page, first.pages, first.total, len(first.entries)) == (0, 3, 23, 10)
    assert first.me is not None and first.me not in first.entries
    mine = await stats.leaderboard(viewer=1022, around_viewer=True, **kw)
    assert mine.page == 2 and mine.me in mine.entries and len(mine.entries) == 3
    last = await stats.leaderboard(viewer=1, page=99, **kw)
    assert last.page == 2 and last.me is None
    recent = await stats.leaderboard(viewer=1, period="30d", **kw)
    assert recent.total == 20
    world = await stats.leaderboard(viewer=1, scope="global", **kw)
    assert world.total == 24 and world.counted_globally
    await svc_settings(db, GUILD + 1)
    hidden = await stats.leaderboard(viewer=1, scope="global", **{**kw, "guild_id": GUILD + 1})
    assert hidden.total == 23 and not hidden.counted_globally
    assert await stats.favourite_game(GUILD) == "la_morte"
    assert await stats.favourite_game(999) == implemented()[0]


async def svc_settings(db: Database, guild_id: int) -> None:
    await TableService(db).update_guild_settings(guild_id, global_leaderboards=False)


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"game_id": "chess"}, "unknown_game"),
        ({"metric": "elo"}, "bad_metric"),
        ({"scope": "planet"}, "bad_scope"),
        ({"period": "7d"}, "bad_period"),
        ({"guild_id": None}, "board_needs_server"),
    ],
)
async def test_bad_board_requests_are_explained(
    stats: StatsService, kw: dict[str, Any], code: str
) -> None:
    args: dict[str, Any] = {"game_id": "la_morte", "viewer": ANA, "guild_id": GUILD, **kw}
    with pytest.raises(InvalidRequest) as info:
        await stats.leaderboard(**args)
    assert info.value.code == code


@pytest.mark.parametrize("game_id", implemented())
async def test_records_replay_through_the_scenario_runner(
    svc: TableService, stats: StatsService, game_id: str
) -> None:
    out = await game(svc, [(ANA, "Ana")], computers=2, game_id=game_id, seed=5)
    record = await stats.record(out.table.id, GUILD, ANA, "Tarot Club")
    assert record.filename == f"trionfi-table-{out.table.id}-{game_id}.json"
    data = json.loads(record.text)
    assert data["game"] == game_id and data["players"] == 3
    assert "Tarot Club" in data["description"]
    result = scenario.run(data)
    assert "error" not in result, result
    assert scenario.check(result, data["expect"]) == {}
    assert result["finished"] and result["totals"] == list(out.totals)
    assert data["expect"]["winners"] == sorted(out.winners)
    sheet = await stats.score_sheet(out.table.id, GUILD, ANA)
    assert sheet.totals == out.totals and len(sheet.deals) == out.deals_played
    assert sheet.names[0] == "Ana" and sheet.computers == (False, True, True)


async def test_records_are_for_ended_tables_of_this_server(
    svc: TableService, stats: StatsService
) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "la_morte", 3, {}, 2)
    with pytest.raises(WrongState, match="never_started") as info:
        await stats.record(t.id, GUILD, ANA)
    assert info.value.params == {"table": t.id}
    out = await svc.start(t.id, ANA, seed=4)
    with pytest.raises(WrongState, match="still_playing"):
        await stats.record(t.id, GUILD, ANA)  # the decks would show hidden hands
    with pytest.raises(NotFound):
        await stats.record(t.id, GUILD + 1, BEN)
    with pytest.raises(NotFound):
        await stats.score_sheet(12345, GUILD, ANA)
    await play_out(svc, out, random.Random(4))
    assert (await stats.record(t.id, GUILD + 1, ANA)).table_id == t.id  # she played there
    # Ended before the first deal ever started: nothing to replay.
    t2 = await svc.open_lobby(GUILD, CHANNEL, BEN, "Ben", "la_morte", 3, {}, 0)
    await svc.leave(t2.id, BEN)
    with pytest.raises(WrongState, match="never_started"):
        await stats.record(t2.id, GUILD, BEN)


async def test_an_abandoned_table_records_its_unfinished_deal(
    svc: TableService, stats: StatsService
) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "la_morte", 3, {}, 2)
    out = await svc.start(t.id, ANA, seed=6)
    seat = out.table.seat_of(ANA)
    assert seat is not None
    out = await svc.act(t.id, ANA, _payload("la_morte", out.seat_views[seat], random.Random(1)))
    await svc.end_table(t.id, ANA)
    data = json.loads((await stats.record(t.id, GUILD, ANA)).text)
    assert data["expect"]["finished"] is False
    result = scenario.run(data)
    assert scenario.check(result, data["expect"]) == {}
    assert result["deals"][-1]["outcome"] is None


async def test_history_and_profile(svc: TableService, stats: StatsService, clock: Clock) -> None:
    first = await game(svc, [(ANA, "Ana"), (BEN, "Ben")], computers=1, seed=11)
    clock.now += DAY
    second = await game(svc, [(ANA, "Ana")], computers=2, game_id="french_tarot", seed=12)
    hist = await stats.history(GUILD, ANA)
    assert hist.total == 2
    assert [g.table_id for g in hist.games] == [second.table.id, first.table.id]
    assert {s.name for s in hist.games[1].seats} >= {"Ana", "Ben"}
    only = await stats.history(GUILD, ANA, "la_morte")
    assert [g.table_id for g in only.games] == [first.table.id]
    with pytest.raises(InvalidRequest):
        await stats.history(GUILD, ANA, "chess")
    me = await stats.player_stats(ANA)
    assert me.played == 2 and me.name == "Ana"
    assert {g.game_id for g in me.games} == {"la_morte", "french_tarot"}
    assert me.last_played == clock.now
    assert me.points_per_deal is not None
    assert me.best is not None and me.best.table_id in (first.table.id, second.table.id)
    assert all(g.rating is not None and g.trend is not None for g in me.games)


async def test_forget_me(svc: TableService, stats: StatsService) -> None:
    done = await game(svc, [(ANA, "Ana"), (BEN, "Ben")], computers=1, seed=13)
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "la_morte", 3, {}, 0)
    with pytest.raises(WrongState, match="still_seated") as info:
        await stats.forget(ANA)
    assert info.value.params == {"tables": [t.id]}
    assert (await stats.player_stats(ANA)).played == 1  # nothing changed
    await svc.leave(t.id, ANA)
    forgotten = await stats.forget(ANA)
    assert forgotten.games == 1 and forgotten.ratings == 1
    me = await stats.player_stats(ANA)
    assert me.games == () and me.name is None and me.best is None
    board = await stats.leaderboard(game_id="la_morte", viewer=ANA, guild_id=GUILD)
    assert [e.player_id for e in board.entries] == [BEN] and board.me is None
    ben = await stats.history(GUILD, BEN)
    assert FORGOTTEN_NAME in [s.name for s in ben.games[0].seats]
    sheet = await stats.score_sheet(done.table.id, GUILD, BEN)
    assert FORGOTTEN_NAME in sheet.names and "Ana" not in sheet.names
    record = await stats.record(done.table.id, GUILD, BEN)
    assert "Ana" not in record.text
    assert await svc.active_tables_for_user(ANA) == []


async def test_rating_change_of_a_finished_game_for_its_result_card(
    svc: TableService, stats: StatsService
) -> None:
    """What a game did to a player's rating, as committed with its results; None where the
    game rated nobody, or predates ratings."""
    first = await game(svc, [(ANA, "Ana"), (BEN, "Ben")], computers=1, seed=3)
    after_first = await svc.rating_change(first.table.id, ANA)
    assert after_first is not None
    second = await game(svc, [(ANA, "Ana"), (BEN, "Ben")], computers=1, seed=4)
    change = await svc.rating_change(second.table.id, ANA)
    board = await stats.leaderboard(game_id="la_morte", viewer=ANA, guild_id=GUILD)
    assert change is not None and board.me is not None and board.me.rating is not None
    assert change.rating == pytest.approx(board.me.rating)  # her rating now
    assert change.delta == pytest.approx(change.rating - after_first.rating)
    assert await svc.rating_change(second.table.id, CAL) is None  # not at this table
    # A table that ended unrated (the last human resigned) has no results at all.
    t = await svc.open_lobby(GUILD, CHANNEL, CAL, "Cal", "la_morte", 3, {}, 2)
    await svc.start(t.id, CAL, seed=9)
    assert (await svc.resign(t.id, CAL)).table.status == "abandoned"
    assert await svc.rating_change(t.id, CAL) is None
    # A game stored before ratings were kept: its results carry none.
    async with svc.db.transaction() as conn:
        await conn.execute(
            "UPDATE game_results SET rating = NULL, rating_delta = NULL WHERE table_id = ?",
            (first.table.id,),
        )
    assert await svc.rating_change(first.table.id, ANA) is None
