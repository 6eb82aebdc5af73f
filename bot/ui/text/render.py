"""Game-independent rendering: lobby, final standings, seat names, colours."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import discord

from bot.engine.games import (
    early_french_tarot,
    french_tarot_cards,
    la_morte,
    queen_of_tarot_cards,
)
from bot.engine.trick import Play
from bot.engine.views import PublicView
from bot.i18n import N_, _, n_, p_
from bot.services.models import Outcome, TableInfo
from bot.ui.games import renderer
from bot.ui.text.cards import SUIT_SYMBOL, label, suit_mark, suit_word
from bot.ui.text.names import escape_name
from bot.ui.text.winner import winning_seat

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
    """ "deal" or "hand": what ``game_id`` calls one round of play (a code: see
    :func:`rounds` for the words)."""
    return ROUND_WORDS.get(game_id, "deal")


def rounds(game_id: str, n: int) -> str:
    """ "3 deals" or "3 hands", in the game's own word and the current language."""
    if round_word(game_id) == "hand":
        return n_("{n} hand", "{n} hands", n)
    return n_("{n} deal", "{n} deals", n)


def plural(n: int, word: str, plural: str | None = None, *, bold: bool = False) -> str:
    """A count with its noun in the right number: ``plural(1, "trick")`` → "1 trick",
    ``plural(2, "pass", "passes")`` → "2 passes" (``bold``: the number in bold)."""
    noun = word if n == 1 else plural or f"{word}s"
    number = f"**{n}**" if bold else str(n)
    return f"{number} {noun}"


def replay_line(replay: tuple[int, int]) -> str:
    """What a replay is ("Try another way"): the deal it replays, unrated."""
    return _(
        "🔁 Another way: deal {n} of table #{id} again, against the expert · not rated",
        n=replay[1],
        id=replay[0],
    )


def replaced_line() -> str:
    """A replay's last word once its player replaced it with a new game in their DMs."""
    return _("🔁 Replaced by a new game in your DMs (nothing here counts).")


def table_link(table: TableInfo) -> str | None:
    """Jump link to the table's message (for a hand DM's header), or to its channel while the
    table has no message yet."""
    where = "@me" if table.in_dms else table.guild_id  # a daily deal, league entry, replay
    base = f"https://discord.com/channels/{where}/{table.channel_id}"
    return base if table.message_id is None else f"{base}/{table.message_id}"


def _and_more(n: int) -> str:
    return _("…and {n} more", n=n)


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


def computer_label(table: TableInfo, name: str) -> str:
    """A computer player's name with its robot marker, and its level at an expert table
    (``name`` as stored: a resigned human's seat keeps their name, so it is escaped here)."""
    name = escape_name(name)
    if table.level == "expert":
        return _("🤖 {name} (expert)", name=name)
    return f"🤖 {name}"


def seat_label(table: TableInfo, seat: int) -> str:
    """Seat name with a robot marker for computer players, as markdown-safe text: the
    player's own name is escaped (``bot.ui.text.names``), so it never renders as markup."""
    for s in table.seats:
        if s.seat == seat:
            if s.is_bot:
                return computer_label(table, s.name)
            name = escape_name(s.name)
            if s.resigned:
                return f"🤖 {name}"
            if s.expiries >= 2:  # the computer plays the seat until they are back
                return _("🤖 {name} (away)", name=name)
            return f"{name} 💤" if s.away else name
    return _("Seat {number}", number=seat + 1)


def plain_label(table: TableInfo, seat: int) -> str:
    """Seat name for a quiet hand DM (escaped, as ``seat_label``): the robot marker of a
    computer (or resigned) seat, but no away markers — those change with every timeout and
    would edit every player's DM."""
    for s in table.seats:
        if s.seat == seat:
            if s.is_bot:
                return computer_label(table, s.name)
            name = escape_name(s.name)
            return f"🤖 {name}" if s.resigned else name
    return _("Seat {number}", number=seat + 1)


