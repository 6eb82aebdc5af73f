"""French Tarot's Discord rendering: table, hand, decisions, score sheet and rules card.

Presentation only: everything shown comes from the engine's ``PublicView``/``SeatView``
(rules live in ``bot/engine/games/french_tarot.py``). The hidden partner of a 5-player deal
is never derived here: the public view names it only once the called card is played.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.actions import Action
from bot.engine.games.french_tarot_cards import sort_key
from bot.engine.views import PublicView, SeatView
from bot.services.models import EndedDeal, Outcome, TableInfo
from bot.ui.cards import in_hand_order, labels, long_name, sort_cards, suit_mark
from bot.ui.choice import add_choice, add_play_selects, restriction_line
from bot.ui.components import TableButton
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
    seat_label,
    standings,
    table_link,
    trick_text,
)

GROUP = "tarot"
TITLE = "French Tarot"
CONTRACT = {
    "pass": "Pass",
    "prise": "Prise",
    "garde": "Garde",
    "garde_sans": "Garde sans le chien",
    "garde_contre": "Garde contre le chien",
}
MULTIPLIER = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
POIGNEE = ("simple", "double", "triple")
BUTTON_LABELS = {"bid": "Bid", "call": "Call", "chelem": "Chelem"}
_SUITS = ("S", "H", "C", "D")


def _cards(cards: list[str] | tuple[str, ...]) -> str:
    """Card labels in the hand's order (trumps by number, high first), whatever order the
    engine listed them in (it sorts dogs, discards and poignées as text)."""
    return labels(sort_cards(cards, sort_key))


def _pts(hp: int) -> str:
    """Half points as points: ``97`` → ``48.5``."""
    return f"{hp // 2}" + (".5" if hp % 2 else "")


def option_lines(options: dict[str, Any]) -> list[str]:
    deals = options.get("deals")
    return [
        f"Deals: **{deals}**" if deals else "Deals: **2 per player**",
        f"Chelem announcements: **{'on' if options.get('chelem', True) else 'off'}**",
    ]


def _turn_words(pv: PublicView) -> str:
    phase = pv.phase
    if phase == "bidding":
        return "bid or pass"
    if phase == "call":
        return "call a King"
    if phase == "discard":
        return f"discard {plural(pv.info['dog_size'], 'card')}"
    if phase == "chelem":
        return "announce a chelem or not"
    return "play a card"


def _contract_lines(table: TableInfo, pv: PublicView) -> list[str]:
    info = pv.info
    lines: list[str] = []
    if info["taker"] is None:
        said = [f"{seat_label(table, s)}: {CONTRACT[b]}" for s, b in info["bids"]]
        lines.append("Bidding · " + (" · ".join(said) if said else "nobody has spoken yet"))
        return lines
    taker = seat_label(table, info["taker"])
    lines.append(f"🎯 **{taker}** plays **{CONTRACT[info['contract']]}**")
    if info["called"]:
        called = f"**{long_name(info['called'])}**"
        if info["alone"] is True:
            lines.append(f"Called {called} — {taker} plays **alone**")
        elif info["partner"] is not None:
            lines.append(f"Called {called} — partner 🤝 **{seat_label(table, info['partner'])}**")
        else:
            lines.append(f"Called {called} — the partner stays secret until it is played")
    if info["dog"] is not None:
        lines.append(f"Dog: {_cards(info['dog'])}")
    elif info["contract"] == "garde_sans":
        lines.append("Dog: face down, to the taker's pile")
    elif info["contract"] == "garde_contre":
        lines.append("Dog: face down, to the defence's pile")
    if info["discarded_trumps"]:
        lines.append(f"Trumps in the discard: {_cards(info['discarded_trumps'])}")
    if info["chelem"]:
        lines.append("📣 **Chelem announced**")
    return lines


def turn_content(outcome: Outcome) -> str | None:
    pv = outcome.public
    if pv is None or pv.to_act is None or outcome.finished:
        return None
    who = mention(outcome.table, pv.to_act)
    return None if who is None else f"{who}, it's your turn — {_turn_words(pv)}."


def table_embed(outcome: Outcome) -> discord.Embed:
    """The public table message of a running deal."""
    table, pv = outcome.table, outcome.public
    assert pv is not None
    info = pv.info
    tricks_total = pv.tricks_played + max(pv.hand_sizes)  # cards left = tricks left
    embed = discord.Embed(
        title=f"{TITLE} · table #{table.id} — deal {outcome.deal_number}", colour=COLOUR_PLAY
    )
    embed.description = "\n".join(
        [f"Dealer **{seat_label(table, pv.dealer)}**", *_contract_lines(table, pv)]
    )
    rows: list[str] = []
    for seat in range(pv.players):
        mark = "▶️ " if pv.to_act == seat else ""
        role = ""
        if seat == info["taker"]:
            role = " 🎯 taker"
        elif seat == info["partner"]:
            role = " 🤝 partner"
        # The match total, labelled as such: "pts" read like this deal's card points.
        rows.append(
            f"{mark}**{seat_label(table, seat)}**{role} · {plural(pv.tricks_won[seat], 'trick')}"
            f" · total **{outcome.totals[seat]}**"
        )
    embed.add_field(name="Players", value="\n".join(rows), inline=False)
    for shown in info["poignees"]:
        embed.add_field(
            name=f"✋ {POIGNEE[shown['level']].title()} poignée — "
            f"{seat_label(table, shown['seat'])}",
            value=_cards(shown["cards"]),
            inline=False,
        )
    if pv.phase == "play":
        embed.add_field(
            name=f"Trick {pv.tricks_played + 1} of {tricks_total}",
            value=trick_text(table, pv),
            inline=False,
        )
    if pv.last_trick and pv.last_winner is not None:
        embed.add_field(
            name=f"Last trick — won by {seat_label(table, pv.last_winner)}",
            value=last_trick_text(table, pv.last_trick, pv.last_winner),
            inline=False,
        )
    doing = _turn_words(pv) if pv.to_act is not None else ""
    return finish_table_embed(embed, table, pv.to_act, doing, option_lines(table.options))


def _hand_lines(hand: tuple[str, ...]) -> list[str]:
    lines: list[str] = []
    for suit in _SUITS:
        cards = [c for c in hand if c[0] == suit and c != "EX"]
        if cards:
            lines.append(f"{suit_mark(suit)} {labels(cards)}")
    trumps = [c for c in hand if c[0] == "T"]
    if trumps or "EX" in hand:
        shown = [*trumps, *(["EX"] if "EX" in hand else [])]
        lines.append(f"Trumps ({len(trumps)}) {labels(shown)}")
    return lines


def _prompt(view: SeatView) -> str:
    pv = view.public
    kinds = {a.type for a in view.legal}
    if "bid" in kinds:
        return "**Your bid.** Each player speaks once; bid higher than the last contract or pass."
    if "call" in kinds:
        return "**Call a card.** Its holder is your secret partner (calling your own: alone)."
    if "discard" in kinds:
        n = pv.info["dog_size"]
        return (
            f"**Discard {plural(n, 'card')}** with the selects below, then confirm. No Kings, "
            "no bouts; trumps only when you have nothing else (they are shown to everyone)."
        )
    if "chelem" in kinds:
        return "**Chelem?** Announce that your side will take every trick (you lead first)."
    if "poignee" in kinds:
        return (
            "**Your turn — play a card.** Before your first card you may show a poignée: "
            "pick the trumps in the last select and confirm."
        )
    return "**Your turn — play a card.**"


def _settled_lines(table: TableInfo, pv: PublicView) -> list[str]:
    """A quiet hand DM's deal facts: what the deal's start fixed (the dealer). The contract,
    the called card and the dog are on the table message, and at the seat's own turn."""
    return [f"Dealer **{plain_label(table, pv.dealer)}**"]


