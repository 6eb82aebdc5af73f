"""Early French Tarot's Discord rendering: table, hand, score sheet and rules.

Presentation only: everything shown comes from the engine's ``PublicView``/``SeatView`` and
``DealResult`` (rules stay in ``bot/engine/games/early_french_tarot.py``).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.views import SeatView
from bot.services.models import EndedDeal, Outcome, TableInfo
from bot.ui.cards import in_hand_order, label, labels, suit_mark
from bot.ui.choice import add_play_selects, restriction_line
from bot.ui.render import (
    COLOUR_DONE,
    COLOUR_PLAY,
    WAITING_NOTE,
    add_last_trick,
    finish_table_embed,
    last_trick_text,
    mention,
    plain_label,
    plural,
    rules_card,
    rules_pages,
    seat_label,
    standings,
    table_link,
    trick_text,
)

GROUP = "oldtarot"
TITLE = "Early French Tarot"
BUTTON_LABELS: dict[str, str] = {}
CARD_LABELS = {"EX": "🃏 Fool", "T21": "T21 World", "T1": "T1 Magician"}
CARD_NAMES = {
    "EX": "the Fool (the Excuse)",
    "T21": "the World (trump XXI)",
    "T1": "the Magician (trump I)",
}
_SUITS = ("S", "H", "D", "C")


def option_lines(options: dict[str, Any]) -> list[str]:
    """Lobby and footer: the table's options in words."""
    scoring = (
        "every card taken scores 1" if options.get("every_card_scores") else "1 per card above 12"
    )
    return [f"Game to **{options.get('target', 50)}**", f"Scoring: **{scoring}** + honours"]


def _fool_line(table: TableInfo, info: dict[str, Any]) -> str | None:
    """Where the Fool stands: still in a hand, returned (with the card handed over), owed."""
    owner = info["fool_owner"]
    if owner is None:
        return None
    who = seat_label(table, owner)
    if info["fool_creditor"] is not None:
        to = seat_label(table, info["fool_creditor"])
        return f"🃏 **{who}** played the Fool with no cards won yet and **owes {to} a card**"
    for giver, receiver, card, trick, kind in reversed(info["exchanges"]):
        if kind == "surrender":
            return f"🃏 **{who}** won no trick: the Fool went to **{seat_label(table, receiver)}**"
        if giver == owner:
            paid = "paid the debt with" if kind == "debt_paid" else "gave"
            return (
                f"🃏 The Fool returned to **{who}**, who {paid} "
                f"{label(card, CARD_LABELS)} to **{seat_label(table, receiver)}** (trick {trick})"
            )
    return None


def turn_content(outcome: Outcome) -> str | None:
    """Message content above the table embed: whose turn, mentioning a human."""
    pv = outcome.public
    if pv is None or pv.to_act is None or outcome.finished:
        return None
    who = mention(outcome.table, pv.to_act)
    return None if who is None else f"{who}, it's your turn — play a card."


def table_embed(outcome: Outcome) -> discord.Embed:
    """The public table message: tricks, cards taken, honours won, the Fool, totals."""
    table, pv = outcome.table, outcome.public
    assert pv is not None
    info = pv.info
    embed = discord.Embed(
        title=f"{TITLE} · table #{table.id} — hand {outcome.deal_number}", colour=COLOUR_PLAY
    )
    lines = [
        f"Dealer **{seat_label(table, pv.dealer)}** · 12 cards each · "
        f"{info['set_aside']} set aside unseen"
    ]
    fool = _fool_line(table, info)
    if fool:
        lines.append(fool)
    embed.description = "\n".join(lines)
    rows: list[str] = []
    for seat in range(pv.players):
        mark = "▶️ " if pv.to_act == seat else ""
        honours = info["honours"][seat]
        rows.append(
            f"{mark}**{seat_label(table, seat)}** · {plural(pv.tricks_won[seat], 'trick')}, "
            f"{plural(info['taken'][seat], 'card')}"
            + (f" · {labels(honours, CARD_LABELS)}" if honours else "")
            + f" · total **{outcome.totals[seat]}**"
        )
    embed.add_field(name="Players", value="\n".join(rows), inline=False)
    if pv.phase == "play":
        embed.add_field(
            name=f"Trick {pv.tricks_played + 1} of 12",
            value=trick_text(table, pv, CARD_LABELS),
            inline=False,
        )
    if pv.last_trick and pv.last_winner is not None:
        embed.add_field(
            name=f"Last trick — won by {seat_label(table, pv.last_winner)}",
            value=last_trick_text(table, pv.last_trick, pv.last_winner, CARD_LABELS),
            inline=False,
        )
    return finish_table_embed(embed, table, pv.to_act, "", option_lines(table.options))


