"""Early French Tarot's rules as pages (``bot.ui.text.rules``), from
``rules/french_tarot_17c.md``."""

from __future__ import annotations

from bot.i18n import _, p_
from bot.ui.text.rules import RulePage


def pages() -> list[RulePage]:
    return [
        RulePage(
            p_("rules section", "Deal"),
            _(
                "One 78-card tarot: four suits (King, Queen, Knight, Page, 10 down to the Ace, "
                "which is low), trumps I to XXI and the Fool. 2–6 players get 12 cards each; the "
                "rest is set aside unseen. There is no bidding: the dealer's left leads the "
                "first trick, and play goes clockwise."
            ),
            (
                (p_("rules picture", "A suit, high to low"), ("SK", "SQ", "SC", "SJ", "S10", "S1")),
                (p_("rules picture", "Trumps: XXI is highest"), ("T21", "T20", "T1")),
                (p_("rules picture", "The Fool"), ("EX",)),
            ),
        ),
        RulePage(
            p_("rules section", "Play"),
            _(
                "Follow the suit led if you can, with any card. If you can't, you must play a "
                "trump (any trump). With neither, play anything: it cannot win. The highest "
                "trump wins, else the highest card of the suit led; the winner leads next."
            ),
            ((p_("rules picture", "Hearts led: follow, else trump"), ("H3", "HQ", "T4", "T15")),),
        ),
        RulePage(
            p_("rules section", "The Fool"),
            # french_tarot_17c D-8…D-10: the debt and the last trick.
            _(
                "Play the **Fool** whenever you like. It never wins: it comes back to your pile "
                "and you hand the trick's winner one card you have won (the bot picks your least "
                "valuable). If you have won nothing yet, you owe that card until your next won "
                "trick."
            ),
            ((p_("rules picture", "The Fool"), ("EX",)),),
        ),
        RulePage(
            p_("rules section", "Scoring"),
            # french_tarot_17c D-4: one point per card above 12.
            _(
                "Each player counts their own cards: 1 point per card above 12, plus the "
                "honours: Fool 5, World (XXI) 4, Magician (I) 4, each King 4, Queen 3, Knight 2, "
                "Page 1. Totals carry over; the first to reach 50 with the unique top total "
                "wins."
            ),
            (
                ("5", ("EX",)),
                ("4", ("T21", "T1", "SK")),
                ("3", ("SQ",)),
                ("2", ("SC",)),
                ("1", ("SJ",)),
            ),
        ),
    ]
