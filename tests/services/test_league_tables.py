"""League tables of several humans through TableService (issue 34): the lobby's checks, the
seats the entry-order rule gives its players, a player who leaves mid-set (nothing after their
deal counts for them, the table goes on), standings equal to a direct computation seat by seat,
and two players of one table forgetting themselves."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable

import pytest

from bot.db import league as league_db
from bot.db.database import Database
from bot.db.tables import TableRecord
from bot.services import league_tables
from bot.services.errors import Forbidden, WrongState
from bot.services.stats import StatsService
from bot.services.tables import TableService
from tests.services.conftest import ANA, BEN, CAL, DEE, Clock
from tests.services.test_league import (  # noqa: F401  (the league fixture)
    GAME,
    GUILD_A,
    enter,
    league,
    payload,
)

THREAD = 9001  # the table's private thread (made by the Discord layer)


def direct(
    results: list[league_db.DealResult], owner: dict[tuple[int, int], int]
) -> dict[int, tuple[int, int]]:
    """``(mp, top)`` per entrant from the stored results (``owner``: (table, seat) -> user)."""
    groups: dict[tuple[int, int], list[league_db.DealResult]] = defaultdict(list)
    for r in results:
        groups[(r.deal_no, r.seat)].append(r)
    out: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for group in groups.values():
        for r in group:
            others = [o for o in group if o is not r]
            acc = out[owner[(r.table_id, r.seat)]]
            acc[0] += sum(2 if r.score > o.score else r.score == o.score for o in others)
            acc[1] += 2 * len(others)
    return {k: (v[0], v[1]) for k, v in out.items()}


async def test_a_table_of_two_one_leaving_then_both_forgotten(
    league: TableService,  # noqa: F811
    db: Database,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(league_tables, "expert_ready", lambda game_id: False)
    await enter(league, BEN)  # the session's first entrant: seat 0, alone in the DMs
    with pytest.raises(WrongState) as elsewhere:
        await league.open_league_table(GUILD_A, 999, ANA, "Ana", GAME)
    assert elsewhere.value.code == "league_table_channel"
    lobby = await league.open_league_table(GUILD_A, GUILD_A * 10, ANA, "Ana", GAME)
    assert lobby.league is not None and not lobby.in_dms and lobby.deals == 2
    with pytest.raises(Forbidden) as reader:
        await league.join(lobby.id, CAL, "Cal", sees_threads=True)
    assert reader.value.code == "league_sees_threads"
    with pytest.raises(WrongState) as twice:
        await league.join(lobby.id, BEN, "Ben")
    assert twice.value.code == "league_entered"
    await league.join(lobby.id, DEE, "Dee")
    with pytest.raises(WrongState) as seated:
        await league.check_league(DEE, GAME, GUILD_A)
    assert seated.value.code == "league_in_lobby"
    with pytest.raises(WrongState) as plain:
        await league.start(lobby.id, ANA)
    assert plain.value.code == "league_start_button"
    with pytest.raises(Forbidden):
        await league.start_league_table(lobby.id, DEE, THREAD)

    out = await league.start_league_table(lobby.id, ANA, THREAD)
    table = out.table
    assert table.channel_id == THREAD and table.message_id is None
    assert (table.seat_of(ANA), table.seat_of(DEE)) == (1, 2)  # the 2nd and 3rd entrants
    assert sum(s.user_id is None for s in table.seats) == 2

    with pytest.raises(Forbidden) as ending:  # the host may not end the others' entries
        await league.end_table(table.id, ANA)
    assert ending.value.code == "league_no_end"

    left = await league.resign(table.id, DEE)  # mid deal 1: the table goes on
    assert not left.finished
    _, [dees] = await league.league_status(DEE)  # left, though the table plays on
    assert dees.entry.status == "playing" and dees.entry.left and dees.entry.until_deal == 1
    _, [anas] = await league.league_status(ANA)
    assert not anas.entry.left
    for _ in range(500):
        now = await league.snapshot(table.id, ANA)
        if now.table.status != "playing":
            break
        seat = now.table.seat_of(ANA)
        assert seat is not None
        await league.act(table.id, ANA, payload(now, seat, 0))
    assert (await league.get_table(table.id)).status == "finished"

    session = await league.league_session()
    results = await league_db.results(db, session.id, GAME)
    mine = sorted((r.seat, r.deal_no, r.resigned) for r in results if r.table_id == table.id)
    assert mine == [(1, 1, False), (1, 2, False), (2, 1, True)]  # nothing of Dee's after deal 1
    entries = await league_db.entries(db, session.id, GAME)
    owner = {(e.table_id or 0, e.seat): e.user_id for e in entries}
    clock.now += 60
    board = await league.league_board(GAME, ANA)
    expected = direct(results, owner)
    assert {s.key: (s.mp, s.top) for s in board.standings.top} == expected

    # Both players of the table forget themselves: two rows of no one, the same matchpoints.
    for user in (ANA, DEE):
        await StatsService(db, clock=clock).forget(user)
    clock.now += 60
    board = await league.league_board(GAME, BEN)
    keys = [s.key for s in board.standings.top if s.key < 0]
    assert len(set(keys)) == 2
    assert sorted((s.mp, s.top) for s in board.standings.top) == sorted(expected.values())


async def test_a_lobby_closes_with_its_night_and_a_table_under_way_plays_on(
    league: TableService,  # noqa: F811
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(league_tables, "expert_ready", lambda game_id: False)
    started = await league.open_league_table(GUILD_A, GUILD_A * 10, ANA, "Ana", GAME)
    playing = (await league.start_league_table(started.id, ANA, THREAD)).table
    # A lobby its host ends during the night says nothing of the night's end.
    ended = await league.open_league_table(GUILD_A, GUILD_A * 10, CAL, "Cal", GAME)
    assert (await league.end_table(ended.id, CAL)).table.end_reason is None
    lobby = await league.open_league_table(GUILD_A, GUILD_A * 10, BEN, "Ben", GAME)
    await league.join(lobby.id, DEE, "Dee")
    session = await league.league_session()
    assert await league.close_league_lobbies() == []  # the night is still open

    clock.now = session.ends_at
    with pytest.raises(WrongState) as late:  # a join after the window, before the sweep
        await league.join(lobby.id, CAL, "Cal")
    assert late.value.code == "league_closed"
    assert late.value.params["next"] == session.starts_at + 7 * 86400  # next week's night
    [closed] = await league.close_league_lobbies()
    assert closed.table.id == lobby.id and closed.table.status == "abandoned"
    assert closed.table.end_reason == "night_over"  # what its message says
    assert (await league.get_table(lobby.id)).end_reason == "night_over"
    assert await league.close_league_lobbies() == []  # once
    for user in (BEN, DEE):  # their seats are free: nothing of the league holds them
        assert await league.store.open_for_user(user) == []
        assert await league.league_entry(user, GAME) is None
    with pytest.raises(WrongState) as shut:
        await league.join(lobby.id, CAL, "Cal")
    assert shut.value.code == "table_closed"

    # The table that started in the window plays on after it, to the end of its set.
    for _ in range(500):
        now = await league.snapshot(playing.id, ANA)
        if now.table.status != "playing":
            break
        seat = now.table.seat_of(ANA)
        assert seat is not None
        await league.act(playing.id, ANA, payload(now, seat, 0))
    assert (await league.get_table(playing.id)).status == "finished"
    mine = await league.league_entry(ANA, GAME)
    assert mine is not None and mine.status == "finished" and not mine.left


async def test_a_lobby_another_process_closed_meanwhile_is_let_go(
    league: TableService,  # noqa: F811
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two processes' upkeeps close the same lobby at once: the one that finds it closed
    when it writes lets it go, with no error, and goes on to the next."""
    lobby = await league.open_league_table(GUILD_A, GUILD_A * 10, BEN, "Ben", GAME)
    clock.now = (await league.league_session()).ends_at
    seen = await league.store.get(lobby.id)  # what the slower process read
    [first] = await league.close_league_lobbies()  # the other process
    assert first.table.id == lobby.id
    monkeypatch.setattr(league_db, "lobbies_after_night", _found([lobby.id]))
    monkeypatch.setattr(league.store, "get", _returns(seen))
    assert await league.close_league_lobbies() == []


