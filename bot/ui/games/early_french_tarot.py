"""Early French Tarot's Discord rendering: table, hand, score sheet and rules.

Presentation only: everything shown comes from the engine's ``PublicView``/``SeatView`` and
``DealResult`` (rules stay in ``bot/engine/games/early_french_tarot.py``). Every word goes
through the ``early_french_tarot`` catalogs (``bot.i18n``): the period names of the cards in
French (le Fou, le Monde, le Bateleur), the tarocchi names in Italian.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.views import SeatView
from bot.i18n import N_, Words, _, n_, p_
from bot.services.models import EndedDeal, Outcome, TableInfo
from bot.ui.components.choice import add_play_selects
from bot.ui.text.cards import in_hand_order, label, labels, suit_mark
from bot.ui.text.mention import command
from bot.ui.text.render import (
    COLOUR_DONE,
    COLOUR_PLAY,
    FIELD_VALUE_LIMIT,
    WAITING_NOTE,
    add_last_trick,
    clip_lines,
    finish_table_embed,
    last_trick_text,
    mention,
    plain_label,
    rules_card,
    rules_pages,
    seat_label,
    standings,
    table_link,
    trick_text,
)
from bot.ui.text.restriction import restriction_line

GROUP = "oldtarot"
TITLE = N_("Early French Tarot")
BUTTON_LABELS: dict[str, str] = {}
CARD_LABELS = Words({"EX": N_("🃏 Fool"), "T21": N_("T21 World"), "T1": N_("T1 Magician")})
CARD_NAMES = Words(
    {
        "EX": N_("the Fool (the Excuse)"),
        "T21": N_("the World (trump XXI)"),
        "T1": N_("the Magician (trump I)"),
    }
)
_SUITS = ("S", "H", "D", "C")
TRICKS = 12


def _tricks(n: int) -> str:
    return n_("{n} trick", "{n} tricks", n)


def option_lines(options: dict[str, Any]) -> list[str]:
    """Lobby and footer: the table's options in words."""
    target = _("Game to **{target}**", target=options.get("target", 50))
    if options.get("every_card_scores"):
        return [target, _("Scoring: **every card taken scores 1** + honours")]
    return [target, _("Scoring: **1 per card above 12** + honours")]


def _fool_line(table: TableInfo, info: dict[str, Any]) -> str | None:
    """Where the Fool stands: still in a hand, returned (with the card handed over), owed."""
    owner = info["fool_owner"]
    if owner is None:
        return None
    who = seat_label(table, owner)
    if info["fool_creditor"] is not None:
        return _(
            "🃏 **{name}** played the Fool with no cards won yet and **owes {creditor} a card**",
            name=who,
            creditor=seat_label(table, info["fool_creditor"]),
        )
    for giver, receiver, card, trick, kind in reversed(info["exchanges"]):
        if kind == "surrender":
            return _(
                "🃏 **{name}** won no trick: the Fool went to **{receiver}**",
                name=who,
                receiver=seat_label(table, receiver),
            )
        if giver == owner:
            facts = {
                "name": who,
                "card": label(card, CARD_LABELS),
                "receiver": seat_label(table, receiver),
                "trick": trick,
            }
            if kind == "debt_paid":
                return _(
                    "🃏 The Fool returned to **{name}**, who paid the debt with {card} to "
                    "**{receiver}** (trick {trick})",
                    **facts,
                )
            return _(
                "🃏 The Fool returned to **{name}**, who gave {card} to **{receiver}** "
                "(trick {trick})",
                **facts,
            )
    return None


def turn_content(outcome: Outcome) -> str | None:
    """Message content above the table embed: whose turn, mentioning a human."""
    pv = outcome.public
    if pv is None or pv.to_act is None or outcome.finished:
        return None
    who = mention(outcome.table, pv.to_act)
    return None if who is None else _("{who}, it's your turn — play a card.", who=who)


def _cards(n: int, *, bold: bool = False) -> str:
    if bold:
        return n_("**{n}** card", "**{n}** cards", n)
    return n_("{n} card", "{n} cards", n)


