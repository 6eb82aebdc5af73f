"""Names people chose are shown as plain text (issue 28, defect 7): the escaping helper
(``bot.ui.text.names``) and the renderers that show a player's or a server's name.

The end-to-end test (``tests/e2e/test_hostile_names_e2e.py``) plays a game with these
names; here each renderer gets them directly, including those a short game never reaches
(the daily boards and announcement, ``/trionfi tables``)."""

from __future__ import annotations

import random
import re
from typing import Any

import discord
import pytest

from bot.db.daily import Board, Entry
from bot.engine import match
from bot.engine.deck import shuffle
from bot.engine.registry import get_rules, implemented
from bot.services.daily import DailyBoards
from bot.services.errors import Forbidden, IllegalMove
from bot.services.models import EndedDeal, Notice, Outcome, SeatInfo, TableInfo
from bot.ui.games import renderer
from bot.ui.text.daily import announcement_text, boards_embed
from bot.ui.text.life import life_notices
from bot.ui.text.names import escape_name, flat_name, pinging
from bot.ui.text.refusals import refusal
from bot.ui.text.render import final_embed, lobby_embed, plain_label, seat_label
from cogs.admin import tables_message
from tests.hostile_names import (
    MARKUP,
    SERVER_NAME,
    Shown,
    hostile_names,
    live_markup,
    message_texts,
)

NAMES = hostile_names()


def unescape(text: str) -> str:
    """What Discord shows for ``text``: a backslash shows the character after it."""
    return re.sub(r"\\(.)", r"\1", text).replace("@\u200b", "@")


def bare_markup(text: str) -> list[str]:
    """Markup characters of ``text`` that no backslash escapes."""
    out: list[str] = []
    escaped = False
    for c in text:
        if escaped:
            escaped = False
        elif c == "\\":
            escaped = True
        elif c in MARKUP:
            out.append(c)
    return out


# ---- the helper ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", [*NAMES, SERVER_NAME, "a\\*b", "plain name", "Jean-Luc"])
def test_escape_name_leaves_no_markup_and_loses_no_character(name: str) -> None:
    shown = escape_name(name)
    assert "\n" not in shown
    assert bare_markup(shown) == []
    assert unescape(shown) == flat_name(name)  # Discord shows exactly the name
    assert not live_markup(Shown(shown, True, "name"), [name])


def test_mentions_and_everyone_cannot_ping() -> None:
    shown = escape_name("<@123456789012345678> <@&223456789012345678> @everyone @here")
    assert not re.search(r"<@[!&]?\d+>", shown)
    assert "@everyone" not in shown and "@here" not in shown


def test_two_masked_links_are_both_escaped() -> None:
    # discord.utils.escape_markdown escapes only the first "[" of these: the second link works.
    two = "[a](https://b.c) [d](https://e.f)"
    assert re.search(r"(?<!\\)\[d\]\(", discord.utils.escape_markdown(two))
    assert not re.search(r"(?<!\\)\[", escape_name(two))


def test_line_starts_cannot_become_headings_quotes_or_lists() -> None:
    for name in ("# a", "## a", "-# a", "> a", ">>> a", "- a", "* a", "+ a", "1. a"):
        shown = escape_name(name)
        assert shown.startswith(name[0] + "\\" if name[0].isdigit() else "\\"), shown


def test_flat_name_keeps_one_line() -> None:
    assert flat_name("a\nb\r\nc\td\u2028e") == "a b c d e"
    assert flat_name("  spaced   out  ") == "spaced out"
    assert flat_name("\n \t") == "?"
    assert escape_name("\n") == "?"


def test_pinging_allows_exactly_the_users_given() -> None:
    assert pinging(5, None, 5, 7).to_dict() == {"parse": [], "users": [5, 7]}
    assert pinging().to_dict()["parse"] == []


# ---- the renderers -------------------------------------------------------------------------


def _table(status: str = "playing", *, away: bool = False) -> TableInfo:
    seats = (
        SeatInfo(0, 1000, NAMES[0]),
        SeatInfo(1, 1001, NAMES[1], expiries=1 if away else 0),
        SeatInfo(2, 1002, NAMES[2], expiries=2),
        SeatInfo(3, 1003, NAMES[3], resigned=True),
        SeatInfo(4, None, f"Bot {NAMES[4]}", is_bot=True),  # a resigned human's seat
        SeatInfo(5, 1005, NAMES[5]),
    )
    return TableInfo(7, 1, 2, "losers_game", status, 1000, 6, {}, seats, message_id=3)


