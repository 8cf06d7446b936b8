"""Where the analytics tables live on disk, and how a batch is written and committed.

The tables form a Hive-partitioned Parquet dataset (:mod:`cascadia.analytics.dataset`,
analytics/SCHEMA.md) under the data directory (``--home``, else ``$CASCADIA_HOME``, else
the platform's user data folder: :func:`cascadia.application.settings.data_home`)::

    analytics/
      dataset.json                 format, schema version, partition keys, tables (written once)
      _commits/<batch>.json        the commit marker of each batch: its source, files and rows
      games/players=<n>/source=<name>/<batch>.parquet     one file per table, partition and batch
      players/...  events/...  placements/...             (the same partitions)
      <table>/batch-<id>.parquet   the first, unversioned layout (:mod:`cascadia.analytics.legacy`)
      marks.parquet                every mark of every achievement map, rewritten whole
      tracking.json                where ``ingest --from-store`` stopped in the notification log
      .lock                        held (flock) by the one writer

A batch is written to hidden temporary names, renamed into place, then committed by
writing its marker ``_commits/<batch>.json``: a batch is **committed** exactly when its
marker exists, and a file belongs to the dataset exactly when the marker of its batch
(its file name) exists. Readers of this module only see such files, so a half-written
batch shows no partial game; the next writer deletes what an interrupted one left
behind. New games add files; a committed file is never rewritten, except that writing a
batch id again replaces that batch whole (a study re-writing a batch it never finished).
"""

from __future__ import annotations

import fcntl
import json
import os
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from cascadia.analytics import legacy, schema
from cascadia.analytics.contests import with_contests
from cascadia.analytics.dataset import (
    COMMIT_SUFFIX,
    COMMITS_DIR,
    DESCRIPTION_FILE,
    INGEST_SOURCE,
    SUFFIX,
    Partition,
    check_batch_id,
    check_description,
    check_source,
    description,
    split,
)
from cascadia.domain.errors import CascadiaError
from cascadia.replays.format import loads_bounded

ANALYTICS_DIR = "analytics"
TRACKING_FILE = "tracking.json"
MARKS_FILE = "marks.parquet"
LOCK_FILE = ".lock"
TEMP_SUFFIX = ".tmp"
COMPRESSION = "zstd"


@dataclass(frozen=True)
class EncodedBatch:
    """A batch as the bytes of its Parquet files, by path under the analytics folder, and
    the rows of each: what :meth:`AnalyticsStore.write_encoded` writes and commits."""

    batch: str
    source: str
    files: dict[str, bytes]
    rows: dict[str, int]

    @property
    def size(self) -> int:
        return sum(len(data) for data in self.files.values())

    def marker(self) -> dict[str, Any]:
        """The batch's commit marker (``_commits/<batch>.json``)."""
        return {
            "batch": self.batch,
            "source": self.source,
            "schema_version": schema.SCHEMA_VERSION,
            "columns": schema.columns_digest(),
            "files": dict(self.rows),
        }


def encode_batch(tables: Mapping[str, pa.Table], batch: str, source: str = INGEST_SOURCE) -> EncodedBatch:
    """The Parquet files of a batch (one per table and partition, as
    :meth:`AnalyticsStore.write_batch` names them), encoded in memory; anywhere, since
    nothing is read or written. ``ValueError`` for an invalid id, source or table.

    Each game's card contests (:mod:`cascadia.analytics.contests`) are worked out here,
    from the batch's own ``players`` table, whatever ``tables`` holds in those columns:
    every batch written carries them, so a dataset of batches of the current columns
    needs no fallback (:attr:`~cascadia.analytics.query.AnalyticsDB.all_current`)."""
    tables = {**tables, schema.GAMES: with_contests(tables[schema.GAMES], tables[schema.PLAYERS])}
    parts = split(tables, check_batch_id(batch), check_source(source))
    files: dict[str, bytes] = {}
    rows: dict[str, int] = {}
    for partition, tables_of_partition in parts.items():
        for table in schema.TABLES:
            data = tables_of_partition[table]
            if not data.num_rows:
                continue
            name = f"{ANALYTICS_DIR}/{table}/{partition.path}/{batch}{SUFFIX}"
            sink = pa.BufferOutputStream()
            pq.write_table(data, sink, compression=COMPRESSION)
            files[name.removeprefix(f"{ANALYTICS_DIR}/")] = sink.getvalue().to_pybytes()
            rows[name.removeprefix(f"{ANALYTICS_DIR}/")] = data.num_rows
    return EncodedBatch(batch, source, files, rows)


class AnalyticsBusyError(CascadiaError):
    """Another writer is writing to the same analytics folder."""


def new_batch_id() -> str:
    """A batch id that sorts by creation time: ``20250101T120000-1a2b3c4d``."""
    return f"{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}-{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True, slots=True)
class Listing:
    """The committed files of each table by partition (:meth:`AnalyticsStore.partitions`)
    and the batches written with the current columns, read once for a reader."""

    partitions: dict[str, dict[Partition, list[Path]]]
    current: set[str]


