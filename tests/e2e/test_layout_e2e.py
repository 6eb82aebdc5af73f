"""The newer message layout through Discord (issue 30): at your turn your DM is the whole
table (one picture of the table above your hand, the contract, the trick with its winning
card, the scores, then the controls) in a green frame; while you wait it is a quiet grey hand;
every DM sent for your turn opens with the line a phone's notification shows; the game ends
in your DM with your result card."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from bot.db import ratings, stats
from bot.engine.views import PublicView
from bot.ui.components.layout import ACCENT_TURN, ACCENT_WAIT
from bot.ui.text.cards import label
from tests.e2e.helpers import accent, components, labels, pictures, said, texts
from tests.resilience.drive import Table, World, make_world

pytestmark = pytest.mark.pictures  # the layouts carry the pictures


def dm_payloads(world: World, member: Any) -> list[dict[str, Any]]:
    """What the bot posted as new messages in the member's DMs (request bodies)."""
    path = f"/channels/{member.user.dm_channel.id}/messages"
    return [
        c.json
        for c in world.env.http_requests
        if c.method == "POST" and c.path == path and isinstance(c.json, dict)
    ]


def first_text(payload: dict[str, Any]) -> str | None:
    """The first text display of a message body (what a phone's push shows of it)."""
    stack = list(reversed(payload.get("components") or []))
    while stack:
        c = stack.pop()
        if c.get("type") == 10:
            return c.get("content")
        stack.extend(reversed(c.get("components") or []))
    return None


async def test_your_dm_at_your_turn_is_the_whole_table(simcord_env: simcord.Env) -> None:
    world = make_world(simcord_env, 2)
    alice, bob = world.members
    table = Table(world, "french_tarot", [alice, bob], seed=5)
    await table.open(4, None)

    async def trick_under_way() -> tuple[Any, discord.Message, PublicView]:
        """Play on until a human must play to a trick already led."""
        for _ in range(400):
            found = await table.mover()
            assert found is not None, "the game ended before a trick was under way"
            outcome = await world.service.snapshot(table.table_id, found[0].id)
            pv = outcome.public
            if pv is not None and pv.phase == "play" and pv.trick:
                return found[0], found[1], pv
            await table.step(found=found)
        raise AssertionError("no trick under way")

    member, dm, pv = await trick_under_way()
    info = await world.service.get_table(table.table_id)

    # The first line is what the phone's notification shows.
    assert texts(dm)[0] == f"🟢 Your turn — French Tarot #{info.id} (Tarot Club): play a card"
    assert accent(dm) == ACCENT_TURN
    # One picture, the table above the hand, with the whole text as its alt text.
    ((url, alt),) = pictures(dm)
    assert [a.filename for a in dm.attachments] == ["turn.png"] and url
    assert "Your hand" in alt
    # The picture shows the trick (its words are in the alt text, its winning card marked);
    # the text under it says the rest: the contract, what to do, the scores; the controls
    # follow.
    shown = "\n".join(texts(dm)[1:])
    taker = pv.info["taker"]
    assert " plays **" in shown and info.seats[taker].name in shown  # the contract
    for _seat, card in pv.trick:
        assert f"{label(card)}" in alt and f"**{label(card)}**" not in shown
    assert "🏆" in alt
    assert all(s.name in shown.split("Scores · ")[1] for s in info.seats if not s.is_bot)
    assert "play a card" in shown and components(dm)

    # The other player waits: a quiet grey hand (no turn line, no table), no decision.
    other = bob if member is alice else alice
    waiting = await table.hand(other)
    assert waiting is not None
    assert texts(waiting)[0] == f"⚪ French Tarot #{info.id} (Tarot Club)"
    assert accent(waiting) == ACCENT_WAIT
    assert [a.filename for a in waiting.attachments] == ["hand.png"]
    assert "Scores · " in "\n".join(texts(waiting))
    assert not components(waiting)


async def test_every_dm_sent_for_your_turn_opens_with_the_push_line(
    simcord_env: simcord.Env,
) -> None:
    world = make_world(simcord_env, 2)
    alice, bob = world.members
    r = await alice.slash(world.channel, "notify", when="0")  # notified as each turn starts
    assert said(r).ephemeral
    table = Table(world, "la_morte", [alice, bob], seed=6)
    await table.open(4, {"target": 10, "round_limit": 2})
    await table.play()
    sent = dm_payloads(world, alice)
    assert len(sent) > 2, "alice got no turn notification"
    game = f"La Morte #{table.table_id} (Tarot Club): "
    for payload in sent[1:]:  # after the first hand, each new DM is a turn notification
        assert not payload.get("content") and not payload.get("embeds")
        line = first_text(payload) or ""
        assert line.startswith(f"🟢 Your turn — {game}"), line
    assert f"🟢 Your turn — {game}play a card" in [first_text(p) for p in sent]


