"""Queen of Tarot end to end through SimCord: three humans play a whole two-deal game — the
first hand settled in bargaining (an offer met by a demand), the second played out with a
declaration — through DM buttons and menus; then the slash commands, refusals and rules."""

from __future__ import annotations

from typing import Any

import discord

from bot.services.tables import TableService
from tests.e2e.helpers import (
    components,
    dm_hand,
    embed_text,
    has_controls,
    labels,
    play_card,
    private_answer,
    said,
)


def selects(message: discord.Message) -> list[discord.SelectMenu]:
    return [c for c in components(message) if isinstance(c, discord.SelectMenu)]


def mover_of(*members: Any) -> Any:
    return next((m for m in members if has_controls(dm_hand(m))), None)


async def open_three(channel: Any, alice: Any, bob: Any, carol: Any, **options: Any) -> None:
    r = await alice.slash(channel, "tarocchi new", **options)
    assert r.acknowledged and "is open" in (said(r).content or ""), said(r).content
    lobby = channel.last_message
    assert "Queen of Tarot · table #1" in embed_text(lobby)
    for member in (bob, carol):
        assert (await member.click(channel.history()[0], label="Join")).acknowledged
    assert (await alice.click(channel.history()[0], label="Start")).acknowledged


async def decide(member: Any, dm: discord.Message, *, settle: bool) -> None:
    """One decision as a person makes it from the DM."""
    text = embed_text(dm)
    menus = selects(dm)
    if "bargain" in text and "Continue" in labels(dm):
        ids: dict[str, discord.SelectMenu] = {}
        for m in menus:  # the first menu of each kind holds the smallest amounts
            ids.setdefault(m.custom_id.split(":")[2], m)
        if settle and "offer" in ids and "offered 0" in text:
            r = await member.user.select(dm, ["2"], custom_id=ids["offer"].custom_id)
        elif settle and "demand" in ids and "offered 2" in text:
            r = await member.user.select(dm, ["2"], custom_id=ids["demand"].custom_id)
        else:
            r = await member.user.click(dm, label="Continue")
    elif "Discard 3 cards" in text and not menus:  # one toggle per card (issue 31)
        for _ in range(3):
            current = dm_hand(member)
            assert current is not None
            toggle = next(
                c
                for c in components(current)
                if (c.custom_id or "").startswith("tp:")
                and "suggest" not in (c.custom_id or "")
                and not (c.label or "").startswith("✓")
            )
            assert (await member.user.click(current, custom_id=toggle.custom_id)).acknowledged
        redrawn = dm_hand(member)  # the picks are drawn green, with a Confirm button
        assert redrawn is not None
        confirm = next(b for b in labels(redrawn) if b.startswith("Confirm"))
        r = await member.user.click(redrawn, label=confirm)
    elif "Discard 3 cards" in text:
        first = menus[0]
        picks = [o.value for o in first.options[:3]]
        r = await member.user.select(dm, picks, custom_id=first.custom_id)
        assert r.acknowledged
        redrawn = dm_hand(member)  # the picks are redrawn as defaults with a Confirm button
        assert redrawn is not None
        confirm = next(b for b in labels(redrawn) if b.startswith("Confirm"))
        r = await member.user.click(redrawn, label=confirm)
    elif "Declare" in text and "pre-selected" in text:
        r = await member.user.click(dm, label=labels(dm)[0])  # the best set, one click
    else:  # the first card offered: one tap, or a menu when the cards do not fit
        r = await play_card(member.user, dm)
    assert r.acknowledged, "the bot did not answer"


