"""French Tarot's Discord rendering: table, hand, decisions, score sheet and rules card.

Presentation only: everything shown comes from the engine's ``PublicView``/``SeatView``
(rules live in ``bot/engine/games/french_tarot.py``). The hidden partner of a 5-player deal
is never derived here: the public view names it only once the called card is played.

Every word goes through the ``french_tarot`` catalogs (``bot.i18n``): the FFT's own terms in
French (Prise, Garde, Garde sans/contre le chien, chien, écart, preneur, poignée, chelem,
Petit au bout), the terms Italian players of the French game use in Italian.
"""

from __future__ import annotations

from typing import Any

import discord
from babel.numbers import format_decimal

from bot.engine.actions import Action
from bot.engine.games.french_tarot_cards import sort_key
from bot.engine.views import PublicView, SeatView
from bot.i18n import N_, Words, _, current, n_, p_
from bot.services.guidance import french_tarot_hand
from bot.services.models import EndedDeal, Outcome, TableInfo
from bot.ui.components.choice import add_choice, add_play_selects
from bot.ui.components.faces import card_face
from bot.ui.components.table import TableButton
from bot.ui.text.cards import in_hand_order, labels, long_name, sort_cards, suit_mark
from bot.ui.text.render import (
    COLOUR_DONE,
    COLOUR_PLAY,
    WAITING_NOTE,
    add_last_trick,
    finish_table_embed,
    last_trick_text,
    mention,
    plain_label,
    seat_label,
    standings,
    table_link,
    trick_text,
)
from bot.ui.text.restriction import restriction_line

GROUP = "tarot"
TITLE = N_("French Tarot")
#: The contracts by their codes, as French players say them (the FFT's names).
CONTRACT = Words(
    {
        "pass": lambda: p_("french_tarot contract", "Pass"),
        "prise": lambda: p_("french_tarot contract", "Prise"),
        "garde": lambda: p_("french_tarot contract", "Garde"),
        "garde_sans": lambda: p_("french_tarot contract", "Garde sans le chien"),
        "garde_contre": lambda: p_("french_tarot contract", "Garde contre le chien"),
    }
)
MULTIPLIER = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
POIGNEE = ("simple", "double", "triple")
#: The poignée levels by their codes (the engine's ``POIGNEE_NAMES``).
POIGNEE_NAME = Words(
    {
        "simple": N_("Simple poignée"),
        "double": N_("Double poignée"),
        "triple": N_("Triple poignée"),
    }
)
BUTTON_LABELS = Words(
    {
        "bid": lambda: p_("french_tarot action", "Bid"),
        "call": lambda: p_("french_tarot action", "Call"),
        "chelem": lambda: p_("french_tarot action", "Chelem"),
    }
)
_SUITS = ("S", "H", "C", "D")


def _cards(cards: list[str] | tuple[str, ...]) -> str:
    """Card labels in the hand's order (trumps by number, high first), whatever order the
    engine listed them in (it sorts dogs, discards and poignées as text)."""
    return labels(sort_cards(cards, sort_key))


def _pts(hp: int) -> str:
    """Half points as points in the current language: ``97`` → ``48.5`` (``48,5`` in
    French and Italian)."""
    return format_decimal(hp / 2, locale=current())


def _tricks(n: int) -> str:
    return n_("{n} trick", "{n} tricks", n)


def option_lines(options: dict[str, Any]) -> list[str]:
    deals = options.get("deals")
    chelem = (
        _("Chelem announcements: **on**")
        if options.get("chelem", True)
        else _("Chelem announcements: **off**")
    )
    return [
        _("Deals: **{deals}**", deals=deals) if deals else _("Deals: **2 per player**"),
        chelem,
    ]


def _turn_words(pv: PublicView) -> str:
    """What the seat to act is doing, completing "Waiting for **X** to …"."""
    phase = pv.phase
    if phase == "bidding":
        return p_("french_tarot waiting for someone to", "bid or pass")
    if phase == "call":
        return p_("french_tarot waiting for someone to", "call a King")
    if phase == "discard":
        n = pv.info["dog_size"]
        return n_("discard {n} card", "discard {n} cards", n)
    if phase == "chelem":
        return p_("french_tarot waiting for someone to", "announce a chelem or not")
    return p_("french_tarot waiting for someone to", "play a card")


