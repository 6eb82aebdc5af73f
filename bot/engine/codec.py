"""JSON codecs: deal states (generic over frozen dataclasses) and actions (per game schema).

States are encoded field by field from their type hints, so a new game only has to declare
its state dataclass; tuples become lists and enums their values.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from bot.engine.actions import Action
from bot.engine.cards import is_card_code
from bot.engine.errors import IllegalAction
from bot.engine.rules import Rules


def _is_record(tp: Any) -> bool:
    """True for NamedTuple classes (typed records encoded as JSON objects)."""
    return isinstance(tp, type) and issubclass(tp, tuple) and hasattr(tp, "_fields")  # pyright: ignore[reportUnknownArgumentType]


# Encoding and decoding run on every commit, snapshot and replay (and at every step of the
# invariant tests), so each type's codec is worked out once, from its class and type hints,
# and kept: the generic walk asked ``is_dataclass``/``issubclass`` of every value, which was
# ~90 % of the cost of a snapshot.
Codec = Callable[[Any], Any]
_LEAVES: frozenset[type] = frozenset({str, int, float, bool, type(None)})
_ENCODERS: dict[type, Codec] = {}
_DECODERS: dict[Any, Codec] = {}


def _same(value: Any) -> Any:
    return value


def _names(cls: type) -> tuple[str, ...]:
    if _is_record(cls):
        return getattr(cls, "_fields")  # noqa: B009
    return tuple(f.name for f in dataclasses.fields(cls))  # pyright: ignore[reportArgumentType]


def to_jsonable(value: Any) -> Any:
    """Encode a state value: records → dicts, tuples → lists, enums → values."""
    cls: type = type(value)  # pyright: ignore[reportUnknownVariableType]
    if cls in _LEAVES:
        return value
    encode = _ENCODERS.get(cls)
    if encode is None:
        encode = _ENCODERS[cls] = _encoder(cls)
    return encode(value)


def _encoder(cls: type) -> Codec:
    """The encoder of values of exactly ``cls`` (the order of the checks matters: a record is
    a tuple, an enum may be a str or an int)."""
    if _is_record(cls) or dataclasses.is_dataclass(cls):
        try:
            hints = _hints(cls)
        except (NameError, TypeError):  # a hint that does not resolve: encode generically
            hints = {}
        fields = tuple((n, _field_encoder(hints.get(n, Any))) for n in _names(cls))

        def record(value: Any) -> dict[str, Any]:
            out: dict[str, Any] = {}
            for name, encode in fields:
                x = getattr(value, name)
                out[name] = x if encode is None else encode(x)
            return out

        return record
    if issubclass(cls, enum.Enum):
        return _enum_value
    if issubclass(cls, tuple | list):
        return _sequence
    return _same


def _enum_value(value: Any) -> Any:
    return value.value


def _sequence(value: Any) -> list[Any]:
    return [x if type(x) in _LEAVES else to_jsonable(x) for x in value]


def _field_encoder(hint: Any) -> Codec | None:
    """The encoder of a record field from its type hint; None: the value is its own JSON (a
    str, int, bool, float or None). Hints it cannot follow fall back to ``to_jsonable``."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [_field_encoder(a) for a in typing.get_args(hint) if a is not type(None)]
        if len(inner) != 1:
            return to_jsonable
        one = inner[0]
        if one is None:
            return None

        def optional(value: Any) -> Any:
            return None if value is None else one(value)

        return optional
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) != 2 or args[1] is not Ellipsis:
            return to_jsonable
        item = _field_encoder(args[0])
        if item is None:
            return list
        each = item

        def items(value: Any) -> list[Any]:
            return [each(x) for x in value]

        return items
    return None if hint in _LEAVES else to_jsonable


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_jsonable(tp: Any, data: Any) -> Any:
    """Decode ``data`` into type ``tp`` (the inverse of ``to_jsonable``)."""
    decode = _DECODERS.get(tp)
    if decode is None:
        decode = _DECODERS[tp] = _decoder(tp)
    return decode(data)


def _decoder(tp: Any) -> Codec:
    """The decoder of JSON data into ``tp``, built from its type hints."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        first = next((a for a in args if a is not type(None)), None)
        if first is None:
            return _same
        inner = _decoder(first)
        if type(None) not in args:
            return inner

        def optional(data: Any) -> Any:
            return None if data is None else inner(data)

        return optional
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            if item is _same:
                return tuple
            return lambda data: tuple([item(v) for v in data])
        parts = tuple(_decoder(a) for a in args)
        return lambda data: tuple([p(v) for p, v in zip(parts, data, strict=True)])
    if origin is dict or tp is Any or not isinstance(tp, type):
        return _same
    if _is_record(tp) or dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        fields = tuple((n, _decoder(hints[n])) for n in _names(tp))
        cls: Callable[..., Any] = tp
        return lambda data: cls(**{n: decode(data[n]) for n, decode in fields})
    if issubclass(tp, enum.Enum):
        return tp
    return _same


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
