"""The newer message layout, without Discord (issue 30): a picture is shown first with the full
text as its alt text and a brief under it, text only without one; the accent says whose
decision it is; a quiet hand stays byte-identical while others move; Discord's limits hold;
the final sheet is one line per player, with names."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot.engine import match
from bot.engine.deck import shuffle
from bot.engine.registry import get_rules, implemented
from bot.services.models import Outcome, SeatInfo, TableInfo
from bot.ui.components.layout import ACCENT_TURN, ACCENT_WAIT, Layout, Screen, from_embed
from bot.ui.components.table import TableButton
from bot.ui.delivery import access
from bot.ui.delivery.pictures import PICTURE, add_hand_picture, for_edit, for_send
from bot.ui.games import renderer
from bot.ui.handlers.layouts import hand_layout, result_card
from bot.ui.text.render import final_embed
from tests.ui.test_quiet_hands import _outcome, _table


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for c in components:
        out.append(c)
        out += walk(c.get("components") or [])
    return out


def texts(layout: discord.ui.LayoutView) -> list[str]:
    return [c["content"] for c in walk(layout.to_components()) if c["type"] == 10]


def gallery(layout: discord.ui.LayoutView) -> list[dict[str, Any]]:
    return [i for c in walk(layout.to_components()) if c["type"] == 12 for i in c["items"]]


def _controls(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for i in range(n):
        view.add_item(TableButton(7, f"act:play:card=S{i}", label=str(i), row=i // 5))
    return view


def test_a_picture_comes_first_with_the_full_text_as_its_alt_text() -> None:
    screen = Screen("🟢 Your turn", "two lines\nof brief", "the whole text", ACCENT_TURN)
    bare = Layout(screen)
    assert texts(bare) == ["🟢 Your turn", "the whole text"] and not gallery(bare)
    shown = bare.with_picture("turn.png")
    assert texts(shown) == ["🟢 Your turn", "two lines\nof brief"]
    (item,) = gallery(shown)
    assert item["media"]["url"] == "attachment://turn.png"
    assert item["description"] == "the whole text"
    (box,) = shown.to_components()
    assert box["type"] == 17 and box["accent_color"] == ACCENT_TURN.value
    assert [c["type"] for c in box["components"]][:3] == [10, 12, 10]


def test_discords_limits_hold() -> None:
    long = "\n".join(f"line {i} " + "x" * 60 for i in range(200))
    layout = Layout(Screen("head", long, long, ACCENT_WAIT, _controls(25)))
    assert sum(len(t) for t in texts(layout)) <= 4000
    assert len(walk(layout.to_components())) <= 40
    rows = [c for c in walk(layout.to_components()) if c["type"] == 1]
    assert [len(r["components"]) for r in rows] == [5] * 5
    assert len(gallery(layout.with_picture("hand.png"))[0]["description"]) <= 1024
    # The custom_ids are the restart-proof ones, unchanged.
    ids = [c["custom_id"] for c in walk(layout.to_components()) if c["type"] == 2]
    assert ids[0] == "tb:7:act:play:card=S0"


def test_sends_and_edits_carry_the_flagged_layout_and_its_file() -> None:
    fields = {"view": Layout(Screen("h", "b", "f")).with_picture("t.png"), PICTURE: ("t.png", b"x")}
    sent = for_send(fields)
    assert sent["file"].filename == "t.png" and "content" not in sent and "embed" not in sent
    edit = for_edit(fields)
    # An older message turning into the layout loses its content and embed.
    assert edit["content"] is None and edit["embed"] is None
    assert [f.filename for f in edit["attachments"]] == ["t.png"]
    assert edit["view"].has_components_v2()
    # A channel without Attach Files: no picture, the whole text instead.
    out = access.within(fields, frozenset({"attach_files"}))
    assert PICTURE not in out and texts(out["view"]) == ["h", "f"]


def test_an_embed_in_the_layout_keeps_its_words_and_colour() -> None:
    embed = discord.Embed(title="Result", description="alice wins", colour=discord.Colour.gold())
    embed.add_field(name="Scores", value="alice 3\nbob 1")
    embed.set_footer(text="2 deals")
    layout = from_embed(embed, _controls(1))
    assert texts(layout) == ["**Result**", "alice wins\n**Scores**\nalice 3\nbob 1\n-# 2 deals"]
    assert layout.to_components()[0]["accent_color"] == discord.Colour.gold().value


def _five() -> TableInfo:
    names = ("alice", "bob", "carol", "dave", "erin")
    seats = tuple(SeatInfo(i, 100 + i, n) for i, n in enumerate(names))
    return TableInfo(3, 10, 20, "french_tarot", "finished", 100, 5, {}, seats)


def test_the_final_sheet_is_one_line_per_player_with_names() -> None:
    table = _five()
    history = [(n, (40 * n, -10 * n, -10 * n, -10 * n, -10 * n)) for n in range(1, 11)]
    totals = tuple(sum(d[s] for _n, d in history) for s in range(5))
    outcome = Outcome(table=table, totals=totals, deals_played=10, finished=True, winners=(0,))
    embed = final_embed(outcome, "French Tarot", history)
    sheet = embed.fields[-1].value or ""
    lines = sheet.splitlines()
    assert "```" not in sheet and "P1" not in sheet
    assert [line.split("**")[1] for line in lines] == ["alice", "bob", "carol", "dave", "erin"]
    assert lines[0].startswith("**alice** ") and lines[0].endswith(" = **2200**")
    assert lines[1].endswith(" = **−550**") and "−100 (−550)" in lines[1]
    assert max(len(line) for line in lines) <= 1024 // 5


@pytest.mark.parametrize("game_id", sorted(implemented()))
async def test_a_waiting_hand_does_not_change_while_others_move(game_id: str) -> None:
    """The layout of a hand that is not deciding (its picture's name included) stays the same
    while others bid and play: the publisher edits a DM only when it changes."""
    rules = get_rules(game_id)
    players = rules.min_players + 1 if rules.max_players > rules.min_players else rules.min_players
    rng = random.Random(game_id)
    m = match.new_match(game_id, players, None, 0)
    m = match.start_deal(m, shuffle(rules.pack(players), rng.randrange(2**63)))
    table = _table(game_id, m)
    r = renderer(game_id)

    async def drawn() -> dict[int, tuple[Any, bool, str]]:
        outcome, views = _outcome(table, m)
        out = {}
        for s, v in views.items():
            embed = r.hand_embed(table, v, "Club › #tarot · table #1", outcome)
            layout = hand_layout(outcome, s, embed, None, game="G", place="Club", where="w")
            fields = await add_hand_picture({"view": layout}, outcome, s)
            deciding = v.public.to_act == s and bool(v.legal)
            assert (
                layout.to_components()[0]["accent_color"]
                == (ACCENT_TURN if deciding else ACCENT_WAIT).value
            )
            out[s] = (v, deciding, repr(fields["view"].to_components()))
        return out

    before = await drawn()
    compared = 0
    while (seat := match.to_act(m)) is not None and compared < 30:
        legal = match.legal_actions(m)
        action = legal[int(rng.random() * len(legal))]
        if action.type in rules.multi_card_types:
            assert m.deal is not None
            action = rules.random_choice(rules.observe(m.deal, seat), action, rng)
        m, _ = match.apply(m, action)
        if m.deal_over:
            break
        after = await drawn()
        for s, (v1, d1, c1) in before.items():
            v2, d2, c2 = after[s]
            same = (v1.hand, v1.legal, v1.info, v1.public.phase) == (
                v2.hand,
                v2.legal,
                v2.info,
                v2.public.phase,
            )
            if not d1 and not d2 and same:
                assert c1 == c2, (game_id, s)
                compared += 1
        before = after
    assert compared > 0


def test_a_result_card_keeps_a_tie_s_shared_place() -> None:
    """Places are written "1\\." : Markdown would renumber "1.", "1.", "3." lines as 1, 2, 3."""
    totals = (50, 50, -30, -30, -40)
    outcome = Outcome(table=_five(), totals=totals, deals_played=3, finished=True, winners=(0, 1))
    card = result_card(outcome, 3, game="French Tarot", where="w", review=False)
    lines = texts(card)[1].splitlines()
    assert [line.split(" ", 1)[0] for line in lines[:5]] == ["1\\.", "1\\.", "3\\.", "3\\.", "5\\."]
    assert texts(card)[0].endswith("you placed 3 of 5 with -30 points")
    assert "(you)" in lines[3] and "dave" in lines[3]
