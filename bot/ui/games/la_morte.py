"""La Morte's Discord rendering: table embed, hand embed, deal summary, rules card.

Presentation only: everything shown comes from the engine's ``PublicView``/``SeatView``
(rules logic stays in ``bot/engine/games/la_morte.py``). Every word goes through the
``la_morte`` catalogs (``bot.i18n``): the game keeps its Italian names (La Morte, Il Bagatto,
il Morto, Fuori dal Tempo) in every language.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.games.la_morte import LA_MORTE, SUIT
from bot.engine.views import PublicView, SeatView
from bot.i18n import N_, Words, _, n_, p_
from bot.services.guidance import la_morte_stakes
from bot.services.models import EndedDeal, Outcome, TableInfo
from bot.ui.components.cards import decision_view as default_decision_view
from bot.ui.text.cards import in_hand_order, label, labels, suit_mark, suit_word
from bot.ui.text.render import (
    COLOUR_DONE,
    COLOUR_PLAY,
    FIELD_VALUE_LIMIT,
    WAITING_NOTE,
    add_last_trick,
    clip_lines,
    last_trick_text,
    mention,
    seat_label,
    standings,
    table_link,
    trick_text,
)
from bot.ui.text.restriction import restriction_line

GROUP = "lamorte"
#: La Morte's named trumps (la_morte §1.1): shown by name, not by number.
CARD_LABELS = Words({"T13": N_("☠ La Morte"), "T1": N_("Il Bagatto ♣")})
CARD_NAMES = Words({"T13": N_("La Morte"), "T1": N_("Il Bagatto (highest club)")})
TITLE = N_("La Morte")
# The auction's verbs and the roles are La Morte's own words (other games bid and defend
# differently), told apart from the same English elsewhere by their context.
BUTTON_LABELS = Words(
    {
        "bid": lambda: p_("la_morte action", "Bid"),
        "accept": lambda: p_("la_morte action", "Accept"),
        "drop": lambda: p_("la_morte action", "Drop"),
        "muck": lambda: p_("la_morte action", "Muck"),
    }
)
ROLE_ICON = {"maker": "🎯", "defender": "🛡️", "dropper": "💤", "undecided": "❔"}
ROLE_NAME = Words(
    {
        "maker": lambda: p_("la_morte role", "maker"),
        "defender": lambda: p_("la_morte role", "defender"),
        "dropper": lambda: p_("la_morte role", "dropper"),
        "undecided": lambda: p_("la_morte role", "undecided"),
    }
)
TRICKS = 9


def _tricks(n: int) -> str:
    return n_("{n} trick", "{n} tricks", n)


def option_lines(options: dict[str, Any]) -> list[str]:
    """Lobby/footers: the table's options in words."""
    lines = [_("Target score: **{target}**", target=options.get("target", 50))]
    limit = options.get("round_limit")
    lines.append(
        n_("Round limit: **{n}** deal", "Round limit: **{n}** deals", limit)
        if limit
        else _("Round limit: none")
    )
    return lines


def _suit_name(suit: str) -> str:
    return f"{suit_mark(suit)} {suit_word(suit)}"


def _trump_line(info: dict[str, Any]) -> str:
    talon = info["talon"]
    trump = info["trump"]
    shown = label(talon, CARD_LABELS)
    if trump is None:
        return _("Talon **{card}** → **no trumps** this deal", card=shown)
    return _("Talon **{card}** → trumps **{suit}**", card=shown, suit=_suit_name(trump))


def _contract_line(table: TableInfo, pv: PublicView) -> str:
    info = pv.info
    if info["contract"] is not None:
        maker = seat_label(table, info["maker"])
        if info["auto_contract"]:
            return _(
                "Contract **{contract}** by **{name}** (nobody accepted: no defenders)",
                contract=info["contract"],
                name=maker,
            )
        return _("Contract **{contract}** by **{name}**", contract=info["contract"], name=maker)
    if pv.phase == "dealer_option":
        return _(
            "Everyone dropped — **{name}** (dealer) may bid or muck",
            name=seat_label(table, pv.dealer),
        )
    if info["high_bid"]:
        who = seat_label(table, info["high_bidder"])
        return _("Auction · highest bid **{bid}** by **{name}**", bid=info["high_bid"], name=who)
    return _("Auction · no bid yet")


