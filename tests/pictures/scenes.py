"""Fixed table and hand situations of every game, for the golden pictures.

Written out as literal views (copied from real deals) rather than replayed through the engine,
so a change in a game's rules or in the random player does not move the goldens; only a
change in the pictures does.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.engine.actions import Action
from bot.engine.views import PublicView, SeatView

NAMES = ("Alice", "Bartholomew 🎲", "Chiara", "Dmitri", "Eleonora", "**Boss** @everyone __u__")


@dataclass(frozen=True)
class Scene:
    """One golden: a public view (table) and, for a hand golden, one seat's view."""

    name: str
    public: PublicView
    markers: tuple[str, ...] = ()
    seat: SeatView | None = None

    @property
    def game_id(self) -> str:
        return self.public.game_id

    @property
    def names(self) -> tuple[str, ...]:
        return NAMES[: self.public.players]


def _cards(codes: str) -> tuple[str, ...]:
    return tuple(codes.split())


def _plays(seat: int, *cards: str) -> tuple[Action, ...]:
    return tuple(Action("play", seat, card=c) for c in cards)


LA_MORTE = PublicView(
    game_id="la_morte",
    phase="play",
    players=4,
    dealer=0,
    to_act=2,
    hand_sizes=(6, 6, 7, 7),
    trick=((0, "D8"), (1, "DK")),
    tricks_won=(2, 0, 0, 0),
    tricks_played=2,
    last_trick=((0, "H1"), (1, "HC"), (2, "H7"), (3, "H10")),
    last_winner=0,
    info={
        "talon": "S7",
        "trump": "S",
        "statuses": ["maker", "defender", "dropper", "defender"],
        "high_bid": 8,
        "high_bidder": 0,
        "contract": 8,
        "maker": 0,
        "auto_contract": False,
        "restarted": False,
        "lowest_lead": False,
        "morto": None,
        "fuori": None,
        "auction": [[0, "bid", 8], [1, "accept", 8], [2, "drop", 8], [3, "accept", 8]],
        "set_aside": 0,
    },
)

LA_MORTE_AUCTION = PublicView(
    game_id="la_morte",
    phase="auction",
    players=4,
    dealer=0,
    to_act=2,
    hand_sizes=(9, 9, 9, 9),
    trick=(),
    tricks_won=(0, 0, 0, 0),
    tricks_played=0,
    info={
        "talon": "H8",
        "trump": "H",
        "statuses": ["undecided"] * 4,
        "high_bid": 6,
        "high_bidder": 1,
        "contract": None,
        "maker": None,
        "auto_contract": False,
        "restarted": False,
        "lowest_lead": False,
        "morto": None,
        "fuori": None,
        "auction": [[0, "bid", 3], [1, "bid", 6]],
        "set_aside": 0,
    },
)

EARLY_FRENCH_TAROT = PublicView(
    game_id="early_french_tarot",
    phase="play",
    players=4,
    dealer=0,
    to_act=1,
    hand_sizes=(9, 10, 10, 9),
    trick=((3, "T11"), (0, "T6")),
    tricks_won=(0, 0, 1, 1),
    tricks_played=2,
    last_trick=((2, "DC"), (3, "DK"), (0, "D8"), (1, "D4")),
    last_winner=3,
    info={
        "taken": [0, 0, 4, 4],
        "honours": [[], [], ["CQ", "CC", "CJ"], ["DK", "DC"]],
        "fool_owner": None,
        "fool_creditor": None,
        "exchanges": [],
        "led": "T",
        "set_aside": 30,
        "every_card_scores": False,
    },
)

FRENCH_TAROT = PublicView(
    game_id="french_tarot",
    phase="play",
    players=4,
    dealer=0,
    to_act=3,
    hand_sizes=(13, 13, 13, 14),
    trick=((2, "H1"), (1, "HQ"), (0, "HK")),
    tricks_won=(1, 0, 2, 1),
    tricks_played=4,
    last_trick=((3, "C5"), (2, "CK"), (1, "C8"), (0, "EX")),
    last_winner=2,
    info={
        "bids": [[0, "garde"], [1, "prise"], [2, "pass"], [3, "pass"]],
        "taker": 0,
        "contract": "garde",
        "called": None,
        "partner": None,
        "alone": None,
        "dog": ["CC", "CQ", "D2", "D7", "S10", "SK"],
        "dog_size": 6,
        "discarded_trumps": [],
        "chelem": False,
        "poignees": [],
        "leader": 2,
    },
)

