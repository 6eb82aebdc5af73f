"""Rendering of player profiles (``/stats``), game history (``/history``) and score sheets.

History lines carry a restart-proof **score sheet** button per game (custom_id
``hs:<table>``) that shows the deal-by-deal sheet privately.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.services.stats import History, PastGame, PlayerStats, ScoreSheet
from bot.services.step import game_title as title
from bot.ui.delivery.answer import send
from bot.ui.render import COLOUR_DONE, COLOUR_LOBBY, DESCRIPTION_LIMIT, clip_lines

if TYPE_CHECKING:
    from bot.services.stats import StatsService
    from bot.ui.controller import TableController

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
OUTCOME_WORDS = {"mucked": "mucked", "thrown_in": "thrown in", "redeal": "redealt"}
SHEET_LIMIT = 3900  # characters of the sheet's code block (embed description ≤ 4096)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def placing(place: int | None, players: int) -> str:
    if place is None:
        return "unplaced"
    return f"{MEDALS.get(place, '▫️')} {ordinal(place)} of {players}"


def trend(delta: float | None) -> str:
    if delta is None or abs(delta) < 0.05:
        return "steady"
    return f"{'▲' if delta > 0 else '▼'}{abs(delta):.1f}"


def when(ts: float, style: str = "d") -> str:
    return f"<t:{int(ts)}:{style}>"


def handlers(interaction: discord.Interaction[Any]) -> tuple[TableController, StatsService]:
    """The bot's controller (for its one error guard) and stats service, from a component."""
    client = interaction.client
    return (
        cast("TableController", client.controller),  # type: ignore[attr-defined]
        cast("StatsService", client.stats),  # type: ignore[attr-defined]
    )


# ---- /stats ----------------------------------------------------------------------------


def stats_embed(stats: PlayerStats, name: str) -> discord.Embed:
    shown = discord.utils.escape_markdown(name)
    embed = discord.Embed(title=f"📊 {shown} — Trionfi stats", colour=COLOUR_LOBBY)
    if not stats.games:
        embed.description = f"{shown} hasn't finished a game yet. Stats start with the first one."
        return embed
    ppd = stats.points_per_deal
    lines = [
        f"**{stats.played:,}** games · **{stats.wins:,}** wins ({stats.win_rate:.0%})"
        + (f" · {ppd:+.1f} points per deal" if ppd is not None else ""),
        f"Favourite game: **{title(stats.favourite or '')}** · last played "
        + (when(stats.last_played, "R") if stats.last_played else "never"),
    ]
    if stats.best is not None:
        b = stats.best
        lines.append(
            f"Best result: {placing(b.place, b.players)} at {title(b.game_id)}, "
            f"{b.score:,} points ({when(b.finished_at)}, table #{b.table_id})"
        )
    embed.description = "\n".join(lines)
    for g in stats.games[:25]:
        rate = g.wins / g.games if g.games else 0.0
        value = [f"{g.games:,} games · {g.wins:,} wins ({rate:.0%})"]
        if g.deals:
            value.append(f"{g.points / g.deals:+.1f} points per deal")
        if g.rating is None:
            value.append("not rated yet")
        else:
            provisional = " · *provisional*" if g.rated_games < 5 else ""
            value.append(f"Rating **{g.rating:.1f}** · {trend(g.trend)} in 30 days{provisional}")
        embed.add_field(name=title(g.game_id), value="\n".join(value), inline=True)
    embed.set_footer(
        text="Every server · rating = μ − 3σ (openskill), provisional below 5 rated games"
    )
    return embed


# ---- /history --------------------------------------------------------------------------


def _others(game: PastGame, me: int) -> str:
    names: list[str] = []
    for s in game.seats:
        if s.player_id == me:
            continue
        robot = "🤖 " if s.player_id is not None and s.player_id < 0 else ""
        names.append(robot + discord.utils.escape_markdown(s.name))
    return ", ".join(names)


