"""The one table from the typed errors of the use cases (``application/``, and the
domain's they let through) to the problem details the server answers with.

:func:`answering` wraps a call of a use case: an error of the table becomes its
:class:`~cascadia.server.problems.Problem`; any other error goes on (a bug: a 500).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from cascadia.application.games import GameNotOverError, NotYourTurnError, StaleVersionError
from cascadia.application.map_games import NotForAMapError
from cascadia.application.maps import MapConflictError, MapNotFoundError
from cascadia.application.store import GameNotFoundError
from cascadia.domain.achievement_map import AchievementMapError, MapPlayerError, NotAWinnerError
from cascadia.domain.commands import Command
from cascadia.domain.errors import CommandFormatError, IllegalMoveError, InvalidOptionError
from cascadia.server.problems import Problem

MAP_RULE = "RULES.md 8.1"
QUOTED_ID = 64


def game_not_found(game_id: object) -> Problem:
    return Problem(404, "game-not-found", "Game not found", f"no game {str(game_id)[:QUOTED_ID]}")


def map_not_found(map_id: object) -> Problem:
    return Problem(404, "map-not-found", "Map not found", f"no map {str(map_id)[:QUOTED_ID]}")


def _illegal_move(error: IllegalMoveError, command: Command | None) -> Problem:
    extra: dict[str, Any] = {"error": type(error).__name__, "rule": error.rule}
    if hasattr(command, "q"):
        extra["hex"] = [command.q, command.r]  # type: ignore[union-attr]
    return Problem(422, "illegal-move", "Illegal move", str(error), **extra)


Translate = Callable[[Any, object, Command | None], Problem]
"""``(error, the id the request names, the command it sent)`` to the problem."""

TABLE: dict[type[Exception], Translate] = {
    GameNotFoundError: lambda _, subject, __: game_not_found(subject),
    MapNotFoundError: lambda _, subject, __: map_not_found(subject),
    StaleVersionError: lambda error, _, __: Problem(
        409, "stale-version", "Stale version", f"{error}; reload it and try again"
    ),
    MapConflictError: lambda error, _, __: Problem(
        409, "stale-version", "Stale version", f"{error}; reload the map and try again"
    ),
    NotYourTurnError: lambda error, _, __: Problem(403, "not-your-turn", "Not your turn", str(error)),
    CommandFormatError: lambda error, _, __: Problem(422, "invalid-command", "Invalid command", str(error)),
    IllegalMoveError: lambda error, _, command: _illegal_move(error, command),
    InvalidOptionError: lambda error, _, __: Problem(422, "invalid-options", "Invalid game", str(error)),
    GameNotOverError: lambda error, _, __: Problem(409, "game-not-over", "Game not over", str(error)),
    NotForAMapError: lambda error, _, __: Problem(409, "not-for-a-map", "Not for a map", str(error)),
    NotAWinnerError: lambda error, _, __: Problem(403, "not-a-winner", "Not a winner", str(error)),
    MapPlayerError: lambda error, _, __: Problem(422, "invalid-map", "Invalid map", str(error)),
    AchievementMapError: lambda error, _, __: Problem(
        422, "mark-refused", "Mark refused", str(error), error=type(error).__name__, rule=MAP_RULE
    ),
}
"""Each error type's problem; an error takes the entry of its nearest class in the table."""


def problem_for(error: Exception, subject: object = None, command: Command | None = None) -> Problem | None:
    """The problem answering ``error`` (``None``: not an error of the table)."""
    for kind in type(error).__mro__:
        translate = TABLE.get(kind)
        if translate is not None:
            return translate(error, subject, command)
    return None


@contextlib.contextmanager
def answering(subject: object = None, command: Command | None = None) -> Iterator[None]:
    """Raise the problem of an error of the table raised inside (``subject``: the game or
    map the request names; ``command``: the command it sent)."""
    try:
        yield
    except Exception as error:
        problem = problem_for(error, subject, command)
        if problem is None:
            raise
        raise problem from None
