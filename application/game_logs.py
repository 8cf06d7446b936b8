"""Use cases: moving games between the event store and log files.

:func:`export_game` writes a stored game as a log; :func:`import_log` audits a log in
full and only then saves its events. Importing a game that is already stored with the
same events is a no-op; a different game under the same id is refused.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

from cascadia.application.store import GameConflictError, GameStore
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game
from cascadia.replays.audit import derived_id, verify
from cascadia.replays.errors import ReplayError
from cascadia.replays.format import LogHeader, open_log, record_bytes, write_log
from cascadia.replays.scores import final_score_sheet


class ImportConflictError(ReplayError):
    """The store already holds a different game under the log's game id."""


@dataclass(frozen=True)
class ExportResult:
    game_id: UUID
    path: Path
    events: int
    bytes: int
    finished: bool


@dataclass(frozen=True)
class ImportResult:
    file: str
    game_id: UUID
    events: int
    imported: bool
    """``False`` when the same game was already stored (nothing was written)."""


def export_game(store: GameStore, game_id: UUID, path: str | os.PathLike[str]) -> ExportResult:
    """Write the stored game ``game_id`` as a log at ``path`` (atomically)."""
    events = store.game_events(game_id)
    state = Game.replay(events).state
    target = Path(path)
    size = write_log(target, LogHeader.from_events(events), events, final_score_sheet(state))
    return ExportResult(game_id, target, len(events), size, state.finished)


def import_log(store: GameStore, path: str | os.PathLike[str]) -> ImportResult:
    """Audit the log at ``path`` in full, then save its events (all in one write).

    Nothing is written when the audit fails (the error is raised), or when the store
    already holds the same game (``imported`` is then ``False``): under the log's id, or,
    for a log under another id, under the id derived from its deal with the same records
    (replays/FORMAT.md, "The game id": a copy re-chained under a random id is not a
    second game)."""
    with open_log(path) as reader:
        audit, events = verify(reader)
    game_id = audit.game.id
    same_deal = derived_id(audit.header)
    if (
        same_deal != game_id
        and store.has_game(same_deal)
        and _same_records(store.game_events(same_deal), events)
    ):
        return ImportResult(str(path), same_deal, len(events), imported=False)  # a copy under another id
    if not store.has_game(game_id):
        try:
            store.save_events(events)
        except GameConflictError:
            pass  # another writer stored this game meanwhile: compare below
        else:
            return ImportResult(str(path), game_id, len(events), imported=True)
    stored = store.game_events(game_id)
    if not _same_records(stored, events):
        raise ImportConflictError(
            f"{path}: the store already holds a different game with id {game_id} "
            f"({len(stored)} stored event(s), {len(events)} in the log)"
        )
    return ImportResult(str(path), game_id, len(events), imported=False)


def _same_records(stored: Sequence[GameEvent], logged: Sequence[GameEvent]) -> bool:
    """Whether two games have the same records (their ids aside)."""
    return [record_bytes(e) for e in stored] == [record_bytes(e) for e in logged]
