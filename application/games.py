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
from cascadia.bots.base import Bot
from cascadia.bots.registry import recorded_bots
from cascadia.domain.commands import Command
from cascadia.domain.errors import CascadiaError
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions

DEFAULT_ATTEMPTS = 3


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
    already, e.g. the same seed, seats and options started earlier. Seats named like a
    bot are played by it, and recorded so (``GameStarted.bots``)."""
    bots = None if isinstance(players, int) else recorded_bots(players)
    game = Game.start(seed, players, options, game_id, bots=bots)
    if not store.save_new_game(game.collect_events()):
        raise GameAlreadyStoredError(game.id)
    return game


def apply_command(
    store: GameStore,
    game_id: UUID,
    command: Command,
    *,
    attempts: int = DEFAULT_ATTEMPTS,
    game: Game | None = None,
) -> AppliedCommand:
    """Load the game, execute ``command`` (a command value of ``domain/commands.py``),
    save its events; on a version conflict reload and execute it again, ``attempts``
    times in all, then raise :class:`CommandConflictError`.

    ``game``: the caller's copy of the stored game, used for the first attempt instead of
    loading it (it must hold no unsaved events; it is spent either way). An illegal
    command raises the engine's ``IllegalMoveError`` with nothing saved;
    ``GameNotFoundError`` if there is no such game."""
    return _change(store, game_id, lambda current: current.execute(command), attempts, game)


def play_bot_turn(
    store: GameStore, game_id: UUID, bot: Bot, *, attempts: int = DEFAULT_ATTEMPTS, game: Game | None = None
) -> AppliedCommand:
    """Let ``bot`` play the active seat's whole turn and save it in one write, with the
    same conflict handling as :func:`apply_command`."""
    return _change(store, game_id, bot.play_turn, attempts, game)


def _change(
    store: GameStore, game_id: UUID, change: Callable[[Game], object], attempts: int, game: Game | None
) -> AppliedCommand:
    """Load (or take ``game``), change, save; on a version conflict reload and change again."""
    if attempts < 1:
        raise ValueError(f"attempts must be at least 1, not {attempts}")
    if game is not None and game.id != game_id:
        raise ValueError(f"the game given is {game.id}, not {game_id}")
    for attempt in range(1, attempts + 1):
        current = game if attempt == 1 and game is not None else store.game(game_id)
        change(current)
        events = current.collect_events()
        try:
            if events:
                store.save_events(events)
        except GameConflictError:
            continue
        return AppliedCommand(current, events, attempt)
    raise CommandConflictError(game_id, attempts)