def _your_turn(pv: PublicView, who: str) -> str:
    """The message content mentioning the seat to act."""
    phase = pv.phase
    if phase == "bidding":
        return _("{who}, it's your turn — bid or pass.", who=who)
    if phase == "call":
        return _("{who}, it's your turn — call a King.", who=who)
    if phase == "discard":
        n = pv.info["dog_size"]
        return n_(
            "{who}, it's your turn — discard {n} card.",
            "{who}, it's your turn — discard {n} cards.",
            n,
            who=who,
        )
    if phase == "chelem":
        return _("{who}, it's your turn — announce a chelem or not.", who=who)
    return _("{who}, it's your turn — play a card.", who=who)


def _called_line(table: TableInfo, info: dict[str, Any], taker: str, alone: bool = False) -> str:
    called = f"**{long_name(info['called'])}**"
    if alone and info["alone"] is not True:
        # The taker's own hand: they called their own card (french_tarot C-9), which the
        # table learns only when it is played (D-13).
        return _("Called {card} — your own card: you play **alone**", card=called)
    if info["alone"] is True:
        return _("Called {card} — {taker} plays **alone**", card=called, taker=taker)
    if info["partner"] is not None:
        return _(
            "Called {card} — partner 🤝 **{name}**",
            card=called,
            name=seat_label(table, info["partner"]),
        )
    return _("Called {card} — the partner stays secret until it is played", card=called)


def _contract_lines(table: TableInfo, pv: PublicView, alone: bool = False) -> list[str]:
    info = pv.info
    lines: list[str] = []
    if info["taker"] is None:
        said = [
            _("{name}: {contract}", name=seat_label(table, s), contract=CONTRACT[b])
            for s, b in info["bids"]
        ]
        if said:
            lines.append(_("Bidding · {bids}", bids=" · ".join(said)))
        else:
            lines.append(_("Bidding · nobody has spoken yet"))
        return lines
    taker = seat_label(table, info["taker"])
    lines.append(
        _("🎯 **{taker}** plays **{contract}**", taker=taker, contract=CONTRACT[info["contract"]])
    )
    if info["called"]:
        lines.append(_called_line(table, info, taker, alone))
    if info["dog"] is not None:
        lines.append(_("Dog: {cards}", cards=_cards(info["dog"])))
    elif info["contract"] == "garde_sans":
        lines.append(_("Dog: face down, to the taker's pile"))
    elif info["contract"] == "garde_contre":
        lines.append(_("Dog: face down, to the defence's pile"))
    if info["discarded_trumps"]:
        lines.append(_("Trumps in the discard: {cards}", cards=_cards(info["discarded_trumps"])))
    if info["chelem"]:
        lines.append(_("📣 **Chelem announced**"))
    return lines


def turn_content(outcome: Outcome) -> str | None:
    pv = outcome.public
    if pv is None or pv.to_act is None or outcome.finished:
        return None
    who = mention(outcome.table, pv.to_act)
    return None if who is None else _your_turn(pv, who)


def _player_row(outcome: Outcome, pv: PublicView, seat: int) -> str:
    """A seat's line on the table: its role, tricks and match total (labelled as such:
    "pts" read like this deal's card points)."""
    table, info = outcome.table, pv.info
    facts = {
        "name": seat_label(table, seat),
        "tricks": _tricks(pv.tricks_won[seat]),
        "total": outcome.totals[seat],
    }
    if seat == info["taker"]:
        return _("**{name}** 🎯 taker · {tricks} · total **{total}**", **facts)
    if seat == info["partner"]:
        return _("**{name}** 🤝 partner · {tricks} · total **{total}**", **facts)
    return _("**{name}** · {tricks} · total **{total}**", **facts)


