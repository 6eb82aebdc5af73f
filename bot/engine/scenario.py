"""Scenario runner: replays a scripted match from a JSON file (``design/SCENARIOS.md``).

``run(scenario)`` applies every action of every deal and returns the result object, or an
error object ``{"error": {...}}`` at the first problem; it never raises. The command line
``python -m bot.engine.scenario FILE [--check]`` prints that object (``FILE`` may be ``-``
for stdin) and, with ``--check``, compares it with the file's ``expect`` block.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, cast

from bot.engine import codec, match
from bot.engine.actions import Action
from bot.engine.deck import is_exact_pack
from bot.engine.errors import EngineError, IllegalAction
from bot.engine.registry import GAME_IDS, get_rules
from bot.engine.rules import BadOption, Rules

#: Error codes in the order they are checked (SCENARIOS.md "Runner").
ERROR_CODES: tuple[str, ...] = (
    "bad_scenario",
    "bad_deck",
    "wrong_dealer",
    "match_over",
    "deal_unfinished",
    "deal_over",
    "bad_action",
    "not_your_turn",
    "illegal_action",
)
#: Keys of ``expect`` that ``--check`` compares.
CHECK_KEYS: tuple[str, ...] = ("deltas", "deals", "totals", "finished", "winners", "next", "error")


class _Stop(Exception):
    """The run stops here; carries the error object's fields."""

    def __init__(self, code: str, detail: str, deal: int | None, action: int | None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.deal = deal
        self.action = action

    def to_json(self) -> dict[str, Any]:
        return {
            "error": {
                "deal": self.deal,
                "action": self.action,
                "code": self.code,
                "detail": self.detail,
            }
        }


def _bad_scenario(detail: str) -> NoReturn:
    raise _Stop("bad_scenario", detail, None, None)


def _is_int(value: object) -> bool:
    """JSON integer: ``bool`` is an ``int`` subclass in Python but not a JSON integer."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class _Deal:
    dealer: int
    deck: list[object]
    actions: list[object]


@dataclass(frozen=True, slots=True)
class _Scenario:
    game: str
    rules: Rules
    players: int
    options: dict[str, Any]
    deals: list[_Deal]


def _parse(scenario: object) -> _Scenario:
    """Check the scenario's structure (everything reported as ``bad_scenario``)."""
    if not isinstance(scenario, dict):
        _bad_scenario("a scenario must be a JSON object")
    sc = cast(dict[str, object], scenario)
    game = sc.get("game")
    if not isinstance(game, str) or game not in GAME_IDS:
        known = ", ".join(GAME_IDS)
        _bad_scenario(f"unknown game {game!r}; expected one of {known}")
    try:
        rules = get_rules(game)
    except KeyError:
        _bad_scenario(f"the game {game!r} is not implemented yet")
    players = sc.get("players")
    if not _is_int(players):
        _bad_scenario("'players' must be an integer")
    n = cast(int, players)
    if not rules.min_players <= n <= rules.max_players:
        _bad_scenario(
            f"{rules.title} is for {rules.min_players} to {rules.max_players} players, not {n}"
        )
    raw_options = sc.get("options")
    if raw_options is None:
        raw_options = {}
    if not isinstance(raw_options, dict):
        _bad_scenario("'options' must be a JSON object")
    try:
        options = rules.normalize_options(cast(dict[str, object], raw_options))
    except BadOption as e:
        _bad_scenario(str(e))
    raw_deals = sc.get("deals")
    if not isinstance(raw_deals, list):
        _bad_scenario("'deals' must be a list")
    deals: list[_Deal] = []
    for i, raw in enumerate(cast(list[object], raw_deals)):
        if not isinstance(raw, dict):
            _bad_scenario(f"deal {i} must be a JSON object")
        d = cast(dict[str, object], raw)
        dealer = d.get("dealer")
        if not _is_int(dealer):
            _bad_scenario(f"deal {i}: 'dealer' must be an integer")
        if not 0 <= cast(int, dealer) < n:
            _bad_scenario(f"deal {i}: dealer {dealer} is not a seat (0..{n - 1})")
        deck = d.get("deck")
        if not isinstance(deck, list):
            _bad_scenario(f"deal {i}: 'deck' must be a list of card codes")
        actions = d.get("actions")
        if actions is None:
            actions = []  # leniency: a deal without actions means none
        if not isinstance(actions, list):
            _bad_scenario(f"deal {i}: 'actions' must be a list")
        deals.append(
            _Deal(cast(int, dealer), cast(list[object], deck), cast(list[object], actions))
        )
    return _Scenario(game, rules, n, options, deals)


def _normalized_deck(rules: Rules, players: int, deck: list[object], i: int) -> list[str]:
    """The deck with input aliases resolved; ``bad_deck`` unless it is exactly the pack."""
    pack = rules.pack(players)
    if not all(isinstance(c, str) for c in deck):
        raise _Stop("bad_deck", "every card of the deck must be a card code string", i, None)
    cards = [rules.normalize_card(c) for c in cast(list[str], deck)]
    if not is_exact_pack(cards, pack):
        raise _Stop(
            "bad_deck",
            f"the deck must be exactly the {len(pack)}-card pack for {players} players, "
            f"each card once",
            i,
            None,
        )
    return cards


def _parse_action(rules: Rules, raw: object, players: int) -> Action:
    """Parse one action; a well-formed action for a seat that does not exist is returned
    as is (with its out-of-range seat) so that it is reported as ``not_your_turn``."""
    if isinstance(raw, dict):
        obj = cast(dict[str, object], raw)
        seat = obj.get("seat")
        # SCENARIOS.md lists "seat is not the seat to act" as not_your_turn, and only
        # missing/ill-typed fields as bad_action: an integer seat out of range is the former.
        if _is_int(seat) and not 0 <= cast(int, seat) < players:
            parsed = codec.parse_action(rules, {**obj, "seat": 0}, players)
            return parsed._replace(seat=cast(int, seat))
    return codec.parse_action(rules, cast(object, raw), players)


def _sorted_lists(value: Any) -> Any:
    """Card lists inside outputs are sorted in plain string order (SCENARIOS.md)."""
    if isinstance(value, dict):
        return {k: _sorted_lists(v) for k, v in cast(dict[str, Any], value).items()}
    if isinstance(value, list):
        items = [_sorted_lists(v) for v in cast(list[Any], value)]
        if items and all(isinstance(v, str) for v in items):
            return sorted(cast(list[str], items))
        return items
    return value


def next_descriptor(m: match.MatchState) -> dict[str, Any] | None:
    """Scenario ``next``: the seat to act in the current deal and its sorted legal actions."""
    if m.deal is None or m.finished or m.deal_over:
        return None
    seat = match.to_act(m)
    if seat is None:
        return None
    legal = [_sorted_lists(a) for a in m.rules.legal_descriptors(m.deal)]
    legal.sort(key=lambda a: json.dumps(a, sort_keys=True))
    return {"seat": seat, "legal": legal}


def _play(sc: _Scenario) -> dict[str, Any]:
    rules, n = sc.rules, sc.players
    if not sc.deals:
        return {"deals": [], "totals": [0] * n, "finished": False, "winners": [], "next": None}
    m = match.new_match(sc.game, n, sc.options, sc.deals[0].dealer)
    finals: list[Any] = []
    prev_dealer = sc.deals[0].dealer
    for i, deal in enumerate(sc.deals):
        deck = _normalized_deck(rules, n, deal.deck, i)
        if i > 0:
            # The rotation is the match's once the previous deal is over; after an
            # unfinished deal it is the rules' next dealer (reported as deal_unfinished).
            expected = m.dealer if m.deal_over else rules.next_dealer(prev_dealer, n)
            if deal.dealer != expected:
                raise _Stop(
                    "wrong_dealer",
                    f"the dealer of this deal is seat {expected}, not {deal.dealer}",
                    i,
                    None,
                )
        if m.finished:
            raise _Stop("match_over", "the match is already over", i, None)
        if not m.deal_over:
            raise _Stop(
                "deal_unfinished", f"deal {i - 1} is not finished; this deal cannot start", i, None
            )
        try:
            m = match.start_deal(m, deck)
        except EngineError as e:  # pragma: no cover - the checks above come first
            raise _Stop("bad_deck", str(e), i, None) from e
        prev_dealer = deal.dealer
        for j, raw in enumerate(deal.actions):
            if m.deal_over:
                raise _Stop("deal_over", "this deal is already over", i, j)
            try:
                action = _parse_action(rules, raw, n)
            except IllegalAction as e:
                raise _Stop("bad_action", e.detail, i, j) from e
            seat = match.to_act(m)
            if action.seat != seat:
                raise _Stop(
                    "not_your_turn",
                    f"seat {action.seat} acted but it is seat {seat}'s turn",
                    i,
                    j,
                )
            try:
                m, _events = match.apply(m, action)
            except IllegalAction as e:
                code = e.code if e.code in ERROR_CODES else "illegal_action"
                raise _Stop(code, e.detail, i, j) from e
        finals.append(m.deal)

    deals_out: list[dict[str, Any]] = []
    for state in finals:
        res = rules.result(state)
        deals_out.append(
            {
                "outcome": None if res is None else res.outcome,
                "deltas": None if res is None else list(res.deltas),
            }
        )
    return {
        "deals": deals_out,
        "totals": list(m.totals),
        "finished": m.finished,
        "winners": sorted(m.winners),
        "next": next_descriptor(m),
    }


def run(scenario: dict[str, Any]) -> dict[str, Any]:
    """Replay ``scenario`` and return the result object or ``{"error": {...}}``; never raises."""
    try:
        return _play(_parse(scenario))
    except _Stop as stop:
        return stop.to_json()
    except RecursionError:
        return _Stop("bad_scenario", "the scenario is nested too deeply", None, None).to_json()
    except Exception as e:
        detail = f"internal error: {type(e).__name__}: {e}"
        return {"error": {"deal": None, "action": None, "code": "internal", "detail": detail}}


# ---- --check ---------------------------------------------------------------------------


def _same(a: object, b: object) -> bool:
    """JSON equality: ``true`` is not ``1``, lists compare in order."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        da, db = cast(dict[object, object], a), cast(dict[object, object], b)
        return da.keys() == db.keys() and all(_same(da[k], db[k]) for k in da)
    if isinstance(a, list) and isinstance(b, list):
        la, lb = cast(list[object], a), cast(list[object], b)
        return len(la) == len(lb) and all(_same(x, y) for x, y in zip(la, lb, strict=True))
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        return False
    return a == b


def _actual(result: dict[str, Any], key: str) -> Any:
    if key == "error":
        err = result.get("error")
        if not isinstance(err, dict):
            return None
        e = cast(dict[str, Any], err)
        return {"deal": e.get("deal"), "action": e.get("action"), "code": e.get("code")}
    if "error" in result:
        return None
    if key == "deltas":
        return [d["deltas"] for d in result["deals"]]
    return result.get(key)


def check(result: dict[str, Any], expect: object) -> dict[str, dict[str, Any]]:
    """Mismatches between ``result`` and ``expect``: ``{key: {"expected", "actual"}}``.

    Only the keys present in ``expect`` are compared, and ``error`` ignores ``detail``. A run
    that stopped on an error nobody expected is always a mismatch.
    """
    exp = cast(dict[str, Any], expect) if isinstance(expect, dict) else {}
    out: dict[str, dict[str, Any]] = {}
    for key in CHECK_KEYS:
        if key == "error":
            actual = _actual(result, key)
            if key in exp:
                want: Any = exp[key]
                if isinstance(want, dict):
                    w = cast(dict[str, Any], want)
                    want = {"deal": w.get("deal"), "action": w.get("action"), "code": w.get("code")}
            elif actual is not None:
                want = None
            else:
                continue
            if not _same(want, actual):
                out[key] = {"expected": exp.get(key), "actual": result.get("error")}
            continue
        if key in exp and not _same(exp[key], _actual(result, key)):
            out[key] = {"expected": exp[key], "actual": _actual(result, key)}
    return out


# ---- command line ----------------------------------------------------------------------


def _load(path: str) -> tuple[Any, dict[str, Any] | None]:
    """The parsed file, or an error object if it cannot be read as JSON."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        return json.loads(text), None
    except (OSError, UnicodeDecodeError) as e:
        return None, _Stop("bad_scenario", f"cannot read {path}: {e}", None, None).to_json()
    except (ValueError, RecursionError) as e:
        return None, _Stop("bad_scenario", f"not valid JSON: {e}", None, None).to_json()


def _print(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.engine.scenario",
        description="Replay a Trionfi scenario file and print the result as JSON.",
    )
    parser.add_argument("file", help="scenario JSON file, or - for stdin")
    parser.add_argument(
        "--check", action="store_true", help="compare the result with the file's 'expect' block"
    )
    args = parser.parse_args(argv)
    data, load_error = _load(args.file)
    result = load_error if load_error is not None else run(data)
    if not args.check:
        _print(result)
        return 1 if "error" in result else 0
    expect = cast(dict[str, Any], data).get("expect") if isinstance(data, dict) else None
    mismatches = check(result, expect)
    if mismatches:
        _print({"check": "failed", "mismatches": mismatches, "result": result})
        return 1
    _print(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
