"""Table boundaries in the service (issue 28, defects 2, 3 and 4), on both backends.

- Defect 2: a table is used only from its server (a player's own seat also from their DMs), a
  table played in DMs only from that DM channel; one person hosts at most
  ``MAX_HOSTED_LOBBIES`` lobbies and holds at most ``MAX_OPEN_SEATS`` seats at open tables;
  every use case the Discord layer calls with a table id is told where the call came from.
- Defect 3: no rematch of a daily deal; no table starts without a human seated; a rematch seats
  its asker as themselves; a job of computer moves stops at its limits (moves, seconds) and the
  sweeper goes on with the rest, the table's lock free in between.
- Defect 4: **Add computer** (and a rematch) respect the server's "computer players off".
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.db.tables import SeatRecord
from bot.engine.registry import get_rules
from bot.services import step
from bot.services.bounds import MAX_HOSTED_LOBBIES, MAX_OPEN_SEATS, Where
from bot.services.errors import Forbidden, NotSeated, WrongState
from bot.services.models import Outcome
from bot.services.tables import TableService, computer_name
from tests.services.conftest import ANA, BEN, CAL, CHANNEL, GUILD, Clock, passive_payload

# The daily deal's strict expert computers at a fiftieth of their work, in this process.
pytestmark = pytest.mark.usefixtures("quick_expert")

ROOT = Path(__file__).resolve().parents[2]
OTHER_GUILD = GUILD + 1
HERE = Where(GUILD, CHANNEL)
ELSEWHERE = Where(OTHER_GUILD, 999)
DAILY_GAME = "early_french_tarot"
DM = {ANA: 501, BEN: 502}


def _code(excinfo: pytest.ExceptionInfo[Exception]) -> str:
    return getattr(excinfo.value, "code", "")


# ---- defect 2: where a table is used from --------------------------------------------------


async def test_a_servers_table_is_used_from_that_server_and_a_seat_also_from_dms(
    svc: TableService,
) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "la_morte", 3, {}, 0)
    dm = Where(None, DM[BEN])
    for where in (ELSEWHERE, dm):  # the lobby's buttons: only on its server
        with pytest.raises(Forbidden) as refused:
            await svc.join(t.id, BEN, "Ben", where=where)
        assert _code(refused) == "not_here"
        with pytest.raises(Forbidden) as refused:
            await svc.add_computer(t.id, ANA, where=where)
        assert _code(refused) == "not_here"
        for call in (svc.leave(t.id, ANA, where=where), svc.start(t.id, ANA, where=where)):
            with pytest.raises(Forbidden) as refused:
                await call
            assert _code(refused) == "not_here"
    assert (await svc.get_table(t.id)).seq == t.seq  # nothing changed

    await svc.join(t.id, BEN, "Ben", where=Where(GUILD, CHANNEL + 5))  # any channel of it
    await svc.add_computer(t.id, ANA, where=HERE)
    out = await svc.start(t.id, ANA, seed=3, where=HERE)
    assert out.public is not None and out.public.to_act is not None
    turn = out.table.seats[out.public.to_act].user_id
    assert turn is not None
    payload = passive_payload(out.seat_views[out.public.to_act])
    with pytest.raises(Forbidden) as refused:
        await svc.act(t.id, turn, payload, where=ELSEWHERE)
    assert _code(refused) == "not_here"
    for call in (
        svc.snapshot(t.id, turn, where=ELSEWHERE),
        svc.resign(t.id, turn, where=ELSEWHERE),
        svc.im_back(t.id, turn, where=ELSEWHERE),
        svc.hint(t.id, turn, where=ELSEWHERE),
        svc.replace_player(t.id, ANA, BEN, where=ELSEWHERE),
    ):
        with pytest.raises(Forbidden) as refused:
            await call
        assert _code(refused) == "not_here"
    assert (await svc.get_table(t.id)).seq == out.table.seq
    # The player's own hand, in their DMs: a seat's use, allowed (the seat is checked).
    done = await svc.act(t.id, turn, payload, where=Where(None, 12345))
    assert done.table.seq > out.table.seq
    assert (await svc.snapshot(t.id, CAL, where=Where(None, 777))).seat_views == {}
    with pytest.raises(NotSeated):
        await svc.act(t.id, CAL, payload, where=Where(None, 777))


async def test_a_daily_table_is_used_only_from_its_dm_channel(salted: TableService) -> None:
    out = await salted.start_daily(ANA, "Ana", DAILY_GAME, guild_id=GUILD, dm_channel_id=DM[ANA])
    seat = out.table.seat_of(ANA)
    assert seat is not None
    legal = out.seat_views[seat].legal[0].to_json()
    del legal["seat"]
    for where in (HERE, Where(None, DM[BEN])):
        with pytest.raises(Forbidden) as refused:
            await salted.act(out.table.id, ANA, legal, where=where)
        assert _code(refused) == "not_here"
        with pytest.raises(Forbidden) as refused:
            await salted.snapshot(out.table.id, ANA, where=where)
        assert _code(refused) == "not_here"
    done = await salted.act(out.table.id, ANA, legal, where=Where(None, DM[ANA]))
    assert done.table.seq > out.table.seq


async def test_one_person_hosts_and_sits_at_a_bounded_number_of_tables(
    salted: TableService,
) -> None:
    svc = salted
    # A daily deal under way is not counted.
    await svc.start_daily(ANA, "Ana", DAILY_GAME, guild_id=GUILD, dm_channel_id=DM[ANA])
    hosted = [
        await svc.open_lobby(GUILD, CHANNEL + i, ANA, "Ana", "la_morte", 3, {}, 0)
        for i in range(MAX_HOSTED_LOBBIES)
    ]
    with pytest.raises(WrongState) as refused:
        await svc.open_lobby(GUILD, CHANNEL + 50, ANA, "Ana", "la_morte", 3, {}, 0)
    assert _code(refused) == "too_many_lobbies"
    assert refused.value.params == {"most": MAX_HOSTED_LOBBIES}  # type: ignore[attr-defined]
    assert await svc.table_in_channel(CHANNEL + 50) is None
    # Started, a lobby no longer counts as hosted: Ana may open another.
    await svc.add_computer(hosted[0].id, ANA)
    await svc.add_computer(hosted[0].id, ANA)
    await svc.start(hosted[0].id, ANA, seed=1)
    await svc.open_lobby(GUILD, CHANNEL + 50, ANA, "Ana", "la_morte", 3, {}, 0)

    # Seats: Ana now sits at 4 open tables; she joins others' lobbies up to the cap.
    seats = len(await svc.active_tables_for_user(ANA)) - 1  # the daily deal is not counted
    others = [
        await svc.open_lobby(GUILD, CHANNEL + 100 + i, 10_000 + i, f"host{i}", "la_morte", 3, {})
        for i in range(MAX_OPEN_SEATS - seats + 1)
    ]
    for t in others[:-1]:
        await svc.join(t.id, ANA, "Ana")
    with pytest.raises(WrongState) as refused:
        await svc.join(others[-1].id, ANA, "Ana")
    assert _code(refused) == "too_many_seats"
    assert refused.value.params == {"most": MAX_OPEN_SEATS}  # type: ignore[attr-defined]
    left = (await svc.get_table(others[-1].id)).seats
    assert [s.user_id for s in left] == [10_000 + len(others) - 1]
    # Leaving one lobby frees a seat.
    await svc.leave(others[0].id, ANA)
    await svc.join(others[-1].id, ANA, "Ana")


#: Table use cases the Discord layer calls with a table id from a command or a custom_id.
_TOLD_WHERE = {
    "join",
    "leave",
    "add_computer",
    "start",
    "act",
    "rematch",
    "im_back",
    "resign",
    "hint",
    "replace_player",
}


def test_the_discord_layer_tells_every_table_use_case_where_it_was_used() -> None:
    """Every call of those use cases in ``bot/ui`` and ``cogs`` passes ``where=`` (and so does
    ``snapshot`` for a user's own view); ``end_table`` passes the server it was used in."""
    missing: list[str] = []
    files = [*(ROOT / "bot" / "ui").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]
    calls = 0
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            owner = ast.unparse(node.func.value)
            if not owner.endswith("service"):
                continue
            name = node.func.attr
            keywords = {k.arg for k in node.keywords}
            user_view = (
                name == "snapshot"
                and len(node.args) > 1
                and not (isinstance(node.args[1], ast.Constant) and node.args[1].value is None)
            )
            if name in _TOLD_WHERE or user_view:
                calls += 1
                if "where" not in keywords:
                    missing.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    assert calls >= 15  # the walk found the calls (a renamed attribute would hide them)
    assert missing == []


# ---- defect 3: rematches, starts, and bounded computer runs -----------------------------------


async def test_a_daily_deal_has_no_rematch(salted: TableService) -> None:
    out = await salted.start_daily(ANA, "Ana", DAILY_GAME, guild_id=GUILD, dm_channel_id=DM[ANA])
    done = await salted.resign_daily(ANA, DAILY_GAME)
    assert done.table.status == "finished"
    for where in (None, Where(None, DM[ANA])):
        with pytest.raises(WrongState) as refused:
            await salted.rematch(out.table.id, ANA, where=where)
        assert _code(refused) == "rematch_daily"
    with pytest.raises(Forbidden) as refused:  # from a server: not even looked at
        await salted.rematch(out.table.id, ANA, where=HERE)
    assert _code(refused) == "not_here"
    assert await salted.table_in_channel(DM[ANA]) is None  # no lobby in her DMs
    assert await salted.store.game_results(out.table.id) == []


async def test_no_table_starts_without_a_human_seated(svc: TableService, clock: Clock) -> None:
    rules = get_rules("la_morte")
    bots = [SeatRecord(i, None, computer_name(n), is_bot=True) for i, n in enumerate("ABC")]
    table_id = await svc.store.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game_id="la_morte",
        owner_id=ANA,
        players=3,
        options={},
        seed=1,
        rules_version=rules.version,
        seats=bots,
        now=clock.now,
    )
    with pytest.raises(WrongState) as refused:
        await svc.start(table_id, ANA)
    assert _code(refused) == "no_human"
    assert (await svc.get_table(table_id)).status == "lobby"
    assert await svc.store.log(table_id) == []


