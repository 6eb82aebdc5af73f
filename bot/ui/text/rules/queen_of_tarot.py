"""Queen of Tarot's rules as pages (``bot.ui.text.rules``), from ``rules/queen_of_tarot.md``."""

from __future__ import annotations

from bot.i18n import _, p_
from bot.ui.text.rules import RulePage


def pages() -> list[RulePage]:
    return [
        RulePage(
            p_("rules section", "Deal"),
            _(
                "Exactly 3 players and 78 cards with Italian suits: Swords, Cups, Coins and "
                "Batons, 21 trumps and the Fool. Everything moves to the right. Cards come in "
                "packets of five: 25 each, 28 for the dealer. The deal stops three times, at 10, "
                "15 and 20 cards each, for bargaining."
            ),
            (
                (p_("rules picture", "Swords, Cups, Coins, Batons"), ("SK", "HK", "DK", "CK")),
                (p_("rules picture", "Honours: XX, I, the Fool"), ("T20", "T1", "EX")),
            ),
        ),
        RulePage(
            p_("rules section", "Bargaining"),
            # queen_of_tarot D-5…D-8.
            _(
                "At each stop, from the dealer's right: **Pass** (your standing demand or offer "
                "stays), **Demand** points to give the hand up (later only less), **Offer** "
                "points to give it up (later only more), or **Continue**, which ends the stop. "
                "When the total demanded equals the total offered, everyone is paid and the "
                "hand is thrown in. Three passes in a row also end a stop."
            ),
        ),
        RulePage(
            p_("rules section", "Discard and declarations"),
            # queen_of_tarot §3.3, D-11.
            _(
                "The dealer discards 3 cards (no Kings, Angel, Bagatto or Fool); they count for "
                "the dealer. Then each player may declare, showing the cards: **Abundance** (10 "
                "or more trumps), **Kings** (all four), **Mitigati** (XX, I and the Fool), "
                "**Mixed Honours** (4 or more Kings and honours). Each opponent pays the "
                "declarer its value."
            ),
            (
                (p_("rules picture", "Mitigati"), ("T20", "T1", "EX")),
                (p_("rules picture", "Kings"), ("SK", "HK", "DK", "CK")),
            ),
        ),
        RulePage(
            p_("rules section", "Play"),
            # queen_of_tarot D-3: XX ranks above XXI.
            _(
                "The dealer's right leads. Follow suit, else play a trump, else anything. The "
                "Angel (XX) beats XXI. In Cups and Coins the pips run from 1, the best, to 10. "
                "The Fool may always be played instead; it never wins and comes back to you."
            ),
            (
                (p_("rules picture", "Trumps, high to low"), ("T20", "T21", "T19")),
                (
                    p_("rules picture", "Cups, high to low"),
                    ("HK", "HQ", "HC", "HJ", "H1", "H2", "H10"),
                ),
            ),
        ),
        RulePage(
            p_("rules section", "Scoring"),
            # queen_of_tarot D-1, D-2: the Fool is worth 4, so the pack is worth 129.
            _(
                "Cards score singly: XX, I and Kings 5, the Fool and Queens 4, Cavaliers 3, "
                "Valets 2, the others 1 — 129 in all. Each player scores their points − 43. "
                "After the agreed number of hands the highest total wins."
            ),
            (
                ("5", ("T20", "T1", "SK")),
                ("4", ("EX", "SQ")),
                ("3", ("SC",)),
                ("2", ("SJ",)),
                ("1", ("S7", "T9")),
            ),
        ),
    ]
