"""Type checks for values decoded from a log, driven by the dataclass annotations of the
events (and of the game options), so that the field types are written down only once.

A log is untrusted input: before an event's payload reaches the engine every field must
have the type its event class declares (``int`` never ``bool``, ``list[int]``,
``dict[str, str] | None`` ...). ``Any`` accepts any decoded msgpack value.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any

from cascadia.domain.events import EVENT_TYPES, OPTIONAL_FIELDS, PAYLOAD_FIELDS
from cascadia.domain.options import GameOptions

Checker = Callable[[Any, str], "str | None"]
"""``checker(value, path)``: why ``value`` (found at ``path``) has the wrong type, or ``None``."""


def _accept(value: Any, path: str) -> str | None:
    return None


def _scalar(expected: type) -> Checker:
    def check(value: Any, path: str) -> str | None:
        if type(value) is expected:  # exact: a bool is not an int
            return None
        return f"{path} must be {expected.__name__}, not {type(value).__name__}"

    return check


def _nil(value: Any, path: str) -> str | None:
    return None if value is None else f"{path} must be nil"


def _union(options: list[Checker]) -> Checker:
    def check(value: Any, path: str) -> str | None:
        problems = [option(value, path) for option in options]
        return None if None in problems else problems[0]

    return check


def _list(item: Checker) -> Checker:
    def check(value: Any, path: str) -> str | None:
        if type(value) is not list:
            return f"{path} must be a list"
        for i, element in enumerate(value):
            if item(element, path):  # the path is spelt out only for the message
                return item(element, f"{path}[{i}]")
        return None

    return check


def _map(key: Checker, item: Checker) -> Checker:
    def check(value: Any, path: str) -> str | None:
        if type(value) is not dict:
            return f"{path} must be a map"
        for k, element in value.items():
            problem = key(k, f"{path} key") or item(element, f"{path}.{k}")
            if problem:
                return problem
        return None

    return check


@cache
def checker(annotation: Any) -> Checker:
    """The type check for values of ``annotation`` (``int``, ``str``, ``bool``, ``bytes``,
    ``None``, ``Any``, ``list[X]``, ``dict[K, V]`` and unions of these)."""
    if annotation is Any:
        return _accept
    if annotation is None or annotation is type(None):
        return _nil
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (types.UnionType, typing.Union):
        return _union([checker(option) for option in args])
    if origin is list:
        return _list(checker(args[0]))
    if origin is dict:
        return _map(checker(args[0]), checker(args[1]))
    if annotation in (int, str, bool, bytes):
        return _scalar(annotation)
    raise TypeError(f"cannot check values against {annotation!r}")  # pragma: no cover


def type_problem(value: Any, annotation: Any, path: str) -> str | None:
    """Why ``value`` does not fit ``annotation`` (a message naming ``path``), or ``None``."""
    return checker(annotation)(value, path)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode_payload(type_name: Any, values: Any) -> tuple[dict[str, Any], str | None]:
    """The payload of an event record from its field values (in declaration order), and
    why it is not a valid payload of event type ``type_name`` (``None`` when it is).

    There must be one value per field of the event, each of its declared type, except
    that an optional field (:data:`~cascadia.domain.events.OPTIONAL_FIELDS`) is left out
    while it is nil: written as nil, the record would not be in its one canonical form."""
    cls = EVENT_TYPES.get(type_name) if isinstance(type_name, str) else None
    if cls is None:
        return {}, f"unknown event type {type_name!r}"
    names = PAYLOAD_FIELDS[type_name]
    required = len(names) - len(OPTIONAL_FIELDS.get(type_name, ()))
    if not isinstance(values, list) or not required <= len(values) <= len(names):
        count = str(len(names)) if required == len(names) else f"{required} or {len(names)}"
        return {}, f"{type_name} needs a list of {count} field value(s): {', '.join(names)}"
    payload = dict(zip(names, values, strict=False))
    for name, check in _payload_checkers(type_name):
        if name not in payload:
            continue
        if name in OPTIONAL_FIELDS.get(type_name, ()) and payload[name] is None:
            return payload, f"{type_name}.{name} is left out, not written as nil"
        problem = check(payload[name], f"{type_name}.{name}")
        if problem:
            return payload, problem
    return payload, None


@cache
def _payload_checkers(type_name: str) -> tuple[tuple[str, Checker], ...]:
    hints = _hints(EVENT_TYPES[type_name])
    return tuple((name, checker(hints[name])) for name in PAYLOAD_FIELDS[type_name])


def fields_problem(value: dict[str, Any], expected: dict[str, Any]) -> str | None:
    """Why a header's fields are not of the types ``expected`` names (then why its
    ``options`` are not game options), or ``None``: logs and shards check headers alike."""
    for name, annotation in expected.items():
        problem = type_problem(value[name], annotation, name)
        if problem:
            return problem
    return options_problem(value["options"])


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
