"""Multi-card choices as toggle buttons (issue 31): the French Tarot écart and Queen of
Tarot's discard, tapped card by card from the DM hand, counted in taps; picks kept across a
restart; crafted and out-of-date taps refused; Suggest at a practice table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
from simcord.enums import InteractionType

from bot.client import TrionfiBot
from bot.db.backends import open_database
from bot.services.step import first_dealer
from bot.services.tables import TableService
from tests.e2e.helpers import components, dm_hand, embed_text, labels, pictures, said
from tests.e2e.test_french_tarot_e2e import open_table, seed_where_alice_takes
from tests.resilience.drive import World, dispatch


def toggles(message: discord.Message) -> dict[str, discord.Button]:
    """The card toggles of a hand (``tp:<table>:<type>:<card>@<deal>``), by card."""
    out: dict[str, discord.Button] = {}
    for c in components(message):
        custom_id = c.custom_id or ""
        if isinstance(c, discord.Button) and custom_id.startswith("tp:"):
            what = custom_id.split(":")[3].split("@")[0]
            if what != "suggest":
                out[what] = c
    return out


def picked(message: discord.Message) -> list[str]:
    """The cards shown picked (green, with ✓)."""
    return [
        card
        for card, b in toggles(message).items()
        if b.style == discord.ButtonStyle.success and (b.label or "").startswith("✓")
    ]


def confirm(message: discord.Message) -> discord.Button:
    return next(
        c
        for c in components(message)
        if isinstance(c, discord.Button)
        and ((c.label or "").startswith("Confirm") or (c.label or "").startswith("Pick "))
    )


async def crafted(env: Any, member: Any, message: discord.Message, custom_id: str) -> Any:
    """A tap with any custom_id on ``message`` (one the bot never drew: a crafted client)."""
    world = World(env, None, None, [member])
    backend = env.backend.get_message(message.channel.id, message.id)
    button = {"type": 2, "style": 2, "label": "?", "custom_id": custom_id}
    return await dispatch(
        world,
        member.id,
        message.channel.id,
        InteractionType.MESSAGE_COMPONENT,
        {"custom_id": custom_id, "component_type": 2},
        message=backend,
        components=[{"type": 1, "components": [button]}],
    )


class Taps:
    """A member's taps on their own DM hand, counted; each must redraw it in place."""

    def __init__(self, member: Any) -> None:
        self.member = member
        self.count = 0

    def hand(self) -> discord.Message:
        message = dm_hand(self.member)
        assert message is not None
        return message

    async def tap(self, custom_id: str) -> Any:
        before = self.hand()
        r = await self.member.user.click(before, custom_id=custom_id)
        self.count += 1
        assert r.acknowledged
        return r


async def toggle_all(taps: Taps, cards: list[str]) -> None:
    """Tap each of ``cards``' toggles: one tap each, answered by the interaction's own
    response (an update of the hand, no deferral and no other request)."""
    for card in cards:
        hand = taps.hand()
        r = await taps.tap(toggles(hand)[card].custom_id or "")
        assert not r.deferred and not r.followups, "a toggle answers with the update itself"
        assert taps.hand().id == hand.id, "the hand is redrawn in place"
        assert card in picked(taps.hand())


@pytest_asyncio.fixture
async def simcord_bot(
    request: pytest.FixtureRequest, make_bot: Callable[..., TrionfiBot], tmp_path: Path
) -> TrionfiBot:
    """The bot, seeded so that alice takes a 3-player Garde (a 6-card écart)."""
    game = getattr(request, "param", "french_tarot")
    scratch = tmp_path / "scratch.sqlite3"
    if game == "queen_of_tarot":
        return make_bot(await seed_where_alice_discards(scratch))
    return make_bot(await seed_where_alice_takes(scratch, 3, 2, False))


def queen_choice(legal: Any) -> Any:
    """Alice's Queen of Tarot policy until her discard: end each bargaining session
    (Continue), else pass, else the first choice (a declaration)."""
    kinds = [a.type for a in legal]
    for kind in ("continue", "pass"):
        if kind in kinds:
            return legal[kinds.index(kind)]
    return legal[0]