def table_embed(outcome: Outcome) -> discord.Embed:
    """The public table message of a running deal."""
    table, pv = outcome.table, outcome.public
    assert pv is not None
    info = pv.info
    tricks_total = pv.tricks_played + max(pv.hand_sizes)  # cards left = tricks left
    embed = discord.Embed(
        title=_(
            "{game} · table #{table} — deal {n}",
            game=_(TITLE),
            table=table.id,
            n=outcome.deal_number,
        ),
        colour=COLOUR_PLAY,
    )
    embed.description = "\n".join(
        [_("Dealer **{name}**", name=seat_label(table, pv.dealer)), *_contract_lines(table, pv)]
    )
    rows = [
        ("▶️ " if pv.to_act == seat else "") + _player_row(outcome, pv, seat)
        for seat in range(pv.players)
    ]
    embed.add_field(name=_("Players"), value="\n".join(rows), inline=False)
    for shown in info["poignees"]:
        embed.add_field(
            name=_(
                "✋ {poignee} — {name}",
                poignee=POIGNEE_NAME[POIGNEE[shown["level"]]],
                name=seat_label(table, shown["seat"]),
            ),
            value=_cards(shown["cards"]),
            inline=False,
        )
    if pv.phase == "play":
        embed.add_field(
            name=_("Trick {n} of {total}", n=pv.tricks_played + 1, total=tricks_total),
            value=trick_text(table, pv),
            inline=False,
        )
    if pv.last_trick and pv.last_winner is not None:
        embed.add_field(
            name=_("Last trick — won by {name}", name=seat_label(table, pv.last_winner)),
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
        lines.append(
            p_("french_tarot hand", "Trumps ({n}) {cards}", n=len(trumps), cards=labels(shown))
        )
    return lines


def _prompt(view: SeatView) -> str:
    pv = view.public
    kinds = {a.type for a in view.legal}
    if "bid" in kinds:
        return (
            _("**Your bid.** Each player speaks once; bid higher than the last contract or pass.")
            + "\n"
            + bid_guidance(view)
        )
    if "call" in kinds:
        return _("**Call a card.** Its holder is your secret partner (calling your own: alone).")
    if "discard" in kinds:
        return n_(
            "**Discard {n} card**: pick it below, then confirm. No Kings, no bouts; "
            "trumps only when you have nothing else (they are shown to everyone).",
            "**Discard {n} cards**: pick them below, then confirm. No Kings, no bouts; "
            "trumps only when you have nothing else (they are shown to everyone).",
            pv.info["dog_size"],
        )
    if "chelem" in kinds:
        return _("**Chelem?** Announce that your side will take every trick (you lead first).")
    if "poignee" in kinds:
        return _(
            "**Your turn — play a card.** Before your first card you may show a poignée: "
            "pick the trumps in the last select and confirm."
        )
    return _("**Your turn — play a card.**")


def bid_guidance(view: SeatView) -> str:
    """What the hand holds, as a French player counts it, and what it usually bids (from the
    seat's own cards: ``bot.services.guidance``)."""
    g = french_tarot_hand(view)
    facts = {
        "bouts": n_("{n} bout", "{n} bouts", g.bouts),
        "trumps": n_("{n} trump", "{n} trumps", g.trumps),
        "kings": n_("{n} King", "{n} Kings", g.kings),
        "points": _pts(g.points_hp),
        "target": _pts(g.target_hp),
    }
    line = n_(
        "🧭 {bouts}, {trumps}, {kings}, {points} card points in hand — with {n} bout the "
        "taker needs {target}.",
        "🧭 {bouts}, {trumps}, {kings}, {points} card points in hand — with {n} bouts the "
        "taker needs {target}.",
        g.bouts,
        **facts,
    )
    if g.typical == "pass":
        return line + " " + _("Most players would pass.")
    return line + " " + _("A typical **{contract}**.", contract=CONTRACT[g.typical])


def _settled_lines(table: TableInfo, pv: PublicView) -> list[str]:
    """A quiet hand DM's deal facts: what the deal's start fixed (the dealer). The contract,
    the called card and the dog are on the table message, and at the seat's own turn."""
    return [_("Dealer **{name}**", name=plain_label(table, pv.dealer))]


def hand_embed(table: TableInfo, view: SeatView, where: str, outcome: Outcome) -> discord.Embed:
    """A player's private hand (DM or ephemeral).

    At the seat's decision (and once the game is over) it shows the whole situation: bids or
    contract, the trick and the prompt. Otherwise it is *quiet*: the hand, the seat's discard
    and the settled facts of the deal, so it does not change while others bid or play (the
    bot edits a DM only when it changes).
    """
    pv = view.public
    embed = discord.Embed(
        title=_("Your hand — {game} table #{table}", game=_(TITLE), table=table.id),
        colour=COLOUR_PLAY,
    )
    embed.set_author(name=where, url=table_link(table))
    embed.description = "\n".join(_hand_lines(view.hand)) or _("*No cards left.*")
    deciding = outcome.finished or (pv.to_act == view.seat and bool(view.legal))
    alone = view.info.get("alone") is True  # the seat's own knowledge: it called its own card
    lines = _contract_lines(table, pv, alone) if deciding else _settled_lines(table, pv)
    embed.add_field(
        name=p_("french_tarot", "Deal {n}", n=outcome.deal_number),
        value="\n".join(lines),
        inline=False,
    )
    if view.info.get("discard"):
        embed.add_field(name=_("Your discard"), value=_cards(view.info["discard"]), inline=False)
    if not deciding:
        now = _("Waiting for the next deal.") if pv.to_act is None else _(WAITING_NOTE)
        embed.add_field(name=_("Now"), value=now, inline=False)
        return embed
    if pv.phase == "play":
        embed.add_field(
            name=p_("french_tarot", "Trick {n}", n=pv.tricks_played + 1),
            value=trick_text(table, pv),
            inline=False,
        )
    turn = _("The game is over.") if outcome.finished else _prompt(view)
    why = None if outcome.finished else restriction_line(view)
    turn += f"\n{why}" if why else ""
    embed.add_field(name=_("Now"), value=turn, inline=False)
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
            ui,
            table_id,
            [a for a in legal if a.type == "discard"],
            selected,
            verb=p_("french_tarot choice", "Discard"),
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
            add_choice(
                ui,
                table_id,
                shows,
                selected,
                verb=p_("french_tarot choice", "Poignée"),
                first_row=used,
            )
    return ui


def _button(table_id: int, action: Action, row: int) -> TableButton:
    if action.type == "bid":
        contract = action.contract or "pass"
        # The multiplier on the button, as the slash command's choices show it (§3.3).
        text = CONTRACT[contract]
        if contract in MULTIPLIER:
            text = f"{text} ×{MULTIPLIER[contract]}"
        style = (
            discord.ButtonStyle.secondary
            if action.contract == "pass"
            else discord.ButtonStyle.primary
        )
        return TableButton(
            table_id, f"act:bid:contract={action.contract}", label=text, style=style, row=row
        )
    if action.type == "call":
        card = action.card or ""
        return TableButton(
            table_id,
            f"act:call:card={card}",
            label=_("Call {card}", card=long_name(card)),
            style=discord.ButtonStyle.primary,
            row=row,
            emoji=card_face(card)[1],
        )
    announce = bool(action.announce)
    return TableButton(
        table_id,
        f"act:chelem:announce={'yes' if announce else 'no'}",
        label=_("Announce a chelem") if announce else _("No chelem"),
        style=discord.ButtonStyle.danger if announce else discord.ButtonStyle.secondary,
        row=row,
    )


def confirmation(payload: dict[str, Any]) -> str | None:
    kind = payload.get("type")
    if kind == "bid":
        return _(
            "You said **{contract}**.", contract=CONTRACT.get(str(payload.get("contract")), "?")
        )
    if kind == "call":
        return _("You called the **{card}**.", card=long_name(str(payload.get("card"))))
    if kind == "discard":
        return _("You discarded {cards}.", cards=_cards(list(payload.get("cards", []))))
    if kind == "chelem":
        return (
            _("You announced a chelem!") if payload.get("announce") else _("No chelem announced.")
        )
    if kind == "poignee":
        return _("You showed a poignée: {cards}.", cards=_cards(list(payload.get("cards", []))))
    return None


def deal_summary_embed(
    table: TableInfo, ended: EndedDeal, totals: tuple[int, ...]
) -> discord.Embed:
    """The score sheet of a finished deal."""
    res = ended.result
    embed = discord.Embed(
        title=_(
            "{game} · table #{table} — deal {n} result",
            game=_(TITLE),
            table=table.id,
            n=ended.number,
        ),
        colour=COLOUR_DONE,
    )
    if res.outcome == "redeal":
        embed.description = _(
            "🃏 **Petit sec** — a player held the Petit as their only trump. Redeal."
        )
    elif res.outcome == "thrown_in":
        embed.description = _("Everyone passed: the cards are thrown in. No scores.")
    else:
        d = res.detail
        embed.description = "\n".join(_sheet(table, d))
        rows = [
            f"**{seat_label(table, s)}**{_role(d, s)} → **{delta:+d}**"
            for s, delta in enumerate(res.deltas)
        ]
        embed.add_field(name=_("Scores"), value="\n".join(rows), inline=False)
    add_last_trick(embed, table, ended.public)
    embed.add_field(name=_("Totals"), value=standings(table, totals), inline=False)
    return embed


def _role(d: dict[str, Any], seat: int) -> str:
    if seat == d["taker"]:
        return " 🎯"
    if seat == d["partner"]:
        return " 🤝"
    return ""


def _attack_line(d: dict[str, Any]) -> str:
    facts = {
        "bouts": n_("**{n}** bout", "**{n}** bouts", d["bouts"]),
        "points": _pts(d["points_hp"]),
        "target": _pts(d["target_hp"]),
        "difference": d["difference"],
    }
    if d["made"]:
        return _(
            "Attack: {bouts}, **{points}** points (needed {target}) — made ✅ by {difference}",
            **facts,
        )
    return _(
        "Attack: {bouts}, **{points}** points (needed {target}) — failed ❌ by {difference}",
        **facts,
    )


def _chelem_line(d: dict[str, Any]) -> str:
    value = f"{d['chelem']:+d}"
    if d["chelem_announced"]:
        if d["chelem_made"]:
            return _("Chelem announced and made: {value}", value=value)
        return _("Chelem announced and failed: {value}", value=value)
    if d["chelem_made"]:
        return _("Chelem unannounced and made: {value}", value=value)
    return _("Chelem unannounced and failed: {value}", value=value)


def _sheet(table: TableInfo, d: dict[str, Any]) -> list[str]:
    taker = seat_label(table, d["taker"])
    m = d["multiplier"]
    lines = [f"🎯 **{taker}** — **{CONTRACT[d['contract']]}** (×{m})"]
    if d.get("called"):
        card = long_name(d["called"])
        if d["partner"] is None:
            lines.append(_("Called {card}: alone", card=card))
        else:
            name = seat_label(table, d["partner"])
            lines.append(_("Called {card}: with **{name}**", card=card, name=name))
    lines.append(_attack_line(d))
    sign = 1 if d["made"] else -1
    parts = [f"{'+' if sign > 0 else '−'}(25 + {d['difference']}) × {m}"]
    if d["petit_au_bout"]:
        value = f"{d['petit_au_bout']:+d}"
        if d["petit_au_bout"] > 0:
            lines.append(_("Petit au bout by the attack: {value}", value=value))
        else:
            lines.append(_("Petit au bout by the defence: {value}", value=value))
        parts.append(value)
    for p in d["poignees"]:
        facts = {
            "poignee": POIGNEE_NAME[p["level"]],
            "name": seat_label(table, p["seat"]),
            "bonus": p["bonus"],
        }
        if d["made"]:
            lines.append(_("✋ {poignee} by {name}: {bonus} to the attack", **facts))
        else:
            lines.append(_("✋ {poignee} by {name}: {bonus} to the defence", **facts))
    if d["poignees"]:
        parts.append(f"{d['poignee_total']:+d}")
    if d["chelem"]:
        lines.append(_chelem_line(d))
        parts.append(f"{d['chelem']:+d}")
    lines.append(
        _(
            "Deal value: {formula} = **{unit}** per defender",
            formula=" ".join(parts),
            unit=d["unit"],
        )
    )
    if d.get("dog"):
        lines.append(_("Dog: {cards}", cards=_cards(d["dog"])))
    return lines


def rules_embed() -> discord.Embed:
    """``/tarot rules``: the FFT game in a card."""
    embed = discord.Embed(title=_("French Tarot — how to play (FFT rules)"), colour=COLOUR_PLAY)
    embed.description = _(
        "78 cards: four suits (K Q Kn J 10…1), 21 trumps and the Excuse. 3 players: 24 cards "
        "each and a dog of 6; 4: 18 + 6; 5: 15 + 3 with a called partner. Play goes "
        "counter-clockwise."
    )
    embed.add_field(
        name=p_("rules section", "Bidding"),
        value=_(
            "Each player speaks once, from the dealer's right: Prise ×1, Garde ×2 (both take the "
            "dog and discard), Garde sans ×4, Garde contre ×6 (the dog goes unseen to the "
            "attack or the defence). At 5 players the taker calls a King before the dog; its "
            "holder is the secret partner."
        ),
        inline=False,
    )
    embed.add_field(
        name=p_("rules section", "Play"),
        value=_(
            "Follow suit; if you can't, trump, and overtrump when you can. The Excuse may be "
            "played any time and is kept by its owner (who gives a ½-point card in exchange). "
            "Before your first card you may show a poignée (5p: 8/10/13 trumps; 4p: 10/13/15; "
            "3p: 13/15/18) worth 20/30/40 to the side that wins."
        ),
        inline=False,
    )
    embed.add_field(
        name=p_("rules section", "Scoring"),
        value=_(
            "The attack needs 56/51/41/36 points with 0/1/2/3 bouts (21, Petit, Excuse). "
            "Deal value = (25 + difference) × contract, ± Petit au bout (10 × contract), ± "
            "poignées, ± chelem (400 announced / 200 / −200). Taker ×2 (×3 at 4 players, ×4 "
            "alone at 5), partner ×1, each defender ×−1."
        ),
        inline=False,
    )
    return embed
