"""Queen of Tarot's Discord rendering: the bargaining console, discard, declarations, table,
hand, score sheet and rules.

Presentation only: everything shown comes from the engine's ``PublicView``/``SeatView`` and
``DealResult`` (rules stay in ``bot/engine/games/queen_of_tarot*.py``); legal amounts, sets
and cards are read from the seat's legal actions. Every word goes through the
``queen_of_tarot`` catalogs (``bot.i18n``): Piedmontese tarocchi terms in Italian (Matto,
Angelo, Bagatto, primo e secondo di mano, mazziere, trattativa), their French equivalents in
French (Mat, Ange, premier et second en main, donneur, marchandage).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.games.queen_of_tarot_cards import FAIR_SHARE, sort_key
from bot.engine.views import PublicView, SeatView
from bot.i18n import N_, Words, _, n_, p_
from bot.services.guidance import queen_bargain
from bot.services.models import EndedDeal, Outcome, TableInfo
from bot.ui.components.choice import add_choice, add_play_selects
from bot.ui.components.table import MAX_OPTIONS, TableButton, TableSelect, bonus_value
from bot.ui.text.cards import in_hand_order, label, labels, sort_cards, suit_mark
from bot.ui.text.mention import command
from bot.ui.text.render import (
    COLOUR_DONE,
    COLOUR_PLAY,
    WAITING_NOTE,
    add_last_trick,
    finish_table_embed,
    last_trick_text,
    mention,
    rules_card,
    rules_pages,
    seat_label,
    standings,
    table_link,
    trick_text,
)
from bot.ui.text.restriction import restriction_line

GROUP = "tarocchi"
TITLE = N_("Queen of Tarot")
BUTTON_LABELS: dict[str, str] = {}
# The honours keep the game's own names (the Fool is "Mat" in French, "Matto" in Italian,
# where other games say Fou/Excuse), told apart from the same English elsewhere by a context.
CARD_LABELS = Words(
    {
        "T20": lambda: p_("queen_of_tarot card", "T20 Angel"),
        "T1": lambda: p_("queen_of_tarot card", "T1 Bagatto"),
        "EX": lambda: p_("queen_of_tarot card", "🃏 Fool"),
    }
)
CARD_NAMES = Words(
    {
        "T20": lambda: p_("queen_of_tarot card", "the Angel (trump XX, the highest)"),
        "T1": lambda: p_("queen_of_tarot card", "the Bagatto (trump I)"),
        "EX": lambda: p_("queen_of_tarot card", "the Fool (the excuse)"),
    }
)
BONUS_WORDS = Words(
    {
        "abundance": lambda: p_("queen_of_tarot bonus", "Abundance"),
        "kings": lambda: p_("queen_of_tarot bonus", "Kings"),
        "mitigati": lambda: p_("queen_of_tarot bonus", "Mitigati"),
        "mixed_honours": lambda: p_("queen_of_tarot bonus", "Mixed Honours"),
    }
)
#: The pack is Italian-suited: text, buttons and menus show the Italian suits' signs (the
#: bot's swords, cups, coins and batons emojis), as the pictures do (``bot.ui.text.locale``).
ITALIAN_SUITS = True
#: The suits and trumps by their names in this game: the Piedmontese pack's Italian suits
#: (Swords, Cups, Coins, Batons; Spade, Coppe, Denari, Bastoni; Épées, Coupes, Deniers,
#: Bâtons), for every renderer that names a suit while drawing this game (the led suit, the
#: discard picker's groups, a card's long name). The engine's codes stay S H D C
#: (queen_of_tarot rules: "Swords = ♠, Batons = ♣, Cups = ♥, Coins = ♦").
SUIT_WORDS = Words(
    {
        "S": lambda: p_("queen_of_tarot suit", "Swords"),
        "H": lambda: p_("queen_of_tarot suit", "Cups"),
        "D": lambda: p_("queen_of_tarot suit", "Coins"),
        "C": lambda: p_("queen_of_tarot suit", "Batons"),
        "T": lambda: p_("queen_of_tarot suit", "Trumps"),
    }
)
#: The roles, capitalised (the table's first line) and as a word in a sentence.
ROLE_TITLES = Words(
    {
        "eldest": lambda: p_("queen_of_tarot role", "Eldest"),
        "middle": lambda: p_("queen_of_tarot role", "Middle"),
        "dealer": lambda: p_("queen_of_tarot role", "Dealer"),
    }
)
ROLE_WORDS = Words(
    {
        "eldest": lambda: p_("queen_of_tarot role", "eldest"),
        "middle": lambda: p_("queen_of_tarot role", "middle"),
        "dealer": lambda: p_("queen_of_tarot role", "dealer"),
    }
)
#: A bargaining call as the console recalls it ("last: demand 5").
CALL_WORDS = Words(
    {
        "pass": lambda: p_("queen_of_tarot call", "pass"),
        "demand": lambda: p_("queen_of_tarot call", "demand"),
        "offer": lambda: p_("queen_of_tarot call", "offer"),
        "continue": lambda: p_("queen_of_tarot call", "continue"),
    }
)
_GROUPS = ("T", "S", "H", "C", "D")  # trumps, then alternating colours
_ROLE_ORDER = ("eldest", "middle", "dealer")


def option_lines(options: dict[str, Any]) -> list[str]:
    """Lobby and footer: the table's options in words."""
    return [
        _("Hands: **{n}** (then the highest total wins)", n=options.get("deals", 6)),
        _(
            "Bargaining amounts: 1–**{most}** game points",
            most=options.get("max_bargain", 43),
        ),
    ]


