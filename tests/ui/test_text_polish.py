"""Issue 16's text polish: refusals in words, numeric trump order, plurals, the lobby's turn
clock, the DM header's link to the table, one word per game for a round of play, labelled match
totals and play menus in the hand's order.

Seeded random deals are played through the pure engine (no Discord, no database) and rendered
as ``TableCore`` would hand them to the renderers.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator
from typing import Any, cast

import discord
import pytest
from discord.ui.view import BaseView

from bot.engine import match
from bot.engine.actions import Action
from bot.engine.deck import shuffle
from bot.engine.errors import IllegalAction
from bot.engine.match import MatchState
from bot.engine.registry import get_rules, implemented
from bot.engine.views import SeatView
from bot.services.models import EndedDeal, Outcome, SeatInfo, TableInfo
from bot.services.step import illegal_move
from bot.ui.games import french_tarot, renderer
from bot.ui.handlers.screens import TableScreens, lobby_embed_of
from bot.ui.text.cards import card_key, sort_cards
from bot.ui.text.life import CLOCK_WORDS, clock_name
from bot.ui.text.refusals import refusal
from bot.ui.text.render import final_embed, plural, round_word, table_link
from bot.ui.text.restriction import restriction_line

GUILD, CHANNEL, MESSAGE = 10, 20, 30


def _table(game_id: str, players: int, **extra: Any) -> TableInfo:
    seats = tuple(SeatInfo(i, 100 + i, f"player{i}") for i in range(players))
    return TableInfo(
        1,
        GUILD,
        CHANNEL,
        game_id,
        "playing",
        100,
        players,
        dict(extra.pop("options", {})),
        seats,
        message_id=extra.pop("message_id", MESSAGE),
        **extra,
    )


def _outcome(table: TableInfo, m: MatchState) -> Outcome:
    rules = m.rules
    assert m.deal is not None
    running = not m.deal_over
    return Outcome(
        table=table,
        public=rules.observe_public(m.deal),
        seat_views={s: rules.observe(m.deal, s) for s in range(m.players)},
        totals=m.totals,
        deal_number=m.deals_played + (1 if running else 0),
        deals_played=m.deals_played,
        finished=m.finished,
        winners=m.winners,
    )


def _states(game_id: str, players: int, seed: int, deals: int = 2) -> Iterator[MatchState]:
    """Every state of ``deals`` seeded random deals (random legal actions)."""
    rules = get_rules(game_id)
    rng = random.Random(f"{game_id}/{players}/{seed}")
    m = match.new_match(game_id, players, None, 0)
    for _ in range(deals):
        if m.finished:
            return
        m = match.start_deal(m, shuffle(rules.pack(players), rng.randrange(2**63)))
        yield m
        while (seat := match.to_act(m)) is not None:
            legal = match.legal_actions(m)
            action = legal[int(rng.random() * len(legal))]
            if action.type in rules.multi_card_types:
                assert m.deal is not None
                action = rules.random_choice(rules.observe(m.deal, seat), action, rng)
            m, _ = match.apply(m, action)
            yield m


def _text(embed: discord.Embed) -> str:
    d = embed.to_dict()
    parts = [d.get("title", ""), d.get("description", ""), (d.get("author") or {}).get("name", "")]
    for f in d.get("fields", []):
        parts += [f["name"], f["value"]]
    parts.append((d.get("footer") or {}).get("text", ""))
    return "\n".join(str(p) for p in parts)


def _players(game_id: str) -> int:
    return {"queen_of_tarot": 3, "early_french_tarot": 4, "losers_game": 4}.get(game_id, 4)


# ---- 1. refusals -------------------------------------------------------------------------


def _french_tarot_refusal() -> tuple[MatchState, Action, IllegalAction]:
    """A real French Tarot refusal: a held card that may not be played now."""
    for seed in range(50):
        for m in _states("french_tarot", 4, seed, deals=1):
            seat = match.to_act(m)
            if seat is None or m.rules.observe_public(m.deal).phase != "play":
                continue
            legal = {a.card for a in match.legal_actions(m) if a.type == "play"}
            held = [c for c in m.rules.observe(m.deal, seat).hand if c not in legal]
            if not held:
                continue
            action = Action("play", seat, card=held[0])
            with pytest.raises(IllegalAction) as info:
                match.apply(m, action)
            return m, action, info.value
    raise AssertionError("no French Tarot position with a held card that is refused")


def test_french_tarot_refusal_names_the_card_and_the_rule() -> None:
    m, action, e = _french_tarot_refusal()
    assert e.code == "illegal_action"
    err = illegal_move(e, m, action)
    assert err.code == "illegal_action"
    assert err.params == {"game": "french_tarot", "reason": "cannot_play", "card": action.card}
    assert m.deal is not None
    view = m.rules.observe(m.deal, action.seat)
    why = restriction_line(view)
    assert why is not None
    text = refusal(err, view)
    assert re.fullmatch(r"You can't play (\S+) now\. .+\.", text), text
    assert text.endswith(why)  # the line the hand shows under the cards
    assert not re.search(r"\b[SHDC](?:10|[1-9]|[JCQK])\b", text), text  # no raw card code
    assert "follow" in text or "trump" in text


def test_refusals_are_codes_the_ui_words() -> None:
    turn = illegal_move(IllegalAction("not_your_turn", "it is seat 2's turn"))
    assert (turn.code, turn.params) == ("not_your_turn", {})
    assert refusal(turn) == "It's not your turn."
    over = illegal_move(IllegalAction("deal_over", "this hand is over"))
    assert refusal(over) == "This deal is already over."
    bad = illegal_move(IllegalAction("bad_action", "unknown card code 'ZZ9'"))
    assert bad.params == {"reason": "unknown_card", "card": "ZZ9"}
    assert refusal(bad) == "That isn't a valid choice: there is no card 'ZZ9'."
    # The engine's English never reaches the player, not even as a fallback.
    vague = illegal_move(IllegalAction("illegal_action", "name one of the suits S, H, D or C"))
    assert vague.params == {"reason": "other"} and refusal(vague) == "You can't do that now."


# ---- 2. trumps in numeric order ------------------------------------------------------------


def test_card_key_orders_trumps_by_number() -> None:
    text_sorted = sorted(["T14", "T16", "T17", "T19", "T2", "T21", "T3", "T9"])
    assert text_sorted == ["T14", "T16", "T17", "T19", "T2", "T21", "T3", "T9"]  # the bug
    assert sort_cards(text_sorted) == ["T21", "T19", "T17", "T16", "T14", "T9", "T3", "T2"]
    assert sort_cards(["HA", "H10", "H2", "HK"]) == ["HA", "HK", "H10", "H2"]  # Ace high
    assert sort_cards(["S1", "S10", "SK", "EX", "T1"]) == ["SK", "S10", "S1", "T1", "EX"]
    assert card_key("EX") > card_key("T21") > card_key("D1")


def test_shown_poignee_trumps_are_in_numeric_order() -> None:
    shown = ("T14", "T16", "T17", "T19", "T2", "T21", "T3", "T9")  # as the engine sorts them
    for m in _states("french_tarot", 4, 0, deals=3):
        if m.deal is not None and m.rules.observe_public(m.deal).phase == "play":
            break
    else:
        raise AssertionError("no deal reached the play")
    m = dataclasses.replace(m, deal=m.deal._replace(poignees=((1, 0, shown),)))
    table = _table("french_tarot", 4)
    embed = french_tarot.table_embed(_outcome(table, m))
    field = next(f for f in embed.fields if "poignée" in (f.name or ""))
    assert field.value == "T21 · T19 · T17 · T16 · T14 · T9 · T3 · T2"
    assert french_tarot.confirmation({"type": "poignee", "cards": list(shown)}) == (
        "You showed a poignée: T21 · T19 · T17 · T16 · T14 · T9 · T3 · T2."
    )


# ---- 3. plurals ----------------------------------------------------------------------------


def test_plural() -> None:
    assert plural(1, "trick") == "1 trick"
    assert plural(0, "trick") == "0 tricks"
    assert plural(2, "pass", "passes") == "2 passes"
    assert plural(1, "deal", bold=True) == "**1** deal"


def test_counts_of_one_are_singular() -> None:
    assert "Round limit: **1** deal" in renderer("la_morte").option_lines({"round_limit": 1})
    assert "Round limit: **3** deals" in renderer("la_morte").option_lines({"round_limit": 3})
    assert "Hand limit: **1** hand" in renderer("losers_game").option_lines({"hand_limit": 1})
    for game_id in implemented():
        table = _table(game_id, _players(game_id))
        outcome = Outcome(table, totals=(1,) * table.players, deals_played=1, winners=(0,))
        word = round_word(game_id)
        assert f"after 1 {word}." in (final_embed(outcome, "T").description or "")
    seen = 0
    for game_id in implemented():
        players = _players(game_id)
        table = _table(game_id, players)
        r = renderer(game_id)
        for m in _states(game_id, players, 1):
            if m.deal is None:
                continue
            outcome = _outcome(table, m)
            texts = [_text(r.table_embed(outcome))]
            texts += [
                _text(r.hand_embed(table, v, "x", outcome)) for v in outcome.seat_views.values()
            ]
            for text in texts:
                assert not re.search(r"\b1 (tricks|cards|deals|hands|passes|bouts)\b", text), text
                seen += bool(re.search(r"\b1 (trick|card)\b", text))
    assert seen  # a count of one was shown, in the singular


# ---- 4. the lobby's turn clock -------------------------------------------------------------


async def test_lobby_turn_clock_reads_naturally() -> None:
    assert clock_name(None) == "off"
    assert CLOCK_WORDS["normal"] == "normal (2 min a turn)"
    lobby = _table("la_morte", 3, message_id=None)
    lobby = dataclasses.replace(lobby, status="lobby")
    text = _text(lobby_embed_of(lobby))
    assert "Turn clock: **off**" in text and "no turn clock" not in text
    timed = dataclasses.replace(lobby, turn_clock=120)
    text = _text(lobby_embed_of(timed))
    assert "Turn clock: **normal (2 min a turn)**" in text


# ---- 5. the DM header links to the table ---------------------------------------------------


@pytest.mark.parametrize("game_id", implemented())
def test_hand_header_links_to_the_table_message(game_id: str) -> None:
    players = _players(game_id)
    table = _table(game_id, players)
    m = next(_states(game_id, players, 2))
    outcome = _outcome(table, m)
    r = renderer(game_id)
    for view in outcome.seat_views.values():
        author = r.hand_embed(table, view, "Server › #tarot · table #1", outcome).to_dict()[
            "author"
        ]
        assert author == {
            "name": "Server › #tarot · table #1",
            "url": f"https://discord.com/channels/{GUILD}/{CHANNEL}/{MESSAGE}",
        }
    no_message = _table(game_id, players, message_id=None)
    assert table_link(no_message) == f"https://discord.com/channels/{GUILD}/{CHANNEL}"


# ---- 6. one word for a round of play per game ----------------------------------------------


@pytest.mark.parametrize("game_id", implemented())
def test_one_word_for_a_round_per_game(game_id: str) -> None:
    word = round_word(game_id)
    other = "hand" if word == "deal" else "deal"
    players = _players(game_id)
    table = _table(game_id, players)
    r = renderer(game_id)
    # "Deal" as the act of dealing (a rules section, "the deal passes") stays; a numbered
    # round, a round limit and "the next …" use the game's word only.
    wrong = re.compile(rf"\b{other}s? \d|\b{other} limit|next {other}\b|\b{other}s: \*\*", re.I)
    waiting = 0
    for m in _states(game_id, players, 3):
        if m.deal is None:
            continue
        outcome = _outcome(table, m)
        texts = [_text(r.table_embed(outcome))]
        for v in outcome.seat_views.values():
            text = _text(r.hand_embed(table, v, "x", outcome))
            waiting += f"Waiting for the next {word}." in text
            texts.append(text)
        if m.deal_over and m.results:
            ended = EndedDeal(m.deals_played, m.results[-1], m.rules.observe_public(m.deal))
            texts.append(_text(r.deal_summary_embed(table, ended, m.totals)))
        for text in texts:
            assert not wrong.search(text), text
            assert re.search(rf"\b{word} \d", text, re.I), text
    assert waiting  # the quiet DM between deals
    options = " ".join(r.option_lines(dict(table.options)))
    assert not re.search(rf"\b{other}s\b", options, re.I), options


# ---- 7. French Tarot's match totals --------------------------------------------------------


def test_french_tarot_totals_are_labelled() -> None:
    table = _table("french_tarot", 4)
    m = next(_states("french_tarot", 4, 4))
    players = next(f for f in french_tarot.table_embed(_outcome(table, m)).fields)
    assert players.name == "Players"
    assert "pts" not in (players.value or "")
    assert all("total **0**" in row for row in (players.value or "").splitlines())


# ---- 8. play menus in the hand's order -----------------------------------------------------


def _menu_cards(ui: BaseView) -> list[str]:
    """The cards offered to play, in display order: one-tap buttons, or "Play …" menus
    (wherever they sit: a view's rows, or the newer layout's container)."""
    out: list[str] = []
    for child in ui.walk_children():
        item = getattr(child, "item", child)
        custom_id = str(getattr(item, "custom_id", ""))
        if isinstance(item, discord.ui.Button) and ":act:play:card=" in custom_id:
            out.append(custom_id.split(":card=")[1].split("@")[0])
        elif isinstance(item, discord.ui.Select) and "play" in custom_id:
            out += [o.value for o in item.options]
    return out


@pytest.mark.parametrize("game_id", implemented())
async def test_play_menus_follow_the_hand_order(game_id: str) -> None:
    players = _players(game_id)
    table = _table(game_id, players)
    checked = 0
    for m in _states(game_id, players, 5):
        seat = match.to_act(m)
        if seat is None or m.deal is None:
            continue
        view: SeatView = m.rules.observe(m.deal, seat)
        plays = [a.card for a in view.legal if a.type == "play" and a.card]
        if len(plays) < 2 or plays == [c for c in view.hand if c in plays]:
            continue  # only where the engine's legal order differs from the hand's
        outcome = _outcome(table, m)
        ui = TableScreens.hand_message(cast(TableScreens, _NoWhere()), outcome, seat)["view"]
        shown = _menu_cards(ui)
        assert sorted(shown) == sorted(plays)
        hand = [c for c in view.hand if c in plays]
        groups: dict[str, list[str]] = {}
        for c in shown:  # within each menu (a suit, or the trumps) the hand's order
            groups.setdefault("T" if c == "EX" or c[0] == "T" else c[0], []).append(c)
        for cards in groups.values():
            assert cards == [c for c in hand if c in cards], (shown, hand)
        checked += 1
    if game_id in ("losers_game", "queen_of_tarot"):
        assert checked  # the engine lists these games' legal cards in dealt order


class _NoWhere:
    """A stand-in ``TableScreens`` for ``hand_message``: only ``where`` and ``place`` are
    used."""

    def where(self, table: TableInfo) -> str:
        return "Server › #tarot · table #1"

    def place(self, table: TableInfo) -> str:
        return "Server"