#: The last sentence of a hand DM while it is not the seat's decision.
UPDATES_NOTE = N_("This message updates when it's your turn.")
#: "Now" of a hand DM while another seat decides. Quiet hand DMs show only the hand and
#: what the deal's start fixed: nothing that changes with other players' moves (tricks, whose
#: turn, bids, the contract, the phase), so the bot edits a DM only when that seat's hand,
#: controls or turn change (issue 14); the table message shows everything else.
WAITING_NOTE = N_(
    "Not your turn — the table message shows the bidding and the play. "
    "This message updates when it's your turn."
)


def mention(table: TableInfo, seat: int) -> str | None:
    """Mention of the human in ``seat`` (None for computer or resigned seats)."""
    for s in table.seats:
        if s.seat == seat and s.user_id is not None and not s.resigned and not s.is_bot:
            return f"<@{s.user_id}>"
    return None


def table_number(table_id: int) -> str:
    """A table's number as every message writes it, in the current language: "#8", "n° 8",
    "n. 8" (the catalogs write the same form inside their sentences, "table n° 8")."""
    return p_("table number", "#{id}", id=table_id)


def lobby_embed(
    table: TableInfo, title: str, option_lines: list[str], status: str | None = None
) -> discord.Embed:
    """The lobby: who is seated, free seats, options and what to do next (``status``: in
    place of the usual words)."""
    lines: list[str] = []
    for i in range(table.players):
        seat = next((s for s in table.seats if s.seat == i), None)
        if seat is None:
            lines.append(_("`{number}.` *empty seat*", number=i + 1))
        else:
            host = " 👑" if seat.user_id == table.owner_id else ""
            lines.append(f"`{i + 1}.` {seat_label(table, i)}{host}")
    free = table.players - len(table.seats)
    status = status or (
        n_(
            "Waiting for {n} more player — press **Join** or **Add computer**.",
            "Waiting for {n} more players — press **Join** or **Add computer**.",
            free,
        )
        if free
        else _("The table is full — the host can press **Start**.")
    )
    embed = discord.Embed(
        title=_("{game} · table #{id}", game=title, id=table.id),
        colour=COLOUR_LOBBY,
        description=status,
    )
    embed.add_field(name=_("Seats"), value="\n".join(lines), inline=True)
    embed.add_field(name=_("Options"), value="\n".join(option_lines) or _("defaults"), inline=True)
    embed.set_footer(text=_("Hands are sent by DM. If your DMs are closed, use “Show my hand”."))
    return embed


def coaching_lines(table: TableInfo, *, lobby: bool = True) -> list[str]:
    """The table's computer level and hints, for the lobby's options (``lobby``: the level
    even when casual) and the running table's footer (only what differs from the default)."""
    lines: list[str] = []
    if table.level == "expert":
        lines.append(_("Computer players: **expert**"))
    elif lobby:
        lines.append(_("Computer players: **casual**"))
    if table.hints:
        lines.append(_("Hints: **on** — a practice table, not rated"))
    return lines


def with_coaching(embed: discord.Embed, table: TableInfo) -> discord.Embed:
    """A running table's embed with its level and hints at the end of the footer."""
    extra = [line.replace("*", "") for line in coaching_lines(table, lobby=False)]
    if extra:
        footer = embed.footer.text if embed.footer else None
        embed.set_footer(text=" · ".join([*([footer] if footer else []), *extra]))
    return embed


def standings(table: TableInfo, totals: tuple[int, ...], winners: tuple[int, ...] = ()) -> str:
    """Seats ordered by total, winners marked."""
    order = sorted(range(len(totals)), key=lambda s: (-totals[s], s))
    out: list[str] = []
    for s in order:
        crown = "🏆 " if s in winners else ""
        out.append(f"{crown}**{seat_label(table, s)}** — {totals[s]}")
    return "\n".join(out)