def hand_embed(table: TableInfo, view: SeatView, where: str, outcome: Outcome) -> discord.Embed:
    """A player's private hand (DM or ephemeral).

    At the seat's decision (and once the game is over) it shows the whole situation: bids or
    contract, the trick and the prompt. Otherwise it is *quiet*: the hand, the seat's discard
    and the settled facts of the deal, so it does not change while others bid or play (the
    bot edits a DM only when it changes).
    """
    pv = view.public
    embed = discord.Embed(title=f"Your hand — {TITLE} table #{table.id}", colour=COLOUR_PLAY)
    embed.set_author(name=where, url=table_link(table))
    embed.description = "\n".join(_hand_lines(view.hand)) or "*No cards left.*"
    deciding = outcome.finished or (pv.to_act == view.seat and bool(view.legal))
    lines = _contract_lines(table, pv) if deciding else _settled_lines(table, pv)
    embed.add_field(name=f"Deal {outcome.deal_number}", value="\n".join(lines), inline=False)
    if view.info.get("discard"):
        embed.add_field(name="Your discard", value=_cards(view.info["discard"]), inline=False)
    if not deciding:
        now = "Waiting for the next deal." if pv.to_act is None else WAITING_NOTE
        embed.add_field(name="Now", value=now, inline=False)
        return embed
    if pv.phase == "play":
        embed.add_field(
            name=f"Trick {pv.tricks_played + 1}", value=trick_text(table, pv), inline=False
        )
    turn = "The game is over." if outcome.finished else _prompt(view)
    why = None if outcome.finished else restriction_line(view)
    turn += f"\n{why}" if why else ""
    embed.add_field(name="Now", value=turn, inline=False)
    return embed


