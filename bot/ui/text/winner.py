"""The seat winning the current trick so far: the trick text's mark and the picture's gold frame.

``PublicView`` does not say who is winning an unfinished trick, and neither the text nor the
picture renderers compute rules: ``winning_seat`` asks each game's own ``trick_winner`` (in
``bot.engine.games``) about the cards on the table. Text (``render.trick_text``) and pictures
(``render_table(..., winning=...)``) both use it, so it sits in the lowest room of ``bot/ui``.
"""

from __future__ import annotations

from bot.engine.games import (
    early_french_tarot,
    french_tarot_cards,
    la_morte,
    losers_game_scoring,
    queen_of_tarot_cards,
)
from bot.engine.views import PublicView


def winning_seat(view: PublicView) -> int | None:
    """The seat whose card wins ``view.trick`` as it stands (None: no trick, a trick of the
    Excuse alone, or a game without a rule here)."""
    trick = view.trick
    if not trick or all(card == "EX" for _, card in trick):
        return None
    game = view.game_id
    seat: int | None
    if game == "la_morte":
        seat = la_morte.trick_winner(trick, view.info.get("trump"))[0]
    elif game == "early_french_tarot":
        seat = early_french_tarot.trick_winner(trick)
    elif game == "french_tarot":
        seat = french_tarot_cards.trick_winner(trick)
    elif game == "losers_game":
        trump = view.info.get("trump")
        seat = losers_game_scoring.trick_winner(trick, trump) if trump else None
    elif game == "queen_of_tarot":
        seat = queen_of_tarot_cards.trick_winner(trick)
    else:
        seat = None
    return seat if seat is not None and seat >= 0 else None
