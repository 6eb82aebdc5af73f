"""Playing through TableService on a real SQLite file: whole games, replay, restarts,
concurrent clicks, resigning, timeouts and the user-facing errors."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.db.backends import open_database
from bot.db.database import Database
from bot.engine import match
from bot.engine.deck import deal_seed, shuffle
from bot.engine.registry import get_rules
from bot.services.errors import (
    Conflict,
    IllegalMove,
    NotSeated,
    ServiceError,
    WrongState,
)
from bot.services.models import Outcome
from bot.services.stats import Board, StatsService
from bot.services.tables import TableService, first_dealer
from tests.backends import MakeTarget
from tests.services.conftest import (
    ANA,
    BEN,
    CAL,
    CHANNEL,
    DEE,
    GUILD,
    Clock,
    passive_payload,
    smart_payload,
    user_to_act,
)


async def _board(svc: TableService, viewer: int) -> Board:
    """This server's all-time La Morte board by games played."""
    stats = StatsService(svc.db)
    return await stats.leaderboard(
        game_id="la_morte", viewer=viewer, guild_id=GUILD, metric="games"
    )


async def _solo_table(
    svc: TableService, seed: int, clock: str | None = None, **options: int
) -> Outcome:
    t = await svc.open_lobby(
        GUILD, CHANNEL, ANA, "Ana", "la_morte", 4, options, computers=3, clock=clock
    )
    return await svc.start(t.id, ANA, seed=seed)


async def _four_humans(svc: TableService, seed: int) -> Outcome:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "la_morte", 4, {})
    for user, name in ((BEN, "Ben"), (CAL, "Cal"), (DEE, "Dee")):
        await svc.join(t.id, user, name)
    return await svc.start(t.id, ANA, seed=seed)


def _card_play_pending(out: Outcome) -> bool:
    assert out.public is not None and out.public.to_act is not None
    return out.seat_views[out.public.to_act].legal[0].type == "play"


async def _smart_move(svc: TableService, out: Outcome, rng: random.Random) -> Outcome:
    assert out.public is not None and out.public.to_act is not None
    view = out.seat_views[out.public.to_act]
    return await svc.act(out.table.id, user_to_act(out), smart_payload(view, rng))


async def _assert_replay_matches(svc: TableService, table_id: int) -> None:
    rec = await svc.store.get(table_id)
    assert rec is not None and rec.snapshot is not None
    assert await svc.replay(table_id) == match.from_json(rec.snapshot)
    assert rec.seq == len(await svc.store.log(table_id))


async def test_start_is_predictable_from_the_seed(svc: TableService) -> None:
    out = await _four_humans(svc, seed=4242)
    rules = get_rules("la_morte")
    dealer = first_dealer(4242, 4)
    expected = rules.new_deal(4, {}, shuffle(rules.pack(4), deal_seed(4242, 0)), dealer)
    assert out.public == rules.observe_public(expected)
    assert out.seat_views[2] == rules.observe(expected, 2)
    assert out.new_deal and out.deal_number == 1 and out.deals_played == 0
    assert out.events == ((1, out.events[0][1]),)
    assert out.events[0][1].type == "deal_started" and out.events[0][1].seat == dealer
    log = await svc.store.log(out.table.id)
    assert [(e.seq, e.kind) for e in log] == [(1, "deal")]
    assert log[0].payload["deck"] == list(shuffle(rules.pack(4), deal_seed(4242, 0)))
    assert out.table.seq == 1 and out.table.status == "playing"


async def test_full_game_one_human_three_computers(svc: TableService) -> None:
    out = await _solo_table(svc, seed=7)
    table_id = out.table.id
    assert set(out.seat_views) == {0}
    ended: list[int] = []
    acts = 0
    while not out.finished:
        assert out.public is not None and out.public.to_act == 0  # only the human is waited on
        out = await svc.act(table_id, ANA, passive_payload(out.seat_views[0]))
        acts += 1
        ended += [d.number for d in out.ended_deals]
        for d in out.ended_deals:
            assert d.public.result == d.result
        numbers = [n for n, _ in out.events]
        assert numbers == sorted(numbers)
        assert out.table.seq == (await svc.get_table(table_id)).seq
        if acts == 40:
            await _assert_replay_matches(svc, table_id)  # mid-game
    assert ended == list(range(1, out.deals_played + 1))
    assert out.table.status == "finished" and out.winners
    assert any(e.type == "match_over" for _, e in out.events)
    await _assert_replay_matches(svc, table_id)

    results = await svc.store.game_results(table_id)
    assert [(r.seat, r.user_id, r.score) for r in results] == [
        (0, ANA, out.totals[0]),
        (1, None, out.totals[1]),
        (2, None, out.totals[2]),
        (3, None, out.totals[3]),
    ]
    assert [r.seat for r in results if r.won] == list(out.winners)
    deals = await svc.store.deal_results(table_id)
    assert [d.deal_no for d in deals] == ended
    assert [sum(col) for col in zip(*(d.deltas for d in deals), strict=True)] == list(out.totals)

    board = await _board(svc, ANA)
    assert [(e.player_id, e.name, e.games, e.points) for e in board.entries] == [
        (ANA, "Ana", 1, out.totals[0])
    ]
    assert await svc.table_in_channel(CHANNEL) is None
    with pytest.raises(WrongState, match="game_over"):
        await svc.act(table_id, ANA, {"type": "drop"})


