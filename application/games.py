"""Use cases on one stored game: start it, apply a player's command to it, let its bots
play while one is to move.

Applying a command is load, execute, save. The store appends with optimistic
concurrency (:class:`~cascadia.application.store.GameConflictError` when another writer
saved first). A caller that names the version it saw (``expected_version``) gets
:class:`StaleVersionError` when the game is elsewhere or another writer saves first:
the command is not tried again, the caller decides (the server's clients reload).
Without it the command is executed again on the reloaded game, up to ``attempts``
times in all, after which :class:`CommandConflictError` reports the conflict. A command
the rules refuse raises the engine's :class:`~cascadia.domain.errors.IllegalMoveError`
and saves nothing.

The use cases work on any :class:`GameRepository`: the event store
(:class:`~cascadia.application.store.GameStore`) or one that keeps more beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol
from uuid import UUID

from cascadia.application.store import GameConflictError
from cascadia.bots.base import Bot
from cascadia.bots.registry import bot_for_turn, is_bot_name, recorded_bots
from cascadia.domain.commands import Command
from cascadia.domain.errors import CascadiaError
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.domain.state import GameState

DEFAULT_ATTEMPTS = 3

BotFor = Callable[[UUID, GameState], Bot]
"""Makes the bot that plays the active seat's turn of a game (by its id and state)."""


class GameRepository(Protocol):
    """Where the use cases load games and store their events."""

    def game(self, game_id: UUID) -> Game:
        """The game as stored now (``GameNotFoundError`` if there is none)."""
        ...

    def save_events(self, events: Sequence[GameEvent]) -> None:
        """Append one game's new events in one write (``GameConflictError`` if another
        writer stored events at their positions first: nothing is written)."""
        ...

    def save_new_game(self, events: Sequence[object]) -> bool:
        """Store a new game's events (and any records written with them) in one write;
        ``False`` (nothing written) if the game is stored already."""
        ...


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


class StaleVersionError(GameConflictError):
    """The game is not at the version the caller expected (``actual``), or another writer
    saved first (``actual`` unknown: ``None``); nothing was saved."""

    def __init__(self, actual: int | None, expected: int) -> None:
        now = "" if actual is None else f" (it is now at version {actual})"
        super().__init__(f"the game has moved on since version {expected}{now}")
        self.actual = actual
        self.expected = expected


class NotYourTurnError(CascadiaError):
    """A seat's command while another seat is to move; nothing was saved."""

    def __init__(self, seat: int, current: int) -> None:
        super().__init__(f"it is seat {current}'s turn")
        self.seat = seat
        self.current = current


class GameNotOverError(CascadiaError):
    """What exists only once the game has ended (its score sheet, its log) was asked of a
    game still in play."""


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
    store: GameRepository,
    seed: int,
    players: int | Sequence[str] = 2,
    options: GameOptions | None = None,
    game_id: UUID | None = None,
    *,
    beside: Sequence[object] = (),
) -> Game:
    """Set up a new game (RULES.md 3) and store its setup events; the game is returned.

    Raises :class:`GameAlreadyStoredError` (nothing written) when the game is stored
    already, e.g. the same seed, seats and options started earlier. Seats named like a
    bot are played by it, and recorded so (``GameStarted.bots``). ``beside``: records
    stored in the same write (e.g. an interface's own record of the game)."""
    bots = None if isinstance(players, int) else recorded_bots(players)
    game = Game.start(seed, players, options, game_id, bots=bots)
    if not store.save_new_game([*game.collect_events(), *beside]):
        raise GameAlreadyStoredError(game.id)
    return game


def apply_command(
    store: GameRepository,
    game_id: UUID,
    command: Command,
    *,
    expected_version: int | None = None,
    seat: int | None = None,
    attempts: int = DEFAULT_ATTEMPTS,
    game: Game | None = None,
) -> AppliedCommand:
    """Load the game, execute ``command`` (a command value of ``domain/commands.py``),
    save its events.

    ``expected_version``: the version the caller saw; a game elsewhere, or another writer
    saving first, raises :class:`StaleVersionError` (one attempt only). Without it, a
    version conflict reloads and executes it again, ``attempts`` times in all, then
    raises :class:`CommandConflictError`. ``seat``: the seat that sends it
    (:class:`NotYourTurnError` while another is to move).

    ``game``: the caller's copy of the stored game, used for the first attempt instead of
    loading it (it must hold no unsaved events; it is spent either way). An illegal
    command raises the engine's ``IllegalMoveError`` with nothing saved;
    ``GameNotFoundError`` if there is no such game."""

    def execute(current: Game) -> None:
        if expected_version is not None and current.version != expected_version:
            raise StaleVersionError(current.version, expected_version)
        if seat is not None and not current.finished and current.state.current != seat:
            raise NotYourTurnError(seat, current.state.current)
        current.execute(command)

    if expected_version is None:
        return _change(store, game_id, execute, attempts, game)
    try:
        return _change(store, game_id, execute, 1, game)
    except CommandConflictError:
        raise StaleVersionError(None, expected_version) from None


def play_bot_turn(
    store: GameRepository,
    game_id: UUID,
    bot: Bot,
    *,
    attempts: int = DEFAULT_ATTEMPTS,
    game: Game | None = None,
) -> AppliedCommand:
    """Let ``bot`` play the active seat's whole turn and save it in one write, with the
    same conflict handling as :func:`apply_command`."""
    return _change(store, game_id, bot.play_turn, attempts, game)


def bot_to_move(state: GameState, bots: Sequence[bool] | None = None) -> bool:
    """Whether the game is in play and a bot plays the active seat. ``bots``: per seat,
    whether a bot plays it (default: a seat named like a bot, as the command line seats)."""
    if state.finished:
        return False
    return bots[state.current] if bots is not None else is_bot_name(state.names[state.current])


def run_bots(
    store: GameRepository,
    game_id: UUID,
    bots: Sequence[bool] | None = None,
    bot_for: BotFor | None = None,
    game: Game | None = None,
) -> int | None:
    """Let the bots play while a bot is to move (:func:`bot_to_move`), each turn stored
    as it is played; returns the game's version after their last stored turn (``None``:
    nothing to play, or another writer was first). ``bot_for`` makes the bot of a turn (default:
    :func:`~cascadia.bots.registry.bot_for_turn`). Another process doing the same at
    once is harmless: the loser of a race stops. ``game``: the caller's copy of the
    stored game (not loaded again; it is spent)."""
    current = store.game(game_id) if game is None else game
    moved = None
    while bot_to_move(current.state, bots):
        bot = bot_for_turn(current.state) if bot_for is None else bot_for(game_id, current.state)
        bot.play_turn(current)
        try:
            store.save_events(current.collect_events())
        except GameConflictError:
            break
        moved = current.version
    return moved


def _change(
    store: GameRepository,
    game_id: UUID,
    change: Callable[[Game], object],
    attempts: int,
    game: Game | None,
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
