"""How cards look in Discord text: short labels with suit symbols, and select options."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from bot.engine.cards import EXCUSE, roman, trump_number
from bot.i18n import N_, Words, _, p_

#: Unicode suit signs: what buttons, select options and embed titles show (Discord draws no
#: custom emoji there), and the text's signs until the bot's own suit emojis are installed.
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: The Italian suits' Unicode stand-ins (Swords, Cups, Coins, Batons), for Queen of Tarot's
#: pack where the bot's own Italian suit emojis are not installed or not allowed: the French
#: signs would contradict the cards, which show swords, cups, coins and batons.
ITALIAN_SYMBOL = {"S": "⚔️", "H": "🏆", "D": "🪙", "C": "🪵"}
_SUIT_WORD = {"S": N_("Spades"), "H": N_("Hearts"), "D": N_("Diamonds"), "C": N_("Clubs")}
# One-letter (or two) rank labels, told apart from other short words by their context:
# French and Italian use their own letters (R for a King, D for a Queen…).
_RANK_LABEL: dict[str, Callable[[], str]] = {
    "1": lambda: p_("rank", "A"),
    "A": lambda: p_("rank", "A"),
    "C": lambda: p_("rank", "Kn"),
    "J": lambda: p_("rank", "J"),
    "Q": lambda: p_("rank", "Q"),
    "K": lambda: p_("rank", "K"),
}
_RANK_WORD = {
    "1": N_("Ace"),
    "A": N_("Ace"),
    "J": N_("Jack"),
    "C": N_("Knight"),
    "Q": N_("Queen"),
    "K": N_("King"),
}


def suit_word(suit: str) -> str:
    """A suit's name ("Spades") in the current language, as the game being drawn names it
    (Queen of Tarot's "Coins")."""
    words = _PACK.get().words
    return words[suit] if suit in words else _(_SUIT_WORD[suit])


#: ``SUIT_WORD[suit]``: the suit's name in the current language, read when used.
SUIT_WORD: Mapping[str, str] = Words(_SUIT_WORD)


def rank_label(rank: str) -> str:
    """A rank's short label in the current language ("K", or "R" in French)."""
    short = _RANK_LABEL.get(rank)
    return rank if short is None else short()


_NONE: Mapping[str, str] = {}

# The suit signs of message text: Unicode, or the bot's four-colour application emojis
# (``<:spades:123>``) once ``bot.ui.delivery.suit_emojis`` has installed them. One table per
# process: one process is one Discord application.
_TEXT_SUIT: dict[str, str] = dict(SUIT_SYMBOL)
_TEXT_ITALIAN: dict[str, str] = dict(ITALIAN_SYMBOL)
# True while drawing for a channel where the bot may not use its emojis (no Use External
# Emojis there): Discord would show ":spades:" as words, so the Unicode signs stand in.
_PLAIN: ContextVar[bool] = ContextVar("plain_suits", default=False)


@dataclass(frozen=True, slots=True)
class Pack:
    """How the game being drawn signs and names its suits: Italian signs (Queen of Tarot's
    Piedmontese pack), and the game's own suit names (``words``, read when used)."""

    italian: bool = False
    words: Mapping[str, str] = field(default_factory=dict[str, str])


FRENCH_PACK = Pack()
_PACK: ContextVar[Pack] = ContextVar("suit_pack", default=FRENCH_PACK)


def set_suit_marks(
    marks: Mapping[str, str] | None = None, italian: Mapping[str, str] | None = None
) -> None:
    """Use ``marks`` (suit code → emoji markup) as the text's suit signs, and ``italian`` as
    the Italian pack's; None: the Unicode signs."""
    _TEXT_SUIT.clear()
    _TEXT_SUIT.update(SUIT_SYMBOL)
    if marks:
        _TEXT_SUIT.update({suit: mark for suit, mark in marks.items() if suit in SUIT_SYMBOL})
    _TEXT_ITALIAN.clear()
    _TEXT_ITALIAN.update(ITALIAN_SYMBOL)
    if italian:
        _TEXT_ITALIAN.update({s: mark for s, mark in italian.items() if s in ITALIAN_SYMBOL})


def suit_emojis_on() -> bool:
    """Text shows the bot's suit emojis (they are installed)."""
    return _TEXT_SUIT != SUIT_SYMBOL


@contextmanager
def plain_suits(plain: bool = True) -> Iterator[None]:
    """Text drawn inside (if ``plain``) shows the Unicode suit signs, not the bot's emojis."""
    token = _PLAIN.set(plain)
    try:
        yield
    finally:
        _PLAIN.reset(token)


@contextmanager
def pack_suits(pack: Pack) -> Iterator[None]:
    """Cards drawn inside show ``pack``'s suit signs and names (``bot.ui.text.locale`` sets
    it with the language, from the table's game)."""
    token = _PACK.set(pack)
    try:
        yield
    finally:
        _PACK.reset(token)


def plain_sign(suit: str) -> str:
    """The Unicode sign of ``suit`` in the current pack: for text Discord shows no custom emoji
    in (a menu's placeholder)."""
    return (ITALIAN_SYMBOL if _PACK.get().italian else SUIT_SYMBOL)[suit]


def suit_mark(suit: str) -> str:
    """The sign of ``suit`` in message text (an emoji's markup when installed, unless inside
    ``plain_suits``), in the current pack's signs; also what a component's ``emoji`` field
    shows (``bot.ui.components.faces``)."""
    italian = _PACK.get().italian
    if _PLAIN.get():
        return (ITALIAN_SYMBOL if italian else SUIT_SYMBOL)[suit]
    return (_TEXT_ITALIAN if italian else _TEXT_SUIT)[suit]


_GROUP_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3, "T": 4}
_FACE_RANK = {"J": 11, "C": 12, "Q": 13, "K": 14, "A": 15}


