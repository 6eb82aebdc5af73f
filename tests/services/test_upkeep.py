"""Upkeep at the service layer: downtime forgiven, idle lobbies and games ended, a server's or
channel's tables closed, a player's seats given up — on a real SQLite file with a set clock."""

from __future__ import annotations

import pytest

from bot.services.tables import TableService
from tests.services.conftest import ANA, BEN, CHANNEL, GUILD, Clock

HOUR = 3600.0


async def _game(svc: TableService, channel: int = CHANNEL, clock: str = "normal") -> int:
    t = await svc.open_lobby(GUILD, channel, ANA, "Ana", "la_morte", 3, {}, 1, clock=clock)
    await svc.join(t.id, BEN, "Ben")
    return (await svc.start(t.id, ANA, seed=3)).table.id


async def test_downtime_moves_pending_turn_clocks(svc: TableService, clock: Clock) -> None:
    assert await svc.forgive_downtime() == 0.0  # the very first start: nothing to forgive
    tid = await _game(svc)
    before = await svc.store.get(tid)
    assert before is not None and before.turn_deadline is not None
    await svc.heartbeat()
    clock.now += 10 * 60  # down for ten minutes, well past the 2-minute clock
    assert await svc.forgive_downtime() == 600
    after = await svc.store.get(tid)
    assert after is not None and after.turn_deadline == before.turn_deadline + 600
    assert after.reminder_at == (before.reminder_at or 0) + 600
    assert (await svc.sweep()).expired == ()  # nobody is timed out for the downtime
    clock.now += 5  # a quick restart is not worth forgiving
    await svc.heartbeat()
    assert await svc.forgive_downtime(clock.now + 5) == 0.0


async def test_idle_lobbies_and_games_end_unrated(svc: TableService, clock: Clock) -> None:
    lobby = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "la_morte", 3, {}, 0)
    game = await _game(svc, CHANNEL + 1, clock="off")
    clock.now += 23 * HOUR
    assert await svc.expire_idle(None, lobby_idle=24 * HOUR, table_idle=7 * 24 * HOUR) == []
    clock.now += 2 * HOUR
    [ended] = await svc.expire_idle(None, lobby_idle=24 * HOUR, table_idle=7 * 24 * HOUR)
    assert ended.outcome.table.id == lobby.id and ended.outcome.table.status == "abandoned"
    clock.now += 7 * 24 * HOUR
    [ended] = await svc.expire_idle(None, lobby_idle=24 * HOUR, table_idle=7 * 24 * HOUR)
    assert ended.outcome.table.id == game and ended.outcome.table.status == "abandoned"
    assert any(e.type == "abandoned" and e.data.get("idle") for _, e in ended.outcome.events)
    assert await svc.store.game_results(game) == []


async def test_a_servers_and_a_channels_tables_close(svc: TableService) -> None:
    first = await _game(svc, CHANNEL)
    second = await _game(svc, CHANNEL + 1)
    [closed] = await svc.close_channel(CHANNEL + 1)
    assert closed.outcome.table.id == second
    assert (await svc.get_table(first)).status == "playing"
    [closed] = await svc.close_guild(GUILD)
    assert closed.outcome.table.id == first
    assert (await svc.get_table(first)).status == "abandoned"
    assert await svc.close_guild(GUILD) == []


async def test_leaving_everything_resigns_games_and_leaves_lobbies(svc: TableService) -> None:
    game = await _game(svc, CHANNEL)
    lobby = await svc.open_lobby(GUILD, CHANNEL + 1, BEN, "Ben", "la_morte", 3, {}, 0)
    await svc.join(lobby.id, ANA, "Ana")
    outcomes = await svc.leave_all(ANA)
    assert {o.table.id for o in outcomes} == {game, lobby.id}
    assert await svc.active_tables_for_user(ANA) == []
    assert (await svc.get_table(game)).status == "playing"  # Ben plays on with a computer


async def test_command_hashes_are_remembered_per_scope(svc: TableService) -> None:
    assert await svc.synced_commands("global") is None
    await svc.commands_synced("global", "abc")
    await svc.commands_synced("guild:1", "def")
    assert await svc.synced_commands("global") == "abc"
    assert await svc.synced_commands("guild:1") == "def"


CORRUPT = (
    "{not json",  # a truncated write
    '{"game": "la_morte", "format": 999}',  # a shape the engine no longer reads
)


async def _corrupt(svc: TableService, table_id: int, snapshot: str) -> None:
    async with svc.db.transaction() as conn:
        await conn.execute("UPDATE tables SET snapshot_json = ? WHERE id = ?", (snapshot, table_id))


@pytest.mark.parametrize("snapshot", CORRUPT)
async def test_a_table_that_cannot_be_decoded_is_ended_without_replay(
    svc: TableService, clock: Clock, snapshot: str
) -> None:
    """Its host (or an admin) ends it, and idle expiry closes it, unrated, without decoding
    it; its channel takes a new table (issue 28, defect 8)."""
    host_ended = await _game(svc, CHANNEL, clock="off")
    idle = await _game(svc, CHANNEL + 1, clock="off")
    for tid in (host_ended, idle):
        await _corrupt(svc, tid, snapshot)
    svc = TableService(svc.db, clock=clock)  # restarted: nothing decoded in memory
    before = await svc.store.get(host_ended)
    assert before is not None
    out = await svc.end_table(host_ended, ANA)  # seated, with Ben playing: still unrated
    assert out.table.status == "abandoned"
    assert any(e.type == "abandoned" for _, e in out.events)
    row = await svc.store.get(host_ended)
    assert row is not None and row.status == "abandoned" and row.finished_at == clock.now
    assert row.seq > before.seq and row.snapshot_json is None  # dropped: never read again
    pending = await svc.unshown_outcome(host_ended)  # re-publishing decodes nothing
    assert pending is not None and pending.table.status == "abandoned"
    assert await svc.store.game_results(host_ended) == []
    await svc.open_lobby(GUILD, CHANNEL, BEN, "Ben", "la_morte", 3, {})  # the channel is free

    clock.now += 8 * 24 * HOUR
    ended = await svc.expire_idle(None, lobby_idle=24 * HOUR, table_idle=7 * 24 * HOUR)
    [closed] = [e.outcome for e in ended if e.outcome.table.id == idle]
    assert closed.table.status == "abandoned"
    assert await svc.store.game_results(idle) == []
    assert await svc.table_in_channel(CHANNEL + 1) is None


async def test_the_synced_command_ids_are_remembered(svc: TableService) -> None:
    assert await svc.command_ids() == {}
    await svc.command_ids_synced({"lamorte": 11, "help": 12})
    assert await svc.command_ids() == {"lamorte": 11, "help": 12}
