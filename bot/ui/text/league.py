"""League nights in words (issue 34): the entry's first DM, the session's status, the standings
(names and percentages only: nothing of a deal), the comparison after the window and the
servers' announcements."""

from __future__ import annotations

import discord
from babel.numbers import format_decimal

from bot.db.league import Score, Session
from bot.i18n import N_, _, current, n_
from bot.services.league import Comparison, LeagueBoard, SetStatus
from bot.services.models import TableInfo
from bot.ui.games import game_title, renderer
from bot.ui.text.cards import card_list, sort_cards
from bot.ui.text.names import escape_name
from bot.ui.text.render import COLOUR_LOBBY, FIELD_VALUE_LIMIT, clip_lines

ROWS_SHOWN = 16  # tables listed per seat in a comparison


def when(session: Session) -> str:
    """The session's window, in each reader's own time zone (Discord timestamps)."""
    return _(
        "{starts} to {ends}",
        starts=f"<t:{int(session.starts_at)}:F>",
        ends=f"<t:{int(session.ends_at)}:t>",
    )


def pct_text(score: Score) -> str:
    """The score's percentage, one decimal, as the reader's language writes it ("53.2%",
    "53,2 %" with a no-break space: never split from its number on a narrow screen)."""
    number = format_decimal(round(score.pct, 1), format="0.0", locale=current())
    # i18n: a percentage; French puts a no-break space (U+00A0) before the sign
    return _("{number}%", number=number)


def intro_embed(game_id: str, session: Session) -> discord.Embed:
    """The DM message an entry's table message grows from."""
    return discord.Embed(
        title=_("🏆 League night · {game} · {week}", game=game_title(game_id), week=session.week),
        description=n_(
            "Dealing… every table in every server of the league plays this same deal.",
            "Dealing… every table in every server of the league plays these same {n} deals, "
            "in this order.",
            session.deals,
            n=session.deals,
        ),
        colour=COLOUR_LOBBY,
    )


def status_embed(
    session: Session, joined: int | None, sets: list[SetStatus], now: float
) -> discord.Embed:
    """``/league status``: the week's session, the server's membership, the viewer's sets
    (each with its score so far)."""
    embed = discord.Embed(
        title=_("🏆 League night · {week}", week=session.week), colour=COLOUR_LOBBY
    )
    if now < session.starts_at:
        state = _("Opens {window}.", window=when(session))
    elif now < session.ends_at:
        state = _("Open now, until {ends}.", ends=f"<t:{int(session.ends_at)}:t>")
    else:
        state = _("Closed: the comparison of the tables is open.")
    embed.description = "\n".join(
        [
            state,
            n_(
                "Each game's set has {n} deal, the same at every table of every server.",
                "Each game's set has {n} deals, the same at every table of every server.",
                session.deals,
                n=session.deals,
            ),
            _("This server is in the league (announcements in {channel}).", channel=f"<#{joined}>")
            if joined is not None
            else _("This server hasn't joined the league."),
        ]
    )
    lines = [_set_line(s) for s in sets]
    embed.add_field(
        name=_("Your sets this week"),
        value="\n".join(lines) if lines else _("none yet"),
        inline=False,
    )
    return embed


def _set_line(found: SetStatus) -> str:
    """One of the viewer's sets: under way, finished, or left (their table may play on
    without them: the deal they left in is their last, finished by the computer, marked)."""
    entry, score = found.entry, found.score
    if entry.until_deal is not None:
        state = _("left at deal {n} 🏳️", n=entry.until_deal)
    elif entry.status == "finished":
        state = _("finished")
    elif entry.status in ("lobby", "playing"):
        state = _("under way")
    else:
        state = _("closed")
    line = f"{game_title(found.game_id)} · {state}"
    if score is not None:
        line += " · " + n_(
            "{pct} ({mp}/{top}) over {n} deal",
            "{pct} ({mp}/{top}) over {n} deals",
            score.deals,
            pct=pct_text(score),
            mp=score.mp,
            top=score.top,
            n=score.deals,
        )
    return line


def _line(i: int, s: Score, me: int | None, servers: bool, guild_names: dict[int, str]) -> str:
    name = escape_name(guild_names.get(s.key, _("a server")) if servers else s.name)
    who = f"**{name}**" if s.key == me else name
    if not servers and len(guild_names) > 1:  # players of several servers: say whose
        who += f" ({escape_name(guild_names.get(s.guild_id, _('a server')))})"
    flag = " 🏳️" if s.resigned else ""
    return f"`{i:>2}` {who} · {pct_text(s)} ({s.mp}/{s.top}){flag}"


