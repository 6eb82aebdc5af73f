"""The daily deal in words (issue 20): its first DM, the boards, the DM result post, the
comparison after one's own finish, ``/stats``' daily record and the servers' announcements."""

from __future__ import annotations

from typing import Any

import discord

from bot.db.daily import Attempt, Board, Standing
from bot.i18n import _, n_
from bot.services.daily import DailyBoards, DailyRecord, Reveal
from bot.ui.games import game_title, renderer
from bot.ui.text.cards import card_list, sort_cards
from bot.ui.text.coach import action_words
from bot.ui.text.mention import command
from bot.ui.text.names import escape_name
from bot.ui.text.render import COLOUR_LOBBY, FIELD_VALUE_LIMIT, clip_lines
from bot.ui.text.stats import ordinal

DECISIONS_SHOWN = 12  # decisions listed per player in a comparison (the contract ones first)


def score_text(score: int) -> str:
    return f"{score:+,}"


def percentile_text(standing: Standing) -> str:
    return _("{ordinal} percentile", ordinal=ordinal(round(standing.percentile)))


def standing_line(standing: Standing) -> str:
    """ "Rank 3 of 12 · 75th percentile" (matchpoints: ties count half)."""
    return _(
        "rank **{rank}** of {players} · {percentile}",
        rank=standing.rank,
        players=standing.players,
        percentile=percentile_text(standing),
    )


def dm_link(channel_id: int, message_id: int | None = None) -> str:
    base = f"https://discord.com/channels/@me/{channel_id}"
    return base if message_id is None else f"{base}/{message_id}"


# ---- embeds --------------------------------------------------------------------------------
def intro_embed(game_id: str, day: str) -> discord.Embed:
    """The DM message the attempt's table message grows from (sent before anything else, to
    learn whether the player's DMs are open)."""
    return discord.Embed(
        title=_("🗓️ Daily deal · {game} · {day}", game=game_title(game_id), day=day),
        description=_("Dealing… everyone in every server gets these same cards today."),
        colour=COLOUR_LOBBY,
    )


def _board_lines(board: Board, me: int) -> str:
    if not board.players:
        return _("Nobody has finished yet.")
    lines = []
    for i, e in enumerate(board.top, start=1):
        flag = " 🏳️" if e.resigned else ""
        who = f"**{escape_name(e.name)}**" if e.user_id == me else escape_name(e.name)
        lines.append(f"`{i:>2}` {who} · {score_text(e.score)}{flag}")
    more = board.players - len(board.top)
    if more > 0:
        lines.append(n_("…and {n} more player", "…and {n} more players", more, n=more))
    return clip_lines(lines, FIELD_VALUE_LIMIT)


def boards_embed(boards: DailyBoards, me: int, server: str | None) -> discord.Embed:
    """The day's boards: scores only, nothing of the deal."""
    embed = discord.Embed(
        title=_("🗓️ Daily deal · {game} · {day}", game=game_title(boards.game_id), day=boards.day),
        colour=COLOUR_LOBBY,
    )
    mine = boards.mine
    if mine is None:
        embed.description = _(
            "You haven't played this deal yet: {daily} deals it to you.", daily=command("daily")
        )
    elif mine.status == "playing":
        embed.description = _("Your attempt is under way in your DMs.")
    elif mine.status == "abandoned" or mine.score is None:
        embed.description = _("Your attempt was closed without a score.")
    else:
        lines = [_("Your score: **{score}**", score=score_text(mine.score))]
        if boards.world_standing is not None:
            lines.append(_("Everyone: {line}", line=standing_line(boards.world_standing)))
        if boards.server_standing is not None:
            lines.append(_("This server: {line}", line=standing_line(boards.server_standing)))
        embed.description = "\n".join(lines)
    if boards.server is not None:
        embed.add_field(
            name=n_(
                "{server} · {n} player finished",
                "{server} · {n} players finished",
                boards.server.players,
                server=escape_name(server) if server else _("This server"),
            ),
            value=_board_lines(boards.server, me),
            inline=False,
        )
    embed.add_field(
        name=n_(
            "Every server · {n} player finished",
            "Every server · {n} players finished",
            boards.world.players,
        ),
        value=_board_lines(boards.world, me),
        inline=False,
    )
    embed.set_footer(
        text=_(
            "Percentile: players you beat, ties counting half. 🏳️ resigned. The deal stays "
            "hidden until you finish your own attempt."
        )
    )
    return embed


