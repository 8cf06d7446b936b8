"""Ingest finished games into the analytics tables: from game logs and from games played
in memory (the event store's games come through :mod:`cascadia.application.ingest`, which
feeds an :class:`Ingest`).

Ingest is incremental and idempotent: a game whose id is already in a committed batch
is skipped, so running an ingest twice adds nothing. Games are decoded into columns
(:mod:`cascadia.analytics.rows`) and written once per batch of
:data:`DEFAULT_BATCH_GAMES` games (:mod:`cascadia.analytics.storage`).

A log is audited in full before anything of it is added (nothing enters the tables that
``cascadia audit`` would refuse); games from the event store were verified when they
were stored (played by the engine, or imported after an audit) and are taken as they
are. A log or stored game that cannot be read, audited or replayed is reported as a
:class:`Problem` (``corrupt``) and skipped; the rest goes on. A game that has not ended is reported as
``unfinished`` and skipped (only finished games are analysed).

A source that is read incrementally (the event store's notification log) is tracked:
:meth:`Ingest.track` records its position, saved in ``analytics/tracking.json`` once the
batch holding the games read so far is committed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Protocol

from cascadia.analytics.collector import young_collections_rarer
from cascadia.analytics.rows import BatchColumns, UnfinishedGameError
from cascadia.analytics.storage import AnalyticsStore, new_batch_id
from cascadia.domain.errors import CascadiaError
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game
from cascadia.domain.state import GameState
from cascadia.replays.audit import Audit, derived_id
from cascadia.replays.files import log_files
from cascadia.replays.format import LogReader, open_log

DEFAULT_BATCH_GAMES = 2000
"""Games per batch (about 450 event rows each for 4 players): bounds the memory of an ingest."""
DATA_ERRORS = (CascadiaError, ValueError, KeyError, IndexError, TypeError)
"""What a damaged game can raise while it is replayed and scored: reported, then skipped."""


class ProgressSink(Protocol):
    """Where an ingest reports its progress (a progress bar, or nothing)."""

    def start(self, total: int | None, description: str) -> None: ...

    def advance(self, steps: int = 1) -> None: ...


class _NoProgress:
    def start(self, total: int | None, description: str) -> None:
        pass

    def advance(self, steps: int = 1) -> None:
        pass


@dataclass(frozen=True, slots=True)
class Problem:
    """A game or log that was skipped, and why."""

    source: str
    reason: str
    kind: Literal["corrupt", "unfinished"]

    def to_dict(self) -> dict[str, str]:
        return {"source": self.source, "reason": self.reason, "kind": self.kind}


@dataclass(slots=True)
class IngestReport:
    """What an ingest did."""

    ingested: int = 0
    already: int = 0
    """Games skipped because they were ingested before."""
    problems: list[Problem] = field(default_factory=list)
    batches: list[str] = field(default_factory=list)
    bytes_written: int = 0
    seconds: float = 0.0

    @property
    def corrupt(self) -> list[Problem]:
        return [p for p in self.problems if p.kind == "corrupt"]

    @property
    def unfinished(self) -> list[Problem]:
        return [p for p in self.problems if p.kind == "unfinished"]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ingested": self.ingested,
            "already_ingested": self.already,
            "corrupt": len(self.corrupt),
            "unfinished": len(self.unfinished),
            "problems": [p.to_dict() for p in self.problems],
            "batches": list(self.batches),
            "bytes_written": self.bytes_written,
            "seconds": round(self.seconds, 3),
        }


def _reason(error: BaseException, source: str) -> str:
    """The error as one line, without the source name when the message starts with it."""
    text = " ".join(str(error).split()) or type(error).__name__
    if source and text.startswith(source):
        text = text[len(source) :].lstrip(": ")
        location, separator, rest = text.partition("): ")
        if text.startswith("(") and separator:
            text = f"{rest} ({location[1:]})"
    if not isinstance(error, CascadiaError):
        text = f"{type(error).__name__}: {text}"
    return text


class Ingest:
    """One ingest run: hold the write lock, collect games into batches, commit them.

    Use as a context manager; the last (partial) batch is committed on leaving, also
    when the run is interrupted, so every game added before the interruption is kept::

        with Ingest(home) as ingest:
            for game in games:
                ingest.add(game.collect_events(), game.state)
        print(ingest.report.ingested)
    """

    def __init__(
        self,
        home: str | os.PathLike[str],
        batch_games: int = DEFAULT_BATCH_GAMES,
        on_problem: Callable[[Problem], None] | None = None,
    ) -> None:
        self.storage = AnalyticsStore(home)
        self.batch_games = max(1, batch_games)
        self.on_problem = on_problem
        self.report = IngestReport()
        self._batch = BatchColumns()
        self._known: set[str] = set()
        self._before: frozenset[str] = frozenset()
        """The games ingested before this run (``_known`` adds those of this run)."""
        self._tracking: tuple[str, int] | None = None
        self._writing: Any = None
        self._collections: Any = None
        self._started = 0.0

    def __enter__(self) -> Ingest:
        self._started = time.perf_counter()
        self._writing = self.storage.writing()
        self._writing.__enter__()
        self._known = self.storage.ingested_game_ids()
        self._before = frozenset(self._known)
        self._collections = young_collections_rarer()  # a batch of rows kept alive
        self._collections.__enter__()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        try:
            if kind is None or issubclass(kind, KeyboardInterrupt):
                self.flush()
        finally:
            self.report.seconds = time.perf_counter() - self._started
            self._collections.__exit__(kind, error, traceback)
            self._writing.__exit__(kind, error, traceback)

    # -- games -------------------------------------------------------------------------

    def is_ingested(self, game_id: object) -> bool:
        """Whether a game with this id is ingested (or waiting in the current batch)."""
        return str(game_id) in self._known

    def ingested_before(self, game_id: object) -> bool:
        """Whether a game with this id was ingested before this run started."""
        return str(game_id) in self._before

    def problem(self, source: str, error: BaseException) -> None:
        """Record a skipped game or log."""
        kind: Literal["corrupt", "unfinished"] = (
            "unfinished" if isinstance(error, UnfinishedGameError) else "corrupt"
        )
        problem = Problem(source, _reason(error, source), kind)
        self.report.problems.append(problem)
        if self.on_problem is not None:
            self.on_problem(problem)

    def add(self, events: Sequence[GameEvent], state: GameState | None = None, source: str = "") -> bool:
        """Add one finished game from its events (``state``: its final state, if at hand).

        Returns whether it was added: ``False`` when it was ingested before, or when it
        is unfinished or corrupt (then reported as a :class:`Problem`)."""
        if not events:
            self.problem(source or "game", CascadiaError("no events"))
            return False
        game_id = str(events[0].originator_id)
        if game_id in self._known:
            self.report.already += 1
            return False
        try:
            self._batch.add_game(events, state)
        except DATA_ERRORS as error:
            self.problem(source or f"game {game_id}", error)
            return False
        self._known.add(game_id)
        self.report.ingested += 1
        if len(self._batch) >= self.batch_games:
            self.flush()
        return True

    def flush(self) -> None:
        """Commit the games collected so far as one batch (if any), then the tracking position."""
        if len(self._batch):
            batch = new_batch_id()
            self.report.bytes_written += self.storage.write_batch(self._batch.tables(batch), batch)
            self.report.batches.append(batch)
            self._batch = BatchColumns()
        if self._tracking is not None:
            self.storage.save_tracking_position(*self._tracking)
            self._tracking = None

    # -- sources -----------------------------------------------------------------------

    def add_games(
        self, games: Iterable[Game | Sequence[GameEvent]], progress: ProgressSink | None = None
    ) -> None:
        """Add games played in memory: finished :class:`Game` objects whose events were
        not collected yet (this collects them), or the event lists of finished games."""
        progress = progress or _NoProgress()
        for item in games:
            if isinstance(item, Game):
                events, state = item.collect_events(), item.state
                if not events or events[0].originator_version != 1:
                    raise ValueError(
                        f"game {item.id}: its events were already collected; pass the list of its events"
                    )
                self.add(events, state)
            else:
                self.add(item)
            progress.advance()

    def add_logs(self, files: Sequence[Path], progress: ProgressSink | None = None) -> None:
        """Add the games of log files, each audited in full first (replays/audit.py), as
        ``import`` does: a log that the audit refuses is reported and skipped, and nothing
        of it enters the tables. The audit streams the log one frame at a time and stops
        at the first divergence, so a hostile log is never held in memory; the events it
        confirms are the engine's, as many as the rules allow."""
        progress = progress or _NoProgress()
        progress.start(len(files), "logs")
        for path in files:
            source = str(path)
            try:
                with open_log(path) as reader:
                    self._add_log(reader, source)
            except (OSError, *DATA_ERRORS) as error:
                self.problem(source, error)
            progress.advance()

    def _add_log(self, reader: LogReader, source: str) -> None:
        """Add the game of one log, unless it is ingested: under the log's id, or under the
        id derived from its deal (a copy re-chained under a random id is not a second game
        in the statistics: replays/FORMAT.md, "The game id")."""
        if self.is_ingested(reader.header.game_id):
            self.report.already += 1
            return
        audit = Audit(reader)
        if self.is_ingested(derived_id(audit.header)):
            self.report.already += 1
            return
        self.add(list(audit.events()), audit.game.state, source=source)

    def track(self, location: str, position: int) -> None:
        """Record that the notification log at ``location`` has been read up to
        ``position``; saved right after the batch holding the games read so far."""
        self._tracking = (location, position)


def ingest_games(
    home: str | os.PathLike[str],
    games: Iterable[Game | Sequence[GameEvent]],
    batch_games: int = DEFAULT_BATCH_GAMES,
    progress: ProgressSink | None = None,
) -> IngestReport:
    """Ingest games played in memory (for ``cascadia simulate --ingest`` and benchmarks).

    ``games`` yields finished :class:`Game` objects whose events were not collected yet
    (their events are collected here), or the event lists of finished games. Games are
    consumed lazily, so a generator that plays the games streams straight into batches."""
    with Ingest(home, batch_games) as ingest:
        ingest.add_games(games, progress)
    return ingest.report


def ingest_logs(
    home: str | os.PathLike[str],
    paths: Iterable[str | os.PathLike[str]],
    progress: ProgressSink | None = None,
    on_problem: Callable[[Problem], None] | None = None,
) -> IngestReport:
    """Ingest the log files and folders of logs in ``paths``."""
    files = log_files(paths)
    with Ingest(home, on_problem=on_problem) as ingest:
        ingest.add_logs(files, progress)
    return ingest.report
