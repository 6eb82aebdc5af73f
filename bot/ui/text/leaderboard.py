"""Leaderboard rendering and its restart-proof page buttons.

custom_id ``lb:<owner>:<guild>:<game>:<scope>:<metric>:<period>:<page>:<verb>`` (≤ 100
characters): everything needed to redraw the board after a restart. The owner's clicks turn
the public message's page; anyone else gets that page privately, with their own line.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.i18n import N_, _, n_
from bot.services.stats import Board, BoardEntry
from bot.ui.delivery.answer import Ack, redraw, reply_error, send
from bot.ui.games import game_title
from bot.ui.text.render import COLOUR_DONE
from bot.ui.text.stats import handlers

METRIC_NAMES = {
    "rating": N_("Rating"),
    "wins": N_("Wins"),
    "win_rate": N_("Win rate"),
    "games": N_("Games played"),
    "points": N_("Points"),
}
SCOPE_CODES = {"server": "s", "global": "g"}
PERIOD_CODES = {"all": "a", "30d": "m"}
VERBS = ("first", "prev", "next", "last", "me")
LAST_PAGE = 99_999  # "last" asks for a page past the end; the query clamps it


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
    name = discord.utils.escape_markdown(e.name)
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


def board_view(board: Board, owner: int, guild_id: int | None) -> discord.ui.View | None:
    """First / previous / next / last page and "find me"; None when one page says it all."""
    on_page = board.me is not None and board.me in board.entries
    if board.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    last = board.page >= board.pages - 1
    buttons = [
        ("first", "⏮", board.page == 0),
        ("prev", "◀", board.page == 0),
        ("next", "▶", last),
        ("last", "⏭", last),
        ("me", "📍", board.me is None or on_page),
    ]
    for verb, emoji, disabled in buttons:
        view.add_item(
            BoardButton(
                owner,
                guild_id or 0,
                board.game_id,
                board.scope,
                board.metric,
                board.period,
                board.page,
                verb,
                emoji=emoji,
                label=_("Find me") if verb == "me" else None,
                disabled=disabled,
            )
        )
    return view


def board_message(
    board: Board, viewer: int, owner: int, guild_id: int | None, *, edit: bool = False
) -> dict[str, Any]:
    """Message fields; an edit clears the buttons when one page is left."""
    fields: dict[str, Any] = {"embed": board_embed(board, viewer)}
    view = board_view(board, owner, guild_id)
    if view is not None or edit:
        fields["view"] = view
    return fields


def _target(page: int, verb: str) -> tuple[int, bool]:
    """(page to fetch, around the viewer) for a button pressed on ``page``."""
    return {
        "first": (0, False),
        "prev": (max(0, page - 1), False),
        "next": (page + 1, False),
        "last": (LAST_PAGE, False),
        "me": (0, True),
    }[verb]


class BoardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lb:(?P<owner>\d+):(?P<guild>\d+):(?P<game>[a-z_]+):(?P<scope>[sg]):"
    r"(?P<metric>[a-z_]+):(?P<period>[am]):(?P<page>\d+):(?P<verb>[a-z]+)",
):
    def __init__(
        self,
        owner: int,
        guild_id: int,
        game_id: str,
        scope: str,
        metric: str,
        period: str,
        page: int,
        verb: str,
        *,
        emoji: str | None = None,
        label: str | None = None,
        disabled: bool = False,
    ) -> None:
        custom_id = (
            f"lb:{owner}:{guild_id}:{game_id}:{SCOPE_CODES[scope]}:{metric}:"
            f"{PERIOD_CODES[period]}:{page}:{verb}"
        )
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                custom_id=custom_id,
                emoji=emoji,
                label=label,
                disabled=disabled,
            )
        )
        self.owner = owner
        self.guild_id = guild_id or None
        self.game_id = game_id
        self.scope = scope
        self.metric = metric
        self.period = period
        self.page = page
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> BoardButton:
        scope = next((k for k, v in SCOPE_CODES.items() if v == match["scope"]), "server")
        period = next((k for k, v in PERIOD_CODES.items() if v == match["period"]), "all")
        return cls(
            int(match["owner"]),
            int(match["guild"]),
            match["game"],
            scope,
            match["metric"],
            period,
            int(match["page"]),
            match["verb"],
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        ctl, stats = handlers(interaction)
        # The custom_id's server is only what the board was drawn for: anyone can put any id
        # on a message. A server board pages only on its own server, and every board is
        # redrawn for the server it is pressed in (never another server's standings).
        guild_id = interaction.guild_id
        if self.scope == "server" and self.guild_id != guild_id:
            await reply_error(interaction, _("This leaderboard belongs to another server."))
            return

        async def work() -> None:
            viewer = interaction.user.id
            page, around = _target(self.page, self.verb if self.verb in VERBS else "first")
            board = await stats.leaderboard(
                game_id=self.game_id,
                viewer=viewer,
                guild_id=guild_id,
                metric=self.metric,
                scope=self.scope,
                period=self.period,
                page=page,
                around_viewer=around,
            )
            if viewer == self.owner:
                fields = board_message(board, viewer, self.owner, guild_id, edit=True)
                await redraw(interaction, **fields)
            else:
                # Someone else's board: their own copy, privately, that they can page.
                fields = board_message(board, viewer, viewer, guild_id)
                await send(interaction, ephemeral=True, **fields)

        mode: Ack = "update" if interaction.user.id == self.owner else "private"
        await ctl.guarded(interaction, work, mode)
