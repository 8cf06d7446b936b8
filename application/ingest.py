"""Use case: ingest the games that ended in the event store into the analytics tables
(and the marks of its achievement maps, rewritten whole each time).

It follows the store's notification log: the ``GameEnded`` notifications after the
position recorded for this store (in ``analytics/tracking.json``) name the games to
load; the new position is recorded once their batch is committed, so a stopped ingest
resumes where it stopped and an unfinished game is picked up when it ends.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

from cascadia.analytics.ingest import DATA_ERRORS, Ingest, IngestReport, Problem, ProgressSink
from cascadia.analytics.rows import marks_table
from cascadia.application.maps import list_maps, load_map
from cascadia.application.store import GameStore
from cascadia.domain.events import GameEnded

NOTIFICATION_PAGE = 10_000


def add_store(ingest: Ingest, store: GameStore, progress: ProgressSink | None = None) -> None:
    """Add to ``ingest`` the games that ended in ``store`` since the last ingest from it,
    and write the marks of the store's achievement maps (the whole table, anew)."""
    location = store.location
    ended = list(ended_games(store, ingest.storage.tracking_position(location)))
    if progress is not None:
        progress.start(len(ended), "stored games")
    for position, game_id in ended:
        source = f"stored game {game_id}"
        if ingest.is_ingested(game_id):  # one added earlier in this run is not counted
            ingest.report.already += ingest.ingested_before(game_id)
        else:
            try:
                events = store.game_events(game_id)
            except DATA_ERRORS as error:
                ingest.problem(source, error)
            else:
                ingest.add(events, source=source)
        ingest.track(location, position)
        if progress is not None:
            progress.advance()
    ingest.flush()
    ingest.storage.write_marks(marks_table(load_map(store, m.map_id).state for m in list_maps(store)))


def ended_games(store: GameStore, after: int) -> Iterator[tuple[int, Any]]:
    """``(notification id, game id)`` of each ``GameEnded`` event after position ``after``."""
    for notification in store.notifications_of(GameEnded, after=after, batch=NOTIFICATION_PAGE):
        yield notification.id, notification.originator_id


def ingest_store(
    home: str | os.PathLike[str],
    store: GameStore,
    progress: ProgressSink | None = None,
    on_problem: Callable[[Problem], None] | None = None,
) -> IngestReport:
    """Ingest the games that ended in ``store`` since the last time into the analytics
    tables of the data directory ``home``."""
    with Ingest(home, on_problem=on_problem) as ingest:
        add_store(ingest, store, progress)
    return ingest.report