def _cards(cards: list[str] | tuple[str, ...]) -> str:
    """Card labels in the hand's order (the engine lists discards and shown cards as text)."""
    return labels(sort_cards(cards, sort_key), CARD_LABELS)


def _bonuses(names: list[str] | tuple[str, ...]) -> str:
    shown = " + ".join(BONUS_WORDS[n] for n in names)
    return shown or p_("queen_of_tarot bonus", "nothing")


def _turn_words(pv: PublicView) -> str:
    """What the seat to act is doing, for "Waiting for X to …" (a verb phrase)."""
    if pv.phase == "bargain":
        return _("bargain (pass, demand, offer or continue)")
    if pv.phase == "discard":
        return _("discard 3 cards")
    if pv.phase == "declare":
        return p_("queen_of_tarot doing", "declare")
    if pv.phase == "play":
        return p_("queen_of_tarot doing", "play a card")
    return p_("queen_of_tarot doing", "act")


def turn_content(outcome: Outcome) -> str | None:
    """Message content above the table embed: whose turn, mentioning a human."""
    pv = outcome.public
    if pv is None or pv.to_act is None or outcome.finished:
        return None
    who = mention(outcome.table, pv.to_act)
    if who is None:
        return None
    if pv.phase == "bargain":
        return _("{who}, it's your turn — bargain (pass, demand, offer or continue).", who=who)
    if pv.phase == "discard":
        return _("{who}, it's your turn — discard 3 cards.", who=who)
    if pv.phase == "declare":
        return _("{who}, it's your turn — declare.", who=who)
    if pv.phase == "play":
        return _("{who}, it's your turn — play a card.", who=who)
    return _("{who}, it's your turn — act.", who=who)


def _position(p: dict[str, Any]) -> str:
    if p["position"] == "demand":
        return _("demands **{amount}**", amount=p["amount"])
    if p["position"] == "offer":
        return _("offers **{amount}**", amount=p["amount"])
    return _("no position")


def _last(p: dict[str, Any]) -> str:
    last = p.get("last")
    if not last:
        return ""
    call = CALL_WORDS[last["call"]] if last["call"] in CALL_WORDS else str(last["call"])
    if last.get("amount"):
        return " " + _("(last: {call} {amount})", call=call, amount=last["amount"])
    return " " + _("(last: {call})", call=call)


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
        rows.append(
            mark
            + _(
                "**{name}** ({role}) — {position}{last}",
                name=seat_label(table, seat),
                role=ROLE_WORDS[role],
                position=_position(p),
                last=_last(p),
            )
        )
    rows.append(
        n_(
            "Demanded **{demanded}** · offered **{offered}** · {n} pass in a row",
            "Demanded **{demanded}** · offered **{offered}** · {n} passes in a row",
            b["passes"],
            demanded=b["demanded"],
            offered=b["offered"],
        )
    )
    rows.append(
        _(
            "*Demands equal to offers settle the hand; Continue, or three passes in a row, go "
            "on with the hand.*"
        )
    )
    held = pv.hand_sizes[roles["eldest"]]
    name = _("Bargaining — session {session} of 3 ({n} cards each)", session=b["session"], n=held)
    return name, "\n".join(rows)


