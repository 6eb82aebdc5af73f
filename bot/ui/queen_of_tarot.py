"""Queen of Tarot's Discord rendering: the bargaining console, discard, declarations, table,
hand, score sheet and rules.

Presentation only: everything shown comes from the engine's ``PublicView``/``SeatView`` and
``DealResult`` (rules stay in ``bot/engine/games/queen_of_tarot*.py``); legal amounts, sets
and cards are read from the seat's legal actions.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.games.queen_of_tarot_cards import sort_key
from bot.engine.views import PublicView, SeatView
from bot.services.models import EndedDeal, Outcome, TableInfo
from bot.ui.cards import in_hand_order, label, labels, sort_cards, suit_mark
from bot.ui.choice import add_choice, add_play_selects, restriction_line
from bot.ui.components import MAX_OPTIONS, TableButton, TableSelect, bonus_value
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

GROUP = "tarocchi"
TITLE = "Queen of Tarot"
BUTTON_LABELS: dict[str, str] = {}
CARD_LABELS = {"T20": "T20 Angel", "T1": "T1 Bagatto", "EX": "🃏 Fool"}
CARD_NAMES = {
    "T20": "the Angel (trump XX, the highest)",
    "T1": "the Bagatto (trump I)",
    "EX": "the Fool (the excuse)",
}
BONUS_WORDS = {
    "abundance": "Abundance",
    "kings": "Kings",
    "mitigati": "Mitigati",
    "mixed_honours": "Mixed Honours",
}
_GROUPS = ("T", "S", "H", "C", "D")  # trumps, then alternating colours
_ROLE_ORDER = ("eldest", "middle", "dealer")


def option_lines(options: dict[str, Any]) -> list[str]:
    """Lobby and footer: the table's options in words."""
    return [
        f"Hands: **{options.get('deals', 6)}** (then the highest total wins)",
        f"Bargaining amounts: 1–**{options.get('max_bargain', 43)}** game points",
    ]


def _cards(cards: list[str] | tuple[str, ...]) -> str:
    """Card labels in the hand's order (the engine lists discards and shown cards as text)."""
    return labels(sort_cards(cards, sort_key), CARD_LABELS)


def _bonuses(names: list[str] | tuple[str, ...]) -> str:
    return " + ".join(BONUS_WORDS[n] for n in names) or "nothing"


def _turn_words(pv: PublicView) -> str:
    return {
        "bargain": "bargain (pass, demand, offer or continue)",
        "discard": "discard 3 cards",
        "declare": "declare",
        "play": "play a card",
    }.get(pv.phase, "act")


def turn_content(outcome: Outcome) -> str | None:
    """Message content above the table embed: whose turn, mentioning a human."""
    pv = outcome.public
    if pv is None or pv.to_act is None or outcome.finished:
        return None
    who = mention(outcome.table, pv.to_act)
    return None if who is None else f"{who}, it's your turn — {_turn_words(pv)}."


def _position(p: dict[str, Any]) -> str:
    if p["position"] == "demand":
        return f"demands **{p['amount']}**"
    if p["position"] == "offer":
        return f"offers **{p['amount']}**"
    return "no position"


def _last(p: dict[str, Any]) -> str:
    last = p.get("last")
    if not last:
        return ""
    amount = f" {last['amount']}" if last.get("amount") else ""
    return f" (last: {last['call']}{amount})"


def _console(table: TableInfo, pv: PublicView) -> tuple[str, str]:
    """The bargaining console: session, everyone's standing position, the totals."""
    info = pv.info
    b = info["bargain"]
    roles = info["roles"]
    rows: list[str] = []
    for role in _ROLE_ORDER:
        seat = roles[role]
        mark = "▶️ " if pv.to_act == seat else ""
        p = b["positions"][seat]
        rows.append(f"{mark}**{seat_label(table, seat)}** ({role}) — {_position(p)}{_last(p)}")
    rows.append(
        f"Demanded **{b['demanded']}** · offered **{b['offered']}** · "
        f"{plural(b['passes'], 'pass', 'passes')} in a row"
    )
    rows.append(
        "*Demands equal to offers settle the hand; Continue, or three passes in a row, go on "
        "with the hand.*"
    )
    held = pv.hand_sizes[roles["eldest"]]
    return f"Bargaining — session {b['session']} of 3 ({held} cards each)", "\n".join(rows)