def standings_embed(
    board: LeagueBoard, me: int | None, guild_names: dict[int, str]
) -> discord.Embed:
    """Standings: names, matchpoints and percentages only."""
    game = game_title(board.game_id)
    if board.season:
        title = _("🏆 League · {game} · season {season}", game=game, season=board.session.season)
    else:
        title = _("🏆 League · {game} · {week}", game=game, week=board.session.week)
    embed = discord.Embed(title=title, colour=COLOUR_LOBBY)
    st = board.standings
    if not st.top:
        embed.description = _("No deal has been scored yet.")
        return embed
    lines = [_line(i, s, me, board.servers, guild_names) for i, s in enumerate(st.top, start=1)]
    more = st.count - len(st.top)
    if more > 0:
        lines.append(n_("…and {n} more", "…and {n} more", more, n=more))
    embed.description = clip_lines(lines, 4000)
    if st.mine is not None and st.rank is not None:
        embed.add_field(
            name=_("This server") if board.servers else _("You"),
            value=_(
                "rank **{rank}** of {count} · {pct}",
                rank=st.rank,
                count=st.count,
                pct=pct_text(st.mine),
            ),
            inline=False,
        )
    embed.set_footer(
        text=_("Matchpoints: 2 for each table beaten at the same seat of a deal, 1 for each tie.")
    )
    return embed


def compare_embed(found: Comparison, guild_names: dict[int, str]) -> discord.Embed:
    """Every table's play of a deal, after the window: the hands as dealt, then each table's
    score at each seat."""
    embed = discord.Embed(
        title=_(
            "🏆 League · {game} · {week} · deal {n}",
            game=game_title(found.game_id),
            week=found.session.week,
            n=found.deal_no,
        ),
        colour=COLOUR_LOBBY,
    )
    special = getattr(renderer(found.game_id), "CARD_LABELS", {})
    for seat, hand in enumerate(found.hands):
        dealer = _(" (dealer)") if seat == found.dealer else ""
        rows = [r for r in found.rows if r.seat == seat][:ROWS_SHOWN]
        lines = [card_list(sort_cards(hand), special)]
        for r in rows:
            flag = " 🏳️" if r.resigned else ""
            server = guild_names.get(r.guild_id, _("a server"))
            lines.append(f"▸ {escape_name(r.name)} ({escape_name(server)}) · {r.score:+}{flag}")
        embed.add_field(
            name=_("Seat {n}{dealer}", n=seat + 1, dealer=dealer),
            value=clip_lines(lines, FIELD_VALUE_LIMIT),
            inline=False,
        )
    if not found.rows:
        embed.description = _("No table played this deal.")
    return embed


def announcement_text(session: Session) -> str:
    return _(
        "🏆 **League night {week}**: {window}. Every table in every server of the league plays "
        "the same deals; enter with {command}.",
        week=session.week,
        window=when(session),
        command="`/league join`",
    )


# ---- league tables of several humans ------------------------------------------------------
#: What a league table's lobby needs in the league channel beyond any table's, by
#: ``discord.Permissions`` attribute, with the names Discord shows admins.
THREAD_NEEDS: dict[str, str] = {
    "create_private_threads": N_("Create Private Threads"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
}


def no_thread_refusal(missing: list[str]) -> str:
    """A league table without the permissions of its private thread: refused, never opened
    in the channel instead (its deals would be seen by everyone there)."""
    return n_(
        "I can't open a league table here: I'm missing the {names} permission in this "
        "channel. League tables are played in a private thread of their players, so that "
        "nobody else sees the week's deals; ask an admin to grant it.",
        "I can't open a league table here: I'm missing the {names} permissions in this "
        "channel. League tables are played in a private thread of their players, so that "
        "nobody else sees the week's deals; ask an admin to grant them.",
        len(missing),
        names=", ".join(f"**{_(THREAD_NEEDS[m])}**" for m in missing),
    )


def lobby_lines(deals: int | None) -> list[str]:
    """A league table's lobby: what it is (in place of a table's options)."""
    return [
        n_(
            "🏆 This week's league set: {n} deal, the same at every table of every server.",
            "🏆 This week's league set: {n} deals, the same at every table of every server.",
            deals or 0,
            n=deals or 0,
        ),
        _("Played in a private thread of its players; your hand comes in your DMs."),
    ]


def lobby_status() -> str:
    return _(
        "Press **Join** to play the set at this table. When the host presses **Start**, the "
        "expert computers take the empty seats."
    )


def night_over_embed(table: TableInfo, following: float) -> discord.Embed:
    """A league table's lobby that did not start before its night ended: closed, and when the
    next night opens (``following``)."""
    return discord.Embed(
        title=_("{game} · table #{id}", game=game_title(table.game_id), id=table.id),
        colour=COLOUR_LOBBY,
        description=_(
            "🏆 This league night is over, and this table did not start before it ended, so it "
            "is closed. The next league night opens {when}.",
            when=f"<t:{int(following)}:F>",
        ),
    )


def thread_name(game_id: str, table_id: int) -> str:
    return _("League · {game} · table #{id}", game=game_title(game_id), id=table_id)


def started_embed(game_id: str, table_id: int, thread_id: int) -> discord.Embed:
    """The lobby's message once its table started: where it is played, nothing of it."""
    return discord.Embed(
        title=_("{game} · table #{id}", game=game_title(game_id), id=table_id),
        colour=COLOUR_LOBBY,
        description=_(
            "This league table is being played in {thread}, a private thread of its players. "
            "Nothing of this week's deals is shown here.",
            thread=f"<#{thread_id}>",
        ),
    )
