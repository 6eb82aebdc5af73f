"""French Tarot end to end through SimCord: slash commands, DM buttons, selects, multi-selects.

Each test's table seed is found by replaying its first bidding round through the real
service on a scratch database (``seed_where_alice_takes``), so the situation it needs — alice
takes with a Garde, discards and holds a poignée — holds whatever the computer policy does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio

from bot.client import TrionfiBot
from bot.db.backends import open_database
from bot.engine.cards import TAROT_PACK
from bot.engine.deck import deal_seed, shuffle
from bot.engine.games.french_tarot import RULES
from bot.engine.games.french_tarot_cards import PARAMS
from bot.services.step import first_dealer
from bot.services.tables import TableService
from tests.e2e.helpers import (
    components,
    dm_hand,
    embed_text,
    has_controls,
    labels,
    parts,
    play_card,
    said,
)
from tests.e2e.helpers import rows as action_rows


async def seed_where_alice_takes(path: Path, players: int, computers: int, poignee: bool) -> int:
    """A table seed whose first deal the test's humans play as intended.

    Found by playing the real service (same engine, computer policy and seeding as the bot)
    on a scratch database: alice (seat 0) speaks first, has a poignée's worth of trumps
    (if ``poignee``), bids Garde, the other human (if any) passes, and the computers let
    her keep it.
    """
    db = await open_database(path)
    await db.migrate()
    try:
        service = TableService(db)
        for n, seed in enumerate(range(1, 4000)):
            if first_dealer(seed, players) != 1:
                continue  # dealer 1: alice (seat 0, the dealer's right) speaks first
            deck = shuffle(TAROT_PACK, deal_seed(seed, 0))
            dealt = RULES.new_deal(players, {}, deck, 1)
            minimum = PARAMS[players].poignees[0] if poignee else 0
            if dealt.outcome is not None or sum(c[0] == "T" for c in dealt.hands[0]) < minimum:
                continue
            table = await service.open_lobby(
                1, 1000 + n, ALICE, "alice", "french_tarot", players, {"deals": 1}, computers
            )
            if computers < players - 1:
                await service.join(table.id, BOB, "bob")
            await service.start(table.id, ALICE, seed=seed)
            out = await service.act(table.id, ALICE, {"type": "bid", "contract": "garde"})
            while out.public is not None and out.public.phase == "bidding":
                out = await service.act(table.id, BOB, {"type": "bid", "contract": "pass"})
            if out.public is not None and out.public.info["taker"] == 0:
                return seed
        raise AssertionError("no suitable seed")
    finally:
        await db.close()


ALICE, BOB = 1_111_111_111_111_111_111, 2_222_222_222_222_222_222


def selects(message: discord.Message, prefix: str) -> list[discord.SelectMenu]:
    return [
        c
        for c in components(message)
        if isinstance(c, discord.SelectMenu) and (c.custom_id or "").startswith(prefix)
    ]


def toggle_ids(message: discord.Message) -> dict[str, str]:
    """A multi-card choice drawn as toggles (issue 31): each card's button custom_id."""
    out: dict[str, str] = {}
    for c in components(message):
        custom_id = c.custom_id or ""
        if isinstance(c, discord.Button) and custom_id.startswith("tp:"):
            what = custom_id.split(":")[3].split("@")[0]
            if what != "suggest":
                out[what] = custom_id
    return out


def assert_fits(message: discord.Message) -> None:
    """Discord's limits: ≤ 5 rows (the newer layout: ≤ 40 components in all, toggles may
    take more rows), ≤ 5 buttons a row, ≤ 25 options per select, custom ids ≤ 100
    characters."""
    assert len(action_rows(message)) <= 5 or (toggle_ids(message) and len(parts(message)) <= 40)
    assert all(len(row.children) <= 5 for row in action_rows(message))
    for c in components(message):
        assert len(c.custom_id or "") <= 100
        if isinstance(c, discord.SelectMenu):
            assert 1 <= len(c.options) <= 25


