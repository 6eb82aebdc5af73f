"""Players' records in words: profiles (``/stats``), game history (``/history``), score
sheets, and the forget-me confirmation (``/privacy forget-me``).

History lines carry a restart-proof **score sheet** button per game
(``bot.ui.components.records``).
"""

from __future__ import annotations

from collections.abc import Callable

import discord
from babel import Locale

from bot.i18n import N_, _, current, n_, p_
from bot.services.luck import Skill
from bot.services.ratings import COMPUTER_LEVELS
from bot.services.stats import FORGOTTEN_NAME, History, PastGame, PlayerStats, ScoreSheet
from bot.ui.games import game_title as title
from bot.ui.text.mention import command
from bot.ui.text.names import escape_name, flat_name
from bot.ui.text.render import (
    COLOUR_DONE,
    COLOUR_ERROR,
    COLOUR_LOBBY,
    DESCRIPTION_LIMIT,
    clip_lines,
    table_number,
)

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
OUTCOME_WORDS = {"mucked": N_("mucked"), "thrown_in": N_("thrown in"), "redeal": N_("redealt")}
# Ordinal suffixes by CLDR ordinal category (English has four, French two, Italian one).
_ORDINAL: dict[str, Callable[[int], str]] = {
    "one": lambda n: p_("ordinal", "{n}st", n=n),
    "two": lambda n: p_("ordinal", "{n}nd", n=n),
    "few": lambda n: p_("ordinal", "{n}rd", n=n),
    "other": lambda n: p_("ordinal", "{n}th", n=n),
}
SHEET_LIMIT = 3900  # characters of the sheet's code block (embed description ≤ 4096)


def ordinal(n: int) -> str:
    """ "1st", "1er", "1°": a place in the current language's ordinal rule."""
    category = Locale.parse(current()).ordinal_form(n)
    return _ORDINAL.get(category, _ORDINAL["other"])(n)


def placing(place: int | None, players: int) -> str:
    if place is None:
        return _("unplaced")
    medal = MEDALS.get(place, "▫️")
    return _("{medal} {place} of {players}", medal=medal, place=ordinal(place), players=players)


def trend(delta: float | None) -> str:
    if delta is None or abs(delta) < 0.05:
        return _("steady")
    return f"{'▲' if delta > 0 else '▼'}{abs(delta):.1f}"


def when(ts: float, style: str = "d") -> str:
    return f"<t:{int(ts)}:{style}>"


# ---- /stats ----------------------------------------------------------------------------


def stats_embed(stats: PlayerStats, name: str) -> discord.Embed:
    shown = escape_name(name)
    embed = discord.Embed(title=_("📊 {name} — Trionfi stats", name=shown), colour=COLOUR_LOBBY)
    if not stats.games:
        embed.description = _(
            "{name} hasn't finished a game yet. Stats start with the first one.", name=shown
        )
        return embed
    ppd = stats.points_per_deal
    record = _record(stats.played, stats.wins, stats.win_rate, bold=True)
    if ppd is not None:
        record += " · " + _("{points} points per deal", points=f"{ppd:+.1f}")
    last = when(stats.last_played, "R") if stats.last_played else _("never")
    lines = [
        record,
        _(
            "Favourite game: **{game}** · last played {last}",
            game=title(stats.favourite or ""),
            last=last,
        ),
    ]
    if stats.best is not None:
        b = stats.best
        lines.append(
            _(
                "Best result: {place} at {game}, {score} points ({when}, table #{id})",
                place=placing(b.place, b.players),
                game=title(b.game_id),
                score=f"{b.score:,}",
                when=when(b.finished_at),
                id=b.table_id,
            )
        )
    embed.description = "\n".join(lines)
    for g in stats.games[:25]:
        rate = g.wins / g.games if g.games else 0.0
        value = [_record(g.games, g.wins, rate)]
        if g.deals:
            value.append(_("{points} points per deal", points=f"{g.points / g.deals:+.1f}"))
        if g.rating is None:
            value.append(_("not rated yet"))
        elif g.rated_games < 5:
            value.append(
                _(
                    "Rating **{rating}** · {trend} in 30 days · *provisional*",
                    rating=f"{g.rating:.1f}",
                    trend=trend(g.trend),
                )
            )
        else:
            value.append(
                _(
                    "Rating **{rating}** · {trend} in 30 days",
                    rating=f"{g.rating:.1f}",
                    trend=trend(g.trend),
                )
            )
        embed.add_field(name=title(g.game_id), value="\n".join(value), inline=True)
    embed.set_footer(
        text=_("Every server · rating = μ − 3σ (openskill), provisional below 5 rated games")
    )
    return embed


