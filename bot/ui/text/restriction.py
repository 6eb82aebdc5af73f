"""Why a held card may not be played now, in words (the hand's line and a refused card's).

The reason is the engine's (``SeatView.info["play_restriction"]``, see
``bot.engine.restriction``); this only words it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from bot.engine.views import SeatView
from bot.i18n import _, p_
from bot.ui.text.cards import SUIT_SYMBOL, suit_mark, suit_word

_NO_WORDS: Mapping[str, str] = {}


def _suit_text(suit: str, suit_words: Mapping[str, str]) -> str:
    given = suit_words.get(suit)  # a game's own N_-marked word, translated here
    if suit == "T":
        return _(given) if given else _("trumps")
    word = _(given) if given else suit_word(suit)
    return f"{suit_mark(suit)} {word}" if suit in SUIT_SYMBOL else word


def _or_fool(view: SeatView) -> str:
    """``" (or play the Excuse)"`` when the Excuse (the Fool) is among the legal plays."""
    if not any(a.type == "play" and a.card == "EX" for a in view.legal):
        return ""
    if view.public.game_id == "french_tarot":
        return _(" (or play the Excuse)")
    if view.public.game_id == "queen_of_tarot":  # its Piedmontese deck calls it the Mat
        return p_("queen_of_tarot", " (or play the Fool)")
    return _(" (or play the Fool)")


def restriction_line(view: SeatView, suit_words: Mapping[str, str] = _NO_WORDS) -> str | None:
    """One short line saying why some card of the hand may not be played now, or ``None``
    (nothing forbidden, or not this seat's card play). The reason is the engine's
    (``SeatView.info["play_restriction"]``, see ``bot.engine.restriction``); this only words
    it. ``suit_words`` names the suits as the game does (``{"H": N_("Cups")}``…; translated
    here).
    """
    r = view.info.get("play_restriction")
    if not isinstance(r, dict):
        return None
    data = cast(dict[str, Any], r)
    code = data.get("code")
    fool = _or_fool(view)
    if code == "follow":
        suit = str(data.get("suit"))
        if suit == "T":
            return _("Trumps were led: you must play a trump{fool}.", fool=fool)
        line = _("You must follow {suit}{fool}.", suit=_suit_text(suit, suit_words), fool=fool)
        info = view.public.info
        if view.public.game_id == "la_morte" and suit == info.get("trump") and "T13" in view.hand:
            line += " " + _("La Morte counts as a trump.")  # la_morte D-10
        return line
    if code == "trump":
        led = _suit_text(str(data.get("led")), suit_words)
        return _("You have no {suit}, so you must trump{fool}.", suit=led, fool=fool)
    if code == "overtrump":
        return _("You must play a higher trump than the best one in the trick{fool}.", fool=fool)
    if code == "called_suit_first_trick":
        suit = _suit_text(str(data.get("suit")), suit_words)
        return _(
            "The called suit ({suit}) can't be led on the first trick, except the called card.",
            suit=suit,
        )
    if code == "lowest_lead":
        return _("After accepting, you must lead one of your lowest-ranked cards.")
    if code == "morte_lead":
        return _("La Morte can only be led as your last card.")
    return None
