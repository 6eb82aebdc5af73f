"""An unfinished "Try another way" replay is replaced, not in the way (issue 33), end to end.

alice plays an expert table, opens her Review, tries another way and walks away from that
replay. Trying another way again plays a new replay in her DMs at once; the old one's messages
say it was replaced and keep no decision controls, and a click on its old buttons (as a stale
client or a crafted id would send it) is refused privately and changes nothing. Then
``/daily`` replaces the new one in turn, and her daily deal plays.

Early French Tarot with the expert at a fiftieth of its work (``test_daily_e2e``'s fixtures:
the daily's salt and clock, the computers thinking in this process).
"""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import (
    components,
    dm_hand,
    embed_text,
    has_controls,
    private_answer,
    said,
    take_turn,
)
from tests.e2e.test_daily_e2e import (  # noqa: F401  (fixtures: the daily's bot and computers)
    GAME,
    clock,
    daily_bot,
    quick_expert,
    simcord_bot,
    start,
)
from tests.e2e.test_levels_hints_review_e2e import open_table, play_out
from tests.e2e.test_server_checks_e2e import crafted_click
from tests.resilience.drive import World

REPLACED = "Replaced by a new game in your DMs"


def table_messages(member: Any, table_id: int) -> list[Any]:
    """The member's DM messages of table ``table_id`` (its table message and its hand)."""
    return [m for m in member.user.dm_channel.history() if f"table #{table_id}" in embed_text(m)]


async def test_an_unfinished_replay_is_replaced_by_the_next_and_by_the_daily(
    world: tuple[Any, ...],
) -> None:
    env, guild, channel, alice, _bob, _carol = world
    service = env.bot.service
    lobby = await open_table(channel, alice, computers=1, level="expert")
    assert (await alice.click(lobby, label="Start")).acknowledged
    await play_out([alice])
    summary = next(m for m in channel.history() if "hand 1 score sheet" in embed_text(m))
    review = private_answer(channel, alice, await alice.click(summary, label="Review"))
    menu = next(c for c in components(review) if (c.custom_id or "").startswith("rp:1:1"))

    # A first replay, left unfinished: its hand waits for alice's decision.
    r = await alice.select(review, [menu.options[0].value], custom_id=menu.custom_id)
    assert "dealt again in your DMs" in (said(r).content or "")
    old_hand = dm_hand(alice)
    assert has_controls(old_hand) and "table #2" in embed_text(old_hand)
    assert old_hand is not None
    stale = next(c.custom_id for c in components(old_hand) if ":act:" in (c.custom_id or ""))

    # Another way again: the new replay plays at once, the old one says it was replaced.
    r = await alice.select(review, [menu.options[-1].value], custom_id=menu.custom_id)
    assert "dealt again in your DMs" in (said(r).content or ""), said(r).content
    assert (await service.get_table(3)).status == "playing"
    new_hand = dm_hand(alice)
    assert new_hand is not None and "table #3" in embed_text(new_hand) and has_controls(new_hand)
    olds = table_messages(alice, 2)
    assert len(olds) == 2 and all(REPLACED in embed_text(m) for m in olds)
    assert not any(has_controls(m) for m in olds)
    old = await service.get_table(2)
    assert (old.status, old.end_reason) == ("abandoned", "replaced")

    # The old replay's button, clicked anyway: refused privately, nothing changes.
    here = World(env, guild, channel, [alice])
    r = await crafted_click(here, alice.user, olds[-1], stale)
    assert r.acknowledged and said(r).ephemeral
    assert "replaced by a new game in your DMs" in (said(r).content or "")
    assert (await service.get_table(2)).seq == old.seq
    await take_turn(alice, new_hand)  # the new one plays on
    assert (await service.get_table(3)).seq > 0

    # /daily with that replay unfinished: the replay is replaced, the daily deal plays.
    answer = await start(alice, channel)
    assert "deal]" in (answer.content or "") and "is in your DMs" in answer.content
    assert all(REPLACED in embed_text(m) for m in table_messages(alice, 3))
    mine = await service.daily_attempt(alice.id, GAME)
    assert mine is not None and mine.status == "playing"
    assert has_controls(dm_hand(alice)) and f"table #{mine.table_id}" in embed_text(dm_hand(alice))