def _declaration_lines(table: TableInfo, info: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for d in info["declarations"]:
        who = seat_label(table, d["seat"])
        if not d["bonuses"]:
            out.append(_("**{name}** declares nothing", name=who))
            continue
        parts = " + ".join(f"{BONUS_WORDS[p['name']]} {p['value']}" for p in d["parts"])
        out.append(
            _(
                "**{name}** declares {bonuses} = **{value}** (each opponent pays it) — shows "
                "{cards}",
                name=who,
                bonuses=parts,
                value=d["value"],
                cards=_cards(d["cards"]),
            )
        )
    return out


def _fool_line(table: TableInfo, info: dict[str, Any]) -> str | None:
    fool = info["fool"]
    if fool["debtor"] is not None and fool["creditor"] is not None:
        return _(
            "🃏 **{debtor}** owes **{creditor}** an empty card for the Fool",
            debtor=seat_label(table, fool["debtor"]),
            creditor=seat_label(table, fool["creditor"]),
        )
    if info["exchanges"]:
        e = info["exchanges"][-1]
        card = label(e["card"], CARD_LABELS) if e["card"] else _("a discarded card")
        return _(
            "🃏 The Fool went back to **{giver}**, who gave **{receiver}** {card} (trick {trick})",
            giver=seat_label(table, e["giver"]),
            receiver=seat_label(table, e["receiver"]),
            card=card,
            trick=e["trick"],
        )
    return None


def _roles_line(table: TableInfo, roles: dict[str, int]) -> str:
    return _(
        "{eldest} **{eldest_name}** · {middle} **{middle_name}** · {dealer} **{dealer_name}**",
        eldest=ROLE_TITLES["eldest"],
        eldest_name=seat_label(table, roles["eldest"]),
        middle=ROLE_TITLES["middle"],
        middle_name=seat_label(table, roles["middle"]),
        dealer=ROLE_TITLES["dealer"],
        dealer_name=seat_label(table, roles["dealer"]),
    )


def _tricks(n: int) -> str:
    return n_("{n} trick", "{n} tricks", n)


def _trick_title(pv: PublicView) -> str:
    return _("Trick {n} of {total}", n=pv.tricks_played + 1, total=25)


def table_embed(outcome: Outcome) -> discord.Embed:
    """The public table: roles, the bargaining console or the play, declarations, totals."""
    table, pv = outcome.table, outcome.public
    assert pv is not None
    info = pv.info
    deals = table.options.get("deals", 6)
    embed = discord.Embed(
        title=_(
            "{game} · table #{table} — hand {n} of {total}",
            game=_(TITLE),
            table=table.id,
            n=outcome.deal_number,
            total=deals,
        ),
        colour=COLOUR_PLAY,
    )
    roles = info["roles"]
    lines = [_roles_line(table, roles)]
    if pv.phase == "discard":
        lines.append(
            _(
                "All cards are dealt; **{name}** discards 3 cards.",
                name=seat_label(table, pv.dealer),
            )
        )
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
            _(
                "{name} {tricks} ({cards})",
                name=seat_label(table, s),
                tricks=_tricks(pv.tricks_won[s]),
                cards=n_("{n} card", "{n} cards", info["taken"][s]),
            )
            for s in range(pv.players)
        )
        embed.add_field(name=_("Tricks taken"), value=taken, inline=False)
        embed.add_field(
            name=_trick_title(pv), value=trick_text(table, pv, CARD_LABELS), inline=False
        )
    if pv.last_trick and pv.last_winner is not None:
        embed.add_field(
            name=_("Last trick — won by {name}", name=seat_label(table, pv.last_winner)),
            value=last_trick_text(table, pv.last_trick, pv.last_winner, CARD_LABELS),
            inline=False,
        )
    embed.add_field(name=_("Totals"), value=standings(table, outcome.totals), inline=False)
    doing = _turn_words(pv) if pv.to_act is not None else ""
    return finish_table_embed(embed, table, pv.to_act, doing, option_lines(table.options))


def _hand_lines(hand: tuple[str, ...]) -> list[str]:
    lines: list[str] = []
    for key in _GROUPS:
        cards = [c for c in hand if c[0] == key and c != "EX"]
        if not cards:
            continue
        if key == "T":
            lines.append(
                p_(
                    "queen_of_tarot",
                    "Trumps ({n}) {cards}",
                    n=len(cards),
                    cards=labels(cards, CARD_LABELS),
                )
            )
        else:
            lines.append(f"{suit_mark(key)} {labels(cards, CARD_LABELS)}")
    if "EX" in hand:
        lines.append(
            p_(
                "queen_of_tarot",
                "🃏 the Fool — play it any time; it never wins and comes back to you",
            )
        )
    return lines


