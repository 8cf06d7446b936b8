"""Which data directory a command uses, and checks of it before the command touches it.

The data directory is ``--home`` (given after the command, else before it), else
``$CASCADIA_HOME``, else ``./.cascadia`` when that folder exists in the current
directory (the default of earlier versions, read with a notice on stderr), else the
platform's user data folder (:func:`cascadia.application.settings.default_home`).

A command that only reads (``games``, ``show``, ``export``, ``stats`` ...) creates
nothing: a missing data directory means there is no data there, and the SQLite event
store is opened read-only (``mode=ro``), so a read-only data directory can still be
read; finding no data, it names the folder it looked in and how to choose another. A
command that writes says which file it cannot write, in one line, before it starts, and
says where it creates the data directory when no ``--home`` chose it. A data directory
that is a file is refused by both.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

from cascadia.application.database import SQLITE_MODULE
from cascadia.application.settings import (
    APP_NAME,
    HOME_VAR,
    LEGACY_HOME,
    data_home,
    default_home,
    resolve_settings,
)
from cascadia.domain.errors import CascadiaError
from eventsourcing.utils import Environment

HOME_HINT = f"pass --home DIR or set {HOME_VAR}"
"""How to point a command at another data directory (said with every "no games" error)."""


class DataHomeError(CascadiaError):
    """A data directory that cannot be used as asked (missing, a file, read-only)."""


def notice(message: str) -> None:
    """One line ``note: message`` on stderr (stdout stays the command's output)."""
    print(f"note: {message}", file=sys.stderr)


def chosen_home(home: str | None) -> str | None:
    """The ``home`` a command passes on: ``home`` (its ``--home``) when given; else
    ``./.cascadia`` when that folder exists here and ``$CASCADIA_HOME`` is not set (with
    a notice, so that games stored under the old default do not vanish); else ``None``
    (:func:`~cascadia.application.settings.data_home` then takes ``$CASCADIA_HOME`` or the
    default)."""
    if home is not None or os.environ.get(HOME_VAR) or not Path(LEGACY_HOME).is_dir():
        return home
    notice(f"using ./{LEGACY_HOME} (found here); the default is now {default_home()}; pass --home to choose")
    return LEGACY_HOME


def described_home(folder: Path, home: str | None) -> str:
    """``folder`` for a message, saying how it was chosen when it is the data directory
    and ``--home`` did not name it: ``(the default data home)`` or ``(from $CASCADIA_HOME)``."""
    if home is not None or folder != data_home(home):
        return str(folder)
    return f"{folder} ({f'from ${HOME_VAR}' if os.environ.get(HOME_VAR) else 'the default data home'})"


def _no_games(folder: Path, home: str | None, why: str) -> DataHomeError:
    """The error of a reading command that finds no data in ``folder``."""
    return DataHomeError(f"no games in {described_home(folder, home)}: {why}; {HOME_HINT}")


def _announce_new(folder: Path, home: str | None) -> None:
    """Say where a writing command creates the data directory, the first time, unless
    ``--home`` named it (then the user chose the place)."""
    if home is None and not folder.exists():
        notice(f"creating the data directory {described_home(folder, home)}; {HOME_HINT} to choose")


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
        raise _no_games(folder, home, "the folder does not exist")
    return folder


def require_writable(home: str | None, *names: str) -> Path:
    """The data directory of a writing command, checked before anything is written:
    a folder (created when missing) in which ``names`` (files or folders) can be written."""
    folder = data_home(home)
    _require_writable_folder(folder, names)
    _announce_new(folder, home)
    return folder


def require_writable_store(home: str | None) -> None:
    """:func:`require_writable` for the SQLite event-store file (when the events are kept
    in one: PostgreSQL needs no folder)."""
    events = sqlite_events_file(home)
    if events is not None:
        _require_writable_folder(events.parent, [events.name])
        _announce_new(events.parent, home)


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
        raise _no_games(events.parent, home, "the folder does not exist")
    if not events.is_file():
        raise _no_games(events.parent, home, f"no {events.name} there")
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
