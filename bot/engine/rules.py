"""The game-independent part of every ``Rules`` object: options, packs, dispatch contract."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from bot.engine.actions import Action
from bot.engine.events import Event
from bot.engine.restriction import PlayRestriction
from bot.engine.views import DealResult, PublicView, SeatView


class BadOption(ValueError):
    """An option is unknown or ill-typed."""


def leaders(totals: Sequence[int]) -> tuple[int, ...]:
    """Seats holding the highest total (several on a tie): the usual core of ``match_end``."""
    top = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == top)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option: its default, whether ``None`` is allowed and its integer bounds."""

    default: int | bool | None
    kind: str = "int"  # "int" or "bool"
    nullable: bool = False
    minimum: int | None = None
    maximum: int | None = None

    def check(self, name: str, value: object) -> int | bool | None:
        if value is None:
            if self.nullable:
                return None
            raise BadOption(f"option {name!r} may not be null")
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise BadOption(f"option {name!r} must be true or false")
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadOption(f"option {name!r} must be an integer")
        if self.minimum is not None and value < self.minimum:
            raise BadOption(f"option {name!r} must be at least {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise BadOption(f"option {name!r} must be at most {self.maximum}")
        return value


class Rules:
    """Stateless rules of one game. States are immutable; every method is pure.

    Subclasses set the class attributes and implement the abstract methods. ``apply`` must
    raise ``IllegalAction`` without side effects for anything not in ``legal_actions``.
    """

    # Stateless, so no instance dict: a method looked up on a rules object (``rules.to_act``)
    # then finds it on the class without first searching an empty instance dict.
    __slots__ = ()

    game_id: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[int]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_type: ClassVar[type]
    options_spec: ClassVar[Mapping[str, OptionSpec]]
    #: action type -> field name -> kind (kinds: see ``codec.parse_action``)
    action_fields: ClassVar[Mapping[str, Mapping[str, str]]]
    #: Action types that choose several cards at once (discards, poignées). ``legal_actions``
    #: lists each as a *template* ``Action(type, seat, cards=<every card that may be part of
    #: a legal choice>, amount=<how many to choose>)`` instead of enumerating subsets; ``apply``
    #: accepts ``Action(type, seat, cards=<the chosen cards>)`` when the subset is legal.
    multi_card_types: ClassVar[frozenset[str]] = frozenset()

    # ---- configuration -------------------------------------------------------------
    def normalize_options(self, raw: Mapping[str, object] | None) -> dict[str, Any]:
        """Options with defaults filled in; raises ``BadOption`` on unknown or bad values."""
        raw = raw or {}
        out: dict[str, Any] = {}
        for name in raw:
            if name not in self.options_spec:
                raise BadOption(f"unknown option {name!r}")
        for name, spec in self.options_spec.items():
            out[name] = spec.check(name, raw[name]) if name in raw else spec.default
        return out

    def pack(self, players: int) -> tuple[str, ...]:
        """The cards used with ``players`` players, in a fixed reference order."""
        raise NotImplementedError

    def check_shape(self, action: Action) -> None:
        """Game-specific shape checks of a parsed action, before turn and legality (raise
        ``IllegalAction("bad_action", …)``); e.g. Queen of Tarot's bonus names (C-2)."""

    def normalize_card(self, code: str) -> str:
        """Map input aliases to output codes (La Morte accepts ``LM``/``BAG``)."""
        return code

    def card_sort_key(self, state: Any, card: str) -> tuple[int, int]:
        """Display order of a hand (suit group, rank)."""
        raise NotImplementedError

    # ---- deal lifecycle ------------------------------------------------------------
    def deal_options(self, options: Mapping[str, Any], totals: Sequence[int]) -> Mapping[str, Any]:
        """Options handed to ``new_deal`` by a match: the table's options by default.

        A game whose deal depends on the match so far adds it here (Loser's Game: the lowest
        cumulative total names trump). ``new_deal`` must still work without those extras.
        """
        return options

    def new_deal(
        self, players: int, options: Mapping[str, Any], deck: Sequence[str], dealer: int
    ) -> Any:
        raise NotImplementedError

    def to_act(self, state: Any) -> int | None:
        raise NotImplementedError

    def legal_actions(self, state: Any) -> tuple[Action, ...]:
        raise NotImplementedError

    def apply(self, state: Any, action: Action) -> tuple[Any, tuple[Event, ...]]:
        raise NotImplementedError

    def checked(self, state: Any, action: Action, /) -> Action:
        """The legal action ``action`` stands for (same type and deciding fields), or the
        ``IllegalAction`` saying why it is not legal now.

        The fast cores' ``apply`` (La Morte, Early French Tarot, Loser's Game) call it for an
        action not among the legal ones. It is part of this contract so that those cores can
        type their ``self`` as ``Rules`` and never import the rules module that binds them (no
        import circles); games that check inside ``apply`` do not override it.
        """
        raise NotImplementedError

    def observe_public(self, state: Any) -> PublicView:
        raise NotImplementedError

    def observe(self, state: Any, seat: int) -> SeatView:
        raise NotImplementedError

    def result(self, state: Any) -> DealResult | None:
        raise NotImplementedError

    def play_restriction(self, state: Any, seat: int) -> PlayRestriction | None:
        """Why some card ``seat`` holds may not be played now (``bot.engine.restriction``).

        ``None`` unless ``seat`` is to play a card and holds a card that is not legal. Pure and
        additive: it never changes what ``legal_actions`` allows. Games override it.
        """
        return None

    def sample_world(self, view: SeatView, rng: Any) -> Any:
        """A full state consistent with everything ``view``'s seat knows, for search.

        Its ``observe(state, view.seat)`` equals ``view`` (public history included) and the
        cards that seat cannot see are drawn uniformly among the deals the rules allow given
        the public history (voids shown, failures to overtrump, the discard's rules, shown
        poignées and declarations, a called card). ``rng`` is a caller's ``random.Random``.
        """
        raise NotImplementedError

    def default_action(self, state: Any) -> Action:
        """The passive action taken for a seat whose turn timed out (rules/README.md)."""
        raise NotImplementedError

    def legal_descriptors(self, state: Any) -> list[dict[str, Any]]:
        """Scenario ``next.legal``: JSON of every legal action (multi-card choices collapsed).

        A template becomes ``{"seat", "type", "count", "cards"}``; several templates of one
        type with different counts (poignée levels) become one ``{"seat", "type", "sizes",
        "cards"}`` (design/SCENARIOS.md).
        """
        out: list[dict[str, Any]] = []
        merged: dict[str, dict[str, Any]] = {}
        templates: dict[str, int] = {}
        for a in self.legal_actions(state):
            if a.type not in self.multi_card_types:
                out.append(a.to_json())
                continue
            templates[a.type] = templates.get(a.type, 0) + 1
            entry = merged.setdefault(
                a.type, {"seat": a.seat, "type": a.type, "sizes": [], "cards": set[str]()}
            )
            entry["sizes"].append(a.amount)
            entry["cards"].update(a.cards or ())
        for kind, entry in merged.items():
            entry["cards"] = sorted(entry["cards"])
            entry["sizes"] = sorted(entry["sizes"])
            if kind == "discard" and templates[kind] == 1:
                entry["count"] = entry.pop("sizes")[0]
            out.append(entry)
        return out

    def random_choice(self, view: SeatView, template: Action, rng: Any) -> Action:
        """A uniformly random *legal* completion of a multi-card ``template`` from ``view``.

        ``rng`` is a ``random.Random`` supplied by the caller (the engine owns no randomness).
        Games with ``multi_card_types`` override this; it backs the random baseline player.
        """
        raise NotImplementedError

    # ---- match ---------------------------------------------------------------------
    def next_dealer(self, dealer: int, players: int) -> int:
        """Dealer of the following deal (clockwise by default)."""
        return (dealer + 1) % players

    def counts_toward_end(self, result: DealResult) -> bool:
        """Whether a finished deal counts in ``match_end``'s ``deals_played``."""
        return True

    def match_end(
        self,
        totals: Sequence[int],
        deals_played: int,
        options: Mapping[str, Any],
        last: DealResult,
    ) -> tuple[int, ...] | None:
        """Winners if the match is over after ``last`` was recorded, else ``None``."""
        raise NotImplementedError
