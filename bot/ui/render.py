"""Game-independent rendering: lobby, final standings, seat names, colours."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import discord

from bot.services.models import Outcome, TableInfo
from bot.ui.cards import label

COLOUR_LOBBY = discord.Colour.blurple()
COLOUR_PLAY = discord.Colour.dark_green()
COLOUR_DONE = discord.Colour.gold()
COLOUR_ERROR = discord.Colour.red()

#: Discord's limits for an embed's description and a field's value (characters).
DESCRIPTION_LIMIT = 4096
FIELD_VALUE_LIMIT = 1024


#: The word each game uses for one round of play, from ``shared/rules/*.md``: a "deal" in
#: La Morte and French Tarot (la donne), a "hand" in the others. Game-independent text (the
#: final result) uses it; each renderer writes its own word in its titles and fields.
ROUND_WORDS: Mapping[str, str] = {
    "la_morte": "deal",
    "french_tarot": "deal",
    "early_french_tarot": "hand",
    "losers_game": "hand",
    "queen_of_tarot": "hand",
}


def round_word(game_id: str) -> str:
    """ "deal" or "hand": what ``game_id`` calls one round of play."""
    return ROUND_WORDS.get(game_id, "deal")


def plural(n: int, word: str, plural: str | None = None, *, bold: bool = False) -> str:
    """A count with its noun in the right number: ``plural(1, "trick")`` → "1 trick",
    ``plural(2, "pass", "passes")`` → "2 passes" (``bold``: the number in bold)."""
    noun = word if n == 1 else plural or f"{word}s"
    number = f"**{n}**" if bold else str(n)
    return f"{number} {noun}"


def table_link(table: TableInfo) -> str | None:
    """Jump link to the table's message (for a hand DM's header), or to its channel while the
    table has no message yet."""
    base = f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"
    return base if table.message_id is None else f"{base}/{table.message_id}"


def _and_more(n: int) -> str:
    return f"…and {n} more"


def clip_lines(
    lines: Sequence[str],
    limit: int,
    more: Callable[[int], str] = _and_more,
    *,
    sep: str = "\n",
    max_lines: int | None = None,
) -> str:
    """``lines`` joined by ``sep`` in at most ``limit`` characters (a Discord limit): whole
    lines from the first, then ``more(n)`` for the ``n`` left out. At most ``max_lines`` are
    kept (e.g. one per button); lines built from user data never get cut in the middle."""
    cap = len(lines) if max_lines is None else max(0, min(max_lines, len(lines)))
    text = sep.join(lines[:cap])
    if cap == len(lines) and len(text) <= limit:
        return text
    # Lengths of the joined first k lines, then the longest prefix that leaves room for
    # the "more" line (whose length depends on how many are left out).
    used = [0]
    for i, line in enumerate(lines[:cap]):
        used.append(used[-1] + (len(sep) if i else 0) + len(line))
    for kept in range(cap, 0, -1):
        tail = more(len(lines) - kept)
        if used[kept] + len(sep) + len(tail) <= limit:
            return sep.join([*lines[:kept], tail])
    return more(len(lines))[:limit]


def seat_label(table: TableInfo, seat: int) -> str:
    """Seat name with a robot marker for computer players."""
    for s in table.seats:
        if s.seat == seat:
            if s.is_bot or s.resigned:
                return f"🤖 {s.name}"
            if s.expiries >= 2:  # the computer plays the seat until they are back
                return f"🤖 {s.name} (away)"
            return f"{s.name} 💤" if s.away else s.name
    return f"Seat {seat + 1}"


def plain_label(table: TableInfo, seat: int) -> str:
    """Seat name for a quiet hand DM: the robot marker of a computer (or resigned) seat, but
    no away markers — those change with every timeout and would edit every player's DM."""
    for s in table.seats:
        if s.seat == seat:
            return f"🤖 {s.name}" if s.is_bot or s.resigned else s.name
    return f"Seat {seat + 1}"


#: The last sentence of a hand DM while it is not the seat's decision.
UPDATES_NOTE = "This message updates when it's your turn."
#: "Now" of a hand DM while another seat decides. Quiet hand DMs show only the hand and
#: what the deal's start fixed: nothing that changes with other players' moves (tricks, whose
#: turn, bids, the contract, the phase), so the bot edits a DM only when that seat's hand,
#: controls or turn change (issue 14); the table message shows everything else.
WAITING_NOTE = "Not your turn — the table message shows the bidding and the play. " + UPDATES_NOTE


