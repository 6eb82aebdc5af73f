"""Loser's Game's Discord rendering: table, hand, trump and bid controls, score sheet, rules.

Presentation only: everything shown comes from the engine's ``PublicView``/``SeatView`` and
``DealResult`` (rules stay in ``bot/engine/games/losers_game*.py``). Trick piles are never
shown before the hand ends (losers_game D-9): the table shows how many tricks each player
took, not what was in them.

Every word goes through the ``losers_game`` catalogs (``bot.i18n``): a 52-card game, so the
French says atout, brelan and carré, the Italian briscola, tris and poker.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.views import PublicView, SeatView
from bot.i18n import N_, Words, _, n_, p_
from bot.services.guidance import losers_bid
from bot.services.models import EndedDeal, Outcome, TableInfo
from bot.ui.components.amount import AmountButton
from bot.ui.components.choice import add_play_selects
from bot.ui.components.table import TableButton
from bot.ui.text.cards import SUIT_WORD, in_hand_order, labels, rank_label, sort_cards, suit_mark
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

GROUP = "losers"
TITLE = N_("Loser's Game")
BUTTON_LABELS = Words({"bid": lambda: p_("losers_game action", "Bid")})
_SUITS = ("S", "H", "D", "C")
#: A set of three or four cards of one rank, by its size (``{rank}``: the rank's label).
_SET = Words({"3": N_("three {rank}s"), "4": N_("four {rank}s")})


def option_lines(options: dict[str, Any]) -> list[str]:
    """Lobby and footer: the table's options in words."""
    limit = options.get("hand_limit")
    return [
        _("Game to **{target}** (unique top)", target=options.get("target", 50)),
        n_("Hand limit: **{n}** hand", "Hand limit: **{n}** hands", limit)
        if limit
        else _("Hand limit: none"),
    ]


def _suit(suit: str) -> str:
    return f"{suit_mark(suit)} {SUIT_WORD[suit]}"


def _turn_words(pv: PublicView) -> str:
    """What the seat to act is doing, completing "Waiting for **X** to …"."""
    if pv.phase == "trump":
        return p_("losers_game waiting for someone to", "name the trump suit")
    if pv.phase == "bidding":
        return p_("losers_game waiting for someone to", "bid")
    return p_("losers_game waiting for someone to", "play a card")


def turn_content(outcome: Outcome) -> str | None:
    """Message content above the table embed: whose turn, mentioning a human."""
    pv = outcome.public
    if pv is None or pv.to_act is None or outcome.finished:
        return None
    who = mention(outcome.table, pv.to_act)
    if who is None:
        return None
    if pv.phase == "trump":
        return _("{who}, it's your turn — name the trump suit.", who=who)
    if pv.phase == "bidding":
        return _("{who}, it's your turn — bid.", who=who)
    return _("{who}, it's your turn — play a card.", who=who)


def _bids(pv: PublicView) -> dict[int, int]:
    return {seat: amount for seat, amount in pv.info["bids"]}


def _tricks(n: int) -> str:
    return n_("{n} trick", "{n} tricks", n)


def _player_row(outcome: Outcome, pv: PublicView, seat: int, bids: dict[int, int]) -> str:
    """A seat's line on the table: its bid, the tricks it took (in play) and its total."""
    facts: dict[str, Any] = {
        "name": seat_label(outcome.table, seat),
        "total": outcome.totals[seat],
    }
    playing = pv.phase == "play"
    if playing:
        facts["tricks"] = _tricks(pv.tricks_won[seat])
    if seat in bids:
        if playing:
            return _(
                "**{name}** · bid **{bid}** · {tricks} · total **{total}**", bid=bids[seat], **facts
            )
        return _("**{name}** · bid **{bid}** · total **{total}**", bid=bids[seat], **facts)
    if playing:
        return _("**{name}** · no bid yet · {tricks} · total **{total}**", **facts)
    return _("**{name}** · no bid yet · total **{total}**", **facts)