def _bargain_prompt(ranges: dict[str, Any]) -> str:
    demand, offer = ranges["demand"], ranges["offer"]
    if demand and offer:
        return _(
            "**Your turn to bargain.** Pass (your position stands), **Continue** (play the "
            "hand out), demand {demand_low}–{demand_high} or offer {offer_low}–{offer_high} "
            "game points to abandon the hand.",
            demand_low=demand[0],
            demand_high=demand[1],
            offer_low=offer[0],
            offer_high=offer[1],
        )
    if offer:
        return _(
            "**Your turn to bargain.** Pass (your position stands), **Continue** (play the "
            "hand out), no demand or offer {offer_low}–{offer_high} game points to abandon "
            "the hand.",
            offer_low=offer[0],
            offer_high=offer[1],
        )
    if demand:
        return _(
            "**Your turn to bargain.** Pass (your position stands), **Continue** (play the "
            "hand out), demand {demand_low}–{demand_high} or no offer game points to abandon "
            "the hand.",
            demand_low=demand[0],
            demand_high=demand[1],
        )
    return _(
        "**Your turn to bargain.** Pass (your position stands), **Continue** (play the hand "
        "out), no demand or no offer game points to abandon the hand."
    )


def bargain_guidance(view: SeatView) -> str:
    """What the cards held so far are worth against the fair share of 43, and the computer's
    call with them (from the seat's own hand and the public positions:
    ``bot.services.guidance``)."""
    g = queen_bargain(view)
    line = _(
        "🧭 Your {cards} cards: {trumps}, {kings}, {honours}, {points} card points — on course "
        "to take about **{expected}** card points against the fair share of {share}.",
        cards=g.cards,
        trumps=n_("{n} trump", "{n} trumps", g.trumps),
        kings=n_("{n} King", "{n} Kings", g.kings),
        honours=n_("{n} honour", "{n} honours", g.honours),
        points=g.points,
        expected=g.expected,
        share=FAIR_SHARE,
    )
    if g.declaration:
        line += " " + _(
            "Declarations within reach: {value} (paid by each opponent).", value=g.declaration
        )
    line += " " + _("Playing on looks worth about **{worth}** game points.", worth=f"{g.worth:+d}")
    if g.advice == "continue":
        advice = _("The computer would **Continue**.")
    elif g.advice == "demand":
        advice = _("The computer would **demand {amount}**.", amount=g.amount)
    elif g.advice == "offer":
        advice = _("The computer would **offer {amount}**.", amount=g.amount)
    else:
        advice = _("The computer would **pass**.")
    return f"{line} {advice}"


def _prompt(view: SeatView) -> str:
    """What to do at the seat's decision."""
    pv = view.public
    if pv.phase == "bargain":
        return _bargain_prompt(pv.info["bargain"]["ranges"]) + "\n" + bargain_guidance(view)
    if pv.phase == "discard":
        return _("**Discard 3 cards** (no Kings, Angel, Bagatto or Fool); they count for you.")
    if pv.phase == "declare":
        best = view.info.get("best", [])
        return _(
            "**Declare.** The best you can declare is pre-selected: {bonuses}.",
            bonuses=_bonuses(best),
        )
    return _("**Your turn — play a card.** Follow suit, else trump; the Fool is always allowed.")


