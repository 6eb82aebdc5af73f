"""Discord's limits hold for every embed built from user data (issue 15).

The renderers get the largest inputs users can produce: 32-character display names (also
names full of markdown characters, which escaping doubles), 50 and 500 allowed channels,
25+ open tables of six seats, full leaderboard and history pages, long score sheets, and
every game's lobby and table messages at its largest player count. Nothing here touches
Discord or a database: the renderers are pure.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.db.ratings import Rating
from bot.db.tables import DealResultRecord
from bot.engine import match
from bot.engine.deck import shuffle
from bot.engine.match import MatchState
from bot.engine.registry import get_rules, implemented
from bot.services.life import GuildSettingsRecord
from bot.services.models import EndedDeal, Outcome, SeatInfo, TableInfo
from bot.services.stats import (
    BestResult,
    Board,
    BoardEntry,
    GameStats,
    History,
    PastGame,
    PlayerStats,
    ScoreSheet,
    SeatResult,
)
from bot.ui.delivery.suit_emojis import SUIT_EMOJI_NAMES
from bot.ui.games import renderer
from bot.ui.handlers.records import board_message, history_message
from bot.ui.handlers.screens import decision_controls
from bot.ui.text.cards import set_suit_marks
from bot.ui.text.leaderboard import METRIC_NAMES
from bot.ui.text.life import clock_line, clock_name
from bot.ui.text.render import clip_lines, final_embed, lobby_embed
from bot.ui.text.stats import sheet_embed, stats_embed
from cogs.admin import MAX_END_BUTTONS, settings_embed, tables_message

# ---- Discord's limits --------------------------------------------------------------------

TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000
CONTENT = 2000
EMBEDS = 10


def embed_problems(embed: discord.Embed) -> list[str]:
    """Every limit ``embed`` breaks (empty when Discord would accept it)."""
    d: dict[str, Any] = dict(embed.to_dict())
    problems: list[str] = []

    def check(what: str, text: str, limit: int) -> None:
        if len(text) > limit:
            problems.append(f"{what}: {len(text)} characters > {limit}")

    title = str(d.get("title") or "")
    description = str(d.get("description") or "")
    footer = str((d.get("footer") or {}).get("text") or "")
    author = str((d.get("author") or {}).get("name") or "")
    check("title", title, TITLE)
    check("description", description, DESCRIPTION)
    check("footer", footer, FOOTER)
    check("author name", author, AUTHOR)
    fields = list(d.get("fields") or [])
    if len(fields) > FIELDS:
        problems.append(f"{len(fields)} fields > {FIELDS}")
    total = len(title) + len(description) + len(footer) + len(author)
    for i, f in enumerate(fields):
        name, value = str(f.get("name") or ""), str(f.get("value") or "")
        if not name.strip() or not value.strip():
            problems.append(f"field {i} ({name!r}) has an empty name or value")
        check(f"field {i} ({name[:20]!r}) name", name, FIELD_NAME)
        check(f"field {i} ({name[:20]!r}) value", value, FIELD_VALUE)
        total += len(name) + len(value)
    if total > EMBED_TOTAL:
        problems.append(f"embed total: {total} characters > {EMBED_TOTAL}")
    return problems


def assert_embed_limits(embed: discord.Embed) -> None:
    problems = embed_problems(embed)
    assert not problems, "\n".join(problems)


def assert_message_limits(fields: dict[str, Any]) -> None:
    """A message's ``content``, ``embed``/``embeds`` and ``view`` as the bot sends them."""
    content = fields.get("content") or ""
    assert len(content) <= CONTENT, f"content: {len(content)} characters > {CONTENT}"
    embeds: list[discord.Embed] = list(fields.get("embeds") or [])
    if fields.get("embed") is not None:
        embeds.append(fields["embed"])
    assert len(embeds) <= EMBEDS
    for e in embeds:
        assert_embed_limits(e)
    total = sum(len(e) for e in embeds)  # discord.py's len(): the characters Discord counts
    assert total <= EMBED_TOTAL, f"embeds together: {total} characters > {EMBED_TOTAL}"
    view = fields.get("view")
    if view is not None:
        rows = view.to_components()
        assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
        for c in (c for r in rows for c in r["components"]):
            assert len(c.get("label") or "") <= 80 and len(c.get("custom_id") or "") <= 100


def custom_ids(view: discord.ui.View) -> list[str]:
    return [c["custom_id"] for r in view.to_components() for c in r["components"]]