async def _run_game(path: str, seed: int, interrupt_at: int | None) -> tuple[object, ...]:
    """Play a 1-human game; optionally close everything after ``interrupt_at`` acts and
    continue with a NEW Database and TableService on the same file (a bot restart)."""
    clock = Clock()
    db = await open_database(path)
    await db.migrate()
    svc = TableService(db, seed_source=lambda: 1, clock=clock)
    try:
        out = await _solo_table(svc, seed=seed)
        table_id = out.table.id
        acts = 0
        rng = random.Random(99)
        while not out.finished:
            if acts == interrupt_at:
                await db.close()
                db = await open_database(path)
                await db.migrate()
                svc = TableService(db, seed_source=lambda: 2, clock=clock)
                out = await svc.snapshot(table_id, ANA)
            out = await svc.act(table_id, ANA, smart_payload(out.seat_views[0], rng))
            acts += 1
        log = [(e.seq, e.kind, e.seat, e.payload) for e in await svc.store.log(table_id)]
        await _assert_replay_matches(svc, table_id)
        return out.totals, out.winners, out.deals_played, log
    finally:
        await db.close()


async def test_restart_mid_game_gives_the_same_result(make_target: MakeTarget) -> None:
    straight = await _run_game(await make_target("a"), seed=31337, interrupt_at=None)
    restarted = await _run_game(await make_target("b"), seed=31337, interrupt_at=25)
    assert restarted == straight


async def test_two_concurrent_clicks_apply_once(svc: TableService) -> None:
    out = await _four_humans(svc, seed=11)
    rng = random.Random(1)
    while not _card_play_pending(out):  # get to a card play, where a double click matters
        out = await _smart_move(svc, out, rng)
    assert out.public is not None
    seat = out.public.to_act
    assert seat is not None
    user = user_to_act(out)
    payload = passive_payload(out.seat_views[seat])
    before = len(await svc.store.log(out.table.id))
    results = await asyncio.gather(
        svc.act(out.table.id, user, payload),
        svc.act(out.table.id, user, payload),
        return_exceptions=True,
    )
    ok = [r for r in results if isinstance(r, Outcome)]
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(ok) == 1 and len(errors) == 1
    assert isinstance(errors[0], IllegalMove) and errors[0].code == "already_played"
    assert errors[0].params == {}
    log = await svc.store.log(out.table.id)
    assert len(log) == before + 1 and log[-1].payload == {**payload, "seat": seat}
    await _assert_replay_matches(svc, out.table.id)


async def test_two_processes_racing_on_one_database(svc: TableService, db_target: str) -> None:
    """A second Database/TableService on the same database stands in for a second process:
    on SQLite the loser is refused (``seq``), on PostgreSQL it waits for the table's lock and
    then finds its move made (a double click)."""
    out = await _four_humans(svc, seed=12)
    seat = out.public.to_act if out.public else None
    assert seat is not None
    payload = passive_payload(out.seat_views[seat])
    other_db = await open_database(db_target)
    try:
        other = TableService(other_db)
        results = await asyncio.gather(
            svc.act(out.table.id, user_to_act(out), payload),
            other.act(out.table.id, user_to_act(out), payload),
            return_exceptions=True,
        )
    finally:
        await other_db.close()
    ok = [r for r in results if isinstance(r, Outcome)]
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(ok) == 1 and len(errors) == 1
    if svc.db.dialect.shared:  # waited for the table's lock, then saw its twin applied
        assert isinstance(errors[0], IllegalMove) and errors[0].code == "already_played"
    else:
        assert isinstance(errors[0], Conflict | IllegalMove), errors[0]
    assert len(await svc.store.log(out.table.id)) == 2
    await _assert_replay_matches(svc, out.table.id)


