"""French Tarot's rules as pages (``bot.ui.text.rules``), from ``rules/french_tarot.md``."""

from __future__ import annotations

from bot.i18n import _, p_
from bot.ui.text.rules import RulePage


def pages() -> list[RulePage]:
    return [
        RulePage(
            p_("rules section", "Deal"),
            _(
                "78 cards: four suits (King, Queen, Knight, Jack, 10 down to 1), 21 trumps and "
                "the Excuse. At 4 players each gets 18 cards and 6 go face down to the **dog** "
                "(3 players: 24 and 6; 5 players: 15 and 3). Play goes counter-clockwise. The "
                "three **bouts** — the 21, the Petit (trump 1) and the Excuse — decide how many "
                "points the taker needs."
            ),
            (
                (p_("rules picture", "The bouts"), ("T21", "T1", "EX")),
                (p_("rules picture", "Courts"), ("HK", "HQ", "HC", "HJ")),
            ),
        ),
        RulePage(
            p_("rules section", "Bidding"),
            _(
                "Each player speaks once, from the dealer's right: pass, or bid higher than the "
                "last bid. **Prise** ×1 and **Garde** ×2: the dog is shown and the taker takes "
                "it. **Garde sans le chien** ×4: the dog counts for the taker, unseen. **Garde "
                "contre le chien** ×6: it counts for the defence. At 5 players the taker then "
                "calls a King; its holder is the secret partner. If all pass, the deal is "
                "thrown in."
            ),
            ((p_("rules picture", "At 5 players, call a King"), ("SK", "HK", "DK", "CK")),),
        ),
        RulePage(
            p_("rules section", "The dog and the écart"),
            # french_tarot §3.5, D-19: discard limits; the chelem is announced after it.
            _(
                "After a Prise or a Garde the taker adds the dog to their hand and puts as many "
                "cards aside: the **écart**, which counts for the taker. No Kings or bouts, and "
                "trumps only when nothing else is left (they are then shown). The taker may then "
                "announce a **chelem**: winning every trick."
            ),
            ((p_("rules picture", "Never in the écart"), ("CK", "T21", "T1", "EX")),),
        ),
        RulePage(
            p_("rules section", "Play"),
            # french_tarot D-5: the dealer's right leads; overtrumping is compulsory.
            _(
                "The dealer's right leads the first trick, the winner of each trick the next. "
                "Follow the suit led; if you can't, you must trump, higher than any trump "
                "already played if you can; with no trump, play anything. The **Excuse** may be "
                "played at any time: it never wins and its owner keeps it. Before your first "
                "card you may show a **poignée** (10, 13 or 15 trumps at 4 players) for a bonus."
            ),
            (
                (
                    p_("rules picture", "Hearts led, then trumped and overtrumped"),
                    ("H7", "HK", "T5", "T12"),
                ),
            ),
        ),
        RulePage(
            p_("rules section", "Scoring"),
            _(
                "Bouts and Kings are worth 4½ points, Queens 3½, Knights 2½, Jacks 1½, other "
                "cards ½: 91 in all. The taker needs 56 with no bout, 51 with 1, 41 with 2, 36 "
                "with 3. The deal is worth (25 + the points above or below) × the contract, "
                "± 10 × the contract for the Petit won in the last trick, ± poignées and chelem; "
                "each defender pays it to the taker, or is paid it."
            ),
            (
                ("4½", ("T21", "SK")),
                ("3½", ("SQ",)),
                ("2½", ("SC",)),
                ("1½", ("SJ",)),
                ("½", ("S7", "T9")),
            ),
        ),
    ]
