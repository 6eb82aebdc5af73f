"""How a button or menu option names a card: the rank as its label, the suit in its ``emoji``.

Discord draws a custom emoji in a component's ``emoji`` field but never inside its label, and
its Unicode ♠ and ♣ nearly vanish on a dark-grey button (UX review 2026-11, problem 7). So a
card component carries its suit as the bot's four-colour suit emoji (Queen of Tarot's: the
Italian suits), and its label only the rank ("10", "Kn", "T21") or the card's name ("Fool",
"La Morte"). Trumps have no suit and no emoji; the Fool or Excuse is 🃏 and La Morte ☠️ in
every game, taken from the front of the game's own label for it. Where the bot's emojis are
missing (Discord refused the upload) or not allowed (``plain_suits``), the emoji is the
Unicode sign (``bot.ui.text.cards.suit_mark``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import discord

from bot.ui.text.cards import SUIT_SYMBOL, label, rank_label, suit_mark

_NONE: Mapping[str, str] = {}
_SUIT_OF_SIGN = {sign: suit for suit, sign in SUIT_SYMBOL.items()}
#: Signs Discord knows only as emoji with the emoji presentation selector (U+FE0F).
_NEEDS_SELECTOR = frozenset("♠♥♦♣☠")
_SELECTOR = "\ufe0f"
_MARKUP = re.compile(r"<(a?):(\w+):(\d+)>")


def emoji(text: str) -> discord.PartialEmoji:
    """A component emoji from a suit mark: the markup of an application emoji
    (``<:spades:123>``) or a Unicode emoji."""
    custom = _MARKUP.fullmatch(text)
    if custom is not None:
        animated, name, emoji_id = custom.groups()
        return discord.PartialEmoji(name=name, id=int(emoji_id), animated=bool(animated))
    if text in _NEEDS_SELECTOR:
        text += _SELECTOR
    return discord.PartialEmoji(name=text)


def suit_emoji(suit: str) -> discord.PartialEmoji:
    """The emoji of ``suit`` (``S H D C``) in the current pack and channel."""
    return emoji(suit_mark(suit))


def _is_word(token: str) -> bool:
    return any(ch.isalnum() for ch in token)


def card_face(
    card: str, special: Mapping[str, str] = _NONE
) -> tuple[str, discord.PartialEmoji | None]:
    """The label and emoji of a component naming ``card`` (``special``: the game's own labels
    of its honours, e.g. "🃏 Fool", "Il Bagatto ♣": their sign moves to the emoji)."""
    if card in special:
        tokens = special[card].split()
        words = " ".join(t for t in tokens if _is_word(t))
        signs = [t for t in tokens if not _is_word(t)]
        if not signs:
            return words, emoji("🃏") if card == "EX" else None
        sign = signs[0].removesuffix(_SELECTOR)
        suit = _SUIT_OF_SIGN.get(sign)
        return words, suit_emoji(suit) if suit is not None else emoji(sign)
    if card == "EX":
        return label(card), emoji("🃏")
    if card[0] == "T":
        return label(card), None
    return rank_label(card[1:]), suit_emoji(card[0])