async def test_turn_and_legality_errors_are_friendly(svc: TableService) -> None:
    out = await _four_humans(svc, seed=3)
    assert out.public is not None and out.public.to_act is not None
    seat = out.public.to_act
    waiting = out.table.seats[seat]
    idle = next(s for s in out.table.seats if s.seat != seat)
    assert idle.user_id is not None
    with pytest.raises(IllegalMove) as info:
        await svc.act(out.table.id, idle.user_id, {"type": "drop"})
    assert info.value.code == str(info.value) == "not_your_turn"
    assert info.value.params == {"game": "la_morte", "waiting": waiting.name}
    assert waiting.user_id is not None
    with pytest.raises(IllegalMove) as info:
        await svc.act(out.table.id, waiting.user_id, {"type": "play", "card": "S7"})
    assert info.value.code == "illegal_action"
    assert info.value.params == {
        "game": "la_morte",
        "reason": "kind_not_now",
        "kind": "play",
        "allowed": ["bid", "drop"],  # nobody bid yet: nothing to accept
    }
    with pytest.raises(IllegalMove) as info:
        await svc.act(out.table.id, waiting.user_id, {"type": "bid", "amount": 12})
    assert info.value.params == {
        "game": "la_morte",
        "reason": "bad_amount",
        "kind": "bid",
        "amount": 12,
        "least": 1,
        "most": 9,
    }
    with pytest.raises(IllegalMove) as info:
        await svc.act(out.table.id, waiting.user_id, {"type": "fold"})
    assert info.value.code == "bad_action" and info.value.params["reason"] == "other"
    with pytest.raises(NotSeated):
        await svc.act(out.table.id, 999, {"type": "drop"})
    assert (await svc.get_table(out.table.id)).seq == 1  # nothing changed


async def test_expect_seq_rejects_stale_buttons(svc: TableService) -> None:
    out = await _four_humans(svc, seed=4)
    user = user_to_act(out)
    with pytest.raises(Conflict):
        await svc.act(out.table.id, user, {"type": "drop"}, expect_seq=out.table.seq - 1)
    after = await svc.act(out.table.id, user, {"type": "drop"}, expect_seq=out.table.seq)
    assert after.table.seq == out.table.seq + 1


async def test_expect_deal_rejects_a_click_from_an_earlier_deal(svc: TableService) -> None:
    """A button drawn for deal 1 (e.g. a late double click on its last card) never acts in
    deal 2, even when the same action is legal there."""
    out = await _solo_table(svc, seed=12)
    tid = out.table.id
    rng = random.Random(0)
    while out.deal_number == 1 and not out.finished:
        out = await _smart_move(svc, out, rng)
    assert out.deal_number == 2
    seq = out.table.seq
    view = out.seat_views[0]
    payload = view.legal[0].to_json()
    del payload["seat"]
    with pytest.raises(Conflict, match="earlier_deal"):
        await svc.act(tid, ANA, payload, expect_deal=1)
    assert (await svc.get_table(tid)).seq == seq
    after = await svc.act(tid, ANA, payload, expect_deal=2)
    assert after.table.seq > seq


async def test_snapshot_and_legal_cards(svc: TableService) -> None:
    out = await _solo_table(svc, seed=21)
    table_id = out.table.id
    snap = await svc.snapshot(table_id, ANA)
    assert snap.public == out.public and snap.seat_views == out.seat_views
    assert snap.events == () and not snap.new_deal
    assert (await svc.snapshot(table_id, 999)).seat_views == {}
    assert set((await svc.snapshot(table_id)).seat_views) == {0}
    rng = random.Random(5)
    saw_cards = False
    for _ in range(60):
        view = out.seat_views[0]
        plays = [a.card for a in view.legal if a.type == "play"]
        cards = await svc.legal_cards(table_id, ANA)
        assert sorted(cards) == sorted(c for c in plays if c)
        assert cards == [c for c in view.hand if c in cards]  # hand display order
        saw_cards = saw_cards or bool(cards)
        assert await svc.legal_cards(table_id, 999) == []
        out = await svc.act(table_id, ANA, smart_payload(view, rng))
        if out.finished:
            break
    assert saw_cards
    lobby = await svc.open_lobby(GUILD, CHANNEL + 5, BEN, "Ben", "la_morte", 3, {})
    assert (await svc.snapshot(lobby.id, BEN)).public is None
    assert await svc.legal_cards(lobby.id, BEN) == []
    with pytest.raises(WrongState):
        await svc.replay(lobby.id)


async def test_resigned_seat_is_played_by_a_computer(svc: TableService) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "la_morte", 4, {}, computers=2)
    await svc.join(t.id, BEN, "Ben")
    out = await svc.start(t.id, ANA, seed=8)
    out = await svc.resign(t.id, BEN)
    assert out.events[0][1].type == "resigned" and out.events[0][1].seat == 3
    assert out.table.seats[3].resigned and out.table.seat_of(BEN) is None
    assert set(out.seat_views) == {0}
    assert out.public is not None and out.public.to_act == 0
    with pytest.raises(NotSeated):
        await svc.act(t.id, BEN, {"type": "drop"})
    with pytest.raises(NotSeated):
        await svc.resign(t.id, BEN)
    assert await svc.active_tables_for_user(BEN) == []
    assert (await svc.snapshot(t.id, BEN)).seat_views == {}
    log = await svc.store.log(t.id)
    assert [e.kind for e in log].count("resign") == 1
    rng = random.Random(2)
    while not out.finished:
        out = await svc.act(t.id, ANA, smart_payload(out.seat_views[0], rng))
    results = {r.seat: r for r in await svc.store.game_results(t.id)}
    assert results[3].user_id == BEN and not results[3].won
    assert results[3].score == out.totals[3]  # the seat's score still counts
    await _assert_replay_matches(svc, t.id)
    board = {e.player_id: e for e in (await _board(svc, BEN)).entries}
    assert board[BEN].games == 1 and board[BEN].wins == 0