async def _finished_after_ana_resigned(svc: TableService) -> Outcome:
    """A finished 3-player game of Ana, Ben and a computer where Ana resigned early."""
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "early_french_tarot", 3, {"target": 5}, 1)
    await svc.join(t.id, BEN, "Ben")
    out = await svc.start(t.id, ANA, seed=1)
    out = await svc.resign(t.id, ANA)
    while not out.finished:
        assert out.public is not None and out.public.to_act is not None
        assert out.table.seats[out.public.to_act].user_id == BEN
        out = await svc.act(t.id, BEN, passive_payload(out.seat_views[out.public.to_act]))
    return out


async def test_a_rematch_seats_its_asker_as_themselves(svc: TableService) -> None:
    out = await _finished_after_ana_resigned(svc)
    again = await svc.rematch(out.table.id, ANA, where=HERE)
    assert [(s.user_id, s.is_bot) for s in again.seats] == [
        (ANA, False),
        (None, True),
        (BEN, False),
    ]
    assert again.owner_id == ANA


async def test_a_rematch_where_computers_are_off_leaves_their_seats_free(
    svc: TableService,
) -> None:
    out = await _finished_after_ana_resigned(svc)
    await svc.update_guild_settings(GUILD, computers_allowed=False)
    again = await svc.rematch(out.table.id, BEN)
    assert [(s.seat, s.user_id, s.is_bot) for s in again.seats] == [(0, BEN, False)]
    with pytest.raises(WrongState) as refused:
        await svc.start(again.id, BEN)
    assert _code(refused) == "table_not_full"