def _record(games: int, wins: int, rate: float, *, bold: bool = False) -> str:
    """ "12 games · 5 wins (42%)" (the counts in bold with ``bold``)."""
    g, w = f"{games:,}", f"{wins:,}"
    if bold:
        g, w = f"**{g}**", f"**{w}**"
    return (
        n_("{count} game", "{count} games", games, count=g)
        + " · "
        + n_("{count} win", "{count} wins", wins, count=w)
        + f" ({rate:.0%})"
    )


# ---- /history --------------------------------------------------------------------------


def _others(game: PastGame, me: int) -> str:
    names: list[str] = []
    for s in game.seats:
        if s.player_id == me:
            continue
        name = escape_name(s.name)
        if s.player_id == COMPUTER_LEVELS["expert"]:
            names.append(_("🤖 {name} (expert)", name=name))
        elif s.player_id is not None and s.player_id < 0:
            names.append(f"🤖 {name}")
        else:
            names.append(name)
    return ", ".join(names)


def skill_field(embed: discord.Embed, skill: Skill) -> discord.Embed:
    """``/stats``: luck and skill against the expert over the player's latest deals (issue 33):
    the play is a skill measure the cards do not move."""
    if not skill.deals:
        return embed
    play, cards = (f"{v:+.1f}".replace("-", "−") for v in (skill.play, skill.cards))
    value = [
        _("🎯 Play: **{play}** points a deal against the expert's choices (skill)", play=play),
        _(
            "🍀 Cards: **{cards}** points a deal the expert expected from the hands (luck)",
            cards=cards,
        ),
    ]
    name = n_(
        "Luck and skill — the last deal reviewed",
        "Luck and skill — the last {n} deals reviewed",
        skill.deals,
    )
    embed.add_field(name=name, value="\n".join(value), inline=False)
    return embed


def history_embed(
    history: History, name: str, user_id: int, game_id: str | None
) -> tuple[discord.Embed, list[int]]:
    """A player's recent games on this server, newest first, and the tables of the games it
    lists (each gets its score sheet button: ``bot.ui.components.records.history_view``)."""
    shown = escape_name(name)
    if game_id:
        game = title(game_id)
        heading = _("📜 {name} — recent {game} games", name=shown, game=game)
        empty = _("{name} has no finished {game} games on this server yet.", name=shown, game=game)
    else:
        heading = _("📜 {name} — recent games", name=shown)
        empty = _("{name} has no finished games on this server yet.", name=shown)
    embed = discord.Embed(title=heading, colour=COLOUR_LOBBY)
    if not history.games:
        embed.description = empty
        return embed, []
    lines: list[str] = []
    for g in history.games:
        change = (
            ""
            if g.rating_delta is None
            else " · " + _("rating {trend}", trend=trend(g.rating_delta))
        )
        lines.append(
            _(
                "**#{id}** {when} · {game} · {place} · {score} pts{change}",
                id=g.table_id,
                when=when(g.finished_at),
                game=title(g.game_id),
                place=placing(g.place, len(g.seats)),
                score=f"{g.score:,}",
                change=change,
            )
            + "\n　"
            + _("with {names}", names=_others(g, user_id) or _("nobody"))
        )
    # Ten games of six long names can pass Discord's 4,096: the newest games that fit.
    embed.description = clip_lines(lines, DESCRIPTION_LIMIT)
    # Names are escaped: only a game's own line has its bold number.
    shown = embed.description
    listed = [g.table_id for g in history.games if f"**{table_number(g.table_id)}**" in shown]
    footer = _("This server only · 📋 a game's button shows its score sheet")
    if history.total > len(listed):
        recent = _("{shown} most recent of {total}", shown=len(listed), total=f"{history.total:,}")
        footer = f"{recent} · {footer}"
    embed.set_footer(text=footer)
    return embed, listed


