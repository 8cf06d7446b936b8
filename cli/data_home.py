"""Checks of the data directory before a command touches it.

A command that only reads (``games``, ``show``, ``export``, ``stats`` ...) creates
nothing: a missing data directory means there is no data there, and the SQLite event
store is opened read-only (``mode=ro``), so a read-only data directory can still be
read. A command that writes says which file it cannot write, in one line, before it
starts. A data directory that is a file is refused by both.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from cascadia.application.database import SQLITE_MODULE
from cascadia.application.store import APP_NAME, data_home, resolve_settings
from cascadia.domain.errors import CascadiaError
from eventsourcing.utils import Environment


class DataHomeError(CascadiaError):
    """A data directory that cannot be used as asked (missing, a file, read-only)."""


def sqlite_events_file(home: str | None) -> Path | None:
    """The SQLite event-store file the commands would use, or ``None`` when the events
    live elsewhere (for example PostgreSQL, chosen by the environment)."""
    environment = Environment(APP_NAME, resolve_settings(home))
    if environment.get("PERSISTENCE_MODULE") != SQLITE_MODULE:
        return None
    name = environment.get("SQLITE_DBNAME") or ""
    if not name or ":memory:" in name or name.startswith("file:"):
        return None
    return Path(name)


def _refuse_file_as_folder(folder: Path) -> None:
    """Refuse a data directory that is, or lies under, something other than a folder."""
    for path in (*reversed(folder.parents), folder):
        if path.exists() and not path.is_dir():
            raise DataHomeError(f"the data directory {path} is a file, not a folder")


def require_data(home: str | None) -> Path:
    """The data directory of a reading command: it must exist and be a folder (nothing
    is created)."""
    folder = data_home(home)
    _refuse_file_as_folder(folder)
    if not folder.exists():
        raise DataHomeError(f"no data in {folder}: the folder does not exist")
    return folder


def require_writable(home: str | None, *names: str) -> Path:
    """The data directory of a writing command, checked before anything is written:
    a folder (created when missing) in which ``names`` (files or folders) can be written."""
    folder = data_home(home)
    _require_writable_folder(folder, names)
    return folder


def require_writable_store(home: str | None) -> None:
    """:func:`require_writable` for the SQLite event-store file (when the events are kept
    in one: PostgreSQL needs no folder)."""
    events = sqlite_events_file(home)
    if events is not None:
        _require_writable_folder(events.parent, [events.name])


def _require_writable_folder(folder: Path, names: Iterable[str]) -> None:
    _refuse_file_as_folder(folder)
    if folder.exists():
        _require_write_access(folder)
        for name in names:
            path = folder / name
            if path.exists():
                _require_write_access(path)


def _require_write_access(path: Path) -> None:
    if not os.access(path, os.W_OK):
        raise DataHomeError(f"cannot write {path}: it is read-only")


def read_only_env(home: str | None) -> dict[str, str] | None:
    """Settings that open the SQLite event store read-only, creating no table; ``None``
    when the store is not the data directory's SQLite file. Raises
    :class:`DataHomeError` when there is no event store to read."""
    events = sqlite_events_file(home)
    if events is None:
        return None
    if not events.parent.is_dir():
        _refuse_file_as_folder(events.parent)
        raise DataHomeError(f"no data in {events.parent}: the folder does not exist")
    if not events.is_file():
        raise DataHomeError(f"no games stored in {events.parent} (no {events.name})")
    query = "mode=ro"
    if not events.with_name(f"{events.name}-wal").exists():
        # No writer has the store open (the last one to close removes the -wal file).
        # SQLite would read a WAL database through -wal and -shm files that it creates
        # (and a read-only connection leaves behind); read as immutable, it creates
        # nothing, so that a reading command leaves the data folder as it found it. With
        # a -wal file (a writer at work, or one that crashed) the reader goes through it.
        query += "&immutable=1"
    prefix = f"{APP_NAME.upper()}_"  # the library reads CASCADIA_<KEY> before <KEY>
    return {
        f"{prefix}SQLITE_DBNAME": f"{events.resolve().as_uri()}?{query}",
        f"{prefix}CREATE_TABLE": "false",
    }
