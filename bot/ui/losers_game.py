"""Loser's Game's Discord rendering: table, hand, trump and bid controls, score sheet, rules.

Presentation only: everything shown comes from the engine's ``PublicView``/``SeatView`` and
``DealResult`` (rules stay in ``bot/engine/games/losers_game.py``). Trick piles are never
shown before the hand ends (losers_game D-9): the table shows how many tricks each player
took, not what was in them.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.views import PublicView, SeatView
from bot.services.models import EndedDeal, Outcome, TableInfo
from bot.ui.cards import SUIT_WORD, in_hand_order, labels, sort_cards, suit_mark
from bot.ui.choice import add_play_selects, restriction_line
from bot.ui.components import MAX_OPTIONS, TableButton, TableSelect
from bot.ui.render import (
    COLOUR_DONE,
    COLOUR_PLAY,
    WAITING_NOTE,
    add_last_trick,
    finish_table_embed,
    last_trick_text,
    mention,
    plural,
    rules_card,
    rules_pages,
    seat_label,
    standings,
    table_link,
    trick_text,
)

GROUP = "losers"
TITLE = "Loser's Game"
BUTTON_LABELS: dict[str, str] = {"bid": "Bid"}
_SUITS = ("S", "H", "D", "C")
#: Bids offered in the DM's menus; higher ones (rare: a bid is lost in full when missed) are
#: typed with ``/losers bid amount``, which accepts anything up to B_max.
MENU_BIDS = 2 * MAX_OPTIONS
_KIND = {3: "three", 4: "four"}


def option_lines(options: dict[str, Any]) -> list[str]:
    """Lobby and footer: the table's options in words."""
    limit = options.get("hand_limit")
    return [
        f"Game to **{options.get('target', 50)}** (unique top)",
        f"Hand limit: {plural(limit, 'hand', bold=True)}" if limit else "Hand limit: none",
    ]


def _suit(suit: str) -> str:
    return f"{suit_mark(suit)} {SUIT_WORD[suit]}"


def _turn_words(pv: PublicView) -> str:
    if pv.phase == "trump":
        return "name the trump suit"
    if pv.phase == "bidding":
        return "bid"
    return "play a card"


def turn_content(outcome: Outcome) -> str | None:
    """Message content above the table embed: whose turn, mentioning a human."""
    pv = outcome.public
    if pv is None or pv.to_act is None or outcome.finished:
        return None
    who = mention(outcome.table, pv.to_act)
    return None if who is None else f"{who}, it's your turn — {_turn_words(pv)}."


def _bids(pv: PublicView) -> dict[int, int]:
    return {seat: amount for seat, amount in pv.info["bids"]}


def table_embed(outcome: Outcome) -> discord.Embed:
    """The public table: trump, caller, excess cards, bids, the trick, tricks taken, totals."""
    table, pv = outcome.table, outcome.public
    assert pv is not None
    info = pv.info
    embed = discord.Embed(
        title=f"{TITLE} · table #{table.id} — hand {outcome.deal_number}", colour=COLOUR_PLAY
    )
    caller = seat_label(table, info["caller"])
    lines = [f"Dealer **{seat_label(table, pv.dealer)}** · {pv.info['hand_size']} cards each"]
    if info["excess"]:
        lines.append(f"Face up, out of play: **{labels(sort_cards(info['excess']))}**")
    if info["trump"] is None:
        lines.append(f"**{caller}** (lowest score) is naming trump…")
    else:
        lines.append(
            f"Trump **{_suit(info['trump'])}**, named by **{caller}** · bids 0–{info['b_max']}"
        )
    embed.description = "\n".join(lines)
    bids = _bids(pv)
    rows: list[str] = []
    for seat in range(pv.players):
        mark = "▶️ " if pv.to_act == seat else ""
        bid = f"bid **{bids[seat]}**" if seat in bids else "no bid yet"
        taken = f" · {plural(pv.tricks_won[seat], 'trick')}" if pv.phase == "play" else ""
        rows.append(
            f"{mark}**{seat_label(table, seat)}** · {bid}{taken} · total **{outcome.totals[seat]}**"
        )
    embed.add_field(name="Players", value="\n".join(rows), inline=False)
    if pv.phase == "play":
        embed.add_field(
            name=f"Trick {pv.tricks_played + 1} of {pv.info['hand_size']}",
            value=trick_text(table, pv),
            inline=False,
        )
    if pv.last_trick and pv.last_winner is not None:
        embed.add_field(
            name=f"Last trick — taken by {seat_label(table, pv.last_winner)} (pile face down)",
            value=last_trick_text(table, pv.last_trick, pv.last_winner),
            inline=False,
        )
    doing = _turn_words(pv) if pv.to_act is not None else ""
    return finish_table_embed(embed, table, pv.to_act, doing, option_lines(table.options))