def table_embed(outcome: Outcome) -> discord.Embed:
    """The public table: trump, caller, excess cards, bids, the trick, tricks taken, totals."""
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
    caller = seat_label(table, info["caller"])
    lines = [
        n_(
            "Dealer **{name}** · {n} card each",
            "Dealer **{name}** · {n} cards each",
            pv.info["hand_size"],
            name=seat_label(table, pv.dealer),
        )
    ]
    if info["excess"]:
        lines.append(
            _("Face up, out of play: **{cards}**", cards=labels(sort_cards(info["excess"])))
        )
    if info["trump"] is None:
        lines.append(_("**{name}** (lowest score) is naming trump…", name=caller))
    else:
        lines.append(
            _(
                "Trump **{suit}**, named by **{name}** · bids 0–{most}",
                suit=_suit(info["trump"]),
                name=caller,
                most=info["b_max"],
            )
        )
    embed.description = "\n".join(lines)
    bids = _bids(pv)
    rows = [
        ("▶️ " if pv.to_act == seat else "") + _player_row(outcome, pv, seat, bids)
        for seat in range(pv.players)
    ]
    embed.add_field(name=_("Players"), value="\n".join(rows), inline=False)
    if pv.phase == "play":
        embed.add_field(
            name=_("Trick {n} of {total}", n=pv.tricks_played + 1, total=pv.info["hand_size"]),
            value=trick_text(table, pv),
            inline=False,
        )
    if pv.last_trick and pv.last_winner is not None:
        embed.add_field(
            name=_(
                "Last trick — taken by {name} (pile face down)",
                name=seat_label(table, pv.last_winner),
            ),
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
            if suit == trump:
                lines.append(_("{suit} (trump) {cards}", suit=suit_mark(suit), cards=labels(cards)))
            else:
                lines.append(f"{suit_mark(suit)} {labels(cards)}")
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
    embed = discord.Embed(
        title=_("Your hand — {game} table #{table}", game=_(TITLE), table=table.id),
        colour=COLOUR_PLAY,
    )
    embed.set_author(name=where, url=table_link(table))
    embed.description = "\n".join(_hand_lines(view.hand, trump)) or _("*No cards left.*")
    facts = [
        _(
            "Hand {n} · your total **{total}**",
            n=outcome.deal_number,
            total=outcome.totals[view.seat],
        )
    ]
    if info["excess"]:
        facts.append(_("Out of play: {cards}", cards=labels(sort_cards(info["excess"]))))
    if not outcome.finished and (pv.to_act != view.seat or not view.legal):
        # Quiet: the trump, the bids and the trick are on the table message.
        embed.add_field(name=p_("losers_game", "Table"), value="\n".join(facts), inline=False)
        now = _("Waiting for the next hand.") if pv.to_act is None else _(WAITING_NOTE)
        embed.add_field(name=_("Now"), value=now, inline=False)
        return embed
    if trump is not None:
        facts.insert(
            1, _("Trump **{suit}** · bids 0–{most}", suit=_suit(trump), most=info["b_max"])
        )
    bids = _bids(pv)
    if bids:
        said = ", ".join(f"{seat_label(table, s)} {b}" for s, b in info["bids"])
        facts.append(_("Bids: {bids}", bids=said))
    if pv.phase == "play":
        facts.append(
            _(
                "You have taken {tricks} (piles stay face down)",
                tricks=_tricks(pv.tricks_won[view.seat]),
            )
        )
    embed.add_field(name=p_("losers_game", "Table"), value="\n".join(facts), inline=False)
    if pv.phase == "play":
        embed.add_field(
            name=_("Trick {n} of {total}", n=pv.tricks_played + 1, total=pv.info["hand_size"]),
            value=trick_text(table, pv),
            inline=False,
        )
    embed.add_field(name=_("Now"), value=_now(view, outcome), inline=False)
    return embed


def _now(view: SeatView, outcome: Outcome) -> str:
    """The prompt at the seat's decision."""
    pv = view.public
    if outcome.finished:
        return _("The game is over.")
    if pv.phase == "trump":
        return _(
            "**Your turn — name the trump suit.** You have the lowest score. Each trump you "
            "take is worth 1 point; you will bid last and lead the first trick."
        )
    if pv.phase == "bidding":
        prompt = _(
            "**Your turn — bid** the points you will take: 1 per trump, 3 for three of a kind, "
            "9 for four. Make it and score +bid; miss and lose it. Tap a bid, or **Other…** "
            "for any bid up to {most}.",
            most=pv.info["b_max"],
        )
        return prompt + "\n" + bid_guidance(view)
    why = restriction_line(view)
    play = _("**Your turn — play a card.** Follow suit if you can; otherwise play anything.")
    return play + (f"\n{why}" if why else "")


def bid_guidance(view: SeatView) -> str:
    """What the hand holds for bidding and the computer's bid with it (from the seat's own
    cards and the public trump: ``bot.services.guidance``)."""
    g = losers_bid(view)
    return n_(
        "🧭 {n} trump in hand, {threes}, {pairs} — the computer would bid about **{estimate}**.",
        "🧭 {n} trumps in hand, {threes}, {pairs} — the computer would bid about **{estimate}**.",
        g.trumps,
        threes=n_("{n} three of a kind", "{n} threes of a kind", g.threes),
        pairs=n_("{n} pair", "{n} pairs", g.pairs),
        estimate=g.estimate,
    )


def _bid_controls(ui: discord.ui.View, table_id: int, view: SeatView) -> None:
    """One tap for any bid within ``QUICK_SPREAD`` of the computer's estimate (the estimate
    itself highlighted), **Bid 0 (safe)**, and **Other…** for any other amount, typed."""
    g = losers_bid(view)
    # No rows given: Discord's five a row hold the seven quick bids and the two others.
    for amount in g.quick:
        ui.add_item(
            TableButton(
                table_id,
                f"act:bid:amount={amount}",
                label=_("Bid 0 (safe)") if amount == 0 else _("Bid {amount}", amount=amount),
                style=discord.ButtonStyle.primary
                if amount == g.estimate
                else discord.ButtonStyle.secondary,
            )
        )
    if 0 not in g.quick and g.low == 0:
        ui.add_item(
            TableButton(
                table_id,
                "act:bid:amount=0",
                label=_("Bid 0 (safe)"),
                style=discord.ButtonStyle.secondary,
            )
        )
    ui.add_item(AmountButton(table_id, "bid", g.low, g.high, label=_("Other…")))


def decision_view(table_id: int, view: SeatView) -> discord.ui.View | None:
    """Trump buttons, bid buttons, or one "Play …" select per suit of the legal cards."""
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
                    label=n_("{suit} ({n} held)", "{suit} ({n} held)", held, suit=SUIT_WORD[suit]),
                    emoji=suit_mark(suit),
                    style=discord.ButtonStyle.primary,
                )
            )
        return ui
    if kind == "bid":
        _bid_controls(ui, table_id, view)
        return ui
    # The menus list the cards in the hand line's order (the engine's legal order is the
    # order the cards were dealt).
    cards = in_hand_order([a.card for a in view.legal if a.type == "play" and a.card], view.hand)
    add_play_selects(ui, table_id, cards, 5)
    return ui