def _auction_calls(table: TableInfo, pv: PublicView) -> str | None:
    """Every call of the auction in order, from the public history: who bid what, who accepted
    or dropped (the computers' calls among them, which the contract line and the roles alone
    do not tell). Shown until the first trick is over."""
    calls: list[str] = []
    for a in pv.history:
        who = seat_label(table, a.seat)
        if a.type == "bid":
            calls.append(_("{name} bids {n}", name=who, n=a.amount))
        elif a.type == "accept":
            calls.append(_("{name} accepts", name=who))
        elif a.type == "drop":
            calls.append(_("{name} drops", name=who))
        elif a.type == "muck":
            calls.append(_("{name} mucks the deal", name=who))
    if not calls:
        return None
    return clip_lines(calls, FIELD_VALUE_LIMIT, sep=" · ")


def _turn_kind(pv: PublicView) -> str:
    """What the seat to act does now: ``auction``, ``dealer_option``, ``decide`` or ``play``."""
    if pv.phase in ("auction", "dealer_option"):
        return pv.phase
    if pv.to_act is not None and pv.info["statuses"][pv.to_act] == "undecided":
        return "decide"
    return "play"


def turn_content(outcome: Outcome) -> str | None:
    """Message content above the table embed: whose turn, mentioning a human."""
    pv = outcome.public
    if pv is None or pv.to_act is None or outcome.finished:
        return None
    who = mention(outcome.table, pv.to_act)
    if who is None:
        return None
    kind = _turn_kind(pv)
    if kind == "auction":
        return _("{who}, it's your turn — bid, accept or drop.", who=who)
    if kind == "dealer_option":
        return _("{who}, it's your turn — bid or muck the deal.", who=who)
    if kind == "decide":
        return _("{who}, it's your turn — accept or drop, then play.", who=who)
    return _("{who}, it's your turn — play a card.", who=who)


def _your_turn(pv: PublicView) -> str:
    kind = _turn_kind(pv)
    if kind == "auction":
        return _("**Your turn** — bid, accept or drop.")
    if kind == "dealer_option":
        return _("**Your turn** — bid or muck the deal.")
    if kind == "decide":
        return _("**Your turn** — accept or drop, then play.")
    return _("**Your turn** — play a card.")


def table_embed(outcome: Outcome) -> discord.Embed:
    """The public table message of a running deal."""
    table, pv = outcome.table, outcome.public
    assert pv is not None
    info = pv.info
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
        [
            _(
                "Dealer **{name}** · {trumps}",
                name=seat_label(table, pv.dealer),
                trumps=_trump_line(info),
            ),
            _contract_line(table, pv),
        ]
    )
    calls = _auction_calls(table, pv) if pv.tricks_played == 0 else None
    if calls:
        embed.description += "\n" + _("Auction: {calls}", calls=calls)
    rows: list[str] = []
    for seat in range(pv.players):
        status = info["statuses"][seat]
        marks = "▶️ " if pv.to_act == seat else ""
        extra = ""
        if info["morto"] == seat:
            extra = " · ☠ " + _("**il Morto**")
        elif info["fuori"] == seat:
            extra = " · ⌛ " + _("**Fuori dal Tempo**")
        row = _(
            "**{name}** — {role} · {tricks} · total **{total}**",
            name=seat_label(table, seat),
            role=ROLE_NAME[status],
            tricks=_tricks(pv.tricks_won[seat]),
            total=outcome.totals[seat],
        )
        rows.append(f"{marks}{ROLE_ICON[status]} {row}{extra}")
    embed.add_field(name=_("Players"), value="\n".join(rows), inline=False)
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
            lines.append(CARD_LABELS[LA_MORTE])
            continue
        cards = labels(groups[key], CARD_LABELS)
        if key == view.public.info["trump"]:
            lines.append(_("{suit} (trumps): {cards}", suit=suit_mark(key), cards=cards))
        else:
            # A message of its own: French puts a no-break space before the colon.
            lines.append(_("{suit}: {cards}", suit=suit_mark(key), cards=cards))
    if view.info.get("dead"):
        lines.append(_("*You are il Morto: your remaining cards are dead.*"))
    return lines