FRENCH_TAROT_5 = PublicView(
    game_id="french_tarot",
    phase="play",
    players=5,
    dealer=0,
    to_act=3,
    hand_sizes=(12, 13, 13, 13, 12),
    trick=((0, "H4"), (4, "T7")),
    tricks_won=(1, 1, 0, 0, 0),
    tricks_played=2,
    last_trick=((1, "C3"), (0, "CQ"), (4, "C8"), (3, "CJ"), (2, "EX")),
    last_winner=0,
    info={
        "bids": [[0, "pass"], [1, "pass"], [2, "pass"], [3, "garde_contre"], [4, "garde"]],
        "taker": 3,
        "contract": "garde_contre",
        "called": "SK",
        "partner": None,
        "alone": None,
        "dog": None,
        "dog_size": 3,
        "discarded_trumps": [],
        "chelem": False,
        "poignees": [{"seat": 1, "level": 0, "cards": [f"T{i}" for i in range(2, 10)]}],
        "leader": 0,
    },
)

LOSERS_GAME = PublicView(
    game_id="losers_game",
    phase="play",
    players=5,
    dealer=0,
    to_act=3,
    hand_sizes=(6, 6, 6, 7, 7),
    trick=((0, "CK"), (1, "CQ"), (2, "C5")),
    tricks_won=(1, 0, 1, 0, 1),
    tricks_played=3,
    info={
        "totals": [0, 0, 0, 0, 0],
        "hand_size": 10,
        "caller": 1,
        "excess": ["S5", "S7"],
        "trump": "D",
        "b_max": 118,
        "bids": [[2, 109], [3, 57], [4, 20], [0, 96], [1, 51]],
        "leader": 0,
        "piles": None,
    },
)

_QOT_BARGAIN_INFO = {
    "roles": {"dealer": 0, "eldest": 2, "middle": 1},
    "packets": 2,
    "max_bargain": 43,
    "bargain": {
        "session": 1,
        "positions": [
            {"position": "none", "amount": None, "last": None},
            {"position": "demand", "amount": 1, "last": {"call": "demand", "amount": 1}},
            {"position": "offer", "amount": 7, "last": {"call": "offer", "amount": 7}},
        ],
        "demanded": 1,
        "offered": 7,
        "passes": 0,
        "to_speak": 0,
        "ranges": {"demand": [1, 43], "offer": [1, 43]},
        "calls": [
            {"session": 1, "seat": 2, "call": "offer", "amount": 7},
            {"session": 1, "seat": 1, "call": "demand", "amount": 1},
        ],
        "sessions": [],
    },
    "settlement": None,
    "discarded": False,
    "declarations": [],
    "declaration_deltas": [0, 0, 0],
    "fool": {"played_by": None, "debtor": None, "creditor": None},
    "exchanges": [],
    "taken": [0, 0, 0],
    "led": None,
}

QUEEN_OF_TAROT_BARGAIN = PublicView(
    game_id="queen_of_tarot",
    phase="bargain",
    players=3,
    dealer=0,
    to_act=0,
    hand_sizes=(10, 10, 10),
    trick=(),
    tricks_won=(0, 0, 0),
    tricks_played=0,
    info=_QOT_BARGAIN_INFO,
)

QUEEN_OF_TAROT = PublicView(
    game_id="queen_of_tarot",
    phase="play",
    players=3,
    dealer=0,
    to_act=0,
    hand_sizes=(23, 22, 22),
    trick=((2, "H9"), (1, "HQ")),
    tricks_won=(0, 0, 2),
    tricks_played=2,
    last_trick=((2, "T13"), (1, "T7"), (0, "T4")),
    last_winner=2,
    info={
        **_QOT_BARGAIN_INFO,
        "bargain": {**_QOT_BARGAIN_INFO["bargain"], "session": None, "to_speak": None},
        "packets": 5,
        "discarded": True,
        "declarations": [
            {"seat": 2, "bonuses": ["kings"], "value": 3, "cards": ["SK", "HK", "CK"], "parts": []},
            {"seat": 1, "bonuses": [], "value": 0, "cards": [], "parts": []},
            {"seat": 0, "bonuses": [], "value": 0, "cards": [], "parts": []},
        ],
        "fool": {"played_by": 1, "debtor": 1, "creditor": 2},
        "taken": [3, 0, 6],
        "led": "H",
    },
)


# ---- more situations (issue 30): the trick just won, a phase without trick, other counts ----

FRENCH_TAROT_WON = dataclasses.replace(
    FRENCH_TAROT,
    to_act=0,
    hand_sizes=(12, 12, 12, 13),
    trick=(),
    tricks_won=(2, 0, 2, 1),
    tricks_played=5,
    last_trick=((2, "H1"), (1, "HQ"), (0, "HK"), (3, "H5")),
    last_winner=0,
)

FRENCH_TAROT_3_DISCARD = PublicView(
    game_id="french_tarot",
    phase="discard",
    players=3,
    dealer=2,
    to_act=0,
    hand_sizes=(30, 24, 24),
    trick=(),
    tricks_won=(0, 0, 0),
    tricks_played=0,
    info={
        "bids": [[0, "garde"], [1, "pass"], [2, "pass"]],
        "taker": 0,
        "contract": "garde",
        "called": None,
        "partner": None,
        "alone": None,
        "dog": ["S3", "H10", "DC", "T14", "C1", "D9"],
        "dog_size": 6,
        "discarded_trumps": [],
        "chelem": False,
        "poignees": [],
        "leader": 0,
    },
)

