"""Tournaments (issue 34) at the service layer, on a real database: registering, starting,
Swiss rounds of ordinary tables with expert computers in the missing seats, leaving, standings
equal to a direct computation from the tables' own results, and ratings left alone."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import combinations

import pytest

from bot.db import tournaments as tstore
from bot.engine import match
from bot.engine.registry import get_rules
from bot.services import ratings, swiss, tournaments
from bot.services.errors import Forbidden, NotFound, WrongState
from bot.services.stats import FORGOTTEN_NAME, StatsService
from bot.services.step import computer_action
from bot.services.tables import TableService
from bot.services.tournaments import TournamentInfo
from tests.services.conftest import GUILD, Clock

HOST = 900
THREAD = 5000
PEOPLE = [1_234_567_890_123_456_700 + i for i in range(9)]


async def _tables_of(svc: TableService, info: TournamentInfo) -> list[int]:
    """Deal every board of the current round, each in its own "thread"."""
    ids: list[int] = []
    for b in info.round_boards(info.record.round):
        await svc.seat_board(info.id, b.round, b.board, THREAD + 10 * b.round + b.board)
    info = await svc.tournament(info.id)
    for b in info.round_boards(info.record.round):
        assert b.table_id is not None
        ids.append(b.table_id)
    return ids


async def _play_out(svc: TableService, table_ids: list[int]) -> None:
    """Humans stand in by the casual computer's choice, through ``act`` as their clicks do."""
    rng = random.Random(7)
    for tid in table_ids:
        for _ in range(2000):
            out = await svc.snapshot(tid)
            if out.table.status != "playing" or out.public is None:
                break
            seat = out.public.to_act
            assert seat is not None
            user = out.table.seats[seat].user_id
            assert user is not None, "computers never leave a turn to a human's stand-in"
            view = out.seat_views[seat]
            action = computer_action(get_rules(out.table.game_id), view, rng).to_json()
            del action["seat"]
            await svc.act(tid, user, action)
        assert (await svc.get_table(tid)).status in ("finished", "abandoned")


async def _open(
    svc: TableService, people: list[int], game: str = "la_morte", **kw: object
) -> TournamentInfo:
    """A tournament of one-deal tables (the shortest rounds) with ``people`` registered."""
    info = await svc.open_tournament(GUILD, 77, HOST, game, deals=1, **kw)  # type: ignore[arg-type]
    for i, user in enumerate(people):
        info = await svc.register(info.id, user, f"P{i}")
    return info


