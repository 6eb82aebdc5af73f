"""Computer levels, hints and deal reviews end to end through SimCord (issue 18).

Real users drive the real bot: an expert table plays to its end (its computers named as
experts, rated as their own entity); ``/oldtarot hint`` at a practice table answers privately
with the expert's choice and the alternatives it weighed, and is refused at a rated table, to
someone not seated and out of turn; the **Review** button of a deal summary answers its
player privately, is refused to a stranger and still works after a restart; a game with expert
computers restarted in the middle plays on exactly as the same game without a restart.

Early French Tarot to 10, the cheapest game the expert plays (twelve tricks, card play only).
The expert thinks with a fiftieth of its in-game budget (``EXPERT_EFFORT``) to keep these tests
quick: the same search, on fewer sampled deals.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.services import ratings, step
from bot.services.tables import TableService
from tests.e2e.helpers import (
    components,
    dm_hand,
    embed_text,
    has_controls,
    labels,
    private_answer,
    said,
    take_turn,
)

GAME = "early_french_tarot"
GROUP = "oldtarot"
TITLE = "Early French Tarot"


@pytest.fixture(autouse=True)
def quick_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(step, "EXPERT_EFFORT", 0.02)


def service_of(env: Any) -> TableService:
    return env.bot.service


async def open_table(channel: Any, host: Any, seats: int = 2, **options: Any) -> discord.Message:
    """``host`` opens an Early French Tarot table to 10 with ``options``; returns the lobby."""
    r = await host.slash(channel, f"{GROUP} new", seats=seats, target=10, **options)
    assert r.acknowledged and "is open" in (said(r).content or ""), said(r).content
    return channel.last_message


async def play_out(humans: list[Any], max_steps: int = 200) -> int:
    """The seated humans act from their DMs until nobody has a decision."""
    for n in range(max_steps):
        mover = next((m for m in humans if has_controls(dm_hand(m))), None)
        if mover is None:
            return n
        message = dm_hand(mover)
        assert message is not None
        await take_turn(mover, message)
    raise AssertionError("the game did not finish")


def review_button(message: discord.Message) -> Any:
    return next(
        (c for c in components(message) if ":review:" in (getattr(c, "custom_id", "") or "")),
        None,
    )


async def test_expert_table_plays_to_the_end_and_rates_the_expert(
    world: tuple[Any, ...],
) -> None:
    env, _guild, channel, alice, _bob, _carol = world
    lobby = await open_table(channel, alice, computers=1, level="expert")
    text = embed_text(lobby)
    assert "Computer players: **expert**" in text
    assert "🤖 Bot Arturo (expert)" in text
    assert (await alice.click(lobby, label="Start")).acknowledged
    table = channel.history()[0]
    assert "🤖 Bot Arturo (expert)" in embed_text(table)
    assert "Computer players: expert" in embed_text(table)  # the footer

    assert await play_out([alice]) > 0
    history = channel.history()
    assert any("game over" in embed_text(m) for m in history)
    service = service_of(env)
    assert (await service.get_table(1)).status == "finished"
    # The computers are rated as the expert, an entity of its own (-2), not as the casual -1.
    results = await service.store.game_results(1)
    bots = {r.player_id for r in results if r.user_id is None}
    assert bots == {ratings.COMPUTER_LEVELS["expert"]}
    board = await env.bot.stats.leaderboard(game_id=GAME, viewer=alice.id, guild_id=_guild.id)
    assert [level for level, _ in board.computers] == ["expert"]
    r = await alice.slash(channel, "leaderboard", game=GAME)
    assert "🤖 expert computer" in embed_text(channel.last_message), said(r).content


async def test_hint_at_a_practice_table(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, carol = world
    lobby = await open_table(channel, alice, seats=3, computers=1, hints=True)
    assert "Hints: **on** — a practice table, not rated" in embed_text(lobby)
    assert (await bob.click(lobby, label="Join")).acknowledged
    assert (await alice.click(channel.history()[0], label="Start")).acknowledged
    table = channel.history()[0]
    assert "Hint" in labels(table)
    assert "Hints: on — a practice table, not rated" in embed_text(table)

    mover = next(m for m in (alice, bob) if has_controls(dm_hand(m)))
    other = bob if mover is alice else alice
    r = await mover.slash(channel, f"{GROUP} hint")
    answer = said(r)
    assert answer.ephemeral, "a hint is private"
    text = embed_text(answer)
    assert f"💡 Hint — {TITLE} table #1" in text and "The expert would **" in text
    assert "Expected: **" in text
    assert "The alternatives it weighed" in text
    assert " less" in text or "set aside after" in text
    # The same hint from the table's button, privately too; nobody else sees either.
    r = await mover.click(channel.history()[0], label="Hint")
    assert said(r).ephemeral and "The expert would **" in embed_text(said(r))
    assert not any("💡 Hint" in embed_text(m) for m in channel.history())
    # And from the player's own hand, in their DM.
    dm = dm_hand(mover)
    assert dm is not None and "Hint" in labels(dm)
    r = await mover.user.click(dm, label="Hint")
    assert said(r).ephemeral and "The expert would **" in embed_text(said(r))

    r = await other.slash(channel, f"{GROUP} hint")
    assert said(r).ephemeral and "it's not your turn" in (said(r).content or "")
    r = await carol.slash(channel, f"{GROUP} hint")
    assert said(r).ephemeral and "not seated" in (said(r).content or "")

    await play_out([alice, bob])
    assert (await service_of(env).get_table(1)).status == "finished"
    # A practice table is never rated: no result, no rating, nothing on the boards.
    assert await service_of(env).store.game_results(1) == []


async def test_hint_is_refused_at_a_rated_table(world: tuple[Any, ...]) -> None:
    _env, _guild, channel, alice, _bob, _carol = world
    r = await alice.slash(channel, f"{GROUP} hint")
    assert said(r).ephemeral and f"There is no {TITLE} table in this channel" in said(r).content

    lobby = await open_table(channel, alice, computers=1)
    assert "Computer players: **casual**" in embed_text(lobby)
    assert "Hints" not in embed_text(lobby)
    assert (await alice.click(lobby, label="Start")).acknowledged
    assert "Hint" not in labels(channel.history()[0])
    r = await alice.slash(channel, f"{GROUP} hint")
    refusal = said(r)
    assert refusal.ephemeral and refusal.content.startswith("⚠️")
    assert "practice tables" in refusal.content and "`hints:True`" in refusal.content


async def test_review_after_a_deal_privately_and_after_a_restart(
    world: tuple[Any, ...], make_bot: Any
) -> None:
    env, _guild, channel, alice, _bob, carol = world
    lobby = await open_table(channel, alice, computers=1, level="expert")
    assert (await alice.click(lobby, label="Start")).acknowledged
    await play_out([alice])
    summary = next(m for m in channel.history() if "hand 1 score sheet" in embed_text(m))
    assert review_button(summary) is not None and "Review" in labels(summary)

    r = await alice.click(summary, label="Review")
    answer = said(r)
    assert answer.ephemeral, "a review is private"
    text = embed_text(answer)
    assert f"🔍 Review of hand 1 — {TITLE} table #1" in text
    assert "The expert" in text or "no choice to make" in text
    assert "Expected points" in text
    # Luck and skill (issue 33): what the cards gave, what the play made of them; kept for
    # /stats, which averages the play over the player's latest deals.
    assert "Luck and skill" in text and "🍀 Cards: **" in text and "🎯 Play: **" in text
    r = await alice.slash(channel, "stats")
    assert "Luck and skill — the last deal reviewed" in embed_text(channel.last_message)

    r = await carol.click(summary, label="Review")
    assert said(r).ephemeral and "didn't sit at this one" in (said(r).content or "")

    # The button is restart-proof.
    old = env.bot
    await env.restart_bot(make_bot())
    await old.close()
    r = await alice.click(summary, label="Review")
    assert said(r).ephemeral and "🔍 Review of hand 1" in embed_text(said(r))

    # Try another way (issue 33): from the Review's menu (drawn after the restart), the same
    # cards are dealt again in alice's DMs from her chosen decision, against the expert.
    answer = private_answer(channel, alice, r)
    assert "🔁 Try another way" in embed_text(answer)
    menu = next(c for c in components(answer) if (c.custom_id or "").startswith("rp:1:1"))
    assert menu.options and all("you chose to" in o.label for o in menu.options)
    r = await alice.select(answer, [menu.options[0].value], custom_id=menu.custom_id)
    assert said(r).ephemeral and "dealt again in your DMs" in (said(r).content or "")
    dms = alice.user.dm_channel.history()
    assert any("Another way · table #1, deal 1" in embed_text(m) for m in dms)
    assert await play_out([alice]) > 0  # played from her DMs to the end of that one deal
    dms = alice.user.dm_channel.history()
    assert any("🔁 Another way: deal 1 of table #1 again" in embed_text(m) for m in dms)
    service = service_of(env)
    replay = await service.get_table(2)
    assert (replay.replay, replay.status) == ((1, 1), "finished")
    assert await service.store.game_results(2) == []  # not rated
    assert not any("Another way" in embed_text(m) for m in channel.history())  # private


async def test_restart_mid_game_with_expert_computers_plays_on_identically(
    world: tuple[Any, ...], make_bot: Any
) -> None:
    env, guild, channel, alice, bob, _carol = world
    # The same game twice (one seed for every table): alice's with a restart in the middle,
    # bob's in another channel without one. Both hosts act by the same fixed policy.
    other = guild.create_text_channel("tarot-2")
    for host, where in ((alice, channel), (bob, other)):
        lobby = await open_table(where, host, computers=1, level="expert")
        assert (await host.click(lobby, label="Start")).acknowledged

    steps = 0
    while has_controls(dm_hand(alice)):
        if steps == 3:
            old = env.bot
            await env.restart_bot(make_bot())
            await old.close()
        message = dm_hand(alice)
        assert message is not None
        await take_turn(alice, message)
        steps += 1
    assert steps > 3
    await play_out([bob])

    service = service_of(env)
    logs = [
        [(e.kind, e.seat, e.payload) for e in await service.store.log(table_id)]
        for table_id in (1, 2)
    ]
    assert logs[0] == logs[1] and len(logs[0]) > 20
    assert any(p.get("by") == "ai" for _, _, p in logs[0])
    first, second = await service.snapshot(1), await service.snapshot(2)
    assert first.finished and first.totals == second.totals
