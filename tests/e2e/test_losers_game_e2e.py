"""Loser's Game end to end through SimCord: lobby, trump buttons for the caller, bid buttons and
``/losers bid`` with the bound enforced, the public table (face-up excess, trump, bids, tricks
taken but never their contents), DM play selects, score sheets and a whole game to its end."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot.engine.games.losers_game_scoring import PACK
from bot.services.tables import TableService
from tests.e2e.helpers import (
    components,
    dm_hand,
    embed_text,
    has_controls,
    labels,
    play_card,
    playable,
    private_answer,
    said,
)


def selects(message: discord.Message) -> list[discord.SelectMenu]:
    return [c for c in components(message) if isinstance(c, discord.SelectMenu)]


async def decide(member: Any, message: discord.Message, bid: int = 0) -> None:
    """The member's decision as a person makes it: a trump button, a bid menu, a card (one
    tap, or a menu when the cards do not fit)."""
    menus = selects(message)
    buttons = labels(message)
    if playable(message):
        r = await play_card(member.user, message)
    elif "Other…" in buttons:  # a bid: its quick button, else typed in the Other… field
        quick = "Bid 0 (safe)" if bid == 0 else f"Bid {bid}"
        if quick in buttons:
            r = await member.user.click(message, label=quick)
        else:
            shown = await member.user.click(message, label="Other…")
            r = await member.user.submit_modal(shown, {"amount": str(bid)})
    elif menus:
        r = await member.user.select(
            message, [menus[0].options[0].value], custom_id=menus[0].custom_id
        )
    else:
        suit = next(b for b in buttons if "held" in b)
        r = await member.user.click(message, label=suit)
    assert r.acknowledged, "the bot did not answer"


async def open_table(channel: Any, alice: Any, bob: Any, **options: Any) -> None:
    r = await alice.slash(channel, "losers new", seats=4, computers=2, **options)
    assert r.acknowledged and "is open" in (said(r).content or ""), said(r).content
    lobby = channel.last_message
    assert "Loser's Game · table #1" in embed_text(lobby)
    assert f"Game to **{options.get('target', 50)}**" in embed_text(lobby)
    assert (await bob.click(lobby, label="Join")).acknowledged
    assert (await alice.click(channel.history()[0], label="Start")).acknowledged


def hidden_cards(service_views: dict[int, Any]) -> set[str]:
    return {c for v in service_views.values() for c in v.hand}


@pytest.fixture
def target() -> int:
    """The game's length: every phase and the game's end, in half the hands of the default 50
    (``tests/e2e/postgres`` plays a shorter one: the database, not the game, is its subject)."""
    return 25


@pytest.mark.heavy
async def test_whole_game_to_its_end(world: tuple[Any, ...], target: int) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await open_table(channel, alice, bob, target=target)
    service: TableService = env.bot.service
    table = channel.last_message
    assert "Loser's Game · table #1 — hand 1" in embed_text(table)
    assert labels(table) == ["Show my hand"]

    steps = bids_seen = trumps_named = 0
    while steps < 2000:
        mover = next((m for m in (alice, bob) if has_controls(dm_hand(m))), None)
        if mover is None:
            break
        dm = dm_hand(mover)
        assert dm is not None
        text = embed_text(dm)
        if "name the trump suit" in text:
            trumps_named += 1
            assert len([b for b in labels(dm) if "held" in b]) == 4
        elif "bid**" in text:
            bids_seen += 1
            assert not selects(dm)  # quick buttons, no menus (issue 31)
            assert "Bid 0 (safe)" in labels(dm) and labels(dm)[-1] == "Other…"
            assert "the computer would bid about" in text
        else:
            # Only legal cards are offered; the public table never shows a hidden card.
            outcome = await service.snapshot(1, None)
            legal = set(playable(dm))  # one-tap buttons, or menus
            seat = outcome.table.seat_of(mover.id)
            assert seat is not None
            full = await service.snapshot(1, mover.id)
            assert legal == {a.card for a in full.seat_views[seat].legal}
            public = embed_text(channel.last_message)
            for card in hidden_cards((await _all_views(service)).seat_views):
                assert not re.search(rf"(?<![0-9A-Z]){re.escape(_label(card))}(?![0-9])", public)
        await decide(mover, dm, bid=1 if steps % 3 == 0 else 0)
        steps += 1
    assert steps > 30 and bids_seen > 3 and trumps_named >= 1, (steps, bids_seen, trumps_named)

    history = channel.history()
    sheets = [m for m in history if "score sheet" in embed_text(m)]
    final = [m for m in history if "game over" in embed_text(m)]
    assert sheets and len(final) == 1
    sheet = embed_text(sheets[0])
    assert "Trump **" in sheet and "trumps" in sheet and "bid" in sheet and "Totals" in sheet
    info = await service.get_table(1)
    assert info.status == "finished"
    outcome = await service.snapshot(1)
    top = max(outcome.totals)
    assert top >= target and outcome.totals.count(top) == 1
    assert outcome.winners == (outcome.totals.index(top),)
    assert "🏆" in embed_text(final[0])


async def _all_views(service: TableService) -> Any:
    """Every seat's view (the test reads the hidden hands to check the public message)."""
    outcome = await service.snapshot(1, None)
    views: dict[int, Any] = {}
    for seat in outcome.table.seats:
        if seat.user_id is not None:
            views.update((await service.snapshot(1, seat.user_id)).seat_views)
    return type("Views", (), {"seat_views": views})


