"""Use cases on one stored game: start it, and apply a player's command to it.

Applying a command is load, execute, save. The store appends with optimistic
concurrency (:class:`~cascadia.application.store.GameConflictError` when another writer
saved first); the command is then executed again on the reloaded game, up to
``attempts`` times in all, after which :class:`CommandConflictError` reports the
conflict. A command the rules refuse raises the engine's
:class:`~cascadia.domain.errors.IllegalMoveError` and saves nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from uuid import UUID

from cascadia.application.store import GameConflictError, GameStore
from cascadia.domain.errors import CascadiaError
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions

DEFAULT_ATTEMPTS = 3

GameCommand = Callable[[Game], object] | object
"""A command: for now a callable that issues it on a game (e.g. ``lambda g: g.take(2)``,
or a bot's ``play_turn``), or a command value for ``Game.execute`` (see
:func:`execute_command`)."""


class GameAlreadyStoredError(CascadiaError):
    """A new game whose id (derived from its seed, seats and options) is already stored."""

    def __init__(self, game_id: UUID) -> None:
        super().__init__(f"game {game_id} is already stored")
        self.game_id = game_id


class CommandConflictError(GameConflictError):
    """Other writers changed the game before each of ``attempts`` saves: nothing of the
    command is stored."""

    def __init__(self, game_id: UUID, attempts: int) -> None:
        super().__init__(
            f"game {game_id} was changed by another writer before each of {attempts} attempt(s) "
            "to save the command; nothing was saved"
        )
        self.game_id = game_id
        self.attempts = attempts


@dataclass(frozen=True)
class AppliedCommand:
    """A command that was executed and saved."""

    game: Game
    """The game after the command, as stored (no unsaved events)."""
    events: list[GameEvent]
    """The events the command appended."""
    attempts: int
    """How many times it was executed (more than 1: it met a conflict and was retried)."""


def start_game(
    store: GameStore,
    seed: int,
    players: int | Sequence[str] = 2,
    options: GameOptions | None = None,
    game_id: UUID | None = None,
) -> Game:
    """Set up a new game (RULES.md 3) and store its setup events; the game is returned.

    Raises :class:`GameAlreadyStoredError` (nothing written) when the game is stored
    already, e.g. the same seed, seats and options started earlier."""
    game = Game.start(seed, players, options, game_id)
    if not store.save_new_game(game.collect_events()):
        raise GameAlreadyStoredError(game.id)
    return game


def execute_command(game: Game, command: GameCommand) -> None:
    """Issue ``command`` on ``game``: a callable is called with the game, any other value
    goes to ``game.execute`` (the command values of ``domain/commands.py``).

    Once ``Game.execute`` is merged and every caller passes command values, the body of
    this function becomes the one line ``game.execute(command)``."""
    if callable(command):
        command(game)
    else:
        game.execute(command)  # type: ignore[attr-defined]


def apply_command(
    store: GameStore,
    game_id: UUID,
    command: GameCommand,
    *,
    attempts: int = DEFAULT_ATTEMPTS,
    game: Game | None = None,
) -> AppliedCommand:
    """Load the game, execute ``command``, save its events; on a version conflict reload
    and execute it again, ``attempts`` times in all, then raise :class:`CommandConflictError`.

    ``game``: the caller's copy of the stored game, used for the first attempt instead of
    loading it (it must hold no unsaved events; it is spent either way). An illegal
    command raises the engine's ``IllegalMoveError`` with nothing saved;
    ``GameNotFoundError`` if there is no such game."""
    if attempts < 1:
        raise ValueError(f"attempts must be at least 1, not {attempts}")
    if game is not None and game.id != game_id:
        raise ValueError(f"the game given is {game.id}, not {game_id}")
    for attempt in range(1, attempts + 1):
        current = game if attempt == 1 and game is not None else store.game(game_id)
        execute_command(current, command)
        events = current.collect_events()
        try:
            if events:
                store.save_events(events)
        except GameConflictError:
            continue
        return AppliedCommand(current, events, attempt)
    raise CommandConflictError(game_id, attempts)
