"""The event store: an ``eventsourcing`` application that saves and loads games.

By default it uses the library's SQLite persistence module with one database file,
``events.sqlite``, in the data directory (:func:`~cascadia.application.settings.data_home`: ``--home``, else
``$CASCADIA_HOME``, else the platform's user data folder). Any other persistence module
is chosen by environment variables alone, in this order (later wins):

1. the defaults of :func:`~cascadia.application.settings.store_settings`;
2. the library's own variables in ``os.environ``: ``PERSISTENCE_MODULE`` and its settings
   (for example ``PERSISTENCE_MODULE=eventsourcing.postgres`` with ``POSTGRES_DBNAME``,
   ``POSTGRES_HOST``, ``POSTGRES_PORT``, ``POSTGRES_USER``, ``POSTGRES_PASSWORD``,
   ``POSTGRES_SCHEMA``);
3. the ``env`` given to :class:`GameStore`;
4. ``CASCADIA_DATABASE_URL`` (from 2 or 3), e.g.
   ``postgresql://user[:password]@host[:port]/db[?schema=NAME]``: the settings it
   stands for (see :mod:`cascadia.application.database`) replace those of 1-3.

On PostgreSQL a named schema is created when missing, and the tables are created under
an advisory lock, so that many processes can open a fresh database at once.

On either database the events are kept one row per save
(:mod:`cascadia.application.compact_recorder`), each aggregate named by a small integer
key (the keyed layout), except in a database that already holds a store of an earlier
layout, which keeps its layout and recorder (:mod:`cascadia.application.store_layouts`;
``cascadia migrate`` copies such a store into a new one).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from uuid import UUID

from cascadia.application.database import (
    POSTGRES_MODULE,
    SQLITE_MODULE,
    describe,
    postgres_setup,
    require_psycopg,
)
from cascadia.application.settings import APP_NAME, resolve_settings
from cascadia.application.sqlite_pool import keep_statements
from cascadia.application.store_layouts import (
    SQLITE_LAYOUTS,
    layout_of,
    postgres_layouts,
    postgres_tables,
    sqlite_tables,
)
from cascadia.domain.errors import CascadiaError
from cascadia.domain.events import GameEvent, GameStarted
from cascadia.domain.game import Game
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import ApplicationRecorder, IntegrityError, Notification, StoredEvent
from eventsourcing.utils import Environment, EnvType, get_topic

NOTIFICATION_PAGE = 1000
"""Notifications read from the log in one query."""
RECORDER_TOPIC = "APPLICATION_RECORDER_TOPIC"
"""The library's setting naming the recorder class; set, it overrides the choice of
:meth:`GameStore.construct_recorder` (e.g. ``eventsourcing.sqlite:SQLiteApplicationRecorder``
writes a new store in the library's layout of one row per event)."""


class GameNotFoundError(CascadiaError, LookupError):
    """No game with that id is stored."""


class GameConflictError(CascadiaError):
    """Another writer appended to the game first: reload it and try again."""


class GameStore(Application[UUID]):
    """Saves games as their events and loads them by replaying the events."""

    name = APP_NAME

    def __init__(self, home: str | os.PathLike[str] | None = None, env: EnvType | None = None) -> None:
        self._home = home
        super().__init__(env)

    def construct_env(self, name: str, env: EnvType | None = None) -> Environment:
        environment = Environment(name, resolve_settings(self._home, env))
        module = environment.get("PERSISTENCE_MODULE")
        if module == SQLITE_MODULE:
            dbname = environment.get("SQLITE_DBNAME") or ""
            if dbname and ":memory:" not in dbname and not dbname.startswith("file:"):
                Path(dbname).parent.mkdir(parents=True, exist_ok=True)
        elif module == POSTGRES_MODULE:
            require_psycopg()
        return environment

    def construct_recorder(self) -> ApplicationRecorder:
        """The recorder of the layout the database holds (:mod:`cascadia.application.store_layouts`):
        the keyed recorder for a new database, the compact or the library's recorder for
        a store written in those layouts earlier, so that old stores stay readable;
        unless ``APPLICATION_RECORDER_TOPIC`` names another recorder. On SQLite the
        connections keep their prepared statements
        (:mod:`cascadia.application.sqlite_pool`). On PostgreSQL the
        tables are created under an advisory lock, because concurrent ``CREATE ... IF NOT
        EXISTS`` statements can collide."""
        module = self.env.get("PERSISTENCE_MODULE")
        if module == SQLITE_MODULE:
            keep_statements(self.factory.datastore)  # type: ignore[attr-defined]
            tables = sqlite_tables(self.factory.datastore)  # type: ignore[attr-defined]
            self._default_recorder(layout_of(tables, SQLITE_LAYOUTS).recorder)
        if module != POSTGRES_MODULE:
            return super().construct_recorder()
        with postgres_setup(self.env):
            tables = postgres_tables(self.factory.datastore)  # type: ignore[attr-defined]
            self._default_recorder(layout_of(tables, postgres_layouts(self.name)).recorder)
            return super().construct_recorder()

    def _default_recorder(self, topic: str) -> None:
        """Use the recorder ``topic`` unless the settings name one."""
        if not self.env.get(RECORDER_TOPIC):
            self.env[RECORDER_TOPIC] = topic

    @property
    def location(self) -> str:
        """Where the events are kept (a URL without any password), for messages."""
        return describe(self.env)

    def save_game(self, game: Game) -> int:
        """Append the game's new events; returns how many were saved.

        Raises :class:`GameConflictError` when another writer saved events at the same
        positions first (optimistic concurrency): nothing of this save is written."""
        events = game.collect_events()
        if events:
            self.save_events(events)
        return len(events)

    def save_events(self, events: Sequence[GameEvent]) -> None:
        """Append already-built events of one game (for example a verified imported log)
        in one write; :class:`GameConflictError` if any of their positions is taken."""
        try:
            self._insert(self.encode(events))
        except IntegrityError as error:
            raise GameConflictError(
                f"game {events[0].originator_id} was changed by another writer at version "
                f"{events[0].originator_version} or later; reload it and try again"
            ) from error

    def save_new_game(self, events: Sequence[GameEvent]) -> bool:
        """Store a new game's events; ``False`` (nothing written) if the game is already
        stored, e.g. by another process that played the same seed at the same time."""
        return self._insert_new(self.encode(events))

    def save_new_games(self, games: Sequence[Sequence[GameEvent]]) -> list[bool]:
        """Store several new games in one transaction; for each, whether it was stored.

        If one of them is already stored nothing of that transaction is written, and the
        games are then stored one by one, so that the others still land."""
        return self.save_new_records([self.encode(events) for events in games])

    def save_new_records(self, games: Sequence[Sequence[StoredEvent]]) -> list[bool]:
        """:meth:`save_new_games` for games already encoded by :meth:`encode` (or by this
        store's :attr:`mapper` elsewhere, e.g. in a worker process)."""
        try:
            self._insert([record for records in games for record in records])
        except IntegrityError:
            return [self._insert_new(records) for records in games]
        return [True] * len(games)

    def encode(self, events: Sequence[GameEvent]) -> list[StoredEvent]:
        """The events as this store writes them (topic and transcoded state)."""
        to_stored = self.mapper.to_stored_event
        return [to_stored(event) for event in events]

    def _insert_new(self, records: Sequence[StoredEvent]) -> bool:
        try:
            self._insert(records)
        except IntegrityError:
            return False
        return True

    def _insert(self, records: Sequence[StoredEvent]) -> None:
        """Write ``records`` (of one game or of several) atomically, in order.

        Straight to the recorder rather than through ``Application.save``: save's per-object
        protocol checks and notification records cost more than the write itself, and
        nothing else of it is needed here (no snapshots, and nothing follows the
        application's notifications in-process)."""
        if records:
            self.recorder.insert_events(list(records))

    def game(self, game_id: UUID, version: int | None = None) -> Game:
        """The game rebuilt from its stored events (up to ``version``)."""
        try:
            return self.repository.get(game_id, version=version, projector_func=Game.project)
        except AggregateNotFoundError:
            raise GameNotFoundError(f"no game {game_id} in {self.location}") from None

    def game_events(self, game_id: UUID, up_to: int | None = None) -> list[GameEvent]:
        """The stored events of one game, in order."""
        events = list(self.events.get(game_id, lte=up_to))
        if not events:
            raise GameNotFoundError(f"no game {game_id} in {self.location}")
        return events  # type: ignore[return-value]

    def has_game(self, game_id: UUID) -> bool:
        return bool(list(self.events.get(game_id, limit=1)))

    def notifications_of(
        self, event_type: type, after: int = 0, batch: int = NOTIFICATION_PAGE
    ) -> Iterator[Notification]:
        """The notifications of the stored events of ``event_type`` after position
        ``after``, in order, read from the notification log a page at a time."""
        topic = get_topic(event_type)
        start = after + 1
        while True:
            page = self.recorder.select_notifications(start, batch, topics=[topic])
            yield from page
            if len(page) < batch:
                return
            start = page[-1].id + 1

    def started_games(self, batch: int = NOTIFICATION_PAGE) -> Iterator[tuple[UUID, dict[str, Any]]]:
        """Every stored game's id and ``GameStarted`` payload, in the order they were stored."""
        for notification in self.notifications_of(GameStarted, batch=batch):
            event = self.mapper.to_domain_event(notification)
            yield event.originator_id, event.payload()  # type: ignore[attr-defined]

    def find_game(self, prefix: str) -> UUID:
        """The game whose id is ``prefix`` or starts with it (at least 4 characters)."""
        text = prefix.strip().lower()
        try:
            return UUID(text)
        except ValueError:
            pass
        if len(text) < 4:
            raise GameNotFoundError(f"give at least 4 characters of a game id, not {prefix!r}")
        matches = [gid for gid, _ in self.started_games() if str(gid).startswith(text)]
        if not matches:
            raise GameNotFoundError(f"no game id starts with {prefix!r} in {self.location}")
        if len(matches) > 1:
            raise GameNotFoundError(f"{len(matches)} games start with {prefix!r}; give more of the id")
        return matches[0]