def _label(card: str) -> str:
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[0]]
    return f"{card[1:]}{symbol}"


async def test_trump_bid_commands_and_refusals(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, carol = world
    r = await alice.slash(channel, "losers new", seats=3, computers=1, hand_limit=2)
    assert r.acknowledged
    assert "Hand limit: **2** hands" in embed_text(channel.last_message)
    assert (await bob.click(channel.last_message, label="Join")).acknowledged
    assert (await alice.click(channel.history()[0], label="Start")).acknowledged
    service: TableService = env.bot.service
    text = embed_text(channel.last_message)
    assert "17 cards each" in text and "Face up, out of play" in text  # 3 players: 1 excess

    # Drive the humans until the first bid of a human, trying the typed commands on the way.
    for _ in range(10):
        mover = next(m for m in (alice, bob) if has_controls(dm_hand(m)))
        other = bob if mover is alice else alice
        dm = dm_hand(mover)
        assert dm is not None
        if "name the trump suit" in embed_text(dm):
            r = await other.slash(channel, "losers trump", suit="H")
            assert said(r).ephemeral and "turn" in said(r).content.lower()
            r = await mover.slash(channel, "losers trump", suit="H")
            assert said(r).ephemeral and "Hearts" in said(r).content
            assert "Trump **♥ Hearts**" in embed_text(channel.last_message)
            continue
        if "bid**" in embed_text(dm):
            bound = int(re.search(r"bids 0–(\d+)", embed_text(dm))[1])  # type: ignore[index]
            seq = (await service.get_table(1)).seq
            r = await mover.slash(channel, "losers bid", amount=min(130, bound + 1))
            assert said(r).ephemeral and f"0 to {bound}" in said(r).content
            r = await carol.slash(channel, "losers bid", amount=1)
            assert said(r).ephemeral and "not seated" in said(r).content.lower()
            r = await other.slash(channel, "losers play", card="SA")
            assert said(r).ephemeral
            assert (await service.get_table(1)).seq == seq  # nothing changed
            r = await mover.slash(channel, "losers bid", amount=2)
            assert said(r).ephemeral and "You bid **2**" in said(r).content
            public = embed_text(channel.last_message)
            assert "bid **2**" in public
            return
        await decide(mover, dm)
    raise AssertionError("no human bid reached")


async def test_autocomplete_safe_bid_button_and_rules(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await open_table(channel, alice, bob)
    service: TableService = env.bot.service
    checked = False
    for _ in range(60):
        mover = next(m for m in (alice, bob) if has_controls(dm_hand(m)))
        dm = dm_hand(mover)
        assert dm is not None
        if "bid**" in embed_text(dm):
            r = await mover.user.click(dm, label="Bid 0 (safe)")
            assert r.acknowledged
            continue
        values = playable(dm)
        if values and "play a card" in embed_text(dm):
            choices = await mover.autocomplete(channel, "losers play", "card", "")
            assert sorted(c["value"] for c in choices) == sorted(values)
            assert all(v in PACK for v in values)
            checked = True
            break
        await decide(mover, dm)
    assert checked
    assert (await service.get_table(1)).status == "playing"

    short = await alice.slash(channel, "losers rules")
    page = embed_text(private_answer(channel, alice, short))
    assert said(short).ephemeral and "rules — Deal (1/4)" in page  # the first of the pages
    full = await alice.slash(channel, "losers rules", full=True)
    text = embed_text(private_answer(channel, alice, full))
    assert said(full).ephemeral and "complete rules" in text and "face down" in text