def test_the_checker_catches_every_limit() -> None:
    big = discord.Embed(title="t" * 257, description="d" * 4097)
    big.set_footer(text="f" * 2049)
    big.set_author(name="a" * 257)
    for i in range(26):
        big.add_field(name="n" * 257 if i == 0 else f"f{i}", value="v" * 1025 if i == 1 else "x")
    problems = " / ".join(embed_problems(big))
    for what in ("title", "description", "footer", "author", "26 fields", "name", "value"):
        assert what in problems, what
    total = discord.Embed(description="d" * 4000)
    for _ in range(3):
        total.add_field(name="n", value="v" * 1000)
    assert any("embed total" in p for p in embed_problems(total))
    assert embed_problems(discord.Embed(title="ok", description="fine")) == []


# ---- the shared helper -------------------------------------------------------------------


def test_clip_lines_keeps_whole_lines_and_says_how_many_more() -> None:
    lines = [f"line {i:02d} " + "x" * 40 for i in range(100)]
    assert clip_lines(lines[:3], 4096) == "\n".join(lines[:3])
    text = clip_lines(lines, 1024)
    assert len(text) <= 1024
    kept, tail = text.split("\n")[:-1], text.split("\n")[-1]
    assert kept == lines[: len(kept)] and tail == f"…and {100 - len(kept)} more"
    assert len(text) + len(lines[len(kept)]) + 1 > 1024  # no room for one more line
    assert clip_lines(lines, 4096, max_lines=5) == "\n".join([*lines[:5], "…and 95 more"])
    mentions = [f"<#{10**18 + i}>" for i in range(50)]
    joined = clip_lines(mentions, 1024, sep=", ")
    assert len(joined) <= 1024 and joined.endswith(" more") and "<#" not in joined[-15:]
    short = clip_lines(mentions, 1024, lambda n: f"+{n}", sep=", ")
    assert short.endswith(f", +{50 - short.count('<#')}") and len(short) <= 1024
    assert clip_lines(["x" * 50], 20) == "…and 1 more"  # not even one line fits
    assert clip_lines([], 10) == ""


# ---- user data as big as it gets ---------------------------------------------------------

PLAIN = "Wolfgang Amadeus Mozart-Salzburg"  # 32 characters, like the longest display names
MARKDOWN = "_*~|" * 8  # 32 characters that escaping doubles
assert len(PLAIN) == len(MARKDOWN) == 32


def names(style: str, n: int) -> list[str]:
    """``n`` distinct 32-character names."""
    base = PLAIN if style == "plain" else MARKDOWN
    return [f"{i}{base}"[:32] for i in range(n)]


STYLES = ["plain", "markdown"]
BIG_ID = 987_654_321_098_765_432  # snowflakes have 18-19 digits


def seats(players: int, style: str, *, states: bool = True) -> tuple[SeatInfo, ...]:
    """Humans with long names; with ``states``, also the longest seat labels (away, taken
    over by the computer, resigned)."""
    out: list[SeatInfo] = []
    for i, name in enumerate(names(style, players)):
        expiries = (0, 1, 2, 0)[i % 4] if states else 0
        out.append(
            SeatInfo(
                i,
                BIG_ID + i,
                name,
                resigned=states and i % 4 == 3 and i > 0,
                expiries=expiries,
            )
        )
    return tuple(out)


def table(
    game_id: str, players: int, style: str, *, status: str = "playing", table_id: int = 123_456
) -> TableInfo:
    m = match.new_match(game_id, players, None, 0)
    return TableInfo(
        table_id,
        BIG_ID,
        BIG_ID + 100 + table_id,
        game_id,
        status,
        BIG_ID,
        players,
        dict(m.options),
        seats(players, style, states=status == "playing"),
        message_id=BIG_ID,
        turn_clock=600,
        turn_deadline=4_102_444_800.0,
    )


def largest(game_id: str) -> int:
    return get_rules(game_id).max_players


# ---- /trionfi settings and /trionfi tables -----------------------------------------------


@pytest.mark.parametrize("count", [1, 50, 500])
def test_settings_with_many_allowed_channels(count: int) -> None:
    channels = tuple(BIG_ID + i for i in range(count))
    embed = settings_embed(GuildSettingsRecord(BIG_ID, channels, "relaxed", False, False))
    assert_embed_limits(embed)
    where = embed.fields[0].value or ""
    shown = where.count("<#")
    assert shown >= min(count, 40)  # as many as fit, not a handful
    if shown < count:
        assert where.endswith(f"…and {count - shown} more")


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("count", [1, 25, 26, 40])
def test_running_tables_list(count: int, style: str) -> None:
    games = [g for g in implemented() if largest(g) == 6] or list(implemented())
    tables = [
        table(games[i % len(games)], largest(games[i % len(games)]), style, table_id=100_000 + i)
        for i in range(count)
    ]
    fields = tables_message(tables)
    assert_message_limits(fields)
    text = fields["embed"].description or ""
    buttons = custom_ids(fields["view"])
    listed = [t.id for t in tables if f"**#{t.id}**" in text]
    # Every listed table has its End button and every button its line; 25 fit.
    assert buttons == [f"tb:{t}:end" for t in listed]
    assert len(listed) == min(count, MAX_END_BUTTONS)
    if count > MAX_END_BUTTONS:
        assert text.endswith(f"…and {count - MAX_END_BUTTONS} more (end them from their channel).")
    assert "more" in text.splitlines()[0]  # six long names are cut short on each line
    if style == "markdown":
        assert "\\_" in text  # names are escaped, never read as markdown