def _sheet_row(table: TableInfo, d: dict[str, Any], seat: int, delta: int) -> str:
    """One player's line of the score sheet: tricks, trumps, sets, points, bid, change."""
    trumps = d["trumps_taken"][seat]
    sets = ", ".join(_SET[str(k)].format(rank=rank_label(r)) for r, k in d["sets"][seat])
    bid = d["bids"][seat]
    if trumps:
        parts = [_("trumps {n} ({cards})", n=len(trumps), cards=labels(trumps))]
    else:
        parts = [_("trumps {n}", n=0)]
    if sets:
        parts.append(_("sets {sets}", sets=sets))
    if bid == 0:
        said = _("bid {bid}", bid=bid)
    elif d["made"][seat]:
        said = _("bid {bid} made", bid=bid)
    else:
        said = _("bid {bid} missed", bid=bid)
    taken = n_("**{n}** point", "**{n}** points", d["points"][seat])
    sign = f"+{delta}" if delta > 0 else str(delta)
    return (
        f"**{seat_label(table, seat)}** — {_tricks(d['tricks'][seat])} · "
        + " · ".join(parts)
        + f" → {taken} · {said} → **{sign}**"
    )


def deal_summary_embed(
    table: TableInfo, ended: EndedDeal, totals: tuple[int, ...]
) -> discord.Embed:
    """End-of-hand sheet: each player's trumps, sets, points taken, bid and change."""
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
    rows: list[str] = [
        _(
            "Trump **{suit}** (named by {name}). Points taken: 1 per trump, 3 per three of a "
            "kind, 9 per four of a kind; only the bid scores.",
            suit=_suit(d["trump"]),
            name=seat_label(table, d["caller"]),
        ),
        "",
    ]
    rows += [_sheet_row(table, d, seat, delta) for seat, delta in enumerate(ended.result.deltas)]
    # In the description (4,096 characters), not a field (1,024): six rows of trumps taken,
    # each card with its suit emoji's markup, outgrow a field.
    embed.description = "\n".join(rows)
    add_last_trick(embed, table, ended.public, verb="taken")
    embed.add_field(name=_("Totals"), value=standings(table, totals), inline=False)
    return embed