def _partitions(items: list[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to cut ``items`` into groups of ``sizes`` (for a brute-force minimum)."""
    if not sizes:
        yield []
        return
    for rest in combinations(items[1:], sizes[0] - 1):
        group = (items[0], *rest)
        remaining = [x for x in items if x not in group]
        for more in _partitions(remaining, sizes[1:]):
            yield [group, *more]


def _repeats(groups: Iterable[Iterable[int | None]], met: dict[frozenset[int], int]) -> int:
    return sum(
        met.get(frozenset(p), 0)
        for g in groups
        for p in combinations([u for u in g if u is not None], 2)
    )


@pytest.mark.parametrize(("count", "seats"), [(10, 4), (9, 4), (8, 4), (7, 4)])
def test_pairing_properties(count: int, seats: int) -> None:
    """No one twice in a round, every seat filled, computers on the lowest tables and at most
    one a table when the count allows, a round's repeats of earlier tablemates as few as any
    seating could make them (a brute-force minimum), the same pairing from the same inputs."""
    people = list(range(1, count + 1))
    met: dict[frozenset[int], int] = {}
    for round_no in (1, 2, 3, 4):
        tables = swiss.pair(people, seats, met, seed=3, round_no=round_no)
        seated = [u for t in tables for u in t if u is not None]
        assert sorted(seated) == people  # everyone once
        assert all(len(t) == seats for t in tables)
        computers = [t.count(None) for t in tables]
        assert computers == sorted(computers) and max(computers) <= 1
        sizes = [seats - c for c in computers]
        best = min(_repeats(p, met) for p in _partitions(people, sizes))
        assert _repeats(tables, met) == best
        assert swiss.pair(people, seats, met, 3, round_no) == tables  # a restart's pairing
        for t in tables:
            for a, b in combinations([u for u in t if u is not None], 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
    assert swiss.table_sizes(9, 4) == [3, 3, 3]
    assert swiss.table_sizes(5, 4) == [3, 2]
    assert swiss.table_points([1, 2, 2, 4]) == [6, 3, 3, 0]


async def test_register_start_and_refusals(svc: TableService, quick_expert: None) -> None:
    info = await _open(svc, PEOPLE[:2], "french_tarot")
    with pytest.raises(WrongState, match="tournament_registered"):
        await svc.register(info.id, PEOPLE[0], "P0")
    with pytest.raises(NotFound):  # another server's id names nothing here
        await svc.register(info.id, PEOPLE[3], "X", guild_id=GUILD + 1)
    info = await svc.unregister(info.id, PEOPLE[1])
    assert [e.user_id for e in info.entrants] == [PEOPLE[0]]
    with pytest.raises(Forbidden):
        await svc.start_tournament(info.id, PEOPLE[0])
    with pytest.raises(WrongState, match="tournament_too_few"):
        await svc.start_tournament(info.id, HOST)
    await svc.register(info.id, PEOPLE[1], "P1")
    info = await svc.start_tournament(info.id, HOST)
    assert info.record.status == "running" and info.record.round == 1
    # One table: two humans and two expert computers.
    (board,) = info.round_boards(1)
    assert sorted(u for u in board.seats if u is not None) == sorted(PEOPLE[:2])
    # Its table (in a thread): the missing seats are expert computers, marked as computers.
    await svc.seat_board(info.id, 1, 1, THREAD)
    table = await svc.table_in_channel(THREAD)
    assert table is not None and table.level == "expert"
    assert [s.is_bot for s in table.seats].count(True) == 2
    assert await svc.seat_board(info.id, 1, 1, THREAD + 1) is None  # once only
    with pytest.raises(WrongState, match="tournament_started"):
        await svc.register(info.id, PEOPLE[2], "P2")
    # Where the admins turned computer players off, no tournament opens: it needs them.
    await svc.update_guild_settings(GUILD, computers_allowed=False)
    with pytest.raises(Forbidden, match="computers_off"):
        await svc.open_tournament(GUILD, 79, HOST, "la_morte")


async def test_start_time_and_cancel_by_the_sweeper(svc: TableService, clock: Clock) -> None:
    soon = await _open(svc, PEOPLE[:3], starts_at=clock.now + 60)
    empty = await svc.open_tournament(
        GUILD, 78, HOST, "la_morte", starts_at=clock.now + 60, rounds=1
    )
    assert await svc.advance_tournaments() == []
    clock.now += 61
    changed = {t.id: t.record.status for t in await svc.advance_tournaments()}
    assert changed == {soon.id: "running", empty.id: "cancelled"}


@pytest.fixture
def casual_computers(monkeypatch: pytest.MonkeyPatch, quick_expert: None) -> None:
    """Tournament tables' computers at the casual level, thinking in this process: the rounds'
    results, not the expert's play, are under test here (and the expert costs seconds a
    table)."""
    monkeypatch.setattr(tournaments, "expert_ready", lambda game_id: False)


# SQLite only: the same queries run on PostgreSQL in the other tests here, and three rounds
# of tables twice over would cost the suite seconds for nothing new.
@pytest.mark.parametrize("make_target", ["sqlite"], indirect=True)
async def test_three_swiss_rounds_standings_and_no_rating(
    svc: TableService, casual_computers: None
) -> None:
    """Six players, tables of four, three rounds: computers fill the missing seats (expert,
    marked as computers), the standings are a direct computation from the tables' own final
    totals, nobody's rating moved, and a player who left is finished by the computer."""
    people = PEOPLE[:6]
    info = await _open(svc, people)
    info = await svc.start_tournament(info.id, HOST)
    left_player = None
    for round_no in (1, 2, 3):
        assert info.record.round == round_no
        boards = info.round_boards(round_no)
        # Round 3 is for the five left: three and two at the tables, computers filling them.
        assert [b.seats.count(None) for b in boards] == ([1, 1] if round_no < 3 else [1, 2])
        tables = await _tables_of(svc, info)
        for tid in tables:
            t = await svc.get_table(tid)
            assert [s.is_bot for s in t.seats].count(True) == t.players - len(
                [s for s in t.seats if s.user_id is not None]
            )
        if round_no == 2:
            left_player = boards[0].seats[0] or boards[0].seats[1]
            assert left_player is not None
            _, outcome = await svc.leave_tournament(info.id, left_player)
            assert outcome is not None
        await _play_out(svc, tables)
        (info,) = await svc.advance_tournaments()
    assert info.record.status == "finished"
    # Nobody is paired after leaving.
    assert all(left_player not in b.seats for b in info.round_boards(3))
    # Direct computation of the points from the stored tables.
    expected: Counter[int] = Counter()
    for b in info.boards:
        assert b.table_id is not None
        rec = await svc.store.get(b.table_id)
        assert rec is not None and rec.snapshot is not None
        assert not rec.rated and rec.tournament_id == info.id
        m = match.from_json(rec.snapshot)
        resigned = [s.seat for s in rec.seats if s.resigned]
        places = ratings.placings(m.totals, m.winners, resigned)
        for s in rec.seats:
            if s.user_id is not None:
                mine = places[s.seat]
                assert mine is not None
                beaten = sum(1 for p in places if p is not None and p > mine)
                tied = sum(1 for p in places if p == mine) - 1
                expected[s.user_id] += 2 * beaten + tied
        assert await svc.store.game_results(b.table_id) == []  # unrated: no results, no rating
    assert {s.user_id: s.points for s in info.standings} == {u: expected[u] for u in people}
    ordered = [(s.points, s.buchholz, s.firsts) for s in info.standings]
    assert ordered == sorted(ordered, reverse=True)
    assert next(s for s in info.standings if s.user_id == left_player).left
    # Round 2 (six players at two tables) met as few of round 1's tablemates as can be: two.
    first = [[u for u in b.seats if u is not None] for b in info.round_boards(1)]
    met = {frozenset(p): 1 for g in first for p in combinations(g, 2)}
    assert _repeats((b.seats for b in info.round_boards(2)), met) == 2


async def test_rated_tournament_rates(svc: TableService, casual_computers: None) -> None:
    info = await _open(svc, PEOPLE[:3], rated=True, rounds=1)
    info = await svc.start_tournament(info.id, HOST)
    tables = await _tables_of(svc, info)
    await _play_out(svc, tables)
    results = await svc.store.game_results(tables[0])
    assert {r.user_id for r in results if r.user_id is not None} == set(PEOPLE[:3])
    (info,) = await svc.advance_tournaments()
    assert info.record.status == "finished"
    assert await tstore.active(svc.db, GUILD) == []


async def test_forget_me_withdraws_from_tournaments_then_keeps_no_trace(
    svc: TableService, clock: Clock, casual_computers: None
) -> None:
    """``/privacy forget-me``: the player is unregistered where the tournament has not started,
    and leaves a running one as its leave does (a computer finishes their seat, the table plays
    on); once forgotten, the standings keep their results under the placeholder, with no id."""
    me = PEOPLE[0]
    later = await svc.open_tournament(GUILD, 78, HOST, "la_morte", deals=1)
    await svc.register(later.id, me, "P0")
    running = await _open(svc, PEOPLE[:6], players=3, rounds=1)
    running = await svc.start_tournament(running.id, HOST)
    tables = await _tables_of(svc, running)
    infos, outcomes = await svc.withdraw_from_tournaments(me)
    assert sorted(i.id for i in infos) == [later.id, running.id] and len(outcomes) == 1
    assert (await svc.tournament(later.id)).entrants == ()
    table = outcomes[0].table
    (mine,) = [s for s in table.seats if s.user_id == me]
    assert mine.resigned and table.status == "playing"
    assert [e.left_round for e in await tstore.entrants(svc.db, running.id) if e.user_id == me] == [
        1
    ]

    assert (await StatsService(svc.db, clock=clock).forget(me)).open_tables == ()
    await _play_out(svc, tables)
    (info,) = await svc.advance_tournaments()
    assert info.record.status == "finished"
    assert me not in {e.user_id for e in info.entrants} | {r.user_id for r in info.results}
    assert all(me not in b.seats for b in info.boards)
    gone = [s for s in info.standings if s.name == FORGOTTEN_NAME]
    assert len(gone) == 1 and gone[0].left and gone[0].user_id < 0
    assert len(info.standings) == 6
