"""Commands as data: one frozen value per decision a player can make (RULES.md 4).

==================  =========================================================  ===================
command             plain data (``to_dict``)                                   text (``str``)
==================  =========================================================  ===================
``WipeThree``       ``{"type": "wipe_three"}``                                 ``wipe3``
``NatureFreeChoice`` ``{"type": "nature_free"}``                               ``nature free``
``NatureWipe``      ``{"type": "nature_wipe", "slots": [0, 2]}``               ``nature wipe 0,2``
``Take``            ``{"type": "take", "tile_slot": 2, "wildlife_slot": 2}``   ``take 2`` (a pair)
``Take``            ``{"type": "take", "tile_slot": 1, "wildlife_slot": 3}``   ``take 1 3``
``PlaceTile``       ``{"type": "place_tile", "q": 1, "r": 0, "rotation": 3}``  ``tile 1 0 r3``
``PlaceWildlife``   ``{"type": "place_wildlife", "q": 1, "r": 0}``             ``token 1 0``
``ReturnWildlife``  ``{"type": "return_wildlife"}``                            ``return``
==================  =========================================================  ===================

A command value says what the player chose; whether it is legal is the game's question
(:meth:`~cascadia.domain.game.Game.execute`). Reading a command (:func:`from_dict`,
:func:`parse`) checks its form only and raises :class:`CommandFormatError`, saying what
is wrong, for anything else.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from cascadia.domain.errors import CommandFormatError


@dataclass(frozen=True)
class _Command:
    """What every command has: its ``type`` name, plain data and text."""

    type: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        """``{"type": ..., field: value, ...}``: JSON and msgpack as they are."""
        data: dict[str, Any] = {"type": self.type}
        for name in field_names(type(self)):
            value = getattr(self, name)
            data[name] = list(value) if isinstance(value, tuple) else value
        return data

    def __str__(self) -> str:
        return format_command(self)  # type: ignore[arg-type]


@dataclass(frozen=True)
class WipeThree(_Command):
    """RULES.md 4.1: the optional wipe of exactly three alike market tokens."""

    type: ClassVar[str] = "wipe_three"


@dataclass(frozen=True)
class NatureFreeChoice(_Command):
    """RULES.md 4.2: spend a nature token to take any tile with any token this turn."""

    type: ClassVar[str] = "nature_free"


@dataclass(frozen=True)
class NatureWipe(_Command):
    """RULES.md 4.2: spend a nature token to replace the tokens of market ``slots``.

    Slots given as whole numbers are kept in ascending order, so that one wipe has one
    value (the game refuses repeated slots)."""

    type: ClassVar[str] = "nature_wipe"
    slots: tuple[int, ...]

    def __post_init__(self) -> None:
        if isinstance(self.slots, list | tuple) and all(_is_int(s) for s in self.slots):
            object.__setattr__(self, "slots", tuple(sorted(self.slots)))


@dataclass(frozen=True)
class Take(_Command):
    """RULES.md 4.3: the tile of ``tile_slot`` and the token of ``wildlife_slot`` (the
    same slot: a pair; different slots need free choice)."""

    type: ClassVar[str] = "take"
    tile_slot: int
    wildlife_slot: int


@dataclass(frozen=True)
class PlaceTile(_Command):
    """RULES.md 4.3: the taken tile at hex ``(q, r)`` with ``rotation`` 0..5."""

    type: ClassVar[str] = "place_tile"
    q: int
    r: int
    rotation: int = 0


@dataclass(frozen=True)
class PlaceWildlife(_Command):
    """RULES.md 4.3: the taken token on the player's tile at ``(q, r)``."""

    type: ClassVar[str] = "place_wildlife"
    q: int
    r: int


@dataclass(frozen=True)
class ReturnWildlife(_Command):
    """RULES.md 4.3: the taken token goes back to the bag, unplaced."""

    type: ClassVar[str] = "return_wildlife"


Command = WipeThree | NatureFreeChoice | NatureWipe | Take | PlaceTile | PlaceWildlife | ReturnWildlife
"""Any decision of a player."""

