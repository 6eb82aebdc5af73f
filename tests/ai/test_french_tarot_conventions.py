"""French Tarot partners follow the usual FFT conventions (issue 33), each from a concrete hand:
the chasse au Petit and the called suit as a signal here; never overtaking a partner's trick
that stands is in ``test_french_tarot_ai`` (``test_does_not_overtrump_a_known_partners_…``,
``test_charges_a_king_on_the_partners_sure_trick``).

The casual card play implements them (``bot/ai/french_tarot_play.py``); the expert keeps the
casual card unless its search shows a clear gain (``bot.ai.expert.MARGIN``)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai import french_tarot
from bot.engine.actions import Action
from bot.engine.cards import TAROT_PACK
from bot.engine.games.french_tarot import RULES, FrenchTarotState
from bot.engine.trick import Play
from tests.ai.test_french_tarot_ai import _state  # pyright: ignore[reportPrivateUsage]

#: A finished first trick (Spades all round) so that play is under way.
FIRST: tuple[tuple[Play, ...], ...] = (((1, "S1"), (2, "S2"), (3, "S3"), (0, "S4")),)


def _others(count: int, size: int, skip: Sequence[str]) -> list[tuple[str, ...]]:
    """The other seats' hands from the cards nobody else holds (their content is not read)."""
    pool = [c for c in TAROT_PACK if c not in skip]
    return [tuple(pool[size * i : size * (i + 1)]) for i in range(count)]


def _choose(state: FrenchTarotState) -> Action:
    seat = RULES.to_act(state)
    assert seat is not None
    action = french_tarot.choose(RULES.observe(state, seat), random.Random(0))
    RULES.apply(state, action)  # legal
    return action


# ---- chasse au Petit -------------------------------------------------------------------------

#: A defender long in trumps (eight, the 21 among them) with the lead; the Petit is out.
HUNTER = ("T21", "T19", "T17", "T14", "T11", "T9", "T6", "T3", "H2", "H5", "D7", "D9", "C4", "C8")


def test_a_defender_long_in_trumps_hunts_the_petit_with_a_strong_trump() -> None:
    # 4 players, taker seat 2; seat 0 defends and leads trick 2. With eight trumps it leads
    # the strongest one but the 21 (kept to catch the Petit): the taker, short, must follow.
    hands = [HUNTER, *_others(3, 14, HUNTER + ("S1", "S2", "S3", "S4"))]
    state = _state(4, hands, taker=2, contract="garde", tricks=FIRST, leader=0, turn=0)
    assert _choose(state).card == "T19"


def test_no_hunt_once_the_petit_is_seen() -> None:
    # The same hand, but the Petit fell in the first trick: no reason to pull trumps, the
    # defender leads a plain card.
    first: tuple[tuple[Play, ...], ...] = (((1, "S1"), (2, "T1"), (3, "S3"), (0, "S4")),)
    hands = [HUNTER, *_others(3, 14, HUNTER + ("S1", "T1", "S3", "S4"))]
    state = _state(4, hands, taker=2, contract="garde", tricks=first, leader=0, turn=0)
    card = _choose(state).card or ""
    assert not card.startswith("T")


def test_no_hunt_with_a_short_trump_suit() -> None:
    # Five trumps are not a hunting hand at 4 players: the defender leads a plain suit.
    hand = ("T21", "T19", "T14", "T9", "T3", "H2", "H5", "H8", "D7", "D9", "C4", "C8", "C9", "SK")
    hands = [hand, *_others(3, 14, hand + ("S1", "S2", "S3", "S4"))]
    state = _state(4, hands, taker=2, contract="garde", tricks=FIRST, leader=0, turn=0)
    card = _choose(state).card or ""
    assert not card.startswith("T")


def test_a_hunt_leads_the_21_only_when_no_other_trump_is_left() -> None:
    # The hunt never throws away the 21 while a lesser trump can do the work; the hand below
    # still hunts with its strongest lesser trump, the 16.
    hand = ("T21", "T16", "T13", "T10", "T8", "T7", "T5", "T2", "H2", "H5", "D7", "D9", "C4", "C8")
    hands = [hand, *_others(3, 14, hand + ("S1", "S2", "S3", "S4"))]
    state = _state(4, hands, taker=2, contract="garde", tricks=FIRST, leader=0, turn=0)
    assert _choose(state).card == "T16"


# ---- a partner's master card; the called suit ------------------------------------------------


def test_the_called_kings_holder_shows_itself_by_leading_it() -> None:
    # 5 players: seat 0 holds the called Diamond King and has the lead; camps are hidden, so it
    # leads the King to show the taker where its partner sits.
    hand = ("DK", "D3", "T15", "T7", "S5", "S8", "H4", "H9", "C3", "C6", "CQ", "T2", "S10", "H7")
    first: tuple[tuple[Play, ...], ...] = (((1, "S1"), (2, "S2"), (3, "S3"), (4, "S4"), (0, "S7")),)
    rest = _others(4, 14, hand + ("S1", "S2", "S3", "S4", "S7"))
    state = _state(
        5, [hand, *rest], taker=2, contract="prise", called="DK", tricks=first, leader=0, turn=0
    )
    assert _choose(state).card == "DK"
