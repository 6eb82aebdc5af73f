"""Focused tests for what fuzzing (``test_fuzz.py``) found, one per bug."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord
from simcord.enums import InteractionType

from bot.db.backends import open_database
from bot.services.errors import NotFound
from bot.services.tables import TableService
from tests.e2e.helpers import said
from tests.resilience.checks import message_text
from tests.resilience.drive import Table, dispatch, logged_errors, make_world, raw_slash


async def test_a_table_id_beyond_sqlite_integers_names_no_table(tmp_path: Path) -> None:
    """Found by fuzzing: ``tb:10000000000000000000000000:hand`` reached SQLite and failed
    with OverflowError ("Something went wrong") instead of "That table no longer exists"."""
    db = await open_database(tmp_path / "ids.sqlite3")
    await db.migrate()
    try:
        service = TableService(db)
        for table_id in (10**25, 1 << 63, -(1 << 64)):
            with pytest.raises(NotFound):
                await service.act(table_id, 1, {"type": "play", "card": "S7"})
            with pytest.raises(NotFound):
                await service.snapshot(table_id, 1)
    finally:
        await db.close()


@pytest.mark.parametrize(
    ("command", "sub", "option"),
    [
        ("oldtarot", "play", {"name": "card", "type": 3, "value": True}),
        ("lamorte", "bid", {"name": "amount", "type": 4, "value": "abc"}),
        ("lamorte", "new", {"name": "seats", "type": 4, "value": 3.5}),
        ("tarot", "chelem", {"name": "announce", "type": 5, "value": "yes"}),
        ("lamorte", "new", {"name": "computers", "type": 4, "value": None}),
    ],
)
async def test_a_wrong_typed_option_is_refused_politely(
    command: str, sub: str, option: dict[str, Any], simcord_env: simcord.Env
) -> None:
    """Found by fuzzing: ``/oldtarot play card:True`` (a command tree out of sync with the
    code can send that) raised AttributeError in the command ("Something went wrong", logged
    as an error); now the option is refused by name before any command code runs."""
    world = make_world(simcord_env, 1)
    member = world.members[0]
    with logged_errors() as errors:
        r = await raw_slash(world, member.id, world.channel.id, command, sub, [option])
    assert said(r).ephemeral and r.response is not None
    assert said(r).content.startswith("⚠️") and f"**{option['name']}**" in said(r).content
    assert not errors.records, [x.getMessage() for x in errors.records]


async def test_a_choice_select_on_a_public_message_never_draws_a_hand_there(
    simcord_env: simcord.Env,
) -> None:
    """Found by fuzzing: a multi-card choice select (``tc:``) pressed on the public table
    message redrew that message as the presser's hand, for the whole channel to read. The
    bot only renders those selects in hands, but the one place that redraws a hand must not
    trust that: the hand now goes to the presser alone."""
    world = make_world(simcord_env, 1)
    alice = world.members[0]
    table = Table(world, "la_morte", [alice], seed=3)
    await table.open(3)
    info = await world.service.get_table(table.table_id)
    assert info.message_id is not None
    public = simcord_env.backend.get_message(world.channel.id, info.message_id)
    before = message_text(public)
    select = {
        "type": 3,
        "custom_id": f"tc:{table.table_id}:discard:0",
        "options": [{"label": "?", "value": "?"}],
        "min_values": 0,
        "max_values": 1,
    }
    r = await dispatch(
        world,
        alice.id,
        world.channel.id,
        InteractionType.MESSAGE_COMPONENT,
        {"custom_id": select["custom_id"], "component_type": 3, "values": []},
        message=public,
        components=[{"type": 1, "components": [select]}],
    )
    assert r.acknowledged and said(r).ephemeral
    assert message_text(simcord_env.backend.get_message(world.channel.id, public.id)) == before


@pytest.mark.parametrize("game_id", ["early_french_tarot", "losers_game"])
async def test_a_choice_select_of_a_game_without_choices_redraws_the_hand(
    game_id: str, simcord_env: simcord.Env
) -> None:
    """Found by fuzzing: a multi-card choice select (``tc:``) reaching a game whose hands
    have no such choice passed the picks to a renderer that takes none (TypeError,
    "Something went wrong"); the picks are now ignored and the hand simply redrawn."""
    world = make_world(simcord_env, 1)
    alice = world.members[0]
    table = Table(world, game_id, [alice], seed=3)
    await table.open(3)
    info = await world.service.get_table(table.table_id)
    seat = info.seats[0]
    assert seat.dm_channel_id is not None and seat.dm_message_id is not None
    hand = simcord_env.backend.get_message(seat.dm_channel_id, seat.dm_message_id)
    custom_id = f"tc:{table.table_id}:discard:0"
    select = {"type": 3, "custom_id": custom_id, "options": [{"label": "S2", "value": "S2"}]}
    with logged_errors() as errors:
        r = await dispatch(
            world,
            alice.id,
            seat.dm_channel_id,
            InteractionType.MESSAGE_COMPONENT,
            {"custom_id": custom_id, "component_type": 3, "values": ["S2"]},
            message=hand,
            components=[{"type": 1, "components": [select]}],
        )
    assert r.acknowledged and not errors.records, [x.getMessage() for x in errors.records]
    assert "Your hand" in message_text(simcord_env.backend.get_message(hand.channel_id, hand.id))
