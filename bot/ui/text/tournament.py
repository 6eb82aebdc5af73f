"""A tournament's words (issue 34): its registration post, each round's pairings, the standings
after each round and the final standings; and the tournament refusals.

Everything here is public (the tournament's channel): names and points only, never a card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.i18n import _, n_
from bot.services.swiss import Standing
from bot.services.tournaments import MAX_ROUNDS, TournamentInfo
from bot.ui.games import game_title
from bot.ui.text.life import clock_name
from bot.ui.text.mention import command
from bot.ui.text.names import escape_name

Params = Mapping[str, Any]

#: Entrants listed by name on the registration post (the rest are counted).
LISTED = 40
#: Standings rows shown in a post (the picture shows the top of them).
SHOWN = 30


def points(half: int) -> str:
    """Tournament points from half points: ``3``, ``2½``."""
    whole, half_point = divmod(half, 2)
    return f"{whole}½" if half_point else str(whole)


def title(info: TournamentInfo) -> str:
    return _("🏆 Tournament #{id}: {game}", id=info.id, game=game_title(info.record.game_id))


def format_line(info: TournamentInfo) -> str:
    """Rounds, table size, deals, clock, rated or not."""
    t = info.record
    parts = [
        n_("{n} round", "{n} rounds", t.rounds, n=t.rounds),
        n_("tables of {n}", "tables of {n}", t.players, n=t.players),
    ]
    if t.deals is not None:
        parts.append(n_("{n} deal a table", "{n} deals a table", t.deals, n=t.deals))
    parts.append(_("turn clock {clock}", clock=clock_name(t.turn_clock)))
    parts.append(_("rated") if t.rated else _("unrated (ratings unchanged)"))
    return " · ".join(parts)


def registration_text(info: TournamentInfo, host: str) -> str:
    """The registration post's body (its buttons: Register, Unregister, Start, Standings)."""
    t = info.record
    lines = [_("Hosted by {host}.", host=escape_name(host)), format_line(info)]
    if t.status == "open":
        if t.starts_at is not None:
            stamp = int(t.starts_at)
            lines.append(_("Starts <t:{ts}:F> (<t:{ts}:R>).", ts=stamp))
        else:
            lines.append(_("Starts when the host presses **Start**."))
    elif t.status == "running":
        lines.append(_("Under way: round {round} of {rounds}.", round=t.round, rounds=t.rounds))
    elif t.status == "finished":
        lines.append(_("Finished."))
    else:
        lines.append(_("Cancelled."))
    names = [escape_name(e.name) for e in info.entrants]
    lines.append(n_("**{n} registered:**", "**{n} registered:**", len(names), n=len(names)))
    shown = ", ".join(names[:LISTED]) or _("nobody yet")
    if len(names) > LISTED:
        shown += " " + _("and {n} more", n=len(names) - LISTED)
    lines.append(shown)
    if t.status == "open":
        lines.append(
            _(
                "-# Each round seats players with similar standings together; computer players "
                "fill empty seats. Leave any time with {leave}.",
                leave=command("tournament leave"),
            )
        )
    return "\n".join(lines)


def pairings_text(
    info: TournamentInfo, round_no: int, links: Mapping[int, str], *, expert: bool = True
) -> str:
    """Round ``round_no``'s tables: who sits at each (computers marked, with their level:
    ``expert``, else casual), and where it is (``links``: board → a channel mention)."""
    t = info.record
    names = info.names()
    lines = [_("**Round {round} of {rounds}**", round=round_no, rounds=t.rounds)]
    computer = _("🤖 computer (expert)") if expert else _("🤖 computer (casual)")
    for b in info.round_boards(round_no):
        seated = [escape_name(names.get(u, "?")) if u is not None else computer for u in b.seats]
        where = links.get(b.board)
        line = _("Table {n}: {players}", n=b.board, players=", ".join(seated))
        lines.append(f"{line} → {where}" if where else line)
    lines.append(_("-# Your hand comes by DM as usual. The round ends when every table has."))
    return "\n".join(lines)


def standing_line(place: int, s: Standing) -> str:
    text = _(
        "{place}. {name}: {points} pts (opponents {opponents}, wins {wins})",
        place=place,
        name=escape_name(s.name),
        points=points(s.points),
        opponents=points(s.buchholz),
        wins=s.firsts,
    )
    if s.left:
        text += " " + _("(left)")
    return text


def standings_text(info: TournamentInfo, after: int) -> str:
    """The standings after round ``after`` (the final ones once the tournament is over)."""
    t = info.record
    final = t.status == "finished" and after >= t.round
    if final:
        head = _("🏁 **Final standings** after {n} rounds", n=after)
    else:
        head = _("**Standings after round {round} of {rounds}**", round=after, rounds=t.rounds)
    lines = [head]
    lines += [standing_line(i + 1, s) for i, s in enumerate(info.standings[:SHOWN])]
    if len(info.standings) > SHOWN:
        lines.append(_("and {n} more", n=len(info.standings) - SHOWN))
    lines.append(
        _(
            "-# A table's winner scores a point for every player below them, half a point for "
            "a tie; ties are broken by the opponents' points, then the tables won."
        )
    )
    return "\n".join(lines)


def winner_line(info: TournamentInfo) -> str:
    if not info.standings:
        return _("Nobody played.")
    return _("Congratulations to {name}!", name=escape_name(info.standings[0].name))


def threads_notice() -> str:
    return _(
        "⚠️ I can't create threads in this channel (I lack the **Create Public Threads** "
        "permission), so the tournament's tables are played right here, one message each. "
        "Grant it to keep the channel tidy in later rounds."
    )


REFUSALS: dict[str, Callable[[Params], str]] = {
    "tournament_rounds": lambda p: _(
        "A tournament has 1 to {most} rounds.", most=p.get("most") or MAX_ROUNDS
    ),
    "tournament_deals": lambda p: _(
        "Deals a table go from 1 to {most}, and Early French Tarot's tables always play to "
        "their target score.",
        most=p.get("most"),
    ),
    "tournament_past_start": lambda p: _("The start time must be in the future."),
    "tournament_channel_busy": lambda p: _(
        "This channel already has a tournament under way: one at a time here."
    ),
    "tournament_started": lambda p: _(
        "That tournament has already started (or is over): registering and unregistering are "
        "closed."
    ),
    "tournament_registered": lambda p: _("You are already registered."),
    "tournament_not_registered": lambda p: _("You are not playing in that tournament."),
    "tournament_host_only": lambda p: _(
        "Only the tournament's host or someone with the Manage Server permission can do that."
    ),
    "tournament_too_few": lambda p: _("A tournament needs at least 2 registered players."),
    "tournament_over": lambda p: _("That tournament is over."),
    "tournament_gone": lambda p: _("There is no such tournament on this server."),
    "tournament_none": lambda p: _(
        "This server has no tournament yet: open one with {open}.",
        open=command("tournament open"),
    ),
    "tournament_which": lambda p: _(
        "This server has several tournaments under way: use this command in the channel of "
        "the one you mean."
    ),
}