def test_no_running_tables() -> None:
    assert_message_limits(tables_message([]))


# ---- leaderboards, history, profiles, score sheets ---------------------------------------


def board(metric: str, style: str, *, me_off_page: bool) -> Board:
    entries = tuple(
        BoardEntry(
            position=100_000 + i,
            player_id=BIG_ID + i,
            name=name,
            games=1_234_567,
            wins=1_234_567,
            points=-123_456_789,
            rating=-1234.5,
            rated_games=4,
            provisional=i >= 5,
        )
        for i, name in enumerate(names(style, 10))
    )
    me = BoardEntry(999_999, 1, names(style, 1)[0], 1, 1, 1, None, 0, True)
    return Board(
        game_id=implemented()[0],
        metric=metric,
        scope="global",
        period="30d",
        page=9_999,
        pages=99_999,
        total=999_999,
        entries=entries,
        me=me if me_off_page else None,
        computers=(
            ("casual", Rating(25.0, 8.3, -123.4, 1_000)),
            ("expert", Rating(25.0, 8.3, -1234.5, 1_000_000)),
        ),
        counted_globally=False,
    )


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("metric", list(METRIC_NAMES))
def test_leaderboard_page(metric: str, style: str) -> None:
    for me_off_page in (False, True):
        b = board(metric, style, me_off_page=me_off_page)
        assert_message_limits(board_message(b, 1, BIG_ID, BIG_ID))


def past_game(i: int, style: str, players: int) -> PastGame:
    who = names(style, players)
    return PastGame(
        table_id=1_000_000 + i,
        game_id=implemented()[i % len(implemented())],
        finished_at=4_102_444_800.0,
        place=players,
        score=-1_234_567,
        won=False,
        rating_delta=-123.4,
        seats=tuple(
            SeatResult(s, who[s], 1 if s == 0 else (-1 if s == 1 else BIG_ID + s), -99_999, s + 1)
            for s in range(players)
        ),
    )


@pytest.mark.parametrize("style", STYLES)
def test_history_page(style: str) -> None:
    history = History(99_999, tuple(past_game(i, style, 6) for i in range(10)))
    fields = history_message(history, names(style, 1)[0], 1, None)
    assert_message_limits(fields)
    text = fields["embed"].description or ""
    buttons = custom_ids(fields["view"])
    listed = [g.table_id for g in history.games if f"**#{g.table_id}**" in text]
    assert buttons == [f"hs:{t}" for t in listed] and len(listed) >= 5
    footer = fields["embed"].footer.text or ""
    assert footer.startswith(f"{len(listed)} most recent of 99,999")
    one_game = history_message(History(1, history.games[:1]), "x" * 32, 1, implemented()[0])
    assert_message_limits(one_game)


@pytest.mark.parametrize("style", STYLES)
def test_player_stats(style: str) -> None:
    games = tuple(
        GameStats(
            g, 1_234_567, 1_234_567, -123_456_789, 9_999_999, 4_102_444_800.0, -1234.5, 4, -99.9
        )
        for g in implemented()
    )
    best = BestResult(implemented()[0], 1_000_000, 1, 6, 123_456_789, 4_102_444_800.0)
    stats = PlayerStats(names(style, 1)[0], games, best)
    assert_embed_limits(stats_embed(stats, names(style, 1)[0]))
    assert_embed_limits(stats_embed(PlayerStats(None, (), None), names(style, 1)[0]))


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("deals", [1, 60, 500])
def test_score_sheet(deals: int, style: str) -> None:
    rng = random.Random(deals)
    players = 6
    records = tuple(
        DealResultRecord(
            d + 1,
            rng.choice(["played", "mucked", "thrown_in", "redeal"]),
            tuple(rng.choice([-99_999, 12, 123_456]) for _ in range(players)),
        )
        for d in range(deals)
    )
    sheet = ScoreSheet(
        table_id=1_000_000,
        game_id=implemented()[0],
        status="abandoned",
        finished_at=4_102_444_800.0,
        names=tuple(names(style, players)),
        computers=tuple(s % 2 == 0 for s in range(players)),
        deals=records,
        totals=tuple(-123_456_789 for _ in range(players)),
        places=tuple(range(1, players + 1)),
    )
    embed = sheet_embed(sheet)
    assert_embed_limits(embed)
    grid = embed.description or ""
    assert "Tot." in grid and grid.startswith("```\nDeal ")
    if deals == 500:
        assert "   …" in grid and f"\n{deals:>4} " in grid  # the latest deals, not the first