def hand_embed(table: TableInfo, view: SeatView, where: str, outcome: Outcome) -> discord.Embed:
    """A player's private hand (DM or ephemeral), sorted by suit.

    At the seat's decision (and once the game is over) it shows the whole situation: contract,
    the trick, what to do. Otherwise it is *quiet*: only the hand and settled facts of the
    deal, so it does not change while others play (the bot edits a DM only when it changes).
    """
    pv = view.public
    info = pv.info
    embed = discord.Embed(
        title=_("Your hand — {game} table #{table}", game=_(TITLE), table=table.id),
        colour=COLOUR_PLAY,
    )
    embed.set_author(name=where, url=table_link(table))
    embed.description = "\n".join(_hand_lines(view)) or _("*No cards left.*")
    embed.add_field(
        name=_("Deal {n}", n=outcome.deal_number), value=_trump_line(info), inline=False
    )
    status = info["statuses"][view.seat]
    if outcome.finished or (pv.to_act == view.seat and view.legal):
        embed.add_field(
            name=_("You are"), value=f"{ROLE_ICON[status]} {ROLE_NAME[status]}", inline=True
        )
        embed.add_field(name=_("Contract"), value=_contract_line(table, pv), inline=True)
        if pv.phase == "play":
            embed.add_field(
                name=_("Trick {n}", n=pv.tricks_played + 1),
                value=trick_text(table, pv, CARD_LABELS),
                inline=False,
            )
        turn = _("The game is over.") if outcome.finished else _your_turn(pv)
        why = None if outcome.finished else restriction_line(view)
        turn += f"\n{why}" if why else ""
        stakes = None if outcome.finished else stakes_line(table, view)
        turn += f"\n{stakes}" if stakes else ""
        embed.add_field(name=_("Now"), value=turn, inline=False)
        return embed
    # Quiet: never the auction, the contract, the trick or whose turn it is (all on the
    # table message, and here at the seat's own turn).
    turn = _("Waiting for the next deal.") if pv.to_act is None else _(WAITING_NOTE)
    embed.add_field(name=_("Now"), value=turn, inline=False)
    return embed


def stakes_line(table: TableInfo, view: SeatView) -> str | None:
    """What a bid, an Accept and a Drop would score (la_morte §5.1), from the public auction
    (``bot.services.guidance``); None when the decision is no bid, Accept or Drop."""
    kinds = {a.type for a in view.legal}
    if not kinds & {"bid", "accept", "drop"}:
        return None
    s = la_morte_stakes(view)
    parts: list[str] = []
    if "bid" in kinds:
        parts.append(
            _(
                "**Bid**: take that many tricks to score your tricks + the bid (fall short: "
                "your tricks only)."
            )
        )
    if "accept" in kinds and s.contract is not None and s.maker is not None:
        parts.append(
            _(
                "**Accept**: defend against {name}'s {c} — 1 point a trick, +{c} if it fails.",
                name=seat_label(table, s.maker),
                c=s.contract,
            )
        )
    if "drop" in kinds:
        if s.drop_score is None:
            parts.append(_("**Drop**: the final contract − 1 if you take no trick, else 0."))
        elif s.fixed:
            parts.append(_("**Drop**: +{n} if you take no trick, else 0.", n=s.drop_score))
        else:
            parts.append(
                _(
                    "**Drop**: +{n} if you take no trick (more if the bidding goes higher), "
                    "else 0.",
                    n=s.drop_score,
                )
            )
    return "🧭 " + "\n".join(parts)  # a line per answer: read at a glance on a phone


def _stake_labels(view: SeatView) -> dict[str, str]:
    """Accept and Drop buttons that say what they score (issue 31)."""
    s = la_morte_stakes(view)
    out: dict[str, str] = {}
    if s.contract is not None:
        out["accept"] = _("Accept — 1 a trick, +{c} if it fails", c=s.contract)
    if s.drop_score is None:
        out["drop"] = _("Drop — score only with no trick")
    else:
        out["drop"] = _("Drop — +{n} if you take no trick", n=s.drop_score)
    return out


