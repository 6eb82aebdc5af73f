"""Double clicks: two simultaneous requests for the same decision apply exactly once, and the
second is told, politely, that it was already played.

Once at the service (``asyncio.gather`` of two ``act`` calls, where concurrency is real), and
once through Discord: two INTERACTION_CREATEs for the same card of the same hand message
delivered together, as a double click on a slow connection would.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.ai import random_policy
from bot.db.backends import open_database
from bot.engine import match
from bot.engine.registry import get_rules
from bot.services.errors import IllegalMove, WrongState
from bot.services.models import Outcome
from bot.services.tables import TableService
from tests.e2e.helpers import said
from tests.resilience.drive import Table, gestures, landed_games, make_world, send_together

GAMES = landed_games()
ALREADY = "You already played that."
USERS = (101, 102)


def payload_of(out: Outcome, seat: int, rng: random.Random) -> dict[str, Any]:
    action = random_policy(out.seat_views[seat], rng).to_json()
    del action["seat"]
    return action


async def human_entries(service: TableService, table_id: int) -> int:
    return sum(
        1 for e in await service.store.log(table_id) if e.kind == "act" and "by" not in e.payload
    )


@pytest.mark.parametrize("humans", [1, 2])
@pytest.mark.parametrize("game_id", GAMES)
async def test_two_simultaneous_acts_apply_once(game_id: str, humans: int, tmp_path: Path) -> None:
    """Every kind of decision of a whole game is double-clicked (the first of each kind, and
    every card play of one human): one applies, the other hears "already played"."""
    db = await open_database(tmp_path / "double.sqlite3")
    await db.migrate()
    try:
        service = TableService(db, seed_source=lambda: 4242)
        rules = get_rules(game_id)
        seats = max(rules.min_players, 3)
        table = await service.open_lobby(1, 2, USERS[0], "ana", game_id, seats, {}, seats - humans)
        if humans == 2:
            await service.join(table.id, USERS[1], "ben")
        out = await service.start(table.id, USERS[0])
        rng = random.Random(humans)
        doubled: set[str] = set()
        crossed = 0  # double clicks whose first click ended a deal (the twin meets a new hand)
        for _ in range(400):
            if out.finished:
                break
            assert out.public is not None and out.public.to_act is not None
            seat = out.public.to_act
            user = out.table.seats[seat].user_id
            assert user is not None
            payload = payload_of(out, seat, rng)
            if payload["type"] in doubled and not (payload["type"] == "play" and seat == 0):
                out = await service.act(table.id, user, payload)
                continue
            doubled.add(payload["type"])
            before = await human_entries(service, table.id)
            results = await asyncio.gather(
                service.act(table.id, user, payload),
                service.act(table.id, user, payload),
                return_exceptions=True,
            )
            applied = [r for r in results if isinstance(r, Outcome)]
            refused = [r for r in results if not isinstance(r, Outcome)]
            assert len(applied) == 1 and len(refused) == 1, results
            if applied[0].finished:  # the last card: the second click finds the game over
                assert isinstance(refused[0], WrongState) and refused[0].code == "game_over"
            else:
                assert isinstance(refused[0], IllegalMove), refused[0]
                assert refused[0].code == "already_played", (payload, str(refused[0]))
            assert await human_entries(service, table.id) == before + 1
            out = applied[0]
            crossed += out.new_deal
        if humans == 1 and out.deals_played > 1:  # every deal but the last ended that way
            assert crossed >= 1
        assert "play" in doubled and len(doubled) >= 1
        rec = await service.store.get(table.id)
        assert rec is not None and rec.snapshot is not None
        assert await service.replay(table.id) == match.from_json(rec.snapshot)
    finally:
        await db.close()


@pytest.mark.parametrize("game_id", GAMES)
async def test_double_click_on_a_card_through_discord(
    game_id: str, simcord_env: simcord.Env
) -> None:
    """Two clicks on the same card of a DM hand, delivered together: the card is played once,
    the hand is redrawn once, and the second click gets an ephemeral "already played"."""
    world = make_world(simcord_env, 2, pictures=False)
    alice = world.members[0]
    table = Table(world, game_id, [alice], seed=7)
    await table.open(max(get_rules(game_id).min_players, 3), {})  # the default, long game
    for _ in range(300):
        dm = await table.hand(alice)
        assert dm is not None
        offered = gestures(dm)
        card = next((g for g in offered if ":play:" in g.custom_id), None)  # tap or menu
        if card is not None:
            break
        assert await table.step(), "the game ended before alice played a card"
    else:
        raise AssertionError("no card play reached")
    before = await human_entries(world.service, table.table_id)
    stored = simcord_env.backend.get_message(dm.channel.id, dm.id)
    results = await send_together(world, alice.id, stored, card, copies=2)
    assert all(r.acknowledged for r in results)
    warned = [r for r in results if said(r).ephemeral]
    assert len(warned) == 1, results
    assert said(warned[0]).content == f"⚠️ {ALREADY}"
    assert await human_entries(world.service, table.table_id) == before + 1