def result_embed(a: Attempt, standing: Standing | None) -> discord.Embed:
    """The DM post when the player's attempt is over."""
    embed = discord.Embed(
        title=_("🗓️ Daily deal · {game} · {day} — done", game=game_title(a.game_id), day=a.day),
        colour=COLOUR_LOBBY,
    )
    if a.score is None:
        embed.description = _("This attempt was closed without a score.")
        return embed
    lines = [_("Your score: **{score}**", score=score_text(a.score))]
    if a.resigned:
        lines.append(_("You resigned: the computer played the rest of your hand."))
    if standing is not None:
        lines.append(_("So far: {line}", line=standing_line(standing)))
    lines.append(
        _(
            "The boards move as others play: {board}. **Compare** shows every "
            "hand and the day's best play; **Review** asks the expert about your decisions.",
            board=command("daily", action="Board"),
        )
    )
    embed.description = "\n".join(lines)
    return embed


def _decision_lines(game_id: str, decisions: list[Any]) -> str:
    """Contract decisions first (they shape the deal), then the cards in order."""
    contract = [d for d in decisions if d.action.type != "play"]
    cards = [d for d in decisions if d.action.type == "play"]
    lines = [action_words(game_id, d.action) + (" 🤖" if d.by_computer else "") for d in contract]
    if cards:
        r = renderer(game_id)
        shown = card_list([d.action.card for d in cards], getattr(r, "CARD_LABELS", {}))
        lines.append(_("cards: {cards}", cards=shown))
    return clip_lines(lines[: DECISIONS_SHOWN + 1], FIELD_VALUE_LIMIT) or "—"


def reveal_embed(rv: Reveal) -> discord.Embed:
    """The whole deal for a player who finished it: every hand as dealt, the result, their
    decisions beside the day's best player's at the same seat."""
    a, table = rv.attempt, rv.table
    r = renderer(a.game_id)
    special = getattr(r, "CARD_LABELS", {})
    embed = discord.Embed(
        title=_("⚖️ Daily deal · {game} · {day}", game=game_title(a.game_id), day=a.day),
        colour=COLOUR_LOBBY,
    )
    lines = [
        _(
            "Your score: **{score}** · {line}",
            score=score_text(a.score or 0),
            line=standing_line(rv.standing),
        )
    ]
    embed.description = "\n".join(lines)
    for seat, hand in enumerate(rv.hands):
        name = next((s.name for s in table.seats if s.seat == seat), "?")
        who = _("{name} (you)", name=escape_name(name)) if seat == a.seat else escape_name(name)
        if seat == rv.dealer:
            who += " · " + _("dealer")
        delta = rv.deltas[seat] if seat < len(rv.deltas) else 0
        embed.add_field(
            name=f"{who} · {score_text(delta)}",
            value=clip_lines([card_list(sort_cards(hand), special)], FIELD_VALUE_LIMIT),
            inline=False,
        )
    if rv.rest:
        embed.add_field(
            name=_("Not dealt to any hand (dog, talon or set aside)"),
            value=card_list(sort_cards(rv.rest), special),
            inline=False,
        )
    embed.add_field(
        name=_("Your decisions"), value=_decision_lines(a.game_id, list(rv.mine)), inline=True
    )
    if rv.best is not None:
        embed.add_field(
            name=_(
                "The day's best: {name} · {score}",
                name=escape_name(rv.best.name),
                score=score_text(rv.best.score),
            ),
            value=_decision_lines(a.game_id, list(rv.theirs)),
            inline=True,
        )
    else:
        embed.add_field(name=_("The day's best"), value=_("That's you, so far."), inline=True)
    if any(d.by_computer for d in (*rv.mine, *rv.theirs)):
        embed.set_footer(text=_("🤖: played by the computer after you resigned."))
    return embed


def record_field(embed: discord.Embed, record: DailyRecord) -> discord.Embed:
    """``/stats``: the player's dailies (apart from the rated games above)."""
    if not record.played and not record.best_streak:
        return embed
    value = [
        n_("{n} daily deal finished", "{n} daily deals finished", record.played, n=record.played)
    ]
    if record.average_percentile is not None:
        average = ordinal(round(record.average_percentile))
        value.append(_("average **{ordinal}** percentile", ordinal=average))
    value.append(
        _(
            "streak **{current}** · best {best}",
            current=n_("{n} day", "{n} days", record.streak, n=record.streak),
            best=n_("{n} day", "{n} days", record.best_streak, n=record.best_streak),
        )
    )
    embed.add_field(name=_("🗓️ Daily deals"), value="\n".join(value), inline=False)
    return embed


def announcement_text(day: str, winners: list[tuple[str, str, int]]) -> str:
    """A server's daily announcement: today's deals are out, yesterday's best here."""
    lines = [
        _(
            "🗓️ **The daily deals of {day} are out.** Same cards for everyone in every "
            "server: play yours privately with {daily}, then compare.",
            day=day,
            daily=command("daily"),
        )
    ]
    for game_id, name, score in winners:
        lines.append(
            _(
                "Yesterday's best here at {game}: **{name}** ({score})",
                game=game_title(game_id),
                name=escape_name(name),
                score=score_text(score),
            )
        )
    return "\n".join(lines)
