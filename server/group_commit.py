"""Group commit: the appends that wait while one is being written go in the next
transaction together, so that one sync to disk serves many commands.

One writer at a time in a process (the others wait on a lock here rather than on
SQLite's write lock, whose busy handler sleeps in steps of up to 100 ms). The thread that
gets the lock writes every append queued by then in one transaction; the threads whose
appends it wrote find them done. If the batch breaks the store's one-event-per-position
rule (two commands racing for one game, here or in another process), each append of
the batch is written alone instead, so that exactly the losers get the conflict.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cascadia.domain.events import GameEvent

Write = Callable[[Sequence[GameEvent]], None]


@dataclass
class _Append:
    events: Sequence[GameEvent]
    done: bool = False
    error: Exception | None = None


class GroupCommit:
    """Appends through ``write`` (one transaction per call), which raises ``conflict``
    when a position is taken."""

    def __init__(self, write: Write, conflict: type[Exception]) -> None:
        self._write = write
        self._conflict = conflict
        self._writing = threading.Lock()
        self._queue_lock = threading.Lock()
        self._queue: list[_Append] = []

    def append(self, events: Sequence[GameEvent]) -> None:
        """Store ``events`` (one game's, or a new game's with its record) atomically, with
        other appends or alone; raises what storing them alone would raise."""
        job = _Append(events)
        with self._queue_lock:
            self._queue.append(job)
        with self._writing:
            if not job.done:
                with self._queue_lock:
                    batch, self._queue = self._queue, []
                self._write_batch(batch)
        if job.error is not None:
            raise job.error

    def _write_batch(self, batch: list[_Append]) -> None:
        try:
            self._write([event for job in batch for event in job.events])
        except self._conflict as error:
            if len(batch) == 1:
                batch[0].error = error
            else:
                for job in batch:
                    try:
                        self._write(job.events)
                    except Exception as alone:
                        job.error = alone
        except Exception as error:
            for job in batch:
                job.error = error
        for job in batch:
            job.done = True