async def test_last_human_resigning_abandons_the_table(svc: TableService) -> None:
    out = await _solo_table(svc, seed=9)
    out = await svc.resign(out.table.id, ANA)
    assert out.table.status == "abandoned"
    assert [e.type for _, e in out.events] == ["resigned", "abandoned"]
    assert await svc.store.game_results(out.table.id) == []
    assert await svc.table_in_channel(CHANNEL) is None
    assert (await _board(svc, ANA)).entries == ()
    with pytest.raises(WrongState):
        await svc.resign(out.table.id, ANA)


async def test_overdue_turns_are_played_by_the_computer(db: Database, clock: Clock) -> None:
    svc = TableService(db, seed_source=lambda: 5, clock=clock)
    out = await _solo_table(svc, seed=10, clock="normal")
    seq = out.table.seq
    assert await svc.expire_overdue(clock.now + 119) == []
    clock.now += 121
    [expired] = await svc.expire_overdue()
    assert expired.events[0][1].type == "timed_out" and expired.events[0][1].seat == 0
    assert expired.table.seq > seq
    log = await svc.store.log(out.table.id)
    assert log[seq].payload["by"] == "timeout" and log[seq].seat == 0
    assert await svc.expire_overdue() == []  # a fresh deadline for the next decision
    await _assert_replay_matches(svc, out.table.id)


async def test_nothing_expires_without_a_timeout(svc: TableService, clock: Clock) -> None:
    await _solo_table(svc, seed=10)
    assert await svc.expire_overdue(clock.now + 10**9) == []


async def test_every_error_is_a_service_error(svc: TableService) -> None:
    out = await _solo_table(svc, seed=13)
    calls: list[Callable[[], Awaitable[object]]] = [
        lambda: svc.act(out.table.id, 555, {"type": "drop"}),
        lambda: svc.act(out.table.id, ANA, "not a dict"),  # type: ignore[arg-type]
        lambda: svc.act(out.table.id, ANA, {"type": "bid", "amount": "3"}),
        lambda: svc.join(out.table.id, BEN, "Ben"),
        lambda: svc.start(out.table.id, ANA),
        lambda: svc.resign(out.table.id + 1, ANA),
    ]
    for call in calls:
        with pytest.raises(ServiceError):
            await call()


async def test_play_survives_retained_cursors(svc: TableService) -> None:
    """Keep every asyncio Future (and so every aiosqlite cursor) alive, as SimCord does: no
    statement of the service may rely on its cursor being freed to be finalised."""
    loop = asyncio.get_running_loop()
    kept: list[asyncio.Future[Any]] = []
    create_future = loop.create_future

    def retaining() -> asyncio.Future[Any]:
        future = create_future()
        kept.append(future)
        return future

    loop.create_future = retaining  # type: ignore[method-assign]
    try:
        out = await _solo_table(svc, seed=17)
        rng = random.Random(3)
        for _ in range(30):
            if out.finished:
                break
            out = await svc.act(out.table.id, ANA, smart_payload(out.seat_views[0], rng))
        await svc.snapshot(out.table.id, ANA)
        await svc.legal_cards(out.table.id, ANA)
        await svc.resign(out.table.id, ANA)
        await _board(svc, ANA)
    finally:
        del loop.create_future  # type: ignore[attr-defined]
    assert len(kept) > 100


async def test_memoised_state_never_hides_another_process_move(
    svc: TableService, db_target: str
) -> None:
    """Two services (two "processes") take turns on one table: each must see the other's
    moves although it keeps a decoded copy of the state it last wrote."""
    out = await _four_humans(svc, seed=14)
    other_db = await open_database(db_target)
    try:
        other = TableService(other_db)
        rng = random.Random(6)
        services = (svc, other)
        for i in range(40):
            if out.finished:
                break
            current = services[i % 2]
            snap = await current.snapshot(out.table.id)
            assert snap.public == out.public and snap.table.seq == out.table.seq
            out = await _smart_move(current, snap, rng)
        await _assert_replay_matches(other, out.table.id)
    finally:
        await other_db.close()
