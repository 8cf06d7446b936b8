"""Moving recorded games from one event store to another, verified.

Every game of the source is compared with what the target already holds:

- nothing: all its events are copied (``copied``);
- the same events: nothing is written (``identical``);
- a beginning of the source's events (the game went on since an earlier migration):
  the rest is appended (``extended``);
- anything else: nothing is written and the first difference is reported (``conflict``).

A copied or extended game is then rebuilt from the target and compared with the
source, event for event and state for state; a mismatch raises
:class:`MigrationVerifyError` and stops the migration.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal
from uuid import UUID

from cascadia.application.database import same_database
from cascadia.application.store import GameConflictError, GameNotFoundError, GameStore
from cascadia.domain.errors import CascadiaError
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game

Outcome = Literal["copied", "extended", "identical", "conflict"]


class MigrationError(CascadiaError):
    """A migration that cannot run (e.g. source and target are the same store)."""


class MigrationVerifyError(MigrationError):
    """A game read back from the target differs from the source: the target is suspect."""


@dataclass(frozen=True)
class MigratedGame:
    """What happened to one game: its outcome, the events written, and for a conflict why."""

    game_id: UUID
    outcome: Outcome
    written: int = 0
    detail: str = ""


def migrate_games(
    source: GameStore, target: GameStore, game_ids: Iterable[UUID] | None = None
) -> Iterator[MigratedGame]:
    """Copy the games ``game_ids`` (default: all, in the order they were stored) from
    ``source`` to ``target``, one result per game."""
    if same_database(source.env, target.env):
        raise MigrationError(f"source and target are the same store ({source.location})")
    ids = game_ids if game_ids is not None else (gid for gid, _ in source.started_games())
    for game_id in ids:
        yield migrate_game(source, target, game_id)


def migrate_game(source: GameStore, target: GameStore, game_id: UUID) -> MigratedGame:
    """Copy one game (see the module docstring), verified; a second writer racing us on
    the target is handled by comparing again."""
    events = source.game_events(game_id)
    for _ in range(2):
        present = stored_events(target, game_id)
        if present == events:
            return MigratedGame(game_id, "identical")
        conflict = difference(events, present)
        if conflict:
            return MigratedGame(game_id, "conflict", detail=conflict)
        missing = events[len(present) :]
        try:
            target.save_events(missing)
        except GameConflictError:
            continue  # someone else wrote this game meanwhile: look again
        verify(target, game_id, events)
        return MigratedGame(game_id, "extended" if present else "copied", written=len(missing))
    present = stored_events(target, game_id)
    return MigratedGame(game_id, "conflict", detail=difference(events, present) or "changed during migration")


def stored_events(store: GameStore, game_id: UUID) -> list[GameEvent]:
    """The game's events in ``store``, or ``[]`` when it has none."""
    try:
        return store.game_events(game_id)
    except GameNotFoundError:
        return []


def difference(source: list[GameEvent], target: list[GameEvent]) -> str:
    """Why ``target`` cannot be brought to ``source`` by appending; ``""`` if it can."""
    for ours, theirs in zip(source, target, strict=False):
        if ours != theirs:
            return (
                f"differs at event {ours.originator_version}: source has {ours.type} "
                f"{ours.payload()}, target has {theirs.type} {theirs.payload()}"
            )
    if len(target) > len(source):
        return f"target has {len(target)} events, the source only {len(source)}"
    return ""


def verify(target: GameStore, game_id: UUID, events: list[GameEvent]) -> None:
    """Rebuild the game from ``target`` and compare it with ``events``: same events, same state."""
    stored = target.game_events(game_id)
    if stored != events:
        raise MigrationVerifyError(
            f"game {game_id} read back from {target.location} differs from the source: "
            f"{difference(events, stored) or 'events are missing'}"
        )
    if target.game(game_id).state != Game.replay(events).state:
        raise MigrationVerifyError(f"game {game_id} rebuilt from {target.location} has a different state")