def card_key(card: str) -> tuple[int, int]:
    """Numeric display order for card lists a game does not order itself: ♠ ♥ ♣ ♦, trumps,
    the Excuse, each highest first — trumps by number (``T21 T19 … T9 T2``, never the text
    order ``T19 T2 T21``), a tarot pack's 1 low and a French pack's Ace high."""
    if card == "EX":
        return (5, 0)
    rank = card[1:]
    value = int(rank) if rank.isdigit() else _FACE_RANK.get(rank, 0)
    return (_GROUP_ORDER.get(card[0], 6), -value)


def sort_cards(cards: Iterable[str], key: Callable[[str], Any] = card_key) -> list[str]:
    """``cards`` in display order (``key``: a game's own order, e.g. its rules' sort key)."""
    return sorted(cards, key=key)


def in_hand_order(cards: Iterable[str], hand: Iterable[str]) -> list[str]:
    """``cards`` in the order ``hand`` shows them (its display order), others after by
    :func:`card_key` — so a play menu lists the cards as the hand line does."""
    place = {c: i for i, c in enumerate(hand)}
    return sorted(cards, key=lambda c: (place.get(c, len(place)), card_key(c)))


def label(card: str, special: Mapping[str, str] = _NONE, *, plain: bool = False) -> str:
    """Compact label, e.g. ``"A♠"``, ``"10♥"``, ``"Kn♦"``, ``"T13"`` (``special`` overrides).

    The suit sign is the text's (:func:`suit_mark`); ``plain`` keeps the Unicode sign, for
    text where Discord shows no custom emoji (an autocomplete choice).
    """
    if card in special:
        return special[card]
    if card == "EX":
        return _("Excuse")
    if card[0] == "T":
        return f"T{card[1:]}"
    sign = plain_sign(card[0]) if plain else suit_mark(card[0])
    return f"{rank_label(card[1:])}{sign}"


def long_name(card: str, special: Mapping[str, str] = _NONE) -> str:
    """Full name for select options and confirmations (``special`` overrides, translated)."""
    if card in special:
        return _(special[card])
    if card == EXCUSE:
        return _("the Excuse")
    if card[0] == "T":
        return _("Trump {numeral}", numeral=roman(trump_number(card)))
    rank = card[1:]
    word = _RANK_WORD.get(rank)
    suit = suit_word(card[0])
    if word is None:
        return _("{rank} of {suit}", rank=rank, suit=suit)
    return _("{rank} of {suit}", rank=_(word), suit=suit)


#: What separates cards in every list of cards (hands, dogs, discards, poignées…): labels
#: such as "T21 World" or "☠ La Morte" hold spaces, so a space alone would read as two cards.
CARD_SEP = " · "


def card_list(cards: Iterable[str], special: Mapping[str, str] = _NONE) -> str:
    """Card labels separated by :data:`CARD_SEP` (``"K♠ · T21 World · 7♥"``), or an em dash
    for none — the one way cards are listed in text."""
    shown = [label(c, special) for c in cards]
    return CARD_SEP.join(shown) if shown else "—"


def labels(cards: tuple[str, ...] | list[str], special: Mapping[str, str] = _NONE) -> str:
    """The same as :func:`card_list` (kept for existing callers)."""
    return card_list(cards, special)
