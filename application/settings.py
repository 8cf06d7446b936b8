"""Where the event store lives and how it is configured: the data directory (``--home``,
else ``$CASCADIA_HOME``, else the platform's user data folder) and the settings the store
is opened with (:mod:`cascadia.application.store` explains their order). Apart from the
store itself, so that what only needs a path (the command line's start, the analytics)
does not load the event-sourcing library and the game engine."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs
from cascadia.application.database import DATABASE_URL_VAR, EVENTS_FILE, SQLITE_MODULE, database_settings
from eventsourcing.utils import EnvType

HOME_VAR = "CASCADIA_HOME"
"""The environment variable naming the data directory (``--home`` wins over it)."""
LEGACY_HOME = ".cascadia"
"""The default data directory of earlier versions, relative to the current directory:
the command line still reads one it finds there (:mod:`cascadia.cli.data_home`)."""
APP_NAME = "cascadia"
"""The application's name: its PostgreSQL tables are ``cascadia_aggregates`` and
``cascadia_saves`` (:mod:`cascadia.application.store_layouts`), and the library reads
``CASCADIA_<KEY>`` before ``<KEY>`` for every setting."""


def default_home() -> Path:
    """The data directory when neither ``--home`` nor ``$CASCADIA_HOME`` names one: the
    platform's user data folder for cascadia (``platformdirs.user_data_dir``), e.g.
    ``~/.local/share/cascadia`` on Linux (``$XDG_DATA_HOME/cascadia`` when that is set)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def data_home(home: str | os.PathLike[str] | None = None) -> Path:
    """The data directory: ``home`` if given, else ``$CASCADIA_HOME``, else :func:`default_home`."""
    return Path(home or os.environ.get(HOME_VAR) or default_home())


def store_settings(home: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """The defaults: SQLite in the data directory, events encoded with msgpack.

    For PostgreSQL (when chosen) the pool keeps one connection open rather than the
    library's five (a command is single-threaded; more are opened on demand) and a
    connection attempt gives up after 10 s rather than 30 s."""
    return {
        "PERSISTENCE_MODULE": SQLITE_MODULE,
        "SQLITE_DBNAME": str(data_home(home) / EVENTS_FILE),
        "TRANSCODER_TOPIC": "cascadia.application.transcoder:MsgpackTranscoder",
        "POSTGRES_POOL_SIZE": "1",
        "POSTGRES_CONNECT_TIMEOUT": "10",
    }


def resolve_settings(
    home: str | os.PathLike[str] | None = None, env: EnvType | None = None
) -> dict[str, str]:
    """The settings a :class:`GameStore` uses: the defaults, then ``os.environ``, then ``env``,
    then the settings of ``CASCADIA_DATABASE_URL`` if one of them sets it."""
    settings = store_settings(home)
    settings.update(os.environ)
    if env:
        settings.update(env)
    url = settings.get(DATABASE_URL_VAR)
    if url:
        for key, value in database_settings(url).items():
            settings[key] = value
            settings.pop(f"{APP_NAME.upper()}_{key}", None)  # else the library would read this first
    return settings