def final_embed(
    outcome: Outcome, title: str, history: Sequence[tuple[int, Sequence[int]]] | None = None
) -> discord.Embed:
    """The match is over: winners and the final table; with ``history`` (each deal's number
    and deltas, e.g. from ``TableStore.deal_results``) a deal-by-deal score table too."""
    table = outcome.table
    names = ", ".join(seat_label(table, s) for s in outcome.winners)
    played = rounds(table.game_id, outcome.deals_played)
    if not names:
        result = _("🏆 Nobody wins after {played}.", played=played)
    elif len(outcome.winners) > 1:
        result = _("🏆 **{names}** win after {played}.", names=names, played=played)
    else:
        result = _("🏆 **{names}** wins after {played}.", names=names, played=played)
    embed = discord.Embed(
        title=_("{title} · table #{id} — game over", title=title, id=table.id),
        description=result,
        colour=COLOUR_DONE,
    )
    embed.add_field(name=_("Final scores"), value=standings(table, outcome.totals, outcome.winners))
    if history:
        heading = (
            _("Hand by hand (change, running total)")
            if round_word(table.game_id) == "hand"
            else _("Deal by deal (change, running total)")
        )
        embed.add_field(name=heading, value=score_table(table, history), inline=False)
    return embed


def plays_line(
    table: TableInfo, plays: Sequence[tuple[int, str]], card_labels: Mapping[str, str] | None = None
) -> str:
    """A trick as "name card · name card" (an em dash while empty)."""
    return (
        " · ".join(f"{seat_label(table, s)} {label(c, card_labels or {})}" for s, c in plays) or "—"
    )


#: The mark of the card winning the current trick (and of the last trick's winner).
WINNING_MARK = "🏆"


def led_suit(view: PublicView) -> str | None:
    """The suit the current trick follows, as the game's own rules name it (``S``/``H``/
    ``D``/``C``, ``T`` for trumps), or None (no trick, or only the Excuse/Fool so far)."""
    trick = view.trick
    if not trick:
        return None
    game = view.game_id
    if game == "early_french_tarot":
        return early_french_tarot.led_suit(trick)
    if game == "french_tarot":
        return french_tarot_cards.led_suit(trick)
    if game == "queen_of_tarot":
        return queen_of_tarot_cards.led_suit(trick)
    if game == "la_morte":
        first = trick[0][1]
        # A led La Morte makes the trick trump-led (la_morte D-14); Il Bagatto is a club.
        return "T" if first == la_morte.LA_MORTE else la_morte.SUIT[first]
    return trick[0][1][0]  # Loser's Game: the first card's suit


def led_words(view: PublicView, card_labels: Mapping[str, str] | None = None) -> str:
    """ "Led: ♠ Spades" (or trumps, or what the lead is waiting for)."""
    suit = led_suit(view)
    if suit is None:
        if not view.trick:
            return _("Nothing led yet")
        lead = label(view.trick[0][1], card_labels or {})
        return _("Led: {card} — the next card sets the suit", card=lead)
    if suit in SUIT_SYMBOL:
        own = getattr(renderer(view.game_id), "SUIT_WORDS", {})  # a game's own suit names
        word = own.get(suit) or suit_word(suit)
        return _("Led: {sign} {suit}", sign=suit_mark(suit), suit=word)
    if view.game_id == "la_morte" and view.trick[0][1] == la_morte.LA_MORTE:
        return _("Led: ☠ La Morte (trumps)")
    return _("Led: trumps")


def seat_lines(
    table: TableInfo,
    plays: Sequence[Play],
    card_labels: Mapping[str, str] | None = None,
    winner: int | None = None,
) -> list[str]:
    """A trick one seat per line, "name — card", the ``winner``'s card marked."""
    return [
        f"{seat_label(table, s)} — **{label(c, card_labels or {})}**"
        + (f" {WINNING_MARK}" if s == winner else "")
        for s, c in plays
    ]


def trick_text(
    table: TableInfo, view: PublicView, card_labels: Mapping[str, str] | None = None
) -> str:
    """The current trick for a table or hand embed: the led suit, then one seat per line with
    the card winning so far marked (the game's own trick rules decide, via ``winning_seat``)."""
    if not view.trick:
        return _("Nothing led yet.")
    lines = [led_words(view, card_labels)]
    lines += seat_lines(table, view.trick, card_labels, winning_seat(view))
    return clip_lines(lines, FIELD_VALUE_LIMIT)


def last_trick_text(
    table: TableInfo,
    plays: Sequence[Play],
    winner: int | None,
    card_labels: Mapping[str, str] | None = None,
) -> str:
    """A finished trick one seat per line (its winner marked), or the compact "name card ·
    name card" line if that does not fit a field."""
    text = "\n".join(seat_lines(table, plays, card_labels, winner))
    if len(text) <= FIELD_VALUE_LIMIT:
        return text
    return clip_lines([plays_line(table, plays, card_labels)], FIELD_VALUE_LIMIT)