def confirmation(payload: dict[str, Any]) -> str | None:
    """The private reply to a typed or clicked decision."""
    if payload.get("type") == "trump":
        suit = str(payload.get("suit", ""))
        return _("You named **{suit}** as trump.", suit=_suit(suit)) if suit in SUIT_WORD else None
    return None


def rules_embed() -> discord.Embed:
    """``/losers rules``: the short version."""
    summary = _(
        "3–6 players (2 as an option), the 52-card pack dealt out evenly; leftover cards "
        "lie face up and out of play. The player with the **lowest** score names trump, "
        "then everyone bids — in turn, the trump caller last — how many points they will "
        "take: **1 per trump**, **3 for three of a kind**, **9 for four of a kind** "
        "(counted over all your tricks). Follow suit if you can; otherwise play anything. "
        "Make your bid and score **+bid**; miss it and **lose the bid**. First to **50** "
        "with the unique top score wins."
    )
    more = _("Use {command} for the complete rules.", command=command(f"{GROUP} rules", full=True))
    return rules_card(_(TITLE), f"{summary}\n\n{more}")


def rules_full_embeds() -> list[discord.Embed]:
    """``/losers rules full:True``: every rule the engine applies, in plain words."""
    return rules_pages(
        _(TITLE),
        _(
            "A trick game by Jonathan Leistiko (2006). Play goes clockwise; the deal passes to "
            "the left."
        ),
        [
            (
                p_("rules section", "Deal"),
                _(
                    "A 52-card pack, Ace high. Everyone gets 52 ÷ players cards (2: 26, 3: 17, "
                    "4: 13, 5: 10, 6: 8); the 1, 2 or 4 cards left over are shown face up and "
                    "play no part."
                ),
            ),
            (
                p_("rules section", "Trump and bids"),
                _(
                    "The player with the lowest total (negative totals count) names one of the "
                    "four suits as trump — on a tie, the tied player first met clockwise from "
                    "the dealer's left. Bids then go round from the caller's left, the caller "
                    "bidding last; everyone sees every bid. A bid is any whole number from 0 up "
                    "to the points still in play (trumps in play plus 9 per rank with all four "
                    "cards in play and 3 per rank with three)."
                ),
            ),
            (
                p_("rules section", "Tricks"),
                _(
                    "The trump caller leads the first trick; any card may be led, trumps "
                    "included. Follow the suit led if you can (no need to win); otherwise play "
                    "any card — you need not trump. The highest trump wins, else the highest "
                    "card of the suit led; the winner leads next. Won tricks stay face down: "
                    "nobody, not even their owner, may look at them before the hand ends."
                ),
            ),
            (
                p_("rules section", "Scoring"),
                _(
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
