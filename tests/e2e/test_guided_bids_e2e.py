"""Guided bids end to end (issue 31): every bidding decision in a tap or two, counted on the
hand a player gets in their DMs, from that message to the confirmed action.

A tap is a button click, or a menu opened and an option picked (two), or **Other…** and the
field's submit (two, plus the typing). For each game the humans play (seeded, from their DMs)
up to a bidding decision; there every legal action the engine offers is found on the message
within the budget — Loser's Game: one tap for any amount within ±3 of the estimate, two for
any other — and one of them is made exactly that way and seen applied. The guidance line is on
the hand, and the typed bid refuses what is not a bid and survives a restart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
import pytest

from bot.client import TrionfiBot
from bot.engine.actions import Action
from bot.engine.views import SeatView
from bot.services import guidance
from bot.ui.components.table import TableButton, TableSelect, parse_button
from tests.e2e.conftest import SEED
from tests.e2e.helpers import components, embed_text, labels, said
from tests.resilience.drive import Table, make_world

BIDDING = {"bid", "accept", "drop", "pass", "continue", "demand", "offer"}


def _payload(action: Action) -> dict[str, Any]:
    out = action.to_json()
    out.pop("seat", None)
    return out


def tap_routes(message: discord.Message) -> list[tuple[int, dict[str, Any], Any]]:
    """Every action the message offers: (taps, payload, how to make it)."""
    out: list[tuple[int, dict[str, Any], Any]] = []
    for c in components(message):
        custom_id = c.custom_id or ""
        if isinstance(c, discord.Button) and custom_id.startswith("tb:"):
            parsed = parse_button(custom_id.split(":", 2)[2])
            if parsed is not None and parsed[0] == "act" and parsed[1] is not None:
                payload = {k: v for k, v in parsed[1].items() if not k.startswith("@")}
                out.append((1, payload, ("click", custom_id)))
        elif isinstance(c, discord.Button) and custom_id.startswith("ta:"):
            _, _table, kind, bounds = custom_id.split("@")[0].split(":")
            low, high = (int(x) for x in bounds.split("-"))
            for x in range(low, high + 1):
                out.append((2, {"type": kind, "amount": x}, ("modal", custom_id, x)))
        elif isinstance(c, discord.SelectMenu) and custom_id.startswith("ts:"):
            _, _table, kind, field = custom_id.split("@")[0].split(":")[:4]
            for o in c.options:
                value: Any = int(o.value) if field == "amount" else o.value
                out.append((2, {"type": kind, field: value}, ("select", custom_id, o.value)))
    return out


def taps(message: discord.Message, action: Action) -> int | None:
    """The fewest taps making ``action`` from ``message`` (None: not offered)."""
    want = _payload(action)
    found = [n for n, payload, _how in tap_routes(message) if payload == want]
    return min(found, default=None)


async def make(member: Any, message: discord.Message, action: Action) -> Any:
    """Make ``action`` as a person would, by its quickest route; returns the last result."""
    want = _payload(action)
    *_, how = min((r for r in tap_routes(message) if r[1] == want), key=lambda r: r[0])
    if how[0] == "click":
        return await member.user.click(message, custom_id=how[1])
    if how[0] == "select":
        return await member.user.select(message, [how[2]], custom_id=how[1])
    shown = await member.user.click(message, custom_id=how[1])
    return await member.user.submit_modal(shown, {"amount": str(how[2])})


async def seat_view(table: Table, member: Any) -> SeatView:
    outcome = await table.service.snapshot(table.table_id, member.id)
    seat = outcome.table.seat_of(member.id)
    assert seat is not None
    return outcome.seat_views[seat]


async def until(
    table: Table, wanted: Callable[[SeatView], bool], limit: int = 300
) -> tuple[Any, discord.Message, SeatView]:
    """Play on (seeded, from the DMs) until a human's decision is ``wanted``."""
    for _ in range(limit):
        found = await table.mover()
        assert found is not None, "the game ended before the decision came"
        member, message = found
        view = await seat_view(table, member)
        if view.legal and wanted(view):
            return member, message, view
        await table.step(found=found)
    raise AssertionError("no such decision")


async def confirmed(table: Table, member: Any, action: Action, seq: int) -> None:
    """The action was applied: the table's log holds it, the first entry after ``seq``."""
    info = await table.service.get_table(table.table_id)
    entries = [e for e in await table.service.store.log(table.table_id) if e.seq > seq]
    assert entries and entries[0].seat == info.seat_of(member.id), entries[:1]
    made = {k: v for k, v in entries[0].payload.items() if k != "seat"}
    assert made == _payload(action), (made, action)


def bidding(view: SeatView) -> bool:
    return any(a.type in BIDDING for a in view.legal)


async def opened(
    env: Any, game_id: str, seats: int, options: dict[str, Any] | None = None
) -> Table:
    world = make_world(env, 2, pictures=False)
    table = Table(world, game_id, world.members[:2], SEED)
    await table.open(seats, options)
    return table


@pytest.mark.parametrize(
    ("game_id", "seats"), [("french_tarot", 4), ("la_morte", 4), ("queen_of_tarot", 3)]
)
async def test_every_bidding_decision_takes_at_most_two_taps(
    simcord_env: Any, game_id: str, seats: int
) -> None:
    table = await opened(simcord_env, game_id, seats)
    checked = 0
    while checked < 2:  # each human's first (one French Tarot deal: one bid each)
        member, message, view = await until(table, bidding)
        for action in view.legal:
            n = taps(message, action)
            assert n is not None and n <= 2, (action, n)
            if action.type in ("bid", "accept", "drop", "pass", "continue"):
                assert n == 1, action  # a button each
        assert "🧭" in embed_text(message)
        # Made by its quickest route: a demand or an offer when there is one (two taps).
        said_last = [a for a in view.legal if a.type in BIDDING]
        action = next((a for a in view.legal if a.type in ("demand", "offer")), said_last[-1])
        seq = (await table.service.get_table(table.table_id)).seq
        r = await make(member, message, action)
        assert r.acknowledged and not (said(r).content or "").startswith("⚠️")
        await confirmed(table, member, action, seq)
        checked += 1


