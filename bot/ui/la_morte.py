"""La Morte's Discord rendering: table embed, hand embed, deal summary, rules card.

Presentation only: everything shown comes from the engine's ``PublicView``/``SeatView``
(rules logic stays in ``bot/engine/games/la_morte.py``).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.games.la_morte import LA_MORTE, SUIT
from bot.engine.views import PublicView, SeatView
from bot.services.models import EndedDeal, Outcome, TableInfo
from bot.ui.cards import (
    LA_MORTE_LABEL,
    LA_MORTE_NAME,
    SUIT_WORD,
    in_hand_order,
    label,
    labels,
    suit_mark,
)
from bot.ui.choice import restriction_line
from bot.ui.components import decision_view as default_decision_view
from bot.ui.render import (
    COLOUR_DONE,
    COLOUR_PLAY,
    WAITING_NOTE,
    add_last_trick,
    last_trick_text,
    mention,
    plural,
    seat_label,
    standings,
    table_link,
    trick_text,
)

GROUP = "lamorte"
CARD_LABELS = LA_MORTE_LABEL
CARD_NAMES = LA_MORTE_NAME
TITLE = "La Morte"
BUTTON_LABELS = {"bid": "Bid", "accept": "Accept", "drop": "Drop", "muck": "Muck"}
ROLE_ICON = {"maker": "🎯", "defender": "🛡️", "dropper": "💤", "undecided": "❔"}
ROLE_NAME = {
    "maker": "maker",
    "defender": "defender",
    "dropper": "dropper",
    "undecided": "undecided",
}


def option_lines(options: dict[str, Any]) -> list[str]:
    """Lobby/footers: the table's options in words."""
    lines = [f"Target score: **{options.get('target', 50)}**"]
    limit = options.get("round_limit")
    lines.append(
        f"Round limit: {plural(limit, 'deal', bold=True)}" if limit else "Round limit: none"
    )
    return lines


def _trump_line(info: dict[str, Any]) -> str:
    talon = info["talon"]
    trump = info["trump"]
    shown = label(talon, CARD_LABELS)
    if trump is None:
        return f"Talon **{shown}** → **no trumps** this deal"
    return f"Talon **{shown}** → trumps **{suit_mark(trump)} {SUIT_WORD[trump]}**"


def _contract_line(table: TableInfo, pv: PublicView) -> str:
    info = pv.info
    if info["contract"] is not None:
        maker = seat_label(table, info["maker"])
        tail = " (nobody accepted: no defenders)" if info["auto_contract"] else ""
        return f"Contract **{info['contract']}** by **{maker}**{tail}"
    if pv.phase == "dealer_option":
        return f"Everyone dropped — **{seat_label(table, pv.dealer)}** (dealer) may bid or muck"
    if info["high_bid"]:
        who = seat_label(table, info["high_bidder"])
        return f"Auction · highest bid **{info['high_bid']}** by **{who}**"
    return "Auction · no bid yet"


def _turn_words(pv: PublicView) -> str:
    if pv.to_act is None:
        return ""
    if pv.phase == "auction":
        return "bid, accept or drop"
    if pv.phase == "dealer_option":
        return "bid or muck the deal"
    if pv.info["statuses"][pv.to_act] == "undecided":
        return "accept or drop, then play"
    return "play a card"


def turn_content(outcome: Outcome) -> str | None:
    """Message content above the table embed: whose turn, mentioning a human."""
    pv = outcome.public
    if pv is None or pv.to_act is None or outcome.finished:
        return None
    who = mention(outcome.table, pv.to_act)
    if who is None:
        return None
    return f"{who}, it's your turn — {_turn_words(pv)}."