def hand_embed(table: TableInfo, view: SeatView, where: str, outcome: Outcome) -> discord.Embed:
    """A player's private hand (up to 28 cards, one line per suit).

    At the seat's decision (and once the game is over) it shows the bargaining figures or the
    trick and the prompt. Otherwise it is *quiet*: the hand, the seat's role and discard and
    the match total, so it does not change while others bargain or play (the bot edits a DM
    only when it changes).
    """
    embed = discord.Embed(
        title=_("Your hand — {game} table #{table}", game=_(TITLE), table=table.id),
        colour=COLOUR_PLAY,
    )
    embed.set_author(name=where, url=table_link(table))
    embed.description = "\n".join(_hand_lines(view.hand)) or _("*No cards left.*")
    facts = [
        _(
            "Hand {n} · your total **{total}**",
            n=outcome.deal_number,
            total=outcome.totals[view.seat],
        )
    ]
    pv = view.public
    table_field = p_("queen_of_tarot field", "Table")
    if not outcome.finished and (pv.to_act != view.seat or not view.legal):
        roles = pv.info["roles"]
        role = next((r for r in _ROLE_ORDER if roles[r] == view.seat), None)
        if role is not None:
            facts.append(_("You are **{role}**", role=ROLE_WORDS[role]))
        if view.info.get("discard"):
            facts.append(_("Your discard: {cards}", cards=_cards(view.info["discard"])))
        embed.add_field(name=table_field, value="\n".join(facts), inline=False)
        now = _("Waiting for the next hand.") if pv.to_act is None else _(WAITING_NOTE)
        embed.add_field(name=_("Now"), value=now, inline=False)
        return embed
    if view.info.get("discard"):
        facts.append(_("Your discard: {cards}", cards=_cards(view.info["discard"])))
    if pv.phase == "bargain" and pv.info["bargain"]["session"] is not None:
        b = pv.info["bargain"]
        facts.append(
            _(
                "Session {session} of 3 · demanded {demanded} · offered {offered}",
                session=b["session"],
                demanded=b["demanded"],
                offered=b["offered"],
            )
        )
    embed.add_field(name=table_field, value="\n".join(facts), inline=False)
    if pv.phase == "play":
        embed.add_field(
            name=_trick_title(pv), value=trick_text(table, pv, CARD_LABELS), inline=False
        )
    now = _("The game is over.") if outcome.finished else _prompt(view)
    why = None if outcome.finished else restriction_line(view, SUIT_WORDS)
    now += f"\n{why}" if why else ""
    embed.add_field(name=_("Now"), value=now, inline=False)
    return embed


def _amount_label(kind: str, amount: int) -> str:
    if kind == "demand":
        return _("Demand {amount}", amount=amount)
    return _("Offer {amount}", amount=amount)