def _problems(payload: Any) -> list[str]:
    """What in ``payload`` shows a name as markup (the seated users 1000… may be mentioned:
    the bot mentions the player whose turn it is)."""
    names = [*NAMES, SERVER_NAME]
    seated = range(1000, 1010)
    return [p for s in message_texts(payload) for p in live_markup(s, names, seated)]


def _embed(embed: discord.Embed) -> dict[str, Any]:
    return {"embeds": [embed.to_dict()]}


def test_seat_labels_escape_every_kind_of_seat() -> None:
    table = _table(away=True)
    for seat in range(6):
        for text in (seat_label(table, seat), plain_label(table, seat)):
            assert bare_markup(text.replace(" (away)", "")) == [], text
            assert not _problems({"content": text})
    assert seat_label(table, 0) == escape_name(NAMES[0])


def test_lobby_result_and_notices_show_names_escaped() -> None:
    lobby = _table("lobby")
    assert not _problems(_embed(lobby_embed(lobby, "Loser's Game", [])))
    table = _table("finished")
    outcome = Outcome(table, totals=(3, 2, 1, 0, -1, -2), finished=True, winners=(0, 5))
    assert not _problems(_embed(final_embed(outcome, "Loser's Game", [(1, [3, 2, 1, 0, -1, -2])])))
    said = tuple(
        Notice(1, i, kind, {"seat": s})
        for i, (s, kind) in enumerate(
            (s, kind) for s in range(6) for kind in ("timed_out", "back", "replaced")
        )
    )
    notices = life_notices(Outcome(_table(), notices=said))
    assert len(notices) == 18 and not _problems({"content": "\n".join(notices)})


def test_refusals_naming_a_player_escape_it() -> None:
    host = refusal(Forbidden("host_only_start", host=NAMES[0]))
    waiting = refusal(IllegalMove("not_your_turn", game="losers_game", waiting=NAMES[2]))
    assert escape_name(NAMES[0]) in host and escape_name(NAMES[2]) in waiting
    assert not _problems({"content": f"{host}\n{waiting}"})


def test_daily_boards_and_announcement_escape_players_and_the_server() -> None:
    entries = tuple(Entry(1000 + i, n, 10 - i, False) for i, n in enumerate(NAMES))
    board = Board("2026-11-28", "la_morte", 1, len(entries), entries)
    boards = DailyBoards("2026-11-28", "la_morte", board, board, None, None, None)
    embed = boards_embed(boards, 1000, SERVER_NAME)
    assert not _problems(_embed(embed))
    assert any(escape_name(SERVER_NAME) in f.name for f in embed.fields if f.name)
    winners = [("la_morte", n, 5) for n in NAMES]
    assert not _problems({"content": announcement_text("2026-11-28", winners)})


def test_running_tables_list_escapes_names() -> None:
    fields = tables_message([_table()])
    assert not _problems(_embed(fields["embed"]))


@pytest.mark.parametrize("game_id", implemented())
def test_every_games_table_hand_and_summary_escape_names(game_id: str) -> None:
    """One seeded deal of each game at its largest table, every state rendered."""
    rules = get_rules(game_id)
    r = renderer(game_id)
    players = rules.max_players
    seats = tuple(
        SeatInfo(i, 1000 + i, NAMES[i % len(NAMES)], expiries=i % 3) for i in range(players)
    )
    table = TableInfo(7, 1, 2, game_id, "playing", 1000, players, {}, seats, message_id=3)
    where = flat_name(SERVER_NAME)
    rng = random.Random(f"names/{game_id}")
    m = match.new_match(game_id, players, None, 0)
    m = match.start_deal(m, shuffle(rules.pack(players), rng.randrange(2**63)))
    rendered = 0
    while True:
        assert m.deal is not None
        views = {s: rules.observe(m.deal, s) for s in range(players)}
        outcome = Outcome(
            table,
            public=rules.observe_public(m.deal),
            seat_views=views,
            totals=tuple(range(players)),
            deal_number=1,
        )
        content = r.turn_content(outcome)
        assert not _problems({"content": content, **_embed(r.table_embed(outcome))})
        for view in views.values():
            hand = _embed(r.hand_embed(table, view, where, outcome))
            assert not _problems(hand), _problems(hand)
        rendered += 1
        seat = match.to_act(m)
        if seat is None:
            break
        legal = match.legal_actions(m)
        action = legal[int(rng.random() * len(legal))]
        if action.type in rules.multi_card_types:
            action = rules.random_choice(rules.observe(m.deal, seat), action, rng)
        m, _ = match.apply(m, action)
    done = EndedDeal(len(m.results), m.results[-1], rules.observe_public(m.deal))
    assert not _problems(_embed(r.deal_summary_embed(table, done, tuple(range(players)))))
    assert rendered > 10