def _declaration_lines(table: TableInfo, info: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for d in info["declarations"]:
        who = seat_label(table, d["seat"])
        if not d["bonuses"]:
            out.append(f"**{who}** declares nothing")
            continue
        parts = " + ".join(f"{BONUS_WORDS[p['name']]} {p['value']}" for p in d["parts"])
        out.append(
            f"**{who}** declares {parts} = **{d['value']}** (each opponent pays it) — shows "
            f"{_cards(d['cards'])}"
        )
    return out


def _fool_line(table: TableInfo, info: dict[str, Any]) -> str | None:
    fool = info["fool"]
    if fool["debtor"] is not None and fool["creditor"] is not None:
        return (
            f"🃏 **{seat_label(table, fool['debtor'])}** owes "
            f"**{seat_label(table, fool['creditor'])}** an empty card for the Fool"
        )
    if info["exchanges"]:
        e = info["exchanges"][-1]
        card = label(e["card"], CARD_LABELS) if e["card"] else "a discarded card"
        return (
            f"🃏 The Fool went back to **{seat_label(table, e['giver'])}**, who gave "
            f"**{seat_label(table, e['receiver'])}** {card} (trick {e['trick']})"
        )
    return None


def table_embed(outcome: Outcome) -> discord.Embed:
    """The public table: roles, the bargaining console or the play, declarations, totals."""
    table, pv = outcome.table, outcome.public
    assert pv is not None
    info = pv.info
    deals = table.options.get("deals", 6)
    embed = discord.Embed(
        title=f"{TITLE} · table #{table.id} — hand {outcome.deal_number} of {deals}",
        colour=COLOUR_PLAY,
    )
    roles = info["roles"]
    lines = [
        " · ".join(f"{r.title()} **{seat_label(table, roles[r])}**" for r in _ROLE_ORDER),
    ]
    if pv.phase == "discard":
        lines.append(f"All cards are dealt; **{seat_label(table, pv.dealer)}** discards 3 cards.")
    lines += _declaration_lines(table, info)
    fool = _fool_line(table, info)
    if fool:
        lines.append(fool)
    embed.description = "\n".join(lines)
    if pv.phase == "bargain" and info["bargain"]["session"] is not None:
        name, value = _console(table, pv)
        embed.add_field(name=name, value=value, inline=False)
    if pv.phase == "play":
        taken = " · ".join(
            f"{seat_label(table, s)} {plural(pv.tricks_won[s], 'trick')} "
            f"({plural(info['taken'][s], 'card')})"
            for s in range(pv.players)
        )
        embed.add_field(name="Tricks taken", value=taken, inline=False)
        embed.add_field(
            name=f"Trick {pv.tricks_played + 1} of 25",
            value=trick_text(table, pv, CARD_LABELS),
            inline=False,
        )
    if pv.last_trick and pv.last_winner is not None:
        embed.add_field(
            name=f"Last trick — won by {seat_label(table, pv.last_winner)}",
            value=last_trick_text(table, pv.last_trick, pv.last_winner, CARD_LABELS),
            inline=False,
        )
    embed.add_field(name="Totals", value=standings(table, outcome.totals), inline=False)
    doing = _turn_words(pv) if pv.to_act is not None else ""
    return finish_table_embed(embed, table, pv.to_act, doing, option_lines(table.options))


def _hand_lines(hand: tuple[str, ...]) -> list[str]:
    lines: list[str] = []
    for key in _GROUPS:
        cards = [c for c in hand if c[0] == key and c != "EX"]
        if cards:
            head = f"Trumps ({len(cards)})" if key == "T" else suit_mark(key)
            lines.append(f"{head} {labels(cards, CARD_LABELS)}")
    if "EX" in hand:
        lines.append("🃏 the Fool — play it any time; it never wins and comes back to you")
    return lines


def _prompt(view: SeatView) -> str:
    """What to do at the seat's decision."""
    pv = view.public
    if pv.phase == "bargain":
        r = pv.info["bargain"]["ranges"]
        demand = f"demand {r['demand'][0]}–{r['demand'][1]}" if r["demand"] else "no demand"
        offer = f"offer {r['offer'][0]}–{r['offer'][1]}" if r["offer"] else "no offer"
        return (
            "**Your turn to bargain.** Pass (your position stands), **Continue** (play the "
            f"hand out), {demand} or {offer} game points to abandon the hand."
        )
    if pv.phase == "discard":
        return "**Discard 3 cards** (no Kings, Angel, Bagatto or Fool); they count for you."
    if pv.phase == "declare":
        best = view.info.get("best", [])
        return f"**Declare.** The best you can declare is pre-selected: {_bonuses(best)}."
    return "**Your turn — play a card.** Follow suit, else trump; the Fool is always allowed."


def hand_embed(table: TableInfo, view: SeatView, where: str, outcome: Outcome) -> discord.Embed:
    """A player's private hand (up to 28 cards, one line per suit).

    At the seat's decision (and once the game is over) it shows the bargaining figures or the
    trick and the prompt. Otherwise it is *quiet*: the hand, the seat's role and discard and
    the match total, so it does not change while others bargain or play (the bot edits a DM
    only when it changes).
    """
    embed = discord.Embed(title=f"Your hand — {TITLE} table #{table.id}", colour=COLOUR_PLAY)
    embed.set_author(name=where, url=table_link(table))
    embed.description = "\n".join(_hand_lines(view.hand)) or "*No cards left.*"
    facts = [f"Hand {outcome.deal_number} · your total **{outcome.totals[view.seat]}**"]
    pv = view.public
    if not outcome.finished and (pv.to_act != view.seat or not view.legal):
        roles = pv.info["roles"]
        role = next((r for r in _ROLE_ORDER if roles[r] == view.seat), None)
        if role is not None:
            facts.append(f"You are **{role}**")
        if view.info.get("discard"):
            facts.append(f"Your discard: {_cards(view.info['discard'])}")
        embed.add_field(name="Table", value="\n".join(facts), inline=False)
        now = "Waiting for the next hand." if pv.to_act is None else WAITING_NOTE
        embed.add_field(name="Now", value=now, inline=False)
        return embed
    if view.info.get("discard"):
        facts.append(f"Your discard: {_cards(view.info['discard'])}")
    if pv.phase == "bargain" and pv.info["bargain"]["session"] is not None:
        b = pv.info["bargain"]
        facts.append(
            f"Session {b['session']} of 3 · demanded {b['demanded']} · offered {b['offered']}"
        )
    embed.add_field(name="Table", value="\n".join(facts), inline=False)
    if pv.phase == "play":
        embed.add_field(
            name=f"Trick {pv.tricks_played + 1} of 25",
            value=trick_text(table, pv, CARD_LABELS),
            inline=False,
        )
    now = "The game is over." if outcome.finished else _prompt(view)
    why = None if outcome.finished else restriction_line(view)
    now += f"\n{why}" if why else ""
    embed.add_field(name="Now", value=now, inline=False)
    return embed


def _amount_selects(
    ui: discord.ui.View, table_id: int, kind: str, amounts: list[int], row: int
) -> int:
    for i in range(0, len(amounts), MAX_OPTIONS):
        chunk = amounts[i : i + MAX_OPTIONS]
        ui.add_item(
            TableSelect(
                table_id,
                kind,
                "amount",
                options=[
                    discord.SelectOption(label=f"{kind.title()} {x}", value=str(x)) for x in chunk
                ],
                placeholder=f"{kind.title()} {chunk[0]}–{chunk[-1]} game points…",
                row=row,
                suffix=f":{i // MAX_OPTIONS}" if i else "",
            )
        )
        row += 1
    return row


def decision_view(
    table_id: int, view: SeatView, selected: tuple[str, ...] = ()
) -> discord.ui.View | None:
    """Bargaining buttons and amount menus, the discard picker, declaration choices, or
    card menus by suit — always exactly the seat's legal actions."""
    legal = view.legal
    if not legal:
        return None
    ui = discord.ui.View(timeout=None)
    kinds = {a.type for a in legal}
    if "discard" in kinds:
        add_choice(
            ui, table_id, [a for a in legal if a.type == "discard"], selected, verb="Discard"
        )
        return ui
    if "declare" in kinds:
        best = list(view.info.get("best", []))
        values = {bonus_value(d["bonuses"]): d["value"] for d in view.info.get("declarable", [])}
        ui.add_item(
            TableButton(
                table_id,
                f"act:declare:bonuses={bonus_value(best)}",
                label=f"Declare {_bonuses(best)} ({values.get(bonus_value(best), 0)})"
                if best
                else "Nothing to declare",
                style=discord.ButtonStyle.success,
                row=0,
            )
        )
        options: list[discord.SelectOption] = []
        for a in legal:
            names = a.bonuses or ()
            options.append(
                discord.SelectOption(
                    label=f"{_bonuses(names)} — {values.get(bonus_value(names), 0)}",
                    value=bonus_value(names),
                    default=list(names) == best,
                )
            )
        ui.add_item(
            TableSelect(
                table_id, "declare", "bonuses", options=options, placeholder="Or declare…", row=1
            )
        )
        return ui
    if "pass" in kinds:
        ui.add_item(TableButton(table_id, "act:pass", label="Pass", row=0))
        ui.add_item(
            TableButton(
                table_id, "act:continue", label="Continue", style=discord.ButtonStyle.success, row=0
            )
        )
        row = 1
        for kind in ("demand", "offer"):
            amounts = [a.amount for a in legal if a.type == kind and a.amount is not None]
            row = _amount_selects(ui, table_id, kind, amounts, row)
        return ui
    # The menus list the cards in the hand line's order (the engine's legal order is the
    # order the cards were dealt).
    plays = in_hand_order([a.card for a in legal if a.type == "play" and a.card], view.hand)
    add_play_selects(ui, table_id, plays, 5, CARD_LABELS, CARD_NAMES)
    return ui


def confirmation(payload: dict[str, Any]) -> str | None:
    """The private reply to a typed or clicked decision."""
    kind = payload.get("type")
    if kind == "pass":
        return "You passed; your position stands."
    if kind == "continue":
        return "You called **Continue**: the bargaining session ends and the hand goes on."
    if kind in ("demand", "offer"):
        amount = payload.get("amount")
        if isinstance(amount, int):
            return f"You {kind} {plural(amount, 'game point', bold=True)}."
        return f"You {kind} **{amount}** game points."
    if kind == "discard":
        return f"You discarded {_cards(list(payload.get('cards', [])))}."
    if kind == "declare":
        return f"You declared {_bonuses(list(payload.get('bonuses', [])))}."
    return None


def deal_summary_embed(
    table: TableInfo, ended: EndedDeal, totals: tuple[int, ...]
) -> discord.Embed:
    """End-of-hand sheet: the settlement, or declarations and card points (±43)."""
    d = ended.result.detail
    deltas = ended.result.deltas
    embed = discord.Embed(
        title=f"{TITLE} · table #{table.id} — hand {ended.number} score sheet",
        colour=COLOUR_DONE,
    )
    rows: list[str] = []
    if d["ended"] == "settlement":
        st = d["settlement"]
        payers = ", ".join(f"{seat_label(table, s)} pays {x}" for s, x in st["paid"])
        takers = ", ".join(f"{seat_label(table, s)} receives {x}" for s, x in st["received"])
        embed.description = (
            f"🤝 Settled in bargaining session {st['session']}: {payers}; {takers}. "
            "The hand was thrown in."
        )
        for seat, delta in enumerate(deltas):
            rows.append(f"**{seat_label(table, seat)}** → **{delta:+d}**")
    else:
        decl = d["declaration_deltas"]
        lines = _declaration_lines(table, {"declarations": d["declarations"]})
        embed.description = "\n".join(lines) or "No declarations."
        for seat, delta in enumerate(deltas):
            rows.append(
                f"**{seat_label(table, seat)}** — declarations {decl[seat]:+d} · cards "
                f"{d['card_points'][seat]} ({d['card_deltas'][seat]:+d} against 43) · "
                f"{plural(d['tricks'][seat], 'trick')} → **{delta:+d}**"
            )
    embed.add_field(name="Hand", value="\n".join(rows), inline=False)
    add_last_trick(embed, table, ended.public, CARD_LABELS)
    embed.add_field(name="Totals", value=standings(table, totals), inline=False)
    return embed


def rules_embed() -> discord.Embed:
    """``/tarocchi rules``: the short version."""
    return rules_card(
        TITLE,
        (
            "Mitigati, a Piedmontese tarot game for exactly 3. The deal stops three times for "
            "**bargaining**: Pass, **Demand** or **Offer** game points to abandon the hand, or "
            "**Continue** to play it — when demands equal offers the hand is settled and thrown "
            "in. Otherwise the dealer discards 3, everyone may declare Abundance, Kings, "
            "Mitigati or Mixed Honours (paid by each opponent), and 25 tricks are played: "
            "follow suit, else trump; trump XX (the Angel) beats XXI; in ♥ and ♦ the 1 is the "
            "best pip. Cards are worth 129 in all; each player scores points − 43. After the "
            "last hand the highest total wins.\n\nUse `/tarocchi rules full:True` for the "
            "complete rules."
        ),
    )


def rules_full_embeds() -> list[discord.Embed]:
    """``/tarocchi rules full:True``: every rule the engine applies, in plain words."""
    return rules_pages(
        TITLE,
        (
            "Everything moves to the right (counter-clockwise). Eldest is the dealer's right, "
            "Middle the next; the deal passes right after every hand, thrown in or played."
        ),
        [
            (
                "Deal and bargaining",
                (
                    "Cards come in packets of five, Eldest first; the dealer gets 8 in the last "
                    "round (25/25/28). After 10, 15 and 20 cards each there is a bargaining "
                    "session, Eldest speaking first. **Pass** keeps your position; **Demand** x "
                    "(later only less) asks to be paid x to give the hand up; **Offer** x "
                    "(later only more) pays x to give it up — an offerer may not demand; "
                    "**Continue** ends the session at once. When the total demanded equals the "
                    "total offered, everyone is paid and the hand is thrown in. Three passes in "
                    "a row also end a session."
                ),
            ),
            (
                "Discard and declarations",
                (
                    "The dealer discards 3 cards (no Kings, Angel XX, Bagatto I or Fool); they "
                    "count for the dealer. Then Eldest, Middle and Dealer may declare, showing "
                    "the cards: **Abundance** (10+ trumps, worth their number), **Kings** (all "
                    "four, 20 + 5 per honour added), **Mitigati** (XX, I and the Fool, 15 + 5 "
                    "per King added), **Mixed Honours** (4+ Kings and honours, 10 + 5 per card "
                    "over 4). Each opponent pays the declarer the value. A card may serve "
                    "Abundance and one other bonus only."
                ),
            ),
            (
                "Play and scoring",
                (
                    "Eldest leads; follow suit, else play a trump, else anything. XX beats XXI; "
                    "in ♥ and ♦ the pips run 1 (best) to 10. The Fool may always be played "
                    "instead; it never wins and comes back to you for an empty card (a debt if "
                    "you have none yet). Cards score singly: XX, I and Kings 5, Fool and Queens "
                    "4, Cavaliers 3, Valets 2, others 1 — 129 in all; you score your points − "
                    "43. After the agreed number of hands the highest total wins (ties share)."
                ),
            ),
        ],
    )