async def seed_where_alice_discards(path: Path) -> int:
    """A Queen of Tarot seed whose first deal reaches alice's discard (she deals, and the
    computers settle nothing while she ends each bargaining session), found on a scratch
    database through the real service."""
    db = await open_database(path)
    await db.migrate()
    try:
        service = TableService(db)
        for n, seed in enumerate(range(1, 300)):
            if first_dealer(seed, 3) != 0:
                continue
            table = await service.open_lobby(1, 1000 + n, 7, "alice", "queen_of_tarot", 3, {}, 2)
            out = await service.start(table.id, 7, seed=seed)
            for _ in range(40):
                view = out.seat_views.get(0)
                if out.deal_number != 1 or view is None or not view.legal:
                    break
                if view.legal[0].type == "discard":
                    return seed
                action = queen_choice(view.legal).to_json()
                del action["seat"]
                out = await service.act(table.id, 7, action)
        raise AssertionError("no suitable seed")
    finally:
        await db.close()


async def alice_discards(env: Any, channel: Any, alice: Any, **options: Any) -> int:
    """Open a 3-player table, bid Garde from the DM hand: alice's écart is next."""
    lobby = await open_table(channel, alice, seats=3, computers=2, deals=1, **options)
    assert (await alice.click(lobby, label="Start")).acknowledged
    hand = dm_hand(alice)
    assert hand is not None
    assert (await alice.user.click(hand, label="Garde ×2")).acknowledged
    table = await env.bot.service.table_in_channel(channel.id)
    assert table is not None
    view = (await env.bot.service.snapshot(table.id, alice.id)).seat_views[0]
    assert view.legal and view.legal[0].type == "discard" and view.legal[0].amount == 6
    return table.id