COMMAND_TYPES: dict[str, type[Command]] = {
    cls.type: cls
    for cls in (WipeThree, NatureFreeChoice, NatureWipe, Take, PlaceTile, PlaceWildlife, ReturnWildlife)
}
"""Every command class by its ``type`` name (the plain-data form's ``"type"``)."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- plain data ---------------------------------------------------------------------------


@functools.cache
def field_names(cls: type[_Command]) -> tuple[str, ...]:
    """The names of a command type's fields, in order (``dataclasses.fields`` once per
    type: a view lists tens of legal commands, each written with :meth:`_Command.to_dict`)."""
    return tuple(f.name for f in fields(cls))


def from_dict(data: object) -> Command:
    """The command of a plain-data form; :class:`CommandFormatError` says what is wrong."""
    if not isinstance(data, Mapping):
        raise CommandFormatError(f"a command is a mapping with a 'type', not {type(data).__name__}")
    kind = data.get("type")
    cls = COMMAND_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        known = ", ".join(COMMAND_TYPES)
        raise CommandFormatError(f"unknown command type {kind!r}: one of {known}")
    names = field_names(cls)
    missing = [name for name in names if name not in data]
    if missing:
        raise CommandFormatError(f"a {kind} command needs {', '.join(missing)}")
    extra = sorted(str(key) for key in data if key != "type" and key not in names)
    if extra:
        raise CommandFormatError(f"a {kind} command has no {', '.join(extra)}")
    values: dict[str, Any] = {}
    for name in names:
        value = data[name]
        if name == "slots":
            if not isinstance(value, list | tuple) or not all(_is_int(s) for s in value):
                raise CommandFormatError(f"{kind}: slots is a list of whole numbers, not {value!r}")
            value = tuple(value)
        elif not _is_int(value):
            raise CommandFormatError(f"{kind}: {name} is a whole number, not {value!r}")
        values[name] = value
    return cls(**values)


# -- text: the game's move notation ------------------------------------------------------

_INT = r"[+-]?\d+"
_SLOTS = rf"{_INT}(?:\s*,\s*{_INT})*"
_GRAMMAR: list[tuple[re.Pattern[str], type[Command]]] = [
    (re.compile(r"wipe3"), WipeThree),
    (re.compile(r"nature\s+free"), NatureFreeChoice),
    (re.compile(rf"nature\s+wipe\s+(?P<slots>{_SLOTS})"), NatureWipe),
    (re.compile(rf"take\s+(?P<tile_slot>{_INT})(?:\s+(?P<wildlife_slot>{_INT}))?"), Take),
    (re.compile(rf"tile\s+(?P<q>{_INT})\s+(?P<r>{_INT})(?:\s+r(?P<rotation>{_INT}))?"), PlaceTile),
    (re.compile(rf"token\s+(?P<q>{_INT})\s+(?P<r>{_INT})"), PlaceWildlife),
    (re.compile(r"return"), ReturnWildlife),
]
NOTATION = "wipe3 | nature free | nature wipe 0,2 | take 2 | take 1 3 | tile 1 0 r3 | token 1 0 | return"
"""Every form of the move notation, by example."""


def parse(text: object) -> Command:
    """The command written as ``text`` in the move notation (case and spacing are free);
    :class:`CommandFormatError` says what is wrong."""
    if not isinstance(text, str):
        raise CommandFormatError(f"a move is text, not {type(text).__name__}")
    line = " ".join(text.lower().split())
    for pattern, cls in _GRAMMAR:
        match = pattern.fullmatch(line)
        if match is None:
            continue
        found = {key: value for key, value in match.groupdict().items() if value is not None}
        if cls is NatureWipe:
            return NatureWipe(tuple(int(s) for s in found["slots"].split(",")))
        if cls is Take and "wildlife_slot" not in found:
            found["wildlife_slot"] = found["tile_slot"]
        return cls(**{key: int(value) for key, value in found.items()})
    raise CommandFormatError(f"cannot read the move {text.strip()!r}: {_hint(line.split())}")


def _hint(words: list[str]) -> str:
    """The forms of the notation that start like ``words`` (all of them if none does)."""
    forms = [form.split() for form in NOTATION.split(" | ")]
    alike = [form for form in forms if words and form[0] == words[0]]
    closer = [form for form in alike if len(words) > 1 and words[1].isalpha() and form[1:2] == words[1:2]]
    if not alike:
        return f"moves are: {NOTATION}"
    return "write it like " + " or ".join(repr(" ".join(form)) for form in closer or alike)


def format_command(command: Command) -> str:
    """``command`` in the move notation (:func:`parse` reads it back)."""
    if isinstance(command, WipeThree):
        return "wipe3"
    if isinstance(command, NatureFreeChoice):
        return "nature free"
    if isinstance(command, NatureWipe):
        return "nature wipe " + ",".join(str(s) for s in command.slots)
    if isinstance(command, Take):
        if command.tile_slot == command.wildlife_slot:
            return f"take {command.tile_slot}"
        return f"take {command.tile_slot} {command.wildlife_slot}"
    if isinstance(command, PlaceTile):
        return f"tile {command.q} {command.r} r{command.rotation}"
    if isinstance(command, PlaceWildlife):
        return f"token {command.q} {command.r}"
    if isinstance(command, ReturnWildlife):
        return "return"
    raise CommandFormatError(f"not a command: {command!r}")