def _amount_placeholder(kind: str, low: int, high: int) -> str:
    if kind == "demand":
        return _("Demand {low}–{high} game points…", low=low, high=high)
    return _("Offer {low}–{high} game points…", low=low, high=high)


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
                    discord.SelectOption(label=_amount_label(kind, x), value=str(x)) for x in chunk
                ],
                placeholder=_amount_placeholder(kind, chunk[0], chunk[-1]),
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
            ui,
            table_id,
            [a for a in legal if a.type == "discard"],
            selected,
            verb=p_("queen_of_tarot action", "Discard"),
            suit_words=SUIT_WORDS,
        )
        return ui
    if "declare" in kinds:
        best = list(view.info.get("best", []))
        values = {bonus_value(d["bonuses"]): d["value"] for d in view.info.get("declarable", [])}
        ui.add_item(
            TableButton(
                table_id,
                f"act:declare:bonuses={bonus_value(best)}",
                label=_(
                    "Declare {bonuses} ({value})",
                    bonuses=_bonuses(best),
                    value=values.get(bonus_value(best), 0),
                )
                if best
                else _("Nothing to declare"),
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
                table_id,
                "declare",
                "bonuses",
                options=options,
                placeholder=_("Or declare…"),
                row=1,
            )
        )
        return ui
    if "pass" in kinds:
        ui.add_item(
            TableButton(table_id, "act:pass", label=p_("queen_of_tarot action", "Pass"), row=0)
        )
        ui.add_item(
            TableButton(
                table_id,
                "act:continue",
                label=p_("queen_of_tarot action", "Continue"),
                style=discord.ButtonStyle.success,
                row=0,
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
    add_play_selects(ui, table_id, plays, 5, CARD_LABELS, CARD_NAMES, SUIT_WORDS)
    return ui


def confirmation(payload: dict[str, Any]) -> str | None:
    """The private reply to a typed or clicked decision."""
    kind = payload.get("type")
    if kind == "pass":
        return _("You passed; your position stands.")
    if kind == "continue":
        return _("You called **Continue**: the bargaining session ends and the hand goes on.")
    if kind in ("demand", "offer"):
        amount = payload.get("amount")
        if isinstance(amount, int):
            if kind == "demand":
                return n_(
                    "You demand **{n}** game point.", "You demand **{n}** game points.", amount
                )
            return n_("You offer **{n}** game point.", "You offer **{n}** game points.", amount)
        if kind == "demand":
            return _("You demand **{amount}** game points.", amount=amount)
        return _("You offer **{amount}** game points.", amount=amount)
    if kind == "discard":
        return _("You discarded {cards}.", cards=_cards(list(payload.get("cards", []))))
    if kind == "declare":
        return _("You declared {bonuses}.", bonuses=_bonuses(list(payload.get("bonuses", []))))
    return None


def deal_summary_embed(
    table: TableInfo, ended: EndedDeal, totals: tuple[int, ...]
) -> discord.Embed:
    """End-of-hand sheet: the settlement, or declarations and card points (±43)."""
    d = ended.result.detail
    deltas = ended.result.deltas
    embed = discord.Embed(
        title=_(
            "{game} · table #{table} — hand {n} score sheet",
            game=_(TITLE),
            table=table.id,
            n=ended.number,
        ),
        colour=COLOUR_DONE,
    )
    rows: list[str] = []
    if d["ended"] == "settlement":
        st = d["settlement"]
        payers = ", ".join(
            _("{name} pays {amount}", name=seat_label(table, s), amount=x) for s, x in st["paid"]
        )
        takers = ", ".join(
            _("{name} receives {amount}", name=seat_label(table, s), amount=x)
            for s, x in st["received"]
        )
        embed.description = _(
            "🤝 Settled in bargaining session {session}: {payers}; {takers}. The hand was "
            "thrown in.",
            session=st["session"],
            payers=payers,
            takers=takers,
        )
        for seat, delta in enumerate(deltas):
            rows.append(f"**{seat_label(table, seat)}** → **{delta:+d}**")
    else:
        decl = d["declaration_deltas"]
        lines = _declaration_lines(table, {"declarations": d["declarations"]})
        embed.description = "\n".join(lines) or _("No declarations.")
        for seat, delta in enumerate(deltas):
            rows.append(
                _(
                    "**{name}** — declarations {declarations} · cards {points} ({difference} "
                    "against 43) · {tricks} → **{total}**",
                    name=seat_label(table, seat),
                    declarations=f"{decl[seat]:+d}",
                    points=d["card_points"][seat],
                    difference=f"{d['card_deltas'][seat]:+d}",
                    tricks=_tricks(d["tricks"][seat]),
                    total=f"{delta:+d}",
                )
            )
    embed.add_field(name=p_("queen_of_tarot field", "Hand"), value="\n".join(rows), inline=False)
    add_last_trick(embed, table, ended.public, CARD_LABELS)
    embed.add_field(name=_("Totals"), value=standings(table, totals), inline=False)
    return embed


def rules_embed() -> discord.Embed:
    """``/tarocchi rules``: the short version."""
    summary = _(
        "Mitigati, a Piedmontese tarot game for exactly 3. The deal stops three times for "
        "**bargaining**: Pass, **Demand** or **Offer** game points to abandon the hand, or "
        "**Continue** to play it — when demands equal offers the hand is settled and thrown "
        "in. Otherwise the dealer discards 3, everyone may declare Abundance, Kings, "
        "Mitigati or Mixed Honours (paid by each opponent), and 25 tricks are played: "
        "follow suit, else trump; trump XX (the Angel) beats XXI; in Cups and Coins the 1 is "
        "the best pip. Cards are worth 129 in all; each player scores points − 43. After the "
        "last hand the highest total wins."
    )
    more = _("Use {command} for the complete rules.", command=command(f"{GROUP} rules", full=True))
    return rules_card(_(TITLE), f"{summary}\n\n{more}")


def rules_full_embeds() -> list[discord.Embed]:
    """``/tarocchi rules full:True``: every rule the engine applies, in plain words."""
    return rules_pages(
        _(TITLE),
        _(
            "Everything moves to the right (counter-clockwise). Eldest is the dealer's right, "
            "Middle the next; the deal passes right after every hand, thrown in or played."
        ),
        [
            (
                p_("rules section", "Deal and bargaining"),
                _(
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
                p_("rules section", "Discard and declarations"),
                _(
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
                p_("rules section", "Play and scoring"),
                _(
                    "Eldest leads; follow suit, else play a trump, else anything. XX beats XXI; "
                    "in Cups and Coins the pips run 1 (best) to 10. The Fool may always be played "
                    "instead; it never wins and comes back to you for an empty card (a debt if "
                    "you have none yet). Cards score singly: XX, I and Kings 5, Fool and Queens "
                    "4, Cavaliers 3, Valets 2, others 1 — 129 in all; you score your points − "
                    "43. After the agreed number of hands the highest total wins (ties share)."
                ),
            ),
        ],
    )
