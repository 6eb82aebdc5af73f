"""Component custom_ids: decisions carry the deal they were drawn for; older ids still parse."""

from __future__ import annotations

import re

import discord

from bot.ui.components.table import DEAL_KEY, TableButton, TableSelect, parse_button, stamp_deal

TEMPLATE: re.Pattern[str] = TableSelect.__discord_ui_compiled_template__  # type: ignore[attr-defined]


def test_decision_components_carry_their_deal() -> None:
    assert parse_button("act:play:card=S2@3") == (
        "act",
        {"type": "play", "card": "S2", DEAL_KEY: 3},
    )
    assert parse_button("act:play:card=S2") == ("act", {"type": "play", "card": "S2"})
    assert parse_button("act:pass@12") == ("act", {"type": "pass", DEAL_KEY: 12})
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(7, "act:bid:amount=3"))
    view.add_item(TableButton(7, "hand"))
    view.add_item(TableSelect(7, "play", "card", suffix=":1"))
    stamp_deal(view, 4)
    ids = [getattr(item, "custom_id", "") for item in view.children]
    assert ids == ["tb:7:act:bid:amount=3@4", "tb:7:hand", "ts:7:play:card:1@4"]
    assert TEMPLATE.fullmatch("ts:7:play:card:1@4") is not None
    assert TEMPLATE.fullmatch("ts:7:play:card") is not None  # older buttons