def history_message(
    history: History, name: str, user_id: int, game_id: str | None
) -> dict[str, Any]:
    shown = discord.utils.escape_markdown(name)
    which = f"{title(game_id)} games" if game_id else "games"
    embed = discord.Embed(title=f"📜 {shown} — recent {which}", colour=COLOUR_LOBBY)
    if not history.games:
        embed.description = f"{shown} has no finished {which} on this server yet."
        return {"embed": embed}
    lines: list[str] = []
    for g in history.games:
        change = "" if g.rating_delta is None else f" · rating {trend(g.rating_delta)}"
        lines.append(
            f"**#{g.table_id}** {when(g.finished_at)} · {title(g.game_id)} · "
            f"{placing(g.place, len(g.seats))} · {g.score:,} pts{change}\n"
            f"　with {_others(g, user_id) or 'nobody'}"
        )
    # Ten games of six long names can pass Discord's 4,096: the newest games that fit.
    embed.description = clip_lines(lines, DESCRIPTION_LIMIT)
    view = discord.ui.View(timeout=None)
    listed = [g for g in history.games if f"**#{g.table_id}**" in embed.description]
    for i, g in enumerate(listed):  # names are escaped: only a game's own line has this
        view.add_item(SheetButton(g.table_id, row=i // 5))
    footer = "This server only · 📋 a game's button shows its score sheet"
    if history.total > len(listed):
        footer = f"{len(listed)} most recent of {history.total:,} · " + footer
    embed.set_footer(text=footer)
    return {"embed": embed, "view": view}


# ---- score sheets ----------------------------------------------------------------------


def sheet_embed(sheet: ScoreSheet) -> discord.Embed:
    """Deal-by-deal deltas in a monospaced grid, totals and placings below."""
    names = [n.replace("`", "'") for n in sheet.names]  # the grid is a code block
    width = [max(5, min(10, len(n))) for n in names]
    head = "Deal " + " ".join(n[:w].rjust(w) for n, w in zip(names, width, strict=True))
    rows = [head, "-" * len(head)]
    for d in sheet.deals:
        cells = " ".join(f"{v:+d}".rjust(w) for v, w in zip(d.deltas, width, strict=True))
        note = OUTCOME_WORDS.get(d.outcome, "")
        rows.append(f"{d.deal_no:>4} {cells}" + (f"  {note}" if note else ""))
    rows.append("-" * len(head))
    rows.append(
        "Tot. " + " ".join(str(t).rjust(w) for t, w in zip(sheet.totals, width, strict=True))
    )
    body = "\n".join(rows)
    if len(body) > SHEET_LIMIT:  # a very long match: the header, then the latest deals
        # Rows differ in length (notes, wide totals): count the real ones that fit.
        room = SHEET_LIMIT - len("\n".join([*rows[:2], "   …", *rows[-2:]]))
        latest: list[str] = []
        for row in reversed(rows[2:-2]):
            room -= len(row) + 1
            if room < 0:
                break
            latest.append(row)
        body = "\n".join([*rows[:2], "   …", *reversed(latest), *rows[-2:]])
    state = "finished" if sheet.status == "finished" else "abandoned (not rated)"
    embed = discord.Embed(
        title=f"{title(sheet.game_id)} · table #{sheet.table_id} — score sheet",
        description=f"```\n{body}\n```",
        colour=COLOUR_DONE,
    )
    order = sorted(range(len(sheet.names)), key=lambda s: (sheet.places[s] or 99, s))
    standings = [
        f"{placing(sheet.places[s], len(sheet.names)) if sheet.places[s] else '·'} "
        f"{'🤖 ' if sheet.computers[s] else ''}{discord.utils.escape_markdown(sheet.names[s])}"
        f" — {sheet.totals[s]:,}"
        for s in order
    ]
    embed.add_field(name="Final", value="\n".join(standings), inline=False)
    ended = f"{state} {when(sheet.finished_at)}" if sheet.finished_at else state
    embed.add_field(name="Table", value=f"{ended} · full log: `/record table:{sheet.table_id}`")
    return embed


class SheetButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hs:(?P<table>\d+)"):
    """A history line's score sheet, shown privately to whoever presses it."""

    def __init__(self, table_id: int, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"#{table_id}",
                emoji="📋",
                style=discord.ButtonStyle.secondary,
                custom_id=f"hs:{table_id}",
                row=row,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SheetButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        ctl, stats = handlers(interaction)

        async def work() -> None:
            sheet = await stats.score_sheet(
                self.table_id, interaction.guild_id, interaction.user.id
            )
            await send(interaction, ephemeral=True, embed=sheet_embed(sheet))

        await ctl.guarded(interaction, work)
