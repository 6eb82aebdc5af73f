"""Early French Tarot end to end through SimCord: lobby, DM selects by suit, slash play with
autocomplete, score sheets, a whole game to 50, and the rules in two lengths."""

from __future__ import annotations

import re
from typing import Any

from bot.services.tables import TableService
from tests.e2e.helpers import (
    card_buttons,
    components,
    dm_hand,
    embed_text,
    has_controls,
    labels,
    playable,
    private_answer,
    said,
    take_turn,
)
from tests.e2e.helpers import rows as action_rows


async def open_table(channel: Any, alice: Any, bob: Any, **options: Any) -> None:
    """alice opens a 4-seat table with 2 computers, bob joins, alice starts."""
    r = await alice.slash(channel, "oldtarot new", seats=4, computers=2, **options)
    assert r.acknowledged and "is open" in (said(r).content or ""), said(r).content
    lobby = channel.last_message
    assert "Early French Tarot · table #1" in embed_text(lobby)
    scoring = "every card taken scores 1" if options.get("every_card_scores") else "above 12"
    assert "Game to **50**" in embed_text(lobby) and scoring in embed_text(lobby)
    assert (await bob.click(lobby, label="Join")).acknowledged
    assert (await alice.click(channel.history()[0], label="Start")).acknowledged


async def test_whole_game_to_50(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await open_table(channel, alice, bob)
    table = channel.last_message
    text = embed_text(table)
    assert "Early French Tarot · table #1 — hand 1" in text
    assert "Trick 1 of 12" in text and "30 set aside unseen" in text
    assert labels(table) == ["Show my hand"]

    # The player to act gets one button per legal card (12 cards fit: one tap to play).
    mover = next(m for m in (alice, bob) if has_controls(dm_hand(m)))
    dm = dm_hand(mover)
    assert dm is not None and "Your hand — Early French Tarot table #1" in embed_text(dm)
    buttons = card_buttons(dm)
    assert buttons and len(buttons) == len(components(dm))  # nothing but the cards
    assert len(action_rows(dm)) <= 5 and all(len(row.children) <= 5 for row in action_rows(dm))

    steps = 0
    while steps < 800:
        mover = next((m for m in (alice, bob) if has_controls(dm_hand(m))), None)
        if mover is None:
            break
        message = dm_hand(mover)
        assert message is not None
        await take_turn(mover, message)
        steps += 1
    assert steps > 20, steps

    history = channel.history()
    sheets = [m for m in history if "score sheet" in embed_text(m)]
    final = [m for m in history if "game over" in embed_text(m)]
    assert sheets and len(final) == 1
    sheet = embed_text(sheets[0])
    assert "cards →" in sheet and "honours" in sheet and "Totals" in sheet
    # Each sheet's card counts add up to 48 (the Fool's exchange keeps counts, §5.1).
    for m in sheets:
        counts = [int(x) for x in re.findall(r"\*\*(\d+)\*\* cards", embed_text(m))]
        assert sum(counts) == 48, embed_text(m)

    service: TableService = env.bot.service
    info = await service.get_table(1)
    assert info.status == "finished"
    outcome = await service.snapshot(1)
    totals = outcome.totals
    assert max(totals) >= 50 and totals.count(max(totals)) == 1
    assert outcome.winners == (totals.index(max(totals)),)
    assert "🏆" in embed_text(final[0])


async def test_slash_play_autocomplete_and_refusals(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, carol = world
    await open_table(channel, alice, bob, every_card_scores=True)
    service: TableService = env.bot.service
    for _ in range(30):
        mover = next(m for m in (alice, bob) if has_controls(dm_hand(m)))
        dm = dm_hand(mover)
        assert dm is not None
        legal = sorted(playable(dm))  # one-tap buttons, or menus
        choices = await mover.autocomplete(channel, "oldtarot play", "card", "")
        assert sorted(c["value"] for c in choices) == legal
        other = next(m for m in (alice, bob) if m is not mover)
        assert await other.autocomplete(channel, "oldtarot play", "card", "") == []

        seq = (await service.get_table(1)).seq
        r = await other.slash(channel, "oldtarot play", card=legal[0])
        assert said(r).ephemeral and "turn" in said(r).content.lower()
        r = await carol.slash(channel, "oldtarot play", card=legal[0])
        assert said(r).ephemeral and "not seated" in said(r).content.lower()
        r = await mover.slash(channel, "oldtarot play", card="ZZ")
        assert said(r).ephemeral and said(r).content.startswith("⚠️")
        hand = [c for c in await _hand_codes(service, mover) if c not in legal]
        if hand:  # a card held but not allowed: must follow suit or trump
            r = await mover.slash(channel, "oldtarot play", card=hand[0])
            assert said(r).ephemeral and said(r).content.startswith("⚠️")
            text = said(r).content
            assert "You can't play" in text, text  # and why, as the hand says it:
            assert "must follow" in text or "must trump" in text or "must play a trump" in text
            assert (await service.get_table(1)).seq == seq
            r = await mover.slash(channel, "oldtarot play", card=legal[0].lower())
            assert said(r).ephemeral and "You played" in said(r).content
            return
        await take_turn(mover, dm)
    raise AssertionError("no position with an illegal card in hand")


async def _hand_codes(service: TableService, member: Any) -> list[str]:
    """The member's hand as card codes, read through the service (what their DM shows)."""
    views = (await service.snapshot(1, member.id)).seat_views
    return [c for view in views.values() for c in view.hand]


async def test_two_player_table_and_rules(world: tuple[Any, ...]) -> None:
    _env, _guild, channel, alice, _bob, _carol = world
    r = await alice.slash(channel, "oldtarot new", seats=2, computers=1, target=10)
    assert r.acknowledged
    assert (await alice.click(channel.last_message, label="Start")).acknowledged
    assert "54 set aside unseen" in embed_text(channel.last_message)
    for _ in range(200):
        dm = dm_hand(alice)
        if not has_controls(dm):
            break
        assert dm is not None
        await take_turn(alice, dm)
    assert any("game over" in embed_text(m) for m in channel.history())

    short = await alice.slash(channel, "oldtarot rules")
    page = embed_text(private_answer(channel, alice, short))
    assert said(short).ephemeral and "rules — Deal (1/4)" in page  # the first of the pages
    full = await alice.slash(channel, "oldtarot rules", full=True)
    text = embed_text(private_answer(channel, alice, full))
    assert said(full).ephemeral and "complete rules" in text and "owe" in text