def _found(ids: list[int]) -> Callable[[Database, float], Awaitable[list[int]]]:
    async def lobbies(db: Database, now: float) -> list[int]:
        return ids

    return lobbies


def _returns(rec: TableRecord | None) -> Callable[[int], Awaitable[TableRecord | None]]:
    async def get(table_id: int) -> TableRecord | None:
        return rec

    return get


async def test_a_tables_thread_is_claimed_recorded_and_forgotten_only_while_a_lobby(
    league: TableService,  # noqa: F811
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``bot.db.league_threads`` through the service: one start at a time, the thread made
    recorded for a retry, dropped (to be deleted) only while the table is still a lobby."""
    monkeypatch.setattr(league_tables, "expert_ready", lambda game_id: False)
    lobby = await league.open_league_table(GUILD_A, GUILD_A * 10, ANA, "Ana", GAME)
    assert await league.claim_league_thread(lobby.id) is None  # no thread yet: make one
    with pytest.raises(WrongState) as held:
        await league.claim_league_thread(lobby.id)
    assert held.value.code == "league_table_starting"
    await league.league_thread_made(lobby.id, THREAD)
    assert await league.drop_league_thread(lobby.id) == THREAD  # a failed start: delete it
    assert await league.claim_league_thread(lobby.id) is None

    await league.league_thread_made(lobby.id, THREAD)
    clock.now += 61  # that start's process died: its claim lapsed, its thread is reused
    assert await league.claim_league_thread(lobby.id) == THREAD
    await league.start_league_table(lobby.id, ANA, THREAD)
    await league.release_league_thread(lobby.id)
    assert await league.claim_league_thread(lobby.id) == THREAD
    assert await league.drop_league_thread(lobby.id) is None  # started: the thread stays