async def test_whole_game_settlement_then_declaration(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, carol = world
    await open_three(channel, alice, bob, carol, deals=2)
    service: TableService = env.bot.service
    table = channel.last_message
    text = embed_text(table)
    assert "hand 1 of 2" in text and "Bargaining — session 1 of 3 (10 cards each)" in text
    assert "Demanded **0** · offered **0**" in text

    # The speaker's DM: Pass / Continue, and menus of exactly the legal amounts.
    mover = mover_of(alice, bob, carol)
    dm = dm_hand(mover)
    assert dm is not None and labels(dm) == ["Pass", "Continue"]
    menus = selects(dm)
    assert [len(m.options) for m in menus] == [25, 18, 25, 18]  # 1–43 demand, 1–43 offer

    steps = 0
    while steps < 400:
        mover = mover_of(alice, bob, carol)
        if mover is None:
            break
        outcome = await service.snapshot(1)
        dm = dm_hand(mover)
        assert dm is not None
        await decide(mover, dm, settle=outcome.deal_number == 1)
        steps += 1

    history = channel.history()
    sheets = [embed_text(m) for m in history if "score sheet" in embed_text(m)]
    assert len(sheets) == 2, sheets
    assert "Settled in bargaining session 1" in sheets[0] and "pays 2" in sheets[0]
    assert "receives 2" in sheets[0]
    assert "declares" in sheets[1] and "against 43" in sheets[1]
    assert any("declares" in embed_text(m) and "shows" in embed_text(m) for m in history)
    final = [m for m in history if "game over" in embed_text(m)]
    assert len(final) == 1 and labels(final[0]) == ["Rematch"]
    outcome = await service.snapshot(1)
    assert outcome.finished and sum(outcome.totals) == 0 and outcome.deals_played == 2


async def test_slash_bargaining_refusals_and_rules(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, carol = world
    await open_three(channel, alice, bob, carol)
    service: TableService = env.bot.service
    mover = mover_of(alice, bob, carol)
    others = [m for m in (alice, bob, carol) if m is not mover]
    r = await others[0].slash(channel, "tarocchi pass")
    assert said(r).ephemeral and "turn" in said(r).content.lower()
    r = await mover.slash(channel, "tarocchi offer", amount=3)
    assert said(r).ephemeral and "offer **3**" in said(r).content
    assert "offers **3**" in embed_text(channel.last_message)
    # Round the table back to the offerer: an offerer may not demand, nor offer less.
    nxt = mover_of(alice, bob, carol)
    await nxt.slash(channel, "tarocchi pass")
    nxt = mover_of(alice, bob, carol)
    await nxt.slash(channel, "tarocchi pass")
    assert mover_of(alice, bob, carol) is mover
    seq = (await service.get_table(1)).seq
    r = await mover.slash(channel, "tarocchi demand", amount=1)
    assert said(r).ephemeral and said(r).content.startswith("⚠️")
    r = await mover.slash(channel, "tarocchi offer", amount=3)
    assert said(r).ephemeral and said(r).content.startswith("⚠️")
    r = await mover.slash(channel, "tarocchi offer", amount=99)
    assert said(r).ephemeral and said(r).content.startswith("⚠️")
    assert (await service.get_table(1)).seq == seq
    r = await mover.slash(channel, "tarocchi continue")
    assert said(r).ephemeral and "Continue" in said(r).content
    assert "session 2 of 3 (15 cards each)" in embed_text(channel.last_message)

    short = await alice.slash(channel, "tarocchi rules")
    page = embed_text(private_answer(channel, alice, short))
    assert said(short).ephemeral and "rules — Deal (1/5)" in page  # the first of the pages
    full = embed_text(
        private_answer(channel, alice, await alice.slash(channel, "tarocchi rules", full=True))
    )
    assert "Mitigati" in full and "129" in full


async def test_slash_discard_picks_three_cards_by_name(world: tuple[Any, ...]) -> None:
    """``/tarocchi discard``: each card is suggested by its name in the Italian suits (no
    French-suited code shown), and the three picked are discarded (issue 31)."""
    env, _guild, channel, alice, bob, carol = world
    await open_three(channel, alice, bob, carol)
    service: TableService = env.bot.service
    for _ in range(12):  # Continue through the three bargaining sessions
        mover = mover_of(alice, bob, carol)
        dm = dm_hand(mover)
        assert dm is not None
        if "Discard 3 cards" in embed_text(dm):
            break
        assert (await mover.user.click(dm, label="Continue")).acknowledged
    dealer = mover_of(alice, bob, carol)
    dm = dm_hand(dealer)
    assert dm is not None and "Discard 3 cards" in embed_text(dm)
    choices = await dealer.autocomplete(channel, "tarocchi discard", "first", "")
    names = [c["name"] for c in choices]
    assert names and not any(s in n for n in names for s in "♠♥♦♣"), names
    assert any(w in n for n in names for w in ("Swords", "Cups", "Coins", "Batons"))
    assert not any(w in n for n in names for w in ("Spades", "Hearts", "Diamonds", "Clubs"))
    coins = await dealer.autocomplete(channel, "tarocchi discard", "second", "coins")
    assert coins and all("Coins" in c["name"] for c in coins)
    others = [m for m in (alice, bob, carol) if m is not dealer]
    assert await others[0].autocomplete(channel, "tarocchi discard", "first", "") == []
    picked = [c["value"] for c in choices[:3]]
    r = await dealer.slash(
        channel, "tarocchi discard", first=picked[0], second=picked[1], third=picked[2]
    )
    assert said(r).ephemeral and "You discarded" in said(r).content, said(r).content
    outcome = await service.snapshot(1, dealer.id)
    (view,) = outcome.seat_views.values()
    assert sorted(view.info["discard"]) == sorted(picked)
