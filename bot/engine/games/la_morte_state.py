"""La Morte's state and the lookup tables of its fast core: the card codes, ranks and suits,
``LaMorteState`` (a NamedTuple in its JSON form) with its field positions, and everything per
card or per decision that does not depend on the deal, built once — the ``Action`` of each
seat's every card and bid, the ``card_played`` events, follow sets and trick-taking strength
per trump and led card.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from bot.engine.actions import Action
from bot.engine.events import Event
from bot.engine.games.hot_paths import frozen, play_tables
from bot.engine.trick import Play

LA_MORTE = "T13"
BAGATTO = "T1"
TRICKS = 9
MAX_BID = 9
MAX_PLAYERS = 5

SUIT_ORDER = ("S", "H", "D", "C")  # la_morte D-15: timeout ties broken ♠♥♦♣
_RANKS_4P = ("1", "K", "Q", "C", "J", "10", "9", "8", "7")
_RANKS_5P = (*_RANKS_4P, "6", "5")
_RANK_VALUE = {
    "1": 11,
    "K": 10,
    "Q": 9,
    "C": 8,
    "J": 7,
    "10": 6,
    "9": 5,
    "8": 4,
    "7": 3,
    "6": 2,
    "5": 1,
}

#: Rank index per card code (§1.2); Il Bagatto is the highest club (D-11). No entry for La Morte.
RANK: dict[str, int] = {s + r: v for s in SUIT_ORDER for r, v in _RANK_VALUE.items()}
RANK[BAGATTO] = 12
#: Suit per card code for following and trumping; Il Bagatto is a club (D-11).
SUIT: dict[str, str] = {c: c[0] for c in RANK}
SUIT[BAGATTO] = "C"


class Phase(StrEnum):
    AUCTION = "auction"
    DEALER_OPTION = "dealer_option"
    PLAY = "play"
    SCORED = "scored"
    MUCKED = "mucked"


class Status(StrEnum):
    UNDECIDED = "undecided"
    MAKER = "maker"
    DEFENDER = "defender"
    DROPPER = "dropper"


class LaMorteState(NamedTuple):
    """One La Morte deal. Immutable; ``LaMorteRules.apply`` returns a new one.

    A NamedTuple: its fields are the JSON form ``bot.engine.codec`` stores, and successors
    are built positionally (much cheaper than ``_replace`` or a dataclass).
    """

    players: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    talon: str
    set_aside: tuple[str, ...]
    trump: str | None
    phase: Phase
    statuses: tuple[Status, ...]
    turn: int | None
    high_bid: int = 0
    high_bidder: int | None = None
    contract: int | None = None
    maker: int | None = None
    auto_contract: bool = False
    restarted: bool = False
    lowest_lead: bool = False
    leader: int = 0
    trick: tuple[Play, ...] = ()
    tricks: tuple[tuple[Play, ...], ...] = ()
    trick_winners: tuple[int, ...] = ()
    tricks_won: tuple[int, ...] = ()
    morto: int | None = None
    fuori: int | None = None
    auction: tuple[tuple[int, str, int], ...] = ()


# Field positions, for building successor states without ``_replace``.
HANDS, PHASE, STATUSES, TURN, HIGH_BID, HIGH_BIDDER = 2, 6, 7, 8, 9, 10
CONTRACT, MAKER, AUTO, RESTARTED, LOWEST, LEADER = 11, 12, 13, 14, 15, 16
TRICK, DONE_TRICKS, WINNERS, WON, MORTO, FUORI, AUCTION = 17, 18, 19, 20, 21, 22, 23

ALL_CARDS: tuple[str, ...] = (*RANK, LA_MORTE)
_CODE = {c: c for c in ALL_CARDS}
# The packs hold the very string objects the tables are keyed by, so lookups of dealt cards
# succeed on identity (Il Bagatto, T1, and 6s and 5s only with 5 players).
PACK_4: tuple[str, ...] = tuple(_CODE[s + r] for s in SUIT_ORDER for r in _RANKS_4P) + (LA_MORTE,)
PACK_5: tuple[str, ...] = tuple(_CODE[s + r] for s in SUIT_ORDER for r in _RANKS_5P) + (
    LA_MORTE,
    _CODE[BAGATTO],
)


#: Per seat and card: the play ``Action``, its ``card_played`` events, its trick entry.
PLAY, PLAYED, ENTRY = play_tables(ALL_CARDS, MAX_PLAYERS)
DROPPED = tuple((Event("drop", seat),) for seat in range(MAX_PLAYERS))
#: Auction entries ``((seat, "bid", x),)`` / ``((seat, "drop", 0),)`` and bid events, built once.
BID_ENTRY = tuple(
    tuple(((seat, "bid", x),) for x in range(MAX_BID + 1)) for seat in range(MAX_PLAYERS)
)
DROP_ENTRY = tuple(((seat, "drop", 0),) for seat in range(MAX_PLAYERS))
BID_EVENT = tuple(
    tuple((Event("bid", seat, frozen({"amount": x})),) for x in range(MAX_BID + 1))
    for seat in range(MAX_PLAYERS)
)
BID: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action("bid", seat, amount=x) for x in range(MAX_BID + 1)) for seat in range(MAX_PLAYERS)
)
ACCEPT = tuple(Action("accept", seat) for seat in range(MAX_PLAYERS))
DROP = tuple(Action("drop", seat) for seat in range(MAX_PLAYERS))
MUCK = tuple(Action("muck", seat) for seat in range(MAX_PLAYERS))
#: Auction legal actions per (seat, standing bid) (§3.2).
AUCTION_LEGAL: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(
        (*BID[seat][high + 1 :], *((ACCEPT[seat],) if high > 0 else ()), DROP[seat])
        for high in range(MAX_BID + 1)
    )
    for seat in range(MAX_PLAYERS)
)
DEALER_LEGAL = tuple((*BID[seat][1:], MUCK[seat]) for seat in range(MAX_PLAYERS))
DECIDE_LEGAL = tuple((ACCEPT[seat], DROP[seat]) for seat in range(MAX_PLAYERS))
#: Cards that follow a lead, per trump and led card: La Morte follows the trump suit (D-10),
#: and a led La Morte asks for trumps.
FOLLOWS: dict[str | None, dict[str, frozenset[str]]] = {
    trump: {
        led: frozenset(
            c
            for c in ALL_CARDS
            if (c == LA_MORTE and lead_suit == trump) or (c != LA_MORTE and SUIT[c] == lead_suit)
        )
        for led in ALL_CARDS
        if (lead_suit := trump if led == LA_MORTE else SUIT[led]) is not None
    }
    for trump in (*SUIT_ORDER, None)
}
MORTE_WINS = 1000
MORTE_LOST = -5
#: Trick-taking strength per trump and led card (§4.3): an ordinary trump above every card of
#: the led suit, La Morte above all on a trump lead and nothing on a plain one, other suits -1.
WIN_KEY: dict[str | None, dict[str, dict[str, int]]] = {
    trump: {
        led: {
            c: (
                (MORTE_WINS if lead_suit == trump else MORTE_LOST)
                if c == LA_MORTE
                else 100 + RANK[c]
                if SUIT[c] == trump
                else RANK[c]
                if SUIT[c] == lead_suit
                else -1
            )
            for c in ALL_CARDS
        }
        for led in RANK
        if (lead_suit := SUIT[led])
    }
    for trump in (*SUIT_ORDER, None)
}


STATUS_NAMES = {s: str(s) for s in Status}


def replaced(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return t[:i] + (v,) + t[i + 1 :]


PLAYING = Phase.PLAY
DROPPER = Status.DROPPER
AUCTIONING = Phase.AUCTION
UNDECIDED = Status.UNDECIDED
