"""Table life in words: the turn clock, and the public one-liners for timeouts, takeovers,
returns, resignations and closed tables (the notices a commit leaves in the outbox, which the
publisher posts)."""

from __future__ import annotations

from bot.i18n import N_, _
from bot.services.life import CLOCKS
from bot.services.models import Notice, Outcome, TableInfo
from bot.ui.text.names import escape_name
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
    """The public one-liners of the notices ``outcome`` carries, in order."""
    return [t for n in outcome.notices if (t := notice_text(outcome.table, n)) is not None]


def notice_text(table: TableInfo, notice: Notice) -> str | None:
    """A notice a commit left for the table's channel (``bot.services.notices``), in words
    (None: a kind this version does not know)."""
    kind, data = notice.kind, notice.data
    seat = data.get("seat")
    if kind == "idle":
        return _(
            "💤 Nobody has played at table #{id} for a long time, so it is closed "
            "(it won't count in any ranking).",
            id=table.id,
        )
    if kind == "nobody":
        return _(
            "🛑 No human is playing at table #{id} any more, so it is closed "
            "(it won't count in any ranking).",
            id=table.id,
        )
    if kind == "left":
        return _("🏳️ A player left table #{id}; a computer player takes the seat.", id=table.id)
    if kind == "ended":
        return _ended(table, escape_name(str(data.get("name", ""))), bool(data.get("rated")))
    if not isinstance(seat, int):
        return None
    who = seat_label(table, seat)
    if kind == "timed_out":
        return _("⌛ **{name}** ran out of time; the computer played for them.", name=who)
    if kind == "taken_over":
        return _(
            "🤖 **{name}** missed two turns in a row: a computer plays the seat until "
            "they press **I'm back**.",
            name=who,
        )
    if kind == "back":
        return _("👋 **{name}** is back and plays their own seat again.", name=who)
    if kind == "replaced":
        return _("🔁 The host gave **{name}**'s seat to a computer player.", name=who)
    if kind == "resigned":
        name = escape_name(table.name_of(seat) or "")
        if data.get("closed"):
            return _(
                "🏳️ **{name}** resigned; no human player is left at table #{id}.",
                name=name,
                id=table.id,
            )
        return _(
            "🏳️ **{name}** resigned from table #{id}; a computer player takes the seat.",
            name=name,
            id=table.id,
        )
    return None


def _ended(table: TableInfo, name: str, rated: bool) -> str:
    """The host or an admin ended the table (``name``: who, escaped)."""
    if rated:
        return _(
            "🛑 Table #{id} was ended by **{name}**, which counts as their "
            "resignation: they are ranked last, the others by their scores so far.",
            id=table.id,
            name=name,
        )
    return _("🛑 Table #{id} was ended by **{name}**.", id=table.id, name=name)
