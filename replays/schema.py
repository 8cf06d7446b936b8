"""Type checks for values decoded from a log, driven by the dataclass annotations of the
events (and of the game options), so that the field types are written down only once.

A log is untrusted input: before an event's payload reaches the engine every field must
have the type its event class declares (``int`` never ``bool``, ``list[int]``,
``dict[str, str] | None`` ...). ``Any`` accepts any decoded msgpack value.
"""

from __future__ import annotations

import types
import typing
from functools import cache
from typing import Any

from cascadia.domain.events import EVENT_TYPES, PAYLOAD_FIELDS
from cascadia.domain.options import GameOptions


def type_problem(value: Any, annotation: Any, path: str) -> str | None:
    """Why ``value`` does not fit ``annotation`` (a message naming ``path``), or ``None``."""
    if annotation is Any:
        return None
    if annotation is None or annotation is type(None):
        return None if value is None else f"{path} must be nil"
    origin = typing.get_origin(annotation)
    if origin in (types.UnionType, typing.Union):
        problems = [type_problem(value, option, path) for option in typing.get_args(annotation)]
        return None if any(p is None for p in problems) else problems[0]
    if origin is list:
        if not isinstance(value, list):
            return f"{path} must be a list"
        (item,) = typing.get_args(annotation)
        for i, element in enumerate(value):
            problem = type_problem(element, item, f"{path}[{i}]")
            if problem:
                return problem
        return None
    if origin is dict:
        if not isinstance(value, dict):
            return f"{path} must be a map"
        key_type, item = typing.get_args(annotation)
        for key, element in value.items():
            problem = type_problem(key, key_type, f"{path} key") or type_problem(
                element, item, f"{path}.{key}"
            )
            if problem:
                return problem
        return None
    if annotation is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif annotation in (str, bool, float, bytes):
        ok = isinstance(value, annotation)
    else:  # pragma: no cover - an annotation this checker does not know
        raise TypeError(f"cannot check values against {annotation!r}")
    return None if ok else f"{path} must be {annotation.__name__}, not {type(value).__name__}"


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def payload_problem(type_name: str, payload: Any) -> str | None:
    """Why ``payload`` is not a valid payload of event type ``type_name``, or ``None``.

    The payload must hold exactly the event's fields, each of its declared type."""
    cls = EVENT_TYPES.get(type_name) if isinstance(type_name, str) else None
    if cls is None:
        return f"unknown event type {type_name!r}"
    if not isinstance(payload, dict):
        return f"the payload of {type_name} must be a map"
    expected = PAYLOAD_FIELDS[type_name]
    if set(payload) != set(expected):
        missing = sorted(set(expected) - set(payload), key=str)
        extra = sorted(set(payload) - set(expected), key=str)
        parts = ([f"missing {', '.join(map(str, missing))}"] if missing else []) + (
            [f"unexpected {', '.join(map(str, extra))}"] if extra else []
        )
        return f"{type_name} payload fields: {'; '.join(parts)}"
    hints = _hints(cls)
    for name in expected:
        problem = type_problem(payload[name], hints[name], f"{type_name}.{name}")
        if problem:
            return problem
    return None


def options_problem(options: Any) -> str | None:
    """Why ``options`` is not a map of known game options of the right types, or ``None``."""
    if not isinstance(options, dict):
        return "options must be a map"
    hints = _hints(GameOptions)
    for key, value in options.items():
        if key not in hints:
            return f"unknown game option {key!r}"
        problem = type_problem(value, hints[key], f"options.{key}")
        if problem:
            return problem
    return None