def table_embed(outcome: Outcome) -> discord.Embed:
    """The public table message of a running deal."""
    table, pv = outcome.table, outcome.public
    assert pv is not None
    info = pv.info
    embed = discord.Embed(
        title=f"{TITLE} · table #{table.id} — deal {outcome.deal_number}", colour=COLOUR_PLAY
    )
    embed.description = "\n".join(
        [
            f"Dealer **{seat_label(table, pv.dealer)}** · {_trump_line(info)}",
            _contract_line(table, pv),
        ]
    )
    rows: list[str] = []
    for seat in range(pv.players):
        status = info["statuses"][seat]
        marks = "▶️ " if pv.to_act == seat else ""
        extra = ""
        if info["morto"] == seat:
            extra = " · ☠ **il Morto**"
        elif info["fuori"] == seat:
            extra = " · ⌛ **Fuori dal Tempo**"
        rows.append(
            f"{marks}{ROLE_ICON[status]} **{seat_label(table, seat)}** — {ROLE_NAME[status]}"
            f" · {plural(pv.tricks_won[seat], 'trick')}"
            f" · total **{outcome.totals[seat]}**{extra}"
        )
    embed.add_field(name="Players", value="\n".join(rows), inline=False)
    if pv.phase == "play":
        embed.add_field(
            name=f"Trick {pv.tricks_played + 1} of 9",
            value=trick_text(table, pv, CARD_LABELS),
            inline=False,
        )
    if pv.last_trick and pv.last_winner is not None:
        embed.add_field(
            name=f"Last trick — won by {seat_label(table, pv.last_winner)}",
            value=last_trick_text(table, pv.last_trick, pv.last_winner, CARD_LABELS),
            inline=False,
        )
    embed.set_footer(text=" · ".join(line.replace("*", "") for line in option_lines(table.options)))
    return embed


def _hand_lines(view: SeatView) -> list[str]:
    """The hand grouped by suit (trumps first), La Morte last; il Morto's note."""
    groups: dict[str, list[str]] = {}
    order: list[str] = []
    for card in view.hand:
        key = "☠" if card == LA_MORTE else SUIT[card]  # the engine's suits (Bagatto: clubs)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(card)
    lines: list[str] = []
    for key in order:
        if key == "☠":
            lines.append("☠ La Morte")
            continue
        tag = " (trumps)" if key == view.public.info["trump"] else ""
        lines.append(f"{suit_mark(key)}{tag}: {labels(groups[key], CARD_LABELS)}")
    if view.info.get("dead"):
        lines.append("*You are il Morto: your remaining cards are dead.*")
    return lines


def hand_embed(table: TableInfo, view: SeatView, where: str, outcome: Outcome) -> discord.Embed:
    """A player's private hand (DM or ephemeral), sorted by suit.

    At the seat's decision (and once the game is over) it shows the whole situation: contract,
    the trick, what to do. Otherwise it is *quiet*: only the hand and settled facts of the
    deal, so it does not change while others play (the bot edits a DM only when it changes).
    """
    pv = view.public
    info = pv.info
    embed = discord.Embed(title=f"Your hand — {TITLE} table #{table.id}", colour=COLOUR_PLAY)
    embed.set_author(name=where, url=table_link(table))
    embed.description = "\n".join(_hand_lines(view)) or "*No cards left.*"
    embed.add_field(name=f"Deal {outcome.deal_number}", value=_trump_line(info), inline=False)
    status = info["statuses"][view.seat]
    if outcome.finished or (pv.to_act == view.seat and view.legal):
        embed.add_field(
            name="You are", value=f"{ROLE_ICON[status]} {ROLE_NAME[status]}", inline=True
        )
        embed.add_field(name="Contract", value=_contract_line(table, pv), inline=True)
        if pv.phase == "play":
            embed.add_field(
                name=f"Trick {pv.tricks_played + 1}",
                value=trick_text(table, pv, CARD_LABELS),
                inline=False,
            )
        turn = "The game is over." if outcome.finished else f"**Your turn** — {_turn_words(pv)}."
        why = None if outcome.finished else restriction_line(view)
        turn += f"\n{why}" if why else ""
        embed.add_field(name="Now", value=turn, inline=False)
        return embed
    # Quiet: never the auction, the contract, the trick or whose turn it is (all on the
    # table message, and here at the seat's own turn).
    turn = "Waiting for the next deal." if pv.to_act is None else WAITING_NOTE
    embed.add_field(name="Now", value=turn, inline=False)
    return embed