def table_embed(outcome: Outcome) -> discord.Embed:
    """The public table message: tricks, cards taken, honours won, the Fool, totals."""
    table, pv = outcome.table, outcome.public
    assert pv is not None
    info = pv.info
    embed = discord.Embed(
        title=_(
            "{game} · table #{table} — hand {n}",
            game=_(TITLE),
            table=table.id,
            n=outcome.deal_number,
        ),
        colour=COLOUR_PLAY,
    )
    lines = [
        _(
            "Dealer **{name}** · 12 cards each · {n} set aside unseen",
            name=seat_label(table, pv.dealer),
            n=info["set_aside"],
        )
    ]
    fool = _fool_line(table, info)
    if fool:
        lines.append(fool)
    embed.description = "\n".join(lines)
    rows: list[str] = []
    for seat in range(pv.players):
        mark = "▶️ " if pv.to_act == seat else ""
        honours = info["honours"][seat]
        facts = {
            "name": seat_label(table, seat),
            "tricks": _tricks(pv.tricks_won[seat]),
            "cards": _cards(info["taken"][seat]),
            "total": outcome.totals[seat],
        }
        if honours:
            row = _(
                "**{name}** · {tricks}, {cards} · {honours} · total **{total}**",
                honours=labels(honours, CARD_LABELS),
                **facts,
            )
        else:
            row = _("**{name}** · {tricks}, {cards} · total **{total}**", **facts)
        rows.append(mark + row)
    # Six long names full of escaped markup, with their honours, can pass a field's limit.
    embed.add_field(name=_("Players"), value=clip_lines(rows, FIELD_VALUE_LIMIT), inline=False)
    if pv.phase == "play":
        embed.add_field(
            name=_("Trick {n} of {total}", n=pv.tricks_played + 1, total=TRICKS),
            value=trick_text(table, pv, CARD_LABELS),
            inline=False,
        )
    if pv.last_trick and pv.last_winner is not None:
        embed.add_field(
            name=_("Last trick — won by {name}", name=seat_label(table, pv.last_winner)),
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
        lines.append(_("Trumps ({n}) {cards}", n=len(trumps), cards=labels(trumps, CARD_LABELS)))
    if "EX" in hand:
        lines.append(_("🃏 the Fool — play it any time; it never wins and comes back to you"))
    return lines


def hand_embed(table: TableInfo, view: SeatView, where: str, outcome: Outcome) -> discord.Embed:
    """A player's private hand (DM or ephemeral).

    At the seat's turn (and once the game is over) it shows the cards taken, the trick and
    the prompt. Otherwise it is *quiet*: the hand, the dealer and the match total only, so it
    does not change while others play (the bot edits a DM only when it changes).
    """
    pv = view.public
    embed = discord.Embed(
        title=_("Your hand — {game} table #{table}", game=_(TITLE), table=table.id),
        colour=COLOUR_PLAY,
    )
    embed.set_author(name=where, url=table_link(table))
    embed.description = "\n".join(_hand_lines(view.hand)) or _("*No cards left.*")
    total = outcome.totals[view.seat]
    if not outcome.finished and (pv.to_act != view.seat or not view.legal):
        embed.add_field(
            name=_("Hand {n}", n=outcome.deal_number),
            value=_(
                "Dealer **{name}** · your total **{total}**",
                name=plain_label(table, pv.dealer),
                total=total,
            ),
            inline=False,
        )
        now = _("Waiting for the next hand.") if pv.to_act is None else _(WAITING_NOTE)
        embed.add_field(name=_("Now"), value=now, inline=False)
        return embed
    mine = pv.info["taken"][view.seat]
    honours = pv.info["honours"][view.seat]
    if honours:
        taken = _(
            "You have taken {cards} with {honours} · total **{total}**",
            cards=_cards(mine),
            honours=labels(honours, CARD_LABELS),
            total=total,
        )
    else:
        taken = _("You have taken {cards} · total **{total}**", cards=_cards(mine), total=total)
    embed.add_field(name=_("Hand {n}", n=outcome.deal_number), value=taken, inline=False)
    if pv.phase == "play":
        embed.add_field(
            name=_("Trick {n}", n=pv.tricks_played + 1),
            value=trick_text(table, pv, CARD_LABELS),
            inline=False,
        )
    if outcome.finished:
        turn = _("The game is over.")
    else:
        turn = _(
            "**Your turn — play a card.** Follow suit; if you can't, you must trump; "
            "the Fool is always allowed."
        )
        why = restriction_line(view)
        turn += f"\n{why}" if why else ""
    embed.add_field(name=_("Now"), value=turn, inline=False)
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
        title=_(
            "{game} · table #{table} — hand {n} score sheet",
            game=_(TITLE),
            table=table.id,
            n=ended.number,
        ),
        colour=COLOUR_DONE,
    )
    if d["every_card_scores"]:
        scale = _("Cards (1 point per card) + honours: {honours}", honours=_honour_scale())
    else:
        scale = _("Cards (1 point per card above 12) + honours: {honours}", honours=_honour_scale())
    lines = [scale]
    fool = _fool_line(table, {**ended.public.info, "fool_creditor": None})
    if fool:
        lines.append(fool)
    rows: list[str] = []
    for seat, delta in enumerate(ended.result.deltas):
        honours = d["honours"][seat]
        shown = f"{labels(honours, CARD_LABELS)} = {d['honour_points'][seat]}" if honours else "0"
        rows.append(
            _(
                "**{name}** — {tricks}, {cards} → {card_points} · honours {honours} "
                "→ **+{points}**",
                name=seat_label(table, seat),
                tricks=_tricks(d["tricks"][seat]),
                cards=_cards(d["cards"][seat], bold=True),
                card_points=d["card_points"][seat],
                honours=shown,
                points=delta,
            )
        )
    # In the description (4,096 characters), not a field (1,024): six rows of honours, each
    # card with its suit emoji's markup, outgrow a field.
    embed.description = "\n".join([*lines, "", _("**Scores**"), *rows])
    add_last_trick(embed, table, ended.public, CARD_LABELS)
    embed.add_field(name=_("Totals"), value=standings(table, totals), inline=False)
    return embed


