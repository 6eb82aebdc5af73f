"""Lobby use cases: open, join, leave, add computers, start — and their refusals."""

from __future__ import annotations

import pytest

from bot.services.errors import (
    Forbidden,
    InvalidRequest,
    NotFound,
    NotSeated,
    ServiceError,
    WrongState,
)
from bot.services.tables import TableService
from tests.services.conftest import ANA, BEN, CAL, CHANNEL, DEE, EVE, GUILD


async def _lobby(svc: TableService, computers: int = 0, players: int = 4) -> int:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "la_morte", players, {}, computers)
    return t.id


async def test_open_lobby_seats_owner_and_computers(svc: TableService) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", "la_morte", 4, {"target": 30}, computers=2)
    assert (t.status, t.owner_id, t.players, t.seq) == ("lobby", ANA, 4, 0)
    assert t.options == {"target": 30, "round_limit": None}
    assert [(s.seat, s.user_id, s.name, s.is_bot) for s in t.seats] == [
        (0, ANA, "Ana", False),
        (1, None, "Bot Arturo", True),
        (2, None, "Bot Beatrice", True),
    ]
    assert not t.is_full
    assert await svc.table_in_channel(CHANNEL) == t
    assert await svc.get_table(t.id) == t
    assert await svc.active_tables_for_user(ANA) == [t]


@pytest.mark.parametrize(
    ("game_id", "players", "options", "computers", "code", "params"),
    [
        ("chess", 4, {}, 0, "unknown_game", {"game": "chess"}),
        ("la_morte", 6, {}, 0, "bad_players", {"game": "la_morte", "least": 3, "most": 5}),
        ("la_morte", 4, {"target": 0}, 0, "bad_option", {"option": "target", "least": 1}),
        ("la_morte", 4, {"colour": 1}, 0, "unknown_option", {"option": "colour"}),
        ("la_morte", 4, {}, 4, "too_many_computers", {"players": 4, "most": 3}),
    ],
)
async def test_open_lobby_refusals(
    svc: TableService,
    game_id: str,
    players: int,
    options: dict[str, int],
    computers: int,
    code: str,
    params: dict[str, object],
) -> None:
    with pytest.raises(InvalidRequest) as info:
        await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", game_id, players, options, computers)
    assert info.value.code == code
    assert info.value.params.items() >= params.items()
    assert await svc.table_in_channel(CHANNEL) is None


async def test_one_open_table_per_channel(svc: TableService) -> None:
    table_id = await _lobby(svc)
    with pytest.raises(WrongState, match="channel_busy") as info:
        await svc.open_lobby(GUILD, CHANNEL, BEN, "Ben", "la_morte", 3, {})
    assert info.value.params == {"table": table_id, "game": "la_morte", "status": "lobby"}
    other = await svc.open_lobby(GUILD, CHANNEL + 1, BEN, "Ben", "la_morte", 3, {})
    assert other.id != table_id


async def test_join_until_full(svc: TableService) -> None:
    table_id = await _lobby(svc)
    await svc.join(table_id, BEN, "Ben")
    with pytest.raises(WrongState, match="already_seated"):
        await svc.join(table_id, BEN, "Ben")
    await svc.join(table_id, CAL, "Cal")
    t = await svc.join(table_id, DEE, "Dee")
    assert t.is_full and [s.user_id for s in t.seats] == [ANA, BEN, CAL, DEE]
    with pytest.raises(WrongState, match="table_full"):
        await svc.join(table_id, EVE, "Eve")
    with pytest.raises(WrongState, match="table_full"):
        await svc.add_computer(table_id, ANA)
    with pytest.raises(NotFound):
        await svc.join(table_id + 99, EVE, "Eve")


async def test_leave_renumbers_and_passes_ownership(svc: TableService) -> None:
    table_id = await _lobby(svc)
    await svc.add_computer(table_id, ANA)
    await svc.join(table_id, BEN, "Ben")
    await svc.join(table_id, CAL, "Cal")
    t = await svc.leave(table_id, ANA)
    assert t.owner_id == BEN
    assert [(s.seat, s.name) for s in t.seats] == [(0, "Bot Arturo"), (1, "Ben"), (2, "Cal")]
    assert await svc.get_table(table_id) == t
    with pytest.raises(NotSeated):
        await svc.leave(table_id, ANA)
    t = await svc.leave(table_id, CAL)
    assert t.owner_id == BEN and t.status == "lobby"
    t = await svc.leave(table_id, BEN)  # only a computer is left
    assert t.status == "abandoned"
    assert await svc.table_in_channel(CHANNEL) is None
    with pytest.raises(WrongState):
        await svc.join(table_id, DEE, "Dee")


async def test_add_computer_names_are_distinct(svc: TableService) -> None:
    table_id = await _lobby(svc, computers=1, players=5)
    await svc.join(table_id, BEN, "Ben")
    t = await svc.add_computer(table_id, BEN)
    with pytest.raises(NotSeated):
        await svc.add_computer(table_id, EVE)
    await svc.leave(table_id, BEN)
    t = await svc.add_computer(table_id, ANA)
    t = await svc.add_computer(table_id, ANA)
    names = [s.name for s in t.seats]
    assert len(set(names)) == len(names) == 5
    assert names[1:] == ["Bot Arturo", "Bot Beatrice", "Bot Cosimo", "Bot Delfina"]


async def test_start_refusals(svc: TableService) -> None:
    table_id = await _lobby(svc, computers=1)
    await svc.join(table_id, BEN, "Ben")
    with pytest.raises(WrongState, match="table_not_full") as info:
        await svc.start(table_id, ANA)
    assert info.value.params == {"players": 4, "seated": 3}
    await svc.add_computer(table_id, BEN)
    with pytest.raises(Forbidden, match="host_only_start") as info:
        await svc.start(table_id, BEN)
    assert info.value.params == {"host": "Ana"}
    out = await svc.start(table_id, ANA, seed=5)
    assert out.table.status == "playing"
    with pytest.raises(WrongState, match="already_started"):
        await svc.start(table_id, ANA)
    with pytest.raises(WrongState, match="leave_started"):
        await svc.leave(table_id, BEN)
    with pytest.raises(WrongState):
        await svc.add_computer(table_id, ANA)


async def test_service_errors_carry_codes_not_words(svc: TableService) -> None:
    with pytest.raises(ServiceError) as info:
        await svc.get_table(12345)
    assert str(info.value) == info.value.code == "table_gone" and info.value.params == {}
    assert not hasattr(info.value, "message")  # the Discord layer words it (bot.ui.text.refusals)