def decision_view(table_id: int, view: SeatView) -> discord.ui.View | None:
    """The default controls (a "Play a card" menu and the auction buttons), with the cards in
    the hand line's order (the engine lists the legal cards in dealt order)."""
    cards = in_hand_order([a.card for a in view.legal if a.type == "play" and a.card], view.hand)
    plays = sorted(
        (a for a in view.legal if a.type == "play"),
        key=lambda a: cards.index(a.card) if a.card in cards else len(cards),
    )
    legal = (*plays, *(a for a in view.legal if a.type != "play"))
    return default_decision_view(table_id, legal, BUTTON_LABELS, CARD_LABELS, CARD_NAMES)


def deal_summary_embed(
    table: TableInfo, ended: EndedDeal, totals: tuple[int, ...]
) -> discord.Embed:
    """The table message of a finished deal becomes its summary."""
    res = ended.result
    pv = ended.public
    embed = discord.Embed(
        title=f"{TITLE} · table #{table.id} — deal {ended.number} result", colour=COLOUR_DONE
    )
    if res.outcome == "mucked":
        embed.description = (
            f"Everyone dropped and **{seat_label(table, pv.dealer)}** mucked the deal. No scores."
        )
    else:
        d = res.detail
        verdict = "made ✅" if d["made"] else "failed ❌"
        maker = seat_label(table, d["maker"])
        embed.description = (
            f"{_trump_line(pv.info)}\nContract **{d['contract']}** by **{maker}** {verdict} "
            f"({plural(d['tricks'][d['maker']], 'trick')})"
        )
        rows: list[str] = []
        for seat, delta in enumerate(res.deltas):
            role = d["roles"][seat]
            note = ""
            if d["fuori"] == seat:
                note = " · Fuori dal Tempo (scores 0)"
            elif d["morto"] == seat:
                note = " · il Morto"
            rows.append(
                f"{ROLE_ICON[role]} **{seat_label(table, seat)}** — {role}, "
                f"{plural(d['tricks'][seat], 'trick')}{note} → **+{delta}**"
            )
        embed.add_field(name="Scores", value="\n".join(rows), inline=False)
    add_last_trick(embed, table, ended.public, CARD_LABELS)
    embed.add_field(name="Totals", value=standings(table, totals), inline=False)
    return embed


def rules_embed() -> discord.Embed:
    """A short rules card for ``/lamorte rules``."""
    embed = discord.Embed(title="La Morte — how to play", colour=COLOUR_PLAY)
    embed.description = (
        "3–5 players, 9 cards each, 9 tricks. The face-up **talon** sets trumps (La Morte "
        "as talon: no trumps). Suits rank A K Q Kn J 10 9 8 7 (6 5 with five players, plus "
        "Il Bagatto, the highest club)."
    )
    embed.add_field(
        name="Auction",
        value=(
            "From the dealer clockwise: **Bid** more tricks than the last bid, **Accept** the "
            "standing bid (you become a defender and lead at once a lowest-ranked card), or "
            "**Drop** (aim to take no tricks). Players still undecided choose Accept or Drop at "
            "their turn in trick 1. A lone standing bid becomes the contract with no defenders. "
            "If all drop, the dealer may bid again or **Muck** the deal."
        ),
        inline=False,
    )
    embed.add_field(
        name="Play",
        value=(
            "Follow suit if you can; otherwise play anything — there is no need to trump. "
            "**La Morte** counts as a trump for following and wins any trump-led trick, but may "
            "only be led as your last card (**Fuori dal Tempo**: that deal scores 0 for you). "
            "Played to a plain-suit trick it loses, and the winner becomes **il Morto**: "
            "they keep their tricks but play no more."
        ),
        inline=False,
    )
    embed.add_field(
        name="Scoring",
        value=(
            "Maker: 1 per trick, plus the contract if made. Defenders: 1 per trick, plus the "
            "contract if it fails. Droppers: contract − 1 if they took no trick, else 0. "
            "First to the target score (default 50) with a unique lead wins."
        ),
        inline=False,
    )
    return embed
