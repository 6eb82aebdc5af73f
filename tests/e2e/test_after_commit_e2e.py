"""A decision is saved, then drawing the answer fails (issue 28, defect 8; review item 20): the
player is told, privately, that their move was made, and the table is published at once, not
"the game is unchanged" and a wait for the sweeper."""

from __future__ import annotations

from typing import Any

import pytest

from bot.services.tables import TableService
from tests.e2e.helpers import dm_hand, has_controls, said, take_turn

pytestmark = pytest.mark.pictures  # a picture that cannot be drawn


async def test_a_failed_redraw_after_a_committed_move_says_the_move_was_made(
    world: tuple[Any, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    env, _guild, channel, alice, _bob, _carol = world
    await alice.slash(channel, "lamorte new", seats=3, computers=2)
    await alice.click(channel.last_message, label="Start")
    await env.settle()
    service: TableService = env.bot.service
    before = await service.get_table(1)
    hand = dm_hand(alice)
    assert hand is not None and has_controls(hand)

    screens = env.bot.controller.screens  # what draws a hand, for the handlers and delivery
    draw = screens.hand_with_picture
    failures: list[int] = []

    async def fails_once(*args: Any, **kwargs: Any) -> dict[str, Any]:
        if not failures:  # the answer to the click: the move is already committed
            failures.append(1)
            raise RuntimeError("a picture could not be drawn")
        return await draw(*args, **kwargs)

    monkeypatch.setattr(screens, "hand_with_picture", fails_once)
    r = await take_turn(alice, hand)
    answer = said(r)
    assert failures and answer.ephemeral
    assert "Your move was made" in answer.content and "unchanged" not in answer.content

    after = await service.get_table(1)
    assert after.seq > before.seq  # the move counts
    await env.settle()
    # Published straight away (the channel and the DM show it), with no sweep to wait for.
    assert (await service.get_table(1)).shown_seq == after.seq
