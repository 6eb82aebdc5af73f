"""Loser's Game's rules as pages (``bot.ui.text.rules``), from ``rules/losers_game.md``."""

from __future__ import annotations

from bot.i18n import _, p_
from bot.ui.text.rules import RulePage


def pages() -> list[RulePage]:
    return [
        RulePage(
            p_("rules section", "Deal"),
            _(
                "A 52-card pack, Ace high. Everyone gets 52 ÷ players cards (13 at 4 players); "
                "the 1, 2 or 4 cards left over lie face up and play no part."
            ),
            ((p_("rules picture", "Ace high"), ("SA", "SK", "SQ", "SJ", "S10", "S2")),),
        ),
        RulePage(
            p_("rules section", "Trump and bids"),
            # losers_game D-4: the tie-break of the lowest total.
            _(
                "The player with the lowest total names one of the four suits as trump. Then "
                "everyone bids in turn, from the caller's left with the caller last, the points "
                "their tricks will hold: **1 per trump**, **3 for three cards of a rank**, **9 "
                "for all four**. Everyone sees every bid."
            ),
            (
                (p_("rules picture", "Three of a kind: 3"), ("S7", "H7", "D7")),
                (p_("rules picture", "Four of a kind: 9"), ("SQ", "HQ", "DQ", "CQ")),
            ),
        ),
        RulePage(
            p_("rules section", "Play"),
            _(
                "The trump caller leads the first trick. Follow suit if you can (no need to "
                "win); otherwise play any card, no need to trump. The highest trump wins, else "
                "the highest card of the suit led; the winner leads next. Won tricks stay face "
                "down, even to their owner, until the hand ends."
            ),
        ),
        RulePage(
            p_("rules section", "Scoring"),
            # losers_game D-7: trump points and sets add up.
            _(
                "Count your tricks: 1 per trump, 3 per rank you took three of, 9 per rank you "
                "took all four of (a trump in a set counts for both). Reach your bid and score "
                "**+bid** (more is not scored); miss it and lose your bid. The first to 50 with "
                "the unique top score wins."
            ),
            (
                (
                    p_("rules picture", "Hearts trump: 2 + 3 = 5 points"),
                    ("H2", "H9", "S7", "D7", "C7"),
                ),
            ),
        ),
    ]
