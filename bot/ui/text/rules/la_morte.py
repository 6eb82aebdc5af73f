"""La Morte's rules as pages (``bot.ui.text.rules``), from ``rules/la_morte.md``."""

from __future__ import annotations

from bot.i18n import _, p_
from bot.ui.text.rules import RulePage


def pages() -> list[RulePage]:
    return [
        RulePage(
            p_("rules section", "Deal"),
            _(
                "3–5 players, 9 cards each. The suits rank A K Q C J 10 9 8 7 (and 6 5 at five "
                "players); **La Morte** is trump XIII, and at five **Il Bagatto** is the highest "
                "club. One card is turned face up, the **talon**: its suit is trump for the deal "
                "(La Morte as talon: no trump). At three, 9 cards are set aside unseen."
            ),
            (
                (
                    p_("rules picture", "A suit, high to low"),
                    ("S1", "SK", "SQ", "SC", "SJ", "S10", "S9", "S8", "S7"),
                ),
                (p_("rules picture", "La Morte"), ("T13",)),
                (p_("rules picture", "Il Bagatto (5 players)"), ("T1",)),
            ),
        ),
        RulePage(
            p_("rules section", "Auction"),
            # la_morte §3.2: the dealer starts; D-3, D-4.
            _(
                "The dealer speaks first, then clockwise. **Bid** more tricks than the standing "
                "bid (1 to 9); **Accept** it: you defend against its bidder, the maker, and lead "
                "at once one of your lowest-ranked cards; or **Drop**: you will try to take no "
                "trick. Players still undecided choose Accept or Drop at their turn in trick 1. "
                "A bid all others drop is the contract with no defenders. If all drop without a "
                "bid, the dealer may bid or **Muck** the deal."
            ),
        ),
        RulePage(
            p_("rules section", "Play"),
            _(
                "Follow suit if you can; otherwise play anything, there is no need to trump. "
                "**La Morte** counts as a trump for following and wins a trick led in trumps, "
                "but may be led only as your last card (**Fuori dal Tempo**: your deal then "
                "scores 0). Played to a trick led in a plain suit it loses, and that trick's "
                "winner becomes **il Morto**: they keep their tricks but play no more."
            ),
            (
                (p_("rules picture", "Talon: hearts are trump"), ("H8",)),
                (p_("rules picture", "La Morte"), ("T13",)),
            ),
        ),
        RulePage(
            p_("rules section", "Scoring"),
            _(
                "The maker scores 1 per trick, plus the contract if made. Defenders score 1 per "
                "trick, plus the contract if it fails. Droppers score the contract − 1 if they "
                "took no trick, else 0. The first to the target score (50 by default) with a "
                "unique lead wins."
            ),
        ),
    ]