# ---- score sheets ----------------------------------------------------------------------


def sheet_embed(sheet: ScoreSheet) -> discord.Embed:
    """Deal-by-deal deltas in a monospaced grid, totals and placings below."""
    seated = [
        n if n is not None else _("Seat {number}", number=i + 1) for i, n in enumerate(sheet.names)
    ]
    names = [flat_name(n).replace("`", "'") for n in seated]  # the grid is a code block
    width = [max(5, min(10, len(n))) for n in names]
    deal, total = _("Deal")[:4].ljust(4), _("Tot.")[:4].ljust(4)  # the grid's first column
    head = f"{deal} " + " ".join(n[:w].rjust(w) for n, w in zip(names, width, strict=True))
    rows = [head, "-" * len(head)]
    for d in sheet.deals:
        cells = " ".join(f"{v:+d}".rjust(w) for v, w in zip(d.deltas, width, strict=True))
        note = _(OUTCOME_WORDS[d.outcome]) if d.outcome in OUTCOME_WORDS else ""
        rows.append(f"{d.deal_no:>4} {cells}" + (f"  {note}" if note else ""))
    rows.append("-" * len(head))
    rows.append(
        f"{total} " + " ".join(str(t).rjust(w) for t, w in zip(sheet.totals, width, strict=True))
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
    if sheet.status == "finished":
        state = _("finished")
    elif any(p is not None for p in sheet.places):  # ended by a player: their resignation
        state = _("ended early, as a resignation (rated)")
    else:
        state = _("abandoned (not rated)")
    embed = discord.Embed(
        title=_("{game} · table #{id} — score sheet", game=title(sheet.game_id), id=sheet.table_id),
        description=f"```\n{body}\n```",
        colour=COLOUR_DONE,
    )
    order = sorted(range(len(sheet.names)), key=lambda s: (sheet.places[s] or 99, s))
    standings = [
        f"{placing(sheet.places[s], len(sheet.names)) if sheet.places[s] else '·'} "
        f"{'🤖 ' if sheet.computers[s] else ''}{escape_name(seated[s])}"
        f" — {sheet.totals[s]:,}"
        for s in order
    ]
    embed.add_field(name=_("Final"), value="\n".join(standings), inline=False)
    ended = f"{state} {when(sheet.finished_at)}" if sheet.finished_at else state
    embed.add_field(
        name=_("Table"),
        value=_(
            "{ended} · full log: {record}",
            ended=ended,
            record=command("record", table=sheet.table_id),
        ),
    )
    return embed


# ---- forget me -------------------------------------------------------------------------


def forget_embed() -> discord.Embed:
    """``/privacy forget-me``'s confirmation: what will be deleted (its buttons:
    ``bot.ui.components.records.forget_view``)."""
    return discord.Embed(
        title=_("Forget me?"),
        colour=COLOUR_ERROR,
        description=_(
            "This deletes your **ratings** and **statistics** in every game and server, and "
            "replaces your name in every stored game record and tournament standings with "
            "“{forgotten}”, unlinked from your account. Other players keep their own results. "
            "You leave every tournament you are in: a computer finishes your seat.\n\n"
            "It cannot be undone. Games you play later are recorded again.",
            forgotten=FORGOTTEN_NAME,
        ),
    )


def forgotten_text(games: int) -> str:
    """The answer once a player's records are forgotten."""
    return n_(
        "Done: your ratings and statistics are deleted, and your seats in {n} game "
        "record now read “{forgotten}”.",
        "Done: your ratings and statistics are deleted, and your seats in {n} game "
        "records now read “{forgotten}”.",
        games,
        forgotten=FORGOTTEN_NAME,
    )