async def test_french_tarot_buttons_carry_multipliers(simcord_env: Any) -> None:
    table = await opened(simcord_env, "french_tarot", 4)
    _member, message, view = await until(
        table, lambda v: any(a.contract == "garde" for a in v.legal)
    )
    assert {"Garde ×2", "Garde sans le chien ×4", "Garde contre le chien ×6"} <= set(
        labels(message)
    )
    g = guidance.french_tarot_hand(view)
    assert f"with {g.bouts} bout" in embed_text(message) and "card points in hand" in embed_text(
        message
    )


async def test_la_morte_accept_and_drop_say_what_they_score(simcord_env: Any) -> None:
    table = await opened(simcord_env, "la_morte", 4, {"target": 50, "round_limit": 8})
    _member, message, view = await until(table, lambda v: any(a.type == "accept" for a in v.legal))
    c = guidance.la_morte_stakes(view).contract
    assert c is not None
    assert f"Accept — 1 a trick, +{c} if it fails" in labels(message)
    assert f"Drop — +{c - 1} if you take no trick" in labels(message)
    assert f"+{c} if it fails" in embed_text(message)


async def test_losers_bid_one_tap_near_the_estimate_and_typed_otherwise(
    simcord_env: Any,
) -> None:
    table = await opened(simcord_env, "losers_game", 4)
    is_bid = lambda v: v.legal[0].type == "bid"  # noqa: E731

    # The first human bid: one tap for every amount within ±3 of the estimate, two for the
    # rest; the estimate itself is made with one tap.
    member, message, view = await until(table, is_bid)
    g = guidance.losers_bid(view)
    assert f"the computer would bid about **{g.estimate}**" in embed_text(message)
    legal = {a.amount for a in view.legal}
    for action in view.legal:
        n = taps(message, action)
        near = action.amount is not None and abs(action.amount - g.estimate) <= 3
        assert n == 1 if near or action.amount == 0 else n == 2, (action, n)
    assert all(x in legal for x in range(max(0, g.estimate - 3), g.estimate + 1))
    action = Action("bid", view.seat, amount=g.estimate)
    seq = (await table.service.get_table(table.table_id)).seq
    r = await make(member, message, action)
    assert r.acknowledged
    await confirmed(table, member, action, seq)

    # The second: far from the estimate, typed in the Other… field. What is not a bid in
    # bounds is refused privately and changes nothing.
    member, message, view = await until(table, is_bid)
    g = guidance.losers_bid(view)
    other = next(c for c in components(message) if (c.custom_id or "").startswith("ta:"))
    seq = (await table.service.get_table(table.table_id)).seq
    for typed in ("abc", "-1", "2.5", str(g.high + 1)):
        shown = await member.user.click(message, custom_id=other.custom_id)
        r = await member.user.submit_modal(shown, {"amount": typed})
        assert said(r).ephemeral and f"whole number from 0 to {g.high}" in said(r).content
        assert (await table.service.get_table(table.table_id)).seq == seq
    far = g.estimate + 10 if g.estimate + 10 <= g.high else g.high
    assert far not in g.quick
    action = Action("bid", view.seat, amount=far)
    assert taps(message, action) == 2
    r = await make(member, message, action)
    assert r.acknowledged and not (said(r).content or "").startswith("⚠️")
    await confirmed(table, member, action, seq)


async def test_typed_bid_survives_a_restart(simcord_env: Any, make_bot: Any) -> None:
    table = await opened(simcord_env, "losers_game", 4)
    member, message, view = await until(table, lambda v: v.legal[0].type == "bid")
    other = next(c for c in components(message) if (c.custom_id or "").startswith("ta:"))
    shown = await member.user.click(message, custom_id=other.custom_id)
    # The modal is open when the bot restarts: the new bot never sent it, and still takes it.
    await table.world.restart(make_bot())
    assert isinstance(table.world.bot, TrionfiBot)
    amount = guidance.losers_bid(view).high
    seq = (await table.service.get_table(table.table_id)).seq
    r = await member.user.submit_modal(shown, {"amount": f" {amount} "})
    assert r.acknowledged and not (said(r).content or "").startswith("⚠️")
    await confirmed(table, member, Action("bid", view.seat, amount=amount), seq)


def test_the_other_button_is_stamped_with_its_deal() -> None:
    """An Other… field drawn for one deal cannot bid in the next (as every decision)."""
    from bot.ui.components.amount import AmountButton
    from bot.ui.components.table import stamp_deal

    ui = discord.ui.View()
    ui.add_item(TableButton(3, "act:bid:amount=2", label="Bid 2"))
    ui.add_item(AmountButton(3, "bid", 0, 130, label="Other…"))
    ui.add_item(TableSelect(3, "demand", "amount"))
    stamp_deal(ui, 7)
    ids = [getattr(item, "custom_id", "") for item in ui.children]
    assert ids == ["tb:3:act:bid:amount=2@7", "ta:3:bid:0-130@7", "ts:3:demand:amount@7"]