EARLY_FRENCH_TAROT_6 = PublicView(
    game_id="early_french_tarot",
    phase="play",
    players=6,
    dealer=5,
    to_act=4,
    hand_sizes=(10, 10, 10, 10, 11, 11),
    trick=((0, "C7"), (1, "CK"), (2, "T3"), (3, "C2")),
    tricks_won=(1, 0, 1, 0, 0, 0),
    tricks_played=2,
    last_trick=((4, "S4"), (5, "SQ"), (0, "T9"), (1, "S1"), (2, "S8"), (3, "S6")),
    last_winner=0,
    info={"taken": [6, 0, 6, 0, 0, 0], "led": "C", "set_aside": 6},
)

SCENES: tuple[Scene, ...] = (
    Scene(
        "la_morte",
        LA_MORTE,
        markers=("", "", "computer", ""),
        seat=SeatView(
            seat=2,
            hand=("SK", "SC", "S10", "S8", "HJ", "DQ", "T13"),
            legal=_plays(2, "DQ"),
            public=LA_MORTE,
            info={"dead": False},
        ),
    ),
    Scene("la_morte_auction", LA_MORTE_AUCTION),
    Scene(
        "early_french_tarot",
        EARLY_FRENCH_TAROT,
        seat=SeatView(
            seat=1,
            hand=("S10", "H8", "H6", "C9", "C6", "C4", "T21", "T13", "T12", "T4"),
            legal=_plays(1, "T12", "T21", "T13", "T4"),
            public=EARLY_FRENCH_TAROT,
        ),
    ),
    Scene(
        "french_tarot",
        FRENCH_TAROT,
        seat=SeatView(
            seat=3,
            hand=_cards("SQ S1 HC H5 H4 H2 CJ C6 C2 DK T20 T10 T9 T2"),
            legal=_plays(3, "HC", "H5", "H4", "H2"),
            public=FRENCH_TAROT,
        ),
    ),
    Scene("french_tarot_5", FRENCH_TAROT_5, markers=("", "away", "", "", "")),
    Scene(
        "losers_game",
        LOSERS_GAME,
        seat=SeatView(
            seat=3,
            hand=("DQ", "DJ", "D2", "SJ", "S9", "S2", "C9"),
            legal=_plays(3, "C9"),
            public=LOSERS_GAME,
        ),
    ),
    Scene(
        "queen_of_tarot",
        QUEEN_OF_TAROT,
        seat=SeatView(
            seat=0,
            hand=_cards("T20 T17 T5 T3 T2 T1 SK S10 S9 S8 S1 HK HJ H2 H4 H8 C6 C5 C3 C1 D1 D5 EX"),
            legal=_plays(0, "H8", "HK", "HJ", "H2", "H4", "EX"),
            public=QUEEN_OF_TAROT,
            info={"discard": ["D9", "S5", "T8"]},
        ),
    ),
    Scene(
        "queen_of_tarot_bargain",
        QUEEN_OF_TAROT_BARGAIN,
        seat=SeatView(
            seat=0,
            hand=("T14", "T8", "T6", "S10", "S8", "H9", "H10", "CQ", "C1", "EX"),
            legal=(Action("pass", 0), Action("continue", 0), Action("demand", 0, amount=1)),
            public=QUEEN_OF_TAROT_BARGAIN,
        ),
    ),
    Scene(
        "french_tarot_won",
        FRENCH_TAROT_WON,
        seat=SeatView(
            seat=0,
            hand=_cards("S9 S4 H3 D10 D8 D5 C10 C4 T18 T16 T11 T3"),
            legal=_plays(
                0, "S9", "S4", "H3", "D10", "D8", "D5", "C10", "C4", "T18", "T16", "T11", "T3"
            ),
            public=FRENCH_TAROT_WON,
        ),
    ),
    Scene(
        "french_tarot_3_discard",
        FRENCH_TAROT_3_DISCARD,
        seat=SeatView(
            seat=0,
            hand=_cards(
                "S3 SK SQ S9 S5 H10 H9 H7 H4 H1 DC DJ D9 D6 D2 C1 CQ C8 C3 "
                "T21 T19 T14 T12 T10 T8 T7 T5 T2 T1 EX"
            ),
            legal=(
                Action(
                    "discard",
                    0,
                    cards=_cards("S3 SQ S9 S5 H10 H9 H7 H4 H1 DC DJ D9 D6 D2 C1 CQ C8 C3"),
                    amount=6,
                ),
            ),
            public=FRENCH_TAROT_3_DISCARD,
        ),
    ),
    Scene("early_french_tarot_6", EARLY_FRENCH_TAROT_6, markers=("", "", "away", "", "", "")),
)