# ---- lobbies and tables of every game ------------------------------------------------------


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("game_id", list(implemented()))
def test_lobby_at_the_largest_player_count(game_id: str, style: str) -> None:
    r = renderer(game_id)
    players = largest(game_id)
    full = table(game_id, players, style, status="lobby")
    half = replace(full, seats=full.seats[: players // 2])
    for t in (full, half):
        lines = [*r.option_lines(t.options), f"Turn clock: **{clock_name(t.turn_clock)}**"]
        assert_embed_limits(lobby_embed(t, r.TITLE, lines))


def _deals(game_id: str, players: int) -> Iterator[tuple[MatchState, MatchState | None]]:
    """Seeded random states of two deals: (state, the state once the deal ended or None)."""
    rules = get_rules(game_id)
    rng = random.Random(f"limits/{game_id}")
    m = match.new_match(game_id, players, None, 0)
    for _ in range(2):
        if m.finished:
            return
        m = match.start_deal(m, shuffle(rules.pack(players), rng.randrange(2**63)))
        yield m, None
        while (seat := match.to_act(m)) is not None:
            legal = match.legal_actions(m)
            action = legal[int(rng.random() * len(legal))]
            if action.type in rules.multi_card_types:
                assert m.deal is not None
                action = rules.random_choice(rules.observe(m.deal, seat), action, rng)
            m, _ = match.apply(m, action)
            yield m, m if match.to_act(m) is None else None


#: The text's suit signs as the bot's application emojis (``bot.ui.delivery.suit_emojis``): each
#: 30 characters of markup instead of one, so they are what makes hands long.
EMOJI_MARKS = {s: f"<:{w}:{BIG_ID + i}>" for i, (s, w) in enumerate(SUIT_EMOJI_NAMES.items())}


@pytest.fixture(params=["unicode", "emoji"])
def suits(request: pytest.FixtureRequest) -> Iterator[str]:
    set_suit_marks(EMOJI_MARKS if request.param == "emoji" else None)
    yield request.param
    set_suit_marks(None)


def _no_markup_in_components(view: discord.ui.View | None) -> None:
    """Discord shows custom emoji only in text and ``emoji`` fields, never in labels."""
    for c in (c for r in (view.to_components() if view else []) for c in r["components"]):
        texts = [c.get("label"), c.get("placeholder")]
        texts += [x for o in c.get("options", []) for x in (o.get("label"), o.get("description"))]
        assert not any("<:" in t for t in texts if t), c


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(
    ("game_id", "players"),
    [
        (g, n)
        for g in implemented()
        for n in sorted({get_rules(g).min_players, get_rules(g).max_players})
    ],
)
def test_table_messages_at_the_smallest_and_largest_player_count(
    game_id: str, players: int, style: str, suits: str
) -> None:
    r = renderer(game_id)
    t = table(game_id, players, style)
    rules = get_rules(game_id)
    checked = 0
    for m, ended in _deals(game_id, players):
        assert m.deal is not None
        views = {s: rules.observe(m.deal, s) for s in range(players)}
        outcome = Outcome(
            table=t,
            public=rules.observe_public(m.deal),
            seat_views=views,
            totals=tuple(-123_456 for _ in range(players)),
            deal_number=m.deals_played + 1,
            deals_played=m.deals_played,
            finished=m.finished,
            winners=m.winners,
        )
        content = "\n".join(x for x in (r.turn_content(outcome), clock_line(t)) if x)
        assert_message_limits({"content": content, "embed": r.table_embed(outcome)})
        for view in views.values():
            hand = r.hand_embed(t, view, "Table #123456 in #tarot", outcome)
            assert_embed_limits(hand)
            if suits == "emoji" and any(c[0] in EMOJI_MARKS for c in view.hand):
                assert "<:" in str(hand.to_dict()), "the hand's suits are the emojis"
            if not ended:
                _no_markup_in_components(decision_controls(r, t.id, view))
        if ended is not None:
            done = EndedDeal(len(ended.results), ended.results[-1], rules.observe_public(m.deal))
            assert_embed_limits(r.deal_summary_embed(t, done, outcome.totals))
        checked += 1
    everyone = Outcome(
        table=t, totals=tuple(-123_456 for _ in range(players)), winners=tuple(range(players))
    )
    assert_embed_limits(final_embed(everyone, r.TITLE))
    assert checked > 10