def _honour_scale() -> str:
    """The honours' values, in the words of the score sheet."""
    return _("Fool 5, World 4, Magician 4, K 4, Q 3, Kn 2, J 1")


def rules_embed() -> discord.Embed:
    """``/oldtarot rules``: the short version."""
    summary = _(
        "2–6 players (4 is best), 12 cards each from the 78-card tarot, no bidding. Follow "
        "suit; if you can't, you must trump. Ace is low, King high; trump XXI is highest. "
        "The **Fool** can be played any time, never wins, and comes back to you — you hand "
        "the trick's winner one of your won cards instead. After 12 tricks score 1 point "
        "per card above 12, plus honours (Fool 5, World 4, Magician 4, King 4, Queen 3, "
        "Knight 2, Page 1). First to **50** with the unique top score wins."
    )
    more = _("Use {command} for the complete rules.", command=command(f"{GROUP} rules", full=True))
    return rules_card(_(TITLE), f"{summary}\n\n{more}")


def rules_full_embeds() -> list[discord.Embed]:
    """``/oldtarot rules full:True``: every rule the engine applies, in plain words."""
    return rules_pages(
        _(TITLE),
        _(
            "A reconstruction by Justin du Coeur for historical re-enactors. Play goes "
            "clockwise; the deal passes to the left."
        ),
        [
            (
                p_("rules section", "Deal"),
                _(
                    "One 78-card tarot: four suits (K Q Kn J 10…2 A — the Ace is low), trumps "
                    "I–XXI and the Fool. Everyone gets 12 cards; the rest (54/42/30/18/6 with "
                    "2–6 players) are set aside unseen for the hand. The dealer's left leads "
                    "the first trick."
                ),
            ),
            (
                p_("rules section", "Tricks"),
                _(
                    "Follow the suit led if you can (any rank). If you can't, you must play a "
                    "trump (any trump — you need not beat one already played). With neither, "
                    "play anything: it cannot win. If trumps are led you must play a trump if "
                    "you have one. The highest trump wins, else the highest card of the suit "
                    "led; the winner leads next."
                ),
            ),
            (
                p_("rules section", "The Fool (the Excuse)"),
                _(
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
                p_("rules section", "Scoring"),
                _(
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