def _hand_lines(hand: tuple[str, ...], trump: str | None) -> list[str]:
    lines: list[str] = []
    order = sorted(_SUITS, key=lambda x: x != trump)
    for suit in order:
        cards = [c for c in hand if c[0] == suit]
        if cards:
            tag = " (trump)" if suit == trump else ""
            lines.append(f"{suit_mark(suit)}{tag} {labels(cards)}")
    return lines


def hand_embed(table: TableInfo, view: SeatView, where: str, outcome: Outcome) -> discord.Embed:
    """A player's private hand with the trump and what to do now.

    At the seat's decision (and once the game is over) it also shows the bids so far, the
    tricks taken and the trick. Otherwise it is *quiet*: the hand, the trump, the cards out
    of play and the seat's own bid once bidding is over, so it does not change while others
    bid or play (the bot edits a DM only when it changes).
    """
    pv = view.public
    info = pv.info
    trump = info["trump"]
    embed = discord.Embed(title=f"Your hand — {TITLE} table #{table.id}", colour=COLOUR_PLAY)
    embed.set_author(name=where, url=table_link(table))
    embed.description = "\n".join(_hand_lines(view.hand, trump)) or "*No cards left.*"
    facts = [f"Hand {outcome.deal_number} · your total **{outcome.totals[view.seat]}**"]
    if info["excess"]:
        facts.append(f"Out of play: {labels(sort_cards(info['excess']))}")
    if not outcome.finished and (pv.to_act != view.seat or not view.legal):
        # Quiet: the trump, the bids and the trick are on the table message.
        embed.add_field(name="Table", value="\n".join(facts), inline=False)
        now = "Waiting for the next hand." if pv.to_act is None else WAITING_NOTE
        embed.add_field(name="Now", value=now, inline=False)
        return embed
    if trump is not None:
        facts.insert(1, f"Trump **{_suit(trump)}** · bids 0–{info['b_max']}")
    bids = _bids(pv)
    if bids:
        facts.append("Bids: " + ", ".join(f"{seat_label(table, s)} {b}" for s, b in info["bids"]))
    if pv.phase == "play":
        won = plural(pv.tricks_won[view.seat], "trick")
        facts.append(f"You have taken {won} (piles stay face down)")
    embed.add_field(name="Table", value="\n".join(facts), inline=False)
    if pv.phase == "play":
        embed.add_field(
            name=f"Trick {pv.tricks_played + 1} of {pv.info['hand_size']}",
            value=trick_text(table, pv),
            inline=False,
        )
    embed.add_field(name="Now", value=_now(view, outcome), inline=False)
    return embed


def _now(view: SeatView, outcome: Outcome) -> str:
    """The prompt at the seat's decision."""
    pv = view.public
    if outcome.finished:
        return "The game is over."
    if pv.phase == "trump":
        return (
            "**Your turn — name the trump suit.** You have the lowest score. Each trump you "
            "take is worth 1 point; you will bid last and lead the first trick."
        )
    if pv.phase == "bidding":
        return (
            "**Your turn — bid** the points you will take: 1 per trump, 3 for three of a kind, "
            f"9 for four. Make it and score +bid; miss and lose it. Menus go to "
            f"{min(MENU_BIDS - 1, pv.info['b_max'])}; `/losers bid amount` takes any bid up "
            f"to {pv.info['b_max']}."
        )
    why = restriction_line(view)
    play = "**Your turn — play a card.** Follow suit if you can; otherwise play anything."
    return play + (f"\n{why}" if why else "")


def decision_view(table_id: int, view: SeatView) -> discord.ui.View | None:
    """Trump buttons, bid menus, or one "Play …" select per suit of the legal cards."""
    if not view.legal:
        return None
    ui = discord.ui.View(timeout=None)
    kind = view.legal[0].type
    if kind == "trump":
        for action in view.legal:
            suit = action.suit or ""
            held = sum(1 for c in view.hand if c[0] == suit)
            ui.add_item(
                TableButton(
                    table_id,
                    f"act:trump:suit={suit}",
                    label=f"{SUIT_WORD[suit]} ({held} held)",
                    emoji=suit_mark(suit),
                    style=discord.ButtonStyle.primary,
                )
            )
        return ui
    if kind == "bid":
        amounts = [a.amount for a in view.legal if a.amount is not None][:MENU_BIDS]
        for part, start in enumerate(range(0, len(amounts), MAX_OPTIONS)):
            chunk = amounts[start : start + MAX_OPTIONS]
            options = [discord.SelectOption(label=f"Bid {x}", value=str(x)) for x in chunk]
            ui.add_item(
                TableSelect(
                    table_id,
                    "bid",
                    "amount",
                    options=options,
                    placeholder=f"Bid {chunk[0]}–{chunk[-1]}…",
                    row=part,
                    suffix=f":{part}" if part else "",
                )
            )
        ui.add_item(
            TableButton(
                table_id,
                "act:bid:amount=0",
                label="Bid 0 (safe)",
                style=discord.ButtonStyle.secondary,
                row=2,
            )
        )
        return ui
    # The menus list the cards in the hand line's order (the engine's legal order is the
    # order the cards were dealt).
    cards = in_hand_order([a.card for a in view.legal if a.type == "play" and a.card], view.hand)
    add_play_selects(ui, table_id, cards, 5)
    return ui


