"""REST budget: the REST calls the bot makes, besides answering interactions, per card played
in a whole 4-seat La Morte game with one human and three computer players.

Every computer card is a change someone must see, but the bot should redraw the table once
per burst of computer moves, not once per card. The figure is printed (run this file with
``-s``); the test fails if it regresses past ``LIMIT`` (the target is 1.5 or less).
"""

from __future__ import annotations

import simcord

from tests.resilience.drive import Table, make_world

LIMIT = 2.0


def answers_an_interaction(path: str) -> bool:
    """Interaction callbacks and the followup/original-response webhooks of their tokens."""
    return path.startswith(("/interactions/", "/webhooks/"))


async def test_rest_calls_per_card_played(simcord_env: simcord.Env) -> None:
    env = simcord_env
    world = make_world(env, 1)
    first = len(env.http_requests)  # not the bot's start-up (login, command sync)
    table = Table(world, "la_morte", world.members, seed=1)
    await table.open(4, {})  # the default game: to 50 points
    await table.play()

    calls = env.http_requests[first:]
    other = [c for c in calls if not answers_an_interaction(c.path)]
    log = await world.service.store.log(table.table_id)
    plays = [e for e in log if e.kind == "act" and e.payload["type"] == "play"]
    mine = [e for e in plays if "by" not in e.payload]
    out = await world.service.snapshot(table.table_id)
    assert out.finished and out.deals_played > 1 and plays
    per_card = len(other) / len(plays)
    print(
        f"\nLa Morte, 1 human + 3 computers, {out.deals_played} deals: {len(plays)} cards played "
        f"({len(mine)} by the human), {len(calls)} REST calls, {len(calls) - len(other)} "
        f"answering interactions, {len(other)} others = {per_card:.2f} per card played"
    )
    assert per_card <= LIMIT