class AnalyticsStore:
    """The Parquet files of the analytics tables under ``<home>/analytics``."""

    def __init__(self, home: str | os.PathLike[str]) -> None:
        """``home``: the data directory, resolved by the caller (the application's ``data_home``)."""
        self.root = Path(home) / ANALYTICS_DIR
        self._holding = False

    def table_dir(self, table: str) -> Path:
        return self.root / table

    def _marker(self, batch: str) -> Path:
        return self.root / COMMITS_DIR / f"{batch}{COMMIT_SUFFIX}"

    # -- reading -----------------------------------------------------------------------

    def check_dataset(self) -> None:
        """Refuse a dataset of another format or schema version
        (:class:`~cascadia.analytics.dataset.DatasetVersionError`, one line)."""
        check_description(self.root)

    def _committed(self) -> set[str]:
        """The ids of the committed batches of the partitioned layout."""
        folder = self.root / COMMITS_DIR
        return {p.stem for p in folder.glob(f"*{COMMIT_SUFFIX}")} if folder.is_dir() else set()

    def committed_batches(self) -> list[str]:
        """The ids of the committed batches (legacy ones included), sorted."""
        return sorted(self._committed() | set(legacy.committed_batches(self.root)))

    def _partition_files(self, table: str) -> Iterator[tuple[Partition, Path]]:
        """Every file of ``table`` in a partition folder, committed or not."""
        for path in sorted(self.table_dir(table).glob(f"*=*/*=*/*{SUFFIX}")):
            partition = Partition.of_folder(path.parent)
            if partition is not None:
                yield partition, path

    def partitions(self, table: str, committed: set[str] | None = None) -> dict[Partition, list[Path]]:
        """The committed files of ``table`` in the partitioned layout, by partition
        (``committed``: the committed batches, when the caller has listed them)."""
        committed = self._committed() if committed is None else committed
        result: dict[Partition, list[Path]] = {}
        for partition, path in self._partition_files(table):
            if path.stem in committed:
                result.setdefault(partition, []).append(path)
        return dict(sorted(result.items()))

    def batches_with_current_columns(self, committed: set[str] | None = None) -> set[str]:
        """The committed batches whose marker says their files have the columns this
        cascadia writes (:func:`~cascadia.analytics.schema.columns_digest`)."""
        digest = schema.columns_digest()
        committed = self._committed() if committed is None else committed
        return {batch for batch in committed if _marker_columns(self._marker(batch)) == digest}

    def listing(self) -> Listing:
        """What a reader of the partitioned layout sees, each folder listed once."""
        committed = self._committed()
        return Listing(
            {table: self.partitions(table, committed) for table in schema.TABLES},
            self.batches_with_current_columns(committed),
        )

    def legacy_files(self, table: str) -> list[Path]:
        """The committed files of ``table`` in the legacy layout (:mod:`cascadia.analytics.legacy`)."""
        return legacy.files(self.root, table)

    def files(self, table: str) -> list[Path]:
        """Every committed file of ``table``: partitioned, then legacy."""
        return [p for paths in self.partitions(table).values() for p in paths] + self.legacy_files(table)

    def ingested_game_ids(self) -> set[str]:
        """The ids of every game in a committed batch."""
        files = self.files(schema.GAMES)
        if not files:
            return set()
        table = pq.read_table([str(f) for f in files], columns=["game_id"], partitioning=None)
        return set(table.column("game_id").to_pylist())

    def size_on_disk(self) -> int:
        """Bytes of all committed Parquet files."""
        return sum(p.stat().st_size for t in schema.TABLES for p in self.files(t))

    # -- writing -----------------------------------------------------------------------

    @contextmanager
    def writing(self) -> Iterator[AnalyticsStore]:
        """Hold the write lock (one writer at a time), refuse a dataset of another version,
        and clear what an interrupted writer left behind. Raises :class:`AnalyticsBusyError`
        if another writer holds the lock. A long-running writer (a study) may take it once
        per batch, so that an ingest can run between its batches::

            with store.writing():
                if batch not in store.committed_batches():
                    store.write_batch(columns.tables(batch), batch, source="study-a")
        """
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / LOCK_FILE, "a+") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise AnalyticsBusyError(
                    f"another ingest or study is writing to {self.root}; wait for it to finish"
                ) from None
            try:
                self.check_dataset()
                self._remove_leftovers()
                self._holding = True
                yield self
            finally:
                self._holding = False
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _remove_leftovers(self) -> None:
        """Temporary files, files of batches that were never committed, in either layout."""
        committed = self._committed()
        doomed = list(self.root.rglob(f".*{TEMP_SUFFIX}")) + legacy.leftovers(self.root)
        for table in schema.TABLES:
            doomed += [path for _, path in self._partition_files(table) if path.stem not in committed]
        for path in doomed:
            path.unlink()

    def write_batch(self, tables: Mapping[str, pa.Table], batch: str, source: str = INGEST_SOURCE) -> int:
        """Write one batch and commit it; returns the bytes of its Parquet files.

        ``tables``: what :meth:`cascadia.analytics.rows.BatchColumns.tables` returns for
        ``batch`` (one Arrow table per stored table, ``batch`` in every row's ``batch``
        column). ``batch``: the batch's id, unique in the dataset (letters, digits, ``.``,
        ``_``, ``-``); a caller may choose it, e.g. ``<study>-000042``. ``source``: who
        wrote the batch, a partition key (lower case, starting with a letter).

        The rows go to one file per table and partition (``players=<n>/source=<source>``),
        named ``<batch>.parquet``; the batch is committed when its marker
        ``_commits/<batch>.json`` is written, last. Writing a batch id that exists
        (committed or not) replaces that batch: its marker is removed first, then its
        files, then the new ones are written. The same rows and id give the same bytes
        (with the same pyarrow). ``batch in committed_batches()`` tells whether a batch
        was committed.

        Call only while holding :meth:`writing`; raises ``ValueError`` for an invalid id,
        source or table (see :func:`cascadia.analytics.dataset.split`)."""
        return self.write_encoded(encode_batch(tables, batch, source))

    def write_encoded(self, encoded: EncodedBatch) -> int:
        """:meth:`write_batch` for a batch already encoded by :func:`encode_batch` (for
        example in the worker process that made its rows); returns its files' bytes."""
        if not self._holding:
            raise RuntimeError("write_batch: hold AnalyticsStore.writing() first")
        description_file = self.root / DESCRIPTION_FILE
        if not description_file.exists():
            _replace(description_file, _json_bytes(description()))
        self._drop_batch(encoded.batch)
        moves: list[tuple[Path, Path]] = []
        for name, data in encoded.files.items():
            final = self.root / name
            final.parent.mkdir(parents=True, exist_ok=True)
            temp = _temp(final)
            with open(temp, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            moves.append((temp, final))
        for temp, final in moves:
            os.replace(temp, final)
        for folder in {f for _, final in moves for f in final.relative_to(self.root).parents}:
            _fsync_dir(self.root / folder)
        _replace(self._marker(encoded.batch), _json_bytes(encoded.marker()))
        return encoded.size

    def _drop_batch(self, batch: str) -> None:
        """Uncommit ``batch`` (remove its marker), then delete its files."""
        marker = self._marker(batch)
        if marker.exists():
            marker.unlink()
            _fsync_dir(marker.parent)
        for table in schema.TABLES:
            for path in self.table_dir(table).glob(f"*=*/*=*/{batch}{SUFFIX}"):
                path.unlink()

    # -- the marks of the achievement maps, one file replaced whole --------------------

    @property
    def marks_file(self) -> Path:
        return self.root / MARKS_FILE

    def write_marks(self, table: pa.Table) -> int:
        """Replace the marks table (atomically); call only while holding :meth:`writing`."""
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink, compression=COMPRESSION)
        _replace(self.marks_file, sink.getvalue().to_pybytes())
        return self.marks_file.stat().st_size

    # -- the position of ingest --from-store in the event store's notification log ---

    def tracking_position(self, location: str) -> int:
        """The last notification id processed from the event store at ``location`` (0: none)."""
        try:
            data = loads_bounded((self.root / TRACKING_FILE).read_bytes())
        except (OSError, ValueError):
            return 0
        position = data.get(location, 0) if isinstance(data, dict) else 0
        return position if isinstance(position, int) and position >= 0 else 0

    def save_tracking_position(self, location: str, position: int) -> None:
        """Record (atomically) that notifications up to ``position`` are processed."""
        path = self.root / TRACKING_FILE
        try:
            data = loads_bounded(path.read_bytes())
        except (OSError, ValueError):
            data = {}
        if not isinstance(data, dict):
            data = {}
        data[location] = position
        _replace(path, _json_bytes(data))


def _marker_columns(path: Path) -> str | None:
    """The columns digest a commit marker records (None: an older marker, or unreadable)."""
    try:
        return json.loads(path.read_bytes()).get("columns")
    except (OSError, ValueError, AttributeError):
        return None


def _json_bytes(data: Any) -> bytes:
    return (json.dumps(data, indent=1, sort_keys=True) + "\n").encode()


def _temp(path: Path) -> Path:
    """The hidden temporary name ``path`` is written under before it is renamed into place."""
    return path.with_name(f".{path.name}{TEMP_SUFFIX}")


def _replace(path: Path, data: bytes) -> None:
    """Replace (or create) ``path`` with ``data`` atomically and durably."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = _temp(path)
    temp.write_bytes(data)
    _fsync_file(temp)
    os.replace(temp, path)
    _fsync_dir(path.parent)


def _fsync_file(path: Path) -> None:
    with open(path, "rb") as handle:
        os.fsync(handle.fileno())


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