def add_last_trick(
    embed: discord.Embed,
    table: TableInfo,
    view: PublicView,
    card_labels: Mapping[str, str] | None = None,
    *,
    verb: str = "won",
) -> discord.Embed:
    """A deal summary's "Last trick" field, when the deal's final public view shows it (a
    game whose piles stay face down shows only what its view holds; ``verb``: ``won`` or
    ``taken``, a code)."""
    if view.last_trick:
        if view.last_winner is None:
            name = _("Last trick")
        elif verb == "taken":
            name = _("Last trick — taken by {name}", name=seat_label(table, view.last_winner))
        else:
            name = _("Last trick — won by {name}", name=seat_label(table, view.last_winner))
        embed.add_field(
            name=name,
            value=last_trick_text(table, view.last_trick, view.last_winner, card_labels),
            inline=False,
        )
    return embed


def score_table(table: TableInfo, history: Sequence[tuple[int, Sequence[int]]]) -> str:
    """The deal-by-deal sheet, one line per player with their name (issue 30: a grid of seat
    columns overflows a phone): each deal's change with the running total after it, "+20
    (20) · −40 (−20)", then the final total in bold. A line too long for its share of a field
    gives way from its earliest deals ("…")."""
    players = max([table.players, *(len(d) for _, d in history)])
    share = max(60, FIELD_VALUE_LIMIT // max(1, players) - 1)
    lines: list[str] = []
    for s in range(players):
        running = 0
        steps: list[str] = []
        for _number, deltas in history:
            d = deltas[s] if s < len(deltas) else 0
            running += d
            steps.append(f"{_signed(d)} ({_signed(running, plus=False)})")
        head = f"**{seat_label(table, s)}** "
        tail = f" = **{_signed(running, plus=False)}**"
        while len(steps) > 1 and len(head) + len(" · ".join(steps)) + len(tail) > share:
            steps = ["…", *steps[2:]]
        lines.append(head + " · ".join(steps) + tail)
    return clip_lines(lines, FIELD_VALUE_LIMIT)


def _signed(n: int, *, plus: bool = True) -> str:
    """``n`` with a real minus sign (and a plus sign, ``plus``)."""
    if n < 0:
        return f"−{-n}"
    return f"+{n}" if plus else str(n)


def finish_table_embed(
    embed: discord.Embed, table: TableInfo, to_act: int | None, doing: str, options: list[str]
) -> discord.Embed:
    """The end every table message shares: "Now — waiting for X to …" and the options."""
    if to_act is not None:
        who = seat_label(table, to_act)
        waiting = (
            _("Waiting for **{name}** to {doing}.", name=who, doing=doing)
            if doing
            else _("Waiting for **{name}**.", name=who)
        )
        embed.add_field(name=_("Now"), value=waiting, inline=False)
    if table.daily is not None:
        # A daily attempt is one deal whatever the game's match options say (its footer read
        # "Deals: 2 per player"): they do not apply.
        options = [_("Daily deal: one deal")]
    elif table.league is not None:  # a league entry: its set's deals (issue 34)
        options = [_("League set")]
    elif table.replay is not None:  # likewise one deal, the one it replays
        options = [replay_line(table.replay)]
    embed.set_footer(text=" · ".join(line.replace("*", "") for line in options))
    return embed


def rules_card(title: str, text: str) -> discord.Embed:
    """``/<game> rules``: the short version."""
    return discord.Embed(
        title=_("{title} — the short version", title=title), colour=COLOUR_PLAY, description=text
    )


def rules_pages(title: str, intro: str, sections: Sequence[tuple[str, str]]) -> list[discord.Embed]:
    """``/<game> rules full:True``: the complete rules, one field per section."""
    embed = discord.Embed(title=_("{title} — the complete rules", title=title), colour=COLOUR_PLAY)
    embed.description = intro
    for name, value in sections:
        embed.add_field(name=name, value=value, inline=False)
    return [embed]
