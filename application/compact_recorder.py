"""The compact event store: one database row per save of an aggregate, as an ``eventsourcing`` recorder.

:class:`CompactRecorder` keeps the library's ``ApplicationRecorder`` contract (it takes
and gives ``StoredEvent`` and ``Notification`` objects, with full topics and the
transcoder's state bytes) while storing far fewer bytes than a row per event:

- **rows**: :meth:`CompactRecorder.insert_events` puts each run of consecutive events
  of one aggregate (consecutive versions, at most :data:`ROW_CAPACITY`) into one row:
  the aggregate (its id, or its integer key), the version of the run's first event, the
  number of events, and one payload (:mod:`cascadia.application.compact_codec`). A save
  of one game's events is one row; a transaction of 64 games is 64 rows.
- **optimistic concurrency**: a row whose versions overlap an existing row's is refused
  by the insert itself, in the same statement (``INSERT ... SELECT ... WHERE NOT
  EXISTS``; a unique index on the aggregate and first version, where the layout has
  one, refuses a taken first version too); it raises the library's ``IntegrityError``
  and nothing of the transaction is written.
- **notification ids**: row ``r`` (an increasing row id: SQLite's rowid, PostgreSQL's
  ``bigserial`` or the keyed layout's dense ids, rows committed in id order) holds the
  notifications ``r * 2**ROW_BITS + i`` for its events ``i = 0, 1, ...``. They are
  unique and increase in the order events were stored, with gaps between rows, which
  the library's contract allows. ``select_notifications`` reads rows from the row of
  ``start`` on and filters topics in Python, after expanding the rows.

The SQL lives in the layouts' subclasses (:mod:`cascadia.application.store_layouts`),
which implement the ``_..._rows`` methods.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any
from uuid import UUID

from cascadia.application.compact_codec import decode_entry, decode_payload, encode_payload, entry_topic
from eventsourcing.persistence import ApplicationRecorder, IntegrityError, Notification, StoredEvent

ROW_BITS = 10
ROW_CAPACITY = 1 << ROW_BITS
"""The most events in one row (a whole 4-player game has about 450)."""
FIRST_READ = 2
MAX_READ = 512
"""Rows read per query while paging notifications: 2, then twice as many each time up
to this, so that a page costs few queries whether rows are long or short. Two first: a
reader resuming after the last notification it saw (a stream poller) starts in that
notification's row, and gets that row and whatever follows in one query."""


@dataclass(frozen=True)
class EventRow:
    """One row of the compact store (``id`` is 0 for a row not written yet)."""

    originator_id: UUID | str
    first_version: int
    count: int
    payload: bytes
    id: int = 0

    @property
    def last_version(self) -> int:
        return self.first_version + self.count - 1

    def events(self) -> Iterator[StoredEvent]:
        """The row's events, in version order."""
        for index, entry in enumerate(decode_payload(self.payload)):
            topic, state = decode_entry(entry)
            yield StoredEvent(self.originator_id, self.first_version + index, topic, state)

    def notifications(self, topics: frozenset[str] = frozenset(), first: int = 0) -> Iterator[Notification]:
        """The row's notifications from its event ``first`` (from 0) on, in order; only
        those of ``topics`` when given (the state of the others is never built)."""
        for index, entry in enumerate(decode_payload(self.payload)):
            if index < first or (topics and entry_topic(entry) not in topics):
                continue
            topic, state = decode_entry(entry)
            yield Notification(
                id=notification_id(self.id, index),
                originator_id=self.originator_id,
                originator_version=self.first_version + index,
                topic=topic,
                state=state,
            )


def notification_id(row_id: int, index: int) -> int:
    """The notification id of the event ``index`` (from 0) of row ``row_id``."""
    return (row_id << ROW_BITS) | index


def row_of(notification: int) -> int:
    """The id of the row that holds (or would hold) notification id ``notification``."""
    return notification >> ROW_BITS


