"""The first, unversioned layout of the analytics tables, still read (never written).

Before the dataset was partitioned, ``cascadia ingest`` wrote ``<table>/batch-<id>.parquet``
straight under each table's folder, every column stored (``players`` included, in
``games`` only), and a batch was committed exactly when its ``games`` file existed. Such
files are read alongside the partitioned dataset: their source is ``ingest``, and a row of
another table gets its game's ``players``. A writer removes the files of a legacy batch
whose ``games`` file is missing (an ingest interrupted by the old code).
"""

from __future__ import annotations

from pathlib import Path

from cascadia.analytics import schema
from cascadia.analytics.dataset import INGEST_SOURCE, SUFFIX

PREFIX = "batch-"
SOURCE = INGEST_SOURCE
"""The source of every legacy batch: only ``cascadia ingest`` wrote them."""


def _batch_of(path: Path) -> str:
    return path.name[len(PREFIX) : -len(SUFFIX)]


def _batch_files(root: Path, table: str) -> list[Path]:
    folder = root / table
    return sorted(folder.glob(f"{PREFIX}*{SUFFIX}")) if folder.is_dir() else []


def committed_batches(root: Path) -> list[str]:
    """The ids of the committed legacy batches (those whose ``games`` file exists), oldest first."""
    return [_batch_of(path) for path in _batch_files(root, schema.GAMES)]


def files(root: Path, table: str) -> list[Path]:
    """The legacy files of ``table`` that belong to committed batches, oldest first."""
    committed = set(committed_batches(root))
    return [path for path in _batch_files(root, table) if _batch_of(path) in committed]


def leftovers(root: Path) -> list[Path]:
    """The legacy files of batches that were never committed."""
    committed = set(committed_batches(root))
    return [
        path
        for table in schema.TABLES
        for path in _batch_files(root, table)
        if _batch_of(path) not in committed
    ]
