"""The final-score read model: an ``eventsourcing`` projection with a tracking recorder.

Every finished game's score sheet is recorded once, in ``read_models.sqlite`` in the
data directory, together with the position in the event store's notification log up
to which games have been processed. Row and position are written in one transaction,
so each game is processed exactly once and a restarted update resumes where it
stopped. The library's SQLite recorder has no ``subscribe()``, so :func:`update`
pulls ``GameEnded`` notifications after the tracked position.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from uuid import UUID

from cascadia.application.settings import data_home
from cascadia.application.store import GameStore
from cascadia.domain.events import GameEnded, GameEvent
from cascadia.projections.game_scores import score_state
from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection
from eventsourcing.sqlite import SQLiteCursor, SQLiteDatastore, SQLiteTrackingRecorder
from eventsourcing.utils import get_topic

READ_MODELS_FILE = "read_models.sqlite"


class FinalScoresView(SQLiteTrackingRecorder):
    """A ``final_scores`` table (game id, players, winners, the sheet as JSON) beside
    the library's tracking table."""

    def construct_create_table_statements(self) -> list[str]:
        return [
            *super().construct_create_table_statements(),
            "CREATE TABLE IF NOT EXISTS final_scores ("
            "game_id TEXT PRIMARY KEY, players INTEGER, winners TEXT, sheet TEXT) WITHOUT ROWID",
        ]

    def record(self, game_id: UUID, sheet: dict[str, Any], tracking: Tracking) -> None:
        """Store one game's sheet and advance the tracking position, atomically."""
        with self.datastore.transaction(commit=True) as cursor:
            self._upsert(cursor, game_id, sheet)
            self._insert_tracking(cursor, tracking)

    @staticmethod
    def _upsert(cursor: SQLiteCursor, game_id: UUID, sheet: dict[str, Any]) -> None:
        cursor.execute(
            "INSERT OR REPLACE INTO final_scores VALUES (?, ?, ?, ?)",
            (str(game_id), len(sheet["players"]), json.dumps(sheet["winners"]), json.dumps(sheet)),
        )

    def sheet(self, game_id: UUID) -> dict[str, Any] | None:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute("SELECT sheet FROM final_scores WHERE game_id = ?", (str(game_id),))
            row = cursor.fetchone()
        return json.loads(row[0]) if row else None

    def count(self) -> int:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute("SELECT COUNT(*) FROM final_scores")
            return int(cursor.fetchone()[0])


class FinalScoresProjection(Projection[FinalScoresView]):
    """Scores each game when its ``GameEnded`` event arrives."""

    name = "final_scores"
    topics = (get_topic(GameEnded),)

    def __init__(self, view: FinalScoresView, store: GameStore) -> None:
        super().__init__(view)
        self.store = store

    def process_event(self, domain_event: GameEvent, tracking: Tracking) -> None:  # type: ignore[override]
        game = self.store.game(domain_event.originator_id, version=domain_event.originator_version)
        self.view.record(game.id, score_state(game.state).to_dict(), tracking)


def open_final_scores(home: str | os.PathLike[str] | None = None) -> FinalScoresView:
    """The final-score view in the data directory (created on first use)."""
    path = Path(data_home(home)) / READ_MODELS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    view = FinalScoresView(SQLiteDatastore(str(path)))
    view.create_table()
    return view


def update(store: GameStore, view: FinalScoresView, batch: int = 500) -> int:
    """Process every ``GameEnded`` notification after the tracked position; returns how
    many games were scored."""
    projection = FinalScoresProjection(view, store)
    position = view.max_tracking_id(store.name) or 0
    processed = 0
    while True:
        notifications = store.recorder.select_notifications(
            position, batch, topics=FinalScoresProjection.topics, inclusive_of_start=False
        )
        for notification in notifications:
            event = store.mapper.to_domain_event(notification)
            projection.process_event(event, Tracking(store.name, notification.id))  # type: ignore[arg-type]
            processed += 1
            position = notification.id
        if len(notifications) < batch:
            return processed