def decision_view(
    table_id: int, view: SeatView, selected: tuple[str, ...] = ()
) -> discord.ui.View | None:
    """Controls for exactly the seat's legal actions (the engine decides what is legal)."""
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
    buttons = [a for a in legal if a.type in ("bid", "call", "chelem")]
    for i, action in enumerate(buttons):
        ui.add_item(_button(table_id, action, row=i // 5))
    plays = in_hand_order([a.card for a in legal if a.type == "play" and a.card], view.hand)
    shows = [a for a in legal if a.type == "poignee"]
    if plays:
        used = add_play_selects(ui, table_id, plays, 5 - (2 if shows else 0))
        if shows:
            add_choice(ui, table_id, shows, selected, verb="Poignée", first_row=used)
    return ui


def _button(table_id: int, action: Action, row: int) -> TableButton:
    if action.type == "bid":
        text = CONTRACT[action.contract or "pass"]
        style = (
            discord.ButtonStyle.secondary
            if action.contract == "pass"
            else discord.ButtonStyle.primary
        )
        return TableButton(
            table_id, f"act:bid:contract={action.contract}", label=text, style=style, row=row
        )
    if action.type == "call":
        return TableButton(
            table_id,
            f"act:call:card={action.card}",
            label=f"Call {long_name(action.card or '')}",
            style=discord.ButtonStyle.primary,
            row=row,
        )
    announce = bool(action.announce)
    return TableButton(
        table_id,
        f"act:chelem:announce={'yes' if announce else 'no'}",
        label="Announce a chelem" if announce else "No chelem",
        style=discord.ButtonStyle.danger if announce else discord.ButtonStyle.secondary,
        row=row,
    )


def confirmation(payload: dict[str, Any]) -> str | None:
    kind = payload.get("type")
    if kind == "bid":
        return f"You said **{CONTRACT.get(str(payload.get('contract')), '?')}**."
    if kind == "call":
        return f"You called the **{long_name(str(payload.get('card')))}**."
    if kind == "discard":
        return f"You discarded {_cards(list(payload.get('cards', [])))}."
    if kind == "chelem":
        return "You announced a chelem!" if payload.get("announce") else "No chelem announced."
    if kind == "poignee":
        return f"You showed a poignée: {_cards(list(payload.get('cards', [])))}."
    return None


def deal_summary_embed(
    table: TableInfo, ended: EndedDeal, totals: tuple[int, ...]
) -> discord.Embed:
    """The score sheet of a finished deal."""
    res = ended.result
    embed = discord.Embed(
        title=f"{TITLE} · table #{table.id} — deal {ended.number} result", colour=COLOUR_DONE
    )
    if res.outcome == "redeal":
        embed.description = (
            "🃏 **Petit sec** — a player held the Petit as their only trump. Redeal."
        )
    elif res.outcome == "thrown_in":
        embed.description = "Everyone passed: the cards are thrown in. No scores."
    else:
        d = res.detail
        embed.description = "\n".join(_sheet(table, d))
        rows = [
            f"**{seat_label(table, s)}**{_role(d, s)} → **{delta:+d}**"
            for s, delta in enumerate(res.deltas)
        ]
        embed.add_field(name="Scores", value="\n".join(rows), inline=False)
    add_last_trick(embed, table, ended.public)
    embed.add_field(name="Totals", value=standings(table, totals), inline=False)
    return embed


def _role(d: dict[str, Any], seat: int) -> str:
    if seat == d["taker"]:
        return " 🎯"
    if seat == d["partner"]:
        return " 🤝"
    return ""


def _sheet(table: TableInfo, d: dict[str, Any]) -> list[str]:
    taker = seat_label(table, d["taker"])
    m = d["multiplier"]
    lines = [f"🎯 **{taker}** — **{CONTRACT[d['contract']]}** (×{m})"]
    if d.get("called"):
        who = "alone" if d["partner"] is None else f"with **{seat_label(table, d['partner'])}**"
        lines.append(f"Called {long_name(d['called'])}: {who}")
    verdict = "made ✅" if d["made"] else "failed ❌"
    lines.append(
        f"Attack: {plural(d['bouts'], 'bout', bold=True)}, "
        f"**{_pts(d['points_hp'])}** points (needed {_pts(d['target_hp'])}) — {verdict} "
        f"by {d['difference']}"
    )
    sign = 1 if d["made"] else -1
    parts = [f"{'+' if sign > 0 else '−'}(25 + {d['difference']}) × {m}"]
    if d["petit_au_bout"]:
        who = "attack" if d["petit_au_bout"] > 0 else "defence"
        lines.append(f"Petit au bout by the {who}: {d['petit_au_bout']:+d}")
        parts.append(f"{d['petit_au_bout']:+d}")
    for p in d["poignees"]:
        lines.append(
            f"✋ {p['level'].title()} poignée by {seat_label(table, p['seat'])}: {p['bonus']} "
            f"to the {'attack' if d['made'] else 'defence'}"
        )
    if d["poignees"]:
        parts.append(f"{d['poignee_total']:+d}")
    if d["chelem"]:
        said = "announced" if d["chelem_announced"] else "unannounced"
        done = "made" if d["chelem_made"] else "failed"
        lines.append(f"Chelem {said} and {done}: {d['chelem']:+d}")
        parts.append(f"{d['chelem']:+d}")
    lines.append(f"Deal value: {' '.join(parts)} = **{d['unit']}** per defender")
    if d.get("dog"):
        lines.append(f"Dog: {_cards(d['dog'])}")
    return lines


def rules_embed() -> discord.Embed:
    """``/tarot rules``: the FFT game in a card."""
    embed = discord.Embed(title="French Tarot — how to play (FFT rules)", colour=COLOUR_PLAY)
    embed.description = (
        "78 cards: four suits (K Q Kn J 10…1), 21 trumps and the Excuse. 3 players: 24 cards "
        "each and a dog of 6; 4: 18 + 6; 5: 15 + 3 with a called partner. Play goes "
        "counter-clockwise."
    )
    embed.add_field(
        name="Bidding",
        value=(
            "Each player speaks once, from the dealer's right: Prise ×1, Garde ×2 (both take the "
            "dog and discard), Garde sans ×4, Garde contre ×6 (the dog goes unseen to the "
            "attack or the defence). At 5 players the taker calls a King before the dog; its "
            "holder is the secret partner."
        ),
        inline=False,
    )
    embed.add_field(
        name="Play",
        value=(
            "Follow suit; if you can't, trump, and overtrump when you can. The Excuse may be "
            "played any time and is kept by its owner (who gives a ½-point card in exchange). "
            "Before your first card you may show a poignée (5p: 8/10/13 trumps; 4p: 10/13/15; "
            "3p: 13/15/18) worth 20/30/40 to the side that wins."
        ),
        inline=False,
    )
    embed.add_field(
        name="Scoring",
        value=(
            "The attack needs 56/51/41/36 points with 0/1/2/3 bouts (21, Petit, Excuse). "
            "Deal value = (25 + difference) × contract, ± Petit au bout (10 × contract), ± "
            "poignées, ± chelem (400 announced / 200 / −200). Taker ×2 (×3 at 4 players, ×4 "
            "alone at 5), partner ×1, each defender ×−1."
        ),
        inline=False,
    )
    return embed
