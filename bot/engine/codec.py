"""JSON codecs: deal states (generic over frozen dataclasses) and actions (per game schema).

States are encoded field by field from their type hints, so a new game only has to declare
its state dataclass; tuples become lists and enums their values.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any

from bot.engine.actions import Action
from bot.engine.cards import is_card_code
from bot.engine.errors import IllegalAction
from bot.engine.rules import Rules


def _is_record(tp: Any) -> bool:
    """True for NamedTuple classes (typed records encoded as JSON objects)."""
    return isinstance(tp, type) and issubclass(tp, tuple) and hasattr(tp, "_fields")  # pyright: ignore[reportUnknownArgumentType]


def to_jsonable(value: Any) -> Any:
    """Encode a state value: records → dicts, tuples → lists, enums → values."""
    if _is_record(type(value)):  # pyright: ignore[reportUnknownArgumentType]
        return {name: to_jsonable(v) for name, v in zip(value._fields, value, strict=True)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [to_jsonable(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_jsonable(tp: Any, data: Any) -> Any:
    """Decode ``data`` into type ``tp`` (the inverse of ``to_jsonable``)."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        is_null = data is None  # a separate flag keeps pyright from narrowing ``data``
        if is_null and type(None) in args:
            return None
        for arg in args:
            if arg is not type(None):
                return from_jsonable(arg, data)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_jsonable(args[0], v) for v in data)
        return tuple(from_jsonable(a, v) for a, v in zip(args, data, strict=True))
    if origin is dict or tp is Any:
        return data
    if isinstance(tp, type):
        if _is_record(tp):
            hints = _hints(tp)
            fields: tuple[str, ...] = getattr(tp, "_fields")  # noqa: B009
            return tp(**{f: from_jsonable(hints[f], data[f]) for f in fields})
        if dataclasses.is_dataclass(tp):
            hints = _hints(tp)
            kwargs = {
                f.name: from_jsonable(hints[f.name], data[f.name]) for f in dataclasses.fields(tp)
            }
            return tp(**kwargs)
        if issubclass(tp, enum.Enum):
            return tp(data)
    return data


def encode_state(state: Any) -> dict[str, Any]:
    """JSON object for a deal state."""
    out = to_jsonable(state)
    assert isinstance(out, dict)
    return typing.cast(dict[str, Any], out)


def decode_state(rules: Rules, data: Mapping[str, Any]) -> Any:
    """Deal state of ``rules`` from its JSON object."""
    return from_jsonable(rules.state_type, data)


# ---- actions ---------------------------------------------------------------------------


def _bad(detail: str) -> IllegalAction:
    return IllegalAction("bad_action", detail)


def _int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{name} must be an integer")
    return value


def _card(rules: Rules, value: object) -> str:
    if not isinstance(value, str):
        raise _bad("card codes must be strings")
    code = rules.normalize_card(value)
    if not is_card_code(code):
        raise _bad(f"unknown card code {value!r}")
    return code


def parse_action(rules: Rules, obj: object, players: int) -> Action:
    """Build an ``Action`` from its JSON form, checking shape and types (not legality).

    Extra keys are ignored (SCENARIOS.md input leniency). Raises ``IllegalAction`` with code
    ``bad_action`` on anything malformed.
    """
    if not isinstance(obj, dict):
        raise _bad("an action must be a JSON object")
    d = typing.cast(dict[str, object], obj)
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in rules.action_fields:
        raise _bad(f"unknown action type {kind!r} for {rules.game_id}")
    if "seat" not in d:
        raise _bad("missing field 'seat'")
    seat = _int(d["seat"], "seat")
    if not 0 <= seat < players:
        raise _bad(f"seat {seat} does not exist")
    fields: dict[str, Any] = {}
    for name, field_kind in rules.action_fields[kind].items():
        if name not in d:
            raise _bad(f"missing field {name!r} for {kind!r}")
        value = d[name]
        if field_kind == "card":
            fields[name] = _card(rules, value)
        elif field_kind == "cards":
            if not isinstance(value, list):
                raise _bad(f"{name!r} must be a list of card codes")
            fields[name] = tuple(_card(rules, v) for v in typing.cast(list[object], value))
        elif field_kind == "amount":
            fields[name] = _int(value, name)
        elif field_kind == "announce":
            if not isinstance(value, bool):
                raise _bad(f"{name!r} must be true or false")
            fields[name] = value
        elif field_kind == "bonuses":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):  # pyright: ignore[reportUnknownVariableType]
                raise _bad(f"{name!r} must be a list of names")
            fields[name] = tuple(typing.cast(list[str], value))
        else:  # contract, suit: plain strings
            if not isinstance(value, str):
                raise _bad(f"{name!r} must be a string")
            fields[name] = value
    action = Action(kind, seat, **fields)
    rules.check_shape(action)  # malformed beats not-your-turn (SCENARIOS.md error order)
    return action
