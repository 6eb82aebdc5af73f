"""Plain data returned by the services: what the Discord layer renders. No discord types."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.db.outbox import HandView
from bot.engine.events import Event
from bot.engine.views import DealResult, PublicView, SeatView


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat: a Discord user, or a computer player (``user_id`` is None)."""

    seat: int
    user_id: int | None
    name: str
    is_bot: bool = False
    dm_channel_id: int | None = None
    dm_message_id: int | None = None
    dm_failed: bool = False
    resigned: bool = False
    expiries: int = 0  # consecutive timed-out turns: 1 = away, 2+ = the computer plays it
    language: str | None = None  # the player's language for DMs (None: the table's)
    #: The seat's latest "Show my hand" answer, which deliveries redraw (issue 30).
    view: HandView | None = field(default=None, repr=False)
    #: The player's latest click on their DM hand, whose token can edit it (``HandView``'s
    #: fields: its message is the DM hand it was on).
    click: HandView | None = field(default=None, repr=False)

    @property
    def away(self) -> bool:
        return self.expiries > 0 and not self.resigned


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table's header row plus its seats (in seat order; may be fewer than ``players``)."""

    id: int
    guild_id: int
    channel_id: int
    game_id: str
    status: str  # "lobby" | "playing" | "finished" | "abandoned"
    owner_id: int
    players: int
    options: dict[str, Any]
    seats: tuple[SeatInfo, ...]
    message_id: int | None = None
    seq: int = 0
    turn_clock: int | None = None  # seconds per decision (None: no clock)
    turn_deadline: float | None = None  # Unix time the current human decision times out
    shown_seq: int = 0  # the last seq the channel and every DM fully show
    notify_at: float | None = None  # when ``notify_seat`` gets a turn notification
    notify_seat: int | None = None
    language: str = "en"  # the language of the public table (bot.i18n.LANGUAGES)
    level: str = "casual"  # how its computer players think: "casual" | "expert" (issue 18)
    hints: bool = False  # a practice table: players may ask the expert for hints; never rated
    daily: str | None = None  # a daily attempt's UTC day, played in its player's DMs (issue 20)
    #: A league table's session (issue 34): a solo entry in its player's DMs (``guild_id`` 0),
    #: or a table of several humans of a server, played in a private thread.
    league: int | None = None
    deals: int | None = None  # a league table's deals (its set's)
    #: "Try another way" (issue 33): the (table, deal number) this table replays, in its
    #: player's DMs, unrated; None: not a replay.
    replay: tuple[int, int] | None = None
    #: Why it ended unfinished, when its messages say so: "replaced" (a replay its player
    #: replaced with a new table in their DMs), "night_over" (a league table's lobby its
    #: night's end closed); None otherwise.
    end_reason: str | None = None

    @property
    def in_dms(self) -> bool:
        """Played alone in its player's DMs (a daily deal, a solo league entry, a replay): no
        server, no rematch, no ranking."""
        solo_league = self.league is not None and not self.guild_id
        return self.daily is not None or solo_league or self.replay is not None

    def seat_of(self, user_id: int) -> int | None:
        """Seat of a (non-resigned) human at this table, or None."""
        for s in self.seats:
            if s.user_id == user_id and not s.resigned:
                return s.seat
        return None

    def name_of(self, seat: int) -> str | None:
        """The display name at ``seat`` (None: nobody sits there; the UI words it)."""
        for s in self.seats:
            if s.seat == seat:
                return s.name
        return None

    @property
    def is_full(self) -> bool:
        return len(self.seats) >= self.players


@dataclass(frozen=True, slots=True)
class EndedDeal:
    """A deal that finished during a service call, with its last public view."""

    number: int  # 1-based deal number within the match
    result: DealResult
    public: PublicView


@dataclass(frozen=True, slots=True)
class Notice:
    """A public one-liner a commit owes its channel ("ran out of time", "resigned", a player
    left, the table was ended…), kept in the outbox with the commit (``bot.db.outbox``).
    ``kind`` and ``data`` are codes the Discord layer words (``bot.ui.text.life``)."""

    seq: int  # the commit's
    part: int  # its place among the commit's notices
    kind: str
    data: dict[str, Any] = field(default_factory=dict[str, Any])

    @property
    def key(self) -> str:
        """The post's name in the outbox: each is posted once."""
        return f"notice:{self.seq}:{self.part}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """Everything the Discord layer needs after a state change.

    Attributes:
        table: the table after the change.
        events: every engine event of this call, in order (computer moves included), each
            tagged with the deal number it belongs to: ``(deal_number, event)``.
        public: public view of the current deal (or the last one when the match ended);
            None while in the lobby.
        seat_views: the private view of every **human** seat, keyed by seat.
        ended_deals: deals that finished during this call.
        totals: running match totals per seat.
        deal_number: 1-based number of the current deal.
        deals_played: finished deals (mucked included).
        finished: the match is over; ``winners`` are its winning seats.
        new_deal: a new deal started during this call (renderers post a fresh table message).
        rated: this call recorded the game's results and rated them (a finished game, or one
            ended by a player's resignation, ``TableLife.end_table``).
        notices: the public notices of the commits this outcome shows.
        prior_seq: the table's ``seq`` before the first commit this outcome shows (its
            delivery must also show whatever is unshown before it, ``TableDelivery``).
        reasons: the computers' ``explained`` events of the whole current deal, read from
            the log (issue 33): a table message drawn for any commit, or redrawn from the
            state alone, shows the same reasons.
        others: other tables the call changed, to show as well: the replay a new table
            replaced in its player's DMs (``bot.services.dm_room``).
    """

    table: TableInfo
    events: tuple[tuple[int, Event], ...] = ()
    public: PublicView | None = None
    reasons: tuple[Event, ...] = ()
    seat_views: dict[int, SeatView] = field(default_factory=dict[int, SeatView])
    ended_deals: tuple[EndedDeal, ...] = ()
    totals: tuple[int, ...] = ()
    deal_number: int = 0
    deals_played: int = 0
    finished: bool = False
    winners: tuple[int, ...] = ()
    new_deal: bool = False
    rated: bool = False
    notices: tuple[Notice, ...] = ()
    prior_seq: int | None = None
    others: tuple[Outcome, ...] = ()