def decision_view(table_id: int, view: SeatView) -> discord.ui.View | None:
    """The default controls (a "Play a card" menu and the auction buttons), with the cards in
    the hand line's order (the engine lists the legal cards in dealt order); Accept and Drop
    say what they score."""
    cards = in_hand_order([a.card for a in view.legal if a.type == "play" and a.card], view.hand)
    plays = sorted(
        (a for a in view.legal if a.type == "play"),
        key=lambda a: cards.index(a.card) if a.card in cards else len(cards),
    )
    legal = (*plays, *(a for a in view.legal if a.type != "play"))
    words = dict(BUTTON_LABELS)
    if any(a.type in ("accept", "drop") for a in legal):
        words.update(_stake_labels(view))
    return default_decision_view(table_id, legal, words, CARD_LABELS, CARD_NAMES)


def deal_summary_embed(
    table: TableInfo, ended: EndedDeal, totals: tuple[int, ...]
) -> discord.Embed:
    """The table message of a finished deal becomes its summary."""
    res = ended.result
    pv = ended.public
    embed = discord.Embed(
        title=_(
            "{game} · table #{table} — deal {n} result",
            game=_(TITLE),
            table=table.id,
            n=ended.number,
        ),
        colour=COLOUR_DONE,
    )
    if res.outcome == "mucked":
        embed.description = _(
            "Everyone dropped and **{name}** mucked the deal. No scores.",
            name=seat_label(table, pv.dealer),
        )
    else:
        d = res.detail
        maker_seat = d["maker"]
        maker = seat_label(table, maker_seat)
        facts = {
            "contract": d["contract"],
            "name": maker,
            "tricks": _tricks(d["tricks"][maker_seat]),
        }
        if d["made"]:
            made = _("Contract **{contract}** by **{name}** made ✅ ({tricks})", **facts)
        else:
            made = _("Contract **{contract}** by **{name}** failed ❌ ({tricks})", **facts)
        embed.description = f"{_trump_line(pv.info)}\n{made}"
        rows: list[str] = []
        for seat, delta in enumerate(res.deltas):
            role = d["roles"][seat]
            note = ""
            if d["fuori"] == seat:
                note = " · " + _("Fuori dal Tempo (scores 0)")
            elif d["morto"] == seat:
                note = " · " + _("il Morto")
            row = _(
                "**{name}** — {role}, {tricks}{note} → **+{points}**",
                name=seat_label(table, seat),
                role=ROLE_NAME[role],
                tricks=_tricks(d["tricks"][seat]),
                note=note,
                points=delta,
            )
            rows.append(f"{ROLE_ICON[role]} {row}")
        embed.add_field(name=_("Scores"), value="\n".join(rows), inline=False)
    add_last_trick(embed, table, ended.public, CARD_LABELS)
    embed.add_field(name=_("Totals"), value=standings(table, totals), inline=False)
    return embed


def rules_embed() -> discord.Embed:
    """A short rules card for ``/lamorte rules``."""
    embed = discord.Embed(title=_("La Morte — how to play"), colour=COLOUR_PLAY)
    embed.description = _(
        "3–5 players, 9 cards each, 9 tricks. The face-up **talon** sets trumps (La Morte "
        "as talon: no trumps). Suits rank A K Q Kn J 10 9 8 7 (6 5 with five players, plus "
        "Il Bagatto, the highest club)."
    )
    embed.add_field(
        name=p_("rules section", "Auction"),
        value=_(
            "From the dealer clockwise: **Bid** more tricks than the last bid, **Accept** the "
            "standing bid (you become a defender and lead at once a lowest-ranked card), or "
            "**Drop** (aim to take no tricks). Players still undecided choose Accept or Drop at "
            "their turn in trick 1. A lone standing bid becomes the contract with no defenders. "
            "If all drop, the dealer may bid again or **Muck** the deal."
        ),
        inline=False,
    )
    embed.add_field(
        name=p_("rules section", "Play"),
        value=_(
            "Follow suit if you can; otherwise play anything — there is no need to trump. "
            "**La Morte** counts as a trump for following and wins any trump-led trick, but may "
            "only be led as your last card (**Fuori dal Tempo**: that deal scores 0 for you). "
            "Played to a plain-suit trick it loses, and the winner becomes **il Morto**: "
            "they keep their tricks but play no more."
        ),
        inline=False,
    )
    embed.add_field(
        name=p_("rules section", "Scoring"),
        value=_(
            "Maker: 1 per trick, plus the contract if made. Defenders: 1 per trick, plus the "
            "contract if it fails. Droppers: contract − 1 if they took no trick, else 0. "
            "First to the target score (default 50) with a unique lead wins."
        ),
        inline=False,
    )
    return embed