def mention(table: TableInfo, seat: int) -> str | None:
    """Mention of the human in ``seat`` (None for computer or resigned seats)."""
    for s in table.seats:
        if s.seat == seat and s.user_id is not None and not s.resigned and not s.is_bot:
            return f"<@{s.user_id}>"
    return None


def lobby_embed(table: TableInfo, title: str, option_lines: list[str]) -> discord.Embed:
    """The lobby: who is seated, free seats, options and what to do next."""
    lines: list[str] = []
    for i in range(table.players):
        seat = next((s for s in table.seats if s.seat == i), None)
        if seat is None:
            lines.append(f"`{i + 1}.` *empty seat*")
        else:
            host = " 👑" if seat.user_id == table.owner_id else ""
            lines.append(f"`{i + 1}.` {seat_label(table, i)}{host}")
    free = table.players - len(table.seats)
    status = (
        f"Waiting for {plural(free, 'more player')} — press **Join** or **Add computer**."
        if free
        else "The table is full — the host can press **Start**."
    )
    embed = discord.Embed(
        title=f"{title} · table #{table.id}", colour=COLOUR_LOBBY, description=status
    )
    embed.add_field(name="Seats", value="\n".join(lines), inline=True)
    embed.add_field(name="Options", value="\n".join(option_lines) or "defaults", inline=True)
    embed.set_footer(text="Hands are sent by DM. If your DMs are closed, use “Show my hand”.")
    return embed


def standings(table: TableInfo, totals: tuple[int, ...], winners: tuple[int, ...] = ()) -> str:
    """Seats ordered by total, winners marked."""
    order = sorted(range(len(totals)), key=lambda s: (-totals[s], s))
    out: list[str] = []
    for s in order:
        crown = "🏆 " if s in winners else ""
        out.append(f"{crown}**{seat_label(table, s)}** — {totals[s]}")
    return "\n".join(out)


def final_embed(outcome: Outcome, title: str) -> discord.Embed:
    """The match is over: winners and the final table."""
    table = outcome.table
    names = ", ".join(seat_label(table, s) for s in outcome.winners) or "nobody"
    verb = "win" if len(outcome.winners) > 1 else "wins"
    played = plural(outcome.deals_played, round_word(table.game_id))
    embed = discord.Embed(
        title=f"{title} · table #{table.id} — game over",
        description=f"🏆 **{names}** {verb} after {played}.",
        colour=COLOUR_DONE,
    )
    embed.add_field(name="Final scores", value=standings(table, outcome.totals, outcome.winners))
    return embed


def plays_line(
    table: TableInfo, plays: Sequence[tuple[int, str]], card_labels: Mapping[str, str] | None = None
) -> str:
    """A trick as "name card · name card" (an em dash while empty)."""
    return (
        " · ".join(f"{seat_label(table, s)} {label(c, card_labels or {})}" for s, c in plays) or "—"
    )


def finish_table_embed(
    embed: discord.Embed, table: TableInfo, to_act: int | None, doing: str, options: list[str]
) -> discord.Embed:
    """The end every table message shares: "Now — waiting for X to …" and the options."""
    if to_act is not None:
        what = f" to {doing}" if doing else ""
        embed.add_field(
            name="Now", value=f"Waiting for **{seat_label(table, to_act)}**{what}.", inline=False
        )
    embed.set_footer(text=" · ".join(line.replace("*", "") for line in options))
    return embed


def rules_card(title: str, text: str) -> discord.Embed:
    """``/<game> rules``: the short version."""
    return discord.Embed(title=f"{title} — the short version", colour=COLOUR_PLAY, description=text)


def rules_pages(title: str, intro: str, sections: Sequence[tuple[str, str]]) -> list[discord.Embed]:
    """``/<game> rules full:True``: the complete rules, one field per section."""
    embed = discord.Embed(title=f"{title} — the complete rules", colour=COLOUR_PLAY)
    embed.description = intro
    for name, value in sections:
        embed.add_field(name=name, value=value, inline=False)
    return [embed]