async def test_the_game_ends_in_your_dm_with_your_result_card(simcord_env: simcord.Env) -> None:
    world = make_world(simcord_env, 2)
    alice, bob = world.members
    table = Table(world, "la_morte", [alice, bob], seed=6)
    await table.open(3, {"target": 10, "round_limit": 1})
    await table.play()
    outcome = await world.service.snapshot(table.table_id)
    assert outcome.finished
    for member in (alice, bob):
        card = await table.hand(member)
        assert card is not None
        head, *rest = texts(card)
        seat = outcome.table.seat_of(member.id)
        assert seat is not None
        score = outcome.totals[seat]
        if seat in outcome.winners:
            assert head == f"🏆 You won — La Morte #{table.table_id}: {score} points"
        else:
            assert head.startswith(f"🏁 Game over — La Morte #{table.table_id}: you placed ")
            assert head.endswith(f" of 3 with {score} points")
        body = "\n".join(rest)
        # One line per player, with names, the reader marked; whether it is rated.
        assert sum(1 for line in body.splitlines() if line[:1].isdigit()) == 3
        assert f"{member.name} — **{score}** " in body or f"{member.name} — **{score}**" in body
        assert "(you)" in body and "counts in the rankings" in body
        assert "The game is over" not in body
        buttons = [c for c in components(card) if isinstance(c, discord.Button)]
        link = next(b for b in buttons if b.url)
        assert link.label == "Results" and (link.url or "").startswith(
            f"https://discord.com/channels/{world.guild.id}/{world.channel.id}"
        )
        assert "Rematch" in labels(card) and "Review" in labels(card)
        # The rating this game left the player with, and its change, as the database holds
        # them (their rating in the game, and the game in their history).
        now = await ratings.rating(world.bot.db, "la_morte", member.id)
        _, (past,) = await stats.history(world.bot.db, member.id, world.guild.id, "la_morte", 5)
        assert now is not None and past.table_id == table.table_id
        assert past.rating_delta is not None
        line = f"Rating **{now.display:.1f}** ({past.rating_delta:+.1f}) after this game"
        assert line in body.splitlines(), body


async def test_a_practice_result_card_has_no_rating_line(simcord_env: simcord.Env) -> None:
    """A practice table (hints on) is never rated: its result card says so, and shows no
    rating (there is none to read)."""
    world = make_world(simcord_env, 2)
    alice, bob = world.members
    table = Table(world, "la_morte", [alice, bob], seed=6)
    await table.open(3, {"target": 10, "round_limit": 1, "hints": True})
    await table.play()
    for member in (alice, bob):
        card = await table.hand(member)
        assert card is not None
        body = "\n".join(texts(card)[1:])
        assert "A practice table (hints on): it counts in no ranking." in body
        assert "Rating" not in body and "rankings" not in body
        assert await ratings.rating(world.bot.db, "la_morte", member.id) is None


async def test_the_last_card_of_a_deal_relinks_its_players_hand_through_the_click(
    simcord_env: simcord.Env,
) -> None:
    """The click that ends a deal is answered with its player's new hand at once; once the
    next deal's table message is posted, that hand links to it, redrawn through the same
    click's interaction rather than a channel edit of the DM."""
    world = make_world(simcord_env, 2)
    alice, bob = world.members
    table = Table(world, "la_morte", [alice, bob], seed=6)
    await table.open(3, {"target": 30, "round_limit": 3})
    for _ in range(400):
        found = await table.mover()
        assert found is not None, "the game ended before a human ended a deal"
        before = (await world.service.snapshot(table.table_id)).deals_played
        first = len(world.env.http_requests)
        await table.step(found=found)
        out = await world.service.snapshot(table.table_id)
        if out.deals_played == before or out.finished:
            continue
        member = found[0]
        dm = member.user.dm_channel.id
        calls = world.env.http_requests[first:]
        assert not [
            c for c in calls if c.method == "PATCH" and c.path.startswith(f"/channels/{dm}/")
        ]
        hand = await table.hand(member)
        assert hand is not None and out.table.message_id is not None
        link = f"/{world.channel.id}/{out.table.message_id})"
        assert any(link in t for t in texts(hand)), texts(hand)
        return
    raise AssertionError("no deal ended by a human's click")