@pytest.mark.parametrize("limit", ["moves", "seconds"])
async def test_a_long_computer_run_goes_on_in_later_jobs(
    salted: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch, limit: str
) -> None:
    """A resigned daily deal is played out by the computers (some sixty decisions): each job
    stops at its limit, commits, frees the table, and the sweeper goes on with the rest."""
    if limit == "moves":
        monkeypatch.setattr(step, "COMPUTER_RUN_MOVES", 7)
        most = 7
    else:
        monkeypatch.setattr(step, "COMPUTER_RUN_SECONDS", 0.0)  # one decision a job
        most = 1
    out = await salted.start_daily(ANA, "Ana", DAILY_GAME, guild_id=GUILD, dm_channel_id=DM[ANA])
    tid = out.table.id
    before = out.table.seq
    out = await salted.resign_daily(ANA, DAILY_GAME)
    assert not out.finished and out.table.status == "playing"
    assert out.table.turn_deadline is None  # no human's clock is shown as running
    row = await salted.store.get(tid)
    assert row is not None and row.turn_deadline == clock.now  # due at once, for the sweeper
    async with salted._lock(tid, wait=False) as ours:  # pyright: ignore[reportPrivateUsage]
        assert ours  # the lock is free between two jobs
    made = [out.table.seq - before - 1]  # computer decisions of each job (the first: resign)
    while not out.finished:
        clock.now += 5
        before = out.table.seq
        [out] = (await salted.sweep()).expired
        made.append(out.table.seq - before)
        assert len(made) < 200
    assert out.table.status == "finished" and len(made) > 2
    assert all(1 <= n <= most for n in made), made
    log = await salted.store.log(tid)
    assert [e.payload.get("by") for e in log[-sum(made) :]] == ["ai"] * sum(made)
    mine = await salted.daily_attempt(ANA, DAILY_GAME)
    assert mine is not None and mine.status == "finished" and mine.score is not None
    # Replaying the log gives the committed state: the jobs split the run, nothing else.
    replayed = await salted.replay(tid)
    assert replayed.totals == out.totals


def test_a_job_stops_at_its_limits_but_always_makes_one_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``PlayStep.advance`` alone: every seat a computer's, a whole match to play."""
    from bot.db.tables import TableRecord
    from bot.engine import match
    from bot.services.step import PlayStep, first_dealer

    rec = TableRecord(
        id=1,
        guild_id=GUILD,
        channel_id=CHANNEL,
        game_id="la_morte",
        status="lobby",
        owner_id=ANA,
        players=3,
        options={},
        seed=5,
        rules_version=get_rules("la_morte").version,
        seq=0,
        snapshot_json=None,
        message_id=None,
        turn_deadline=None,
        created_at=0.0,
        updated_at=0.0,
        finished_at=None,
        seats=tuple(SeatRecord(i, None, f"Bot {i}", is_bot=True) for i in range(3)),
    )
    m = match.new_match("la_morte", 3, {}, first_dealer(5, 3))
    for moves, seconds, made in ((10, float("inf"), 10), (10_000, 0.0, 1), (0, 60.0, 1)):
        monkeypatch.setattr(step, "COMPUTER_RUN_MOVES", moves)
        monkeypatch.setattr(step, "COMPUTER_RUN_SECONDS", seconds)
        s = PlayStep(rec, m, rec.seed)
        s.advance()
        assert sum(1 for e in s.entries if e.kind == "act") == made
        assert s.cut_short and s.has_work() and not s.m.finished
