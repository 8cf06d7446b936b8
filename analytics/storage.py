"""Where the analytics tables live on disk, and how a batch is committed.

Layout, under the data directory (``--home``, ``$CASCADIA_HOME`` or ``./.cascadia``)::

    analytics/
      .lock                       held (flock) by the one ingest that writes
      tracking.json               where ``ingest --from-store`` stopped in the notification log
      games/batch-<id>.parquet    one file per table per ingest batch
      players/batch-<id>.parquet
      events/batch-<id>.parquet
      placements/batch-<id>.parquet
      marks.parquet               every mark of every achievement map, rewritten whole

A batch is written to hidden temporary names and renamed into place, ``games`` last: a
batch is **committed** exactly when its ``games`` file exists. Readers only see the
files of committed batches, so a half-finished ingest shows no partial game; the next
ingest deletes what an interrupted one left behind. New games add files; no file is
ever rewritten.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from cascadia.analytics import schema
from cascadia.domain.errors import CascadiaError

ANALYTICS_DIR = "analytics"
TRACKING_FILE = "tracking.json"
MARKS_FILE = "marks.parquet"
LOCK_FILE = ".lock"
BATCH_PREFIX = "batch-"
SUFFIX = ".parquet"
TEMP_SUFFIX = ".tmp"
COMPRESSION = "zstd"


class AnalyticsBusyError(CascadiaError):
    """Another ingest is writing to the same analytics folder."""


def new_batch_id() -> str:
    """A batch id that sorts by creation time: ``20250101T120000-1a2b3c4d``."""
    return f"{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}-{uuid.uuid4().hex[:8]}"


class AnalyticsStore:
    """The Parquet files of the analytics tables under ``<home>/analytics``."""

    def __init__(self, home: str | os.PathLike[str]) -> None:
        """``home``: the data directory, resolved by the caller (the application's ``data_home``)."""
        self.root = Path(home) / ANALYTICS_DIR

    def table_dir(self, table: str) -> Path:
        return self.root / table

    def _batch_file(self, table: str, batch: str) -> Path:
        return self.table_dir(table) / f"{BATCH_PREFIX}{batch}{SUFFIX}"

    @staticmethod
    def _batch_of(path: Path) -> str:
        return path.name[len(BATCH_PREFIX) : -len(SUFFIX)]

    def committed_batches(self) -> list[str]:
        """The ids of the committed batches (those whose ``games`` file exists), oldest first."""
        folder = self.table_dir(schema.GAMES)
        if not folder.is_dir():
            return []
        return sorted(self._batch_of(p) for p in folder.glob(f"{BATCH_PREFIX}*{SUFFIX}"))

    def files(self, table: str, batches: list[str] | None = None) -> list[Path]:
        """The files of ``table`` that belong to committed batches."""
        committed = self.committed_batches() if batches is None else batches
        return [path for batch in committed if (path := self._batch_file(table, batch)).exists()]

    def ingested_game_ids(self) -> set[str]:
        """The ids of every game in a committed batch."""
        files = self.files(schema.GAMES)
        if not files:
            return set()
        ids = pq.read_table([str(f) for f in files], columns=["game_id"]).column("game_id")
        return set(ids.to_pylist())

    def size_on_disk(self) -> int:
        """Bytes of all committed Parquet files."""
        batches = self.committed_batches()
        return sum(p.stat().st_size for t in schema.TABLES for p in self.files(t, batches))

    @contextmanager
    def writing(self) -> Iterator[AnalyticsStore]:
        """Hold the write lock (one ingest at a time) and clear what an interrupted
        ingest left behind. Raises :class:`AnalyticsBusyError` if another ingest runs."""
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / LOCK_FILE, "a+") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise AnalyticsBusyError(
                    f"another ingest is writing to {self.root}; wait for it to finish"
                ) from None
            try:
                self._remove_leftovers()
                yield self
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _remove_leftovers(self) -> None:
        """Temporary files, and files of batches whose ``games`` file was never renamed in."""
        (self.root / f".{MARKS_FILE}{TEMP_SUFFIX}").unlink(missing_ok=True)
        committed = set(self.committed_batches())
        for table in schema.TABLES:
            folder = self.table_dir(table)
            if not folder.is_dir():
                continue
            for path in folder.iterdir():
                if path.name.endswith(TEMP_SUFFIX) or (
                    path.name.startswith(BATCH_PREFIX)
                    and path.name.endswith(SUFFIX)
                    and self._batch_of(path) not in committed
                ):
                    path.unlink()

    def write_batch(self, tables: dict[str, pa.Table], batch: str) -> int:
        """Write one batch (a table per stored table) and commit it; returns its bytes.

        Call only while holding :meth:`writing`."""
        written: list[tuple[Path, Path]] = []
        size = 0
        for table in schema.TABLES:
            final = self._batch_file(table, batch)
            final.parent.mkdir(parents=True, exist_ok=True)
            temp = final.with_name(f".{final.name}{TEMP_SUFFIX}")
            pq.write_table(tables[table], temp, compression=COMPRESSION)
            with open(temp, "rb") as handle:
                os.fsync(handle.fileno())
            size += temp.stat().st_size
            written.append((temp, final))
        for temp, final in written:  # games last: the batch is committed by its last rename
            os.replace(temp, final)
        _fsync_dir(self.table_dir(schema.GAMES))
        return size

    # -- the marks of the achievement maps, one file replaced whole --------------------

    @property
    def marks_file(self) -> Path:
        return self.root / MARKS_FILE

    def write_marks(self, table: pa.Table) -> int:
        """Replace the marks table (atomically); call only while holding :meth:`writing`."""
        temp = self.marks_file.with_name(f".{MARKS_FILE}{TEMP_SUFFIX}")
        pq.write_table(table, temp, compression=COMPRESSION)
        with open(temp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(temp, self.marks_file)
        _fsync_dir(self.root)
        return self.marks_file.stat().st_size

    # -- the position of ingest --from-store in the event store's notification log ---

    def tracking_position(self, location: str) -> int:
        """The last notification id processed from the event store at ``location`` (0: none)."""
        try:
            data = json.loads((self.root / TRACKING_FILE).read_text())
        except (OSError, ValueError):
            return 0
        position = data.get(location, 0) if isinstance(data, dict) else 0
        return position if isinstance(position, int) and position >= 0 else 0

    def save_tracking_position(self, location: str, position: int) -> None:
        """Record (atomically) that notifications up to ``position`` are processed."""
        path = self.root / TRACKING_FILE
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            data = {}
        if not isinstance(data, dict):
            data = {}
        data[location] = position
        temp = path.with_name(f".{path.name}{TEMP_SUFFIX}")
        temp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        os.replace(temp, path)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