def new_rows(stored_events: Sequence[StoredEvent], *, flat: bool = False) -> list[EventRow]:
    """The rows that hold ``stored_events``: one per run of consecutive versions of one
    aggregate, in order, their payloads nested or ``flat``
    (:mod:`cascadia.application.compact_codec`). ``IntegrityError`` if two runs of one
    aggregate overlap."""
    runs: list[list[StoredEvent]] = []
    for event in stored_events:
        run = runs[-1] if runs else None
        if (
            run is not None
            and len(run) < ROW_CAPACITY
            and event.originator_id == run[-1].originator_id
            and event.originator_version == run[-1].originator_version + 1
        ):
            run.append(event)
        else:
            runs.append([event])
    rows = [
        EventRow(
            run[0].originator_id,
            run[0].originator_version,
            len(run),
            encode_payload([(event.topic, event.state) for event in run], flat=flat),
        )
        for run in runs
    ]
    _refuse_overlaps(rows)
    return rows


def _refuse_overlaps(rows: Sequence[EventRow]) -> None:
    """The database refuses a row that overlaps a stored one; rows of one insert that
    overlap each other are refused here."""
    by_originator: dict[UUID | str, list[EventRow]] = {}
    for row in rows:
        by_originator.setdefault(row.originator_id, []).append(row)
    for same in by_originator.values():
        same.sort(key=lambda row: row.first_version)
        for before, after in pairwise(same):
            if after.first_version <= before.last_version:
                raise IntegrityError(
                    f"events of {after.originator_id} at version {after.first_version} are saved twice"
                )


class CompactRecorder(ApplicationRecorder):
    """The ``ApplicationRecorder`` methods on rows of several events (see the module
    docstring); a backend provides the four ``_..._rows`` queries."""

    flat_payloads = False
    """Whether new rows are written with flat payloads (nested when not)."""

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """Store the events, one row per run of one aggregate, in one transaction;
        returns their notification ids."""
        rows = new_rows(stored_events, flat=self.flat_payloads)
        if not rows:
            return []
        row_ids = self._insert_rows(rows)
        return [
            notification_id(row_id, index)
            for row_id, row in zip(row_ids, rows, strict=True)
            for index in range(row.count)
        ]

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        """The aggregate's events with ``gt < version <= lte``, in version order (or
        reversed), at most ``limit``. Every row read holds at least one of them, so at
        most ``limit`` rows are read."""
        rows = self._select_aggregate_rows(originator_id, gt, lte, desc, limit)
        low = -1 if gt is None else gt
        events = [
            event
            for row in rows
            for event in row.events()
            if event.originator_version > low and (lte is None or event.originator_version <= lte)
        ]
        events.sort(key=lambda event: event.originator_version, reverse=desc)
        return events if limit is None else events[:limit]

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        """Up to ``limit`` notifications with ids from ``start`` (or after it) up to
        ``stop``, of ``topics`` if any, in order."""
        lowest = 0 if start is None else start if inclusive_of_start else start + 1
        wanted = frozenset(topics)
        found: list[Notification] = []
        next_row, read = row_of(lowest), FIRST_READ
        while len(found) < limit:
            rows = self._select_rows_from(next_row, None if stop is None else row_of(stop), read)
            for row in rows:
                # the first row may begin before ``lowest``: its earlier events are not decoded
                for notification in row.notifications(wanted, lowest - notification_id(row.id, 0)):
                    if stop is not None and notification.id > stop:
                        return found
                    found.append(notification)
                    if len(found) == limit:
                        return found
            if len(rows) < read:
                break
            next_row, read = rows[-1].id + 1, min(read * 2, MAX_READ)
        return found

    def max_notification_id(self) -> int | None:
        """The id of the last notification stored (``None`` when there is none)."""
        last = self._last_row()
        return None if last is None else notification_id(last.id, last.count - 1)

    # -- the backend's queries --------------------------------------------------------------

    def _insert_rows(self, rows: Sequence[EventRow]) -> list[int]:
        """Insert ``rows`` in one transaction and return their ids; ``IntegrityError``
        (nothing written) if one overlaps a stored row of its aggregate."""
        raise NotImplementedError

    def _select_aggregate_rows(
        self, originator_id: UUID | str, gt: int | None, lte: int | None, desc: bool, limit: int | None
    ) -> list[EventRow]:
        """The aggregate's rows holding a version in ``(gt, lte]``, by first version
        (descending if ``desc``), at most ``limit``."""
        raise NotImplementedError

    def _select_rows_from(self, first_row: int, last_row: int | None, limit: int) -> list[EventRow]:
        """At most ``limit`` rows with ``first_row <= id <= last_row``, by id."""
        raise NotImplementedError

    def _last_row(self) -> EventRow | None:
        """The row with the highest id, if any."""
        raise NotImplementedError