def _hand_lines(hand: tuple[str, ...]) -> list[str]:
    lines: list[str] = []
    for suit in _SUITS:
        cards = [c for c in hand if c[0] == suit]
        if cards:
            lines.append(f"{suit_mark(suit)} {labels(cards, CARD_LABELS)}")
    trumps = [c for c in hand if c[0] == "T"]
    if trumps:
        lines.append(f"Trumps ({len(trumps)}) {labels(trumps, CARD_LABELS)}")
    if "EX" in hand:
        lines.append("🃏 the Fool — play it any time; it never wins and comes back to you")
    return lines


def hand_embed(table: TableInfo, view: SeatView, where: str, outcome: Outcome) -> discord.Embed:
    """A player's private hand (DM or ephemeral).

    At the seat's turn (and once the game is over) it shows the cards taken, the trick and
    the prompt. Otherwise it is *quiet*: the hand, the dealer and the match total only, so it
    does not change while others play (the bot edits a DM only when it changes).
    """
    pv = view.public
    embed = discord.Embed(title=f"Your hand — {TITLE} table #{table.id}", colour=COLOUR_PLAY)
    embed.set_author(name=where, url=table_link(table))
    embed.description = "\n".join(_hand_lines(view.hand)) or "*No cards left.*"
    total = f"total **{outcome.totals[view.seat]}**"
    if not outcome.finished and (pv.to_act != view.seat or not view.legal):
        embed.add_field(
            name=f"Hand {outcome.deal_number}",
            value=f"Dealer **{plain_label(table, pv.dealer)}** · your {total}",
            inline=False,
        )
        now = "Waiting for the next hand." if pv.to_act is None else WAITING_NOTE
        embed.add_field(name="Now", value=now, inline=False)
        return embed
    mine = pv.info["taken"][view.seat]
    honours = pv.info["honours"][view.seat]
    embed.add_field(
        name=f"Hand {outcome.deal_number}",
        value=f"You have taken {plural(mine, 'card')}"
        + (f" with {labels(honours, CARD_LABELS)}" if honours else "")
        + f" · {total}",
        inline=False,
    )
    if pv.phase == "play":
        embed.add_field(
            name=f"Trick {pv.tricks_played + 1}",
            value=trick_text(table, pv, CARD_LABELS),
            inline=False,
        )
    if outcome.finished:
        turn = "The game is over."
    else:
        turn = (
            "**Your turn — play a card.** Follow suit; if you can't, you must trump; "
            "the Fool is always allowed."
        )
        why = restriction_line(view)
        turn += f"\n{why}" if why else ""
    embed.add_field(name="Now", value=turn, inline=False)
    return embed


def decision_view(table_id: int, view: SeatView) -> discord.ui.View | None:
    """One "Play …" select per suit holding exactly the legal cards."""
    cards = in_hand_order([a.card for a in view.legal if a.type == "play" and a.card], view.hand)
    if not cards:
        return None
    ui = discord.ui.View(timeout=None)
    add_play_selects(ui, table_id, cards, 5, CARD_LABELS, CARD_NAMES)
    return ui


