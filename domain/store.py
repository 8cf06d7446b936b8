"""The event store: an ``eventsourcing`` application that saves and loads games.

By default it uses the library's SQLite persistence module with one database file,
``events.sqlite``, in the data directory (``--home``, else ``$CASCADIA_HOME``, else
``./.cascadia``). Any other persistence module is chosen by environment variables
alone: the library's own ``PERSISTENCE_MODULE`` and its settings (for example
``PERSISTENCE_MODULE=eventsourcing.postgres`` with ``POSTGRES_DBNAME``, ``POSTGRES_HOST``,
``POSTGRES_PORT``, ``POSTGRES_USER``, ``POSTGRES_PASSWORD``) override the defaults.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

from cascadia.domain.errors import CascadiaError
from cascadia.domain.events import GameEvent, GameStarted
from cascadia.domain.game import Game
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import Environment, EnvType, get_topic

DEFAULT_HOME = ".cascadia"
EVENTS_FILE = "events.sqlite"


class GameNotFoundError(CascadiaError, LookupError):
    """No game with that id is stored."""


class GameConflictError(CascadiaError):
    """Another writer appended to the game first: reload it and try again."""


def data_home(home: str | os.PathLike[str] | None = None) -> Path:
    """The data directory: ``home`` if given, else ``$CASCADIA_HOME``, else ``./.cascadia``."""
    return Path(home or os.environ.get("CASCADIA_HOME") or DEFAULT_HOME)


def store_settings(home: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """The defaults: SQLite in the data directory, events encoded with msgpack."""
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(data_home(home) / EVENTS_FILE),
        "TRANSCODER_TOPIC": "cascadia.domain.transcoder:MsgpackTranscoder",
    }


class GameStore(Application[UUID]):
    """Saves games as their events and loads them by replaying the events."""

    name = "cascadia"

    def __init__(self, home: str | os.PathLike[str] | None = None, env: EnvType | None = None) -> None:
        self._home = home
        super().__init__(env)

    def construct_env(self, name: str, env: EnvType | None = None) -> Environment:
        settings = store_settings(self._home)
        settings.update(os.environ)
        if env:
            settings.update(env)
        if settings["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
            Path(settings["SQLITE_DBNAME"]).parent.mkdir(parents=True, exist_ok=True)
        return Environment(name, settings)

    @property
    def location(self) -> str:
        """Where the events are kept, for messages."""
        module = self.env.get("PERSISTENCE_MODULE", "")
        if module == "eventsourcing.sqlite":
            return f"sqlite:{self.env.get('SQLITE_DBNAME')}"
        return module

    def save_game(self, game: Game) -> int:
        """Append the game's new events; returns how many were saved.

        Raises :class:`GameConflictError` when another writer saved events at the same
        positions first (optimistic concurrency): nothing of this save is written."""
        events = game.collect_events()
        if not events:
            return 0
        try:
            self.save(*events)
        except IntegrityError as error:
            raise GameConflictError(
                f"game {game.id} was changed by another writer at version "
                f"{events[0].originator_version}; reload it and try again"
            ) from error
        return len(events)

    def save_events(self, events: list[GameEvent]) -> None:
        """Append already-built events (for example a verified imported log) in one write."""
        try:
            self.save(*events)
        except IntegrityError as error:
            raise GameConflictError(
                f"game {events[0].originator_id} already has events at those positions"
            ) from error

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

    def started_games(self, batch: int = 1000) -> Iterator[tuple[UUID, dict[str, Any]]]:
        """Every stored game's id and ``GameStarted`` payload, in the order they were stored."""
        topic = get_topic(GameStarted)
        start = 1
        while True:
            notifications = self.recorder.select_notifications(start, batch, topics=[topic])
            for notification in notifications:
                event = self.mapper.to_domain_event(notification)
                yield event.originator_id, event.payload()  # type: ignore[attr-defined]
            if len(notifications) < batch:
                return
            start = notifications[-1].id + 1

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
