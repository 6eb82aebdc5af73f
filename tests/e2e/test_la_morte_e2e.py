"""La Morte end to end through SimCord: members use slash commands, buttons, selects and DMs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from bot.db.backends import open_database
from bot.services.tables import TableService
from tests.e2e.conftest import SEED
from tests.e2e.helpers import (
    components,
    dm_hand,
    embed_text,
    has_controls,
    is_card,
    labels,
    playable,
    said,
    take_turn,
    texts,
)

TARGET = 12
ROUND_LIMIT = 3


def public_messages(channel: Any) -> list[discord.Message]:
    return channel.history()


async def open_and_start(channel: Any, alice: Any, bob: Any) -> discord.Message:
    """alice opens a 4-seat table with 2 computers, bob joins by button, alice starts."""
    result = await alice.slash(
        channel, "lamorte new", seats=4, computers=2, target=TARGET, round_limit=ROUND_LIMIT
    )
    assert result.acknowledged and "is open" in (said(result).content or "")
    lobby = channel.last_message
    assert labels(lobby) == ["Join", "Leave", "Add computer", "Start"]
    assert "alice" in embed_text(lobby) and "Waiting for 1 more player" in embed_text(lobby)

    joined = await bob.click(lobby, label="Join")
    assert joined.acknowledged
    lobby = channel.history()[0]
    assert "bob" in embed_text(lobby) and "The table is full" in embed_text(lobby)

    # Only the host may start.
    refused = await bob.click(lobby, label="Start")
    assert said(refused).ephemeral and "host" in said(refused).content.lower()

    started = await alice.click(lobby, label="Start")
    assert started.acknowledged
    return lobby


async def play_to_end(
    env: Any,
    channel: Any,
    humans: list[Any],
    *,
    max_steps: int = 400,
    restart_after: int | None = None,
    make_bot: Any = None,
) -> int:
    """Humans act from their DMs until nobody has a decision; returns the number of actions."""
    steps = 0
    stale: dict[int, discord.Message] = {}
    while steps < max_steps:
        if restart_after is not None and steps == restart_after:
            # Keep the DM snapshots from before the restart: their buttons must still work.
            mover_now = next(m for m in humans if has_controls(dm_hand(m)))
            stale = {mover_now.id: dm_hand(mover_now)}
            old = env.bot
            await env.restart_bot(make_bot())
            await old.close()
        mover = next((m for m in humans if has_controls(dm_hand(m))), None)
        if mover is None:
            return steps
        message = stale.pop(mover.id, None) or dm_hand(mover)
        assert message is not None
        before = embed_text(dm_hand(mover))  # type: ignore[arg-type]
        await take_turn(mover, message)
        steps += 1
        after = dm_hand(mover)
        assert after is not None and (embed_text(after) != before or not has_controls(after))
    raise AssertionError("the game did not finish")


def visible(card: str) -> str:
    """How a card is written in messages (La Morte by its skull, not the game's title)."""
    from bot.ui.games.la_morte import CARD_LABELS
    from bot.ui.text.cards import label

    return label(card, CARD_LABELS)


async def test_whole_game_from_new_to_final_result(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, carol = world
    await open_and_start(channel, alice, bob)

    # Each human has exactly one DM: their hand, headed with server, channel and table.
    for member in (alice, bob):
        dms = member.user.dm_channel.history()
        assert len(dms) == 1
        text = embed_text(dms[0])
        assert "Tarot Club › #tarot · table #1" in text
        assert "Your hand — La Morte table #1" in text
    assert carol.user.dm_channel.history() == []

    # The public table message shows the deal, the players and whose turn it is.
    table_msg = channel.last_message
    text = embed_text(table_msg)
    assert "La Morte · table #1 — deal 1" in text and "Talon" in text
    assert labels(table_msg) == ["Show my hand"]

    # A human whose turn it is gets mentioned; the one whose DM shows controls is that human.
    movers = [m for m in (alice, bob) if has_controls(dm_hand(m))]
    if movers:
        assert f"<@{movers[0].id}>" in texts(table_msg)[0]  # the line that notifies

    steps = await play_to_end(env, channel, [alice, bob])
    assert steps > 10

    history = channel.history()
    final = history[-1]
    final_text = embed_text(final)
    assert "game over" in final_text and "🏆" in final_text
    assert any("deal 1 result" in embed_text(m) for m in history)
    # No DM keeps live controls once the game is over.
    assert not has_controls(dm_hand(alice)) and not has_controls(dm_hand(bob))

    board = await carol.slash(channel, "leaderboard")
    assert board.acknowledged
    board_text = embed_text(board.response.message)
    assert "La Morte — rating" in board_text and "this server" in board_text
    assert "alice" in board_text and "bob" in board_text  # names, not pings


async def test_nobody_sees_a_card_hidden_from_them(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await open_and_start(channel, alice, bob)
    service: TableService = env.bot.service
    table = await service.table_in_channel(channel.id)
    assert table is not None
    seat = {m.id: table.seat_of(m.id) for m in (alice, bob)}
    checked = 0
    while True:
        state = (await service.replay(table.id)).deal
        hidden = {s: set(h) for s, h in enumerate(state.hands)}
        hidden[-1] = set(state.set_aside)
        public = embed_text(channel.history()[-1])
        for cards in hidden.values():
            for card in cards:
                assert visible(card) not in public, f"{card} leaked to the channel"
        for member in (alice, bob):
            dm = embed_text(dm_hand(member))  # type: ignore[arg-type]
            for s, cards in hidden.items():
                if s == seat[member.id]:
                    continue
                for card in cards:
                    assert visible(card) not in dm, f"{card} leaked to {member.name}"
        checked += 1
        mover = next((m for m in (alice, bob) if has_controls(dm_hand(m))), None)
        if mover is None or checked > 60:
            break
        await take_turn(mover, dm_hand(mover))  # type: ignore[arg-type]
    assert checked > 10


async def test_restart_mid_deal_keeps_old_buttons_working(
    world: tuple[Any, ...], make_bot: Any, tmp_path: Path
) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await open_and_start(channel, alice, bob)
    steps = await play_to_end(env, channel, [alice, bob], restart_after=5, make_bot=make_bot)
    assert steps > 5
    assert env.bot is not None
    table = await env.bot.service.get_table(1)
    snap = await env.bot.service.snapshot(table.id, None)
    assert snap.finished

    # The same game without a restart, driven by the same policy through the service alone.
    expected = await reference_totals(
        tmp_path / "reference.sqlite3", alice.id, bob.id, channel.id, _guild.id
    )
    assert snap.totals == expected
    assert "game over" in embed_text(channel.history()[-1])


async def reference_totals(
    path: Path, alice_id: int, bob_id: int, channel_id: int, guild_id: int
) -> tuple[int, ...]:
    """Play the e2e policy (first card, Accept, lowest bid, Drop, Muck) with no Discord."""
    db = await open_database(path)
    await db.migrate()
    try:
        service = TableService(db, seed_source=lambda: SEED)
        table = await service.open_lobby(
            guild_id,
            channel_id,
            alice_id,
            "alice",
            "la_morte",
            4,
            {"target": TARGET, "round_limit": ROUND_LIMIT},
            2,
        )
        await service.join(table.id, bob_id, "bob")
        outcome = await service.start(table.id, alice_id)
        while not outcome.finished:
            pv = outcome.public
            assert pv is not None and pv.to_act is not None
            user = next(s.user_id for s in outcome.table.seats if s.seat == pv.to_act)
            assert user is not None
            view = outcome.seat_views[pv.to_act]
            legal = view.legal
            types = [a.type for a in legal]
            if "play" in types:
                # The DM's menu lists the legal cards in the hand's order: its first card.
                plays = {a.card for a in legal if a.type == "play"}
                card = next(c for c in view.hand if c in plays)
                payload: dict[str, Any] = {"type": "play", "card": card}
            elif "accept" in types:
                payload = {"type": "accept"}
            elif "bid" in types:
                payload = {"type": "bid", "amount": legal[types.index("bid")].amount}
            elif "drop" in types:
                payload = {"type": "drop"}
            else:
                payload = {"type": "muck"}
            outcome = await service.act(table.id, user, payload)
        return outcome.totals
    finally:
        await db.close()


async def test_closed_dms_fall_back_to_show_my_hand(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, carol = world
    env.inject_error(
        "POST",
        f"/channels/{bob.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await open_and_start(channel, alice, bob)
    notices = [
        m for m in channel.history() if "can't send you direct messages" in (m.content or "")
    ]
    assert len(notices) == 1 and f"<@{bob.id}>" in notices[0].content
    assert bob.user.dm_channel.history() == []

    # bob plays the whole game from ephemeral hands opened on the table message.
    for _ in range(200):
        if "game over" in embed_text(channel.history()[-1]):
            break
        table_msg = next(m for m in reversed(channel.history()) if "Show my hand" in labels(m))
        shown = await bob.click(table_msg, label="Show my hand")
        assert said(shown).ephemeral
        hand = said(shown).message
        assert "Your hand — La Morte table #1" in embed_text(hand)
        # carol cannot see bob's ephemeral hand.
        assert hand.id not in [m.id for m in channel.history(viewer=carol)]
        if has_controls(hand):
            await take_turn(bob, hand, actor=bob)
            continue
        mover = next((m for m in (alice,) if has_controls(dm_hand(m))), None)
        if mover is None:
            break
        await take_turn(mover, dm_hand(mover))  # type: ignore[arg-type]
    assert "game over" in embed_text(channel.history()[-1])
    # Exactly one notice for the whole game, however many times the hand changed.
    notices = [
        m for m in channel.history() if "can't send you direct messages" in (m.content or "")
    ]
    assert len(notices) == 1


async def test_strangers_wrong_turns_and_illegal_cards_change_nothing(
    world: tuple[Any, ...],
) -> None:
    env, _guild, channel, alice, bob, carol = world
    await open_and_start(channel, alice, bob)
    service: TableService = env.bot.service
    table = await service.table_in_channel(channel.id)
    assert table is not None
    seq_before = (await service.get_table(table.id)).seq
    table_text = embed_text(channel.last_message)

    # A member without a seat.
    r = await carol.click(channel.last_message, label="Show my hand")
    assert said(r).ephemeral and "not seated" in said(r).content
    r = await carol.slash(channel, "lamorte play", card="S7")
    assert said(r).ephemeral and "not seated" in said(r).content.lower()
    r = await carol.slash(channel, "lamorte join")
    assert said(r).ephemeral and said(r).content.startswith("⚠️")

    # Whoever waits tries to act; whoever is to act tries a bad card or an illegal bid.
    movers = [m for m in (alice, bob) if has_controls(dm_hand(m))]
    waiting = [m for m in (alice, bob) if m not in movers]
    for m in waiting:
        r = await m.slash(channel, "lamorte drop")
        assert said(r).ephemeral and "turn" in said(r).content.lower()
    for m in movers:
        r = await m.slash(channel, "lamorte play", card="ZZ9")
        assert said(r).ephemeral and said(r).content.startswith("⚠️")
        r = (
            await m.slash(channel, "lamorte bid", amount=1)
            if "Bid 1" not in labels(dm_hand(m))
            else None
        )  # type: ignore[arg-type]
        if r is not None:
            assert said(r).ephemeral and said(r).content.startswith("⚠️")

    assert (await service.get_table(table.id)).seq == seq_before
    assert embed_text(channel.last_message) == table_text
    assert all(not m.content or "⚠️" not in m.content for m in channel.history())


async def test_slash_play_offers_only_legal_cards(world: tuple[Any, ...]) -> None:
    _env, _guild, channel, alice, bob, _carol = world
    await open_and_start(channel, alice, bob)
    # Drive decisions until a human must play a card.
    for _ in range(40):
        mover = next((m for m in (alice, bob) if has_controls(dm_hand(m))), None)
        assert mover is not None
        dm = dm_hand(mover)
        assert dm is not None
        cards = playable(dm)  # one-tap buttons, or menus
        if cards:
            choices = await mover.autocomplete(channel, "lamorte play", "card", "")
            assert sorted(c["value"] for c in choices) == sorted(cards)
            other = next(m for m in (alice, bob) if m is not mover)
            assert await other.autocomplete(channel, "lamorte play", "card", "") == []
            r = await mover.slash(channel, "lamorte play", card=cards[0])
            assert said(r).ephemeral and "You played" in said(r).content
            return
        await take_turn(mover, dm)
    raise AssertionError("no card play reached")


def test_components_fit_discord_limits() -> None:
    from bot.engine.actions import Action
    from bot.ui.components.cards import decision_view

    legal = tuple(Action("bid", 0, amount=x) for x in range(1, 10)) + (
        Action("accept", 0),
        Action("drop", 0),
    )
    view = decision_view(7, legal, {"bid": "Bid"})
    assert view is not None
    items = view.children
    assert len(items) == 11
    rows: dict[int, int] = {}
    for item in items:
        assert item.row is not None
        rows[item.row] = rows.get(item.row, 0) + 1
        assert len(getattr(item, "custom_id", "") or "") <= 100
    assert max(rows) <= 4 and max(rows.values()) <= 5


async def test_resign_hands_the_seat_to_a_computer_then_closes_the_table(
    world: tuple[Any, ...],
) -> None:
    _env, _guild, channel, alice, bob, _carol = world
    await open_and_start(channel, alice, bob)

    r = await bob.slash(channel, "lamorte resign")
    assert said(r).ephemeral and "computer player takes over" in said(r).content
    assert any("bob** resigned" in (m.content or "") for m in channel.history())
    r = await bob.slash(channel, "lamorte hand")
    assert said(r).ephemeral and "not seated" in said(r).content

    # alice alone keeps playing against computers until she resigns too.
    r = await alice.slash(channel, "lamorte resign")
    assert said(r).ephemeral and "table is closed" in said(r).content
    assert "no human player is left" in channel.history()[-1].content
    table_msg = next(m for m in reversed(channel.history()) if is_card(m))
    assert "closed" in embed_text(table_msg)
    assert not components(table_msg)
    r = await alice.slash(channel, "lamorte status")
    assert said(r).ephemeral and "no La Morte table" in said(r).content
    board = await alice.slash(channel, "leaderboard")
    assert "No finished La Morte games on this server" in embed_text(board.response.message)
