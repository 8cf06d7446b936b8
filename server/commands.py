"""Commands in their JSON form and text, until the project's command module lands.

This is the server's one adapter to the engine's commands: :func:`parse_command` (JSON
form to a command), :func:`execute` (issue it on a game), :func:`legal_commands` (every
command the rules accept now) and :func:`command_text`. The JSON forms are listed in
``server/API.md``. When ``domain/commands.py`` lands, these four become calls to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from cascadia.domain.errors import CascadiaError
from cascadia.domain.game import Game

_FIELDS: dict[str, tuple[str, ...]] = {
    "wipe_three": (),
    "spend_nature": ("action", "slots"),
    "take": ("tile_slot", "wildlife_slot"),
    "place_tile": ("q", "r", "rotation"),
    "place_wildlife": ("q", "r"),
    "return_wildlife": (),
}
_REQUIRED: dict[str, tuple[str, ...]] = {
    "spend_nature": ("action",),
    "take": ("tile_slot",),
    "place_tile": ("q", "r", "rotation"),
    "place_wildlife": ("q", "r"),
}
_TEXT_HEAD = {
    "wipe_three": "three",
    "take": "take",
    "place_tile": "tile",
    "place_wildlife": "wildlife",
    "return_wildlife": "return",
}


class CommandFormatError(CascadiaError, ValueError):
    """A JSON value that is not a command (unknown type, missing or mistyped fields)."""


@dataclass(frozen=True)
class Command:
    """One command: its type (a :class:`Game` method) and its arguments by name."""

    type: str
    args: tuple[tuple[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, **dict(self.args)}

    @property
    def hex(self) -> list[int] | None:
        """The hex the command names, if any (for error reports)."""
        args = dict(self.args)
        return [args["q"], args["r"]] if "q" in args else None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_command(data: Any) -> Command:
    """The command of a JSON value; :class:`CommandFormatError` if it is not one."""
    if not isinstance(data, dict):
        raise CommandFormatError("a command is a JSON object with a 'type'")
    kind = data.get("type")
    if kind not in _FIELDS:
        raise CommandFormatError(f"unknown command type {str(kind)[:40]!r}; one of {', '.join(_FIELDS)}")
    unknown = sorted(set(data) - {"type", *_FIELDS[kind]})
    if unknown:
        raise CommandFormatError(f"{kind} has no field {unknown[0][:40]!r}")
    missing = [name for name in _REQUIRED.get(kind, ()) if data.get(name) is None]
    if missing:
        raise CommandFormatError(f"{kind} needs {', '.join(missing)}")
    args = {name: data[name] for name in _FIELDS[kind] if data.get(name) is not None}
    for name, value in args.items():
        if name == "action":
            if value not in ("free_choice", "wipe"):
                raise CommandFormatError("action is 'free_choice' or 'wipe'")
        elif name == "slots":
            if not isinstance(value, list) or not all(_is_int(v) for v in value) or len(value) > 8:
                raise CommandFormatError("slots is a list of market slot numbers")
        elif not _is_int(value) or abs(value) > 1000:
            raise CommandFormatError(f"{name} is a whole number, not {str(value)[:40]!r}")
    if kind == "spend_nature" and (args["action"] == "wipe") != ("slots" in args):
        raise CommandFormatError("a nature 'wipe' names its slots; 'free_choice' names none")
    return Command(kind, tuple(args.items()))


def execute(game: Game, command: Command) -> None:
    """Issue ``command`` on ``game``; an illegal one raises the engine's ``IllegalMoveError``
    and changes nothing."""
    getattr(game, command.type)(**dict(command.args))


def command_text(command: Command) -> str:
    """The command in the text notation, e.g. ``take 2 2`` or ``nature wipe 0 2``."""
    args = dict(command.args)
    if command.type == "spend_nature":
        if args["action"] == "free_choice":
            return "nature free"
        return " ".join(["nature wipe", *map(str, args["slots"])])
    return " ".join([_TEXT_HEAD[command.type], *(str(v) for v in args.values())])


def legal_commands(game: Game) -> list[Command]:
    """Every command the rules accept from the active seat now."""
    state = game.state
    if state.finished:
        return []
    ts = state.turn_state
    found: list[Command] = []
    if game.can_wipe_three():
        found.append(Command("wipe_three"))
    actions = game.nature_actions()
    if "free_choice" in actions:
        found.append(Command("spend_nature", (("action", "free_choice"),)))
    if "wipe" in actions:
        slots = [s for s, w in enumerate(state.market_wildlife) if w is not None]
        for size in range(1, len(slots) + 1):
            for chosen in combinations(slots, size):
                found.append(Command("spend_nature", (("action", "wipe"), ("slots", list(chosen)))))
    for tile_slot, wildlife_slot in game.legal_takes():
        found.append(Command("take", (("tile_slot", tile_slot), ("wildlife_slot", wildlife_slot))))
    if ts.has_taken and ts.tile_hex is None:
        for (q, r), rotation in game.legal_tile_placements():
            found.append(Command("place_tile", (("q", q), ("r", r), ("rotation", rotation))))
    if ts.has_taken and not ts.wildlife_done:
        for q, r in game.legal_wildlife_targets():
            found.append(Command("place_wildlife", (("q", q), ("r", r))))
        found.append(Command("return_wildlife"))
    return found