def deal_summary_embed(
    table: TableInfo, ended: EndedDeal, totals: tuple[int, ...]
) -> discord.Embed:
    """End-of-hand sheet: each player's trumps, sets, points taken, bid and change."""
    d = ended.result.detail
    trump = d["trump"]
    embed = discord.Embed(
        title=f"{TITLE} · table #{table.id} — hand {ended.number} score sheet",
        colour=COLOUR_DONE,
    )
    rows: list[str] = [
        f"Trump **{_suit(trump)}** (named by {seat_label(table, d['caller'])}). Points taken: "
        "1 per trump, 3 per three of a kind, 9 per four of a kind; only the bid scores.",
        "",
    ]
    for seat, delta in enumerate(ended.result.deltas):
        trumps = d["trumps_taken"][seat]
        sets = ", ".join(f"{_KIND[k]} {r}s" for r, k in d["sets"][seat])
        taken = d["points"][seat]
        bid = d["bids"][seat]
        verdict = "" if bid == 0 else " made" if d["made"][seat] else " missed"
        sign = f"+{delta}" if delta > 0 else str(delta)
        rows.append(
            f"**{seat_label(table, seat)}** — {plural(d['tricks'][seat], 'trick')} · "
            f"trumps {len(trumps)}"
            + (f" ({labels(trumps)})" if trumps else "")
            + (f" · sets {sets}" if sets else "")
            + f" → {plural(taken, 'point', bold=True)} · bid {bid}{verdict} → **{sign}**"
        )
    # In the description (4,096 characters), not a field (1,024): six rows of trumps taken,
    # each card with its suit emoji's markup, outgrow a field.
    embed.description = "\n".join(rows)
    add_last_trick(embed, table, ended.public, verb="taken")
    embed.add_field(name="Totals", value=standings(table, totals), inline=False)
    return embed


def confirmation(payload: dict[str, Any]) -> str | None:
    """The private reply to a typed or clicked decision."""
    if payload.get("type") == "trump":
        suit = str(payload.get("suit", ""))
        return f"You named **{_suit(suit)}** as trump." if suit in SUIT_WORD else None
    return None


def rules_embed() -> discord.Embed:
    """``/losers rules``: the short version."""
    return rules_card(
        TITLE,
        (
            "3–6 players (2 as an option), the 52-card pack dealt out evenly; leftover cards "
            "lie face up and out of play. The player with the **lowest** score names trump, "
            "then everyone bids — in turn, the trump caller last — how many points they will "
            "take: **1 per trump**, **3 for three of a kind**, **9 for four of a kind** "
            "(counted over all your tricks). Follow suit if you can; otherwise play anything. "
            "Make your bid and score **+bid**; miss it and **lose the bid**. First to **50** "
            "with the unique top score wins.\n\nUse `/losers rules full:True` for the complete "
            "rules."
        ),
    )


def rules_full_embeds() -> list[discord.Embed]:
    """``/losers rules full:True``: every rule the engine applies, in plain words."""
    return rules_pages(
        TITLE,
        (
            "A trick game by Jonathan Leistiko (2006). Play goes clockwise; the deal passes to "
            "the left."
        ),
        [
            (
                "Deal",
                (
                    "A 52-card pack, Ace high. Everyone gets 52 ÷ players cards (2: 26, 3: 17, "
                    "4: 13, 5: 10, 6: 8); the 1, 2 or 4 cards left over are shown face up and "
                    "play no part."
                ),
            ),
            (
                "Trump and bids",
                (
                    "The player with the lowest total (negative totals count) names one of the "
                    "four suits as trump — on a tie, the tied player first met clockwise from "
                    "the dealer's left. Bids then go round from the caller's left, the caller "
                    "bidding last; everyone sees every bid. A bid is any whole number from 0 up "
                    "to the points still in play (trumps in play plus 9 per rank with all four "
                    "cards in play and 3 per rank with three)."
                ),
            ),
            (
                "Tricks",
                (
                    "The trump caller leads the first trick; any card may be led, trumps "
                    "included. Follow the suit led if you can (no need to win); otherwise play "
                    "any card — you need not trump. The highest trump wins, else the highest "
                    "card of the suit led; the winner leads next. Won tricks stay face down: "
                    "nobody, not even their owner, may look at them before the hand ends."
                ),
            ),
            (
                "Scoring",
                (
                    "Count your tricks: 1 point per trump, 3 per rank of which you hold exactly "
                    "three cards, 9 per rank of which you hold all four (not also 3). A trump "
                    "inside a set counts for both. If your points reach your bid you score "
                    "**+bid** (more is not scored); otherwise you lose your bid. A bid of 0 "
                    "always scores 0. The game ends when the top total is 50 or more and held "
                    "by one player; a table may set a hand limit, after which the highest total "
                    "wins (ties share the win)."
                ),
            ),
        ],
    )
