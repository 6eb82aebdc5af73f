"""A leaderboard page in words: its metric, its lines (the viewer's marked), its footer.

Its page buttons are ``bot.ui.components.records.BoardButton``.
"""

from __future__ import annotations

import discord

from bot.i18n import N_, _, n_
from bot.services.stats import Board, BoardEntry
from bot.ui.games import game_title
from bot.ui.text.names import escape_name
from bot.ui.text.render import COLOUR_DONE

METRIC_NAMES = {
    "rating": N_("Rating"),
    "wins": N_("Wins"),
    "win_rate": N_("Win rate"),
    "games": N_("Games played"),
    "points": N_("Points"),
}


def _games(n: int) -> str:
    return n_("{count} game", "{count} games", n, count=f"{n:,}")


def _wins(n: int) -> str:
    return n_("{count} win", "{count} wins", n, count=f"{n:,}")


def _value(board: Board, e: BoardEntry) -> str:
    games = _games(e.games)
    if board.metric == "rating":
        rated = _("unrated") if e.rating is None else f"**{e.rating:.1f}**"
        return f"{rated} · {games}"
    if board.metric == "wins":
        return f"**{_wins(e.wins)}** · {games}"
    if board.metric == "win_rate":
        share = f"{e.wins / e.games:.0%}"
        return _("**{share}** · {wins} of {games}", share=share, wins=e.wins, games=games)
    if board.metric == "games":
        return f"**{games}** · {_wins(e.wins)}"
    return _("**{points}** pts · {games}", points=f"{e.points:,}", games=games)


def _line(board: Board, e: BoardEntry, viewer: int) -> str:
    name = escape_name(e.name)
    you = _(" ← you") if e.player_id == viewer else ""
    text = f"`{e.position:>3}.` {name} — {_value(board, e)}{you}"
    return f"*{text}*" if e.provisional else text


def board_embed(board: Board, viewer: int) -> discord.Embed:
    title = game_title(board.game_id)
    where = _("this server") if board.scope == "server" else _("all servers")
    when = _("all time") if board.period == "all" else _("last 30 days")
    embed = discord.Embed(
        title=f"🏆 {title} — {_(METRIC_NAMES[board.metric]).lower()}",
        colour=COLOUR_DONE,
    )
    embed.set_author(name=_("Leaderboard · {where} · {when}", where=where, when=when))
    if not board.entries:
        server, recent = board.scope == "server", board.period == "30d"
        if server and recent:
            empty = _(
                "No finished {game} games on this server in the last 30 days yet.", game=title
            )
        elif server:
            empty = _("No finished {game} games on this server yet.", game=title)
        elif recent:
            empty = _("No finished {game} games anywhere in the last 30 days yet.", game=title)
        else:
            empty = _("No finished {game} games anywhere yet.", game=title)
        embed.description = f"{empty} " + _("Finish a game and it will show up here.")
    else:
        lines: list[str] = []
        provisional_shown = False
        for e in board.entries:
            if e.provisional and not provisional_shown:
                lines.append(_provisional_note(board))
                provisional_shown = True
            lines.append(_line(board, e, viewer))
        me = board.me
        if me is not None and me not in board.entries:
            lines += ["…", _line(board, me, viewer)]
        embed.description = "\n".join(lines)
    footer = [
        _("Page {page}/{pages}", page=board.page + 1, pages=board.pages),
        n_("{count} player", "{count} players", board.total, count=f"{board.total:,}"),
    ]
    if board.metric == "rating":
        footer.append(_("rating = μ − 3σ (openskill)"))
        for level, rated in board.computers:  # each level is its own rated entity
            value = f"{rated.display:.1f}"
            if level == "expert":
                footer.append(_("🤖 expert computer {rating}", rating=value))
            else:
                footer.append(_("🤖 computer {rating}", rating=value))
    if not board.counted_globally:
        footer.append(_("this server's games are not counted here (server setting)"))
    embed.set_footer(text=" · ".join(footer))
    return embed


def _provisional_note(board: Board) -> str:
    if board.metric == "rating":
        return _("— *provisional: fewer than 5 rated games* —")
    return _("— *fewer than 5 games* —")
