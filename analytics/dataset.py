"""The analytics dataset's layout: partitions, names, the versioned description, and how
a batch's rows are split into partitions (analytics/SCHEMA.md, "Files").

Under ``<home>/analytics``::

    dataset.json                                       format, schema version, keys, tables
    _commits/<batch>.json                              one per committed batch
    <table>/players=<n>/source=<name>/<batch>.parquet  one per table, partition and batch

The partition keys (:data:`cascadia.analytics.schema.PARTITION_KEYS`) are the game's
number of seats and the batch's source; no file stores them. Reading and writing the
files is :mod:`cascadia.analytics.storage`'s job.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
from cascadia.analytics import schema
from cascadia.domain.errors import CascadiaError
from cascadia.replays.format import loads_bounded

FORMAT = "cascadia-analytics"
"""The ``format`` of ``dataset.json``."""
DESCRIPTION_FILE = "dataset.json"
COMMITS_DIR = "_commits"
"""Where the commit markers live (a leading ``_``: Hive readers skip the folder)."""
SUFFIX = ".parquet"
COMMIT_SUFFIX = ".json"
INGEST_SOURCE = "ingest"
"""The source of the batches that ``cascadia ingest`` writes."""
VERSION_KEY = "cascadia.schema"
"""The Parquet key-value metadata entry holding a file's schema version."""

_BATCH_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
_SOURCE = re.compile(r"[a-z][a-z0-9._-]{0,63}")


class DatasetVersionError(CascadiaError):
    """A dataset whose format or schema version this cascadia cannot read."""


def check_batch_id(batch: str) -> str:
    """``batch`` if it can name a batch: letters, digits, ``.``, ``_``, ``-``, at most 128,
    not starting with a punctuation mark (so never a hidden or temporary name)."""
    if not _BATCH_ID.fullmatch(batch):
        raise ValueError(f"invalid batch id {batch!r}: use letters, digits, '.', '_' and '-'")
    return batch


def check_source(source: str) -> str:
    """``source`` if it can name a source: lower-case letters, digits, ``.``, ``_``, ``-``,
    starting with a letter (so that no reader takes a partition value for a number)."""
    if not _SOURCE.fullmatch(source):
        raise ValueError(f"invalid source {source!r}: start with a-z, then a-z, digits, '.', '_' and '-'")
    return source


@dataclass(frozen=True, order=True, slots=True)
class Partition:
    """One partition of the dataset; its fields are the partition keys, in path order."""

    players: int
    source: str

    @property
    def path(self) -> str:
        """The partition's folder under a table's folder: ``players=4/source=ingest``."""
        return "/".join(f"{key}={value}" for key, value in asdict(self).items())

    @classmethod
    def of_folder(cls, folder: Path) -> Partition | None:
        """The partition a table's ``players=<n>/source=<name>`` folder holds (``None``: not one)."""
        players, _, count = folder.parent.name.partition("=")
        source, _, name = folder.name.partition("=")
        if (players, source) != ("players", "source") or not count.isdigit() or not _SOURCE.fullmatch(name):
            return None
        return cls(int(count), name)


def description() -> dict[str, Any]:
    """The content of ``dataset.json``: what a reader needs to know before reading."""
    return {
        "format": FORMAT,
        "schema_version": schema.SCHEMA_VERSION,
        "partitioning": "hive",
        "partition_keys": [{"name": f.name, "type": str(f.type)} for f in schema.PARTITION_KEYS],
        "tables": list(schema.SCHEMAS),
        "commits": COMMITS_DIR,
    }


def check_description(root: Path) -> None:
    """Refuse (:class:`DatasetVersionError`, one line) a dataset at ``root`` whose
    ``dataset.json`` names another format or schema version; no file: nothing to refuse."""
    path = root / DESCRIPTION_FILE
    try:
        data = loads_bounded(path.read_bytes())
    except FileNotFoundError:
        return
    except (OSError, ValueError) as error:
        raise DatasetVersionError(f"{path}: cannot read the dataset description ({error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DatasetVersionError(f"{path}: not a {FORMAT} dataset")
    version = data.get("schema_version")
    if version != schema.SCHEMA_VERSION:
        raise DatasetVersionError(
            f"{path}: the analytics dataset has schema version {version}, "
            f"this cascadia reads version {schema.SCHEMA_VERSION} only"
        )


def split(tables: Mapping[str, pa.Table], batch: str, source: str) -> dict[Partition, dict[str, pa.Table]]:
    """The rows of one batch by partition: per partition, each table's rows of the games
    of that many players, reduced to the stored columns and tagged with the schema version.

    ``tables`` holds one table per stored table, with the columns of
    :data:`cascadia.analytics.schema.SCHEMAS` and ``batch`` in its ``batch`` column (what
    :meth:`cascadia.analytics.rows.BatchColumns.tables` returns); else ``ValueError``."""
    import pyarrow.compute as pc  # a writer's: readers of the dataset do without its import

    for name in schema.TABLES:
        _check_table(name, tables[name], batch)
    games = tables[schema.GAMES]
    counts = games.column("players")
    if counts.null_count:
        raise ValueError("games: every game needs its number of players")
    values = sorted(set(counts.to_pylist()))
    parts: dict[Partition, dict[str, pa.Table]] = {}
    for players in values:
        if len(values) == 1:
            rows = dict(tables)
        else:
            ids = games.column("game_id").filter(pc.equal(counts, players))
            rows = {
                name: tables[name].filter(pc.is_in(tables[name].column("game_id"), value_set=ids))
                for name in schema.TABLES
            }
        parts[Partition(players, source)] = {name: _stored(name, rows[name]) for name in schema.TABLES}
    for name in schema.TABLES:
        if sum(part[name].num_rows for part in parts.values()) != tables[name].num_rows:
            raise ValueError(f"{name}: rows of games that are not in the batch's games table")
    return parts


def _check_table(name: str, table: pa.Table, batch: str) -> None:
    import pyarrow.compute as pc

    if not table.schema.equals(schema.SCHEMAS[name]):
        raise ValueError(f"{name}: the table does not have the columns of analytics/schema.py")
    if table.num_rows and not pc.all(pc.equal(table.column("batch"), batch)).as_py():
        raise ValueError(f"{name}: its batch column is not {batch!r} in every row")


def _stored(name: str, table: pa.Table) -> pa.Table:
    """``table`` as a file stores it: without the partition keys, with the schema version."""
    stored = table.select(schema.stored_schema(name).names)
    return stored.replace_schema_metadata({VERSION_KEY: str(schema.SCHEMA_VERSION)})
