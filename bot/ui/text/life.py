"""Table life in words: the turn clock, and the public one-liners for timeouts, takeovers,
returns and closed tables (``bot.ui.handlers.life`` posts them)."""

from __future__ import annotations

from bot.engine.events import Event
from bot.i18n import N_, _
from bot.services.life import CLOCKS
from bot.services.models import Outcome, TableInfo
from bot.ui.text.render import seat_label

CLOCK_WORDS = {
    "off": N_("off"),
    "relaxed": N_("relaxed (10 min a turn)"),
    "normal": N_("normal (2 min a turn)"),
    "fast": N_("fast (45 s a turn)"),
}


def clock_name(seconds: int | None) -> str:
    """The turn clock in words, in the current language."""
    key = next((k for k, v in CLOCKS.items() if v == seconds), "off")
    return _(CLOCK_WORDS[key])


def clock_line(table: TableInfo) -> str | None:
    """ "⏰ … <t:…:R>" under a human's turn: Discord renders the countdown itself."""
    if table.turn_deadline is None:
        return None
    return _("⏰ Turn clock: the move is due {when}.", when=f"<t:{int(table.turn_deadline)}:R>")


def time_left(seconds: float) -> str:
    """ "about 3 min" or "40 s": how long a turn reminder says is left."""
    if seconds >= 60:
        return _("about {minutes} min", minutes=max(1, round(seconds / 60)))
    return _("{seconds} s", seconds=max(1, int(seconds)))


def life_notices(outcome: Outcome) -> list[str]:
    """Public one-liners for timeouts, takeovers and returns in this outcome."""
    table = outcome.table
    lines: list[str] = []
    for _seat, e in outcome.events:
        if e.type == "abandoned" and "idle" in e.data:
            lines.append(
                _(
                    "💤 Nobody has played at table #{id} for a long time, so it is closed "
                    "(it won't count in any ranking).",
                    id=table.id,
                )
            )
        elif e.type == "abandoned" and not e.data:
            lines.append(
                _(
                    "🛑 No human is playing at table #{id} any more, so it is closed "
                    "(it won't count in any ranking).",
                    id=table.id,
                )
            )
        if not isinstance(e, Event) or e.seat is None:
            continue
        who = seat_label(table, e.seat)
        if e.type == "timed_out":
            lines.append(
                _("⌛ **{name}** ran out of time; the computer played for them.", name=who)
            )
        elif e.type == "taken_over":
            lines.append(
                _(
                    "🤖 **{name}** missed two turns in a row: a computer plays the seat until "
                    "they press **I'm back**.",
                    name=who,
                )
            )
        elif e.type == "back":
            lines.append(_("👋 **{name}** is back and plays their own seat again.", name=who))
        elif e.type == "replaced":
            lines.append(_("🔁 The host gave **{name}**'s seat to a computer player.", name=who))
    return lines
