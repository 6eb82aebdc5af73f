"""Issue 18's silly casual plays, each rebuilt from the situation quoted in the issue.

Views are built by hand (``SeatView``/``PublicView`` are the engine's public contract), so
these tests do not depend on any game's internal state layout.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.ai import early_french_tarot, french_tarot, la_morte, losers_game, queen_of_tarot
from bot.engine.actions import Action
from bot.engine.trick import Play
from bot.engine.views import PublicView, SeatView


def cards(text: str) -> list[str]:
    """``"SK T21 EX"`` → ``["SK", "T21", "EX"]``: hands read as the issue quotes them."""
    return text.split(" ")


def view(
    game: str,
    seat: int,
    hand: Sequence[str],
    legal: Sequence[Action],
    *,
    players: int = 4,
    phase: str = "play",
    trick: Sequence[Play] = (),
    history: Sequence[Action] = (),
    tricks_played: int = 0,
    info: dict[str, Any] | None = None,
    dealer: int = 0,
) -> SeatView:
    public = PublicView(
        game_id=game,
        phase=phase,
        players=players,
        dealer=dealer,
        to_act=seat,
        hand_sizes=(len(hand),) * players,
        trick=tuple(trick),
        tricks_won=(0,) * players,
        tricks_played=tricks_played,
        info=info or {},
        history=tuple(history),
    )
    return SeatView(seat=seat, hand=tuple(hand), legal=tuple(legal), public=public)


def plays(seat: int, cards: Sequence[str]) -> list[Action]:
    return [Action("play", seat, card=c) for c in cards]


def played(tricks: Sequence[Sequence[Play]]) -> list[Action]:
    return [Action("play", s, card=c) for trick in tricks for s, c in trick]


# ---- French Tarot: bidding ----------------------------------------------------------------

ISSUE_HAND = cards("SK SC SJ S8 S6 S3 S2 S1 HQ DK D6 D5 D4 T21 T20 T18 T7 T4")
CONTRACTS = ("pass", "prise", "garde", "garde_sans", "garde_contre")


def _bid(hand: Sequence[str], players: int = 4) -> str | None:
    legal = [Action("bid", 0, contract=c) for c in CONTRACTS]
    v = view("french_tarot", 0, hand, legal, players=players, phase="bidding")
    return french_tarot.choose(v, random.Random(0)).contract


def test_long_plain_suits_and_kings_are_not_a_garde_sans() -> None:
    # The issue's hand: five trumps, eight Spades, two Kings. It was bid Garde sans.
    assert _bid(ISSUE_HAND) == "pass"


def test_no_garde_on_three_trumps() -> None:
    # Three trumps (two bouts among them), four Kings, three Queens: strong-looking, but a
    # Garde needs trump length.
    hand = cards("T21 T1 T15 EX SK SQ HK HQ DK DQ CK C9 C8 C7 S5 S4 H3 D2")
    assert _bid(hand) in ("pass", "prise")


def test_a_real_garde_sans_is_still_bid() -> None:
    hand = cards("T21 T1 EX T20 T19 T18 T17 T16 T14 T12 T9 SK SQ HK DK C3 C4 H2")
    assert _bid(hand) in ("garde_sans", "garde_contre")


def test_a_fair_hand_takes_and_a_good_one_guards() -> None:
    fair = cards("T21 T17 T14 T11 T8 T6 T3 SK SQ S4 HC H5 H2 DK D7 D3 C9 C5")
    good = cards("T21 T1 T19 T17 T16 T13 T10 T8 T5 T2 SK SQ H9 H4 D9 D2 C5 C3")
    assert _bid(fair) == "prise"
    assert _bid(good) == "garde"


# ---- French Tarot: card memory for the Petit ----------------------------------------------


def test_the_petit_is_led_once_the_opponents_are_out_of_trumps() -> None:
    # 4 players, the taker (seat 0) holds the Petit, a 10 and plain cards. Earlier tricks
    # show every defender failing to follow a trump lead: nobody can take the Petit now.
    earlier = [
        ((0, "T19"), (3, "H2"), (2, "D3"), (1, "S4")),
        ((0, "T18"), (3, "H3"), (2, "D4"), (1, "S5")),
    ]
    hand = ["T1", "T10", "C5", "C7"]
    info = {"taker": 0, "contract": "garde"}
    v = view("french_tarot", 0, hand, plays(0, hand), info=info, history=played(earlier))
    assert french_tarot.choose(v, random.Random(0)).card == "T1"


def test_without_that_knowledge_the_petit_is_not_led() -> None:
    hand = ["T1", "T10", "C5", "C7"]
    info = {"taker": 0, "contract": "garde"}
    v = view("french_tarot", 0, hand, plays(0, hand), info=info)
    assert french_tarot.choose(v, random.Random(0)).card != "T1"


def test_the_petit_is_charged_into_a_friends_trick_no_trump_out_can_beat() -> None:
    # Defender seat 0 (taker 2) holds the Petit and the 5; defender seat 1 leads the 16 of
    # trumps... the 17-21 were all played earlier, so the 16 stands: give the Petit to it.
    earlier = [
        ((1, "T21"), (0, "T2"), (3, "T3"), (2, "T17")),
        ((1, "T20"), (0, "T4"), (3, "T6"), (2, "T18")),
        ((1, "T19"), (0, "T7"), (3, "T8"), (2, "S2")),
    ]
    hand = ["T1", "T5", "D4", "D6"]
    trick: tuple[Play, ...] = ((1, "T16"),)
    info = {"taker": 2, "contract": "garde"}
    v = view(
        "french_tarot",
        0,
        hand,
        plays(0, ["T1", "T5"]),
        info=info,
        trick=trick,
        history=[*played(earlier), Action("play", 1, card="T16")],
        tricks_played=3,
    )
    # play goes counter-clockwise: after seat 0 come seats 3 (a friend) and 2 (the taker)
    assert french_tarot.choose(v, random.Random(0)).card == "T1"


def test_a_short_petit_trumps_the_first_round_of_a_suit() -> None:
    # The taker (seat 0, 4 players) is void in Hearts with the Petit and one other trump,
    # second to play on the first Hearts lead: both players after it most likely follow suit.
    hand = ["T1", "T9", "S3", "S4", "S6", "D2", "D5", "DK", "C2", "C3", "C6", "CK"]
    trick: tuple[Play, ...] = ((1, "H5"),)
    info = {"taker": 0, "contract": "prise"}
    v = view(
        "french_tarot",
        0,
        hand,
        plays(0, ["T1", "T9"]),
        info=info,
        trick=trick,
        history=[Action("play", 1, card="H5")],
        tricks_played=6,
    )
    assert french_tarot.choose(v, random.Random(0)).card == "T1"


# ---- La Morte: never strand La Morte --------------------------------------------------------


def _lm_info(statuses: list[str], maker: int) -> dict[str, Any]:
    return {
        "talon": "H7",
        "trump": "H",
        "statuses": statuses,
        "high_bid": 3,
        "contract": 3,
        "maker": maker,
        "morto": None,
        "fuori": None,
    }


def test_la_morte_is_shed_when_void_instead_of_trumping() -> None:
    # The issue's situation: a defender void in the led suit holds La Morte and trumps; the
    # trick is a fellow defender's. It trumped (and was later stranded with La Morte).
    statuses = ["defender", "defender", "maker", "defender"]
    hand = ["CQ", "T13", "HJ", "HK", "H10"]
    trick: tuple[Play, ...] = ((0, "S7"), (1, "SK"), (2, "S8"))
    v = view(
        "la_morte",
        3,
        hand,
        plays(3, hand),
        info=_lm_info(statuses, 2),
        trick=trick,
        tricks_played=4,
    )
    assert la_morte.choose(v, random.Random(0)).card == "T13"


def test_la_morte_holder_empties_its_shortest_suit() -> None:
    statuses = ["maker", "defender", "defender", "defender"]
    hand = ["T13", "S9", "D8", "D10", "DC"]
    v = view("la_morte", 0, hand, plays(0, ["S9", "D8", "D10", "DC"]), info=_lm_info(statuses, 0))
    assert la_morte.choose(v, random.Random(0)).card == "S9"


# ---- Early French Tarot ----------------------------------------------------------------------


def test_a_master_king_captures_a_cavalier_after_trick_four() -> None:
    # Trick 6 of a 4-player hand: Cups led with the Cavalier; seat 2 holds the King of Cups.
    hand = ["HK", "H3", "S5", "T7", "D2", "C4", "C8"]
    trick: tuple[Play, ...] = ((0, "HC"), (1, "H6"))
    v = view("early_french_tarot", 2, hand, plays(2, ["HK", "H3"]), trick=trick, tricks_played=5)
    assert early_french_tarot.choose(v, random.Random(0)).card == "HK"


def test_overtrumps_with_the_lowest_trump_that_wins() -> None:
    # A King led and followed; void, seat 2 wins with the II as well as with the XX.
    hand = ["T2", "T20", "S5", "D2"]
    trick: tuple[Play, ...] = ((0, "CK"), (1, "C5"))
    v = view("early_french_tarot", 2, hand, plays(2, ["T2", "T20"]), trick=trick, tricks_played=8)
    assert early_french_tarot.choose(v, random.Random(0)).card == "T2"


def test_last_to_play_brings_the_magician_home() -> None:
    hand = ["T1", "T12", "S5"]
    trick: tuple[Play, ...] = ((3, "C3"), (0, "C5"), (1, "C9"))
    v = view("early_french_tarot", 2, hand, plays(2, ["T1", "T12"]), trick=trick, tricks_played=9)
    assert early_french_tarot.choose(v, random.Random(0)).card == "T1"


# ---- Loser's Game: play for the seat's own bid ----------------------------------------------


def _lg_view(bid: int) -> SeatView:
    # 4 players, Spades trump. Seat 0 bid ``bid`` and took one trick holding a trump (1
    # point). Three cards left: the 6 of trumps and two 3s (a pair: 3s are worth collecting).
    # Seat 3 leads the 3 of Hearts, which seat 0 lacks: the 6 wins it for now, but two
    # players are still to come and may trump higher.
    won = [(0, "S9"), (1, "H2"), (2, "H4"), (3, "H6")]
    info = {"trump": "S", "bids": [[1, 2], [2, 0], [3, 4], [0, bid]], "b_max": 130}
    hand = ["S6", "D3", "C3"]
    return view(
        "losers_game",
        0,
        hand,
        plays(0, hand),
        info=info,
        trick=((3, "H3"),),
        history=[*played([won]), Action("play", 3, card="H3")],
        tricks_played=10,
    )


def test_a_seat_short_of_its_bid_takes_its_chance_in_the_last_tricks() -> None:
    assert losers_game.choose(_lg_view(bid=3), random.Random(0)).card == "S6"


def test_a_seat_that_made_its_bid_keeps_its_trump() -> None:
    assert losers_game.choose(_lg_view(bid=1), random.Random(0)).card != "S6"


# ---- Queen of Tarot --------------------------------------------------------------------------


def _bargain_view(hand: Sequence[str]) -> SeatView:
    bargain = {
        "session": 1,
        "positions": [{"position": "none", "amount": None, "last": None}] * 3,
        "demanded": 0,
        "offered": 0,
        "passes": 0,
        "to_speak": 2,
        "ranges": {"demand": [1, 43], "offer": [1, 43]},
    }
    legal = [Action("pass", 2), Action("continue", 2)]
    legal += [Action(k, 2, amount=x) for k in ("demand", "offer") for x in range(1, 44)]
    info = {"roles": {"dealer": 0, "eldest": 2, "middle": 1}, "bargain": bargain}
    return view("queen_of_tarot", 2, hand, legal, players=3, phase="bargain", info=info)


def test_a_hopeless_hand_pays_a_little_to_escape() -> None:
    hand = cards("S2 S3 S4 H10 H9 C2 C3 D10 D9 D8")  # no trump, no court card
    action = queen_of_tarot.choose(_bargain_view(hand), random.Random(0))
    assert action.type == "offer" and action.amount is not None and 1 <= action.amount <= 10


def test_a_strong_hand_plays_on() -> None:
    hand = cards("T20 T21 T19 T18 T17 SK HK T1 T15 EX")
    assert queen_of_tarot.choose(_bargain_view(hand), random.Random(0)).type == "continue"


def test_the_angel_is_not_led_to_draw_trumps() -> None:
    hand = cards("T20 T19 T17 T15 T12 T9 T6 SK S4 H3 C5")
    v = view("queen_of_tarot", 2, hand, plays(2, hand), players=3, tricks_played=4)
    assert queen_of_tarot.choose(v, random.Random(0)).card != "T20"


def test_the_angel_waits_for_points() -> None:
    # Trumps led, two empty trumps in the trick: the Angel would win them, but is kept for
    # a trick with points (nothing can ever take it).
    hand = cards("T20 T3 S4 H3")
    trick: tuple[Play, ...] = ((1, "T8"), (0, "T5"))
    v = view("queen_of_tarot", 2, hand, plays(2, ["T20", "T3"]), players=3, trick=trick)
    assert queen_of_tarot.choose(v, random.Random(0)).card == "T3"


def test_the_angel_takes_a_king() -> None:
    hand = cards("T20 T3 S4 D3")
    trick: tuple[Play, ...] = ((1, "HK"),)
    v = view("queen_of_tarot", 2, hand, plays(2, ["T20", "T3"]), players=3, trick=trick)
    # the XX is the one trump nobody can beat (seat 0 is still to play and may trump)
    assert queen_of_tarot.choose(v, random.Random(0)).card == "T20"