class Player:
    """A human's fixed policy: how the test decides, from what the DM shows."""

    def __init__(self, member: Any, *, bid: str = "Pass", poignee: bool = False) -> None:
        self.member = member
        self.bid = bid
        self.poignee = poignee
        self.discarded = False
        self.showed = False

    async def act(self) -> None:
        who = self.member.user
        message = dm_hand(self.member)
        assert message is not None
        assert_fits(message)
        offered = labels(message)
        if "Pass" in offered:
            choice = self.bid if self.bid in offered else "Pass"
            result = await who.click(message, label=choice)
        elif any(label.startswith("Call ") for label in offered):
            result = await who.click(
                message, label=next(x for x in offered if x.startswith("Call "))
            )
        elif "No chelem" in offered:
            result = await who.click(message, label="No chelem")
        elif toggle_ids(message):
            await self._toggle(message)
            self.discarded = True
            return
        elif selects(message, "tc:") and "discard" in (selects(message, "tc:")[0].custom_id or ""):
            await self._choose(message, "discard")
            self.discarded = True
            return
        elif self.poignee and selects(message, "tc:"):
            await self._choose(message, "poignee")
            self.showed = True
            self.poignee = False
            return
        else:  # the first card offered: one tap, or a menu when the cards do not fit
            result = await play_card(who, message)
        assert result.acknowledged, "the bot did not answer"

    async def _toggle(self, message: discord.Message) -> None:
        """Tap the cards of a discard one by one (suit cards first: trumps only when the
        hand forces them), then Confirm."""
        who = self.member.user
        need = 3 if "Discard 3" in embed_text(message) else 6
        offered = sorted(toggle_ids(message), key=lambda c: c[0] == "T")
        for card in offered[:need]:
            current = dm_hand(self.member)
            assert current is not None
            result = await who.click(current, custom_id=toggle_ids(current)[card])
            assert result.acknowledged and not result.followups, "one tap, redrawn in place"
        current = dm_hand(self.member)
        assert current is not None
        confirm = next(b for b in labels(current) if b.startswith("Confirm"))
        result = await who.click(current, label=confirm)
        assert result.acknowledged and not said(result).ephemeral, "the choice was refused"

    async def _choose(self, message: discord.Message, kind: str) -> None:
        """Pick cards across several selects, then press Confirm (a multi-card choice)."""
        who = self.member.user
        text = embed_text(message)
        need = {"discard": 3 if "Discard 3" in text else 6}.get(kind)
        if need is None:  # poignée: the smallest level, read off the disabled button
            button = next(b for b in labels(message) if b.startswith("Pick "))
            need = int(button.split()[1])
        picked = 0
        parts = selects(message, "tc:")
        # Spread the picks over at least two selects when there are two, to prove picks
        # made in one select survive a pick in another.
        for i, menu in enumerate(parts):
            if picked >= need:
                break
            share = need - picked if i == len(parts) - 1 else max(1, (need - picked) // 2)
            values = [o.value for o in menu.options][: min(share, need - picked)]
            current = dm_hand(self.member)
            assert current is not None
            menu_now = next(m for m in selects(current, "tc:") if m.custom_id == menu.custom_id)
            keep = [o.value for o in menu_now.options if o.default]
            result = await who.select(current, keep + values, custom_id=menu.custom_id)
            assert result.acknowledged
            picked += len(values)
        current = dm_hand(self.member)
        assert current is not None
        defaults = [o.value for m in selects(current, "tc:") for o in m.options if o.default]
        assert len(defaults) == need, (defaults, need)
        confirm = next(b for b in labels(current) if b.startswith("Confirm"))
        result = await who.click(current, label=confirm)
        assert result.acknowledged and not said(result).ephemeral, "the choice was refused"


async def open_table(channel: Any, host: Any, **options: Any) -> discord.Message:
    result = await host.slash(channel, "tarot new", **options)
    assert result.acknowledged and "is open" in (said(result).content or "")
    return channel.last_message


def public_texts(channel: Any) -> list[str]:
    return [embed_text(m) for m in channel.history()]


async def run_game(
    env: Any, players: list[Player], *, max_steps: int = 600, each: Any = None
) -> int:
    steps = 0
    while steps < max_steps:
        mover = next((p for p in players if has_controls(dm_hand(p.member))), None)
        if mover is None:
            return steps
        await mover.act()
        steps += 1
        if each is not None:
            await each()
    raise AssertionError("the game did not finish")


@pytest_asyncio.fixture
async def simcord_bot(
    request: pytest.FixtureRequest, make_bot: Callable[..., TrionfiBot], tmp_path: Path
) -> TrionfiBot:
    """The bot, seeded for the test's situation (``param``: players, computers)."""
    players, computers, poignee = request.param
    scratch = tmp_path / "scratch.sqlite3"
    return make_bot(await seed_where_alice_takes(scratch, players, computers, poignee))


def secret_markers(text: str) -> bool:
    """Would this text tell who the partner is (or that there is none)?"""
    return "🤝" in text or "plays **alone**" in text


@pytest.mark.parametrize("simcord_bot", [(5, 3, True)], indirect=True)
async def test_five_player_game_with_discard_poignee_and_secret_partner(
    world: tuple[Any, ...],
) -> None:
    env, _guild, channel, alice, bob, carol = world
    lobby = await open_table(channel, alice, seats=5, computers=3, deals=2)
    assert "French Tarot" in embed_text(lobby) and "Deals: **2**" in embed_text(lobby)
    assert (await bob.click(lobby, label="Join")).acknowledged
    assert (await alice.click(channel.history()[0], label="Start")).acknowledged

    players = [Player(alice, bid="Garde ×2", poignee=True), Player(bob)]
    seen = {"secret_steps": 0, "poignee_public": False, "revealed": False}
    service = env.bot.service

    async def check_privacy() -> None:
        table = await service.table_in_channel(channel.id)
        if table is None:  # the game is over
            return
        pv = (await service.snapshot(table.id, None)).public
        assert pv is not None
        info = pv.info
        texts = public_texts(channel)
        if any("poignée — alice" in t for t in texts):
            seen["poignee_public"] = True
        if info.get("called") is None or info["partner"] is not None or info["alone"] is not None:
            seen["revealed"] = seen["revealed"] or info.get("called") is not None
            return
        # Called, not yet played: nobody may learn the partner, publicly or by DM.
        seen["secret_steps"] += 1
        partner = (await service.replay(table.id)).deal.partner
        assert table.message_id is not None
        for message in channel.history():  # this deal's table message and anything after it
            if message.id >= table.message_id:
                assert not secret_markers(embed_text(message)), embed_text(message)
        for p in players:
            dm = dm_hand(p.member)
            assert dm is not None
            if table.seat_of(p.member.id) != partner:
                assert not secret_markers(embed_text(dm)), embed_text(dm)

    await run_game(env, players, each=check_privacy)

    assert players[0].discarded, "alice took with a Garde and discarded, card by card"
    assert players[0].showed and seen["poignee_public"], "alice's poignée was shown publicly"
    assert seen["secret_steps"] > 0 and seen["revealed"]
    texts = public_texts(channel)
    assert any("game over" in t for t in texts)
    sheets = [t for t in texts if "deal 1 result" in t or "deal 2 result" in t]
    assert sheets and all("Totals" in t for t in sheets)
    played = [t for t in sheets if "Attack:" in t]
    assert played and all("needed" in t and "Deal value" in t for t in played)
    assert any("Simple poignée by alice" in t or "poignée by alice" in t for t in played)
    for member in (alice, bob):
        assert not has_controls(dm_hand(member))
    assert carol.user.dm_channel.history() == []


@pytest.mark.parametrize("simcord_bot", [(3, 2, False)], indirect=True)
async def test_three_player_hands_of_24_and_30_cards_fit_discord(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, _bob, _carol = world
    lobby = await open_table(channel, alice, seats=3, computers=2, deals=1)
    assert (await alice.click(lobby, label="Start")).acknowledged
    service = env.bot.service
    table = await service.table_in_channel(channel.id)
    assert table is not None

    # Alice speaks first and takes: her dealt hand has 24 cards.
    view = (await service.snapshot(table.id, alice.id)).seat_views[0]
    assert len(view.hand) == 24
    hand = dm_hand(alice)
    assert hand is not None and "Pass" in labels(hand)
    assert (await alice.user.click(hand, label="Garde ×2")).acknowledged

    # If the computers let her have it, she holds 30 cards while discarding.
    view = (await service.snapshot(table.id, alice.id)).seat_views[0]
    assert view.public.info["taker"] == 0, "seed chosen so alice keeps the Garde"
    assert len(view.hand) == 30 and view.legal[0].type == "discard"
    hand = dm_hand(alice)
    assert hand is not None
    assert_fits(hand)
    offered = {o.value for m in selects(hand, "tc:") for o in m.options} | set(toggle_ids(hand))
    assert offered == set(view.legal[0].cards or ())
    assert "Discard 6" in embed_text(hand)

    # A wrong-sized choice cannot be confirmed: the button stays disabled.
    assert not any(b.startswith("Confirm") for b in labels(hand))
    player = Player(alice)
    await player.act()
    assert player.discarded
    view = (await service.snapshot(table.id, alice.id)).seat_views[0]
    assert len(view.hand) == 24 and len(view.info["discard"]) == 6
    await run_game(env, [player])
    assert any("game over" in t for t in public_texts(channel))


@pytest.mark.parametrize("simcord_bot", [(3, 2, False)], indirect=True)
async def test_slash_commands_decide_and_refuse_politely(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, _bob, carol = world
    lobby = await open_table(channel, alice, seats=3, computers=2, deals=1)
    assert (await alice.click(lobby, label="Start")).acknowledged
    service = env.bot.service
    table = await service.table_in_channel(channel.id)
    assert table is not None

    r = await carol.slash(channel, "tarot bid", contract="garde")
    assert said(r).ephemeral and "not seated" in said(r).content.lower()
    r = await alice.slash(channel, "tarot bid", contract="garde")
    assert said(r).ephemeral and "Garde" in said(r).content
    seq = (await service.get_table(table.id)).seq

    # Wrong discards are refused with a reason and change nothing.
    view = (await service.snapshot(table.id, alice.id)).seat_views[0]
    template = view.legal[0]
    assert template.type == "discard" and template.cards is not None
    kings = [c for c in view.hand if c.endswith("K") and c[0] != "T"]
    r = await alice.slash(channel, "tarot discard", cards="S2")
    assert said(r).ephemeral and "6" in said(r).content
    if kings:
        bad = " ".join([kings[0], *template.cards[:5]])
        r = await alice.slash(channel, "tarot discard", cards=bad)
        assert said(r).ephemeral and "Kings" in said(r).content
    r = await alice.slash(channel, "tarot discard", cards="ZZ9 S2")
    assert said(r).ephemeral
    assert (await service.get_table(table.id)).seq == seq

    # A right one, typed in lower case with commas.
    chosen = [c for c in template.cards if c[0] != "T"][:6]
    r = await alice.slash(channel, "tarot discard", cards=", ".join(c.lower() for c in chosen))
    assert said(r).ephemeral and "You discarded" in said(r).content, said(r).content
    r = await alice.slash(channel, "tarot chelem", announce=False)
    assert said(r).ephemeral and "No chelem" in said(r).content

    # Card play by command, with autocomplete offering exactly the legal cards.
    cards = await service.legal_cards(table.id, alice.id)
    assert cards, "after the dog, the computers play until alice's turn"
    choices = await alice.autocomplete(channel, "tarot play", "card", "")
    assert sorted(c["value"] for c in choices) == sorted(cards)
    r = await alice.slash(channel, "tarot play", card=cards[0].lower())
    assert said(r).ephemeral and "You played" in said(r).content
    r = await alice.slash(channel, "tarot poignee", cards="T2 T3")
    assert said(r).ephemeral


@pytest.mark.parametrize("simcord_bot", [(3, 2, False)], indirect=True)
async def test_closed_dms_discard_from_the_ephemeral_hand(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, _bob, carol = world
    env.inject_error(
        "POST",
        f"/channels/{alice.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    lobby = await open_table(channel, alice, seats=3, computers=2, deals=1)
    assert (await alice.click(lobby, label="Start")).acknowledged
    assert alice.user.dm_channel.history() == []

    async def ephemeral_hand() -> discord.Message:
        table_msg = next(m for m in reversed(channel.history()) if "Show my hand" in labels(m))
        shown = await alice.click(table_msg, label="Show my hand")
        assert said(shown).ephemeral
        assert said(shown).message.id not in [m.id for m in channel.history(viewer=carol)]
        return said(shown).message

    hand = await ephemeral_hand()
    assert (await alice.click(hand, label="Garde ×2")).acknowledged
    hand = await ephemeral_hand()
    assert_fits(hand)
    chosen: list[str] = []
    if toggle_ids(hand):
        # Tap the cards on the ephemeral message; each tap redraws it in place.
        chosen = sorted(toggle_ids(hand), key=lambda c: c[0] == "T")[:6]
        for card in chosen:
            r = await alice.click(hand, custom_id=toggle_ids(hand)[card])
            assert r.acknowledged and said(r).message is not None
            hand = said(r).message
            assert hand.flags.ephemeral
    else:
        assert len(selects(hand, "tc:")) >= 2
        # Pick across the suit selects of the ephemeral message; each redraws it in place.
        for i in range(len(selects(hand, "tc:"))):
            menu = selects(hand, "tc:")[i]
            have = [o.value for m in selects(hand, "tc:") for o in m.options if o.default]
            if len(have) == 6:
                break
            mine = [o.value for o in menu.options if o.default]
            extra = [o.value for o in menu.options if not o.default][: 6 - len(have)]
            r = await alice.select(hand, mine + extra, custom_id=menu.custom_id)
            assert r.acknowledged and said(r).message is not None
            hand = said(r).message
        chosen = [o.value for m in selects(hand, "tc:") for o in m.options if o.default]
    assert len(chosen) == 6
    confirm = next(b for b in labels(hand) if b.startswith("Confirm"))
    assert (await alice.click(hand, label=confirm)).acknowledged
    table = await env.bot.service.table_in_channel(channel.id)
    assert table is not None
    view = (await env.bot.service.snapshot(table.id, alice.id)).seat_views[0]
    assert sorted(view.info["discard"]) == sorted(chosen)
