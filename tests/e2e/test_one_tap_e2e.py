"""One-tap card play: when the legal cards fit, each is one button in the hand (DM or ephemeral)
and a tap plays it; menus only when more cards are legal. Plus the layout rules and the line
saying why a held card is forbidden (``restriction_line``)."""

from __future__ import annotations

import random
from typing import Any

import discord

from bot.engine import match
from bot.engine.actions import Action
from bot.engine.deck import shuffle
from bot.engine.registry import get_rules, implemented
from bot.services.tables import TableService
from bot.ui.components.cards import card_rows, decision_view
from bot.ui.components.choice import add_play_selects
from bot.ui.components.table import (
    CARD_BUTTON_ROWS,
    TableButton,
    TableSelect,
    parse_button,
    stamp_deal,
)
from bot.ui.text.restriction import restriction_line
from tests.e2e.helpers import (
    button_card,
    card_buttons,
    dm_hand,
    embed_text,
    has_controls,
    play_selects,
    said,
)
from tests.e2e.helpers import rows as action_rows


async def _seat_view(service: TableService, table_id: int, member: Any) -> Any:
    out = await service.snapshot(table_id, member.id)
    (view,) = out.seat_views.values()
    return out, view


async def test_a_whole_game_played_by_tapping_card_buttons(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, _bob, _carol = world
    r = await alice.slash(channel, "oldtarot new", seats=3, computers=2, target=10)
    assert r.acknowledged and "is open" in (said(r).content or "")
    assert (await alice.click(channel.last_message, label="Start")).acknowledged
    service: TableService = env.bot.service
    table = await service.table_in_channel(channel.id)
    assert table is not None
    rng = random.Random(7)
    taps = narrowed = 0
    for _ in range(400):
        dm = dm_hand(alice)
        if not has_controls(dm):
            break
        assert dm is not None
        out, view = await _seat_view(service, table.id, alice)
        legal = [a.card for a in view.legal if a.type == "play"]
        # Exactly the legal cards, one button each, in the hand's order; no menus (≤ 12 cards).
        buttons = card_buttons(dm)
        offered = [button_card(b) for b in buttons]
        assert sorted(offered) == sorted(legal) and not play_selects(dm)
        assert offered == [c for c in view.hand if c in legal]
        assert len(action_rows(dm)) <= CARD_BUTTON_ROWS
        assert all(len(row.children) <= 5 for row in action_rows(dm))
        assert all(f"@{out.deal_number}" in (b.custom_id or "") for b in buttons)  # deal stamp
        if len(legal) < len(view.hand):
            narrowed += 1
        # Tap one card (not always the first) and check that exactly it was played.
        button = rng.choice(buttons)
        card = button_card(button)
        before = len(view.hand)
        r = await alice.user.click(dm, custom_id=button.custom_id)
        assert r.acknowledged and not (said(r).content or "").startswith("⚠️")
        taps += 1
        after, view2 = await _seat_view(service, table.id, alice)
        if after.deal_number == out.deal_number and not after.finished:
            assert card not in view2.hand and len(view2.hand) == before - 1
        else:
            assert before == 1  # the deal's last card
    assert taps >= 12 and narrowed > 0
    assert any("game over" in embed_text(m) for m in channel.history())
    assert not has_controls(dm_hand(alice))


# ---- layout ----------------------------------------------------------------------------------


def test_card_rows_keep_suits_on_their_own_rows_when_there_is_room() -> None:
    assert card_rows(["SK", "S2", "HQ", "T5", "EX"], 4) == [["SK", "S2"], ["HQ"], ["T5", "EX"]]
    # Too many runs for the rows: the smallest neighbours share one.
    assert card_rows(["SK", "HQ", "C2", "D3", "T5"], 4) == [["SK", "HQ"], ["C2"], ["D3"], ["T5"]]
    assert card_rows([f"T{i}" for i in range(1, 21)], 5) == [
        [f"T{i}" for i in range(k, k + 5)] for k in (1, 6, 11, 16)
    ]
    assert card_rows([f"T{i}" for i in range(1, 22)], 5) is None  # 21 cards: menus
    assert card_rows(["S1", "S2", "S3", "S4", "S5", "S6"], 1) is None
    assert card_rows([], 4) is None
    cards = ["S1", "S2", "S3", "S4", "H1", "H2", "H3", "H4", "C1", "C2", "C3", "C4", "D1"]
    assert card_rows(cards, 3) == [cards[0:4], cards[4:8], cards[8:13]]
    # Runs too long to merge: filled in order.
    cards = [s + r for s in "SHCD" for r in "123"]
    assert card_rows(cards, 3) == [cards[0:5], cards[5:10], cards[10:12]]


def test_decision_view_taps_cards_and_keeps_other_buttons() -> None:
    legal = tuple(Action("play", 0, card=c) for c in ("S7", "T13", "HK"))
    view = decision_view(5, legal, {}, {"T13": "☠ La Morte"})
    assert view is not None
    stamp_deal(view, 3)
    ids = [getattr(i, "custom_id", "") for i in view.children]
    assert ids == ["tb:5:act:play:card=S7@3", "tb:5:act:play:card=T13@3", "tb:5:act:play:card=HK@3"]
    buttons = [i.item for i in view.children if isinstance(i, TableButton)]
    # The sign of a named card goes to the emoji field, its name stays the label (issue 31).
    assert buttons[1].label == "La Morte" and str(buttons[1].emoji) == "☠️"
    assert buttons[0].label == "7" and str(buttons[0].emoji) == "♠️"
    assert parse_button("act:play:card=T13@3") == (
        "act",
        {"type": "play", "card": "T13", "@deal": 3},
    )
    # Other decisions keep their buttons, on rows below the cards.
    mixed = (*legal, Action("accept", 0), Action("drop", 0))
    view = decision_view(5, mixed, {"accept": "Accept", "drop": "Drop"})
    assert view is not None
    rows = {getattr(i, "custom_id", ""): i.row for i in view.children}
    assert rows["tb:5:act:accept"] == rows["tb:5:act:drop"] > rows["tb:5:act:play:card=S7"]
    # More than 20 legal cards: menus, as before.
    many = tuple(Action("play", 0, card=c) for c in [f"T{i}" for i in range(1, 22)])
    view = decision_view(5, many, {})
    assert view is not None and all(isinstance(i, TableSelect) for i in view.children)


def test_play_controls_leave_room_for_other_rows() -> None:
    cards = [f"T{i}" for i in range(1, 16)]  # 15 cards in 3 rows: buttons
    ui = discord.ui.View(timeout=None)
    assert add_play_selects(ui, 1, cards, 3) == 3
    assert all(isinstance(i, TableButton) for i in ui.children)
    ui = discord.ui.View(timeout=None)  # 16 cards in 3 rows do not fit: one menu
    assert add_play_selects(ui, 1, [*cards, "T16"], 3) == 1
    assert [type(i) for i in ui.children] == [TableSelect]
    ui = discord.ui.View(timeout=None)  # 20 cards, 5 rows offered: 4 used, the last kept free
    assert add_play_selects(ui, 1, [f"T{i}" for i in range(1, 21)], 5) == 4


def test_every_game_offers_buttons_or_menus_within_discord_limits() -> None:
    """Random deals of every game through each renderer's own controls, as the bot builds
    them: exactly the legal cards, as buttons when they fit, else menus."""
    from bot.ui.games import renderer
    from bot.ui.handlers.screens import decision_controls

    for game_id in implemented():
        rules = get_rules(game_id)
        rng = random.Random(game_id)
        taps = 0
        for deal in range(12):
            players = (rules.min_players, rules.max_players)[deal % 2]
            m = match.new_match(game_id, players, None, 0)
            m = match.start_deal(m, shuffle(rules.pack(players), rng.randrange(2**63)))
            while (seat := match.to_act(m)) is not None and m.deal is not None:
                view = rules.observe(m.deal, seat)
                legal = [a.card for a in view.legal if a.type == "play"]
                ui = decision_controls(renderer(game_id), 1, view)
                if legal and ui is not None:
                    items = ui.children
                    tapped = [
                        i.rest.split("card=")[1]
                        for i in items
                        if isinstance(i, TableButton) and i.rest.startswith("act:play:card=")
                    ]
                    offered = tapped or [
                        o.value
                        for i in items
                        if isinstance(i, TableSelect) and i.action_type == "play"
                        for o in i.item.options
                    ]
                    assert sorted(offered) == sorted(legal), game_id
                    if tapped:
                        taps += 1
                        rows = [i.row for i in items if isinstance(i, TableButton)]
                        assert max(rows) < 5 and all(rows.count(r) <= 5 for r in rows)
                    else:
                        assert len(legal) > 15, (game_id, legal)
                    assert len(items) <= 25
                action = view.legal[rng.randrange(len(view.legal))]
                if action.type in rules.multi_card_types:
                    action = rules.random_choice(view, action, rng)
                m, _ = match.apply(m, action)
                if m.deal_over:
                    break
        assert taps > 0, game_id


# ---- why a held card is forbidden ------------------------------------------------------------


def _view_with(game_id: str, restriction: dict[str, Any] | None, *legal: str, **public: Any) -> Any:
    from bot.engine.views import PublicView, SeatView

    pv = PublicView(game_id, "play", 4, 0, 0, (1,) * 4, (), (0,) * 4, 0, info=dict(public))
    info = {} if restriction is None else {"play_restriction": restriction}
    plays = tuple(Action("play", 0, card=c) for c in legal)
    return SeatView(0, ("T13", "S2", *legal), plays, pv, info)


def test_restriction_lines() -> None:
    line = restriction_line
    assert line(_view_with("french_tarot", None)) is None
    assert line(_view_with("losers_game", {"code": "follow", "suit": "H"})) == (
        "You must follow ♥ Hearts."
    )
    assert line(_view_with("queen_of_tarot", {"code": "follow", "suit": "H"}), {"H": "Cups"}) == (
        "You must follow ♥ Cups."
    )
    assert line(_view_with("french_tarot", {"code": "follow", "suit": "T"})) == (
        "Trumps were led: you must play a trump."
    )
    assert line(_view_with("early_french_tarot", {"code": "trump", "led": "D"})) == (
        "You have no ♦ Diamonds, so you must trump."
    )
    over = line(_view_with("french_tarot", {"code": "overtrump", "led": "T"}))
    assert over is not None and "higher trump" in over
    fool = line(_view_with("early_french_tarot", {"code": "trump", "led": "D"}, "T3", "EX"))
    assert fool == "You have no ♦ Diamonds, so you must trump (or play the Fool)."
    excuse = line(_view_with("french_tarot", {"code": "follow", "suit": "H"}, "H3", "EX"))
    assert excuse == "You must follow ♥ Hearts (or play the Excuse)."
    called = line(_view_with("french_tarot", {"code": "called_suit_first_trick", "suit": "S"}))
    assert called is not None and "♠ Spades" in called and "first trick" in called
    assert "lowest" in (line(_view_with("la_morte", {"code": "lowest_lead"})) or "")
    assert "last card" in (line(_view_with("la_morte", {"code": "morte_lead"})) or "")
    morte = line(_view_with("la_morte", {"code": "follow", "suit": "S"}, trump="S"))
    assert morte == "You must follow ♠ Spades. La Morte counts as a trump."


def test_restriction_line_from_real_positions() -> None:
    """Every game: a line exactly when the engine names a reason for the seat to play."""
    for game_id in implemented():
        rules = get_rules(game_id)
        rng = random.Random(f"line/{game_id}")
        players = rules.max_players
        lines = 0
        for _ in range(5):
            m = match.new_match(game_id, players, None, 0)
            m = match.start_deal(m, shuffle(rules.pack(players), rng.randrange(2**63)))
            while (seat := match.to_act(m)) is not None and m.deal is not None:
                view = rules.observe(m.deal, seat)
                text = restriction_line(view)
                assert (text is None) == (rules.play_restriction(m.deal, seat) is None)
                lines += text is not None
                action = view.legal[rng.randrange(len(view.legal))]
                if action.type in rules.multi_card_types:
                    action = rules.random_choice(view, action, rng)
                m, _ = match.apply(m, action)
                if m.deal_over:
                    break
        assert lines > 0, game_id