@pytest.mark.pictures
async def test_a_six_card_ecart_takes_seven_taps(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, _bob, _carol = world
    table_id = await alice_discards(env, channel, alice)
    service = env.bot.service
    view = (await service.snapshot(table_id, alice.id)).seat_views[0]
    candidates = list(view.legal[0].cards or ())
    taps = Taps(alice)
    hand = taps.hand()
    offered = toggles(hand)
    assert sorted(offered) == sorted(candidates), "one toggle per card the écart may take"
    for card, button in offered.items():  # the rank in the label, the suit as its emoji
        assert not any(sign in (button.label or "") for sign in "♠♥♦♣"), button.label
        assert (button.emoji is not None) == (card[0] in "SHDC"), (card, button.emoji)
    assert not [c for c in components(hand) if isinstance(c, discord.SelectMenu)]
    assert confirm(hand).disabled and confirm(hand).label == "Pick 6 cards (0 picked)"
    # The cards just taken from the dog are on the picture (badged "new"), the picture
    # comes with the hand.
    assert pictures(hand)

    chosen = [c for c in candidates if c[0] != "T"][:6]
    requests = len(env.http_requests)
    await toggle_all(taps, chosen)
    bot_calls = [r for r in env.http_requests[requests:] if "/interactions/" not in str(r)]
    assert not bot_calls, f"toggles cost no REST call of the bot's own: {bot_calls}"
    hand = taps.hand()
    assert sorted(picked(hand)) == sorted(chosen)
    assert confirm(hand).label == "Confirm discard (6)" and not confirm(hand).disabled

    r = await taps.tap(confirm(hand).custom_id or "")
    assert not said(r).ephemeral, "the écart was accepted"
    assert taps.count == 7
    view = (await service.snapshot(table_id, alice.id)).seat_views[0]
    assert sorted(view.info["discard"]) == sorted(chosen)


async def test_picks_survive_a_restart_and_bad_taps_change_nothing(
    world: tuple[Any, ...], make_bot: Callable[..., TrionfiBot]
) -> None:
    env, _guild, channel, alice, _bob, carol = world
    table_id = await alice_discards(env, channel, alice)
    service = env.bot.service
    view = (await service.snapshot(table_id, alice.id)).seat_views[0]
    candidates = [c for c in view.legal[0].cards or () if c[0] != "T"]
    taps = Taps(alice)
    await toggle_all(taps, candidates[:2])
    # Tapping a picked card again puts it back.
    r = await taps.tap(toggles(taps.hand())[candidates[1]].custom_id or "")
    assert picked(taps.hand()) == [candidates[0]]

    # A restart: the picks are in the database, and the old hand's buttons still work.
    old = env.bot
    await env.restart_bot(make_bot())
    await old.close()
    await toggle_all(taps, candidates[1:3])
    assert sorted(picked(taps.hand())) == sorted(candidates[:3])

    # A crafted tap on a King (not discardable) and one from an earlier deal: refused
    # privately, nothing changes.
    seq = (await env.bot.service.get_table(table_id)).seq
    king = next((c for c in view.hand if c[1:] == "K" and c[0] != "T"), None)
    hand = taps.hand()
    for custom_id in (
        *([f"tp:{table_id}:discard:{king}@1"] if king else []),
        f"tp:{table_id}:discard:{candidates[4]}@0",
        f"tp:{table_id}:play:{candidates[4]}@1",
    ):
        r = await crafted(env, alice, hand, custom_id)
        assert r.acknowledged and said(r).ephemeral and "⚠️" in (said(r).content or "")
    assert sorted(picked(taps.hand())) == sorted(candidates[:3])
    # Someone who is not seated: refused too.
    r = await crafted(env, carol, hand, f"tp:{table_id}:discard:{candidates[4]}@1")
    assert said(r).ephemeral and "not seated" in (said(r).content or "")

    # A seventh pick is refused until one is put back.
    await toggle_all(taps, candidates[3:6])
    r = await alice.user.click(taps.hand(), custom_id=toggles(taps.hand())[candidates[6]].custom_id)
    assert said(r).ephemeral and "put it back" in (said(r).content or "")
    assert len(picked(taps.hand())) == 6
    assert (await env.bot.service.get_table(table_id)).seq == seq, "no toggle is a move"


async def test_suggest_fills_the_experts_ecart_at_a_practice_table(
    world: tuple[Any, ...],
) -> None:
    env, _guild, channel, alice, _bob, _carol = world
    table_id = await alice_discards(env, channel, alice, hints=True)
    hand = dm_hand(alice)
    assert hand is not None
    assert "Suggest" in labels(hand) and "Hint" in labels(hand)
    r = await alice.user.click(hand, label="Suggest")
    assert r.acknowledged
    hand = dm_hand(alice)
    assert hand is not None
    chosen = picked(hand)
    assert len(chosen) == 6 and confirm(hand).label == "Confirm discard (6)"
    view = (await env.bot.service.snapshot(table_id, alice.id)).seat_views[0]
    assert set(chosen) <= set(view.legal[0].cards or ())
    r = await alice.user.click(hand, custom_id=confirm(hand).custom_id)
    assert not said(r).ephemeral
    view = (await env.bot.service.snapshot(table_id, alice.id)).seat_views[0]
    assert sorted(view.info["discard"]) == sorted(chosen)


async def test_suggest_is_not_offered_at_a_rated_table(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, _bob, _carol = world
    table_id = await alice_discards(env, channel, alice)
    hand = dm_hand(alice)
    assert hand is not None and "Suggest" not in labels(hand)
    r = await crafted(env, alice, hand, f"tp:{table_id}:discard:suggest@1")
    assert said(r).ephemeral and "practice" in (said(r).content or "")


@pytest.mark.parametrize("simcord_bot", ["queen_of_tarot"], indirect=True)
async def test_queen_of_tarot_discard_takes_its_cards_plus_one(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, _bob, _carol = world
    r = await alice.slash(channel, "tarocchi new", computers=2)
    assert r.acknowledged
    assert (await alice.click(channel.last_message, label="Start")).acknowledged
    service: TableService = env.bot.service
    table = await service.table_in_channel(channel.id)
    assert table is not None
    # Bargaining passed, declarations made: alice is the dealer, she discards after them.
    for _ in range(50):
        view = (await service.snapshot(table.id, alice.id)).seat_views[0]
        if view.legal and view.legal[0].type == "discard":
            break
        assert view.legal, "alice decides until her discard"
        hand = dm_hand(alice)
        assert hand is not None
        kind = queen_choice(view.legal).type
        button = next(
            c
            for c in components(hand)
            if isinstance(c, discord.Button) and f":act:{kind}" in (c.custom_id or "")
        )
        assert (await alice.user.click(hand, custom_id=button.custom_id)).acknowledged
    else:
        raise AssertionError("no discard")
    need = view.legal[0].amount or 0
    taps = Taps(alice)
    hand = taps.hand()
    assert sorted(toggles(hand)) == sorted(view.legal[0].cards or ())
    for card, button in toggles(hand).items():  # Italian suits: no French sign in a label
        assert not any(sign in (button.label or "") for sign in "♠♥♦♣"), button.label
        assert (button.emoji is not None) == (card[0] in "SHDC"), (card, button.emoji)
    chosen = list(view.legal[0].cards or ())[:need]
    await toggle_all(taps, chosen)
    r = await taps.tap(confirm(taps.hand()).custom_id or "")
    assert not said(r).ephemeral, embed_text(said(r))
    assert taps.count == need + 1 == 4