def deal_summary_embed(
    table: TableInfo, ended: EndedDeal, totals: tuple[int, ...]
) -> discord.Embed:
    """The score sheet of a finished hand: cards, honours and points per player."""
    d = ended.result.detail
    embed = discord.Embed(
        title=f"{TITLE} · table #{table.id} — hand {ended.number} score sheet",
        colour=COLOUR_DONE,
    )
    every = d["every_card_scores"]
    rule = "1 point per card" if every else "1 point per card above 12"
    lines = [f"Cards ({rule}) + honours: Fool 5, World 4, Magician 4, K 4, Q 3, Kn 2, J 1"]
    fool = _fool_line(table, {**ended.public.info, "fool_creditor": None})
    if fool:
        lines.append(fool)
    rows: list[str] = []
    for seat, delta in enumerate(ended.result.deltas):
        honours = d["honours"][seat]
        shown = f"{labels(honours, CARD_LABELS)} = {d['honour_points'][seat]}" if honours else "0"
        rows.append(
            f"**{seat_label(table, seat)}** — {plural(d['tricks'][seat], 'trick')}, "
            f"{plural(d['cards'][seat], 'card', bold=True)} → {d['card_points'][seat]} · "
            f"honours {shown} "
            f"→ **+{delta}**"
        )
    # In the description (4,096 characters), not a field (1,024): six rows of honours, each
    # card with its suit emoji's markup, outgrow a field.
    embed.description = "\n".join([*lines, "", "**Scores**", *rows])
    add_last_trick(embed, table, ended.public, CARD_LABELS)
    embed.add_field(name="Totals", value=standings(table, totals), inline=False)
    return embed


def rules_embed() -> discord.Embed:
    """``/oldtarot rules``: the short version."""
    return rules_card(
        TITLE,
        (
            "2–6 players (4 is best), 12 cards each from the 78-card tarot, no bidding. Follow "
            "suit; if you can't, you must trump. Ace is low, King high; trump XXI is highest. "
            "The **Fool** can be played any time, never wins, and comes back to you — you hand "
            "the trick's winner one of your won cards instead. After 12 tricks score 1 point "
            "per card above 12, plus honours (Fool 5, World 4, Magician 4, King 4, Queen 3, "
            "Knight 2, Page 1). First to **50** with the unique top score wins.\n\nUse `/oldtarot "
            "rules full:True` for the complete rules."
        ),
    )


def rules_full_embeds() -> list[discord.Embed]:
    """``/oldtarot rules full:True``: every rule the engine applies, in plain words."""
    return rules_pages(
        TITLE,
        (
            "A reconstruction by Justin du Coeur for historical re-enactors. Play goes "
            "clockwise; the deal passes to the left."
        ),
        [
            (
                "Deal",
                (
                    "One 78-card tarot: four suits (K Q Kn J 10…2 A — the Ace is low), trumps "
                    "I–XXI and the Fool. Everyone gets 12 cards; the rest (54/42/30/18/6 with "
                    "2–6 players) are set aside unseen for the hand. The dealer's left leads "
                    "the first trick."
                ),
            ),
            (
                "Tricks",
                (
                    "Follow the suit led if you can (any rank). If you can't, you must play a "
                    "trump (any trump — you need not beat one already played). With neither, "
                    "play anything: it cannot win. If trumps are led you must play a trump if "
                    "you have one. The highest trump wins, else the highest card of the suit "
                    "led; the winner leads next."
                ),
            ),
            (
                "The Fool (the Excuse)",
                (
                    "Play it whenever you like, even when you could follow or as a lead (then "
                    "the next card sets the suit; with two players that card wins). It never "
                    "wins. At the end of the trick it returns to your pile and you hand the "
                    "winner one card you have won — the bot picks your least valuable, "
                    "earliest-won card. If you have won nothing yet you owe that card and pay "
                    "it right after your next won trick; if you win no trick all hand, the Fool "
                    "itself goes to the player you owed. It returns even from the last trick."
                ),
            ),
            (
                "Scoring",
                (
                    "Each player counts their own cards: 1 point per card above 12 (a table "
                    "option scores every card), plus Fool 5, World (XXI) 4, Magician (I) 4, "
                    "each King 4, Queen 3, Knight 2, Page 1. Set-aside cards score for nobody. "
                    "Totals carry over; when someone reaches the target (50) and the highest "
                    "total is held by one player, that player wins — a tie at the top means "
                    "another hand."
                ),
            ),
        ],
    )
