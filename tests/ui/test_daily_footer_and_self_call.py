"""Two bugs of the newcomer walkthrough (issue 31): a one-deal daily table's footer said
"Deals: 2 per player", and a 5-player French Tarot taker who called their own King was told
"the partner stays secret" (they play alone, french_tarot C-9)."""

from __future__ import annotations

from typing import Any

from bot.engine.actions import Action
from bot.engine.cards import TAROT_PACK
from bot.engine.deck import shuffle
from bot.engine.games.french_tarot import RULES
from bot.i18n import using
from bot.services.models import Outcome, SeatInfo, TableInfo
from bot.ui.games import french_tarot as ui


def table(players: int, daily: str | None = None) -> TableInfo:
    return TableInfo(
        id=8,
        guild_id=1,
        channel_id=2,
        game_id="french_tarot",
        status="playing",
        owner_id=10,
        players=players,
        options={},
        seats=tuple(SeatInfo(s, 10 + s, f"P{s + 1}") for s in range(players)),
        daily=daily,
    )


def test_a_daily_table_says_one_deal_not_the_match_length() -> None:
    state = RULES.new_deal(4, {}, shuffle(TAROT_PACK, 3), 0)
    pv = RULES.observe_public(state)
    with using("en"):
        daily = ui.table_embed(Outcome(table=table(4, "2026-11-29"), public=pv, totals=(0,) * 4))
        usual = ui.table_embed(Outcome(table=table(4), public=pv, totals=(0,) * 4))
    assert daily.footer.text == "Daily deal: one deal"
    assert usual.footer.text is not None and "Deals: 2 per player" in usual.footer.text


def self_called_discard() -> tuple[Any, int, str]:
    """A 5-player deal where the first speaker takes a Garde, calls a King of their own and
    is to discard: (state, taker, the called King)."""
    for seed in range(200):
        s = RULES.new_deal(5, {}, shuffle(TAROT_PACK, seed), 0)
        taker = RULES.to_act(s)
        assert taker is not None
        kings = [c for c in RULES.observe(s, taker).hand if c[1:] == "K" and c[0] != "T"]
        if not kings:
            continue
        s, _ = RULES.apply(s, Action("bid", taker, contract="garde"))
        while (seat := RULES.to_act(s)) is not None and seat != taker:
            s, _ = RULES.apply(s, Action("bid", seat, contract="pass"))
        if RULES.to_act(s) != taker or not any(a.type == "call" for a in RULES.legal_actions(s)):
            continue
        s, _ = RULES.apply(s, Action("call", taker, card=kings[0]))
        if any(a.type == "discard" for a in RULES.legal_actions(s)):
            return s, taker, kings[0]
    raise AssertionError("no such deal")


def test_a_taker_who_called_their_own_king_is_told_they_play_alone() -> None:
    s, taker, _king = self_called_discard()
    view = RULES.observe(s, taker)
    assert view.info.get("alone") is True
    outcome = Outcome(table=table(5), public=view.public, seat_views={taker: view}, totals=(0,) * 5)
    with using("en"):
        mine = ui.hand_embed(outcome.table, view, "here", outcome)
        public = ui.table_embed(outcome)
    text = str(mine.to_dict())
    assert "your own card: you play **alone**" in text
    assert "stays secret" not in text
    # The table learns it only when the King is played (french_tarot D-13).
    assert "stays secret" in str(public.to_dict())
    for seat in range(5):
        if seat != taker:
            assert "alone" not in RULES.observe(s, seat).info
